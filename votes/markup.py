"""Markdown to safe HTML, done once when a post or comment is saved."""

import nh3
from markdown_it import MarkdownIt

_markdown = MarkdownIt("commonmark", {"linkify": False, "html": False}).enable("table").enable("strikethrough")

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i",
    "li", "ol", "p", "pre", "s", "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
}


def render_markdown(source: str) -> str:
    """Render Markdown and strip anything that could run script or break the page."""
    return nh3.clean(
        _markdown.render(source or ""),
        tags=ALLOWED_TAGS,
        attributes={"a": {"href", "title"}, "abbr": {"title"}, "td": {"align"}, "th": {"align"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener",
    )
