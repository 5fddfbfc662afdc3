"""``python manage.py flag_matters [--dry-run]``: run this beat job now."""

from dynasties.beat import JobCommand
from votes.jobs import matters_flag_resolvable


class Command(JobCommand):
    help = "Mark pending matters that have become enactable or failable and tell the admins."
    job = staticmethod(matters_flag_resolvable)
