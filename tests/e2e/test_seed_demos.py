"""Each seed demo played in a real Chromium: two or three of the moves its dynastic rules are known for.

The demos are built as of a fixed Wednesday (an even day of the month: Daytime under Ruleset 50), and the
clock runs on from there, so daily and weekly limits fall the same way on every run.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from playwright.sync_api import expect

from blognomic.commitments.models import Seal
from blognomic.seed_demos import families, hackers, hunters, saloon, zahndorf
from blognomic.seed_demos.loading import SEED_DEMOS, seed_choose, seed_demo_load
from dynasties.models import Dynasty, User
from gndt.models import Row, Update
from gndt.services.updates import gndt_update
from votes.models import Post

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
NOW = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)


@pytest.fixture
def clock():
    if not all((SEEDS / name).exists() for name in SEED_DEMOS):
        pytest.skip(f"seed rulesets not found at {SEEDS}")
    with time_machine.travel(NOW, tick=True) as traveller:
        yield traveller


def load(demo) -> None:
    seed_demo_load(seed_choose(demo.file_name, directory=SEEDS), now=NOW)


def log_in(page, base: str, name: str, password: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{base}{next_path}")


def update_own_row(page, base: str, row: Row, comment: str, action: str = "") -> None:
    page.goto(f"{base}/gndt/edit/?row={row.pk}")
    page.fill("#edit-comment", comment)
    if action:
        page.select_option("#edit-action", action)
    page.click("form.gndt-edit button.save")


def test_2005_a_petition_the_duke_answers(browser, live_server, screenshots_dir, clock):
    """Ruleset 21: “only the Duke may vote on it”, and after 48 hours “If the Duke has voted FOR the Petition
    then it is considered approved”. A Family sees no voting buttons on Jonas Pfeil's Petition; the Duke
    pronounces FOR (the dynasty calls it “Aye”); two days after it was posted the admin enacts it, approved."""
    load(families.DEMO)
    petition = Post.objects.get(title="Petition: Accuse Ruprecht")
    url = petition.get_absolute_url()
    family = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(family, live_server.url, "Halvard", families.DEMO.password, url)
    expect(family.locator(".tally-kind")).to_have_text("Petition")
    expect(family.locator(".tally-electorate")).to_have_text(families.EMPEROR)
    expect(family.locator("button.vote-for")).to_have_count(0)
    expect(family.locator("#sidebar, body")).to_contain_text("The Year")
    family.screenshot(path=os.path.join(screenshots_dir, "seed-2005-petition-family.png"), full_page=True)

    duke = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(duke, live_server.url, families.EMPEROR, families.DEMO.password, url)
    duke.fill("#comment-text", "Guilty of Negligence: the Habers owe Friedl five Thalers.")
    duke.click("button.vote-for")
    expect(duke.locator(".voters-for")).to_contain_text(families.EMPEROR)
    expect(duke.locator(".tally-columns th").first).to_contain_text("Aye")
    duke.screenshot(path=os.path.join(screenshots_dir, "seed-2005-petition-duke.png"), full_page=True)

    clock.move_to(petition.posted_at + timedelta(hours=48, minutes=5))
    admin = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(admin, live_server.url, "Mirela", families.DEMO.password, "/admin-panel/")
    admin.locator(f"#panel-{petition.slug} button.enact").click()
    expect(admin.locator(".messages .message.success")).to_contain_text("Enacted")
    admin.goto(live_server.url + url)
    expect(admin.locator(".admin-note")).to_contain_text("approved")
    admin.screenshot(path=os.path.join(screenshots_dir, "seed-2005-petition-approved.png"), full_page=True)
    for page in (family, duke, admin):
        page.close()


def test_2008_werewolves_a_town_meeting_at_daytime(browser, live_server, screenshots_dir, clock):
    """Ruleset 50: “Dead Villagers and Prisoners may not vote in a Town Meeting”, whose Quorum is half the
    living, unimprisoned Villagers, rounded down, plus one: 4 of the 7 who may vote, not the 5 of all nine.
    It is Daytime (an even day); Fenwick sees his own secret Role and nobody else's, votes FOR, and with
    Rosalind, Ilse and Marek the meeting reaches its Quorum, enactable once open 12 hours; Dagny, in gaol,
    has no voting buttons."""
    load(zahndorf.DEMO)
    meeting = Post.objects.get(title="Proposal: Town Meeting: Search the Smokehouse")
    url = meeting.get_absolute_url()
    fenwick = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(fenwick, live_server.url, "Fenwick", zahndorf.DEMO.password, "/gndt/")
    expect(fenwick.locator("body")).to_contain_text("Daytime")
    role = Row.objects.get(name="Fenwick").cells.get(column__name="Role")
    theda = Row.objects.get(name="Theda").cells.get(column__name="Role")
    expect(fenwick.locator(f"#cell-{role.row_id}-{role.column_id}")).to_have_text("Werewolf")
    expect(fenwick.locator(f"#cell-{theda.row_id}-{theda.column_id}")).not_to_contain_text("Werewolf")
    expect(fenwick.locator("th", has_text="Acuity Points")).to_have_count(0)
    fenwick.screenshot(path=os.path.join(screenshots_dir, "seed-2008-werewolves-gndt.png"), full_page=True)

    fenwick.goto(live_server.url + url)
    expect(fenwick.locator(".tally-kind")).to_have_text("Town Meeting")
    expect(fenwick.locator(".tally-quorum")).to_contain_text("4 (of 7 who may vote)")
    expect(fenwick.locator(".tally-electorate")).not_to_contain_text("Dagny")
    fenwick.click("button.vote-for")
    expect(fenwick.locator(".voters-for")).to_contain_text("Fenwick")

    dagny = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(dagny, live_server.url, "Dagny", zahndorf.DEMO.password, url)
    expect(dagny.locator("button.vote-for")).to_have_count(0)
    dagny.close()

    marek = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(marek, live_server.url, "Marek", zahndorf.DEMO.password, url)
    marek.click("button.vote-for")
    expect(marek.locator(".voters-for")).to_contain_text("Marek")
    clock.move_to(meeting.posted_at + timedelta(hours=12, minutes=5))  # 2008: open at least 12 hours
    marek.reload()
    expect(marek.locator(".can-enact")).to_contain_text("Can be enacted now")
    marek.screenshot(path=os.path.join(screenshots_dir, "seed-2008-town-meeting.png"), full_page=True)
    for page in (fenwick, marek):
        page.close()


def test_2008_poker_a_hole_card_draw_sealed_and_revealed(browser, live_server, screenshots_dir, clock):
    """Ruleset 52: Doc Pruitt draws his hole cards for hand 3 with one ``HAND#3 2DECK52`` (no card that the
    hand's deck has already dealt), seals them, and at the showdown reveals them, verified by the site."""
    load(saloon.DEMO)
    doc = Row.objects.get(name="Doc Pruitt")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(page, live_server.url, "Doc Pruitt", saloon.DEMO.password, "/gndt/")
    expect(page.locator("body")).to_contain_text("The Pot")
    page.screenshot(path=os.path.join(screenshots_dir, "seed-poker-table.png"), full_page=True)

    update_own_row(page, live_server.url, doc, "HAND#3 hole cards 2DECK52")
    expect(page.locator(".message.success")).to_contain_text("The GNDT was updated")
    draw = Update.objects.get(by__username="Doc Pruitt", comment__startswith="HAND#3")
    cards = draw.rolls[0]["results"]
    earlier = {card for update in Update.objects.filter(comment__startswith="HAND#3").exclude(pk=draw.pk)
               for roll in update.rolls for card in roll["results"]}
    assert len(set(cards)) == 2 and not earlier & set(cards)
    page.goto(f"{live_server.url}/gndt/log/")
    expect(page.locator(f"#update-{draw.pk} .roll")).to_contain_text("2DECK52 from HAND#3")
    page.screenshot(path=os.path.join(screenshots_dir, "seed-poker-draw.png"), full_page=True)

    text = f"Hand #3, Doc Pruitt holds {saloon.card_names(draw)}."
    page.goto(f"{live_server.url}/seals/new/")
    page.fill("#title", "Doc Pruitt's hole cards, hand #3")
    page.fill("#text", text)
    page.click("form.stacked button[type=submit]")
    seal = Seal.objects.get(owner__username="Doc Pruitt")
    expect(page.locator(f"#seal-{seal.pk} .digest")).to_contain_text(seal.digest)
    page.goto(f"{live_server.url}/seals/{seal.pk}/reveal/")
    page.fill("#text", text)
    page.click("form.stacked button[type=submit]")
    page.goto(f"{live_server.url}/seals/")
    expect(page.locator(f"#seal-{seal.pk} .verified")).to_be_visible()
    expect(page.locator(f"#seal-{seal.pk} .revealed-text")).to_have_text(text)
    page.screenshot(path=os.path.join(screenshots_dir, "seed-poker-seal.png"), full_page=True)
    page.close()


