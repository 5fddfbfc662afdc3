"""Amendments keep the GNDT's secrets, and name rows and columns by the same rules as the rest of the site.

“Secrets are absent, not hidden”: an amendment that touches a hidden column, or another player's value in an
owner-visible one (the 2008 Werewolves' Role, “The Mayor shall alert these Villagers to their affliction”),
shows those operations to whoever may see them (admins, the Emperor, the owner for their own row) and to
everyone else only that a secret change is proposed. The post form's preview, a posted matter's live diff and
plain words, what it applied once enacted, and every refusal are read as a visitor, a plain player, the owner,
the Emperor and an admin. A refusal about a column its author may not know of reads exactly as one about a
column that does not exist, and none echoes a value its author may not see.

And an amendment that can never apply is refused when it is previewed and posted: a new column or row whose
name is, or looks like, one the GNDT has or had (case, a Cyrillic letter, an invisible character, full-width
letters), or a rename to a name too like a player's; enacting never answers with an error page.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from blognomic.flows.amendments.models import AmendmentApplication
from blognomic.flows.amendments.services import (
    amendment_preview,
    amendment_preview_for,
    post_create_with_amendment,
    ruleset_base_number,
)
from blognomic.flows.amendments.shape import AmendmentRefused
from gndt.models import Column, Row
from gndt.services import GndtError, gndt_column_add, gndt_column_edit, gndt_column_retire, gndt_row_add
from ruleset.models import Page
from ruleset.services import page_create
from tests.factories import PASSWORD, T0, vote
from tests.gndt.builders import make_gndt, update, value
from votes.models import Amendment, Post
from votes.services import VoteError, matter_resolve

pytestmark = pytest.mark.django_db

RULESET = """\
== Core Rules ==
=== Players ===
Anyone may join.
== Dynastic Rules ==
=== The Village ===
Each Player has a secret part to play.
"""

WOLF = "Werewolf"  # P04's Role: P04 sees it, and the Emperor P01 and the admin P02; P03 and visitors do not
SECRET_COLUMN = "Acuity Points"  # fully hidden: only P01 and P02 know it exists
SECRET_WORDS = (WOLF, SECRET_COLUMN, "Seer")  # “Seer” is one of Role's choices, itself a secret


def build_village():
    """The builder's GNDT with Role made owner-visible, P04 a Werewolf holding 1 Silver (each player sees their
    own Silver alone), and a fully hidden Acuity Points."""
    game = make_gndt(T0)
    at = T0 - timedelta(days=10)
    with time_machine.travel(at, tick=False):
        page_create(
            title="Ruleset",
            kind=Page.RULESET,
            slug="ruleset",
            author=None,
            text=RULESET,
            now=at,
            check_permission=False,
        )
        role = Column.objects.get(dynasty=game.dynasty, name="Role")
        gndt_column_edit(column=role, by=game.admin, now=at, owner_visible=True)
        gndt_column_add(
            dynasty=game.dynasty,
            by=game.admin,
            now=at,
            name=SECRET_COLUMN,
            kind=Column.INTEGER,
            default="3",
            hidden=True,
        )
        gndt_column_add(
            dynasty=game.dynasty,
            by=game.admin,
            now=at,
            name="Silver",
            kind=Column.INTEGER,
            default="0",
            hidden=True,
            owner_visible=True,
        )
        update(game, game.emperor, {("P04", "Role"): WOLF, ("P04", "Silver"): "1"}, now=at + timedelta(minutes=1))
    return game


@pytest.fixture
def village(db):
    return build_village()


def propose(game, author, operations, *, at, title="Proposal: Night Falls"):
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


def refusal_of(game, author, operations, *, at) -> str:
    with pytest.raises(AmendmentRefused) as caught:
        propose(game, author, operations, at=at)
    assert not Post.objects.filter(title="Proposal: Night Falls").exists()
    return str(caught.value)


def client_for(name: str | None) -> Client:
    client = Client()
    if name is not None:
        assert client.login(username=name, password=PASSWORD)
    return client


def page_of(client: Client, url: str, *, at) -> str:
    with time_machine.travel(at, tick=False):
        response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def amendment_section(html: str) -> str:
    return html.split('id="amendment"', 1)[1].split("</section>", 1)[0]


def form_preview(client: Client, *, at, **gndt) -> tuple[int, str]:
    data = {
        "kind": "proposal",
        "title": "Proposal: Night Falls",
        "body": "As it says.",
        "ruleset_base": "1",
        "preview": "1",
    }
    data.update(gndt)
    with time_machine.travel(at, tick=False):
        response = client.post("/new/", data)
    return response.status_code, response.content.decode()


SET_WOLF_TO_VILLAGER = {"op": "cell_set", "row": "P04", "column": "Role", "value": "Villager"}
SHARPEN = {"op": "cell_add", "row": "P03", "column": SECRET_COLUMN, "delta": 2}
PUBLIC = {"op": "cell_add", "row": "P03", "column": "Money", "delta": 5}

VIEWERS = {"visitor": None, "player": "P03", "owner": "P04", "emperor": "P01", "admin": "P02"}


# --- Finding 1: the post form's preview and the refusals ---------------------------------------------------


def test_a_plain_player_previewing_a_change_to_anothers_role_is_not_told_the_role(village, t0):
    """“A plain Villager previewing a Proposal that sets another player's Role reads ‘Role — Now Werewolf’”:
    no longer; the operation is theirs to propose, the value not theirs to see."""
    status, html = form_preview(
        client_for("P03"), at=t0, gndt_0_op="cell_set", gndt_0_row="P04", gndt_0_column="Role", gndt_0_value="Villager"
    )
    assert status == 200
    for secret in SECRET_WORDS:
        assert secret not in html, secret
    assert "P04’s Role = Villager" in html


def test_setting_anothers_secret_to_what_it_holds_is_not_refused_with_the_value(village, t0):
    """“…is already Werewolf” would tell the author P04's Role: setting a value the author may not see to what
    it already holds is not refused at all."""
    preview = amendment_preview(
        [{"op": "cell_set", "row": "P04", "column": "Role", "value": WOLF}],
        base_number=1,
        since=None,
        now=t0,
        checked_by=village.player("P03"),
    )
    assert preview.applies
    assert not any(WOLF in words for words in [*preview.descriptions[1:], *map(str, preview.gndt_changes)])
    post = propose(
        village, village.player("P03"), [{"op": "cell_set", "row": "P04", "column": "Role", "value": WOLF}], at=t0
    )
    assert Amendment.objects.filter(post=post).exists()


def test_a_value_the_column_may_not_hold_is_refused_without_listing_its_secret_choices(village, t0):
    """“must be one of Villager, Werewolf, Seer” would list the roles in play; the refusal does not."""
    message = refusal_of(
        village, village.player("P03"), [{"op": "cell_set", "row": "P04", "column": "Role", "value": "Vampire"}], at=t0
    )
    assert message.startswith("Operation 1 (set P04’s Role):")
    for secret in SECRET_WORDS:
        assert secret not in message, secret
    own = refusal_of(
        village, village.player("P04"), [{"op": "cell_set", "row": "P04", "column": "Role", "value": "Vampire"}], at=t0
    )
    assert "Seer" not in own


def test_an_amount_added_to_anothers_secret_is_not_checked_against_its_value(village, t0):
    """Refusing “would go below 0” would tell the author the value; the author may not see it, so only the
    enactment (by an admin, who may) checks it."""
    operations = [{"op": "cell_add", "row": "P04", "column": "Silver", "delta": -5}]
    preview = amendment_preview(operations, base_number=1, since=None, now=t0, checked_by=village.player("P03"))
    assert preview.applies and "-4" not in str(preview.__dict__)
    assert not amendment_preview(
        operations, base_number=1, since=None, now=t0, checked_by=village.player("P04")
    ).applies, "the owner sees their own Silver"


@pytest.mark.parametrize(
    "op",
    [
        {"op": "cell_set", "row": "P03", "column": "{column}", "value": "9"},
        {"op": "cell_add", "row": "P03", "column": "{column}", "delta": 0},
        {"op": "cell_add", "row": "P03", "column": "{column}", "delta": 2},
        {"op": "column_retire", "column": "{column}"},
    ],
    ids=["set", "add-zero", "add", "retire"],
)
@pytest.mark.parametrize("author", ["P03", "P04"], ids=["player", "owner-of-another-secret"])
def test_a_hidden_column_reads_to_whoever_may_not_see_it_as_a_column_that_does_not_exist(village, t0, op, author):
    """“there is already a column”, “adding 0 changes nothing”: any answer that differs for a hidden column
    and a missing one tells that the hidden one exists. The refusal is word for word the missing column's."""

    def refused(column: str) -> str:
        named = {key: (column if value == "{column}" else value) for key, value in op.items()}
        return refusal_of(village, village.player(author), [named], at=t0)

    assert refused(SECRET_COLUMN) == refused("Acuity Pointz").replace("Acuity Pointz", SECRET_COLUMN)


