"""The secrets canary: no secret reaches a reader who may not see it, by any URL the site has.

"Secrets are absent, not hidden": what a reader may not see is never put into a response for them. Sentinels
(strings found nowhere else) are planted in the permission matrix's game (``tests/secrets_canary.py`` says
which, and who may see each); then every URL of the URL configuration is requested as every role of the
matrix — GET, GET as an htmx fragment, POST with the matrix's form data, the same URL with a bad id, and the
extra requests that aim it at the secrets — and each response's body and headers, and the page a POST
redirects to (where its messages show), are searched for every sentinel. A URL added to the site is
requested here without anyone listing it; one whose arguments nobody knows how to fill fails the first test.

Every request runs in a savepoint that is rolled back, so all see the same game, built once, at one frozen
moment. A sentinel that the request itself carries (a search for it, a form typing it) is not looked for in
that response.
"""

from __future__ import annotations

import copy
import logging
import re
from collections import defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core.cache import cache
from django.db import transaction
from django.test import Client, override_settings
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from blognomic.web.freshness import bump_version
from tests.permissions import APPLICANT_ADDRESS, ROLES, build_game, table_key, url_patterns
from tests.secrets_canary import HIDDEN_COLUMN, NO_SUCH_COLUMN, Variant, plant_secrets
from votes.models import Post

# The sweep is made once per process that runs one of these tests: kept on one worker, it is made once.
pytestmark = pytest.mark.xdist_group("secrets-canary")

HTMX = {"HTTP_HX_REQUEST": "true"}
# The anonymous author is looked for as these roles (a reader, a player, and the two who see hidden state):
# asking all eight would double the run for no new case.
AUTHOR_ROLES = ("visitor", "active", "emperor", "admin")
BAD_NUMBER = 2_147_483_647
BAD_TEXT = "no-such-thing"
# What differs between two identical requests: the per-request mask of the CSRF token.
VOLATILE = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"'), r'\1"'),
    (re.compile(r'("X-CSRFToken": ")[^"]*"'), r'\1"'),
]


@dataclass(frozen=True)
class Probe:
    key: str
    method: str
    path: str
    data: dict = field(default_factory=dict, hash=False)
    headers: dict = field(default_factory=dict, hash=False)

    def carries(self, text: str) -> bool:
        """Whether the request itself holds ``text`` (its answer may then echo it back)."""
        asked = self.path + " " + " ".join(f"{key}={value}" for key, value in self.data.items())
        return text.lower() in asked.lower()


@dataclass
class Sweep:
    canary: object
    probes: list[Probe]
    unfillable: list[str]
    responses: int = 0
    leaks: list[str] = field(default_factory=list)
    shown: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    about_cfj: list[tuple[Probe, str, str]] = field(default_factory=list)  # (probe, role, page)
    by_probe: dict[tuple[Probe, str], str] = field(default_factory=dict)
    clients: dict[str, Client] = field(default_factory=dict)


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


def probes_of(game, canary) -> tuple[list[Probe], list[str]]:
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
        if not headers:
            probes.append(Probe(key, "GET", path + query, headers=HTMX))
        bad_path = _with_args(name, _bad(kwargs)) if kwargs else None
        if bad_path is not None:
            probes += [
                Probe(key, "GET", bad_path + query, headers=headers),
                Probe(key, "POST", bad_path + query, data=game.data.get(name, {}), headers=headers),
            ]
        for variant in canary.variants.get(name, []):
            probes.append(_variant_probe(key, name, kwargs, variant))
    return probes, unfillable


def _variant_probe(key: str, name: str, kwargs: dict, variant: Variant) -> Probe:
    path = reverse(name, kwargs=kwargs if variant.kwargs is None else variant.kwargs) + variant.query
    if variant.data is None:
        return Probe(key, "GET", path, headers=variant.headers)
    return Probe(key, "POST", path, data=variant.data, headers=variant.headers)


def _body(response) -> str:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return body.decode("utf-8", errors="replace")


def _head(response) -> str:
    headers = "\n".join(f"{name}: {value}" for name, value in response.items())
    return headers + "\n" + "\n".join(morsel.value for morsel in response.cookies.values())


@dataclass
class Answer:
    text: str  # every header, cookie and body, to search for sentinels
    page: str  # what a reader is shown: status, redirect and bodies, the CSRF token's mask left out


