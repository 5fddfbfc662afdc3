"""``python manage.py send_outbox [--dry-run]``: run this beat job now."""

from dynasties.beat import JobCommand
from dynasties.mail import mails_send


class Command(JobCommand):
    help = "Send the mail that is due, retrying what failed for a while."
    job = staticmethod(mails_send)
