"""The request as the site's middleware and views leave it, declared so that a type checker sees what they add.

Views take a ``GameRequest`` where Django's ``HttpRequest`` would do, as django-htmx's example types its own
requests; nothing changes at run time. A view that reads the game at its own moment sets ``game_state``
itself; the sidebar's context processor, and helpers that may run first, take it through ``state_of``, so
it is built once per request.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils import timezone
from django_htmx.middleware import HtmxDetails

from dynasties.models import User
from votes.state import GameState, game_state


class GameRequest(HttpRequest):
    """Django's request with what the site's middleware and views attach to it."""

    # django-htmx's middleware: whether the request came from htmx, and what it asked for.
    htmx: HtmxDetails
    # The game as of this request, once a view or the sidebar has built it (``state_of``).
    game_state: GameState
    # Set by a view whose answer is a fragment even without htmx (the tally box): no header, no sidebar.
    fragment_only: bool
    # Set by a view that shows the game at a past moment with a sidebar of that moment it made itself (/at/).
    sidebar_then: bool
    # Set by the site's 403 and 404 pages: the game's name, look and hiatus around a message, no sidebar.
    error_page: bool
    # The logging middleware's id for the request, sent back in a header and written on every log line.
    request_id: str


class SignedInRequest(GameRequest):
    """A request to a view behind ``login_required``: its user is an account, not the anonymous user."""

    user: User


def state_of(request: GameRequest) -> GameState:
    """The game state this request has built, or the present one, kept for the rest of the request."""
    if not hasattr(request, "game_state"):
        request.game_state = game_state(timezone.now())
    return request.game_state


def admin_of(request: HttpRequest, refusal: str) -> User:
    """The admin making the request; ``PermissionDenied`` saying ``refusal`` to anyone else."""
    if not (request.user.is_authenticated and request.user.is_admin):
        raise PermissionDenied(refusal)
    return request.user
