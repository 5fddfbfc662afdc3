"""The whole game as it stood at one past moment: the dynasty and its roster with quorum, the matters then
pending with their tallies from the votes cast by then, the Ruleset revision then current (with each rule's
blame as of it) and the GNDT as it stood, hidden columns only for those who may see them.

Each piece is one the site already reads as of a moment (``roster_at``, ``pending_at``, ``Revision``'s
``as_of``, ``gndt_table_as_of``); this joins them, in a fixed number of queries whatever the size of the
history.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from dynasties.models import Dynasty, Game
from dynasties.selectors import Roster, roster_at
from gndt.selectors import Table, gndt_table_as_of
from ruleset.cached import content_html
from ruleset.lineage import fill_blame, ruleset_blame
from ruleset.models import RULESET_SLUG, Page, Revision
from votes import engine
from votes.at_moment import Basis, basis_at, judge_at
from votes.engine_inputs import ballots_from
from votes.matter_kind_services import ValuesCache
from votes.models import Comment, Kind, Post
from votes.selectors import pending_at
from votes.state import GameState

FUTURE_MOMENT = "{moment} UTC has not happened yet; the game can be shown only as it stood up to now."


@dataclass(frozen=True)
class PendingThen:
    """A matter pending at the moment, judged on the votes cast by then."""

    post: Post
    judgement: engine.Judgement
    is_oldest_pending: bool

    @property
    def tally(self) -> engine.Tally:
        return self.judgement.tally

    @property
    def hours(self) -> int:
        return int(self.tally.open_hours)

    @property
    def can_enact_then(self) -> bool:
        return self.judgement.can_enact and (self.post.kind != Kind.PROPOSAL or self.is_oldest_pending)


@dataclass
class GameAt:
    moment: datetime
    dynasty: Dynasty | None
    roster: Roster
    pending: list[PendingThen] = field(default_factory=list)
    ruleset_page: Page | None = None
    ruleset_revision: Revision | None = None
    ruleset_html: str = ""
    table: Table | None = None
    settings: Game | None = None  # the game's profile, read once for the page
    basis: Basis | None = None  # the rules, electorate and hiatus then, that every matter then is judged by

    @property
    def quorum(self) -> int:
        return engine.quorum(len(self.roster.active))

    @property
    def began(self) -> bool:
        """Whether there was anything to show yet: a dynasty, a player or a Ruleset."""
        return bool(self.dynasty or self.roster.active or self.roster.idle_count or self.ruleset_revision)


def _pending_then(at: datetime, pending: list[Post], basis: Basis) -> list[PendingThen]:
    """The matters pending at ``at``, each judged as the tally box would have judged it then (``judge_at``)."""
    if not pending:
        return []
    by_post: dict[int, list[Comment]] = defaultdict(list)
    votes = Comment.objects.filter(post__in=pending, icon__isnull=False, at__lte=at).select_related("author")
    for comment in votes.order_by("at", "pk"):
        by_post[comment.post_id].append(comment)
    proposals = [(post.pk, post.posted_at) for post in pending if post.kind == Kind.PROPOSAL]
    oldest = engine.oldest_pending(proposals, profile=basis.profile, now=at)
    values = ValuesCache()
    judged = []
    for post in pending:
        judgement, _, _ = judge_at(post, ballots_from(by_post[post.pk]), basis=basis, cache=values)
        judged.append(PendingThen(post=post, is_oldest_pending=post.pk == oldest, judgement=judgement))
    return judged


def game_at(at: datetime, *, viewer) -> GameAt:
    """The game as it stood at ``at`` (not in the future: the view refuses that), as ``viewer`` may see
    it."""
    dynasty = Dynasty.objects.at(at)
    roster = roster_at(at)
    settings = Game.load()
    pending = pending_at(at)
    basis = basis_at(
        at=at,
        game=settings,
        dynasty=dynasty,
        active=roster.active_names,
        pending_dov=any(post.kind == Kind.DOV for post in pending),
    )
    game = GameAt(
        moment=at,
        dynasty=dynasty,
        roster=roster,
        pending=_pending_then(at, pending, basis),
        settings=settings,
        basis=basis,
    )
    page = Page.objects.filter(slug=RULESET_SLUG).first()
    if page is not None:
        revision = page.revisions.select_related("author", "post").as_of(at)
        if revision is not None:
            html, _ = content_html(page, revision)
            game.ruleset_page, game.ruleset_revision = page, revision
            game.ruleset_html = fill_blame(html, ruleset_blame(page, up_to=revision.number))
    if dynasty is not None:
        game.table = gndt_table_as_of(dynasty, at, viewer=viewer, idle_names=[user.username for user in roster.idle])
    return game


def sidebar_state_at(game: GameAt) -> GameState:
    """The state the sidebar shows beside the game at a past moment: its roster and Quorum, its dynasty, the
    matters pending and their ages, all as they stood then, so nothing of today sits beside the past."""
    settings = game.settings or Game.load()
    return GameState(
        game=settings,
        dynasty=game.dynasty,
        roster=game.roster,
        pending=[matter.post for matter in game.pending],
        hiatus=game.basis.hiatus if game.basis else None,
        now=game.moment,
        past=True,
    )
