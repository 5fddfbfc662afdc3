"""Amendments in the game: posting one, the live preview and what went stale, applying it on enactment, all
or nothing, enacting without applying, and reverting after a reopening."""

from __future__ import annotations

import difflib
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blognomic.flows.amendments import services as amendment_services
from blognomic.flows.amendments.models import AmendmentApplication
from blognomic.flows.amendments.services import (
    amendment_preview,
    amendment_preview_cached,
    amendment_revert,
    post_create_with_amendment,
    ruleset_base_number,
)
from blognomic.flows.amendments.shape import AmendmentRefused
from dynasties.models import Game, Rename, User
from gndt.models import Update
from ruleset.ascension import ruleset_replace_keywords
from ruleset.models import Page, Revision, RuleChange
from ruleset.services import page_create, revision_add
from ruleset.structure import parse_ruleset
from tests.factories import T0, vote
from tests.gndt.builders import make_gndt, value
from votes.models import Amendment, Post
from votes.services import VoteError, matter_reopen, matter_resolve

pytestmark = pytest.mark.django_db

RULESET = """\
== Core Rules ==
=== Players ===
Anyone may join.
=== Proposals ===
A Player may have two Proposals pending.
== Dynastic Rules ==
=== The Lighthouse ===
Each Player keeps Oil, from 0 to 100.
=== Fog ===
When the fog comes, nobody sees.
"""


def build_game():
    game = make_gndt(T0)
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        slug="ruleset",
        author=None,
        text=RULESET,
        now=T0 - timedelta(days=20),
        check_permission=False,
    )
    page_create(
        title="Map",
        kind=Page.GAMESTATE,
        author=None,
        text="North: rocks\nSouth: sand\n",
        now=T0 - timedelta(days=20),
        check_permission=False,
    )
    return game


@pytest.fixture
def game(db):
    return build_game()


def propose(game, author, title, operations, *, at):
    return post_create_with_amendment(
        author=author,
        kind="proposal",
        title=title,
        body="As the amendment says.",
        flavour="",
        trivial=False,
        anonymous=False,
        operations=operations,
        base_number=ruleset_base_number(),
        now=at,
    )


def pass_votes(game, post, *, at):
    for i, voter in enumerate(game.players[:5]):
        vote(post, voter, "for", at=at + timedelta(minutes=i))


FOG_PASSAGE = {"op": "rule_replace_passage", "rule": "rule-fog", "old": "nobody sees", "new": "the horn sounds"}


def test_posting_stores_the_amendment_with_its_digest(game, t0):
    post = propose(game, game.players[2], "Proposal: Fog Horn", [FOG_PASSAGE], at=t0)
    amendment = Amendment.objects.get(post=post)
    assert amendment.operations == [FOG_PASSAGE] and len(amendment.digest) == 64
    assert amendment.base_ruleset_revision == 1


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (
            {"op": "rule_repeal", "rule": "rule-storms"},
            "Operation 1 (repeal rule-storms): there is no rule rule-storms in the Ruleset.",
        ),
        (
            {"op": "rule_replace_passage", "rule": "rule-fog", "old": "sunshine", "new": "x"},
            "Operation 1 (replace a passage in 2.2 Fog): the passage to replace does not occur.",
        ),
        (
            {"op": "page_replace_passage", "page": "atlas", "old": "a", "new": "b"},
            "Operation 1 (replace a passage in the page atlas): there is no wiki page “atlas”.",
        ),
        (
            {"op": "cell_set", "row": "Nobody", "column": "Money", "value": "3"},
            "Operation 1 (set Nobody’s Money): there is no row “Nobody” in the GNDT.",
        ),
        (
            {"op": "cell_set", "row": "P03", "column": "Thalers", "value": "lots"},
            "Operation 1 (set P03’s Thalers): Thalers must be a whole number; got 'lots'.",
        ),
        (
            {"op": "player_rename", "player": "P03", "name": "P04"},
            "Operation 1 (rename P03): The name P04 belongs to someone else; choose another.",
        ),
    ],
)
def test_an_amendment_that_does_not_apply_is_refused_and_nothing_is_saved(game, t0, op, message):
    """“Refused at posting with the operation and the reason; nothing is saved.”"""
    with pytest.raises(AmendmentRefused) as caught:
        propose(game, game.players[2], "Proposal: Broken", [op], at=t0)
    assert str(caught.value) == message
    assert not Post.objects.exists() and not Amendment.objects.exists()


