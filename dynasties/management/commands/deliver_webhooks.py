"""``python manage.py deliver_webhooks [--dry-run]``: run this beat job now."""

from dynasties.beat import JobCommand
from dynasties.webhooks import webhooks_deliver


class Command(JobCommand):
    help = "Send the webhook deliveries that are due."
    job = staticmethod(webhooks_deliver)
