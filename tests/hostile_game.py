"""A game with a cross-site scripting payload in every text field a player or an admin can fill, and the
addresses that show them: what the browser's hostile-input test opens in Chromium (on SQLite), and what
``tests/test_hostile_input.py`` requests on both databases.

Fields: post titles, bodies and flavour text; comments; wiki text and edit summaries; GNDT cells, update
comments and word lists (drawn into a roll); player names (through applications, approved or pending); the
Ascension Address's title, body, theme and terms.
"""

from __future__ import annotations

from datetime import timedelta

from blognomic.flows.roster.services import RosterError, application_approve, application_submit
from blognomic.flows.succession.services import AscensionAddress, ascension_address_post
from dynasties.models import Application, Dynasty, User
from gndt.models import Cell, Column, Update
from gndt.services import gndt_column_add, gndt_list_set, gndt_rows_add_missing_players, gndt_update
from ruleset.models import Page
from ruleset.services import page_create, revision_add
from tests.factories import make_table, vote
from votes.models import Post
from votes.posting import post_create
from votes.services import comment_add, matter_resolve

RUN = "window.__xss=1;alert(1)"
# Classic vectors: tags, handlers, javascript: addresses, SVG and MathML parsing tricks, broken quoting,
# entities that must stay text, Markdown's link and image syntax, and a right-to-left override.
PAYLOADS = [
    f"<script>{RUN}</script>",
    f'<img src=x onerror="{RUN}">',
    f"<svg onload={RUN}>",
    f"<svg><script>{RUN}</script></svg>",
    f'"><script>{RUN}</script>',
    f"' onmouseover='{RUN}' x='",
    f'" autofocus onfocus="{RUN}" x="',
    f'<a href="javascript:{RUN}">a link</a>',
    f"[a Markdown link](javascript:{RUN})",
    f"[an encoded link](jav&#x09;ascript:{RUN})",
    f'![an image](x" onerror="{RUN})',
    f'<math><mtext><table><mglyph><style><img src=x onerror="{RUN}">',
    f'<iframe src="javascript:{RUN}"></iframe>',
    f'<details open ontoggle="{RUN}">',
    f"&lt;script&gt;{RUN}&lt;/script&gt;",
    f"</textarea><script>{RUN}</script>",
    f"</title><script>{RUN}</script>",
    '<object data="data:text/html,<script>parent.__xss=1</script>"></object>',
    f'<form><button formaction="javascript:{RUN}">go</button></form>',
    f'<input autofocus onfocus="{RUN}">',
    "{{ request.user }}{% debug %}",
    f'\u202etxt.exe <b onclick="{RUN}">reversed</b>',
    f'<div hx-get="/" hx-trigger="load" hx-on::before-request="{RUN}">htmx</div>',
    f'<div data-hx-get="/" data-hx-trigger="load" data-hx-on::before-request="{RUN}">htmx</div>',
]
# Names may hold punctuation but not "/": the payloads without one are tried as players' names.
NAMES = [p for p in PAYLOADS if "/" not in p and len(p) <= 150 and p == p.strip()]
ALL_TEXT = "\n\n".join(PAYLOADS)


def title_groups() -> list[str]:
    """The payloads as few post titles as will hold them (a title is at most 300 characters)."""
    titles, title = [], "Story:"
    for payload in PAYLOADS:
        if len(title) + len(payload) + 1 > 300:
            titles.append(title)
            title = "Story:"
        title += " " + payload
    return [*titles, title]


