"""Bounded work per request: every form and endpoint, sent its largest allowed input and one just over.

From the issue "Secrets stay secret, one request can't stall the site": "a test that sends every form and
endpoint its largest allowed input (and one just over) and asserts an answer within a second on this
machine, refusals included; the limits are checked before parsing or deriving anything."

The endpoints, the role that may use each and the form data that fills it come from the permission matrix
(``tests/permissions.py`` and ``permissions.csv``): each POST endpoint is sent, as the first role the table
lets write through it (or be answered 200), its usual form data with one text field at a time made as long
as allowed, then one character longer. A field's limit is where it is declared: the site's own caps on a
post (100 KB), a wiki page (1 MB), a message or a sealed text (``LIMITS``); otherwise the ``max_length`` of
the field on the form the endpoint's page shows; otherwise only the request body's cap
(``DATA_UPLOAD_MAX_MEMORY_SIZE``), which the field then fills. An endpoint that takes no form data is sent
one field that fills the body. Over a limit, nothing is written.

The time is the CPU time of the request in this process (the view, the template and, on SQLite, the
database): wall time measures the machine's other work too. A wall-clock bound five times as wide catches
work done in the PostgreSQL server. A request over either bound is sent once more and the lower of its two
times kept. ``BOUNDED_WORK_REPORT=FILE`` writes the table of what each endpoint was sent and how long it took.
"""

from __future__ import annotations

import copy
import json
import os
import time
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest
from django import forms
from django.conf import settings
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from blognomic.community.commitments.services import MAX_TEXT as MAX_SEALED_TEXT
from blognomic.community.messaging.services import MAX_BODY as MAX_MESSAGE_BODY
from blognomic.community.messaging.services import MAX_SUBJECT as MAX_MESSAGE_SUBJECT
from blognomic.web.freshness import written_table
from ruleset.models import RULESET_SLUG, Page
from ruleset.services import MAX_PAGE_BYTES
from tests.permissions import build_game, clients_for, read_table, table_key, url_patterns
from tests.site_sweep import is_game_table
from votes.models import MAX_BODY_BYTES

SECOND = 1.0
WALL_FACTOR = 5
# The first of these roles that the table lets write through an endpoint is the one that is sent its input.
PREFERRED_ROLES = ("active", "admin", "emperor", "idle", "non_player", "former", "applicant", "visitor")

# Limits declared outside the forms, in the services and models that hold them: (endpoint, field) → limit.
LIMITS = {
    ("new_post", "body"): MAX_BODY_BYTES,
    ("new_post", "ruleset_text"): MAX_PAGE_BYTES,
    ("edit_post", "body"): MAX_BODY_BYTES,
    ("comment_create", "text"): MAX_BODY_BYTES,
    ("wiki_new", "text"): MAX_PAGE_BYTES,
    ("wiki_edit", "text"): MAX_PAGE_BYTES,
    ("messages_compose", "body"): MAX_MESSAGE_BODY,
    ("messages_compose", "subject"): MAX_MESSAGE_SUBJECT,
    ("message_thread", "body"): MAX_MESSAGE_BODY,
    ("seal_new", "text"): MAX_SEALED_TEXT,
}
# Fields added to an endpoint's usual data, so that the largest input reaches the work it is there for.
EXTRA_DATA = {"new_post": {"ruleset_text": ""}}
# Text that exercises Markdown rather than a run of one letter; a name-like field gets letters only.
FILLER = "Keep *the* light [on](/x/) at `dusk`; ring > the bell.\n"
NAME_FILLER = "Lamp"
# Only characters ``urlencode`` leaves as they are, so a body can be made exactly as long as the cap.
BODY_FILLER = "Keep-the-light_at.dusk"


@dataclass
class Outcome:
    endpoint: str
    role: str
    field: str
    limit: int
    source: str
    size: str
    status: int
    wrote: bool
    cpu: float
    wall: float


