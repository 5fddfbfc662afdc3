"""The GNDT in a real Chromium: a player changes a cell inline with DICE6 in the comment and sees the roll;
another player undoes it from the log; the table stays usable on a phone."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from gndt.models import Column, Row, Update
from tests.factories import PASSWORD
from tests.gndt.builders import make_gndt, value

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page, base: str, name: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{base}{next_path}")


def test_a_player_rolls_in_an_update_and_another_undoes_it(browser, live_server, screenshot):
    """P03 taps their Money, sets 290 with “Bought a drink DICE6”, and sees the roll appear under the table
    without a reload; P04 opens the log, sees the same roll, and undoes the update: Money is 300 again."""
    game = make_gndt(timezone.now())
    row = Row.objects.get(dynasty=game.dynasty, name="P03")
    column = Column.objects.get(dynasty=game.dynasty, name="Money")
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(2)]
    player, other = (context.new_page() for context in contexts)

    log_in(player, live_server.url, "P03", "/gndt/")
    player.evaluate("window.__notReloaded = true")
    cell = player.locator(f"#cell-{row.pk}-{column.pk}")
    cell.locator("a.cell-edit").click()
    money = cell.locator(f"#v-{row.pk}-{column.pk}")
    expect(money).to_have_value("300")
    screenshot(player, "gndt-inline-form.png", full_page=True)
    money.fill("290")
    cell.locator("input[name=comment]").fill("Bought a drink DICE6")
    cell.locator("button.save").click()
    expect(player.locator("#gndt .message.success")).to_contain_text("The GNDT was updated")
    expect(player.locator(f"#cell-{row.pk}-{column.pk}")).to_have_text("290")
    update = Update.objects.get(comment="Bought a drink DICE6")
    rolled = f"DICE6: {update.rolls[0]['results'][0]}"
    expect(player.locator(f"#update-{update.pk} .roll")).to_have_text(rolled)
    assert player.evaluate("window.__notReloaded === true"), "the table was swapped in place"
    screenshot(player, "gndt-after-update.png", full_page=True)

    log_in(other, live_server.url, "P04", "/gndt/log/")
    entry = other.locator(f"#update-{update.pk}")
    expect(entry.locator(".roll")).to_have_text(rolled)
    expect(entry.locator(".log-comment")).to_have_text("Bought a drink DICE6")
    screenshot(other, "gndt-log.png", full_page=True)
    entry.locator("button.undo").click()
    expect(other.locator(".message.success")).to_contain_text(f"Update #{update.pk} was undone")
    expect(other.locator(f"#update-{update.pk} .log-meta")).to_contain_text("undone by")
    screenshot(other, "gndt-log-after-undo.png", full_page=True)
    assert value(game, "P03", "Money") == "300"

    player.goto(live_server.url + "/gndt/")
    expect(player.locator(f"#cell-{row.pk}-{column.pk}")).to_have_text("300")
    for context in contexts:
        context.close()


@pytest.mark.one_database  # the refusal writes nothing, and is tested on both databases without the browser
def test_a_refused_inline_edit_and_the_table_on_a_phone(browser, live_server, screenshot):
    """A choice that is not allowed is refused inside the cell's form; on a phone the page does not scroll
    sideways: the table scrolls inside its box with the names kept in view."""
    game = make_gndt(timezone.now())
    row = Row.objects.get(dynasty=game.dynasty, name="P03")
    column = Column.objects.get(dynasty=game.dynasty, name="Pieces")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    log_in(page, live_server.url, "P03", "/gndt/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "gndt-phone.png")
    cell = page.locator(f"#cell-{row.pk}-{column.pk}")
    cell.locator("a.cell-edit").tap()
    cell.locator(f"#v-{row.pk}-{column.pk}").fill("lots")
    cell.locator("button.save").tap()
    expect(cell.locator(".message.error")).to_have_text("P03: Pieces must be a whole number; got 'lots'.")
    screenshot(page, "gndt-phone-refused.png")
    assert value(game, "P03", "Pieces") == "8"
    phone.close()
