"""A forgotten password, reset by a link mailed to the account's confirmed address: Django's own views and
tokens (the link works once, since it is made from the password it replaces, and expires after
``PASSWORD_RESET_TIMEOUT``), with the mail sent through the outbox and its link under ``SITE_URL``.

An account imported without a usable password is claimed the same way, when the archive gave it an address.
The page answers alike, and in the same time, whether or not an address is known: the request only checks the
form and answers; looking the address up and writing the mail happen after the response has gone
(``AnswerThenRun``), in a task (``password_reset_mail``: a worker's with Redis, this process's without).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from urllib.parse import urlsplit

from celery import shared_task
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpResponseRedirect
from django.template import loader
from django.utils import timezone

from dynasties.mail import mail_queue
from dynasties.models import OutgoingMail, User
from dynasties.tasks import send_soon

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


@shared_task
def password_reset_mail(address: str) -> str:
    """Queue the reset mail for every account whose confirmed address ``address`` is (none when unknown)."""
    form = OutboxPasswordResetForm(data={"email": address})
    if not form.is_valid():
        return "not an address"
    site = urlsplit(settings.SITE_URL)
    form.save(domain_override=site.netloc, use_https=site.scheme == "https")
    return "done"


class AnswerThenRun(HttpResponseRedirect):
    """A redirect that runs ``then`` once the server has sent it: the server calls ``close()`` after the last
    byte (WSGI), so the reader's wait does not include the work. It runs before Django's own ``close()``, which
    ends the request (``request_finished`` closes its database connection)."""

    def __init__(self, url: str, *, then: Callable[[], object]) -> None:
        super().__init__(url)
        self.then = then

    def close(self) -> None:
        try:
            self.then()
        finally:
            super().close()


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset page with the mail written after the answer, so known and unknown addresses take alike."""

    form_class = OutboxPasswordResetForm

    def form_valid(self, form):
        address = form.cleaned_data["email"]
        return AnswerThenRun(self.get_success_url(), then=lambda: password_reset_mail.delay(address))
