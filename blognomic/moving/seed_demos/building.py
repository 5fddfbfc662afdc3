"""What every seed demo is made of, and how one is built through the same services players and admins use.

A seed demo is a small game in the era and with the dynastic rules of one of the seed rulesets: its Ruleset
is imported from the seed itself; everything else (names, values, posts, comments) is our own invention,
described as plain data in one small module per seed and laid down here, with the time passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from blognomic.community.commitments.services import seal_create
from blognomic.community.messaging.services import message_send
from dynasties.models import Absence, Dynasty, Game, User
from dynasties.phases import phase_at
from dynasties.theming import theme_from
from gndt.models import Cell, Column, Row, Update
from gndt.services.effects import gndt_effect_save
from gndt.services.tables import gndt_action_save, gndt_column_add, gndt_row_add
from gndt.services.updates import gndt_update
from gndt.services.variables import gndt_variable_add
from ruleset.models import Page
from ruleset.services import page_create, ruleset_import_plaintext
from votes.matter_kind_services import matter_effect_define, matter_kind_define
from votes.models import Kind, MatterEffect, MatterKind, Post
from votes.posting import post_create
from votes.services import comment_add, matter_resolve

DYNASTY_DAYS = 20
"""How long before ``now`` the demo's dynasty began."""


@dataclass(frozen=True)
class ColumnPlan:
    """A GNDT column as the dynastic rules describe it (see ``gndt_column_add`` for each setting)."""

    name: str
    kind: str = Column.TEXT
    default: str = ""
    minimum: int | None = None
    maximum: int | None = None
    allow_negative: bool = False
    clamp: bool = False
    choices: tuple[str, ...] = ()
    hidden: bool = False
    owner_visible: bool = False
    description: str = ""


@dataclass(frozen=True)
class ActionPlan:
    """A declared action: its name as the rule calls it, how often, and an optional weekly cap."""

    name: str
    frequency: str
    description: str
    weekly_cap: int | None = None
    phase: str = ""


@dataclass(frozen=True)
class EffectPlan:
    """A scheduled GNDT effect on one row or on every player (``gndt_effect_save``)."""

    name: str
    column: str
    delta: int
    row: str | None = None
    at_most: int | None = None
    at_least: int | None = None
    weekday: int | None = None
    hour: int = 0
    minute: int = 0


@dataclass(frozen=True)
class PagePlan:
    """A wiki page that holds gamestate (a map, a list of chests) or anything players keep."""

    title: str
    slug: str
    text: str
    kind: str = Page.GAMESTATE


@dataclass(frozen=True)
class VariablePlan:
    """A game variable shown beside Quorum: one GNDT cell (``row`` and ``column``) or a calendar phase."""

    label: str
    row: str = ""
    column: str = ""
    phase_rule: str = ""


@dataclass(frozen=True)
class LookPlan:
    """The dynasty's theme: a palette of ``dynasties.theming``, a header line and the vote icons' names."""

    palette: str
    header_line: str
    vote_labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SeedDemo:
    """One seed's demo game: who plays, what the GNDT tracks, and the opening moves."""

    file_name: str
    ruleset_label: str
    profile: str
    dynasty_number: int
    player_term: str
    emperor_term: str
    theme: str
    password: str
    emperor: str
    admins: tuple[str, ...]
    players: tuple[str, ...]
    columns: tuple[ColumnPlan, ...]
    values: Mapping[str, Mapping[str, str]]
    play_opening: Callable[[SeedGame], None]
    player_term_plural: str = ""
    idle: tuple[str, ...] = ()
    other_rows: tuple[str, ...] = ()
    actions: tuple[ActionPlan, ...] = ()
    effects: tuple[EffectPlan, ...] = ()
    pages: tuple[PagePlan, ...] = ()
    variables: tuple[VariablePlan, ...] = ()
    look: LookPlan | None = None
    characteristic_moves: tuple[str, ...] = ()
    """What to try first, as the command suggests once the game is loaded."""
    emperor_article: str = "the "
    """How a sentence names the Emperor's title: "the Duke", but "Zero Cool"."""

    @property
    def players_term(self) -> str:
        return self.player_term_plural or f"{self.player_term}s"


