"""The game the permission matrix runs in, the roles in it, and how to fill each URL's arguments and forms.

What each role may do is written in ``tests/permissions.csv``; this module only says how to make the request.
The game is built through the real services (the factories, the roster, posting and the GNDT's builders),
once per test module.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from blognomic.community.commitments.services import seal_create
from blognomic.community.messaging.services import message_send
from blognomic.community.tokens.issuing import issue_token
from blognomic.community.tokens.scopes import ADMIN, SCOPES
from blognomic.flows.roster.services import application_submit, player_idle, player_leave
from blognomic.moving.demo import RULESET_TEXT
from dynasties.models import Application, User
from gndt.models import Action, Column, Row, ScheduledEffect, Update
from gndt.services import gndt_action_save, gndt_update
from gndt.services.effects import gndt_effect_save
from gndt.services.private_decks import private_deck_deal
from ruleset.models import Page
from ruleset.services import page_create, revision_add
from ruleset.structure import parse_ruleset
from tests.factories import make_proposal, make_spectator, vote
from tests.gndt.builders import make_gndt
from votes.models import Kind
from votes.posting import post_create
from votes.services import matter_resolve

TABLE = Path(__file__).with_name("permissions.csv")
ROLES = ("visitor", "non_player", "applicant", "idle", "active", "emperor", "admin", "former")
METHODS = ("GET", "POST")
# The API's URLs are also requested with a personal access token instead of the session cookie: each role's own
# token with every scope it may hold (a visitor's and an applicant's: a forged one), sent from a client with no
# cookie; a POST's data goes as JSON.
TOKEN_METHODS = ("TOKEN GET", "TOKEN POST")
FORGED_TOKEN = "bn_AAAAAAAAAAAA_" + "A" * 43


def methods_for(key: str) -> tuple[str, ...]:
    return METHODS + TOKEN_METHODS if key.startswith("api:") else METHODS


# Django's own admin site: its many URLs share one row per method, checked on the ones without arguments.
DJANGO_ADMIN = "admin:*"
APPLICANT_ADDRESS = "192.0.2.44"


@dataclass
class Game:
    users: dict[str, User | None]
    args: dict[str, dict] = field(default_factory=dict)
    data: dict[str, dict] = field(default_factory=dict)
    queries: dict[str, str] = field(default_factory=dict)
    headers: dict[str, dict] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)  # role → the token its programs would send


def url_patterns(patterns=None, prefix: str = "", namespace: str = ""):
    """Every URL pattern of the site: (name, route, pattern), names namespaced as ``reverse`` takes them."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from url_patterns(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}{pattern.name}" if pattern.name else ""
            yield name, prefix + str(pattern.pattern), pattern


_ADMIN_MODEL_VIEW = re.compile(r"^admin:[a-z]+_[a-z]+_(changelist|add)$")


def table_key(name: str, route: str) -> str:
    """The table's row for a URL: its name; for Django's admin, one row per kind of page, whatever the model
    ("admin:*_changelist"), and "admin:*" for the admin's URLs that need an object."""
    if name.startswith("admin:") or route.startswith("django-admin/"):
        match = _ADMIN_MODEL_VIEW.match(name)
        if match:
            return f"admin:*_{match.group(1)}"
        return name if name and "<" not in route and "(?P" not in route else DJANGO_ADMIN
    return name or route


def read_table() -> dict[tuple[str, str], dict[str, str]]:
    """(URL name, method) → {role: expected answer}. An answer is a status code, with ``+w`` when the
    request wrote to the database (a refused write writes nothing)."""
    rows: dict[tuple[str, str], dict[str, str]] = {}
    with TABLE.open(encoding="utf-8") as handle:
        for line in csv.DictReader(row for row in handle if not row.startswith("#")):
            key = (line["url"].strip(), line["method"].strip())
            if key in rows:
                raise ValueError(f"{TABLE.name}: {key} is listed twice")
            rows[key] = {role: line[role].strip() for role in ROLES}
    return rows


