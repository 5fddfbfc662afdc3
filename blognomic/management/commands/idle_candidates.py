"""``python manage.py idle_candidates [--dry-run]``: run this beat job now."""

from blognomic.flows.roster.jobs import idle_candidates_report
from dynasties.beat import JobCommand


class Command(JobCommand):
    help = "List players who may be idled for inactivity and tell the admins."
    job = staticmethod(idle_candidates_report)