def fill_every_field(now):
    """Put every payload into every field, through the same services the pages use."""
    players = make_table(6, start=now - timedelta(days=10))
    emperor, admin, author = players[0], players[1], players[2]
    for i, titles in enumerate(title_groups()):
        post_create(
            author=players[2 + i % 4],
            kind="story",
            title=titles,
            body=ALL_TEXT,
            flavour=ALL_TEXT,
            now=now - timedelta(days=5, minutes=i),
        )
    proposal = post_create(
        author=author,
        kind="proposal",
        title="Proposal: <script>alert(1)</script> Ships",
        body=ALL_TEXT,
        flavour=ALL_TEXT,
        now=now - timedelta(days=4),
    )
    for i, payload in enumerate(PAYLOADS):
        comment_add(
            post=proposal,
            author=players[3 + i % 3],
            text=payload,
            now=now - timedelta(days=4) + timedelta(minutes=i + 1),
        )
    page = page_create(
        title="Harbour <b onclick=alert(1)>Map</b>",
        author=author,
        text=ALL_TEXT,
        summary=PAYLOADS[1][:300],
        now=now - timedelta(days=4),
    )
    for i, payload in enumerate(PAYLOADS[:6]):
        revision_add(
            page=page,
            author=players[3],
            text=ALL_TEXT + "\n\n" + payload,
            summary=payload[:300],
            now=now - timedelta(days=4) + timedelta(minutes=i + 1),
        )
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        author=admin,
        slug="ruleset",
        text="== Core Rules ==\n=== Hostile ===\n" + ALL_TEXT,
        now=now - timedelta(days=4),
    )

    dynasty = Dynasty.objects.get()
    gndt_column_add(dynasty=dynasty, by=admin, now=now - timedelta(days=3), name="Notes <svg onload=alert(1)>")
    gndt_column_add(dynasty=dynasty, by=admin, now=now - timedelta(days=3), name="Secret", hidden=True)
    gndt_rows_add_missing_players(dynasty=dynasty, by=admin, now=now - timedelta(days=3))
    gndt_list_set(
        dynasty=None,
        name="FRUIT",
        entries=[p for p in PAYLOADS if len(p) <= 100],
        by=admin,
        now=now - timedelta(days=3),
        note=PAYLOADS[2],
    )
    notes = Column.objects.get(name__startswith="Notes")
    for i, payload in enumerate(PAYLOADS):
        row = players[2 + i % 4].username
        seen = Cell.objects.get(row__name=row, column=notes).value
        gndt_update(
            dynasty=dynasty,
            by=players[2 + i % 4],
            changes={(row, notes.name): payload},
            seen={(row, notes.name): seen},
            comment=f"FRUIT {payload}",
            now=now - timedelta(days=3) + timedelta(minutes=i),
        )
    gndt_update(
        dynasty=dynasty,
        by=emperor,
        changes={(author.username, "Secret"): PAYLOADS[0]},
        seen={(author.username, "Secret"): ""},
        comment=PAYLOADS[3],
        now=now - timedelta(days=3, minutes=-30),
    )

    dov = post_create(
        author=author, kind="dov", title=f"DoV: {PAYLOADS[4]}", body=ALL_TEXT, now=now - timedelta(days=1, hours=14)
    )
    for voter in (emperor, *players[3:6]):
        vote(dov, voter, "for", at=now - timedelta(days=1, hours=13), text=PAYLOADS[5])
    matter_resolve(post=dov, admin=admin, action="enact", now=now - timedelta(days=1))
    ascension_address_post(
        author=author,
        address=AscensionAddress(
            title=f"Ascension Address: {PAYLOADS[16]}"[:300],
            body=ALL_TEXT,
            theme=PAYLOADS[1],
            player_term="<script>alert(1)",
            emperor_term='"><b>Harbour',
            keep_rules=[],
            keep_columns=[notes.name],
        ),
        now=now - timedelta(hours=23),
    )
    accepted = 0
    for i, name in enumerate(NAMES):
        try:
            application = application_submit(
                name=name,
                password="a long passphrase",
                message=PAYLOADS[i],
                ip_address=None,
                now=now - timedelta(hours=3),
            )
        except RosterError:
            continue
        accepted += 1
        if i % 2 == 0:
            application_approve(application=application, admin=admin, now=now - timedelta(hours=2))
    assert accepted >= 5 and Application.objects.filter(status=Application.PENDING).exists()

    return admin


# A visitor sees the same escaped text as an admin, so a few public pages are enough for the second pass.
VISITOR_PAGES = [
    "/",
    "/gndt/",
    "/gndt/dynasty/1/",
    "/gndt/dynasty/1/log/",
    "/wiki/ruleset/",
    "/dynasties/1/",
    "/category/story/",
    "/dynasties/2/",
]


def addresses() -> list[str]:
    urls = [
        "/",
        "/roster/",
        "/join/",
        "/dynasties/",
        "/admin-panel/",
        "/core-rules/",
        "/wiki/",
        "/ascension/",
        "/gndt/",
        "/gndt/log/",
        "/gndt/dynasty/1/",
        "/gndt/dynasty/1/log/",
        "/gndt/manage/",
        "/category/story/",
        "/gndt/edit/",
    ]
    urls += [post.get_absolute_url() for post in Post.objects.all()]
    urls += [f"/gndt/updates/{pk}/" for pk in Update.objects.values_list("pk", flat=True)[:8]]
    for slug in Page.objects.values_list("slug", flat=True):
        urls += [
            f"/wiki/{slug}/",
            f"/wiki/{slug}/history/",
            f"/wiki/{slug}/r/1/",
            f"/wiki/{slug}/diff/1/latest/",
            f"/wiki/{slug}/diff/1/latest/?view=side",
            f"/wiki/{slug}/edit/",
        ]
    urls += [f"/gndt/manage/columns/{pk}/" for pk in Column.objects.values_list("pk", flat=True)]
    urls += [f"/players/{name}/" for name in User.objects.values_list("username", flat=True)]
    urls += [f"/dynasties/{n}/" for n in Dynasty.objects.values_list("number", flat=True)]
    return [*urls, "/notices/"]
