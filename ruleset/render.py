"""Safe HTML for ruleset markup: rule bodies, cross-references between rules, and the whole document.

Every piece of text is escaped; the only tags produced are the ones written here. Bodies support
paragraphs (a single newline is a line break), ``*``/``#`` lists nested by repeating the marker,
``; term`` / ``: definition`` lists, ``''italic''`` and ``'''bold'''``. References become links:
"Rule 1.4", "rules 2.3.1 and 2.3.2", the exact title of a rule in straight or curly quotes
(“Dynasties”), and bare http(s) addresses. A body holding MediaWiki markup beyond these (links, templates,
tables, HTML tags) is rendered by ``ruleset.wikitext``, its plain text still linked as above.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html import escape

from ruleset.structure import Rule, Ruleset, Section
from ruleset.wikitext import render_wikitext

AnchorUrl = Callable[[str], str]


def _same_page(anchor: str) -> str:
    return "#" + anchor


_RULE_NUMBER = r"\d+(?:\.\d+)+"
_INLINE = re.compile(
    rf"(?P<ruleref>\b[Rr]ules?\s+{_RULE_NUMBER}(?:(?:\s*,\s*|\s+(?:and|or|&)\s+|\s*,\s*(?:and|or)\s+){_RULE_NUMBER})*)"
    r"|(?P<quoted>[\"“”](?P<quoted_text>[^\"“”\n]{1,120}?)[\"“”])"
    r"|(?P<url>\bhttps?://[^\s<>\"“”]+)"
    r"|(?P<bold>''')"
    r"|(?P<italic>'')"
)
_NUMBER_IN_REF = re.compile(_RULE_NUMBER)
_TRAILING_URL_PUNCTUATION = ".,;:!?)'’"
_TRAILING_NAME_PUNCTUATION = ".,;:!?"
_LIST_LINE = re.compile(r"^(?P<marks>[*#]+)\s?(?P<text>.*)$")
_DEFINITION_LINE = re.compile(r"^(?P<mark>[;:])\s?(?P<text>.*)$")
_LIST_TAGS = {"*": "ul", "#": "ol"}


# --- inline text -----------------------------------------------------------------------------------


class _InlineRenderer:
    """Escapes one stretch of text and turns references into links, keeping emphasis tags balanced."""

    def __init__(self, ruleset: Ruleset, url_for_anchor: AnchorUrl) -> None:
        self.ruleset = ruleset
        self.url_for_anchor = url_for_anchor
        self.rule_history_url: AnchorUrl | None = None
        self.blame_markers = False
        self._titles = _titles_by_casefold(ruleset)

    def render(self, text: str) -> str:
        open_tags: list[str] = []
        html = self._render_fragment(text, open_tags)
        return html + "".join(f"</{tag}>" for tag in reversed(open_tags))

    def _render_fragment(self, text: str, open_tags: list[str]) -> str:
        out: list[str] = []
        position = 0
        for match in _INLINE.finditer(text):
            out.append(escape(text[position : match.start()]))
            out.append(self._replace(match, open_tags))
            position = match.end()
        out.append(escape(text[position:]))
        return "".join(out)

    def _replace(self, match: re.Match[str], open_tags: list[str]) -> str:
        if match["ruleref"]:
            return self._rule_reference(match["ruleref"])
        if match["quoted"]:
            return self._quoted(match["quoted"], match["quoted_text"], open_tags)
        if match["url"]:
            return _url_link(match["url"])
        return _toggle(open_tags, "strong" if match["bold"] else "em")

    def _rule_reference(self, reference: str) -> str:
        out: list[str] = []
        position = 0
        for number in _NUMBER_IN_REF.finditer(reference):
            out.append(escape(reference[position : number.start()]))
            out.append(self._link_to(self.ruleset.find(number.group()), number.group()))
            position = number.end()
        out.append(escape(reference[position:]))
        return "".join(out)

    def _quoted(self, quoted: str, inner: str, open_tags: list[str]) -> str:
        """A quoted rule title becomes a link; other quoted text is rendered like any text."""
        name = inner.rstrip(_TRAILING_NAME_PUNCTUATION)
        rule = self._titles.get(name.strip().casefold())
        if rule is None:
            return escape(quoted[0]) + self._render_fragment(inner, open_tags) + escape(quoted[-1])
        trailing = inner[len(name) :]
        return escape(quoted[0]) + self._link_to(rule, name) + escape(trailing + quoted[-1])

    def _link_to(self, rule: Rule | None, label: str) -> str:
        if rule is None:
            return escape(label)
        href = escape(self.url_for_anchor(rule.anchor))
        title = escape(f"{rule.number} {rule.title}")
        return f'<a class="rule-ref" href="{href}" title="{title}">{escape(label)}</a>'


def _titles_by_casefold(ruleset: Ruleset) -> dict[str, Rule]:
    titles: dict[str, Rule] = {}
    for rule in ruleset.all_rules():
        titles.setdefault(rule.title.casefold(), rule)
    return titles


def _url_link(url: str) -> str:
    trimmed = url.rstrip(_TRAILING_URL_PUNCTUATION)
    return f'<a href="{escape(trimmed)}" rel="nofollow">{escape(trimmed)}</a>{escape(url[len(trimmed) :])}'


def _toggle(open_tags: list[str], tag: str) -> str:
    """Open or close an emphasis tag, closing and reopening inner tags so the HTML stays nested."""
    if tag not in open_tags:
        open_tags.append(tag)
        return f"<{tag}>"
    inner = open_tags[open_tags.index(tag) + 1 :]
    del open_tags[open_tags.index(tag) :]
    open_tags.extend(inner)
    return "".join(f"</{t}>" for t in reversed(inner)) + f"</{tag}>" + "".join(f"<{t}>" for t in inner)


# --- blocks ----------------------------------------------------------------------------------------


def render_rule_body(body: str, *, ruleset: Ruleset | None = None, url_for_anchor: AnchorUrl = _same_page) -> str:
    """Safe HTML for a rule body (or a section introduction) written in ruleset markup."""
    inline = _InlineRenderer(ruleset or Ruleset(), url_for_anchor)
    return "\n".join(_render_blocks(body, inline))


# Markup the rule-body renderer does not read; a body holding any of it is rendered as MediaWiki would.
_WIKITEXT = re.compile(r"\{\{|\[\[|\{\||<[A-Za-z!/]|\[https?://|&[#\w]+;")
# The whole Ruleset is often wrapped in one styled <div>, whose halves land in the preamble and last rule.
_WRAPPER_LINE = re.compile(r"^\s*(?:<div\b[^>]*>|</div>)\s*$", re.IGNORECASE)


def _render_blocks(body: str, inline: _InlineRenderer) -> Iterator[str]:
    if _WIKITEXT.search(body):
        body = "\n".join(line for line in body.split("\n") if not _WRAPPER_LINE.match(line))
        yield render_wikitext(body, render_text=inline.render, toc=False)
        return
    for kind, lines in _group_lines(body):
        if kind == "list":
            yield _render_list(lines, inline)
        elif kind == "definitions":
            yield _render_definitions(lines, inline)
        else:
            yield "<p>" + "<br>\n".join(inline.render(line) for line in lines) + "</p>"


def _line_kind(line: str) -> str:
    if _LIST_LINE.match(line):
        return "list"
    if _DEFINITION_LINE.match(line):
        return "definitions"
    return "paragraph"


def _group_lines(body: str) -> Iterator[tuple[str, list[str]]]:
    """Runs of lines of one kind (paragraph, list, definitions); blank lines end a run."""
    kind = ""
    lines: list[str] = []
    for raw_line in body.replace("\r\n", "\n").split("\n"):
        line = raw_line.strip()
        if not line:
            if lines:
                yield kind, lines
            kind, lines = "", []
            continue
        line_kind = _line_kind(line)
        if lines and line_kind != kind:
            yield kind, lines
            lines = []
        kind = line_kind
        lines.append(line)
    if lines:
        yield kind, lines


def _render_list(lines: list[str], inline: _InlineRenderer) -> str:
    out: list[str] = []
    stack: list[str] = []
    for line in lines:
        match = _LIST_LINE.match(line)
        assert match is not None
        marks, text = match["marks"], match["text"].strip()
        while len(stack) > len(marks) or stack != list(marks[: len(stack)]):
            out.append(f"</li></{_LIST_TAGS[stack.pop()]}>")
        if stack and len(stack) == len(marks):
            out.append("</li>")
        while len(stack) < len(marks):
            mark = marks[len(stack)]
            out.append(f"<{_LIST_TAGS[mark]}>")
            stack.append(mark)
            if len(stack) < len(marks):
                out.append("<li>")
        out.append("<li>" + inline.render(text))
    while stack:
        out.append(f"</li></{_LIST_TAGS[stack.pop()]}>")
    return "".join(out)


def _render_definitions(lines: list[str], inline: _InlineRenderer) -> str:
    items = []
    for line in lines:
        match = _DEFINITION_LINE.match(line)
        assert match is not None
        tag = "dt" if match["mark"] == ";" else "dd"
        term, separator, definition = match["text"].partition(" : ")
        if tag == "dt" and separator:
            items.append(f"<dt>{inline.render(term.strip())}</dt><dd>{inline.render(definition.strip())}</dd>")
        else:
            items.append(f"<{tag}>{inline.render(match['text'].strip())}</{tag}>")
    return "<dl>" + "".join(items) + "</dl>"


# --- the whole document ----------------------------------------------------------------------------


def render_toc_html(ruleset: Ruleset) -> str:
    """The table of contents as nested lists of links to the rules' anchors on the same page."""
    out = ['<nav class="ruleset-toc" aria-label="Contents"><ol>']
    for section in ruleset.sections:
        out.append(_toc_item(str(section.number), section.title, section.anchor))
        if section.rules:
            out.append(_toc_rules(section.rules))
        out.append("</li>")
    out.append("</ol></nav>")
    return "".join(out)


