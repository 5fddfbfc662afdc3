"""Mail to players: written to the outbox where the reason arose, sent later by a beat job or a worker.

A vote or a message never waits for a mail server. A send that fails for a while (the server is away, it
answers 4xx, it times out) is tried again with back-off for up to ``GIVE_UP_AFTER``; one the server refuses for
good (5xx) is kept as failed at once. Either way the admins see who, what, when and why
(``/notices/mail/`` and Django's admin). Every mail carries plain text and HTML, a ``Message-ID`` under the
site's own domain, ``Auto-Submitted: auto-generated`` and, for notices, a one-click unsubscribe link.
"""

from __future__ import annotations

import smtplib
from datetime import datetime, timedelta
from email.utils import make_msgid
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.urls import reverse
from django.utils.html import escape, urlize

from dynasties.beat import JobReport
from dynasties.models import OutgoingMail, User
from dynasties.unsubscribe import KINDS, unsubscribe_token

PER_RUN = 100
GIVE_UP_AFTER = timedelta(days=3)
LONGEST_WAIT = timedelta(hours=1)
# A run claims a mail for this long before sending it, so a second run at the same moment leaves it alone.
CLAIM = timedelta(minutes=5)
ERASED = "(Erased once sent: it held a link that acts for the player.)"


def absolute(path: str) -> str:
    """The address of a page of this site as a reader outside it follows it: ``SITE_URL`` and the path."""
    if urlsplit(path).scheme in ("http", "https"):
        return path
    return settings.SITE_URL.rstrip("/") + "/" + path.lstrip("/")


def retry_delay(attempts: int) -> timedelta:
    """How long to wait after the ``attempts``-th failure: 1, 2, 4 … minutes, an hour at most."""
    return min(timedelta(minutes=2 ** min(max(0, attempts - 1), 10)), LONGEST_WAIT)


def _html(text: str) -> str:
    paragraphs = [urlize(escape(part)).replace("\n", "<br>\n") for part in text.split("\n\n") if part.strip()]
    return "<!DOCTYPE html>\n<html><body>\n" + "\n".join(f"<p>{p}</p>" for p in paragraphs) + "\n</body></html>\n"


def mail_queue(
    *,
    user: User | None,
    to: str,
    kind: str,
    subject: str,
    text: str,
    now: datetime,
    unsubscribe: str | None = None,
    secret: bool = False,
) -> OutgoingMail:
    """Put one mail in the outbox. With ``unsubscribe`` (a kind of ``dynasties.unsubscribe.KINDS``), the mail
    carries a one-click link that turns that kind off, in its headers and at its foot."""
    headers = {
        "Message-ID": make_msgid(domain=urlsplit(settings.SITE_URL).hostname),
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
    }
    if unsubscribe is not None and user is not None:
        link = absolute(reverse("unsubscribe", args=[unsubscribe_token(user_pk=user.pk, kind=unsubscribe)]))
        headers["List-Unsubscribe"] = f"<{link}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        text = (
            f"{text}\n\n--\nTo stop these mails ({KINDS[unsubscribe].lower()}), follow {link}\n"
            f"Every kind of notice: {absolute(reverse('notice_preferences'))}"
        )
    return OutgoingMail.objects.create(
        user=user,
        to=to,
        kind=kind,
        subject=" ".join(subject.split())[:200],
        text=text,
        html=_html(text),
        headers=headers,
        secret=secret,
        created_at=now,
        next_attempt_at=now,
    )


def _is_permanent(error: Exception) -> bool:
    """Whether the mail server refused this mail for good (5xx about it), rather than being away or busy."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    if isinstance(error, smtplib.SMTPAuthenticationError):
        return False  # the site's own login is wrong: every mail would go once it is put right
    return isinstance(error, smtplib.SMTPResponseException) and error.smtp_code >= 500


def _text(message: bytes | str) -> str:
    return message.decode(errors="replace") if isinstance(message, bytes) else str(message)


def _describe(error: Exception) -> str:
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        code, message = next(iter(error.recipients.values()))
        return f"refused the address: {code} {_text(message)}"
    if isinstance(error, smtplib.SMTPResponseException):
        return f"{error.smtp_code} {_text(error.smtp_error)}"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _message(mail: OutgoingMail, connection) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=mail.subject,
        body=mail.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.to],
        headers=mail.headers,
        connection=connection,
    )
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    return message


def _claim(mail: OutgoingMail, now: datetime) -> bool:
    return bool(
        OutgoingMail.objects.filter(pk=mail.pk, status=OutgoingMail.PENDING, next_attempt_at__lte=now).update(
            next_attempt_at=now + CLAIM
        )
    )


def mails_send(*, now: datetime, dry_run: bool = False) -> JobReport:
    """Send what is due in the outbox; record each outcome. A server that cannot be reached ends the run (the
    rest wait for the next), so an outage costs one timeout a run, not one a mail."""
    report = JobReport()
    due = list(
        OutgoingMail.objects.filter(status=OutgoingMail.PENDING, next_attempt_at__lte=now)
        .select_related("user")
        .order_by("pk")[:PER_RUN]
    )
    if dry_run:
        report.done += [f"{mail.kind} to {mail.user or 'an applicant'}" for mail in due]
        return report
    connection = get_connection(fail_silently=False)
    try:
        for mail in due:
            if not _claim(mail, now):
                continue  # another run has it
            try:
                _message(mail, connection).send()
            except (smtplib.SMTPException, OSError) as error:
                if not _failed(mail, error, now, report):
                    break
                continue
            mail.status, mail.sent_at, mail.last_error = OutgoingMail.SENT, now, ""
            mail.attempts += 1
            _erase_secret(mail)
            mail.save(update_fields=["status", "sent_at", "last_error", "attempts", "text", "html"])
            report.done.append(f"{mail.kind} to {mail.user or 'an applicant'}: sent")
    finally:
        try:
            connection.close()
        except (smtplib.SMTPException, OSError):
            pass
    return report


def _failed(mail: OutgoingMail, error: Exception, now: datetime, report: JobReport) -> bool:
    """Record one failed send; returns whether the run may go on (the server refused this mail alone)."""
    mail.attempts += 1
    mail.last_error = _describe(error)[:500]
    permanent = _is_permanent(error)
    if permanent or now - mail.created_at >= GIVE_UP_AFTER:
        mail.status = OutgoingMail.FAILED
        _erase_secret(mail)
        report.done.append(f"{mail.kind} to {mail.user or 'an applicant'}: failed ({mail.last_error})")
    else:
        mail.next_attempt_at = now + retry_delay(mail.attempts)
        report.done.append(f"{mail.kind} to {mail.user or 'an applicant'}: will retry ({mail.last_error})")
    mail.save(update_fields=["status", "attempts", "last_error", "next_attempt_at", "text", "html"])
    return permanent


def _erase_secret(mail: OutgoingMail) -> None:
    if mail.secret:
        mail.text, mail.html = ERASED, ""
