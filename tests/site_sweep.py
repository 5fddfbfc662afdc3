"""One sweep of the whole site, shared by the tests that ask something of every URL as every role.

The permission matrix (``tests/test_permissions.py``), reads-don't-write (``tests/test_reads_dont_write.py``)
and the secrets canary (``tests/test_secrets_canary.py``) each used to request every URL as every role, in
the same game. Now one sweep makes each request once and keeps what each of them asks of it: the status and
the tables written, whether the content version or the reader's own moved, the ``Cache-Control`` header, and
which planted secrets the answer held.

The game is the permission matrix's (``tests/permissions.py``) with the canary's secrets planted in it
(``tests/secrets_canary.py``). Every URL of the URL configuration is requested as every role of the matrix:
GET, GET as an htmx fragment, POST with the matrix's form data, the same URL with a bad id, and the extra
requests that aim it at the secrets. Every request runs in a savepoint that is rolled back, so all see the
same game, built once at one frozen moment; the page a POST redirects to (where its messages show) is read
in the same savepoint. When the sweep is done, the game is rolled back: the tests read plain records, so the
sweep is made once per process (a session fixture, ``site_sweep``) whichever of the three modules runs.
"""

from __future__ import annotations

import copy
import json
import logging
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test import client as test_client
from django.urls import NoReverseMatch, resolve, reverse
from django.utils import timezone

from blognomic.community.messaging.selectors import inbox
from blognomic.web.freshness import bump_version, current_versions, written_table
from dynasties.privacy import is_personal_page
from tests.isolation import as_in_a_test
from tests.permissions import ROLES, build_game, clients_for, table_key, token_clients_for, url_patterns
from tests.secrets_canary import HIDDEN_COLUMN, NO_SUCH_COLUMN, Canary, Variant, plant_secrets
from votes.models import Post

HTMX = {"HTTP_HX_REQUEST": "true"}
# The anonymous author is looked for as these roles (a reader, a player, and the two who see hidden state):
# asking all eight would double the work for no new case.
AUTHOR_ROLES = ("visitor", "active", "emperor", "admin")
BAD_NUMBER = 2_147_483_647
BAD_TEXT = "no-such-thing"
# What differs between two identical requests: the per-request mask of the CSRF token; and the content version a
# live page's poller names, which counts writes (making another player the author is more of them).
VOLATILE = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"'), r'\1"'),
    (re.compile(r'("X-CSRFToken": ")[^"]*"'), r'\1"'),
    (re.compile(r'(live/\?since=)[^&"]*'), r"\1"),
]
# Writes that are not the endpoint's doing, for the permission matrix's "+w": sessions (messages, login), the
# login limiter's records, and when a token was last used.
NOT_GAME_TABLES = ("django_session", "axes_", "tokens_tokenuse")


def is_game_table(table: str) -> bool:
    return not table.startswith(NOT_GAME_TABLES)


@dataclass(frozen=True)
class Probe:
    key: str  # the permission table's row
    method: str
    path: str
    data: dict = field(default_factory=dict, hash=False)
    headers: dict = field(default_factory=dict, hash=False)
    # "matrix": the request the permission table describes; "htmx", "bad id" or "variant" (aimed at a secret).
    kind: str = field(default="matrix", compare=False)

    def carries(self, text: str) -> bool:
        """Whether the request itself holds ``text`` (its answer may then echo it back)."""
        asked = self.path + " " + " ".join(f"{key}={value}" for key, value in self.data.items())
        return text.lower() in asked.lower()

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}{' (htmx)' if self.headers else ''}"


@dataclass(frozen=True)
class Answer:
    """What one request, as one role, did and said."""

    probe: Probe
    role: str
    status: int
    written: tuple[str, ...]  # the tables the request wrote, in order (not the page a redirect led to)
    content_moved: bool
    own_moved: bool
    had_unread: bool  # the reader had something unread that this page marks read
    cache_control: str
    personal: bool  # the view says it is one account's own page

    @property
    def key(self) -> str:
        return self.probe.key

    @property
    def path(self) -> str:
        return self.probe.path

    @property
    def directives(self) -> set[str]:
        return {part.strip() for part in self.cache_control.lower().split(",") if part.strip()}

    @property
    def in_table(self) -> str:
        """The answer as the permission table writes it: the status, ``+w`` when it wrote to the game."""
        wrote = any(is_game_table(table) for table in self.written)
        return f"{self.status}{'+w' if wrote else ''}"


@dataclass
class Sweep:
    canary: Canary
    probes: list[Probe]
    unfillable: list[str]
    answers: list[Answer] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    shown: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    about_cfj: list[tuple[Probe, str]] = field(default_factory=list)  # (probe, role)
    # The answers that changed when another player was made the anonymous CfJ's author.
    author_differences: list[str] = field(default_factory=list)
    # What a reader was shown by each request naming the hidden column or one that does not exist.
    by_probe: dict[tuple[Probe, str], str] = field(default_factory=dict)

    def matrix(self, key: str, method: str) -> dict[str, set[str]]:
        """Each role's answers to the permission table's requests of one row, as the table writes them."""
        return self._table_rows.get((key, method), {role: set() for role in ROLES})

    @cached_property
    def _table_rows(self) -> dict[tuple[str, str], dict[str, set[str]]]:
        rows: dict[tuple[str, str], dict[str, set[str]]] = {}
        for answer in self.answers:
            if answer.probe.kind == "matrix":
                row = rows.setdefault((answer.key, answer.probe.method), {role: set() for role in ROLES})
                row[answer.role].add(answer.in_table)
        return rows


