"""``python manage.py auto_resolve [--dry-run]``: run this beat job now."""

from dynasties.beat import JobCommand
from votes.jobs import matters_auto_resolve


class Command(JobCommand):
    help = "Resolve every matter that is legal to resolve now, if the game allows it."
    job = staticmethod(matters_auto_resolve)
