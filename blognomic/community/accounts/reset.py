"""A forgotten password, reset by a link mailed to the account's confirmed address: Django's own views and
tokens (the link works once, since it is made from the password it replaces, and expires after
``PASSWORD_RESET_TIMEOUT``), with the mail sent through the outbox and its link under ``SITE_URL``.

An account imported without a usable password is claimed the same way, when the archive gave it an address.
The page answers alike whether or not an address is known.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.template import loader
from django.utils import timezone

from dynasties.mail import mail_queue, send_soon
from dynasties.models import OutgoingMail, User

# A stranger may ask for resets of someone else's account; the owner gets a few mails an hour at most.
RESETS_PER_HOUR = 3


class OutboxPasswordResetForm(PasswordResetForm):
    def get_users(self, email):
        """Active accounts whose confirmed address this is, those without a usable password too (an imported
        account is claimed this way; Django leaves them out because elsewhere they may log in by other
        means, which here they cannot)."""
        return (user for user in User.objects.filter(email__iexact=email.strip(), is_active=True) if user.email)

    def send_mail(
        self, subject_template_name, email_template_name, context, from_email, to_email, html_email_template_name=None
    ):
        user, now = context["user"], timezone.now()
        if (
            OutgoingMail.objects.filter(user=user, kind="reset", created_at__gte=now - timedelta(hours=1)).count()
            >= RESETS_PER_HOUR
        ):
            return
        context = {**context, "site_url": settings.SITE_URL}
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        text = loader.render_to_string(email_template_name, context)
        mail_queue(user=user, to=to_email, kind="reset", subject=subject, text=text, now=now, secret=True)
        send_soon()