def test_the_form_preview_refuses_a_hidden_column_as_a_missing_one(village, t0):
    status, hidden = form_preview(
        client_for("P03"), at=t0, gndt_0_op="cell_add", gndt_0_row="P03", gndt_0_column=SECRET_COLUMN, gndt_0_value="0"
    )
    _, missing = form_preview(
        client_for("P03"),
        at=t0,
        gndt_0_op="cell_add",
        gndt_0_row="P03",
        gndt_0_column="Acuity Pointz",
        gndt_0_value="0",
    )
    assert status == 200 and "there is no column" in hidden
    assert amendment_error(hidden) == amendment_error(missing).replace("Acuity Pointz", SECRET_COLUMN)


def amendment_error(html: str) -> str:
    return html.split("amendment-conflict", 1)[1].split("</div>", 1)[0]


@pytest.mark.parametrize("author", ["P01", "P02"], ids=["emperor", "admin"])
def test_whoever_may_see_the_secret_is_told_everything(village, t0, author):
    preview = amendment_preview(
        [SET_WOLF_TO_VILLAGER, SHARPEN], base_number=1, since=None, now=t0, checked_by=village.player(author)
    )
    assert preview.applies
    assert ("P04’s Role", WOLF, "Villager") in preview.gndt_changes
    assert ("P03’s Acuity Points", "3", "5") in preview.gndt_changes
    message = refusal_of(
        village, village.player(author), [{"op": "cell_set", "row": "P04", "column": "Role", "value": WOLF}], at=t0
    )
    assert message == f"Operation 1 (set P04’s Role): P04’s Role is already {WOLF}."


