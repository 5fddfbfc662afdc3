"""Each seed demo played in a real Chromium: two or three of the moves its dynastic rules are known for.

The demos are built as of a fixed Wednesday (an even day of the month: Daytime under Ruleset 50), and the
clock runs on from there, so daily and weekly limits fall the same way on every run.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from playwright.sync_api import expect

from blognomic.community.commitments.models import Seal
from blognomic.moving.seed_demos import families, hackers, hunters, saloon, zahndorf
from blognomic.moving.seed_demos.loading import SEED_DEMOS, seed_choose, seed_demo_load
from dynasties.models import Dynasty, User
from gndt.models import PrivateDeck, Row, Update
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


def test_2005_a_petition_the_duke_answers(browser, live_server, screenshot, clock):
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
    screenshot(family, "seed-2005-petition-family.png", full_page=True)

    duke = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(duke, live_server.url, families.EMPEROR, families.DEMO.password, url)
    duke.fill("#comment-text", "Guilty of Negligence: the Habers owe Friedl five Thalers.")
    duke.click("button.vote-for")
    expect(duke.locator(".voters-for")).to_contain_text(families.EMPEROR)
    expect(duke.locator(".tally-columns th").first).to_contain_text("Aye")
    screenshot(duke, "seed-2005-petition-duke.png", full_page=True)

    clock.move_to(petition.posted_at + timedelta(hours=48, minutes=5))
    admin = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(admin, live_server.url, "Mirela", families.DEMO.password, "/admin-panel/")
    admin.locator(f"#panel-{petition.slug} button.enact").click()
    expect(admin.locator(".messages .message.success")).to_contain_text("Enacted")
    admin.goto(live_server.url + url)
    expect(admin.locator(".admin-note")).to_contain_text("approved")
    screenshot(admin, "seed-2005-petition-approved.png", full_page=True)
    for page in (family, duke, admin):
        page.close()


def test_2008_werewolves_a_town_meeting_at_daytime(browser, live_server, screenshot, clock):
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
    screenshot(fenwick, "seed-2008-werewolves-gndt.png", full_page=True)

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
    screenshot(marek, "seed-2008-town-meeting.png", full_page=True)
    for page in (fenwick, marek):
        page.close()


def test_2008_poker_hole_cards_from_a_private_deck(browser, live_server, screenshot, clock):
    """Ruleset 52: Doc Pruitt picks up his own deck for hand 3 ("noted privately by the Player", its checksum
    public), draws two positions and sees his hole cards, on the deck's page and his own page; Jeb Malone
    sees the checksum and the positions only, until Doc reveals the deck at the showdown and the site shows
    it verified against the checksum."""
    load(saloon.DEMO)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(page, live_server.url, "Doc Pruitt", saloon.DEMO.password, "/gndt/")
    expect(page.locator("body")).to_contain_text("The Pot")
    screenshot(page, "seed-poker-table.png", full_page=True)

    page.click("nav.gndt-links >> text=Decks")
    page.fill("#deck-hand", "3")
    page.click("text=Shuffle a deck")
    deck = PrivateDeck.objects.get(owner__username="Doc Pruitt")
    expect(page.locator(".digest")).to_contain_text(deck.digest)
    expect(page.locator(".deck-order li")).to_have_count(52)
    page.fill("#draw-count", "2")
    page.click("text=Draw cards")
    expect(page.locator(".message.success")).to_contain_text("You drew positions")
    draw = deck.draws.get()
    order = deck.order.split("\n")
    cards = [order[position - 1] for position in draw.positions]
    expect(page.locator(".hole-cards .card")).to_have_text(cards)
    screenshot(page, "seed-poker-hole-cards.png", full_page=True)
    page.goto(f"{live_server.url}/players/Doc Pruitt/")
    expect(page.locator(".hole-cards")).to_contain_text(cards[0])

    jeb = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(jeb, live_server.url, "Jeb Malone", saloon.DEMO.password, f"/gndt/decks/{deck.pk}/")
    expect(jeb.locator(".positions")).to_have_text(", ".join(str(position) for position in draw.positions))
    expect(jeb.locator(".deck-order")).to_have_count(0)
    for card in cards:
        expect(jeb.locator("body")).not_to_contain_text(card)
    jeb.goto(f"{live_server.url}/gndt/log/")
    expect(jeb.locator(f"#update-{draw.update_id} .roll")).to_contain_text("Doc Pruitt drew positions")

    page.goto(f"{live_server.url}/gndt/decks/{deck.pk}/")
    page.click("text=Reveal the deck")
    expect(page.locator(".verified")).to_be_visible()
    jeb.goto(f"{live_server.url}/gndt/decks/{deck.pk}/")
    expect(jeb.locator(".verified")).to_be_visible()
    expect(jeb.locator(".hole-cards .card")).to_have_text(cards)
    expect(jeb.locator(".salt")).to_have_text(deck.salt)
    screenshot(jeb, "seed-poker-showdown.png", full_page=True)
    for each in (page, jeb):
        each.close()


def test_2015_hackers_reveal_a_codename_sentence_and_add_a_subroutine(browser, live_server, screenshot, clock):
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
    screenshot(page, "seed-hackers-reveal.png", full_page=True)

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
    screenshot(page, "seed-hackers-daily.png", full_page=True)
    page.close()


def test_2016_a_fourth_raid_in_a_week_is_refused(browser, live_server, screenshot, clock):
    """Ruleset 142: “As a Daily Action, but no more than three times during a Week, a Hunter may Raid”. Lark
    raided on Monday and Tuesday; her raid today goes through, and tomorrow's fourth is refused, naming the
    cap, though a day has passed."""
    load(hunters.DEMO)
    dynasty = Dynasty.objects.get()
    lark = User.objects.get(username="Lark")
    monday = datetime(2026, 11, 16, 2, 0, tzinfo=UTC)
    for day in (0, 1):
        gndt_update(
            dynasty=dynasty,
            by=lark,
            changes={},
            seen={},
            comment="Raiding CD: DICE10 DICE3",
            action="Raid",
            now=monday + timedelta(days=day),
        )
    row = Row.objects.get(name="Lark")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(page, live_server.url, "Lark", hunters.DEMO.password, "/gndt/")
    update_own_row(page, live_server.url, row, "Raiding CD: DICE10 DICE3", action="Raid")
    expect(page.locator(".message.success")).to_contain_text("The GNDT was updated")

    clock.move_to(NOW + timedelta(days=1))
    update_own_row(page, live_server.url, row, "Raiding CD again: DICE10 DICE3", action="Raid")
    expect(page.locator(".message.error")).to_contain_text("at most 3")
    assert Update.objects.filter(by=lark, action__name="Raid").count() == 3
    screenshot(page, "seed-hunters-raid-cap.png", full_page=True)
    page.close()