def filler(length: int, pattern: str = FILLER) -> str:
    return (pattern * (length // len(pattern) + 1))[:length]


@pytest.fixture
def game(db):
    built = build_game(timezone.now())
    return built, clients_for(built)


def post_endpoints(built) -> list[tuple[str, str, str]]:
    """(endpoint, path, role) for every POST endpoint of the site (not Django's own admin) that some role
    may use, with the role that writes through it, or is answered 200, first in ``PREFERRED_ROLES``."""
    table = read_table()
    endpoints = []
    for name, route, _ in url_patterns():
        key = table_key(name, route)
        if key.startswith("admin:") or not name:
            continue
        answers = table[(key, "POST")]
        role = next((r for r in PREFERRED_ROLES if answers[r].endswith("+w")), None) or next(
            (r for r in PREFERRED_ROLES if answers[r] == "200"), None
        )
        if role is None:
            continue
        path = reverse(name, kwargs=built.args.get(name, {})) + built.queries.get(name, "")
        endpoints.append((key, path, role))
    return endpoints


def form_limits(client: Client, path: str, headers: dict) -> dict[str, int]:
    """The ``max_length`` of every field of the forms the endpoint's own page shows."""
    response = client.get(path, **headers)
    limits: dict[str, int] = {}
    for context in response.context or []:
        for value in context.flatten().values():
            if isinstance(value, forms.BaseForm):
                for name, field in value.fields.items():
                    if getattr(field, "max_length", None):
                        limits.setdefault(value.add_prefix(name), field.max_length)
    return limits


def send(client: Client, path: str, data: dict, headers: dict) -> tuple[int, bool, float, float]:
    """Post ``data``, in a savepoint rolled back after: (status, whether game tables were written, CPU, wall)."""
    wrote: list[str] = []

    def watch(execute, sql, params, many, context):
        table = written_table(sql) if isinstance(sql, str) else None
        if table is not None and is_game_table(table):
            wrote.append(table)
        return execute(sql, params, many, context)

    headers = dict(headers)
    # The API's writes read JSON (the permission game's headers say so); every other endpoint reads a form.
    content_type = headers.pop("content_type", "application/x-www-form-urlencoded")
    body = json.dumps(data) if content_type == "application/json" else urlencode(data, doseq=True)
    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic(), connection.execute_wrapper(watch):
        cpu, wall = time.thread_time(), time.perf_counter()
        response = client.generic("POST", path, body, content_type=content_type, **headers)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        transaction.set_rollback(True)
    client.cookies = cookies
    return response.status_code, bool(wrote), cpu, wall


def sent_again(client: Client, path: str, data: dict, headers: dict, cpu: float, wall: float):
    """The CPU and wall time of a request that took over its limit, sent once more (its first sending was
    rolled back): the lower of the two times, as a pause of the machine's may have stretched the first."""
    _status, _wrote, again_cpu, again_wall = send(client, path, data, headers)
    return min(cpu, again_cpu), min(wall, again_wall)


def edited_ruleset(length: int) -> str:
    """The Ruleset as it is, with rules added to it until the text is ``length`` bytes: the edit that once
    took every operation to be worked out before the count was checked (ASCII, so bytes are characters)."""
    current = Page.objects.get(slug=RULESET_SLUG).current.text.rstrip("\n") + "\n"
    rules = "".join(f"\n=== Beacon {n} ===\nKeeper {n} tends beacon {n}.\n" for n in range(length // 30))
    return filler(length, current + rules)


def sized(endpoint: str, name: str, length: int, source: str) -> str:
    if (endpoint, name) == ("new_post", "ruleset_text"):
        return edited_ruleset(length)
    return filler(length, FILLER if source == "declared cap" else NAME_FILLER)


def inputs(endpoint: str, data: dict, declared: dict[str, int]):
    """(field, limit, where the limit comes from, the data at the limit, the data one over) per text field."""
    cap = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    text_fields = [name for name, value in data.items() if isinstance(value, str)] or ["text"]
    for name in text_fields:
        limit, source = LIMITS.get((endpoint, name)), "declared cap"
        if limit is None and name in declared:
            limit, source = declared[name], "form max_length"
        if limit is not None:
            yield (
                name,
                limit,
                source,
                {**data, name: sized(endpoint, name, limit, source)},
                {**data, name: sized(endpoint, name, limit + 1, source)},
            )
            continue
        rest = len(urlencode({**data, name: ""}, doseq=True))
        largest = {**data, name: filler(cap - rest, BODY_FILLER)}
        yield name, cap - rest, "request body cap", largest, {**data, name: filler(cap - rest + 1, BODY_FILLER)}


@pytest.mark.django_db
def test_every_endpoint_answers_its_largest_input_and_one_over_within_a_second(game):
    """Each POST endpoint answers its largest allowed input, and one character more, without a server error,
    in under a second of CPU; over the limit it writes nothing."""
    built, clients = game
    outcomes: list[Outcome] = []
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        for endpoint, path, role in post_endpoints(built):
            client, headers = clients[role], built.headers.get(endpoint, {})
            data = {**built.data.get(endpoint, {}), **EXTRA_DATA.get(endpoint, {})}
            declared = form_limits(client, path, headers)
            for name, limit, source, largest, over in inputs(endpoint, data, declared):
                for size, sent in (("largest", largest), ("one over", over)):
                    status, wrote, cpu, wall = send(client, path, sent, headers)
                    if cpu >= SECOND or wall >= SECOND * WALL_FACTOR:
                        cpu, wall = sent_again(client, path, sent, headers, cpu, wall)
                    outcomes.append(Outcome(endpoint, role, name, limit, source, size, status, wrote, cpu, wall))
    if os.environ.get("BOUNDED_WORK_REPORT"):
        _write_report(os.environ["BOUNDED_WORK_REPORT"], outcomes)
    failures = [
        f"{o.endpoint} {o.field} ({o.size}, {o.limit:,} from the {o.source}) as {o.role}: {o.status}"
        f"{', wrote' if o.wrote else ''}, {o.cpu:.2f} s CPU, {o.wall:.2f} s wall"
        for o in outcomes
        if o.status >= 500 or o.cpu >= SECOND or o.wall >= SECOND * WALL_FACTOR or (o.size == "one over" and o.wrote)
    ]
    assert outcomes
    assert not failures, f"{len(failures)} of {len(outcomes)} requests:\n" + "\n".join(failures)


def _write_report(path: str, outcomes: list[Outcome]) -> None:
    lines = [
        "| endpoint | role | field | limit | from | input | status | wrote | CPU ms | wall ms |",
        "| --- | --- | --- | ---: | --- | --- | ---: | --- | ---: | ---: |",
    ]
    for o in sorted(outcomes, key=lambda o: -o.cpu):
        lines.append(
            f"| {o.endpoint} | {o.role} | {o.field} | {o.limit:,} | {o.source} | {o.size} | {o.status} | "
            f"{'yes' if o.wrote else ''} | {o.cpu * 1000:.0f} | {o.wall * 1000:.0f} |"
        )
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
