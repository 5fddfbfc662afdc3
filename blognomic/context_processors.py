"""Puts the state of the game (roster, quorum, dynasty, hiatus, pending matters) into every page."""

from django.http import HttpRequest
from django.utils import timezone

from blognomic.messaging.selectors import unread_count
from votes.selectors import awaiting_vote
from votes.state import game_state


def sidebar(request: HttpRequest) -> dict:
    if request.path.startswith("/django-admin/"):
        return {}
    # Views that already built the state for the same request reuse it.
    state = getattr(request, "game_state", None) or game_state(timezone.now())
    unread = unread_messages = 0
    if request.user.is_authenticated:
        unread = request.user.notifications.filter(read_at__isnull=True).count()
        unread_messages = unread_count(request.user)
    awaiting = awaiting_vote(state=state, viewer=request.user, now=state.now)
    return {"state": state, "unread_notifications": unread, "awaiting_vote": awaiting,
            "unread_messages": unread_messages}
