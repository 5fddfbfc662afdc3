"""A player's notices: the list, the private feed address, the preferences, unsubscribing from a mail; and the
admins' webhooks and the mail that could not be sent."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from dynasties.chat_formats import FORMATS as CHAT_FORMATS
from dynasties.inputs import query_number
from dynasties.models import NoticePreferences, OutgoingMail, User, Webhook, WebhookDelivery, new_feed_token
from dynasties.notify import (
    notice_preferences_save,
    notice_preferences_turn_off,
    notices_mark_read,
    preferences_of,
)
from dynasties.privacy import personal_page
from dynasties.unsubscribe import KINDS as UNSUBSCRIBE_KINDS
from dynasties.unsubscribe import unsubscribe_read
from dynasties.webhooks import WebhookError, check_url, check_webhook_format

UNSUBSCRIBE_UNKNOWN = "This unsubscribe link is not one of this site's, or its account is gone; nothing was changed."


@personal_page
@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """The user's notices, newest first; opening the page marks the unread ones read."""
    notices = list(request.user.notifications.all()[:100])
    notices_mark_read(user=request.user, now=timezone.now())
    token = request.user.notices_feed_token
    feed_url = request.build_absolute_uri(reverse("notices_feed", args=[token])) if token else ""
    return render(
        request, "dynasties/notifications.html", {"notices": notices, "unread_notifications": 0, "feed_url": feed_url}
    )


@require_POST
@login_required
def notices_feed_renew(request: HttpRequest) -> HttpResponse:
    """Give the user a new private feed address; the old one stops working at once."""
    request.user.notices_feed_token = new_feed_token()
    request.user.save(update_fields=["notices_feed_token"])
    messages.success(request, "Your private feed has a new address; the old one no longer works.")
    return redirect("notifications")


@login_required
def notice_preferences(request: HttpRequest) -> HttpResponse:
    """Which notices the player wants, by email too or not, and a daily digest."""
    stored = NoticePreferences.objects.filter(user=request.user).first()
    current = preferences_of([request.user])[request.user.pk]
    if request.method == "POST":
        chosen = {name: request.POST.get(name) == "on" for name in current}
        notice_preferences_save(user=request.user, chosen=chosen, now=timezone.now())
        messages.success(request, "Your notice preferences were saved.")
        return redirect("notice_preferences")
    kinds = [
        (name, label, current[name])
        for name, label, _ in NoticePreferences.KINDS
        if name != "resolvable" or request.user.is_admin
    ]
    return render(request, "dynasties/notice_preferences.html", {"kinds": kinds, "current": current, "stored": stored})


def _require_admin(request: HttpRequest) -> None:
    if not (request.user.is_authenticated and request.user.is_admin):
        raise PermissionDenied("Only admins may set up webhooks.")


def webhooks(request: HttpRequest) -> HttpResponse:
    """Admins: the addresses the game's public events are sent to, and how the latest deliveries went."""
    _require_admin(request)
    error, typed, typed_format = "", "", ""
    if request.method == "POST":
        remove = query_number(request, "remove")
        if remove is not None:
            Webhook.objects.filter(pk=remove).delete()
            messages.success(request, "The webhook was removed.")
            return redirect("webhooks")
        typed, typed_format = request.POST.get("url", ""), request.POST.get("format", "")
        try:
            chosen_format = check_webhook_format(typed_format)
            url = check_url(typed)
        except WebhookError as problem:
            error = str(problem)
        else:
            Webhook.objects.create(url=url, format=chosen_format, created_at=timezone.now(), created_by=request.user)
            messages.success(request, "The webhook was added; new events will be sent to it.")
            return redirect("webhooks")
    deliveries = WebhookDelivery.objects.select_related("webhook").order_by("-pk")[:30]
    return render(
        request,
        "dynasties/webhooks.html",
        {
            "webhooks": Webhook.objects.order_by("pk"),
            "deliveries": deliveries,
            "error": error,
            "typed": typed,
            "typed_format": typed_format,
            "formats": CHAT_FORMATS.items(),
        },
        status=400 if error else 200,
    )


@csrf_exempt
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Turn one kind of mail off from the mail itself, without logging in.

    GET shows a button (a link scanner that follows every link turns nothing off); POST, the button's or a mail
    client's one-click request (RFC 8058, which carries no cookie and so no CSRF token), turns it off. The
    signed token is the only key, and it can do nothing but turn mail off.
    """
    found = unsubscribe_read(token)
    user = User.objects.filter(pk=found[0], is_active=True).first() if found else None
    if user is None:
        return render(request, "dynasties/unsubscribe.html", {"error": UNSUBSCRIBE_UNKNOWN}, status=404)
    kind = found[1]
    done = request.method == "POST"
    if done:
        notice_preferences_turn_off(user=user, kind=kind)
    return render(
        request, "dynasties/unsubscribe.html", {"label": UNSUBSCRIBE_KINDS[kind], "done": done, "token": token}
    )


def mail_failures(request: HttpRequest) -> HttpResponse:
    """Admins: mail that could not be sent, or not yet: to whom (by name; addresses stay private), what, when
    and why."""
    if not (request.user.is_authenticated and request.user.is_admin):
        raise PermissionDenied("Only admins may see the mail that could not be sent.")
    troubled = (
        OutgoingMail.objects.exclude(last_error="")
        .exclude(status=OutgoingMail.SENT)
        .select_related("user")
        .order_by("-created_at", "-pk")[:100]
    )
    return render(request, "dynasties/mail_failures.html", {"mails": troubled})
