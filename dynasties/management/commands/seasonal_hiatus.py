"""``python manage.py seasonal_hiatus [--dry-run]``: run this beat job now."""

from dynasties.beat import JobCommand
from dynasties.jobs import seasonal_hiatus_announce


class Command(JobCommand):
    help = "Announce the start and end of seasonal downtime (2016)."
    job = staticmethod(seasonal_hiatus_announce)
