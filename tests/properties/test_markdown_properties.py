"""Properties of Markdown rendering (``votes.markup``): no script survives any input."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties.html_checks import assert_no_script
from tests.properties.profiles import examples
from votes.markup import _plain_paragraph, _render_through_markdown, render_markdown

HOSTILE = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=//x.example/x.js></SCRIPT>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](java\nscript:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](&#x6A;avascript:alert(1))",
    "[x]( javascript:alert(1))",
    "[x](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "![x](javascript:alert(1))",
    "<iframe src=//x>",
    "<a href=x onclick=alert(1)>x</a>",
    '" onmouseover="alert(1)',
    "<style>*{}</style>",
    "<<script>>",
    "<scr<script>ipt>",
    "`<script>`",
    "```\n<script>\n```",
    "[x]: javascript:alert(1)\n\n[y][x]",
    '<http://x.example/" onmouseover="alert(1)>',
    "<javascript:alert(1)>",
    "*",
    "_",
    "[",
    "]",
    "(",
    ")",
    "\n\n",
    "    ",
    "> ",
    "| a | b |\n|---|---|\n| <b onclick=x> | c |",
    "&",
    "&lt;script&gt;",
    "\x00",
]

markdown_texts = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=8)), max_size=10).map("".join)


@settings(max_examples=examples(150))
@given(source=markdown_texts)
def test_no_script_tag_event_handler_or_script_url_survives(source):
    """Whatever a player writes, the stored HTML holds no ``<script``, no ``on…=`` attribute and no
    ``javascript:`` (or other script) URL."""
    assert_no_script(render_markdown(source))


PLAIN_ALPHABET = st.sampled_from(
    list("abcXYZé漢 .,;:'\"?!()/-0123456789$%@^“”—\t\n\r\x00\u00a0\u200f") + list("\\`*_[]<>&|~{}#=+")
)


@settings(max_examples=examples(3000))
@given(st.lists(PLAIN_ALPHABET, max_size=30).map("".join))
def test_the_plain_text_shortcut_renders_exactly_as_markdown_would(text):
    """Text taken as a plain paragraph comes out as the full Markdown renderer and sanitiser make it."""
    if _plain_paragraph(text):
        assert render_markdown(text) == _render_through_markdown(text)


@settings(max_examples=examples(500))
@given(st.text(max_size=40))
def test_the_plain_text_shortcut_agrees_on_any_text(text):
    if _plain_paragraph(text):
        assert render_markdown(text) == _render_through_markdown(text)


def test_common_comments_take_the_shortcut():
    for text in ("For.", "Against: the second clause breaks it.", "Reluctantly for (see my “note”)."):
        assert _plain_paragraph(text)
        assert render_markdown(text) == _render_through_markdown(text)
    for text in ("- a list", "1. first", "# heading", "*stress*", "a\nb", "trailing ", "", " lead"):
        assert not _plain_paragraph(text)
