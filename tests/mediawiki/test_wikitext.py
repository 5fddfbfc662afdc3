"""'Real wikitext renders': BlogNomic's markup drawn safely, internal links to our pages, known templates
drawn, an unknown one shown by name, inline HTML reduced to an allow-list, no inline style."""

from __future__ import annotations

from ruleset.render import render_ruleset_html, render_wiki_html
from ruleset.structure import parse_ruleset
from ruleset.wikitext import render_wikitext, unknown_templates
from tests.mediawiki.exports import RULESET_2


def test_links_go_to_our_pages():
    html = render_wikitext("See [[Puzzle Board]] and [[Dynasty History|the histories]].")
    assert '<a class="wiki-link" href="/wiki/puzzle-board/">Puzzle Board</a>' in html
    assert '<a class="wiki-link" href="/wiki/dynasty-history/">the histories</a>' in html


def test_a_sortable_table_with_rowspan_and_colspan():
    html = render_wikitext(
        '{| class="wikitable sortable"\n! Name !! Lamps\n|-\n| rowspan="2" | Ada || 3\n|-\n'
        '| 4\n|-\n| colspan="2" style="background:red" onclick="x()" | total\n|}'
    )
    assert '<table class="wiki-table wiki-wikitable wiki-sortable">' in html
    assert "<th>Name</th><th>Lamps</th>" in html
    assert '<td rowspan="2">Ada</td><td>3</td>' in html
    assert '<td colspan="2" class="wiki-colour-red">total</td>' in html
    assert "onclick" not in html and "style" not in html


def test_templates_known_are_drawn_and_unknown_are_shown_by_name():
    html = render_wikitext("{{box|Pulse Meter|yellow}} {{pill|Round|2|lightblue}} {{Fogbank|3|<b>x</b>}}")
    assert '<span class="wiki-box wiki-colour-yellow">Pulse Meter</span>' in html
    assert (
        '<span class="wiki-pill wiki-colour-lightblue"><span class="wiki-pill-label">Round</span>'
        '<span class="wiki-pill-value">2</span></span>'
    ) in html
    assert "{{Fogbank|3|&lt;b&gt;x&lt;/b&gt;}}" in html
    assert unknown_templates("{{TOCRight}} {{box|a}} {{Fogbank}}") == ["Fogbank"]


def test_inline_html_is_reduced_to_the_allow_list_and_comments_vanish():
    html = render_wikitext(
        'a<br/>b <s>gone</s> <!-- secret --> <span style="color:red" onmouseover="x()">s</span>'
        ' <script>alert(1)</script> <iframe src="//evil"></iframe> [javascript:alert(1) click]'
    )
    assert "a<br>b <s>gone</s>" in html and "secret" not in html
    assert "<span>s</span>" in html
    assert "<script" not in html and "<iframe" not in html and 'href="javascript' not in html
    assert "&lt;script&gt;" in html


def test_the_wrapping_div_becomes_a_class_and_tocright_lists_the_headings():
    html = render_wiki_html(
        '<div style="padding:8px;background:#ddd;">\n{{TOCRight}}\n= Core Rules =\n== Votes ==\nText.\n</div>'
    )
    assert '<div class="wiki-panel wiki-colour-grey">' in html and "style=" not in html
    assert '<nav class="wiki-toc-right"' in html and '<a href="#wiki-votes">Votes</a>' in html
    assert '<h2 id="wiki-votes">Votes</h2>' in html


def test_the_imported_ruleset_keeps_its_rule_anchors_and_renders_its_markup():
    """Level-one sections, level-two rules: the rule has its anchor, its body its link and template."""
    ruleset = parse_ruleset(RULESET_2)
    assert [s.title for s in ruleset.sections] == ["Core Rules", "Dynastic Rules"]
    html = render_ruleset_html(ruleset)
    assert 'id="rule-lamps"' in html
    assert '<span class="wiki-box wiki-colour-yellow">Lamp Meter</span>' in html
    assert '<a class="wiki-link" href="/wiki/lamp-board/">lamp</a>' in html
    assert "&lt;div" not in html and "&lt;/div" not in html and "{{TOCRight}}" not in html