def _with_args(name: str, kwargs: dict) -> str | None:
    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:
        return None


def _bad(kwargs: dict) -> dict:
    """The same arguments naming nothing that exists."""
    return {
        key: BAD_NUMBER if isinstance(value, int) or str(value).isdigit() else BAD_TEXT for key, value in kwargs.items()
    }


def probes_of(game, canary: Canary) -> tuple[list[Probe], list[str]]:
    """Every request to make, and the URL names whose arguments nobody knows how to fill."""
    probes: list[Probe] = []
    unfillable: list[str] = []
    for name, route, _pattern in url_patterns():
        key = table_key(name, route)
        if key.startswith("admin:"):
            path = _with_args(name, {}) if name else None
            if path is not None:  # the admin's URLs that need an object id: login and staff checks alone
                probes += [Probe(key, "GET", path), Probe(key, "POST", path)]
            continue
        kwargs = game.args.get(name, {})
        path = _with_args(name, kwargs) if name else None
        if path is None:
            unfillable.append(name or route)
            continue
        query, headers = game.queries.get(name, ""), game.headers.get(name, {})
        probes += [
            Probe(key, "GET", path + query, headers=headers),
            Probe(key, "POST", path + query, data=game.data.get(name, {}), headers=headers),
        ]
        if key.startswith("api:"):
            probes += [
                Probe(key, "TOKEN GET", path + query),
                Probe(key, "TOKEN POST", path + query, data=game.data.get(name, {})),
            ]
        if not headers:
            probes.append(Probe(key, "GET", path + query, headers=HTMX, kind="htmx"))
        bad_path = _with_args(name, _bad(kwargs)) if kwargs else None
        if bad_path is not None:
            probes += [
                Probe(key, "GET", bad_path + query, headers=headers, kind="bad id"),
                Probe(key, "POST", bad_path + query, data=game.data.get(name, {}), headers=headers, kind="bad id"),
            ]
        for variant in canary.variants.get(name, []):
            probes.append(_variant_probe(key, name, kwargs, variant))
    return probes, unfillable


def _variant_probe(key: str, name: str, kwargs: dict, variant: Variant) -> Probe:
    path = reverse(name, kwargs=kwargs if variant.kwargs is None else variant.kwargs) + variant.query
    if variant.data is None:
        return Probe(key, "GET", path, headers=variant.headers, kind="variant")
    return Probe(key, "POST", path, data=variant.data, headers=variant.headers, kind="variant")


def _body(response) -> str:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return body.decode("utf-8", errors="replace")


def _head(response) -> str:
    headers = "\n".join(f"{name}: {value}" for name, value in response.items())
    return headers + "\n" + "\n".join(morsel.value for morsel in response.cookies.values())


def unread_before(key: str, path: str, user) -> bool:
    """Whether the reader had anything unread that the page would mark read."""
    if user is None:
        return False
    if key == "notifications":
        return user.notifications.filter(read_at__isnull=True).exists()
    if key == "message_thread":
        pk = resolve(path.partition("?")[0]).kwargs["pk"]
        return any(conversation.unread for conversation in inbox(user) if conversation.pk == pk)
    return False


@dataclass
class Fetched:
    answer: Answer
    text: str  # every header, cookie and body, to search for sentinels
    page: str  # what a reader is shown: status, redirect and bodies, the CSRF token's mask left out


def fetch(client: Client, probe: Probe, role: str, user) -> Fetched:
    """The response, what it wrote and whose versions it moved; for a POST that redirects on the site, the page
    it leads to as well (where the messages it left are shown). Nothing the request writes is kept."""
    written: list[str] = []

    def watch(execute, sql, params, many, context):
        table = written_table(sql) if isinstance(sql, str) else None
        if table is not None:
            written.append(table)
        return execute(sql, params, many, context)

    reader = user.pk if user is not None else None
    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic():
        had_unread = probe.method == "GET" and unread_before(probe.key, probe.path, user)
        content, own = current_versions(reader)
        with connection.execute_wrapper(watch):
            if probe.method in ("GET", "TOKEN GET"):
                response = client.get(probe.path, **probe.headers)
            elif probe.method == "TOKEN POST":
                response = client.post(probe.path, json.dumps(probe.data), content_type="application/json")
            else:
                response = client.post(probe.path, probe.data, **probe.headers)
        content_after, own_after = current_versions(reader)
        responses = [response]
        location = response.headers.get("Location", "")
        if probe.method.endswith("POST") and response.status_code in (301, 302, 303) and not urlsplit(location).netloc:
            responses.append(client.get(location))
        transaction.set_rollback(True)
    client.cookies = cookies
    answer = Answer(
        probe=probe,
        role=role,
        status=response.status_code,
        written=tuple(written),
        content_moved=content_after != content,
        own_moved=own_after != own,
        had_unread=had_unread,
        cache_control=response.get("Cache-Control", ""),
        personal=is_personal_page(resolve(probe.path.partition("?")[0]).func),
    )
    text = "\n".join(_head(each) + "\n" + _body(each) for each in responses)
    page = "\n".join(f"{each.status_code} {each.headers.get('Location', '')}\n{_body(each)}" for each in responses)
    for pattern, replacement in VOLATILE:
        page = pattern.sub(replacement, page)
    return Fetched(answer, text, page)


