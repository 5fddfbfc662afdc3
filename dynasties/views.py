"""A player's notices."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """The user's notices, newest first; opening the page marks them read."""
    notices = list(request.user.notifications.all()[:100])
    request.user.notifications.filter(read_at__isnull=True).update(read_at=timezone.now())
    return render(request, "dynasties/notifications.html", {"notices": notices, "unread_notifications": 0})