# --- Finding 1: a posted matter's live diff, its plain words, what it applied -------------------------------


@pytest.fixture
def secret_proposal(village, t0):
    """The Mayor proposes to cure P04 and sharpen P03's wits, and to give P03 five Money, openly."""
    return propose(village, village.emperor, [PUBLIC, SET_WOLF_TO_VILLAGER, SHARPEN], at=t0)


@pytest.mark.parametrize("viewer", ["visitor", "player"])
def test_a_posted_matter_shows_whoever_may_not_see_only_that_a_secret_change_is_proposed(
    village, t0, secret_proposal, viewer
):
    """“A logged-out visitor opening a posted Proposal reads ‘P04's Role Werewolf → Villager’”: no longer."""
    html = page_of(client_for(VIEWERS[viewer]), secret_proposal.get_absolute_url(), at=t0 + timedelta(minutes=5))
    section = amendment_section(html)
    assert "P03’s Money +5" in section and "a secret change to the GNDT" in section
    for secret in (*SECRET_WORDS, "Role"):
        assert secret not in html, secret


def test_the_owner_sees_the_change_to_their_own_role_and_nothing_else_secret(village, t0, secret_proposal):
    section = amendment_section(
        page_of(client_for("P04"), secret_proposal.get_absolute_url(), at=t0 + timedelta(minutes=5))
    )
    assert "P04’s Role = Villager" in section and WOLF in section
    assert SECRET_COLUMN not in section and "a secret change to the GNDT" in section


@pytest.mark.parametrize("viewer", ["emperor", "admin"])
def test_the_emperor_and_admins_see_the_whole_amendment(village, t0, secret_proposal, viewer):
    section = amendment_section(
        page_of(client_for(VIEWERS[viewer]), secret_proposal.get_absolute_url(), at=t0 + timedelta(minutes=5))
    )
    assert "P04’s Role = Villager" in section and WOLF in section and "P03’s Acuity Points +2" in section
    assert "a secret change" not in section


def test_the_plain_words_follow_the_reader(village, t0, secret_proposal):
    amendment = Amendment.objects.get(post=secret_proposal)
    now = t0 + timedelta(minutes=5)
    shown = {
        name: amendment_preview_for(amendment, viewer=village.player(name) if name else None, now=now)
        for name in (None, "P03", "P04", "P01")
    }
    assert (
        shown[None].descriptions
        == shown["P03"].descriptions
        == ["P03’s Money +5", "a secret change to the GNDT", "a secret change to the GNDT"]
    )
    assert shown["P04"].descriptions[1] == "P04’s Role = Villager"
    assert shown["P01"].descriptions[2] == "P03’s Acuity Points +2"
    assert shown[None].gndt_changes == [("P03’s Money", "300", "305")]