def fetch(client: Client, probe: Probe) -> Answer:
    """The response; for a POST that redirects on the site, the page it leads to as well (where the messages it
    left are shown). Nothing the request writes is kept."""
    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic():
        if probe.method == "GET":
            response = client.get(probe.path, **probe.headers)
        else:
            response = client.post(probe.path, probe.data, **probe.headers)
        responses = [response]
        location = response.headers.get("Location", "")
        if probe.method == "POST" and response.status_code in (301, 302, 303) and not urlsplit(location).netloc:
            responses.append(client.get(location))
        transaction.set_rollback(True)
    client.cookies = cookies
    text = "\n".join(_head(each) + "\n" + _body(each) for each in responses)
    page = "\n".join(f"{each.status_code} {each.headers.get('Location', '')}\n{_body(each)}" for each in responses)
    for pattern, replacement in VOLATILE:
        page = pattern.sub(replacement, page)
    return Answer(text, page)


def _clients(built) -> dict[str, Client]:
    clients = {}
    for role in ROLES:
        client = Client(
            REMOTE_ADDR=APPLICANT_ADDRESS if role == "applicant" else "198.51.100.7", raise_request_exception=False
        )
        if built.users[role] is not None:
            client.force_login(built.users[role])
        clients[role] = client
    return clients


def _about_cfj(probe: Probe, lowered: str, canary) -> bool:
    """Whether a response mentions the anonymous CfJ, or its request names it or a candidate author."""
    return (
        canary.cfj.title.lower() in lowered
        or canary.cfj.slug in probe.path
        or probe.carries(canary.cfj_author.username)
        or probe.carries(canary.stand_in.username)
    )


@pytest.fixture(scope="module")
def sweep(django_db_setup, django_db_blocker):
    """The game with its secrets, every request made as every role once, and what each answer showed."""
    now = timezone.now().replace(microsecond=0)
    fast = override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"], CONTENT_VERSION_STORE="memory"
    )
    quiet = logging.getLogger("django.request"), logging.getLogger("django.security")
    levels = [logger.level for logger in quiet]
    for logger in quiet:  # thousands of refusals and 404s are the point here, not news
        logger.setLevel(logging.CRITICAL)
    with fast, time_machine.travel(now, tick=False), django_db_blocker.unblock(), transaction.atomic():
        cache.clear()
        bump_version()
        built = build_game(now)
        canary = plant_secrets(built, now)
        clients = _clients(built)
        probes, unfillable = probes_of(built, canary)
        result = Sweep(canary=canary, probes=probes, unfillable=unfillable, clients=clients)
        for probe in probes:
            for role in ROLES:
                answer = fetch(clients[role], probe)
                result.responses += 1
                lowered = answer.text.lower()
                for sentinel in canary.sentinels:
                    if probe.carries(sentinel.text) or sentinel.text.lower() not in lowered:
                        continue
                    if role in sentinel.may_see:
                        result.shown[sentinel.name].add(role)
                    else:
                        result.leaks.append(
                            f"{sentinel.name} ({sentinel.text}) shown to {role} by "
                            f"{probe.method} {probe.path}{' (htmx)' if probe.headers else ''}"
                        )
                if probe.method == "GET" and role in AUTHOR_ROLES and _about_cfj(probe, lowered, canary):
                    result.about_cfj.append((probe, role, answer.page))
                if probe.carries(HIDDEN_COLUMN) or probe.carries(NO_SUCH_COLUMN):
                    result.by_probe[(probe, role)] = answer.page
        yield result
        transaction.set_rollback(True)
    for logger, level in zip(quiet, levels, strict=True):
        logger.setLevel(level)


@pytest.fixture
def db_access(django_db_blocker):
    with django_db_blocker.unblock():
        yield


# Marked like the module's other tests: pytest-django runs tests that use the database apart from those
# that do not, and the sweep (over a minute) would be built once for each group.
@pytest.mark.django_db
def test_every_url_is_requested_by_the_canary(sweep):
    """A URL added to the site is searched for secrets without anyone listing it: the canary walks the URL
    configuration, and a URL whose arguments it cannot fill fails here."""
    assert not sweep.unfillable, (
        "Say how to fill these URLs' arguments in tests/permissions.py (Game.args), so the permission matrix "
        f"and the secrets canary can request them: {sweep.unfillable}"
    )
    names = {name for name, _route, _pattern in url_patterns()}
    unknown = sorted(set(sweep.canary.variants) - names)
    assert not unknown, f"tests/secrets_canary.py aims at URL names that do not exist: {unknown}"


