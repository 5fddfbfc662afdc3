"""Properties of Markdown rendering (``votes.markup``): no script survives any input."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties.html_checks import assert_no_script
from votes.markup import render_markdown

HOSTILE = [
    "<script>alert(1)</script>", "<SCRIPT SRC=//x.example/x.js></SCRIPT>", "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>", "<a href=\"javascript:alert(1)\">x</a>", "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))", "[x](java\nscript:alert(1))", "[x](&#106;avascript:alert(1))",
    "[x](&#x6A;avascript:alert(1))", "[x]( javascript:alert(1))", "[x](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)", "![x](javascript:alert(1))", "<iframe src=//x>",
    "<a href=x onclick=alert(1)>x</a>", "\" onmouseover=\"alert(1)", "<style>*{}</style>", "<<script>>",
    "<scr<script>ipt>", "`<script>`", "```\n<script>\n```", "[x]: javascript:alert(1)\n\n[y][x]",
    "<http://x.example/\" onmouseover=\"alert(1)>", "<javascript:alert(1)>", "*", "_", "[", "]", "(", ")",
    "\n\n", "    ", "> ", "| a | b |\n|---|---|\n| <b onclick=x> | c |", "&", "&lt;script&gt;", "\x00",
]

markdown_texts = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=8)), max_size=10).map("".join)


@settings(max_examples=150, deadline=None)
@given(source=markdown_texts)
def test_no_script_tag_event_handler_or_script_url_survives(source):
    """Whatever a player writes, the stored HTML holds no ``<script``, no ``on…=`` attribute and no
    ``javascript:`` (or other script) URL."""
    assert_no_script(render_markdown(source))
