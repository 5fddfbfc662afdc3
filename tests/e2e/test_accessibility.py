"""axe-core in Chromium over every main page of the demo game, as a visitor, a player and an admin, at a
desktop's and a phone's width, checking WCAG 2.2 A and AA; and the colour contrast of every palette.

Run on SQLite alone (``one_database``): what a browser shows does not depend on it.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone

from blognomic.moving.demo import build_demo
from dynasties.theming import PALETTES
from tests.main_pages import ACCOUNTS, ADMIN, DESKTOP, PASSWORD, PLAYER, VISITOR, WIDTHS, pages_for

pytestmark = [pytest.mark.e2e, pytest.mark.one_database, pytest.mark.django_db(transaction=True)]

WCAG_22_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
# axe leaves these for a person to review when the element has text; on this site each is a plain mistake
# (aria-label on an element with no role, which assistive technology is free to ignore).
FAIL_WHEN_UNSURE = {"aria-prohibited-attr"}
AXE = Axe()

# WCAG 2.5.3 Label in Name, as its understanding document advises: a control's accessible name starts with
# the words it shows, so a speech user who says what they see reaches it. axe's own rule only asks that
# the name contain them.
LABEL_STARTS_WITH_TEXT = """() => [...document.querySelectorAll("a[aria-label], button[aria-label]")]
  .filter((el) => {
    const shown = el.innerText.trim().toLowerCase();
    return shown && !el.getAttribute("aria-label").trim().toLowerCase().startsWith(shown);
  })
  .map((el) => `${el.tagName.toLowerCase()} "${el.innerText.trim()}" named "${el.getAttribute("aria-label")}"`)"""


# Resolves once the page has laid itself out and run its resize handlers: two animation frames.
AFTER_LAYOUT = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


# The parts of every page that base.html draws around its content, which most pages an admin opens show with the
# same markup. Checking their contrast again under each palette on every page was a quarter of the palettes' test.
FRAME = ("header.site-header", "aside.sidebar")
# Each part's markup, with the attributes of <html> (the palette among them), from which it inherits. What changes
# from one request to the next changes nothing seen: the clock's time (no digit changes a colour, a size or a
# weight) and the log-out form's hidden CSRF token.
FRAME_MARKUP = """(selectors) => selectors.map((selector) => {
  const part = document.querySelector(selector);
  if (!part) return null;
  const copy = part.cloneNode(true);
  for (const clock of copy.querySelectorAll("time.clock")) {
    clock.textContent = clock.textContent.replace(/[0-9]/g, "0");
    clock.setAttribute("datetime", "");
  }
  for (const token of copy.querySelectorAll("input[type=hidden][name=csrfmiddlewaretoken]")) {
    token.setAttribute("value", "");
  }
  const root = [...document.documentElement.attributes].map((attribute) => `${attribute.name}=${attribute.value}`);
  return [root.join(" "), copy.outerHTML];
})"""


class ContrastChecked:
    """The frame's parts whose contrast was already checked, so that a part shown again as it was is not.

    Sound because nothing outside a part changes the colours in it: site.css has no selector that reaches from
    one part of a page into another (no ``:has()``, no sibling combinator: ``test_theming`` holds it), nothing
    is positioned over the frame, and what it inherits comes from <html>, whose attributes are compared too.
    Only for contrast: other checks (a control's target size, for one) measure the space to its neighbours."""

    def __init__(self) -> None:
        self._seen: set[tuple] = set()

    def unchanged(self, page, width: str) -> list[str]:
        """The selectors of the parts this page shows as they were when checked before at this width; the
        others are remembered as checked from now on."""
        unchanged = []
        for selector, markup in zip(FRAME, page.evaluate(FRAME_MARKUP, list(FRAME)), strict=True):
            if markup is None:
                continue
            key = (width, selector, *markup)
            if key in self._seen:
                unchanged.append(selector)
            self._seen.add(key)
        return unchanged


def axe_violations(page, rules: list[str] | None = None, *, skip: list[str] = ()) -> list[dict]:
    """axe's violations on the page as it is now, of ``rules`` or else of every WCAG 2.2 A and AA rule, outside
    the parts ``skip`` selects. The page is one of a ``checking_context``'s, so axe is in it already."""
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": WCAG_22_A_AA}
    options = {"runOnly": only, "resultTypes": ["violations"]}
    context = {"exclude": [[selector] for selector in skip]} if skip else None
    results = page.evaluate("([context, options]) => axe.run(context || document, options)", [context, options])
    unsure = [found for found in results["incomplete"] if found["id"] in FAIL_WHEN_UNSURE]
    return results["violations"] + unsure


def checking_context(browser, base: str, role: str, viewport: dict):
    """A browser context signed in as ``role``, whose every page has axe in it from the start: its half-megabyte
    script is given to the context once rather than sent from Python to each page (50–80 ms a page here, more
    than a contrast check of a plain page), and no check has to know whether its page has it yet."""
    context = browser.new_context(viewport=viewport)
    context.add_init_script(AXE.axe_script)
    if ACCOUNTS[role]:
        page = context.new_page()
        page.goto(f"{base}/accounts/login/?next=/")
        page.fill("input[name=username]", ACCOUNTS[role])
        page.fill("input[name=password]", PASSWORD)
        page.click("form.stacked button[type=submit]")
        page.wait_for_url(f"{base}/")
        page.close()
    return context


def describe(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{rule}: {len(where)} × e.g. {where[:3]}" for rule, where in sorted(found.items()))


@pytest.fixture
def demo(live_server):
    build_demo(now=timezone.now())
    return live_server.url


# The pages a phone's width is checked on in every palette (``tests/main_pages.py`` names them).
PHONE_PALETTE_PAGES = frozenset({"front page", "proposal", "call for judgement", "gndt"})


def palette_shortfalls(page, label: str, width: str, checked: ContrastChecked) -> dict[str, list[str]]:
    """The elements of the page as it is now that fall short of WCAG AA contrast in each palette but its own
    (which the full axe run checked), by palette; the page is left in its own palette."""
    found: dict[str, list[str]] = defaultdict(list)
    own = page.evaluate("() => document.documentElement.dataset.palette")
    for palette in (name for name in PALETTES if name != own):
        # The palette is the <html> element's data-palette, as a dynasty's Ascension Address sets it.
        page.evaluate("(name) => document.documentElement.dataset.palette = name", palette)
        skip = checked.unchanged(page, width)
        for violation in axe_violations(page, ["color-contrast"], skip=skip):
            for node in violation["nodes"]:
                ratio = node["any"][0]["data"]["contrastRatio"] if node["any"] else "?"
                found[palette].append(f"{label} ({width}) {node['target'][0]} at {ratio}:1")
    # Its own again, for the checks still to come at this width or the next (an <html> with none had none).
    page.evaluate(
        "(name) => name ? (document.documentElement.dataset.palette = name) : "
        "delete document.documentElement.dataset.palette",
        own,
    )
    return found


def walk(browser, base: str, role: str, *, palettes: bool = False) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Every main page this role opens, loaded once and checked at each width: axe's WCAG 2.2 A and AA rules and
    WCAG 2.5.3's label in name, by rule; with ``palettes``, each other palette's contrast too (every page at a
    desktop's width, ``PHONE_PALETTE_PAGES`` at a phone's), by palette."""
    violations: dict[str, list[str]] = defaultdict(list)
    shortfalls: dict[str, list[str]] = defaultdict(list)
    checked = ContrastChecked()
    context = checking_context(browser, base, role, DESKTOP)
    page = context.new_page()
    pages = pages_for(role)
    unknown = PHONE_PALETTE_PAGES - {main_page.name for main_page in pages} if palettes else set()
    assert not unknown, f"no such main page for {role}: {sorted(unknown)}"
    for main_page in pages:
        page.set_viewport_size(DESKTOP)
        page.goto(base + main_page.path)
        # Resized, the page follows the phone's media queries, and its one script that reads the layout (the
        # scroll hints) runs again on the resize.
        for at, (width, viewport) in enumerate(WIDTHS.items()):
            if at:
                page.set_viewport_size(viewport)
                page.evaluate(AFTER_LAYOUT)
            for violation in axe_violations(page):
                for node in violation["nodes"]:
                    violations[violation["id"]].append(f"{main_page.name} ({width}): {node['target'][0]}")
            for control in page.evaluate(LABEL_STARTS_WITH_TEXT):
                violations["label-in-name (starts with the shown text)"].append(
                    f"{main_page.name} ({width}): {control}"
                )
            if palettes and (width == "desktop" or main_page.name in PHONE_PALETTE_PAGES):
                for palette, where in palette_shortfalls(page, main_page.path, width, checked).items():
                    shortfalls[palette] += where
    context.close()
    return violations, shortfalls


@pytest.mark.parametrize("role", [VISITOR, PLAYER])
def test_every_main_page_passes_axe_at_both_widths(browser, demo, role):
    """axe-core finds no WCAG 2.2 A or AA violation on any main page this role opens, on a desktop or a
    phone ("colour contrast of the AGAINST label; table-of-contents links 18 px high; GNDT cell links whose
    accessible name doesn't start with the visible value; aria-describedby pointing at missing ids; a
    duplicate id; aria-label on a <div> with no role")."""
    found, _ = walk(browser, demo, role)
    count = sum(len(where) for where in found.values())
    assert not found, f"{count} violations over {len(pages_for(role))} pages × 2 widths as a {role}:\n{describe(found)}"


def test_every_admin_page_passes_axe_at_both_widths_and_has_enough_contrast_in_every_palette(browser, demo):
    """As for a visitor and a player, on every page an admin opens; and every palette passes WCAG AA contrast on
    each of them, header included, and on a phone's front page, matter and GNDT ("The Ember palette's header
    fails contrast (2.2:1 for Log out, 2.4:1 for the clock); the AGAINST label on a post is 2.2:1"). One walk
    for both: the palettes are checked on the page axe has just checked, not loaded again."""
    found, short = walk(browser, demo, ADMIN, palettes=True)
    count, below = (sum(len(where) for where in each.values()) for each in (found, short))
    pages = len(pages_for(ADMIN))
    assert not found, f"{count} violations over {pages} pages × 2 widths as an admin:\n{describe(found)}"
    assert not short, f"{below} elements short of WCAG AA contrast:\n{describe(short)}"


def test_a_part_of_the_frame_is_left_out_of_a_contrast_check_only_when_shown_as_it_was_checked(browser):
    """What lets the palettes' test check the header and the sidebar once: a part is left out only when its
    markup, and the palette it inherits, are those of a part already checked at the same width; the clock's
    time and the CSRF token are all that may differ."""
    page = browser.new_page()
    checked = ContrastChecked()

    def show(palette: str, clock: str, token: str, pending: str, width: str = "desktop") -> list[str]:
        page.set_content(
            f'<html data-palette="{palette}"><body><header class="site-header">'
            f'<time class="clock" datetime="2026-11-28T{clock}Z">Sat 28 Nov 2026 {clock} UTC</time>'
            f'<form><input type="hidden" name="csrfmiddlewaretoken" value="{token}"><button>Log out</button></form>'
            f'</header><aside class="sidebar"><a href="/p/1/">{pending}</a></aside></body></html>'
        )
        return checked.unchanged(page, width)

    assert show("harbour", "10:00:00", "first", "Lamps") == []
    assert show("harbour", "10:00:07", "second", "Lamps") == ["header.site-header", "aside.sidebar"]
    assert show("harbour", "10:00:09", "third", "Lanterns") == ["header.site-header"]
    assert show("ember", "10:00:09", "third", "Lanterns") == []
    assert show("ember", "10:00:11", "fourth", "Lanterns", width="phone") == []
    page.close()
