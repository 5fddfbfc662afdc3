"""The read-only JSON API: its OpenAPI schema, each endpoint, pagination, what a visitor may not see, bad
input answered with JSON (never a 500), and query counts that do not grow with the data."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ruleset.services import page_create
from tests.factories import T0, make_proposal, vote
from tests.gndt.builders import make_gndt, update
from votes.models import Post

# The schema's two tests read no data: the game is in their database too, and changes nothing they check.
pytestmark = pytest.mark.django_db


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
    update(game, game.players[2], {("P03", "Money"): "310"}, now=T0 + timedelta(hours=2), comment="Paid")
    update(game, game.admin, {("P03", "Role"): "Werewolf"}, now=T0 + timedelta(hours=3), comment="Shh")
    return game


@pytest.fixture
def game(db):
    return build_game()


def test_the_openapi_schema_describes_every_endpoint(client):
    schema = client.get("/api/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    for path in (
        "/api/posts",
        "/api/posts/{post_id}",
        "/api/players",
        "/api/gndt",
        "/api/gndt/log",
        "/api/ruleset/revisions",
        "/api/ruleset/rules",
    ):
        assert "get" in schema["paths"][path], path


def test_posts_come_with_their_tallies(client, game):
    data = client.get("/api/posts", {"kind": "proposal"}).json()
    assert data["count"] == 1 and data["page"] == 1 and data["pages"] == 1
    post = data["results"][0]
    assert post["id"] == "fog-bells" and post["author"] == "P03" and post["comments"] == 1
    assert post["tally"]["for"] == 2 and post["tally"]["quorum"] == 3
    detail = client.get("/api/posts/fog-bells").json()
    assert detail["body"] == "Ring the bells." and detail["comments_list"][0]["text"] == "Yes!"
    assert detail["full_tally"]["votes"] == {"P03": "for", "P04": "for"}


def test_an_anonymous_posts_author_is_never_given(client, game):
    Post.objects.filter(slug="fog-bells").update(anonymous=True)
    assert client.get("/api/posts/fog-bells").json()["author"] is None


def test_the_roster_and_the_gndt_without_its_secrets(client, game):
    roster = client.get("/api/players").json()
    assert roster["quorum"] == 3 and roster["emperor"] == "P01" and len(roster["players"]) == 5
    table = client.get("/api/gndt").json()
    assert "Role" not in [c["name"] for c in table["columns"]]
    p03 = next(row for row in table["rows"] if row["name"] == "P03")
    assert p03["values"]["Money"] == "310" and "Role" not in p03["values"]
    log = client.get("/api/gndt/log").json()["results"]
    assert [entry["comment"] for entry in log if entry["comment"] in ("Paid", "Shh")] == ["Paid"]


def test_the_rulesets_revisions_and_rules(client, game):
    assert client.get("/api/ruleset/revisions").json()["results"][0]["summary"] == "Start"
    rules = client.get("/api/ruleset/rules").json()["rules"]
    assert [(r["number"], r["title"]) for r in rules] == [("1.1", "Ruleset"), ("1.2", "Fog")]


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/posts?page=2", 404),
        ("/api/posts?page=0", 400),
        ("/api/posts?page=abc", 400),
        ("/api/posts?page=null", 400),
        ("/api/posts?status=null", 400),
        ("/api/posts?page=%EF%BC%92", 400),
        ("/api/posts?page=99999999999999999999", 400),
        ("/api/posts?kind=users", 400),
        ("/api/posts?status=maybe", 400),
        ("/api/posts/nothing-here", 404),
        ("/api/gndt/log?page=9", 404),
        ("/api/nothing-here", 404),
        ("/api/posts/fog-bells/likes", 404),
        ("/api/posts%00", 400),
        ("/api/posts?kind=%00", 400),
    ],
)
def test_bad_requests_get_a_json_answer_that_says_why(client, game, url, status):
    """Every refusal, unreadable parameters and unknown addresses included, is the JSON API page's
    ``{"detail": "…"}``: one sentence, not a list, and never an HTML page."""
    response = client.get(url)
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail


def test_an_unreadable_parameter_is_named_in_the_refusal(client, game):
    assert client.get("/api/posts?page=0").json() == {"detail": "page: Input should be greater than or equal to 1"}
    assert client.get("/api/posts?status=null").json()["detail"].startswith("status: Input should be 'pending'")


def test_the_root_lists_what_the_api_offers(client, game):
    """``/api/`` answers with the schema's address and every endpoint with its summary, read from the schema."""
    root = client.get("/api/").json()
    assert root["openapi"] == "/api/openapi.json"
    schema = client.get(root["openapi"]).json()
    listed = {endpoint["path"] for endpoint in root["endpoints"]}
    assert listed == set(schema["paths"]) - {"/api/"}
    assert {"path": "/api/posts", "summary": "Posts, newest first"} in root["endpoints"]


def test_an_endpoint_answers_with_a_trailing_slash_too(client, game):
    """Every other address of the site ends in a slash; the API's endpoints answer either way."""
    assert client.get("/api/posts/", {"kind": "proposal"}).json() == client.get("/api/posts?kind=proposal").json()
    assert client.get("/api/posts/fog-bells/").json()["id"] == "fog-bells"


def test_kind_and_status_are_declared_as_the_values_they_take(client):
    schema = client.get("/api/openapi.json").json()
    parameters = {p["name"]: p["schema"] for p in schema["paths"]["/api/posts"]["get"]["parameters"]}

    def allowed(parameter: dict) -> set:
        """The values an enum parameter takes, given inline or through ``allOf``."""
        return set(parameter.get("enum") or next(part["enum"] for part in parameter["allOf"]))

    assert {"proposal", "cfj", "calls-for-judgement"} <= allowed(parameters["kind"])
    assert allowed(parameters["status"]) == {"pending", "enacted", "failed"}


def test_beyond_the_last_page_says_which_is_the_last(client, game):
    assert client.get("/api/posts?page=2").json()["detail"] == "Page 2 is beyond the last page (1)."


def test_query_counts_do_not_grow_with_the_archive(client, game, t0):
    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    urls = ["/api/posts", "/api/players", "/api/gndt", "/api/gndt/log", "/api/ruleset/revisions"]
    before = {url: queries(url) for url in urls}
    for n in range(60):
        Post.objects.create(
            slug=f"story-{n}",
            kind="story",
            title=f"Story: {n}",
            author=game.players[n % 5],
            posted_at=t0 - timedelta(days=n + 1),
        )
        update(game, game.players[n % 5], {("The Pot", "Money"): str(400 + n)}, now=t0 + timedelta(hours=4, minutes=n))
    assert {url: queries(url) for url in urls} == before
