"""Safe HTML for MediaWiki wikitext as BlogNomic's wiki wrote it, parsed by mwparserfromhell.

Supported: headings (``= … =`` to ``====== … ======``), paragraphs, ``*``/``#``/``;``/``:`` lists, lines
indented by a space as preformatted text, ``''italic''`` and ``'''bold'''``, internal links (``[[Page]]``,
``[[Page|label]]``, ``[[Page#Section]]``) to this wiki's pages, external ``http``/``https``/``mailto`` links,
``{| … |}`` tables with ``rowspan``/``colspan`` and the ``wikitable``/``sortable`` classes, HTML comments
(dropped), character entities, ``<nowiki>``, and a fixed set of inline HTML tags (``<br>``, ``<s>``,
``<del>``, ``<u>``, ``<sup>``, ``<sub>``, ``<small>``, ``<code>``, ``<span>``, ``<div>``, ``<blockquote>``,
``<center>``…) without their attributes. A ``style`` attribute never survives: a background colour from the
fixed palette becomes a ``wiki-colour-*`` class (the site's content security policy forbids inline
styles). Known templates are drawn: ``{{TOCRight}}`` (contents), ``{{box|text|colour}}`` and
``{{pill|label|value|colour}}``; any other template is shown as its name and arguments, visibly.

Not supported: parser functions and magic words (shown as unknown templates), template expansion of any
kind, categories (dropped), images and files (shown as their label), ``<ref>`` footnotes (shown inline),
``__NOTOC__`` and other behaviour switches (dropped), signatures.

Everything is escaped as it is written, and the result passes through nh3 with an allow-list anyway.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

import mwparserfromhell
import nh3
from mwparserfromhell.nodes import Comment, ExternalLink, Heading, HTMLEntity, Tag, Template, Text, Wikilink

from ruleset.structure import slugify

TitleUrl = Callable[[str], str]
TextRenderer = Callable[[str], str]

PALETTE = ("grey", "yellow", "lightblue", "blue", "lightgreen", "green", "pink", "red", "orange", "purple", "white")
_COLOUR_ALIASES = {
    "#ddd": "grey",
    "#dddddd": "grey",
    "lightgrey": "grey",
    "lightgray": "grey",
    "gray": "grey",
    "silver": "grey",
    "#eee": "grey",
    "#eeeeee": "grey",
    "gold": "yellow",
    "lightyellow": "yellow",
    "lightcyan": "lightblue",
    "skyblue": "lightblue",
    "cyan": "lightblue",
    "lime": "lightgreen",
    "palegreen": "lightgreen",
    "salmon": "pink",
    "lightpink": "pink",
    "violet": "purple",
}
KNOWN_TEMPLATES = frozenset({"tocright", "toc", "box", "pill"})
INLINE_TAGS = {
    "b": "b",
    "strong": "strong",
    "i": "i",
    "em": "em",
    "u": "u",
    "s": "s",
    "strike": "s",
    "del": "del",
    "ins": "ins",
    "sup": "sup",
    "sub": "sub",
    "small": "small",
    "big": "strong",
    "code": "code",
    "tt": "code",
    "kbd": "kbd",
    "var": "var",
    "span": "span",
    "font": "span",
    "abbr": "abbr",
    "cite": "cite",
    "q": "q",
    "ref": "small",
}
BLOCK_TAGS = {"div": "div", "center": "div", "blockquote": "blockquote", "p": "p", "pre": "pre"}
ALLOWED_TAGS = {
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "caption",
    "cite",
    "code",
    "dd",
    "del",
    "div",
    "dl",
    "dt",
    "em",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "ins",
    "kbd",
    "li",
    "nav",
    "ol",
    "p",
    "pre",
    "q",
    "s",
    "small",
    "span",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "tr",
    "u",
    "ul",
    "var",
}
_BLOCK = "\x00"  # starts a line that is already a block of HTML, not text for a paragraph
_LIST = "\x01"  # starts a line that is a list item: the marks follow, then "\x02"
_END_MARKS = "\x02"
_NEWLINE = "\x05"  # a newline inside a block, restored at the end
_SAFE_SCHEMES = ("http://", "https://", "mailto:")
_LIST_TAGS = {"*": "ul", "#": "ol", ";": "dl", ":": "dl"}
_ITEM_TAGS = {"*": "li", "#": "li", ";": "dt", ":": "dd"}


def default_title_url(title: str) -> str:
    return f"/wiki/{slugify(title) or 'page'}/"


def template_name(template: Template) -> str:
    return " ".join(str(template.name).split()).strip()


def unknown_templates(text: str) -> list[str]:
    """The names of the templates in ``text`` that are not drawn (shown by name instead), in order."""
    try:
        templates = mwparserfromhell.parse(text).filter_templates(recursive=True)
    except Exception:  # a parser failure must not stop an import; the page still renders as text
        return []
    return [template_name(t) for t in templates if template_name(t).casefold() not in KNOWN_TEMPLATES]


def colour_class(value: str) -> str:
    """The palette class for a colour written in a template argument or a style, or ''."""
    colour = value.strip().casefold()
    colour = _COLOUR_ALIASES.get(colour, colour)
    return f"wiki-colour-{colour}" if colour in PALETTE else ""


def _style_class(style: str) -> str:
    match = re.search(r"background(?:-color)?\s*:\s*([#\w]+)", style, re.IGNORECASE)
    return colour_class(match.group(1)) if match else ""


class _Renderer:
    def __init__(self, url_for_title: TitleUrl, render_text: TextRenderer) -> None:
        self.url_for_title = url_for_title
        self.render_text = render_text
        self.headings: list[tuple[int, str, str]] = []
        self.wants_toc = False

    # --- blocks ---------------------------------------------------------------------------------

    def blocks(self, code, *, cell: bool = False) -> str:
        """Block HTML for a stretch of wikicode: paragraphs, lists, headings, tables, preformatted text.

        The result is one line (its own newlines kept as ``_NEWLINE``), so it can stand as one block.
        """
        html = self.inline(code).replace(_END_MARKS + "\n" + _LIST, "")
        # A list item's marker starts its own line; the newline before it in the text is that line's end.
        html = re.sub("(?<!\n)\n\n" + _LIST, "\n" + _LIST, html)
        if cell:
            # A cell's text starts after "|" or "||", usually with a space that is not an indent.
            html = "\n".join(line.lstrip(" ") for line in html.split("\n"))
        return _assemble(html).replace("\n", _NEWLINE)

    def inline(self, code) -> str:
        return "".join(self.node(node) for node in code.nodes)

    def node(self, node) -> str:
        if isinstance(node, Text):
            return self.text(str(node.value))
        if isinstance(node, Comment):
            return ""
        if isinstance(node, HTMLEntity):
            return self.render_text(node.normalize())
        if isinstance(node, Heading):
            return self.heading(node)
        if isinstance(node, Wikilink):
            return self.wikilink(node)
        if isinstance(node, ExternalLink):
            return self.external(node)
        if isinstance(node, Template):
            return self.template(node)
        if isinstance(node, Tag):
            return self.tag(node)
        return self.render_text(str(node))

    def text(self, value: str) -> str:
        # Behaviour switches such as __NOTOC__ change nothing here.
        value = re.sub(r"__[A-Z]+__", "", value)
        return "\n".join(self.render_text(part) for part in value.split("\n"))

    def heading(self, node: Heading) -> str:
        title_html = self.inline(node.title).strip()
        plain = str(node.title.strip_code()).strip()
        anchor = f"wiki-{slugify(plain) or 'section'}"
        self.headings.append((node.level, plain, anchor))
        level = max(2, min(node.level, 6))
        return f"\n{_BLOCK}<h{level}\x03{anchor}\x03>{title_html}</h{level}>\n"

    def wikilink(self, node: Wikilink) -> str:
        target = " ".join(str(node.title).split())
        label = self.inline(node.text) if node.text is not None else self.render_text(target.lstrip(":"))
        namespace = target.split(":", 1)[0].strip().casefold() if ":" in target else ""
        if namespace == "category":
            return ""
        if namespace in {"file", "image", "media"}:
            return label
        page, _, section = target.lstrip(":").partition("#")
        href = (self.url_for_title(page.strip()) if page.strip() else "") + (
            f"#wiki-{slugify(section)}" if section else ""
        )
        return f'<a class="wiki-link" href="{escape(href)}">{label}</a>'

    def external(self, node: ExternalLink) -> str:
        url = str(node.url).strip()
        label = self.inline(node.title) if node.title is not None else escape(url)
        if not url.casefold().startswith(_SAFE_SCHEMES):
            return self.render_text(str(node))
        return f'<a class="wiki-external" href="{escape(url)}" rel="nofollow noopener">{label}</a>'

    def template(self, node: Template) -> str:
        name = template_name(node).casefold()
        args = [self.inline(param.value).strip() for param in node.params if not param.showkey]
        if name in {"tocright", "toc"}:
            self.wants_toc = True
            return f"\n{_BLOCK}\x04toc\x04\n"
        if name == "box" and args:
            colour = colour_class(str(node.params[1].value)) if len(args) > 1 else ""
            return f'<span class="wiki-box {colour}">{args[0]}</span>'
        if name == "pill" and len(args) >= 2:
            colour = colour_class(str(node.params[2].value)) if len(args) > 2 else ""
            return (
                f'<span class="wiki-pill {colour}"><span class="wiki-pill-label">{args[0]}</span>'
                f'<span class="wiki-pill-value">{args[1]}</span></span>'
            )
        return (
            f'<code class="wiki-template-unknown" title="A template this site does not draw">{escape(str(node))}</code>'
        )

    def tag(self, node: Tag) -> str:
        name = str(node.tag).strip().casefold()
        markup = node.wiki_markup
        if name in {"li", "dt", "dd"} and markup:
            return f"\n{_LIST}{markup}{_END_MARKS}"
        if name == "b" and markup:
            return f"<b>{self.inline(node.contents)}</b>"
        if name == "i" and markup:
            return f"<i>{self.inline(node.contents)}</i>"
        if name == "hr":
            return f"\n{_BLOCK}<hr>\n"
        if name == "br":
            return "<br>"
        if name == "nowiki":
            return self.render_text(str(node.contents)) if node.contents is not None else ""
        if name == "table":
            return f"\n{_BLOCK}{self.table(node)}\n"
        if name in INLINE_TAGS and not node.self_closing:
            out = INLINE_TAGS[name]
            return f"<{out}>{self.inline(node.contents)}</{out}>"
        if name in BLOCK_TAGS and not node.self_closing:
            out = BLOCK_TAGS[name]
            css = self.classes(node, {"div": "wiki-panel"}.get(name, ""))
            inner = self.blocks(node.contents) if out != "pre" else escape(str(node.contents)).replace("\n", _NEWLINE)
            return f"\n{_BLOCK}<{out}{css}>{inner}</{out}>\n"
        return self.render_text(str(node))

    def classes(self, node: Tag, base: str = "") -> str:
        names = [base] if base else []
        for attribute in node.attributes:
            key = str(attribute.name).strip().casefold()
            value = str(attribute.value or "")
            if key == "style":
                names.append(_style_class(value))
            elif key == "class":
                names += [f"wiki-{c}" for c in value.split() if c in {"wikitable", "sortable", "prettytable"}]
        names = [n for n in names if n]
        return f' class="{" ".join(names)}"' if names else ""

    def table(self, node: Tag) -> str:
        rows: list[str] = []
        caption = ""
        loose: list[str] = []  # cells before the first "|-" make the first row
        for child in node.contents.nodes:
            if loose and not (isinstance(child, Tag) and str(child.tag).casefold() in {"td", "th"}):
                if isinstance(child, Tag):
                    rows.append("<tr>" + "".join(loose) + "</tr>")
                    loose = []
            if isinstance(child, Tag) and str(child.tag).casefold() == "tr":
                cells = [
                    self.cell(c)
                    for c in child.contents.nodes
                    if isinstance(c, Tag) and str(c.tag).casefold() in {"td", "th"}
                ]
                rows.append("<tr>" + "".join(cells) + "</tr>")
            elif isinstance(child, Tag) and str(child.tag).casefold() == "caption":
                caption = f"<caption>{self.inline(child.contents).strip()}</caption>"
            elif isinstance(child, Tag) and str(child.tag).casefold() in {"td", "th"}:
                loose.append(self.cell(child))
        if loose:
            rows.append("<tr>" + "".join(loose) + "</tr>")
        return f"<table{self.classes(node, 'wiki-table')}>{caption}<tbody>{''.join(rows)}</tbody></table>"

    def cell(self, node: Tag) -> str:
        name = str(node.tag).casefold()
        spans = ""
        for attribute in node.attributes:
            key = str(attribute.name).strip().casefold()
            value = str(attribute.value or "").strip()
            if key in {"rowspan", "colspan"} and value.isascii() and value.isdigit() and 0 < int(value) <= 1000:
                spans += f' {key}="{int(value)}"'
        inner = self.blocks(node.contents, cell=True)
        if inner.startswith("<p>") and inner.endswith("</p>") and inner.count("<p>") == 1:
            inner = inner[3:-4]
        return f"<{name}{spans}{self.classes(node)}>{inner}</{name}>"


def _assemble(html: str) -> str:
    """Lines of inline HTML and block markers as block HTML: paragraphs, lists and preformatted runs."""
    out: list[str] = []
    paragraph: list[str] = []
    pre: list[str] = []
    items: list[tuple[str, str]] = []

    def flush() -> None:
        if paragraph:
            out.append("<p>" + "\n".join(paragraph) + "</p>")
            paragraph.clear()
        if pre:
            out.append('<pre class="wiki-pre">' + "\n".join(pre) + "</pre>")
            pre.clear()
        if items:
            out.append(_list_html(items))
            items.clear()

    for line in html.split("\n"):
        if line.startswith(_BLOCK):
            flush()
            out.append(line[1:])
        elif line.startswith(_LIST):
            if paragraph or pre:
                flush()
            marks, _, rest = line[1:].partition(_END_MARKS)
            items.append((marks, rest.strip()))
        elif line.startswith(" ") and line.strip():
            if paragraph or items:
                flush()
            pre.append(line[1:])
        elif not line.strip():
            flush()
        else:
            if pre or items:
                flush()
            paragraph.append(line.strip())
    flush()
    return "\n".join(out)


def _list_html(items: list[tuple[str, str]]) -> str:
    out: list[str] = []
    stack: list[str] = []
    for marks, text in items:
        depth = 0
        while depth < min(len(stack), len(marks)) and _LIST_TAGS[stack[depth]] == _LIST_TAGS[marks[depth]]:
            depth += 1
        while len(stack) > depth:
            mark = stack.pop()
            out.append(f"</{_ITEM_TAGS[mark]}></{_LIST_TAGS[mark]}>")
        if stack and len(stack) == len(marks):
            out.append(f"</{_ITEM_TAGS[stack[-1]]}>")
            stack[-1] = marks[-1]
        while len(stack) < len(marks):
            mark = marks[len(stack)]
            out.append(f"<{_LIST_TAGS[mark]}>")
            stack.append(mark)
            if len(stack) < len(marks):
                out.append(f"<{_ITEM_TAGS[mark]}>")
        out.append(f"<{_ITEM_TAGS[marks[-1]]}>{text}")
    while stack:
        mark = stack.pop()
        out.append(f"</{_ITEM_TAGS[mark]}></{_LIST_TAGS[mark]}>")
    return "".join(out)


def _toc_html(headings: list[tuple[int, str, str]]) -> str:
    entries = "".join(
        f'<li class="wiki-toc-level-{min(level, 6)}"><a href="#{escape(anchor)}">{escape(title)}</a></li>'
        for level, title, anchor in headings
    )
    return f'<nav class="wiki-toc-right" aria-label="Contents"><strong>Contents</strong><ul>{entries}</ul></nav>'


def render_wikitext(
    text: str, *, url_for_title: TitleUrl = default_title_url, render_text: TextRenderer = escape, toc: bool = True
) -> str:
    """Safe HTML for ``text``. ``render_text`` escapes plain text (and may link rule references in it);
    ``toc=False`` drops ``{{TOCRight}}`` where the page draws its own contents (the Ruleset)."""
    renderer = _Renderer(url_for_title, render_text)
    html = renderer.blocks(mwparserfromhell.parse(text or "", skip_style_tags=False)).replace(_NEWLINE, "\n")
    contents = _toc_html(renderer.headings) if toc and renderer.headings else ""
    html = html.replace("\x04toc\x04", contents)
    if renderer.wants_toc:
        html = re.sub("\x03([^\x03]*)\x03", r' id="\1"', html)
    else:
        html = re.sub("\x03[^\x03]*\x03", "", html)
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={
            "*": {"class"},
            "a": {"href", "rel"},
            "h2": {"id"},
            "h3": {"id"},
            "h4": {"id"},
            "h5": {"id"},
            "h6": {"id"},
            "td": {"rowspan", "colspan"},
            "th": {"rowspan", "colspan"},
            "code": {"title"},
            "nav": {"aria-label"},
        },
        url_schemes={"http", "https", "mailto"},
        link_rel=None,
    )
