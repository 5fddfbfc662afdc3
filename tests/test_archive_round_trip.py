"""An archive round trip loses nothing: a game played through the real services, exported, loaded into an
empty database and exported again gives the same archive, the same pages and the same permalinks, and no
beat job tells anyone anything twice.

The game holds what an earlier version of the archive dropped: applications (one still pending), the wiki's
protection log, staff and superuser flags, email addresses and passwords, notifications read and unread,
the enactable and failable flags the beat job sets, a resolution that was reopened and resolved again, a
rename, a Declaration of Victory and its Ascension Address, and a GNDT whose update numbers have a gap.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from blognomic.flows.roster.jobs import idle_candidates_report
from blognomic.flows.roster.services import (
    application_approve,
    application_reject,
    application_submit,
    player_rename,
)
from blognomic.flows.succession.services import AscensionAddress, ascension_address_post
from blognomic.moving.archive import export_archive, import_archive
from blognomic.moving.demo import RULESET_TEXT
from dynasties.jobs import seasonal_hiatus_announce
from dynasties.models import Application, Dynasty, Notification, User
from gndt.models import Column, Row, Update
from gndt.services import (
    gndt_action_save,
    gndt_column_add,
    gndt_effect_save,
    gndt_effects_apply_due,
    gndt_list_set,
    gndt_row_add,
    gndt_rows_add_missing_players,
    gndt_undo,
)
from gndt.services.variables import gndt_variable_add
from ruleset.models import Page, ProtectionChange
from ruleset.services import page_create, page_set_protection, revision_add
from tests.factories import PASSWORD, make_proposal, make_spectator, make_table, vote
from tests.gndt.builders import update as gndt_edit
from tests.steady_pages import steady
from votes.jobs import flag_resolvable_matters, matters_auto_resolve, proposals_mark_stale
from votes.models import Post, Resolution
from votes.posting import post_create
from votes.services import matter_reopen, matter_resolve

pytestmark = pytest.mark.django_db(transaction=True)


def build_rich_game(t0):
    """Play a game through the services; returns the moment it was last looked at."""
    players = make_table(8, start=t0)
    emperor, admin = players[0], players[1]
    for player in players:
        player.email = f"{player.username.lower()}@example.org"
    admin.is_staff = admin.is_superuser = True
    User.objects.bulk_update(players, ["email", "is_staff", "is_superuser"])
    sam = make_spectator("Spectator Sam")
    sam.email = "sam@example.org"
    sam.save()

    # Applications: one approved (a new player), one refused, one still waiting.
    approved = application_submit(
        name="Approved Al", password="a long passphrase 1", message="Let me in", ip_address="203.0.113.5", now=t0
    )
    application_approve(application=approved, admin=admin, now=t0 + timedelta(minutes=5))
    refused = application_submit(
        name="Refused Rex",
        password="a long passphrase 2",
        message="Hi",
        ip_address="203.0.113.6",
        now=t0 + timedelta(minutes=1),
    )
    application_reject(application=refused, admin=admin, now=t0 + timedelta(minutes=6))
    application_submit(
        name="Pending Pat",
        password="a long passphrase 3",
        message="Still waiting",
        ip_address="2001:db8::1",
        now=t0 + timedelta(minutes=2),
    )

    # The wiki: the Ruleset, and a page with its protection log.
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        author=admin,
        text=RULESET_TEXT,
        summary="Seed",
        now=t0 - timedelta(days=30),
        slug="ruleset",
    )
    page = page_create(title="Map", author=players[2], text="The harbour.", summary="start", now=t0)
    revision_add(
        page=page, author=players[3], text="The harbour and the reef.", summary="reef", now=t0 + timedelta(minutes=10)
    )
    page_set_protection(page=page, protected=True, admin=admin, now=t0 + timedelta(minutes=11), reason="Vandals")
    page_set_protection(page=page, protected=False, admin=admin, now=t0 + timedelta(minutes=12), reason="Calm")

    # A proposal enacted, reopened and enacted again; a rename it allows.
    first = make_proposal(players[2], at=t0, title="Proposal: Reopen Me")
    for voter in players[3:7]:
        vote(first, voter, "for", at=t0 + timedelta(hours=1), text="Yes.")
    matter_resolve(post=first, admin=admin, action="enact", now=t0 + timedelta(hours=13))
    matter_reopen(post=first, admin=admin, reason="A CfJ found the count wrong", now=t0 + timedelta(hours=14))
    matter_resolve(post=first, admin=admin, action="enact", now=t0 + timedelta(hours=15))
    first.refresh_from_db()
    player_rename(user=players[7], new_name="Pilot Eight", admin=admin, proposal=first, now=t0 + timedelta(hours=16))
    players[7].refresh_from_db()

    # Pending matters that the beat job flags (and tells the admins about, once).
    second = make_proposal(players[3], at=t0 + timedelta(hours=16), title="Proposal: Flag Me")
    for voter in players[4:8]:
        vote(second, voter, "for", at=t0 + timedelta(hours=17))
    third = make_proposal(players[4], at=t0 + timedelta(hours=16, minutes=1), title="Proposal: Doomed")
    for voter in players[2:8]:
        if voter.pk != third.author_id:
            vote(third, voter, "against", at=t0 + timedelta(hours=17))
    post_create(
        author=players[5],
        kind="story",
        title="A Story",
        body="Once upon a time.",
        flavour="*Salt*",
        now=t0 + timedelta(hours=18),
    )

    # The GNDT, with a hidden column, an action, an effect and its runs, a word list, an undo and a gap.
    dynasty = Dynasty.objects.get(number=1)
    at = t0 - timedelta(days=29)
    gndt_column_add(dynasty=dynasty, by=admin, now=at, name="Oil", kind=Column.INTEGER, default="10")
    gndt_column_add(dynasty=dynasty, by=admin, now=at, name="Secret", kind=Column.TEXT, hidden=True, default="none")
    gndt_rows_add_missing_players(dynasty=dynasty, by=admin, now=at)
    gndt_row_add(dynasty=dynasty, by=admin, now=at, name="The Pot")
    gndt_action_save(dynasty=dynasty, by=admin, now=at, name="Trim", frequency="daily")
    # Each player's own secret, an action only at night, and the variables the sidebar shows.
    gndt_column_add(
        dynasty=dynasty,
        by=admin,
        now=at,
        name="Calling",
        kind=Column.TEXT,
        hidden=True,
        owner_visible=True,
        default="Baker",
    )
    gndt_action_save(dynasty=dynasty, by=admin, now=at, name="Howl", frequency="daily", phase="Nighttime")
    gndt_variable_add(
        dynasty=dynasty,
        by=admin,
        now=t0 + timedelta(hours=16),
        label="The Pot's oil",
        row=Row.objects.get(dynasty=dynasty, name="The Pot"),
        column=Column.objects.get(name="Oil"),
        proposal=first,
    )
    gndt_variable_add(
        dynasty=dynasty, by=admin, now=t0 + timedelta(hours=16), label="Time of day", phase_rule="day-parity"
    )
    gndt_list_set(dynasty=None, name="FISH", entries=["Cod", "Ling"], by=admin, now=at, note="For the nets")
    first_edit = gndt_edit(_game(dynasty, players), players[2], {("P03", "Oil"): "12"}, now=t0, comment="oil")
    # A write that was rolled back leaves a gap in the update numbers, as a database sequence does.
    Update.objects.create(dynasty=dynasty, by=admin, at=t0, comment="rolled back").delete()
    gndt_undo(update=first_edit, by=players[3], now=t0 + timedelta(minutes=1))
    gndt_edit(_game(dynasty, players), emperor, {("P04", "Secret"): "spy"}, now=t0 + timedelta(minutes=2))
    gndt_effect_save(
        dynasty=dynasty,
        by=admin,
        now=t0,
        name="Supply boat",
        column=Column.objects.get(name="Oil"),
        delta=2,
        hour=6,
        starts_at=t0,
    )

    # Victory and a new dynasty: the declaration, its enactment, the Ascension Address.
    dov = post_create(
        author=players[5],
        kind="dov",
        title="Declaration of Victory: Mine",
        body="See the GNDT.",
        now=t0 + timedelta(days=2),
    )
    for voter in (emperor, *players[2:5], players[6], players[7]):
        vote(dov, voter, "for", at=t0 + timedelta(days=2, hours=1))
    matter_resolve(post=dov, admin=admin, action="enact", now=t0 + timedelta(days=2, hours=13))
    gndt_effects_apply_due(now=t0 + timedelta(days=1, hours=7))
    ascension_address_post(
        author=players[5],
        address=AscensionAddress(
            title="",
            body="Welcome aboard.",
            theme="Lighthouses",
            player_term="Keeper",
            emperor_term="Harbourmaster",
            keep_rules=[],
            keep_columns=["Oil", "Secret", "Calling"],
            palette="parchment",
            header_line="Mind the rocks",
            vote_labels={"for": "Aye"},
        ),
        now=t0 + timedelta(days=2, hours=14),
    )
    return t0 + timedelta(days=3)


def _game(dynasty, players):
    from tests.gndt.builders import Game

    return Game(dynasty=dynasty, players=players, emperor=players[0], admin=players[1], start=dynasty.started_at)


def run_every_beat_job(now):
    return [
        flag_resolvable_matters(now=now),
        proposals_mark_stale(now=now),
        matters_auto_resolve(now=now),
        seasonal_hiatus_announce(now=now),
        idle_candidates_report(now=now),
        gndt_effects_apply_due(now=now),
    ]


def page_addresses() -> list[str]:
    urls = [
        "/",
        "/roster/",
        "/gndt/",
        "/gndt/log/",
        "/gndt/dynasty/1/",
        "/gndt/dynasty/1/log/",
        "/wiki/",
        "/dynasties/",
        "/admin-panel/",
        "/core-rules/",
        "/feed/",
    ]
    urls += [post.get_absolute_url() for post in Post.objects.order_by("pk")]
    urls += [reverse("player_detail", args=[name]) for name in User.objects.values_list("username", flat=True)]
    urls += [reverse("gndt_update", args=[pk]) for pk in Update.objects.values_list("pk", flat=True)]
    urls += [f"/dynasties/{number}/" for number in Dynasty.objects.values_list("number", flat=True)]
    for slug in Page.objects.values_list("slug", flat=True):
        urls += [f"/wiki/{slug}/", f"/wiki/{slug}/history/"]
    return sorted(urls)


def render_pages(now) -> dict[tuple[str, str], tuple[int, str]]:
    """Every page as a visitor and as an admin (logged in with the password that must survive)."""
    pages = {}
    with time_machine.travel(now, tick=False):
        viewers = {"visitor": Client(), "admin": Client()}
        assert viewers["admin"].login(username="P02", password=PASSWORD)
        for who, client in viewers.items():
            for url in page_addresses():
                response = client.get(url)
                pages[(who, url)] = (response.status_code, steady(response.content.decode()))
    return pages


def test_a_rich_game_survives_export_flush_import_with_every_page_and_permalink(t0):
    now = build_rich_game(t0)
    run_every_beat_job(now)
    read = Notification.objects.order_by("pk").values_list("pk", flat=True)[:1]
    Notification.objects.filter(pk__in=list(read)).update(read_at=now)  # the admin read one of them
    assert Notification.objects.filter(read_at__isnull=True).exists()
    assert Resolution.objects.filter(outcome=Resolution.REOPENED).exists()
    assert Post.objects.filter(enactable_since__isnull=False).exists()
    assert ProtectionChange.objects.count() == 2
    assert Application.objects.filter(status=Application.PENDING).count() == 1
    before_pages = render_pages(now)
    first = export_archive()
    counts = {
        "resolutions": Resolution.objects.count(),
        "notifications": Notification.objects.count(),
        "updates": sorted(Update.objects.values_list("pk", flat=True)),
    }

    call_command("flush", "--no-input", verbosity=0)
    import_archive(first)

    second = export_archive()
    assert second == first
    assert counts == {
        "resolutions": Resolution.objects.count(),
        "notifications": Notification.objects.count(),
        "updates": sorted(Update.objects.values_list("pk", flat=True)),
    }
    assert User.objects.get(username="P02").is_superuser and User.objects.get(username="P02").is_staff
    assert User.objects.get(username="Spectator Sam").email == "sam@example.org"
    after_pages = render_pages(now)
    assert after_pages.keys() == before_pages.keys()
    for key, (status, html) in before_pages.items():
        assert after_pages[key][0] == status, key
        assert after_pages[key][1] == html, f"{key} renders differently after the round trip"

    mail.outbox.clear()
    notices = Notification.objects.count()
    run_every_beat_job(now)
    assert Notification.objects.count() == notices, "a beat job told someone something again"
    assert not mail.outbox


def as_version_1(archive: dict) -> dict:
    """An archive as version 1 wrote it: without the fields version 2 added."""
    old = {
        key: value
        for key, value in archive.items()
        if key not in ("game", "accounts", "applications", "renames", "notifications")
    }
    old["version"] = 1
    for post in old["posts"]:
        for key in ("resolutions", "enactable_since", "failable_since", "stale_since"):
            post.pop(key, None)
        for comment in post["comments"]:
            comment.pop("pk")
    for part in ("columns", "rows", "actions", "effects", "log"):
        for entry in old["gndt"][part]:
            for key in ("pk", "created_by", *(("column",) if part == "log" else ())):
                entry.pop(key, None)
    return old


def test_a_version_1_archive_still_loads_and_its_hidden_column_updates_stay_secret(t0):
    """Version 1 did not say which column an update was about: the import works it out from the run that
    wrote it or the admin's wording, so a hidden column's settings and effects stay hidden after loading."""
    from tests.gndt.builders import make_gndt

    game = make_gndt(t0)
    role = Column.objects.get(name="Role")
    gndt_effect_save(
        dynasty=game.dynasty,
        by=game.admin,
        now=t0,
        name="Moonrise",
        column=Column.objects.get(name="Money"),
        delta=1,
        starts_at=t0,
    )
    secret = gndt_column_add(
        dynasty=game.dynasty, by=game.admin, now=t0, name="Curse", kind=Column.INTEGER, hidden=True
    )
    gndt_effect_save(dynasty=game.dynasty, by=game.admin, now=t0, name="Hex", column=secret, delta=1, starts_at=t0)
    gndt_effects_apply_due(now=t0 + timedelta(days=1))
    about = dict(Update.objects.values_list("comment", "column__name"))
    old = as_version_1(export_archive())

    call_command("flush", "--no-input", verbosity=0)
    import_archive(old)

    assert dict(Update.objects.values_list("comment", "column__name")) == about
    assert Update.objects.filter(column__name=role.name).exists()
    player = User.objects.get(username="P03")
    shown = Update.objects.visible_to(player, Dynasty.objects.get())
    assert not shown.filter(comment__contains="Curse").exists() and not shown.filter(comment__contains="Hex")
    assert shown.filter(comment__contains="Moonrise").exists()
