"""Moving a BlogNomic in, as its admin would, in Chromium, in the order the documentation's recipe gives: a fresh
database, the first admin, the wiki, the blog (BlogNomic's own export: matters' states as post statuses, ACF
fields, a guest comment, notes as admins wrote them), who plays now, the dynasty, and a player claiming their
account by the reset mail through a real SMTP server on loopback. Then the game plays on: a matter resolved in
2006 shows its recorded result and no way to vote, and a new Proposal is voted on with today's Quorum."""

from __future__ import annotations

import io
import re
import time

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from dynasties.models import Dynasty, User
from tests.e2e.test_journeys import log_in
from tests.mediawiki.exports import blognomic_wiki
from tests.test_mail_over_smtp import deliver, inbox, text_of  # noqa: F401 - inbox is a fixture
from tests.wordpress.wxr import C, P, author, export
from votes.models import Post, Status

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The old blog's accounts; the export gives each address as name@nomic.example.
AUTHORS = author(1, "Ada") + author(2, "Bram") + author(3, "Cora") + author(4, "Dov")


def _vote(comment_id: int, name: str, user_id: int, at: str, vote: str) -> C:
    return C(comment_id, name, at, text=f"{vote}, says {name}.", vote=vote, user_id=user_id)


def old_blog() -> bytes:
    """Three matters of 2006 as BlogNomic's WordPress keeps them; one signed "Ada" by a guest, not by Ada."""
    lamps = P(
        101,
        "Proposal: Lamplighters",
        "Ada",
        "2006-04-03 10:00:00",
        status="enacted",
        name="lamplighters",
        modified="2006-04-05 09:00:00",
        meta={"flavour": "", "admin": "Reaches quorum and passes at 3-1. -Bram", "admin_user": "2"},
        comments=[
            _vote(1001, "Ada", 1, "2006-04-03 11:00:00", "FOR"),
            _vote(1002, "Bram", 2, "2006-04-03 12:00:00", "FOR"),
            _vote(1003, "Cora", 3, "2006-04-03 13:00:00", "FOR"),
            _vote(1004, "Dov", 4, "2006-04-03 14:00:00", "AGAINST"),
            C(1005, "Ada", "2006-04-03 15:00:00", text="Against, signed by someone else.", vote="AGAINST"),
        ],
    )
    tides = P(
        102,
        "Proposal: Spring Tides",
        "Dov",
        "2006-04-10 10:00:00",
        status="failed",
        name="spring-tides",
        modified="2006-04-13 09:00:00",
        meta={"flavour": "", "admin": "Timed out one-two", "admin_user": "2"},
        comments=[
            _vote(1011, "Dov", 4, "2006-04-10 11:00:00", "FOR"),
            _vote(1012, "Ada", 1, "2006-04-10 12:00:00", "AGAINST"),
            _vote(1013, "Cora", 3, "2006-04-10 13:00:00", "AGAINST"),
        ],
    )
    draft = P(103, "Proposal: Never Sent", "Cora", "2006-04-11 10:00:00", status="draft", name="never-sent")
    return export([lamps, tides, draft], authors=AUTHORS)


def _run(command: str, *args: str) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def _mailed_link(inbox, to: str, base: str) -> str:  # noqa: F811 - the fixture's value
    """The reset link in the newest mail to ``to``: the site queues it once the page has answered."""
    for _ in range(50):
        deliver()
        for message in reversed(inbox.messages):
            if message["To"] == to:
                found = re.search(rf"{re.escape(base)}/accounts/password/reset/\S+/", text_of(message))
                assert found, text_of(message)
                return found.group(0)
        time.sleep(0.1)
    raise AssertionError(f"nothing was mailed to {to}")


def _choose_password(page, link: str, password: str) -> None:
    page.goto(link)
    expect(page.locator("h1")).to_have_text("Choose a new password")
    page.fill("input[name=new_password1]", password)
    page.fill("input[name=new_password2]", password)
    page.click("form.stacked button[type=submit]")
    expect(page.locator("h1")).to_have_text("Password set")


