"""HTML rendering of rule bodies and of the whole ruleset: escaping, lists and links between rules."""

from __future__ import annotations

import re

import pytest

from ruleset.render import render_rule_body, render_ruleset_html, render_toc_html
from ruleset.structure import parse_ruleset

RULESET = parse_ruleset(
    "== Core Rules ==\n"
    "=== Ruleset and Gamestate ===\nThe basics.\n"
    "=== Dynasties ===\nEach dynasty has a Pirate.\n"
    "==== Hiatus ====\nA pause.\n"
    "== Dynastic Rules ==\n"
    "=== Elixirs ===\nDrink up.\n"
    '=== Odd <Title> & "Quotes" ===\nStrange.\n'
)


def render(body: str, **kwargs) -> str:
    return render_rule_body(body, ruleset=RULESET, **kwargs)


def test_text_is_escaped():
    """HTML in rule text outside the wiki's small allow-list is shown as text, never interpreted; allowed
    tags (BlogNomic's rules use <b>, <s>, <br/>) are drawn without their attributes."""
    html = render("<script>alert('x')</script> & <b onclick=\"x()\">bold</b>")
    assert "<script>" not in html and "onclick" not in html
    assert "&lt;script&gt;alert('x')&lt;/script&gt; &amp; <b>bold</b>" in html


def test_blank_lines_separate_paragraphs_and_single_newlines_break_lines():
    """Paragraphs are separated by blank lines; a lone newline is a line break."""
    assert render("one\ntwo\n\nthree") == "<p>one<br>\ntwo</p>\n<p>three</p>"


def test_bullets_become_nested_lists():
    """'* ' items form a list; '** ' nests inside the item above."""
    assert render("* a\n* b\n** c\n* d") == "<ul><li>a</li><li>b<ul><li>c</li></ul></li><li>d</li></ul>"


def test_hash_items_become_ordered_lists_and_a_change_of_marker_starts_a_new_list():
    """'# ' items are numbered; switching between * and # closes one list and opens the other."""
    assert render("# one\n# two\n* three") == "<ol><li>one</li><li>two</li></ol><ul><li>three</li></ul>"


def test_a_list_may_start_deeper_than_the_first_level():
    """A list starting at '**' still produces well-formed nesting."""
    assert render("** deep") == "<ul><li><ul><li>deep</li></ul></li></ul>"


def test_definition_lines_become_a_definition_list():
    """'; term' and ': definition' lines become <dt> and <dd>; '; term : definition' works on one line."""
    assert render("; Quorum\n: Half plus one.\n; Day : A calendar day.") == (
        "<dl><dt>Quorum</dt><dd>Half plus one.</dd><dt>Day</dt><dd>A calendar day.</dd></dl>"
    )


def test_paragraph_list_and_paragraph_follow_each_other():
    """A list between paragraphs keeps its place."""
    html = render("Intro:\n* a\n* b\nAfter.")
    assert html == "<p>Intro:</p>\n<ul><li>a</li><li>b</li></ul>\n<p>After.</p>"


def test_rule_number_references_link_to_the_rule_anchor():
    """'Rule 1.2' links to the rule's anchor, with the number as the link text."""
    html = render("See Rule 1.2 and rule 1.2.1.")
    assert 'Rule <a class="rule-ref" href="#rule-dynasties" title="1.2 Dynasties">1.2</a>' in html
    assert 'rule <a class="rule-ref" href="#rule-hiatus" title="1.2.1 Hiatus">1.2.1</a>.' in html


def test_each_number_of_a_list_of_rules_links():
    """'Rules 1.1, 1.2 and 1.2.1' links each number."""
    html = render("Rules 1.1, 1.2 and 1.2.1 apply.")
    assert re.findall(r'href="#([^"]+)"', html) == [
        "rule-ruleset-and-gamestate",
        "rule-dynasties",
        "rule-hiatus",
    ]


def test_a_reference_to_a_missing_rule_stays_plain_text():
    """A number that names no rule is not linked."""
    assert render("Rule 9.9 is gone.") == "<p>Rule 9.9 is gone.</p>"


@pytest.mark.parametrize("quoted", ["“Dynasties”", '"Dynasties"', "“dynasties”"])
def test_a_quoted_rule_title_links_inside_its_quotes(quoted):
    """The exact title of a rule in straight or curly quotes links to it; the quotes stay outside."""
    html = render(f"the rule {quoted} says")
    name = quoted[1:-1]
    expected = f'<a class="rule-ref" href="#rule-dynasties" title="1.2 Dynasties">{name}</a>'
    assert expected in html
    assert html.count("rule-ref") == 1


def test_punctuation_inside_the_quotes_is_not_part_of_the_title():
    """'as described in the rule “Elixirs.”' links Elixirs and keeps the full stop."""
    html = render("as described in the rule “Elixirs.”")
    assert '“<a class="rule-ref" href="#rule-elixirs" title="2.1 Elixirs">Elixirs</a>.”' in html


