"""``python manage.py send_notices [--dry-run]``: run this beat job now."""

from dynasties.beat import JobCommand
from votes.notices import notices_send


class Command(JobCommand):
    help = "Tell players what they asked to hear about, once each."
    job = staticmethod(notices_send)