def test_a_secret_change_that_no_longer_applies_tells_only_those_who_may_see_it(village, t0, secret_proposal):
    """The Mayor cures P04 by hand; the proposal's change is now “already Villager”: a visitor is not told (it
    would tell them P04's Role), the Emperor is."""
    update(village, village.emperor, {("P04", "Role"): "Villager"}, now=t0 + timedelta(minutes=2))
    later = t0 + timedelta(minutes=5)
    visitor = page_of(client_for(None), secret_proposal.get_absolute_url(), at=later)
    assert "amendment-conflict" not in visitor and "Villager" not in visitor and "Role" not in visitor
    emperor = page_of(client_for("P01"), secret_proposal.get_absolute_url(), at=later)
    assert "amendment-conflict" in emperor and "already Villager" in emperor


def test_a_new_row_does_not_show_its_starting_secret_values(village, t0):
    """A row that is not a player's starts a choice column at its earliest choice (“Seer”): not for a
    visitor's eyes."""
    post = propose(village, village.admin, [{"op": "row_add", "row": "The Storehouse"}], at=t0)
    visitor = page_of(client_for(None), post.get_absolute_url(), at=t0 + timedelta(minutes=5))
    assert "Adds the GNDT row The Storehouse" in visitor and "Seer" not in visitor
    admin = page_of(client_for("P02"), post.get_absolute_url(), at=t0 + timedelta(minutes=5))
    assert "The Storehouse’s Role" in admin


def enact(game, post, *, at, apply_amendment=True):
    for i, voter in enumerate(game.players[:5]):
        vote(post, voter, "for", at=at + timedelta(minutes=i))
    matter_resolve(
        post=post, admin=game.admin, action="enact", now=at + timedelta(hours=13), apply_amendment=apply_amendment
    )


def test_what_an_enacted_amendment_applied_is_told_by_the_same_rule(village, t0, secret_proposal):
    enact(village, secret_proposal, at=t0 + timedelta(hours=1))
    assert value(village, "P04", "Role") == "Villager" and value(village, "P03", SECRET_COLUMN) == "5"
    later = t0 + timedelta(hours=15)
    for name in ("visitor", "player"):
        html = page_of(client_for(VIEWERS[name]), secret_proposal.get_absolute_url(), at=later)
        assert "P03’s Money +5" in html and "a secret change to the GNDT" in html
        assert "Role" not in html and SECRET_COLUMN not in html, name
    owner = amendment_section(page_of(client_for("P04"), secret_proposal.get_absolute_url(), at=later))
    assert "P04’s Role = Villager" in owner and SECRET_COLUMN not in owner
    admin = amendment_section(page_of(client_for("P02"), secret_proposal.get_absolute_url(), at=later))
    assert "P03’s Acuity Points +2" in admin


def test_enacting_without_applying_records_no_secret_in_the_public_note(village, t0, secret_proposal):
    update(village, village.emperor, {("P04", "Role"): "Villager"}, now=t0 + timedelta(minutes=2))
    with pytest.raises(VoteError, match="already Villager"):
        enact(village, secret_proposal, at=t0 + timedelta(hours=1))
    matter_resolve(
        post=secret_proposal, admin=village.admin, action="enact", now=t0 + timedelta(hours=14), apply_amendment=False
    )
    application = AmendmentApplication.objects.get(post=secret_proposal)
    assert not application.applied and "Role" not in application.note and "Villager" not in application.note
    html = page_of(client_for(None), secret_proposal.get_absolute_url(), at=t0 + timedelta(hours=15))
    assert "Role" not in html and "Villager" not in html


@pytest.mark.parametrize("url", ["/feed/", "/category/proposals/feed/", "/api/posts", "/api/posts/{slug}"])
def test_the_feeds_and_the_api_carry_no_secret_of_an_amendment(village, t0, secret_proposal, url):
    text = page_of(client_for("P03"), url.format(slug=secret_proposal.slug), at=t0 + timedelta(minutes=5))
    assert secret_proposal.title in text
    for secret in (*SECRET_WORDS, "Role"):
        assert secret not in text, secret


