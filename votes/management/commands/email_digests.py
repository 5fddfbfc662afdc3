"""``python manage.py email_digests [--dry-run]``: run this beat job now."""

from dynasties.beat import JobCommand
from votes.notices import digests_send


class Command(JobCommand):
    help = "Email each player who asked for it the matters waiting for their vote."
    job = staticmethod(digests_send)
