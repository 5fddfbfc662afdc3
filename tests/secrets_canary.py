"""Secrets planted in the permission matrix's game, who may see each, and the requests that go looking for them.

Each secret is a *sentinel*: a string that occurs nowhere else, so finding it in a response proves the secret
was put there. The game is ``tests.permissions.build_game``'s, built through the real services, with these
added the same way:

- an owner-visible hidden column (the werewolf seed's Role: each Villager sees their own) holding a sentinel
  in the active player's row and another in the idle player's row, each set by an update with a comment of
  its own;
- a fully hidden column whose name and values are sentinels (its existence is a secret too), one value set
  by an update with a sentinel comment;
- a sealed text, not yet revealed, whose text and nonce are sentinels;
- a private message between the active player and a bystander, its subject and body sentinels;
- a Proposal by an admin whose amendment sets the hidden column's and the idle player's secret values;
- an anonymous Call for Judgement (the game's core rules changed to allow one, citing an enacted Proposal),
  whose author is checked by swapping it for another player and comparing every response about it.

``variants`` says, per URL name, the extra requests that aim the URL at these secrets: their pages, forms
that touch them, searches for them. Everything else is requested as the permission matrix requests it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from blognomic.community.commitments.services import seal_create
from blognomic.community.messaging.services import message_send
from blognomic.flows.amendments.services import post_create_with_amendment
from blognomic.flows.roster.services import rule_change_record
from dynasties.models import User
from gndt.models import Column, Row, Update
from gndt.services import gndt_column_add, gndt_update
from tests.permissions import ROLES, Game
from votes.models import Kind, Post
from votes.posting import post_create

PRIVILEGED = frozenset({"emperor", "admin"})
NOBODY: frozenset[str] = frozenset()

HIDDEN_COLUMN = "CANARYCOLUMN5519"
OWNER_COLUMN = "Calling"
CFJ_TITLE = "Call for Judgement: CANARYCFJTITLE2207"
# Never planted anywhere: a column that does not exist, to compare the answers about a hidden one with.
NO_SUCH_COLUMN = "CANARYNOCOLUMN3390"


@dataclass(frozen=True)
class Sentinel:
    name: str
    text: str
    may_see: frozenset[str]  # the roles allowed to be shown it
    shown_to: frozenset[str]  # those of them who must be shown it somewhere, or the canary proves nothing


@dataclass(frozen=True)
class Variant:
    """One more request of a URL: other arguments, query, form data or headers than the matrix's."""

    kwargs: dict | None = None  # None: the matrix's arguments
    query: str = ""
    data: dict | None = None  # None: GET; a dict: POST it
    headers: dict = field(default_factory=dict)


@dataclass
class Canary:
    sentinels: list[Sentinel]
    variants: dict[str, list[Variant]]
    cfj: Post  # the anonymous Call for Judgement
    cfj_author: User
    stand_in: User  # swapped in as its author to show that no response depends on who wrote it