def test_quoted_text_that_is_not_a_rule_title_is_left_alone_but_its_contents_still_render():
    """Quotes around other words are just text, and a reference inside them still links."""
    html = render('"Hello there" and "see Rule 1.1"')
    assert html.startswith("<p>&quot;Hello there&quot; and &quot;see Rule <a ")
    assert 'href="#rule-ruleset-and-gamestate"' in html


def test_only_whole_quoted_titles_link():
    """A quotation that merely contains a title is not a reference to the rule."""
    assert "rule-ref" not in render("“Dynasties of old”")


def test_url_for_anchor_builds_reference_links():
    """Callers decide where references point, e.g. at an old revision's page."""
    html = render("Rule 1.1", url_for_anchor=lambda anchor: f"/ruleset/r37/#{anchor}")
    assert 'href="/ruleset/r37/#rule-ruleset-and-gamestate"' in html


def test_web_addresses_become_links_without_trailing_punctuation():
    """http(s) addresses link, with the query escaped and trailing punctuation left outside."""
    html = render("Visit http://example.com/a?b=1&c=2).")
    assert '<a href="http://example.com/a?b=1&amp;c=2" rel="nofollow">http://example.com/a?b=1&amp;c=2</a>).' in html


def test_other_schemes_are_not_linked():
    """javascript: and other schemes stay text."""
    assert "<a" not in render("javascript:alert(1) data:text/html,x")


def test_wiki_emphasis_is_rendered_and_always_balanced():
    """''italic'' and '''bold''' render; unclosed or crossed emphasis still gives well-formed HTML."""
    assert render("''flavour'' and '''bold'''") == "<p><em>flavour</em> and <strong>bold</strong></p>"
    assert render("''open") == "<p><em>open</em></p>"
    assert render("''a '''b'' c'''") == "<p><em>a <strong>b</strong></em><strong> c</strong></p>"


def test_rendering_without_a_ruleset_links_nothing():
    """A body can be rendered alone; references then stay text."""
    assert render_rule_body("Rule 1.1 and “Dynasties”") == "<p>Rule 1.1 and “Dynasties”</p>"


def test_empty_body_renders_to_nothing():
    """An empty body gives an empty string."""
    assert render("") == ""


def test_full_document_has_toc_sections_and_numbered_anchored_rules():
    """The document has a contents list, section headings and rule headings with ids and numbers."""
    html = render_ruleset_html(RULESET)
    assert '<nav class="ruleset-toc"' in html
    assert '<section class="ruleset-section" id="section-core-rules">' in html
    assert '<h2><span class="rule-number">1.</span> Core Rules</h2>' in html
    assert '<article class="rule rule-level-3" id="rule-dynasties">' in html
    assert '<h3><span class="rule-number">1.2</span> Dynasties' in html
    assert '<article class="rule rule-level-4" id="rule-hiatus">' in html
    assert '<h4><span class="rule-number">1.2.1</span> Hiatus' in html
    assert html.index('id="rule-hiatus"') < html.index('id="section-dynastic-rules"')


def test_full_document_escapes_titles_in_headings_and_contents():
    """Rule titles are text, in headings and in the contents."""
    html = render_ruleset_html(RULESET)
    assert "<Title>" not in html
    assert "Odd &lt;Title&gt; &amp; &quot;Quotes&quot;" in html
    assert 'id="rule-odd-title-quotes"' in html


def test_contents_link_within_the_page_even_when_references_point_elsewhere():
    """The contents always use #anchors; url_for_anchor only changes references in bodies."""
    ruleset = parse_ruleset("== S ==\n=== A ===\nSee Rule 1.2.\n=== B ===\nb\n")
    html = render_ruleset_html(ruleset, url_for_anchor=lambda anchor: "/old/#" + anchor)
    assert '<a href="#rule-b">' in html
    assert 'href="/old/#rule-b"' in html


def test_toc_nests_subrules_under_their_rule():
    """Subrules appear in a list inside their rule's entry."""
    toc = render_toc_html(RULESET)
    assert (
        '<li><a href="#rule-dynasties"><span class="rule-number">1.2</span> Dynasties</a>'
        '<ol><li><a href="#rule-hiatus"><span class="rule-number">1.2.1</span> Hiatus</a></li></ol></li>'
    ) in toc


def test_toc_can_be_left_out_and_intro_and_preamble_are_rendered():
    """include_toc=False drops the contents; a preamble and section intro render as paragraphs."""
    ruleset = parse_ruleset("Preface.\n== Appendix ==\nIntro text.\n=== Keywords ===\n; A\n: b\n")
    html = render_ruleset_html(ruleset, include_toc=False)
    assert "ruleset-toc" not in html
    assert '<div class="ruleset-preamble"><p>Preface.</p>' in html
    assert "<p>Intro text.</p>" in html
    assert "<dl><dt>A</dt><dd>b</dd></dl>" in html
