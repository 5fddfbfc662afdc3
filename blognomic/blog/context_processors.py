"""Puts the state of the game (roster, quorum, dynasty, hiatus, pending matters, the dynasty's game variables
and its theme) into every page, with the viewer's own last vote on each pending matter for the summary at the
top of a phone's screen."""

from blognomic.community.messaging.selectors import unread_count
from dynasties.theming import Theme
from gndt.game_variables import game_variables_shown
from votes.page_models import awaiting_vote, pending_votes_of
from votes.requests import GameRequest, state_of
from votes.selectors import recent_comments


def renders_fragment(request: GameRequest) -> bool:
    """Whether the response is a fragment, swapped into a page by htmx or always one (the tally box, which
    sets ``request.fragment_only``): it has no header, summary or sidebar."""
    # An error page rendered before the htmx middleware has run has no ``htmx``: read both with a default.
    htmx = getattr(request, "htmx", None)
    return bool(getattr(request, "fragment_only", False) or (htmx and not htmx.boosted))


def sidebar(request: GameRequest) -> dict[str, object]:
    if request.path.startswith("/django-admin/"):
        return {}
    # Views that already built the state for the same request reuse it.
    state = state_of(request)
    look = state.dynasty.look() if state.dynasty is not None else Theme()
    if renders_fragment(request) or getattr(request, "error_page", False):
        # A fragment shows the game's words and look at most; the reader's counts, votes and the recent
        # comments cost five queries it would never show (the tally box is polled every 30 seconds).
        # An error page shows the same, around its message (``site_answers``).
        return {"state": state, "look": look}
    unread = unread_messages = 0
    if request.user.is_authenticated:
        unread = request.user.notifications.filter(read_at__isnull=True).count()
        unread_messages = unread_count(request.user)
    if getattr(request, "sidebar_then", False):
        # The page shows the game at a past moment, and a sidebar of that moment which its view made.
        return {"state": state, "unread_notifications": unread, "unread_messages": unread_messages, "look": look}
    my_votes = pending_votes_of(state=state, viewer=request.user, now=state.now)
    awaiting = awaiting_vote(state=state, votes=my_votes)
    variables = game_variables_shown(state.dynasty, viewer=request.user, now=state.now)
    return {
        "state": state,
        "unread_notifications": unread,
        "unread_messages": unread_messages,
        "awaiting_vote": awaiting,
        "my_votes": my_votes,
        "recent_comments": recent_comments(),
        "game_variables": variables,
        "look": look,
    }