# --- Finding 5: names that can never be used --------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["money", "Мoney", "Money\u200b", "Ｍｏｎｅｙ", "MONEY"],
    ids=["case", "cyrillic", "zero-width", "fullwidth", "capitals"],
)
def test_a_new_column_too_like_an_existing_one_is_refused_at_preview_and_posting(village, t0, name):
    """“column_add with a case or confusable variant of an existing column … passes preview and posting;
    Enact then answers 500 (IntegrityError) or refuses.” It is refused before it is posted."""
    operations = [{"op": "column_add", "column": name, "kind": "integer"}]
    preview = amendment_preview(operations, base_number=1, since=None, now=t0, checked_by=village.player("P03"))
    assert not preview.applies
    message = refusal_of(village, village.player("P03"), operations, at=t0)
    assert message.startswith("Operation 1 (add the GNDT column")


def test_a_new_column_is_refused_alike_whether_the_name_is_public_hidden_or_retired(village, t0):
    """One answer for any name that cannot be used, so that the refusal does not confirm a hidden column."""
    gndt_column_retire(column=Column.objects.get(name="Items"), by=village.admin, now=t0 - timedelta(days=1))

    def refused(name: str) -> str:
        message = refusal_of(village, village.player("P03"), [{"op": "column_add", "column": name}], at=t0)
        return message.replace(name, "NAME")

    assert refused(SECRET_COLUMN) == refused("Money") == refused("Items") == refused("acuity points")


def test_a_name_with_an_invisible_character_is_refused_for_what_it_is(village, t0):
    message = refusal_of(village, village.player("P03"), [{"op": "column_add", "column": "Wax\u200b"}], at=t0)
    assert "invisible" in message


@pytest.mark.parametrize("name", ["the pot", "Тhe Pot", "The\u200bPot"])
def test_a_new_row_too_like_an_existing_one_is_refused(village, t0, name):
    gndt_row_add(dynasty=village.dynasty, by=village.admin, now=t0 - timedelta(days=1), name="Wreck")
    Row.objects.filter(name="Wreck").update(retired_at=t0 - timedelta(hours=1))
    assert refusal_of(village, village.player("P03"), [{"op": "row_add", "row": name}], at=t0)
    assert refusal_of(village, village.player("P03"), [{"op": "row_add", "row": "wreck"}], at=t0)


@pytest.mark.parametrize(
    "name", ["Р04", "p04", "P0４", "The Pot", "P0\u200b4"], ids=["cyrillic", "case", "fullwidth", "row", "zero-width"]
)
def test_a_rename_to_a_name_too_like_another_is_refused_before_posting(village, t0, name):
    """A rename the roster would refuse on enactment is refused when posted, with the roster's own rules."""
    message = refusal_of(
        village, village.player("P03"), [{"op": "player_rename", "player": "P05", "name": name}], at=t0
    )
    assert message.startswith("Operation 1 (rename P05):")


def test_a_fullwidth_rename_is_taken_in_its_normal_form_as_the_roster_takes_it(village, t0):
    post = propose(
        village, village.player("P03"), [{"op": "player_rename", "player": "P05", "name": "Ｃａｔｏ"}], at=t0
    )
    assert Amendment.objects.filter(post=post).exists()


def test_the_gndts_own_columns_refuse_a_lookalike_too(village, t0):
    with pytest.raises(GndtError, match="There is already a column called “Money”"):
        gndt_column_add(dynasty=village.dynasty, by=village.admin, now=t0, name="Мoney")


def test_enacting_an_amendment_that_no_longer_applies_is_refused_never_an_error_page(village, t0):
    """A column added by hand after the amendment was posted takes its name: enacting is refused with the
    reason (the admin may enact without applying), never an IntegrityError."""
    post = propose(village, village.player("P03"), [{"op": "column_add", "column": "Wax", "kind": "integer"}], at=t0)
    gndt_column_add(dynasty=village.dynasty, by=village.admin, now=t0 + timedelta(minutes=1), name="WAX")
    with pytest.raises(VoteError, match="The amendment no longer applies"):
        enact(village, post, at=t0 + timedelta(hours=1))
    assert Post.objects.get(pk=post.pk).status == "pending"
    client = client_for("P02")
    with time_machine.travel(t0 + timedelta(hours=15), tick=False):
        response = client.post(f"/admin-panel/{post.slug}/resolve/", {"action": "enact"})
    assert response.status_code == 302
    assert Post.objects.get(pk=post.pk).status == "pending"
