"""A player's notices, and the private address of their feed of notices."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST


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
