"""A player's notices: the list, the private feed address, the preferences; and the admins' webhooks."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from dynasties.models import NoticePreferences, Webhook, WebhookDelivery
from dynasties.notify import preferences_of
from dynasties.webhooks import WebhookError, check_url


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """The user's notices, newest first; opening the page marks them read."""
    notices = list(request.user.notifications.all()[:100])
    request.user.notifications.filter(read_at__isnull=True).update(read_at=timezone.now())
    token = request.user.notices_feed_token
    feed_url = request.build_absolute_uri(reverse("notices_feed", args=[token])) if token else ""
    return render(request, "dynasties/notifications.html",
                  {"notices": notices, "unread_notifications": 0, "feed_url": feed_url})


@require_POST
@login_required
def notices_feed_renew(request: HttpRequest) -> HttpResponse:
    """Give the user a new private feed address; the old one stops working at once."""
    request.user.notices_feed_token = secrets.token_urlsafe(32)
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
        NoticePreferences.objects.update_or_create(user=request.user, defaults=chosen)
        messages.success(request, "Your notice preferences were saved.")
        return redirect("notice_preferences")
    kinds = [(name, label, current[name]) for name, label, _ in NoticePreferences.KINDS
             if name != "resolvable" or request.user.is_admin]
    return render(request, "dynasties/notice_preferences.html",
                  {"kinds": kinds, "current": current, "stored": stored})


def _require_admin(request: HttpRequest) -> None:
    if not (request.user.is_authenticated and request.user.is_admin):
        raise PermissionDenied("Only admins may set up webhooks.")


def webhooks(request: HttpRequest) -> HttpResponse:
    """Admins: the addresses the game's public events are sent to, and how the latest deliveries went."""
    _require_admin(request)
    error, typed = "", ""
    if request.method == "POST":
        if request.POST.get("remove"):
            Webhook.objects.filter(pk=request.POST["remove"] if request.POST["remove"].isdigit() else 0).delete()
            messages.success(request, "The webhook was removed.")
            return redirect("webhooks")
        typed = request.POST.get("url", "")
        try:
            url = check_url(typed)
        except WebhookError as problem:
            error = str(problem)
        else:
            Webhook.objects.create(url=url, created_at=timezone.now(), created_by=request.user)
            messages.success(request, "The webhook was added; new events will be sent to it.")
            return redirect("webhooks")
    deliveries = WebhookDelivery.objects.select_related("webhook").order_by("-pk")[:30]
    return render(request, "dynasties/webhooks.html",
                  {"webhooks": Webhook.objects.order_by("pk"), "deliveries": deliveries, "error": error,
                   "typed": typed}, status=400 if error else 200)