def test_preview_says_what_it_does_in_plain_words_with_a_diff(game, t0):
    preview = amendment_preview(
        [
            {"op": "rule_add", "title": "Storm Warnings", "body": "Ring the bell.", "after": "rule-the-lighthouse"},
            {"op": "cell_add", "row": "P03", "column": "Money", "delta": 3},
            {"op": "parameter_set", "parameter": "pending_limit", "value": "3"},
            {"op": "player_rename", "player": "P05", "name": "Cato"},
        ],
        base_number=1,
        since=None,
        now=t0,
    )
    assert preview.descriptions == [
        "Adds 2.2 Storm Warnings after 2.1",
        "P03’s Money +3",
        "Sets pending_limit (Most Proposals one player may have pending (weight, under 2005)) from 2 to 3",
        "Renames P05 to Cato",
    ]
    assert preview.applies and "diff-insert" in preview.ruleset_diff
    assert preview.gndt_changes == [("P03’s Money", "300", "303")]


def test_enacting_applies_everything_in_one_go_citing_the_proposal(game, t0):
    """“One Ruleset revision (and one revision per other page) whose summary links the Proposal, GNDT updates
    in the public log citing it, parameter changes and renames recorded.”"""
    post = propose(
        game,
        game.players[2],
        "Proposal: Fog Horn",
        [
            FOG_PASSAGE,
            {"op": "page_replace_passage", "page": "map", "old": "rocks", "new": "a lighthouse"},
            {"op": "cell_add", "row": "P03", "column": "Money", "delta": -50},
            {"op": "column_add", "column": "Wax", "kind": "integer", "default": "4"},
            {"op": "parameter_set", "parameter": "pending_limit", "value": "3"},
            {"op": "player_rename", "player": "P05", "name": "Cato"},
        ],
        at=t0,
    )
    pass_votes(game, post, at=t0 + timedelta(hours=1))
    matter_resolve(post=post, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
    ruleset = Page.objects.get(slug="ruleset")
    assert ruleset.current.number == 2 and ruleset.current.post == post
    assert ruleset.current.summary == "Enacting Proposal: Fog Horn"
    assert "the horn sounds" in parse_ruleset(ruleset.current.text).find("Fog").body
    assert Page.objects.get(slug="map").current.text.startswith("North: a lighthouse")
    update = Update.objects.get(post=post)
    assert value(game, "P03", "Money") == "250" and value(game, "P01", "Wax") == "4"
    assert update.changes.count() >= 2
    assert Game.load().rules_profile().pending_limit == 3
    assert User.objects.filter(username="Cato").exists() and Rename.objects.get().proposal == post
    application = AmendmentApplication.objects.get(post=post)
    map_page = Page.objects.get(slug="map")
    assert application.applied and application.revisions == [ruleset.current.pk, map_page.current_id]


def test_posting_and_enacting_render_no_diff(game, t0, monkeypatch):
    """Posting and enacting check the amendment and enacting applies it; the diffs the preview shows a reader
    are not drawn for either."""
    operations = [FOG_PASSAGE, {"op": "page_replace_passage", "page": "map", "old": "rocks", "new": "a lighthouse"}]

    def refuse_to_render(*args, **kwargs):
        raise AssertionError("a diff was rendered")

    monkeypatch.setattr(amendment_services, "render_inline_diff", refuse_to_render)
    with pytest.raises(AssertionError, match="a diff was rendered"):
        amendment_preview(operations, base_number=ruleset_base_number(), since=None, now=t0)
    post = propose(game, game.players[2], "Proposal: Fog Horn", operations, at=t0)
    pass_votes(game, post, at=t0 + timedelta(hours=1))
    matter_resolve(post=post, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
    assert Revision.objects.filter(post=post).count() == 2


def test_enacting_changes_only_the_lines_the_amendment_changes(game, t0):
    """The Ruleset is written without blank lines between rules; enacting a passage change, a new rule and a
    repeal gives a revision whose diff holds those lines alone, the others kept as they were written."""
    post = propose(
        game,
        game.players[2],
        "Proposal: Fog Horn",
        [
            FOG_PASSAGE,
            {"op": "rule_add", "title": "Wicks", "body": "Wicks are trimmed daily.", "after": "rule-the-lighthouse"},
            {"op": "rule_repeal", "rule": "rule-proposals"},
        ],
        at=t0,
    )
    pass_votes(game, post, at=t0 + timedelta(hours=1))
    matter_resolve(post=post, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
    text = Page.objects.get(slug="ruleset").current.text
    changed = [
        line
        for line in difflib.unified_diff(RULESET.splitlines(), text.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    assert changed == [
        "-=== Proposals ===",
        "-A Player may have two Proposals pending.",
        "+=== Wicks ===",
        "+Wicks are trimmed daily.",
        "-When the fog comes, nobody sees.",
        "+When the fog comes, the horn sounds.",
    ]


def test_an_earlier_enactment_makes_it_stale_and_a_conflict_blocks_enactment(game, t0):
    """“Rule 2.2 changed since this was posted (Proposal: Fog Bank, enacted …); the passage to replace no longer
    occurs” — and enacting it then is refused with nothing written, unless the admin enacts without applying."""
    first = propose(
        game,
        game.players[2],
        "Proposal: Fog Bank",
        [{"op": "rule_replace_passage", "rule": "rule-fog", "old": "nobody sees", "new": "ships wait"}],
        at=t0,
    )
    second = propose(game, game.players[3], "Proposal: Fog Horn", [FOG_PASSAGE], at=t0 + timedelta(minutes=5))
    pass_votes(game, first, at=t0 + timedelta(hours=1))
    pass_votes(game, second, at=t0 + timedelta(hours=1))
    matter_resolve(post=first, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))

    amendment = Amendment.objects.get(post=second)
    preview = amendment_preview_cached(amendment, now=t0 + timedelta(hours=14))
    assert preview.problems == [
        "Rule 2.2 changed since this was posted (Proposal: Fog Bank, enacted 26 Jul); "
        "the passage to replace no longer occurs"
    ]
    # Found in play: a stale amendment read only "replace a passage in rule-fog". It says what it wanted.
    assert preview.descriptions == ["Wanted to replace “nobody sees” with “the horn sounds” in 2.2 Fog"]
    revisions = Revision.objects.count()
    with pytest.raises(VoteError, match="The amendment no longer applies: Rule 2.2 changed since"):
        matter_resolve(post=second, admin=game.admin, action="enact", now=t0 + timedelta(hours=14))
    assert Post.objects.get(pk=second.pk).status == "pending" and Revision.objects.count() == revisions

    matter_resolve(post=second, admin=game.admin, action="enact", now=t0 + timedelta(hours=14), apply_amendment=False)
    application = AmendmentApplication.objects.get(post=second)
    assert not application.applied and "no longer occurs" in application.note
    assert "its amendment was not applied" in Post.objects.get(pk=second.pk).admin_note
    assert Revision.objects.count() == revisions


def test_a_rule_is_found_after_renumbering_and_keyword_replacement(game, t0):
    """Rules are addressed by a stable identity: an Ascension's keyword replacement renames “Players” to
    “Keepers”, and an amendment written against the old title still finds it."""
    post = propose(
        game,
        game.players[2],
        "Proposal: Open Doors",
        [{"op": "rule_replace_passage", "rule": "rule-players", "old": "Anyone may join.", "new": "Anyone at all."}],
        at=t0,
    )
    ruleset_replace_keywords(replacements={"Player": "Keeper"}, author=None, now=t0 + timedelta(minutes=30))
    ruleset = Page.objects.get(slug="ruleset")
    revision_add(
        page=ruleset,
        author=None,
        text=ruleset.current.text.replace("== Core Rules ==\n", "== Core Rules ==\n=== Welcome ===\nHello.\n"),
        now=t0 + timedelta(minutes=40),
    )
    assert RuleChange.objects.filter(anchor="rule-keepers", previous_anchor="rule-players").exists()
    pass_votes(game, post, at=t0 + timedelta(hours=1))
    matter_resolve(post=post, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
    rule = parse_ruleset(Page.objects.get(slug="ruleset").current.text).find("Keepers")
    assert rule.number == "1.2" and rule.body == "Anyone at all."


def test_reopening_offers_to_revert_as_new_revisions_and_updates(game, t0):
    post = propose(
        game,
        game.players[2],
        "Proposal: Fog Horn",
        [
            FOG_PASSAGE,
            {"op": "cell_add", "row": "P03", "column": "Money", "delta": 7},
            {"op": "player_rename", "player": "P05", "name": "Cato"},
        ],
        at=t0,
    )
    pass_votes(game, post, at=t0 + timedelta(hours=1))
    matter_resolve(post=post, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
    application = AmendmentApplication.objects.get(post=post)
    with pytest.raises(AmendmentRefused, match="reopen it before reverting"):
        amendment_revert(application=application, admin=game.admin, now=t0 + timedelta(hours=14))
    matter_reopen(post=post, admin=game.admin, reason="CfJ: it was not the oldest", now=t0 + timedelta(hours=15))
    amendment_revert(application=application, admin=game.admin, now=t0 + timedelta(hours=16))
    ruleset = Page.objects.get(slug="ruleset")
    assert ruleset.current.number == 3 and ruleset.current.text == ruleset.revisions.get(number=1).text
    assert value(game, "P03", "Money") == "300"
    assert User.objects.filter(username="P05").exists()
    with pytest.raises(AmendmentRefused, match="nothing to revert"):
        amendment_revert(application=application, admin=game.admin, now=t0 + timedelta(hours=17))


# --- the pages ----------------------------------------------------------------------------------------


def login(client, user):
    from tests.factories import PASSWORD

    assert client.login(username=user.username, password=PASSWORD)


def form_data(**extra):
    data = {"kind": "proposal", "title": "Proposal: Fog Horn", "body": "Sound the horn.", "ruleset_base": "1"}
    data.update(extra)
    return data


def test_the_post_form_derives_operations_from_the_edited_ruleset_and_previews_them(client, game, t0):
    """“From the post form, a player opens the current Ruleset in an editor, changes it, and the site derives
    the operations and shows them in plain words.”"""
    import time_machine

    login(client, game.players[2])
    with time_machine.travel(t0, tick=False):
        page = client.get("/new/").content.decode()
        assert "Each Player keeps Oil, from 0 to 100." in page
        edited = RULESET.replace("=== Fog ===", "=== Storm Warnings ===\nRing the bell.\n=== Fog ===")
        data = form_data(
            ruleset_text=edited,
            gndt_0_op="cell_add",
            gndt_0_row="P03",
            gndt_0_column="Money",
            gndt_0_value="3",
            preview="1",
        )
        html = client.post("/new/", data).content.decode()
        assert "Adds 2.2 Storm Warnings after 2.1" in html and "P03’s Money +3" in html
        assert not Post.objects.exists()
        data.pop("preview")
        response = client.post("/new/", data)
    post = Post.objects.get()
    assert response.status_code == 302 and response["Location"] == post.get_absolute_url()
    assert [op["op"] for op in post.amendment.operations] == ["rule_add", "cell_add"]
    with time_machine.travel(t0 + timedelta(minutes=1), tick=False):
        html = client.get(post.get_absolute_url()).content.decode()
    assert "Adds 2.2 Storm Warnings after 2.1" in html and "diff-insert" in html and "Ring the bell." in html


def test_the_gndt_editor_offers_the_table_s_rows_and_columns_with_their_kinds(client, game, t0):
    """Rows and columns are picked, not typed: players' rows apart from the others, each column the author
    may see with its kind, a hidden one only to whoever may see it, and every kind a new column may take."""
    import time_machine

    def picker(html: str, name: str) -> str:
        return html.split(f'<select name="{name}"')[1].split("</select>")[0]

    login(client, game.players[2])
    with time_machine.travel(t0, tick=False):
        page = client.get("/new/").content.decode()
    rows = picker(page, "gndt_0_row")
    assert '<optgroup label="Players">' in rows and '<optgroup label="Other rows">' in rows
    assert rows.index('value="P05"') < rows.index('<optgroup label="Other rows">') < rows.index('value="The Pot"')
    columns = picker(page, "gndt_0_column")
    assert '<option value="Money">Money (whole number)</option>' in columns
    assert '<option value="Poker Table">Poker Table (one of a list)</option>' in columns
    assert '<option value="Forced Hand">Forced Hand (a player)</option>' in columns
    assert "Role" not in columns  # hidden from a plain player
    kinds = re.findall(r'<option value="(\w+)"', picker(page, "gndt_0_kind"))
    assert kinds == ["integer", "text", "choice", "list", "player"]
    login(client, game.admin)
    with time_machine.travel(t0, tick=False):
        admin_page = client.get("/new/").content.decode()
    assert '<option value="Role">Role (one of a list, hidden)</option>' in picker(admin_page, "gndt_0_column")


def test_a_new_column_is_named_in_its_own_field_with_its_kind_default_and_choices(client, game, t0):
    import time_machine

    login(client, game.players[2])
    data = form_data(
        gndt_0_op="cell_add",
        gndt_0_row="P03",
        gndt_0_column="Money",
        gndt_0_value="3",
        gndt_1_op="column_add",
        gndt_1_name="Weather",
        gndt_1_kind="choice",
        gndt_1_choices="Fog, Clear ,Storm",
        gndt_1_value="Fog",
        gndt_2_op="row_add",
        gndt_2_name="The Storehouse",
    )
    with time_machine.travel(t0, tick=False):
        response = client.post("/new/", data)
    assert response.status_code == 302
    assert Post.objects.get().amendment.operations == [
        {"op": "cell_add", "row": "P03", "column": "Money", "delta": 3},
        {
            "op": "column_add",
            "column": "Weather",
            "kind": "choice",
            "choices": ["Fog", "Clear", "Storm"],
            "default": "Fog",
        },
        {"op": "row_add", "row": "The Storehouse"},
    ]


def test_adding_a_column_without_a_name_is_refused_with_the_field_to_fill(client, game, t0):
    login(client, game.players[2])
    response = client.post("/new/", form_data(gndt_0_op="column_add", gndt_0_kind="text"))
    assert response.status_code == 400
    assert "GNDT change 1: give the new column a name." in response.content.decode()
    assert not Post.objects.exists()


def test_a_bad_amendment_on_the_form_is_refused_with_the_reason(client, game, t0):
    login(client, game.players[2])
    response = client.post(
        "/new/", form_data(gndt_0_op="cell_set", gndt_0_row="P03", gndt_0_column="Thalers", gndt_0_value="999999x")
    )
    assert response.status_code == 400
    assert "Operation 1 (set P03’s Thalers): Thalers must be a whole number" in response.content.decode()
    assert not Post.objects.exists()


def test_the_admin_panel_shows_the_conflict_and_offers_to_enact_without_applying(client, game, t0):
    import time_machine

    first = propose(
        game,
        game.players[2],
        "Proposal: Fog Bank",
        [{"op": "rule_replace_passage", "rule": "rule-fog", "old": "nobody sees", "new": "ships wait"}],
        at=t0,
    )
    second = propose(game, game.players[3], "Proposal: Fog Horn", [FOG_PASSAGE], at=t0 + timedelta(minutes=5))
    pass_votes(game, first, at=t0 + timedelta(hours=1))
    pass_votes(game, second, at=t0 + timedelta(hours=1))
    matter_resolve(post=first, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
    login(client, game.admin)
    with time_machine.travel(t0 + timedelta(hours=14), tick=False):
        panel = client.get("/admin-panel/").content.decode()
        post_page = client.get(second.get_absolute_url()).content.decode()
        block = panel.split('id="panel-fog-horn"')[1].split("</section>")[0]
        assert "Conflict:" in block and "Rule 2.2 changed since this was posted (Proposal: Fog Bank" in block
        assert "Enact without applying the amendment" in block
        assert "the passage to replace no longer occurs" in post_page
        # One answer everywhere: the plain Enact, which would be refused, is offered nowhere, and each page
        # says what remains possible.
        assert 'value="enact" class="enact"' not in block and "Enact is not offered" in block
        assert "Can be enacted now, but only without its amendment." in post_page
        front = client.get("/").content.decode()
        board = front.split(f'id="post-{second.slug}"')[1].split("</article>")[0]
        assert "Can be enacted now, but only without its amendment." in board
        client.post(f"/admin-panel/{second.slug}/resolve/", {"action": "enact"})
        assert Post.objects.get(pk=second.pk).status == "pending"
        client.post(f"/admin-panel/{second.slug}/resolve/", {"action": "enact", "apply_amendment": "no"})
    assert Post.objects.get(pk=second.pk).status == "enacted"
    assert not AmendmentApplication.objects.get(post=second).applied


def test_a_conflicting_amendment_not_yet_enactable_is_offered_later_only_without_it(client, game, t0):
    """Its votes will allow enacting it at 12 hours, but its amendment no longer applies: the tally box and
    the admin panel say it could be enacted from then only without its amendment, not plainly enactable."""
    import time_machine

    first = propose(
        game,
        game.players[2],
        "Proposal: Fog Bank",
        [{"op": "rule_replace_passage", "rule": "rule-fog", "old": "nobody sees", "new": "ships wait"}],
        at=t0,
    )
    pass_votes(game, first, at=t0 + timedelta(hours=1))
    second = propose(game, game.players[3], "Proposal: Fog Horn", [FOG_PASSAGE], at=t0 + timedelta(hours=6))
    pass_votes(game, second, at=t0 + timedelta(hours=7))
    matter_resolve(post=first, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
    login(client, game.admin)
    with time_machine.travel(t0 + timedelta(hours=14), tick=False):
        post_page = client.get(second.get_absolute_url()).content.decode()
        block = client.get("/admin-panel/").content.decode().split('id="panel-fog-horn"')[1].split("</section>")[0]
    said = "If nothing changes, it could be enacted from 26 Jul 2016 06:00:00 UTC, but only without its amendment."
    for page in (post_page, block):
        assert said in page
        assert "Its amendment no longer applies" in page.split(said)[1]


def test_an_archive_with_a_malformed_amendment_names_the_field_and_writes_nothing(game, t0):
    from blognomic.moving.archive.exporter import export_archive
    from blognomic.moving.archive.fields import ArchiveError
    from blognomic.moving.archive.importer import import_archive

    propose(game, game.players[2], "Proposal: Fog Horn", [FOG_PASSAGE], at=t0)
    archive = export_archive()
    assert archive["amendments"][0]["operations"] == [FOG_PASSAGE]
    archive["amendments"][0]["operations"] = [{"op": "rule_repeal"}]
    for post in archive["posts"]:
        post["id"] += "-copy"
    archive["amendments"][0]["post"] += "-copy"
    before = Post.objects.count()
    with pytest.raises(ArchiveError, match=r"amendments\[0\]\.operations: Operation 1 \(repeal \): it needs “rule”"):
        import_archive(archive)
    assert Post.objects.count() == before


def panel_queries(client) -> int:
    client.get("/admin-panel/")  # the first view after a change fills the previews' cache
    with CaptureQueriesContext(connection) as context:
        assert client.get("/admin-panel/").status_code == 200
    return len(context.captured_queries)


@pytest.fixture
def views_uncached(settings):
    """The views' own queries, not a page cache hit (which costs none whatever the page holds)."""
    settings.PAGE_CACHE = False


@pytest.mark.usefixtures("views_uncached")
def test_the_admin_panel_shows_conflicts_without_a_query_per_amendment(client, game, t0):
    """Three pending matters cost the same queries whether one or all three carry an amendment (one of them
    in conflict): the state the previews depend on is read once, and the previews come from the cache."""
    propose(game, game.players[2], "Proposal: Fog Horn", [FOG_PASSAGE], at=t0)
    propose(
        game,
        game.players[3],
        "Proposal: Fog Bank",
        [{"op": "rule_replace_passage", "rule": "rule-fog", "old": "When the fog comes", "new": "In fog"}],
        at=t0 + timedelta(minutes=1),
    )
    propose(
        game,
        game.players[4],
        "Proposal: Rich",
        [{"op": "cell_add", "row": "P03", "column": "Money", "delta": 7}],
        at=t0 + timedelta(minutes=2),
    )
    ruleset = Page.objects.get(slug="ruleset")
    revision_add(
        page=ruleset,
        author=game.admin,
        text=ruleset.current.text.replace("nobody sees", "all is grey"),
        summary="By hand",
        now=t0 + timedelta(minutes=3),
    )
    client.force_login(game.admin)
    html = client.get("/admin-panel/").content.decode()
    assert html.count("amendment-conflict") >= 1
    all_three = panel_queries(client)
    Amendment.objects.exclude(post__slug="fog-horn").delete()
    assert panel_queries(client) == all_three


def post_page_queries(client, post) -> int:
    client.get(post.get_absolute_url())  # the first view computes the preview and caches it
    with CaptureQueriesContext(connection) as context:
        assert client.get(post.get_absolute_url()).status_code == 200
    return len(context.captured_queries)


@pytest.mark.usefixtures("views_uncached")
def test_the_live_diff_costs_one_query_once_cached(client, game, t0):
    """The post page of a matter with an amendment reads its cached preview: one query (the newest revision,
    update, parameter change and rename) beyond the page of a prose-only matter, until something changes."""
    plain = post_create_with_amendment(
        author=game.players[3],
        kind="proposal",
        title="Proposal: Words Only",
        body="Prose.",
        flavour="",
        trivial=False,
        anonymous=False,
        operations=[],
        base_number=None,
        now=t0,
    )
    amended = propose(game, game.players[2], "Proposal: Fog Horn", [FOG_PASSAGE], at=t0)
    assert post_page_queries(client, amended) == post_page_queries(client, plain) + 1
    ruleset = Page.objects.get(slug="ruleset")
    revision_add(
        page=ruleset,
        author=game.admin,
        text=ruleset.current.text.replace("nobody sees", "all is grey"),
        summary="Greyer",
        now=t0 + timedelta(minutes=5),
    )
    html = client.get(amended.get_absolute_url()).content.decode()
    assert "the passage to replace no longer occurs" in html, "a new revision renews the cached preview"
