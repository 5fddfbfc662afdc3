"""``python manage.py flag_resolvable_matters [--dry-run]``: run this beat job now."""

from dynasties.beat import JobCommand
from votes.jobs import flag_resolvable_matters


class Command(JobCommand):
    help = "Mark pending matters that have become enactable or failable and tell the admins."
    job = staticmethod(flag_resolvable_matters)