def test_2015_hackers_reveal_a_codename_sentence_and_add_a_subroutine(browser, live_server, screenshots_dir,
                                                                     clock):
    """The 2015 ruleset: a wrong sentence is refused and the seal stays sealed; Marlow Dyer's own sentence
    naming his Corp is verified, proving he controls :Nightjar; then he adds a Subroutine to its Tool as his
    daily action, and a second one the same day is refused."""
    load(hackers.DEMO)
    seal = Seal.objects.get(title="Who controls :Nightjar")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(page, live_server.url, "Marlow Dyer", hackers.DEMO.password, "/seals/")
    expect(page.locator(f"#seal-{seal.pk}")).to_contain_text("Who controls :Nightjar")
    page.goto(f"{live_server.url}/seals/{seal.pk}/reveal/")
    page.fill("#text", "Someone else runs the bird.")
    page.click("form.stacked button[type=submit]")
    expect(page.locator("p.error[role=alert]")).to_contain_text("does not match the digest")
    seal.refresh_from_db()
    assert not seal.is_revealed
    page.fill("#text", hackers.NIGHTJAR_SENTENCE)
    page.click("form.stacked button[type=submit]")
    page.goto(f"{live_server.url}/seals/")
    expect(page.locator(f"#seal-{seal.pk} .revealed-text")).to_have_text(hackers.NIGHTJAR_SENTENCE)
    page.screenshot(path=os.path.join(screenshots_dir, "seed-hackers-reveal.png"), full_page=True)

    nightjar = Row.objects.get(name=":Nightjar")
    tool = nightjar.cells.get(column__name="Tool")
    page.goto(f"{live_server.url}/gndt/edit/?row={nightjar.pk}")
    page.fill(f"#v-{nightjar.pk}-{tool.column_id}", "^^?2^")
    page.fill("#edit-comment", "A Slicer for the bird")
    page.select_option("#edit-action", "Add a Subroutine")
    page.click("form.gndt-edit button.save")
    expect(page.locator(".message.success")).to_contain_text("The GNDT was updated")
    page.goto(f"{live_server.url}/gndt/edit/?row={nightjar.pk}")
    page.fill(f"#v-{nightjar.pk}-{tool.column_id}", "^^?2^^")
    page.select_option("#edit-action", "Add a Subroutine")
    page.click("form.gndt-edit button.save")
    expect(page.locator(".message.error")).to_contain_text("Add a Subroutine")
    tool.refresh_from_db()
    assert tool.value == "^^?2^"
    page.screenshot(path=os.path.join(screenshots_dir, "seed-hackers-daily.png"), full_page=True)
    page.close()


