"""Markdown to safe HTML, done once when a post or comment is saved."""

import nh3
from markdown_it import MarkdownIt

_markdown = MarkdownIt("commonmark", {"linkify": False, "html": False}).enable("table").enable("strikethrough")

ALLOWED_TAGS = {
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "del",
    "em",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "li",
    "ol",
    "p",
    "pre",
    "s",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}


# Characters that can start or take part in Markdown syntax, or that the sanitiser rewrites.
_MARKUP_CHARACTERS = frozenset("\\`*_[]<>&|~{}#=+")


def _plain_paragraph(source: str) -> bool:
    """True when ``source`` can only render as one paragraph of itself, character for character.

    One line that starts with a letter (no list, heading, quote or code block can start so), ends with no
    space, holds no character Markdown or the sanitiser would treat specially, and no control, format or
    space character but the plain space. Most comments ("For.", "Against, see above") are such text, and
    rendering them is by far the commonest render when a whole archive is loaded.
    """
    return (
        source[:1].isalpha()
        and not source[-1].isspace()
        and all(c == " " or (c.isprintable() and not c.isspace() and c not in _MARKUP_CHARACTERS) for c in source)
    )


def render_markdown(source: str) -> str:
    """Render Markdown and strip anything that could run script or break the page."""
    if _plain_paragraph(source):
        return f"<p>{source}</p>\n"
    return _render_through_markdown(source)


def _render_through_markdown(source: str) -> str:
    return nh3.clean(
        _markdown.render(source or ""),
        tags=ALLOWED_TAGS,
        attributes={"a": {"href", "title"}, "abbr": {"title"}, "td": {"align"}, "th": {"align"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener",
    )
