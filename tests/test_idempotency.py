"""``Idempotency-Key`` on API writes (``blognomic.community.api.idempotency``): a retry is answered as the first
request was and runs nothing twice; another request under the same key is refused; keys are per caller."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import JsonResponse
from django.test import RequestFactory
from django.utils import timezone

from blognomic.community.api.idempotency import IdempotencyMiddleware, caller_of, fingerprint_of
from blognomic.community.tokens.idempotency_store import answer_claim, answers_forget
from blognomic.community.tokens.issuing import issue_token, revoke_token
from blognomic.community.tokens.models import IdempotentAnswer
from tests.factories import make_player

pytestmark = pytest.mark.django_db
PATH = "/api/posts/some-matter/votes"


class Counter:
    """A stand-in for the rest of the site: counts the requests that reached it, answers what it is told."""

    def __init__(self, status: int = 201) -> None:
        self.calls = 0
        self.status = status

    def __call__(self, request):
        self.calls += 1
        response = JsonResponse({"n": self.calls}, status=self.status)
        response["Location"] = f"/api/posts/some-matter#comment-{self.calls}"
        return response


@pytest.fixture
def token(t0):
    cora = make_player("Cora", joined_at=t0)
    return issue_token(user=cora, name="bot", scopes=["vote"], days=7, now=timezone.now())


def request_with(token, key: str | None, body: dict | None = None, path: str = PATH, method: str = "post"):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token.secret}"}
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    if method == "get":
        request = RequestFactory().get(path, **headers)
    else:
        request = RequestFactory().post(
            path, data=json.dumps(body or {"icon": "for"}), content_type="application/json", **headers
        )
    request.user = AnonymousUser()
    return request


def test_a_retry_gets_the_first_answer_and_runs_nothing(token):
    site = Counter()
    middleware = IdempotencyMiddleware(site)
    first = middleware(request_with(token, "k-1"))
    again = middleware(request_with(token, "k-1"))
    assert site.calls == 1
    assert (again.status_code, again.content, again["Location"]) == (201, first.content, first["Location"])
    assert again["Idempotent-Replayed"] == "true"


def test_without_a_key_every_request_runs(token):
    site = Counter()
    middleware = IdempotencyMiddleware(site)
    middleware(request_with(token, None))
    middleware(request_with(token, None))
    assert site.calls == 2


def test_another_request_under_the_same_key_is_refused(token):
    site = Counter()
    middleware = IdempotencyMiddleware(site)
    middleware(request_with(token, "k-1"))
    other = middleware(request_with(token, "k-1", body={"icon": "against"}))
    assert other.status_code == 422
    assert "another request" in json.loads(other.content)["detail"]
    assert site.calls == 1


@pytest.mark.parametrize("key", ["", " ", "k\x00", "ключ", "k" * 256, "a b"])
def test_a_key_of_the_wrong_shape_is_refused_before_anything_runs(token, key):
    site = Counter()
    answer = IdempotencyMiddleware(site)(request_with(token, key))
    assert answer.status_code == 400
    assert site.calls == 0
    assert not IdempotentAnswer.objects.exists()


def test_keys_belong_to_their_caller(token, t0):
    bram = make_player("Bram", joined_at=t0)
    other = issue_token(user=bram, name="bot", scopes=["vote"], days=7, now=timezone.now())
    site = Counter()
    middleware = IdempotencyMiddleware(site)
    middleware(request_with(token, "shared"))
    assert middleware(request_with(other, "shared")).status_code == 201
    assert site.calls == 2


def test_a_retry_while_the_first_runs_is_told_to_wait(token):
    request = request_with(token, "k-1")
    answer_claim(caller=caller_of(request), key="k-1", fingerprint=fingerprint_of(request), now=timezone.now())
    site = Counter()
    waiting = IdempotencyMiddleware(site)(request_with(token, "k-1"))
    assert waiting.status_code == 409
    assert waiting["Retry-After"] == "1"
    assert site.calls == 0


def test_an_abandoned_claim_is_taken_over(token):
    request = request_with(token, "k-1")
    an_hour_ago = timezone.now() - timedelta(hours=1)
    answer_claim(caller=caller_of(request), key="k-1", fingerprint=fingerprint_of(request), now=an_hour_ago)
    site = Counter()
    assert IdempotencyMiddleware(site)(request_with(token, "k-1")).status_code == 201
    assert site.calls == 1


@pytest.mark.parametrize("status", [401, 403, 429, 500, 503])
def test_answers_about_credentials_and_server_errors_are_not_kept(token, status):
    site = Counter(status=status)
    middleware = IdempotencyMiddleware(site)
    middleware(request_with(token, "k-1"))
    middleware(request_with(token, "k-1"))
    assert site.calls == 2
    assert not IdempotentAnswer.objects.exists()


def test_a_refusal_of_the_request_itself_is_kept(token):
    site = Counter(status=400)
    middleware = IdempotencyMiddleware(site)
    middleware(request_with(token, "k-1"))
    assert middleware(request_with(token, "k-1")).status_code == 400
    assert site.calls == 1


def test_a_revoked_token_gets_no_replay(token):
    site = Counter(status=201)
    middleware = IdempotencyMiddleware(site)
    middleware(request_with(token, "k-1"))
    revoke_token(token=token.token, by=token.token.user, now=timezone.now())
    site.status = 401
    assert middleware(request_with(token, "k-1")).status_code == 401  # the API's own refusal, not the replay


def test_reads_and_other_addresses_are_left_alone(token):
    site = Counter(status=200)
    middleware = IdempotencyMiddleware(site)
    for _ in range(2):
        middleware(request_with(token, "k-1", method="get"))
        middleware(request_with(token, "k-2", path="/accounts/tokens/"))
    assert site.calls == 4
    assert not IdempotentAnswer.objects.exists()


def test_keys_are_forgotten_after_a_day(token):
    site = Counter()
    middleware = IdempotencyMiddleware(site)
    middleware(request_with(token, "k-1"))
    assert answers_forget(now=timezone.now() + timedelta(hours=23)) == 0
    assert answers_forget(now=timezone.now() + timedelta(days=1, minutes=1)) == 1
    middleware(request_with(token, "k-1"))
    assert site.calls == 2


def test_a_body_over_the_limit_is_left_to_the_api_to_refuse(token, settings):
    """A body the site will not read is refused by the API in JSON (413), key or no key: nothing is claimed."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    site = Counter(status=413)
    answer = IdempotencyMiddleware(site)(request_with(token, "k-1", body={"text": "x" * 2000}))
    assert answer.status_code == 413 and site.calls == 1
    assert not IdempotentAnswer.objects.exists()