def _about_cfj(probe: Probe, lowered: str, canary: Canary) -> bool:
    """Whether a response mentions the anonymous CfJ, or its request names it or a candidate author."""
    return (
        canary.cfj.title.lower() in lowered
        or canary.cfj.slug in probe.path
        or probe.carries(canary.cfj_author.username)
        or probe.carries(canary.stand_in.username)
    )


def _look_for_sentinels(result: Sweep, probe: Probe, role: str, lowered: str) -> None:
    for sentinel in result.canary.sentinels:
        if probe.carries(sentinel.text) or sentinel.text.lower() not in lowered:
            continue
        if role in sentinel.may_see:
            result.shown[sentinel.name].add(role)
        else:
            result.leaks.append(f"{sentinel.name} ({sentinel.text}) shown to {role} by {probe.label}")


def _compare_with_another_author(result: Sweep, clients: dict[str, Client], users: dict, pages: list[str]) -> None:
    """Every answer about the anonymous CfJ again, with another player made its author: each must be the same."""
    canary = result.canary
    with transaction.atomic():
        Post.objects.filter(pk=canary.cfj.pk).update(author=canary.stand_in)
        bump_version()
        cache.clear()
        for (probe, role), before in zip(result.about_cfj, pages, strict=True):
            after = fetch(clients[role], probe, role, users[role]).page
            if after != before:
                result.author_differences.append(f"{probe.label} as {role}: {first_difference(before, after)}")
        transaction.set_rollback(True)


def first_difference(before: str, after: str) -> str:
    at = next(
        (i for i, (old, new) in enumerate(zip(before, after, strict=False)) if old != new), min(len(before), len(after))
    )
    start = max(0, at - 60)
    return f"…{before[start : at + 80]!r}… became …{after[start : at + 80]!r}…"


def sweep_site() -> Sweep:
    """The game with its secrets built, every request made as every role, then all of it rolled back."""
    now = timezone.now().replace(microsecond=0)
    # The content version is kept in this process's memory (``as_in_a_test``), which every statement moves at
    # once, even inside the sweep's transaction.
    with time_machine.travel(now, tick=False), transaction.atomic():
        cache.clear()  # no page kept by an earlier test answers for this game
        bump_version()
        built = build_game(now)
        canary = plant_secrets(built, now)
        clients = clients_for(built)
        token_clients = token_clients_for(built)
        probes, unfillable = probes_of(built, canary)
        result = Sweep(canary=canary, probes=probes, unfillable=unfillable)
        about_cfj_pages: list[str] = []
        for probe in probes:
            for role in ROLES:
                client = token_clients[role] if probe.method.startswith("TOKEN") else clients[role]
                fetched = fetch(client, probe, role, built.users[role])
                result.answers.append(fetched.answer)
                lowered = fetched.text.lower()
                _look_for_sentinels(result, probe, role, lowered)
                if probe.method == "GET" and role in AUTHOR_ROLES and _about_cfj(probe, lowered, canary):
                    result.about_cfj.append((probe, role))
                    about_cfj_pages.append(fetched.page)
                if probe.carries(HIDDEN_COLUMN) or probe.carries(NO_SUCH_COLUMN):
                    result.by_probe[(probe, role)] = fetched.page
        _compare_with_another_author(result, clients, built.users, about_cfj_pages)
        transaction.set_rollback(True)
        cache.clear()  # nor does one of this game's pages for a later test
    return result


@pytest.fixture(scope="session")
def site_sweep(django_db_setup, django_db_blocker) -> Sweep:
    """The sweep, made once per process by whichever test asks first (over a minute), in the world every test
    has (``tests/isolation.py``): its fixtures are set up after this one."""
    quiet = logging.getLogger("django.request"), logging.getLogger("django.security")
    levels = [logger.level for logger in quiet]
    for logger in quiet:  # thousands of refusals and 404s are the point here, not news
        logger.setLevel(logging.CRITICAL)
    try:
        with django_db_blocker.unblock(), as_in_a_test() as patch:
            # The sweep reads the answers alone: the test client need not copy the context of every template
            # rendered into each response (about a fourteenth of the sweep's time).
            patch.setattr(test_client, "store_rendered_templates", lambda *args, **kwargs: None)
            return sweep_site()
    finally:
        for logger, level in zip(quiet, levels, strict=True):
            logger.setLevel(level)