def _toc_item(number: str, title: str, anchor: str) -> str:
    return f'<li><a href="#{escape(anchor)}"><span class="rule-number">{escape(number)}</span> {escape(title)}</a>'


def _toc_rules(rules: tuple[Rule, ...]) -> str:
    parts = ["<ol>"]
    for rule in rules:
        parts.append(_toc_item(rule.number, rule.title, rule.anchor))
        if rule.children:
            parts.append(_toc_rules(rule.children))
        parts.append("</li>")
    parts.append("</ol>")
    return "".join(parts)


def render_ruleset_html(
    ruleset: Ruleset,
    *,
    url_for_anchor: AnchorUrl = _same_page,
    include_toc: bool = True,
    rule_history_url: AnchorUrl | None = None,
    blame_markers: bool = False,
) -> str:
    """The whole ruleset as safe HTML: contents, then sections with numbered, anchored rule headings.

    ``url_for_anchor`` builds the links of references inside rule bodies, so a page showing an old
    revision can point them at that revision; the contents always link within the page.
    ``rule_history_url``, when given, adds a "history" link to every rule heading. ``blame_markers`` puts
    an HTML comment naming the rule's anchor under each heading, for the page to replace with what last
    changed the rule: that comes from the database, so the rendering itself stays cacheable by text.
    """
    inline = _InlineRenderer(ruleset, url_for_anchor)
    inline.rule_history_url = rule_history_url
    inline.blame_markers = blame_markers
    out = ['<div class="ruleset">']
    if include_toc:
        out.append(render_toc_html(ruleset))
    if ruleset.preamble:
        out.append('<div class="ruleset-preamble">' + "\n".join(_render_blocks(ruleset.preamble, inline)))
        out.append("</div>")
    for section in ruleset.sections:
        out.append(_render_section(section, inline))
    out.append("</div>")
    return "\n".join(out)


