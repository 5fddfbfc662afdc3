"""``python manage.py apply_gndt_effects [--dry-run]``: apply the GNDT's scheduled effects that are due now."""

from dynasties.beat import JobCommand
from gndt.services import gndt_effects_apply_due


class Command(JobCommand):
    help = "Apply every scheduled GNDT effect whose day or week has come; each period is applied once."
    job = staticmethod(gndt_effects_apply_due)