def build_game(now) -> Game:
    """Seven players and their roles, a pending and an enacted proposal, the Ruleset with two revisions, a
    GNDT with an update, an action and an effect, and a pending application."""
    start = now - timedelta(days=30)
    gndt = make_gndt(start, n_players=7)
    emperor, admin, active, idle, former, bystander, voter = gndt.players
    admin.is_staff = True  # the demo's admins may open Django's admin too
    admin.save(update_fields=["is_staff"])
    spectator = make_spectator("Onlooker")
    player_idle(user=idle, by=idle, now=now - timedelta(days=5))  # past the four days before unidling
    player_leave(user=former, now=now - timedelta(days=1))
    application = application_submit(
        name="Hopeful",
        password="a-good-passphrase",
        message="Let me in",
        ip_address=APPLICANT_ADDRESS,
        now=now - timedelta(hours=1),
    )

    enacted = make_proposal(bystander, at=now - timedelta(days=3), title="Proposal: Old Business")
    for player in (emperor, admin, voter):
        vote(enacted, player, "for", at=now - timedelta(days=2, hours=12))
    matter_resolve(post=enacted, admin=admin, action="enact", now=now - timedelta(days=2))
    pending = make_proposal(active, at=now - timedelta(hours=2), title="Proposal: New Business")
    vote(pending, voter, "for", at=now - timedelta(hours=1))
    # Vetoed, so an admin may fail it at once: the resolve row shows who may resolve, not when.
    vote(pending, emperor, "veto", at=now - timedelta(minutes=50))
    # Uncommented, so its author may still edit it: the edit row shows who may edit.
    story = post_create(
        author=active,
        kind=Kind.STORY,
        title="Story Post: The Lamp Room",
        body="It smells of oil.",
        now=now - timedelta(minutes=30),
    )

    ruleset = page_create(
        title="Ruleset", kind=Page.RULESET, author=admin, text=RULESET_TEXT, summary="Start", now=start, slug="ruleset"
    )
    revision_add(
        page=ruleset,
        author=admin,
        text=RULESET_TEXT + "\nA closing line.\n",
        summary="More",
        now=start + timedelta(days=1),
    )
    notes = page_create(title="Notes", author=active, text="Some notes.", now=start + timedelta(days=2))
    revision_add(
        page=notes, author=active, text="Some notes, revised.", summary="Revised", now=start + timedelta(days=3)
    )
    rule = parse_ruleset(RULESET_TEXT).find("1.1")

    dynasty = gndt.dynasty
    money = Column.objects.get(dynasty=dynasty, name="Money")
    row = Row.objects.get(dynasty=dynasty, user=active)
    gndt_update(
        dynasty=dynasty,
        by=active,
        changes={(row.name, "Money"): "290"},
        seen={(row.name, "Money"): "300"},
        comment="Spent ten",
        now=now - timedelta(hours=3),
    )
    update = Update.objects.filter(dynasty=dynasty, by=active).latest("pk")
    daily, weekly = (choice for choice, _ in Action.FREQUENCY_CHOICES[:2])
    action = gndt_action_save(dynasty=dynasty, by=admin, now=start, name="Polish the lamp", frequency=daily)
    effect = gndt_effect_save(dynasty=dynasty, by=admin, now=start, name="Wages", column=money, delta=1)

    conversation = message_send(
        sender=active,
        recipients=[emperor.username],
        subject="Plans",
        body="Meet at dawn",
        now=now - timedelta(minutes=20),
    )
    seal = seal_create(owner=active, title="Hole cards", text="AS KD", now=now - timedelta(minutes=10))
    deck = private_deck_deal(dynasty=dynasty, owner=active, hand="3", now=now - timedelta(minutes=10))
    token = issue_token(user=active, name="Lamp bot", scopes=["read", "vote"], days=30, now=now).token
    tokens = {
        role: FORGED_TOKEN
        if user is None
        else issue_token(
            user=user, name="Sweep", scopes=[s for s in SCOPES if s != ADMIN or user.is_admin], days=30, now=now
        ).secret
        for role, user in users_by_role(
            spectator=spectator, idle=idle, active=active, emperor=emperor, admin=admin, former=former
        ).items()
    }
    active.notices_feed_token = "f" * 43
    active.save(update_fields=["notices_feed_token"])

    users = users_by_role(spectator=spectator, idle=idle, active=active, emperor=emperor, admin=admin, former=former)
    slug = pending.slug
    args = {
        "month_archive": {"year": now.year, "month": now.month},
        "category": {"category": "proposals"},
        "post_detail": {"slug": slug},
        "comment_create": {"slug": slug},
        "tally_box": {"slug": slug},
        "matter_live": {"slug": slug},
        "emperor_decide": {"slug": slug},
        "edit_post": {"slug": story.slug},
        "resolve": {"slug": slug},
        "reopen": {"slug": enacted.slug},
        "carried_out": {"slug": enacted.slug},
        "post_hide": {"slug": enacted.slug},
        "post_unhide": {"slug": enacted.slug},
        "player_detail": {"name": bystander.username},
        "wiki_page": {"slug": notes.slug},
        "wiki_history": {"slug": "ruleset"},
        "wiki_revision": {"slug": "ruleset", "number": 1},
        "wiki_revert": {"slug": notes.slug, "number": 1},
        "wiki_as_of": {"slug": "ruleset"},
        "wiki_diff_form": {"slug": "ruleset"},
        "wiki_diff": {"slug": "ruleset", "old": "1", "new": "2"},
        "wiki_edit": {"slug": notes.slug},
        "wiki_protect": {"slug": notes.slug},
        "wiki_rule": {"slug": "ruleset", "ref": "1.1"},
        "wiki_rule_history": {"slug": "ruleset", "anchor": rule.anchor},
        "gndt_update": {"pk": update.pk},
        "gndt_undo": {"pk": update.pk},
        "gndt_dynasty_table": {"number": dynasty.number},
        "gndt_dynasty_log": {"number": dynasty.number},
        "gndt_dynasty_export": {"number": dynasty.number},
        "gndt_column_edit": {"pk": money.pk},
        "gndt_action_edit": {"pk": action.pk},
        "gndt_effect_edit": {"pk": effect.pk},
        "gndt_remove": {"kind": "actions", "pk": action.pk},
        "application_decide": {"pk": application.pk},
        "dynasty_detail": {"number": dynasty.number},
        "idle": {"name": bystander.username},
        "unidle": {"name": idle.username},
        "rename": {"name": bystander.username},
        "set_admin": {"name": bystander.username},
        "category_feed": {"category": "proposals"},
        "post_comments_feed": {"slug": slug},
        "wiki_feed": {"slug": "ruleset"},
        "notices_feed": {"token": active.notices_feed_token},
        "message_thread": {"pk": conversation.pk},
        "seal_reveal": {"pk": seal.pk},
        "private_deck": {"pk": deck.pk},
        "api:post": {"post_id": slug},
        "api:post_resolve": {"post_id": slug},
        "api:gndt_action_take": {"name": action.name},
        "api:post_update": {"post_id": story.slug},
        "api:vote_create": {"post_id": slug},
        "api:comment_create": {"post_id": slug},
        "api_not_found": {"rest": "no-such-endpoint"},
        "email_confirm": {"token": "not-a-token"},
        "unsubscribe": {"token": "not-a-token"},
        "password_reset_confirm": {"uidb64": "MQ", "token": "not-a-token"},
        "amendment_revert": {"pk": 999999},
        "token_revoke": {"pk": token.pk},
        "stats_chart": {"name": "active-players"},
        "stats_table": {"table": "players"},
        "game_at": {"at": f"{now - timedelta(hours=1):%Y-%m-%dT%H:%M:%SZ}"},
    }
    data = {
        "comment_create": {"icon": "for", "text": "Agreed."},
        "emperor_decide": {"legal": "yes"},
        "new_post": {"kind": "story", "title": "Story Post: A Quiet Night", "body": "Nothing happened."},
        "edit_post": {"kind": Kind.STORY, "title": "Story Post: The Lamp Room", "body": "It smells of oil and salt."},
        "resolve": {"action": "fail"},
        "reopen": {"reason": "A Call for Judgement said so."},
        "wiki_new": {"title": "Tide Tables", "kind": Page.ORDINARY, "text": "High at noon."},
        "wiki_edit": {"text": "Some better notes.", "summary": "Better", "base": 2},
        "wiki_revert": {"base": 2},
        "wiki_protect": {"protected": "1", "reason": "Edit war"},
        "gndt_edit": {f"v-{row.pk}-{money.pk}": "280", f"s-{row.pk}-{money.pk}": "290", "comment": "More"},
        "gndt_undo": {"comment": "Oops"},
        # The API's writes, sent as JSON with a token ("TOKEN POST"); the same data as a form is refused 400.
        "api:gndt_updates": {"changes": [{"row": row.name, "column": "Money", "value": "280", "seen": "290"}]},
        "api:gndt_action_take": {"comment": "Polished"},
        "api:post_resolve": {"action": "fail"},
        "gndt_column_new": {"name": "Wicks", "kind": Column.INTEGER, "default": "1", "order": 9},
        "gndt_column_edit": {"name": "Money", "kind": Column.INTEGER, "default": "301", "order": 1},
        "gndt_action_new": {"name": "Trim the wick", "frequency": daily},
        "gndt_action_edit": {"name": "Polish the lamp", "frequency": weekly},
        "gndt_effect_new": {
            "name": "Tax",
            "column": money.pk,
            "target": ScheduledEffect.PLAYERS,
            "delta": -1,
            "hour": 0,
            "minute": 0,
            "enabled": "on",
        },
        "gndt_effect_edit": {
            "name": "Wages",
            "column": money.pk,
            "target": ScheduledEffect.PLAYERS,
            "delta": 2,
            "hour": 0,
            "minute": 0,
            "enabled": "on",
        },
        "gndt_row_new": {"name": "The Harbour"},
        "gndt_list_save": {"name": "FRUIT", "entries": "Apple, Pear", "scope": "dynasty"},
        "gndt_variable_new": {"label": "Time of day", "phase_rule": "day-parity", "proposal": enacted.slug},
        "join": {"name": "Newcomer", "password": "a-good-passphrase", "password_again": "a-good-passphrase"},
        "application_decide": {"decision": "approve"},
        "rename": {"new_name": "Renamed Keeper", "proposal": enacted.slug},
        "set_admin": {"admin": "yes"},
        "leave": {"confirm": "yes"},
        "core_rules": {"parameter": "pending_limit", "value": "3", "proposal": enacted.slug},
        "ascension": {"step": "hand-over", "to": voter.username},
        "login": {"username": "P07", "password": "test-password"},
        "password_change": {
            "old_password": "test-password",
            "new_password1": "Brass lantern 1911",
            "new_password2": "Brass lantern 1911",
        },
        "messages_compose": {"to": emperor.username, "subject": "Hello", "body": "A word in private."},
        "message_thread": {"body": "Agreed."},
        "seal_new": {"title": "Codename", "text": ":PROTO is mine"},
        "seal_reveal": {"text": "AS KD"},
        "private_decks": {"hand": "4"},
        "private_deck": {"step": "draw", "count": "2"},
        "notice_preferences": {"mention": "on"},
        "webhooks": {"url": "https://chat.example.org/hook"},
        # The API's writes read JSON (sent so by the headers below); GET /api/posts and POST share an address.
        "api:vote_create": {"icon": "for", "text": "Agreed."},
        "api:comment_create": {"text": "A word from a program."},
        "api:post_create": {"kind": Kind.STORY, "title": "Story Post: A Quiet Night", "body": "Nothing happened."},
        "api:posts": {"kind": Kind.STORY, "title": "Story Post: A Quiet Night", "body": "Nothing happened."},
    }
    # Query strings some pages need (the inline cell editor is an htmx fragment).
    queries = {"gndt_cell_form": f"?row={row.pk}&column={money.pk}", "search": "?q=lamp"}
    headers = {"gndt_cell_form": {"HTTP_HX_REQUEST": "true"}}
    for name in ("api:vote_create", "api:comment_create", "api:post_create", "api:posts", "api:post_update"):
        headers[name] = {"content_type": "application/json"}
    assert Application.objects.filter(status=Application.PENDING).count() == 1
    return Game(users=users, args=args, data=data, queries=queries, headers=headers, tokens=tokens)


def users_by_role(*, spectator, idle, active, emperor, admin, former) -> dict[str, User | None]:
    return {
        "visitor": None,
        "applicant": None,
        "non_player": spectator,
        "idle": idle,
        "active": active,
        "emperor": emperor,
        "admin": admin,
        "former": former,
    }


def token_clients_for(game: Game) -> dict[str, Client]:
    """A client per role that sends the role's token and no cookie."""
    return {
        role: Client(REMOTE_ADDR="198.51.100.8", HTTP_AUTHORIZATION=f"Bearer {token}", raise_request_exception=False)
        for role, token in game.tokens.items()
    }


def clients_for(game: Game) -> dict[str, Client]:
    """A client per role, logged in as it (the applicant from an address of its own). A view's exception is an
    answer like any other (a 500 in the table is a bug to fix), so the clients return it rather than raise it."""
    clients = {}
    for role in ROLES:
        client = Client(
            REMOTE_ADDR=APPLICANT_ADDRESS if role == "applicant" else "198.51.100.7", raise_request_exception=False
        )
        if game.users[role] is not None:
            client.force_login(game.users[role])
        clients[role] = client
    return clients
