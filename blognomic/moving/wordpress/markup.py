"""A WordPress text as the Markdown the site stores: posts and comments are written there in HTML, with
blank lines for paragraphs and single line breaks kept as breaks (WordPress's "autop"), and here in Markdown.

Converted with markdownify rather than kept as HTML: the site renders Markdown with raw HTML switched off, so
tags would show as text, and an imported post edited later must read as the same Markdown it was saved as.
Characters that Markdown would read as markup (an asterisk typed on the blog) are escaped, so they still show
as typed.
"""

from __future__ import annotations

import re

from markdownify import markdownify

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n+")
_BLOCK_TAG = re.compile(r"^\s*</?(?:p|div|ul|ol|li|table|thead|tbody|tr|td|th|blockquote|pre|h[1-6]|hr)\b", re.I)


def wordpress_to_markdown(text: str) -> str:
    """``text`` as WordPress shows it, written as Markdown."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        return ""
    blocks = []
    for block in _PARAGRAPH_BREAK.split(text):
        # A block that is already HTML's own block is left as it is; a plain one becomes a paragraph whose
        # single line breaks are breaks, as WordPress shows it.
        blocks.append(block if _BLOCK_TAG.match(block) else "<p>" + block.replace("\n", "<br>\n") + "</p>")
    markdown = markdownify("\n".join(blocks), heading_style="ATX", bullets="*", strip=["script", "style"])
    return re.sub(r"\n{3,}", "\n\n", markdown).strip()
