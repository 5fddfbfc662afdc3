"""``python manage.py idle_candidates [--dry-run]``: run this beat job now."""

from blognomic.jobcommand import JobCommand
from dynasties.jobs import idle_candidates_report


class Command(JobCommand):
    help = "List players who may be idled for inactivity and tell the admins."
    job = staticmethod(idle_candidates_report)
