"""The API against its own OpenAPI schema, checked by schemathesis: every operation is sent requests generated
from the schema (valid and invalid), and each answer must be what the schema promises: no server error, a
documented status code and content type, a body of the declared shape, valid input accepted and invalid
input refused.

The examples are derandomized, so CI is repeatable; the game they read is small but holds a pending
matter, a resolved one, a GNDT with a hidden column and a Ruleset.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
import schemathesis
from django.test import override_settings
from django.utils import timezone
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import ignored_auth, negative_data_rejection, positive_data_acceptance

from blognomic.community.api.retries import HEADER, WRITES
from blognomic.community.api.views import api
from blognomic.community.tokens.issuing import issue_token
from blognomic.community.tokens.scopes import SCOPES
from ruleset.services import page_create
from tests.factories import T0, make_proposal, vote
from tests.gndt.builders import make_gndt, update

SCHEMA = schemathesis.openapi.from_dict(api.get_openapi_schema(path_prefix="/api/"))


def build_game():
    game = make_gndt(T0)
    proposal = make_proposal(game.players[2], at=T0, title="Proposal: Fog Bells", body="Ring the bells.")
    vote(proposal, game.players[3], "for", at=T0 + timedelta(hours=1), text="Yes!")
    page_create(
        title="Ruleset",
        kind="ruleset",
        author=game.admin,
        summary="Start",
        now=T0,
        check_permission=False,
        text="== Core Rules ==\n=== Ruleset ===\nThe rules.\n=== Fog ===\nBells ring in fog.",
    )
    update(game, game.admin, {("P03", "Role"): "Werewolf"}, now=T0 + timedelta(hours=3), comment="Shh")
    return game


@pytest.fixture
def game(db):
    return build_game()


@pytest.fixture
def every_scope(game) -> str:
    return issue_token(user=game.admin, name="schema", scopes=SCOPES, days=7, now=timezone.now()).secret


# Derandomized, so CI is repeatable; the game is built once per operation, not once per example.
EXAMPLES = settings(
    max_examples=40,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def call_and_validate(case, app, *, headers: dict | None = None, excluded: list | None = None) -> None:
    """Schemathesis's ``call_and_validate``, but for one answer: a body too large to read is refused with 413
    before its shape is looked at. That refuses the malformed request, though the negative-data check counts
    only the statuses it knows (400, 422, …) as a refusal."""
    response = case.call(app=app, headers=headers)
    skipped = list(excluded or [])
    if response.status_code == 413:
        skipped.append(negative_data_rejection)
    case.validate_response(response, headers=headers, excluded_checks=skipped, transport_kwargs={"app": app})


@SCHEMA.parametrize()
@EXAMPLES
def test_every_operation_answers_as_its_schema_says(case, game, wsgi_app):
    call_and_validate(case, wsgi_app)


@SCHEMA.parametrize()
@EXAMPLES
def test_every_operation_answers_as_its_schema_says_to_a_token_with_every_scope(case, game, wsgi_app, every_scope):
    """The same, signed with a token of an admin who plays, holding every scope: the writes run for real.
    (Schemathesis's probe without the token goes around the WSGI app, so that check is left to tests/test_tokens.py
    and the write tests, which send every operation unsigned.)"""
    headers = {"Authorization": f"Bearer {every_scope}"}
    excluded = [ignored_auth]
    if case.method.upper() in WRITES:
        if case.meta is not None and case.meta.generation.mode.is_positive:
            # Each well-formed write under a key of its own: the examples repeat keys ("0"), which would turn
            # every later write into a replay of an earlier one, or a 422 for reusing a key, and test nothing
            # of the write. (Malformed cases keep the keys generated for them.)
            headers[HEADER] = uuid.uuid4().hex
        # The schema says which requests are well formed, not which the game's rules allow: a well-formed
        # update of a row that does not exist, or a resolution the rules forbid yet, is refused with 400.
        excluded.append(positive_data_acceptance)
    with override_settings(API_TOKEN_RATE=1_000_000):
        call_and_validate(case, wsgi_app, headers=headers, excluded=excluded)