def test_a_blognomic_moves_in_and_plays_on(browser, live_server, inbox, settings, tmp_path, screenshot):  # noqa: F811
    settings.SITE_URL = base = live_server.url
    wiki, blog = tmp_path / "wiki.xml", tmp_path / "blog.xml"
    wiki.write_bytes(blognomic_wiki())
    blog.write_bytes(old_blog())

    # The first admin, the wiki, the blog and who plays now, as the recipe runs them.
    assert "Bram is the site's admin" in _run("create_first_admin", "Bram", "bram@nomic.example")
    _run("import_mediawiki", str(wiki))
    report = _run("import_wordpress", str(blog), "--players", "Ada", "Bram", "Cora")
    assert "line" in report and "draft" in report.lower()  # the draft is skipped with its reason
    assert "Guest comments not kept: 1" in report  # the comment signed "Ada" by a guest is counted, not kept
    assert "3 accounts have the email address the old site held" in report  # Bram's was his already
    assert "1 player is idle until they come back" in report  # Dov, whom --players did not name
    assert not User.objects.filter(username__regex=r"^\d+$").exists()  # admin_user named Bram, not "2"
    lamps = Post.objects.get(slug="lamplighters")
    assert lamps.status == Status.ENACTED and lamps.resolutions.get().by.username == "Bram"
    assert User.objects.get(username="Cora").email == "cora@nomic.example"

    # The first admin sets a password by the mailed link and begins the dynasty the game is in now.
    admin = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    _choose_password(admin, _mailed_link(inbox, "bram@nomic.example", base), "a harbour at noon")
    log_in(admin, base, "Bram", "a harbour at noon", "/admin-panel/")
    admin.click("text=begin the current dynasty")
    admin.fill("input[name=number]", "12")
    admin.fill("input[name=emperor]", "Ada")
    admin.fill("input[name=player_term]", "Lamplighter")
    admin.click("form.dynasty-start-form button[type=submit]")
    admin.wait_for_url(f"{base}/dynasties/12/")
    assert Dynasty.objects.current().number == 12

    # Cora claims her account with the reset mail, as an imported player would.
    cora = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    cora.goto(base + "/accounts/login/")
    cora.click("text=Forgot your password?")
    cora.fill("input[name=email]", "cora@nomic.example")
    cora.click("form.stacked button[type=submit]")
    _choose_password(cora, _mailed_link(inbox, "cora@nomic.example", base), "a lantern at dusk")
    log_in(cora, base, "Cora", "a lantern at dusk", lamps.get_absolute_url())

    # The 2006 matter keeps the result its admin recorded; nobody votes on it now, and nobody was told of it.
    result = cora.locator("section.recorded-result")
    expect(result.locator(".recorded-outcome")).to_contain_text("Enacted 3–1")
    expect(cora.locator(".admin-note")).to_contain_text("Reaches quorum and passes at 3-1. -Bram")
    expect(cora.locator("button.vote")).to_have_count(0)
    screenshot(cora, "moved-in-2006-matter.png", full_page=True)
    assert not any("Lamplighters" in str(message["Subject"]) for message in inbox.messages)

    # Today's game: Ada, Bram and Cora play, Dov is idle; a new Proposal is judged with today's Quorum.
    cora.goto(base + "/new/")
    cora.fill('input[name="title"]', "Proposal: Lamps At Dusk")
    cora.fill('textarea[name="body"]', "Every Lamplighter lights one lamp a day.")
    cora.locator("form button[type=submit]", has_text="Post").first.click()
    cora.wait_for_url(re.compile(r".*/posts/lamps-at-dusk/$"))
    expect(cora.locator(".quorum-line")).to_contain_text("There are 3 active lamplighters. Quorum is 2.")
    cora.click("button.vote-for")
    expect(cora.locator(".tally-columns th").first).to_have_text("For (1)")
    log_in(admin, base, "Bram", "a harbour at noon", "/posts/lamps-at-dusk/")
    admin.click("button.vote-for")
    expect(admin.locator(".tally-columns th").first).to_have_text("For (2)")
    # Quorum FOR of today's three, not of everyone who ever posted; the 2016 rules' twelve hours still to run.
    expect(admin.locator("main")).to_contain_text("it has Quorum FOR but has been open 0 of 12 hours")
    screenshot(admin, "moved-in-new-proposal.png", full_page=True)