def plant_secrets(game: Game, now) -> Canary:
    users = game.users
    active, idle, emperor, admin = users["active"], users["idle"], users["emperor"], users["admin"]
    dynasty = Row.objects.get(user=active).dynasty
    players = {
        row.user.username: row.user
        for row in Row.objects.filter(dynasty=dynasty, user__isnull=False).select_related("user")
    }
    named = {user.pk for user in users.values() if user is not None}
    author, stand_in = (
        user
        for user in sorted(players.values(), key=lambda u: u.username)
        if user.pk not in named
        and user.pk != dynasty.emperor_id
        and user.joined_at
        and not user.absences.filter(ended_at__isnull=True).exists()
    )
    at = now - timedelta(hours=2)  # before the moment the time-travel page is asked about

    gndt_column_add(
        dynasty=dynasty,
        by=admin,
        now=at,
        name=OWNER_COLUMN,
        kind=Column.TEXT,
        default="Villager",
        hidden=True,
        owner_visible=True,
    )
    gndt_column_add(
        dynasty=dynasty, by=admin, now=at, name=HIDDEN_COLUMN, kind=Column.INTEGER, default="773194601", hidden=True
    )
    hidden = Column.objects.get(dynasty=dynasty, name=HIDDEN_COLUMN)
    owner = Column.objects.get(dynasty=dynasty, name=OWNER_COLUMN)
    rows = {user: Row.objects.get(dynasty=dynasty, user=user) for user in (active, idle, author)}

    def update(by, row, column, old, new, comment, minutes):
        key = (rows[row].name, column)
        gndt_update(
            dynasty=dynasty,
            by=by,
            changes={key: new},
            seen={key: old},
            comment=comment,
            now=at + timedelta(minutes=minutes),
        )
        return Update.objects.filter(dynasty=dynasty).latest("pk")

    own_update = update(emperor, active, OWNER_COLUMN, "Villager", "CANARYROLEACTIVE4410", "CANARYNOTEACTIVE8812", 1)
    idle_update = update(emperor, idle, OWNER_COLUMN, "Villager", "CANARYROLEIDLE6621", "CANARYNOTEIDLE5530", 2)
    hidden_update = update(admin, active, HIDDEN_COLUMN, "773194601", "773194602", "CANARYNOTEHIDDEN9043", 3)

    seal = seal_create(owner=active, title="My sealed move", text="CANARYSEALTEXT3318", now=at + timedelta(minutes=4))
    conversation = message_send(
        sender=active,
        recipients=[author.username],
        subject="CANARYSUBJECT2291",
        body="CANARYBODY7745",
        now=at + timedelta(minutes=5),
    )

    amendment = post_create_with_amendment(
        author=admin,
        kind=Kind.PROPOSAL,
        title="Proposal: Settle the Village",
        body="As the amendment says.",
        base_number=None,
        now=at + timedelta(minutes=6),
        operations=[
            {"op": "cell_set", "row": rows[active].name, "column": HIDDEN_COLUMN, "value": "773194677"},
            {"op": "cell_set", "row": rows[idle].name, "column": OWNER_COLUMN, "value": "CANARYAMENDIDLE1187"},
        ],
    )

    enacted = Post.objects.filter(kind=Kind.PROPOSAL, status="enacted").earliest("posted_at")
    rule_change_record(
        parameter="cfj_anonymous", raw_value="yes", proposal=enacted, admin=admin, now=at + timedelta(minutes=7)
    )
    cfj = post_create(
        author=author,
        kind=Kind.CFJ,
        title=CFJ_TITLE,
        body="Was the lamp lit?",
        anonymous=True,
        now=at + timedelta(minutes=8),
    )

    owners = frozenset({"active"}) | PRIVILEGED
    sentinels = [
        Sentinel("owner-visible value in the active player's row", "CANARYROLEACTIVE4410", owners, owners),
        Sentinel(
            "owner-visible value in the idle player's row",
            "CANARYROLEIDLE6621",
            frozenset({"idle"}) | PRIVILEGED,
            frozenset({"idle"}) | PRIVILEGED,
        ),
        Sentinel(
            "comment of an update changing only the active player's own secret", "CANARYNOTEACTIVE8812", owners, owners
        ),
        Sentinel(
            "comment of an update changing only the idle player's own secret",
            "CANARYNOTEIDLE5530",
            frozenset({"idle"}) | PRIVILEGED,
            frozenset({"idle"}) | PRIVILEGED,
        ),
        Sentinel("hidden column's name", HIDDEN_COLUMN, PRIVILEGED, PRIVILEGED),
        Sentinel("hidden column's starting value", "773194601", PRIVILEGED, PRIVILEGED),
        Sentinel("hidden column's value in the active player's row", "773194602", PRIVILEGED, PRIVILEGED),
        Sentinel(
            "comment of an update changing only the hidden column", "CANARYNOTEHIDDEN9043", PRIVILEGED, PRIVILEGED
        ),
        Sentinel("sealed text before its reveal", "CANARYSEALTEXT3318", NOBODY, NOBODY),
        Sentinel("sealed text's nonce before its reveal", seal.nonce, NOBODY, NOBODY),
        Sentinel("private message's subject", "CANARYSUBJECT2291", frozenset({"active"}), frozenset({"active"})),
        Sentinel("private message's body", "CANARYBODY7745", frozenset({"active"}), frozenset({"active"})),
        Sentinel("amendment's new value for the hidden column", "773194677", PRIVILEGED, PRIVILEGED),
        Sentinel(
            "amendment's new value for the idle player's own secret",
            "CANARYAMENDIDLE1187",
            frozenset({"idle"}) | PRIVILEGED,
            PRIVILEGED,
        ),
    ]
    assert all(role in ROLES for sentinel in sentinels for role in sentinel.may_see | sentinel.shown_to)

    htmx = {"HTTP_HX_REQUEST": "true"}
    own_row, idle_row = rows[active], rows[idle]
    posts = [cfj, amendment]
    secret_updates = [own_update, idle_update, hidden_update]
    preview = {
        "kind": Kind.PROPOSAL,
        "title": "Proposal: Peek",
        "body": "Let us see.",
        "preview": "1",
        "gndt_0_op": "cell_add",
        "gndt_0_row": own_row.name,
        "gndt_0_column": HIDDEN_COLUMN,
        "gndt_0_value": "1",
        "gndt_1_op": "cell_set",
        "gndt_1_row": idle_row.name,
        "gndt_1_column": OWNER_COLUMN,
        "gndt_1_value": "Seer",
        "gndt_2_op": "cell_set",
        "gndt_2_row": own_row.name,
        "gndt_2_column": OWNER_COLUMN,
        "gndt_2_value": "Seer",
    }
    without_preview = {key: value for key, value in preview.items() if key != "preview"}
    variants = {
        "post_detail": [Variant({"slug": post.slug}) for post in posts],
        "tally_box": [Variant({"slug": post.slug}, headers=htmx) for post in posts],
        # A page rendered at an older version: every live part comes back, rendered for the reader.
        "matter_live": [Variant({"slug": post.slug}, query="?since=0", headers=htmx) for post in posts],
        "front_page_live": [Variant(query="?since=0", headers=htmx)],
        "post_comments_feed": [Variant({"slug": post.slug}) for post in posts],
        "api:post": [Variant({"post_id": post.slug}) for post in posts],
        "comment_create": [Variant({"slug": post.slug}, data={"icon": "for", "text": "Fine."}) for post in posts],
        "edit_post": [Variant({"slug": post.slug}) for post in posts],
        "emperor_decide": [Variant({"slug": cfj.slug}), Variant({"slug": cfj.slug}, data={"legal": "yes"})],
        "resolve": [Variant({"slug": post.slug}, data={"action": "enact"}) for post in posts],
        "player_detail": [Variant({"name": author.username}), Variant({"name": stand_in.username})],
        "search": [Variant(query=f"?q={sentinel.text}") for sentinel in sentinels]
        + [Variant(query=f"?q=CANARYCFJTITLE2207&author={name}") for name in (author.username, stand_in.username)]
        + [Variant(query="?q=Calling"), Variant(query="?q=Villager")],
        "gndt_update": [Variant({"pk": update.pk}) for update in secret_updates],
        "gndt_undo": [Variant({"pk": update.pk}, data={"comment": "Undo"}) for update in secret_updates],
        "gndt_cell_form": [
            Variant(query=f"?row={row.pk}&column={column.pk}", headers=htmx)
            for row in (own_row, idle_row)
            for column in (hidden, owner)
        ],
        "gndt_edit": [
            Variant(data={f"v-{row.pk}-{column.pk}": "5", f"s-{row.pk}-{column.pk}": "", "comment": "Try"})
            for row in (own_row, idle_row)
            for column in (hidden, owner)
        ]
        + [Variant(query=f"?row={idle_row.pk}")],
        "gndt_table": [
            Variant(query=f"?sort={HIDDEN_COLUMN}"),
            Variant(query=f"?sort={OWNER_COLUMN}&dir=desc"),
            Variant(query=f"?at={now - timedelta(minutes=30):%Y-%m-%dT%H:%M:%SZ}"),
        ],
        "gndt_log": [
            Variant(query=f"?column={HIDDEN_COLUMN}"),
            Variant(query=f"?column={OWNER_COLUMN}"),
            Variant(query=f"?row={idle_row.name}"),
        ],
        "gndt_column_edit": [Variant({"pk": column.pk}) for column in (hidden, owner)],
        "gndt_remove": [Variant({"kind": "columns", "pk": column.pk}, data={}) for column in (hidden, owner)],
        "game_at": [Variant({"at": f"{now - timedelta(minutes=30):%Y-%m-%dT%H:%M:%SZ}"})],
        "message_thread": [Variant({"pk": conversation.pk}), Variant({"pk": conversation.pk}, data={"body": "Hm"})],
        "messages_compose": [Variant(query=f"?to={author.username}")],
        "seal_reveal": [Variant({"pk": seal.pk}), Variant({"pk": seal.pk}, data={"text": "a guess"})],
        "new_post": [Variant(data=preview), Variant(data=without_preview), Variant(query="?kind=cfj")],
    }
    for wanted in variants.values():
        wanted += [_naming(variant, NO_SUCH_COLUMN) for variant in wanted if _names_hidden_column(variant)]
    return Canary(sentinels=sentinels, variants=variants, cfj=cfj, cfj_author=author, stand_in=stand_in)


def _names_hidden_column(variant: Variant) -> bool:
    return HIDDEN_COLUMN in variant.query or HIDDEN_COLUMN in (variant.data or {}).values()


def _naming(variant: Variant, column: str) -> Variant:
    """The same request naming ``column`` instead of the hidden column."""
    data = (
        None
        if variant.data is None
        else {key: column if value == HIDDEN_COLUMN else value for key, value in variant.data.items()}
    )
    return Variant(variant.kwargs, variant.query.replace(HIDDEN_COLUMN, column), data, variant.headers)
