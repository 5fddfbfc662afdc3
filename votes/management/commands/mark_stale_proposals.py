"""``python manage.py mark_stale_proposals [--dry-run]``: run this beat job now."""

from dynasties.beat import JobCommand
from votes.jobs import proposals_mark_stale


class Command(JobCommand):
    help = "Mark proposals pending more than seven days (2016) and tell the admins."
    job = staticmethod(proposals_mark_stale)
