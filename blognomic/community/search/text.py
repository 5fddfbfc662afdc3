"""Search queries and snippets as pure functions: reading what was typed, and marking where it matched."""

from __future__ import annotations

import re
from html import escape

MAX_QUERY_LENGTH = 200
MAX_TERMS = 10
SNIPPET_LENGTH = 240

EMPTY_QUERY = "Type a word or a phrase to search for."
QUERY_TOO_LONG = "A search may be at most {limit} characters long; this one has {length:,}."
TOO_MANY_TERMS = "A search may have at most {limit} words or phrases."
NUL_IN_QUERY = "A search may not contain the NUL character."

_TERM = re.compile(r'"([^"]+)"|(\S+)')

# The markup a snippet leaves out: the wiki's wikitext and posts' Markdown share enough of it that one pass
# serves both. Each pattern is replaced by its first group (the words shown) or by nothing.
_MARKUP = [
    (re.compile(r"<!--.*?(?:-->|$)", re.S), ""),
    (re.compile(r"<[^<>\n]{1,200}>"), " "),
    (re.compile(r"^\s*(=+)\s*(.*?)\s*\1\s*$", re.M), r"\2."),  # == Heading ==
    (re.compile(r"^\s{0,3}#{1,6}\s+", re.M), ""),  # ## Heading
    (re.compile(r"\[\[(?:[^|\]\n]*\|)?([^\]\n]*)\]\]"), r"\1"),  # [[Page|label]], [[Page]]
    (re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)"), r"\1"),  # [label](address)
    (re.compile(r"\[(?:https?|mailto):[^\s\]]+\s+([^\]\n]*)\]"), r"\1"),  # [https://… label]
    (re.compile(r"\{\{[^{}]*\}\}"), ""),  # {{template|…}}
    (re.compile(r"^\s*(?:\{\||\|\}|\|-).*$", re.M), ""),  # a wikitable's frame and row lines
    (re.compile(r"^\s*[|!]|\|\||!!", re.M), " "),  # its cell separators
    (re.compile(r"^\s*(?:[*#:;]+|[-+>]|\d+\.)\s+", re.M), ""),  # list items, quotes
    (re.compile(r"'{2,}|(?<![\w*])\*{1,3}(?=\S)|(?<=\S)\*{1,3}(?![\w*])|(?<!\w)__?(?=\S)|(?<=\S)__?(?!\w)|`+"), ""),
]


class QueryError(ValueError):
    """The search cannot be run as typed; the message says why."""


def parse_query(raw: str) -> list[str]:
    """The words and "quoted phrases" of a search, lower-cased, each at least two characters long."""
    raw = raw or ""
    if "\x00" in raw:
        raise QueryError(NUL_IN_QUERY)
    if len(raw) > MAX_QUERY_LENGTH:
        raise QueryError(QUERY_TOO_LONG.format(limit=MAX_QUERY_LENGTH, length=len(raw)))
    terms = []
    for phrase, word in _TERM.findall(raw):
        term = " ".join((phrase or word).split()).strip().lower()
        if len(term) >= 2 and term not in terms:
            terms.append(term)
    if not terms:
        raise QueryError(EMPTY_QUERY)
    if len(terms) > MAX_TERMS:
        raise QueryError(TOO_MANY_TERMS.format(limit=MAX_TERMS))
    return terms


def matches_all(text: str, terms: list[str]) -> bool:
    folded = (text or "").lower()
    return all(term in folded for term in terms)


def plain_text(text: str) -> str:
    """The words of a wiki page, post or comment as a reader sees them: headings, links, emphasis, lists,
    tables and templates' markup left out, white space collapsed."""
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    return " ".join(text.split())


def snippet(text: str, terms: list[str], *, length: int = SNIPPET_LENGTH) -> str:
    """Escaped HTML: the part of ``text``'s plain words around its first match, every match wrapped in <mark>."""
    text = plain_text(text or "")
    folded = text.lower()
    first = min((folded.find(term) for term in terms if term in folded), default=0)
    start = max(0, first - length // 3)
    end = min(len(text), start + length)
    piece = text[start:end]
    pattern = re.compile("|".join(re.escape(term) for term in sorted(terms, key=len, reverse=True)), re.IGNORECASE)
    out, last = [], 0
    for match in pattern.finditer(piece):
        out.append(escape(piece[last : match.start()]))
        out.append(f"<mark>{escape(match.group(0))}</mark>")
        last = match.end()
    out.append(escape(piece[last:]))
    return ("…" if start else "") + "".join(out) + ("…" if end < len(text) else "")