@dataclass
class SeedGame:
    """The game being built: its people and dynasty, the moment it is built at, and short ways to play."""

    demo: SeedDemo
    dynasty: Dynasty
    users: dict[str, User]
    now: datetime
    posts: dict[str, Post] = field(default_factory=dict)

    @property
    def admin(self) -> User:
        return self.users[self.demo.admins[0]]

    @property
    def emperor(self) -> User:
        return self.users[self.demo.emperor]

    def ago(self, hours: float) -> datetime:
        return self.now - timedelta(hours=hours)

    def post(self, key: str, name: str, kind: str, title: str, hours: float, body: str, **options) -> Post:
        self.posts[key] = post_create(
            author=self.users[name], kind=kind, title=title, body=body, now=self.ago(hours), **options
        )
        return self.posts[key]

    def vote(self, key: str, name: str, icon: str | None, hours: float, text: str = "") -> None:
        comment_add(post=self.posts[key], author=self.users[name], icon=icon, text=text, now=self.ago(hours))

    def resolve(
        self, key: str, action: str, hours: float, admin: str | None = None, claims: tuple[str, ...] = ()
    ) -> None:
        """Resolve a matter; ``claims`` names the optional effects of resolving the admin ticks."""
        chosen = list(
            MatterEffect.objects.filter(dynasty=self.dynasty, label__in=claims, retired_at=None).values_list(
                "pk", flat=True
            )
        )
        matter_resolve(
            post=self.posts[key],
            admin=self.users[admin] if admin else self.admin,
            action=action,
            now=self.ago(hours),
            effects_chosen=chosen,
        )
        self.posts[key].refresh_from_db()

    def define_kind(self, citing: str, hours: float, **fields) -> MatterKind:
        """A kind of votable matter the dynasty's rules define, recorded citing the enacted ``citing``."""
        return matter_kind_define(admin=self.admin, proposal=self.posts[citing], now=self.ago(hours), **fields)

    def define_resolution_effect(self, citing: str, hours: float, **fields) -> MatterEffect:
        """A change to the GNDT that resolving matters makes, recorded citing the enacted ``citing``."""
        return matter_effect_define(admin=self.admin, proposal=self.posts[citing], now=self.ago(hours), **fields)

    def in_phase(self, phase: str, hours: float) -> float:
        """``hours`` ago, or the nearest earlier whole hour ago that falls in ``phase`` of the calendar."""
        while phase_at(self.ago(hours)) != phase:
            hours += 1
        return hours

    def add(
        self, name: str, row: str, column: str, delta: int, hours: float, comment: str = "", action: str | None = None
    ) -> Update:
        """``name`` adds ``delta`` to a whole-number cell, as it stands."""
        current = current_values(self.dynasty, [(row, column)])[(row, column)]
        return self.gndt(name, {(row, column): str(int(current) + delta)}, hours, comment=comment, action=action)

    def story(self, key: str, title: str, hours: float, body: str, *, sticky: bool = False) -> Post:
        post = self.post(key, self.demo.emperor, Kind.STORY, title, hours, body)
        if sticky:
            post.sticky = True
            post.save(update_fields=["sticky"])
        return post

    def gndt(
        self,
        name: str,
        changes: Mapping[tuple[str, str], str],
        hours: float,
        comment: str = "",
        action: str | None = None,
    ) -> Update:
        """``name`` changes cells, having seen their current values, optionally declaring ``action``."""
        return gndt_update(
            dynasty=self.dynasty,
            by=self.users[name],
            changes=dict(changes),
            seen=current_values(self.dynasty, changes),
            comment=comment,
            action=action,
            now=self.ago(hours),
        )

    def message(self, name: str, to: tuple[str, ...], subject: str, body: str, hours: float) -> None:
        message_send(sender=self.users[name], recipients=to, subject=subject, body=body, now=self.ago(hours))

    def seal(self, name: str, title: str, text: str, hours: float):
        return seal_create(owner=self.users[name], title=title, text=text, now=self.ago(hours))


def current_values(dynasty: Dynasty, keys) -> dict[tuple[str, str], str]:
    """The values in the cells named by ``keys`` ((row, column) pairs) as they stand now."""
    wanted = set(keys)
    cells = Cell.objects.filter(
        row__dynasty=dynasty,
        row__name__in={row for row, _ in wanted},
        column__name__in={column for _, column in wanted},
    ).select_related("row", "column")
    found = {(cell.row.name, cell.column.name): cell.value for cell in cells}
    return {key: found.get(key, "") for key in wanted}


def seed_demo_build(demo: SeedDemo, *, seed_text: str, now: datetime) -> SeedGame:
    """Lay down ``demo`` as of ``now``, its Ruleset converted from ``seed_text``. The caller holds the
    transaction and has checked that the database is empty."""
    start = now - timedelta(days=DYNASTY_DAYS)
    game = Game.load()
    game.profile = demo.profile
    game.save(update_fields=["profile"])
    users = _create_players(demo, joined_at=start - timedelta(days=2))
    dynasty = Dynasty.objects.create(
        number=demo.dynasty_number,
        emperor=users[demo.emperor],
        player_term=demo.player_term,
        player_term_plural=demo.player_term_plural,
        emperor_term=demo.emperor_term,
        theme=demo.theme,
        started_at=start,
        **_look_fields(demo.look),
    )
    admin = users[demo.admins[0]]
    ruleset_import_plaintext(
        text=seed_text, now=start, author=admin, summary=f"{demo.ruleset_label}, imported from the seed ruleset"
    )
    for number, plan in enumerate(demo.pages, start=1):
        page_create(
            title=plan.title,
            kind=plan.kind,
            author=admin,
            text=plan.text,
            slug=plan.slug,
            summary=f"Gamestate page: {plan.title}",
            now=start + timedelta(minutes=number),
        )
    seeded = SeedGame(demo=demo, dynasty=dynasty, users=users, now=now)
    _build_table(seeded, at=start + timedelta(minutes=10))
    for name in demo.idle:
        Absence.objects.create(user=users[name], kind=Absence.IDLE, started_at=now - timedelta(days=6), dynasty=dynasty)
    _show_variables(seeded, at=start + timedelta(minutes=12))
    demo.play_opening(seeded)
    return seeded


