"""A dynasty's theme (``dynasties.theming``), pure.

Ruleset 21 (2005) counts the look of the blog as gamestate: “such as Families' names and Thalers totals, or
the blog colour scheme”, and lets its Duke “change the BlogNomic header, the colour scheme and the VETO icon”.
"""

from __future__ import annotations

import pytest

from dynasties.theming import (
    DEFAULT_PALETTE,
    HEADER_LINE_MAX,
    PALETTES,
    ThemeError,
    theme_from,
)


def test_an_empty_theme_is_the_default_look():
    theme = theme_from()
    assert theme.palette == DEFAULT_PALETTE and theme.header_line == ""
    assert [theme.label(icon) for icon in ("for", "against", "deferential")] == ["FOR", "AGAINST", "DEFERENTIAL"]


def test_a_named_palette_a_header_line_and_vote_names_are_kept():
    """“the BlogNomic header, the colour scheme” and the names of the icons."""
    theme = theme_from(
        palette="midnight", header_line="  The wolves are abroad  ", vote_labels={"for": "Aye", "against": "Nay"}
    )
    assert theme.palette == "midnight" and theme.header_line == "The wolves are abroad"
    assert theme.label("for") == "Aye" and theme.label("against") == "Nay"
    assert theme.label("deferential") == "DEFERENTIAL"


@pytest.mark.parametrize(
    "kwargs, reason",
    [
        ({"palette": "#ff0000"}, "no palette"),
        ({"palette": "harbour; background: red"}, "no palette"),
        ({"header_line": "x" * (HEADER_LINE_MAX + 1)}, "at most"),
        ({"header_line": "two\nlines"}, "line breaks"),
        ({"header_line": "nul\x00"}, "control"),
        ({"vote_labels": {"for": "\u202eYA"}}, "direction"),
        ({"vote_labels": {"against": "N" * 25}}, "at most"),
    ],
)
def test_bad_themes_are_refused_with_a_reason(kwargs, reason):
    with pytest.raises(ThemeError, match=reason):
        theme_from(**kwargs)


def test_every_palette_has_a_block_in_the_stylesheet():
    from pathlib import Path

    css = (Path(__file__).resolve().parent.parent / "static" / "css" / "site.css").read_text()
    for name in PALETTES:
        if name != DEFAULT_PALETTE:
            assert f'[data-palette="{name}"]' in css, name


def test_no_selector_in_the_stylesheet_reaches_from_one_part_of_a_page_into_another():
    """The accessibility checks leave out a header or sidebar already checked with the same markup
    (``tests/e2e/test_accessibility.py``). That is sound while no rule styles one part of a page by what another
    holds: no ``:has()`` and no sibling combinator (``+``, ``~``)."""
    import re
    from pathlib import Path

    css = (Path(__file__).resolve().parent.parent / "static" / "css" / "site.css").read_text()
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    selectors = [prelude.strip() for prelude in re.findall(r"([^{}]+)\{", css) if not prelude.strip().startswith("@")]
    assert len(selectors) > 100  # the stylesheet was read, rule by rule
    reaching = []
    for selector in selectors:
        plain = re.sub(r"\[[^\]]*\]|:nth-[a-z-]+\([^()]*\)", "", selector)  # attribute values and 2n+1 aside
        if ":has(" in selector or re.search(r"[+~]", plain):
            reaching.append(selector)
    assert not reaching, reaching
