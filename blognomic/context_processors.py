"""Puts the state of the game (roster, quorum, dynasty, hiatus, pending matters, the dynasty's game variables
and its theme) into every page, with the viewer's own last vote on each pending matter for the summary at the
top of a phone's screen."""

from django.http import HttpRequest
from django.utils import timezone

from blognomic.messaging.selectors import unread_count
from dynasties.theming import Theme
from gndt.game_variables import game_variables_shown
from votes.selectors import awaiting_vote, recent_comments, votes_on_pending
from votes.state import game_state


def sidebar(request: HttpRequest) -> dict:
    if request.path.startswith("/django-admin/"):
        return {}
    # Views that already built the state for the same request reuse it.
    state = getattr(request, "game_state", None) or game_state(timezone.now())
    unread = unread_messages = 0
    my_votes: dict[int, str] = {}
    viewer_votes = False
    if request.user.is_authenticated:
        unread = request.user.notifications.filter(read_at__isnull=True).count()
        unread_messages = unread_count(request.user)
        viewer_votes = request.user.username in state.roster.active_names
        if viewer_votes and state.pending:
            my_votes = votes_on_pending(request.user, state)
    awaiting = awaiting_vote(state=state, viewer=request.user, now=state.now)
    variables = game_variables_shown(state.dynasty, viewer=request.user, now=state.now)
    look = state.dynasty.look() if state.dynasty is not None else Theme()
    return {"state": state, "unread_notifications": unread, "unread_messages": unread_messages,
            "awaiting_vote": awaiting, "my_votes": my_votes, "viewer_votes": viewer_votes,
            "recent_comments": recent_comments(), "game_variables": variables, "look": look}