@pytest.mark.django_db
def test_no_sentinel_reaches_a_role_that_may_not_see_it(sweep, db_access):
    """Secrets are absent, not hidden: a hidden or owner-only value, a hidden column's name, a sealed text, a
    private message, an amendment's secret values and the comments of updates that touched only secrets are
    in no response (body, headers, or the page a form sends one to) to a role that may not see them."""
    endpoints = len({(probe.key, probe.method) for probe in sweep.probes})
    print(
        f"\nsecrets canary: {len(sweep.canary.sentinels)} sentinels, {len(sweep.probes)} requests × "
        f"{len(ROLES)} roles = {sweep.responses} responses scanned, {endpoints} endpoints "
        f"(URL name × method) × {len(ROLES)} roles"
    )
    assert not sweep.leaks, f"{len(sweep.leaks)} leaks:\n" + "\n".join(sorted(set(sweep.leaks)))


@pytest.mark.django_db
def test_every_sentinel_is_shown_to_those_who_may_see_it(sweep, db_access):
    """The canary is not vacuous: each planted secret is shown somewhere to every role that must see it (the
    owner their own Role, the Emperor and admins the hidden column, the sender their message)."""
    missing = [
        f"{sentinel.name} ({sentinel.text}) never shown to {role}"
        for sentinel in sweep.canary.sentinels
        for role in sorted(sentinel.shown_to)
        if role not in sweep.shown[sentinel.name]
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.django_db
def test_no_response_depends_on_who_wrote_an_anonymous_call_for_judgement(sweep, db_access):
    """2008: "a Call for Judgement posted anonymously shows no author to anyone". Every response that mentions
    the anonymous CfJ, or is about it or its author, is the same, for every role, when another player is
    made its author: nothing in them links it to the one who wrote it."""
    canary = sweep.canary
    assert sweep.about_cfj, "no response mentions the anonymous Call for Judgement: the check would be vacuous"
    different = []
    with transaction.atomic():
        Post.objects.filter(pk=canary.cfj.pk).update(author=canary.stand_in)
        bump_version()
        cache.clear()
        for probe, role, before in sweep.about_cfj:
            after = fetch(sweep.clients[role], probe).page
            if after != before:
                different.append(
                    f"{probe.path}{' (htmx)' if probe.headers else ''} as {role}: {_first_difference(before, after)}"
                )
        transaction.set_rollback(True)
    bump_version()
    assert not different, (
        f"{len(different)} of {len(sweep.about_cfj)} responses change with the anonymous "
        "author:\n" + "\n".join(different)
    )


def _first_difference(before: str, after: str) -> str:
    at = next(
        (i for i, (old, new) in enumerate(zip(before, after, strict=False)) if old != new), min(len(before), len(after))
    )
    start = max(0, at - 60)
    return f"…{before[start : at + 80]!r}… became …{after[start : at + 80]!r}…"


@pytest.mark.django_db
def test_a_hidden_column_is_answered_as_one_that_does_not_exist(sweep, db_access):
    """A hidden column's existence is secret: to a role that may not see it, naming it (searching for it,
    sorting or filtering by it) gets the answer a column that does not exist gets."""
    hidden_sentinel = next(s for s in sweep.canary.sentinels if s.text == HIDDEN_COLUMN)
    different = []
    for (probe, role), answer in sweep.by_probe.items():
        if role in hidden_sentinel.may_see or not probe.carries(HIDDEN_COLUMN):
            continue
        data = {key: NO_SUCH_COLUMN if value == HIDDEN_COLUMN else value for key, value in probe.data.items()}
        twin = Probe(probe.key, probe.method, probe.path.replace(HIDDEN_COLUMN, NO_SUCH_COLUMN), data, probe.headers)
        other = sweep.by_probe.get((twin, role))
        if other is None:
            continue
        answer, other = answer.replace(HIDDEN_COLUMN, "X"), other.replace(NO_SUCH_COLUMN, "X")
        if answer != other:
            different.append(
                f"{probe.method} {probe.path} as {role}, the column that does not exist: "
                f"{_first_difference(other, answer)}"
            )
    assert not different, "\n".join(different)