def _show_variables(seeded: SeedGame, *, at: datetime) -> None:
    for plan in seeded.demo.variables:
        row = Row.objects.get(dynasty=seeded.dynasty, name=plan.row) if plan.row else None
        column = Column.objects.get(dynasty=seeded.dynasty, name=plan.column) if plan.column else None
        gndt_variable_add(
            dynasty=seeded.dynasty,
            by=seeded.admin,
            now=at,
            label=plan.label,
            row=row,
            column=column,
            phase_rule=plan.phase_rule,
        )


def _look_fields(look: LookPlan | None) -> dict[str, str]:
    """The Dynasty fields of a theme, checked as an Ascension Address's theme is (``theme_from``)."""
    if look is None:
        return {}
    theme = theme_from(palette=look.palette, header_line=look.header_line, vote_labels=dict(look.vote_labels))
    labels = dict(theme.vote_labels)
    return {
        "palette": theme.palette,
        "header_line": theme.header_line,
        **{
            f"vote_label_{icon}": labels[icon] for icon in ("for", "against", "deferential") if icon in look.vote_labels
        },
    }


def _create_players(demo: SeedDemo, *, joined_at: datetime) -> dict[str, User]:
    users = {}
    for name in demo.players:
        user = User.objects.create_user(username=name, password=demo.password)
        user.joined_at = joined_at
        user.is_admin = user.is_staff = name in demo.admins
        user.save(update_fields=["joined_at", "is_admin", "is_staff"])
        users[name] = user
    return users


def _build_table(seeded: SeedGame, *, at: datetime) -> None:
    """Columns, a row per player (in the order of ``players``) and the other rows, the starting values,
    the declared actions and the scheduled effects, each through the GNDT's own services."""
    demo, dynasty, admin = seeded.demo, seeded.dynasty, seeded.admin
    columns = _add_columns(seeded, at=at)
    rows = {}
    for name in demo.players:
        rows[name] = gndt_row_add(dynasty=dynasty, by=admin, now=at, user=seeded.users[name])
    for name in demo.other_rows:
        rows[name] = gndt_row_add(dynasty=dynasty, by=admin, now=at, name=name)
    changes = {(row, column): value for row, values in demo.values.items() for column, value in values.items()}
    if changes:
        gndt_update(
            dynasty=dynasty,
            by=admin,
            changes=changes,
            seen=current_values(dynasty, changes),
            comment="Starting positions for the demo game",
            now=at + timedelta(minutes=1),
        )
    for plan in demo.actions:
        gndt_action_save(
            dynasty=dynasty,
            by=admin,
            now=at,
            name=plan.name,
            frequency=plan.frequency,
            weekly_cap=plan.weekly_cap,
            description=plan.description,
            phase=plan.phase,
        )
    _schedule_effects(seeded, columns=columns, rows=rows, at=at)


def _add_columns(seeded: SeedGame, *, at: datetime) -> dict[str, Column]:
    """The demo's columns, in the order it lists them, by name."""
    demo, dynasty, admin = seeded.demo, seeded.dynasty, seeded.admin
    columns = {}
    for order, plan in enumerate(demo.columns, start=1):
        columns[plan.name] = gndt_column_add(
            dynasty=dynasty,
            by=admin,
            now=at,
            name=plan.name,
            kind=plan.kind,
            minimum=plan.minimum,
            maximum=plan.maximum,
            allow_negative=plan.allow_negative,
            clamp=plan.clamp,
            choices=plan.choices,
            default=plan.default,
            order=order,
            hidden=plan.hidden,
            owner_visible=plan.owner_visible,
            description=plan.description,
        )
    return columns


def _schedule_effects(seeded: SeedGame, *, columns: dict[str, Column], rows: dict, at: datetime) -> None:
    """The demo's scheduled effects, on its columns and rows."""
    demo, dynasty, admin = seeded.demo, seeded.dynasty, seeded.admin
    for plan in demo.effects:
        gndt_effect_save(
            dynasty=dynasty,
            by=admin,
            now=at,
            name=plan.name,
            column=columns[plan.column],
            delta=plan.delta,
            target="row" if plan.row else "players",
            row=rows.get(plan.row) if plan.row else None,
            at_most=plan.at_most,
            at_least=plan.at_least,
            weekday=plan.weekday,
            hour=plan.hour,
            minute=plan.minute,
        )