def _render_section(section: Section, inline: _InlineRenderer) -> str:
    out = [
        f'<section class="ruleset-section" id="{escape(section.anchor)}">',
        f'<h2><span class="rule-number">{section.number}.</span> {escape(section.title)}</h2>',
    ]
    if section.intro:
        out.extend(_render_blocks(section.intro, inline))
    out.extend(_render_rule(rule, inline) for rule in section.rules)
    out.append("</section>")
    return "\n".join(out)


def _render_rule(rule: Rule, inline: _InlineRenderer) -> str:
    level = min(rule.level, 6)
    anchor = escape(rule.anchor)
    history = ""
    if inline.rule_history_url is not None:
        history = (
            f' <a class="rule-history" href="{escape(inline.rule_history_url(rule.anchor))}"'
            f' title="Every revision that changed this rule">history</a>'
        )
    out = [
        f'<article class="rule rule-level-{rule.level}" id="{anchor}">',
        f'<h{level}><span class="rule-number">{escape(rule.number)}</span> {escape(rule.title)}'
        f' <a class="rule-permalink" href="#{anchor}" aria-label="Link to this rule">¶</a>'
        f"{history}</h{level}>",
    ]
    if inline.blame_markers:
        out.append(f"<!--rule-blame:{anchor}-->")
    out.extend(_render_blocks(rule.body, inline))
    out.extend(_render_rule(child, inline) for child in rule.children)
    out.append("</article>")
    return "\n".join(out)


# --- ordinary wiki pages ---------------------------------------------------------------------------


def render_wiki_html(text: str) -> str:
    """Safe HTML for an ordinary or gamestate page, written in MediaWiki's wikitext (``ruleset.wikitext``)."""
    return render_wikitext(text)