def test_2016_a_fourth_raid_in_a_week_is_refused(browser, live_server, screenshots_dir, clock):
    """Ruleset 142: “As a Daily Action, but no more than three times during a Week, a Hunter may Raid”. Lark
    raided on Monday and Tuesday; her raid today goes through, and tomorrow's fourth is refused, naming the
    cap, though a day has passed."""
    load(hunters.DEMO)
    dynasty = Dynasty.objects.get()
    lark = User.objects.get(username="Lark")
    monday = datetime(2026, 11, 16, 2, 0, tzinfo=UTC)
    for day in (0, 1):
        gndt_update(dynasty=dynasty, by=lark, changes={}, seen={}, comment="Raiding CD: DICE10 DICE3",
                    action="Raid", now=monday + timedelta(days=day))
    row = Row.objects.get(name="Lark")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(page, live_server.url, "Lark", hunters.DEMO.password, "/gndt/")
    update_own_row(page, live_server.url, row, "Raiding CD: DICE10 DICE3", action="Raid")
    expect(page.locator(".message.success")).to_contain_text("The GNDT was updated")

    clock.move_to(NOW + timedelta(days=1))
    update_own_row(page, live_server.url, row, "Raiding CD again: DICE10 DICE3", action="Raid")
    expect(page.locator(".message.error")).to_contain_text("at most 3")
    assert Update.objects.filter(by=lark, action__name="Raid").count() == 3
    page.screenshot(path=os.path.join(screenshots_dir, "seed-hunters-raid-cap.png"), full_page=True)
    page.close()
