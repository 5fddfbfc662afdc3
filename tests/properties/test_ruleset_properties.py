"""Properties of the structured Ruleset (``ruleset.structure``) and its HTML (``ruleset.render``).

- Parsing the canonical markup of a parsed ruleset gives back the same ruleset (parse ∘ serialize ∘ parse
  = parse), and the canonical markup is a fixed point.
- No text makes the parser, the renderers or rule lookup raise, and the HTML carries no script.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleset.render import render_ruleset_html, render_wiki_html
from ruleset.structure import changed_rule_anchors, parse_ruleset, serialize_ruleset
from tests.properties.html_checks import assert_no_script
from tests.properties.profiles import examples

titles = st.one_of(
    st.sampled_from(
        [
            "Core Rules",
            "Dynasties",
            "Keywords",
            "Appendix",
            "Glossary",
            "",
            "=",
            "Rule 1.2",
            "“Quoted”",
            "<script>alert(1)</script>",
            "a == b",
            "Ünïcödé",
            "  spaced  ",
        ]
    ),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=12),
)
body_lines = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "* A bullet",
            "** Nested",
            "# One",
            "## Two",
            "; Term",
            ": Its definition",
            "; Quorum: half plus one",
            "See Rule 1.2 and rules 2.1, 2.3.1 or 3.1.",
            "As “Dynasties” says.",
            "'''Bold''' and ''italic''",
            "''' unbalanced",
            "http://example.org/x?y=1).",
            "javascript:alert(1)",
            "<img src=x onerror=alert(1)>",
            '" onmouseover="alert(1)',
            "&amp; &lt;",
            " preformatted map  |  |",
            "==",
            "=== ===",
            "== x",
            "x ==",
            "\t",
            "\x00",
            "\u202e reversed",
        ]
    ),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=20),
)


@st.composite
def ruleset_texts(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(min_value=0, max_value=14))):
        if draw(st.booleans()):
            marks = "=" * draw(st.integers(min_value=1, max_value=7))
            space = draw(st.sampled_from(["", " ", "\t"]))
            lines.append(f"{marks}{space}{draw(titles)}{space}{marks}{draw(st.sampled_from(['', ' ', '  ']))}")
        else:
            lines.append(draw(body_lines))
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)


@settings(max_examples=examples(200))
@given(text=ruleset_texts())
def test_parse_serialize_parse_is_parse(text):
    """``serialize_ruleset(parse_ruleset(text))`` is the canonical form: parsing it gives an equal Ruleset,
    with the same numbers and anchors, and serializing again changes nothing."""
    parsed = parse_ruleset(text)
    canonical = serialize_ruleset(parsed)
    again = parse_ruleset(canonical)
    assert again == parsed
    assert [(rule.number, rule.anchor) for rule in again.all_rules()] == [
        (rule.number, rule.anchor) for rule in parsed.all_rules()
    ]
    assert serialize_ruleset(again) == canonical
    assert changed_rule_anchors(text, canonical) == set()


@settings(max_examples=examples(200))
@given(text=ruleset_texts(), ref=st.one_of(titles, st.sampled_from(["1.1", "Rule 2.3.1", "rule-dynasties", "9" * 30])))
def test_any_text_renders_safely_and_every_rule_keeps_its_anchor(text, ref):
    """No text makes the renderers raise; the HTML holds no script, and each rule's anchor is on the page
    exactly once, so links to it work."""
    parsed = parse_ruleset(text)
    html = render_ruleset_html(parsed, rule_history_url=lambda anchor: f"/wiki/ruleset/rule/{anchor}/history/")
    assert_no_script(html)
    for rule in parsed.all_rules():
        assert html.count(f' id="{rule.anchor}"') == 1
    assert_no_script(render_wiki_html(text))
    found = parsed.find(ref)
    assert found is None or found in list(parsed.all_rules())
