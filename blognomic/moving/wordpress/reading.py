"""Reading a WordPress export (WXR 1.1 and 1.2) as a stream of plain values, with no database.

WordPress's exporter writes RSS 2.0 with its own namespaces: the channel holds ``wp:wxr_version``, the
authors (``wp:author``), the categories and tags, then one ``item`` per post, each with its meta
(``wp:postmeta``) and comments (``wp:comment`` with ``wp:commentmeta``). ``read_wxr`` parses with a hardened
parser (no DTD, no entity declarations, no external references: an entity-expansion bomb or an external
entity is refused, not expanded), keeps one item in memory at a time, and yields the channel's header
before the first item, then each item. A file that is not a WXR export at all (malformed XML, another
root, an unknown ``wp:wxr_version``) raises ``WxrError`` naming the element and its line; checking what an
item means (a post with no date, a comment by an impossible name) is the importer's job, which skips it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, BinaryIO
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

READABLE_VERSIONS = ("1.1", "1.2")
NAMESPACES = {
    "http://purl.org/rss/1.0/modules/content/": "content",
    "http://purl.org/dc/elements/1.1/": "dc",
    "http://wellformedweb.org/CommentAPI/": "wfw",
}
WP_NAMESPACE_PREFIX = "http://wordpress.org/export/"  # then the version: 1.1/, 1.2/, and excerpt/ below it
READ_SIZE = 64 * 1024
# A zero date is how WordPress writes "never" (a draft's post_date_gmt).
ZERO_DATE = "0000-00-00 00:00:00"

UNKNOWN_VERSION = "wp:wxr_version {version!r} is not one this site reads ({readable})"
NO_VERSION = "the first <item> comes before any <wp:wxr_version>: this is not a WordPress export"
NOT_RSS = "the root element is <{tag}>, not <rss>: this is not a WordPress export"
FORBIDDEN = "{what} is not allowed in an export (refused so it cannot expand or reach outside the file)"


class WxrError(Exception):
    """A file that cannot be read as a WordPress export; ``line`` and ``element`` say where."""

    def __init__(self, line: int | None, element: str, message: str) -> None:
        where = f"line {line}" if line else "the file"
        super().__init__(f"{where}, <{element}>: {message}" if element else f"{where}: {message}")
        self.line = line
        self.element = element
        self.message = message


@dataclass(frozen=True)
class Author:
    id: int | None
    login: str
    display_name: str
    email: str
    meta: dict[str, str]
    line: int


@dataclass(frozen=True)
class Term:
    domain: str  # "category" or "post_tag"
    nicename: str
    name: str


@dataclass(frozen=True)
class WxrComment:
    id: int | None
    author: str
    user_id: int
    at: str  # wp:comment_date_gmt as written; the importer reads it
    text: str
    approved: str
    type: str
    parent: int
    meta: dict[str, str]
    line: int


@dataclass(frozen=True)
class WxrPost:
    id: int | None
    title: str
    body: str
    creator: str
    posted_at: str  # wp:post_date_gmt as written
    modified_at: str
    name: str
    status: str
    type: str
    password: str
    sticky: bool
    terms: tuple[Term, ...]
    meta: dict[str, str]
    comments: tuple[WxrComment, ...]
    line: int


@dataclass
class Channel:
    version: str
    title: str = ""
    link: str = ""
    authors: dict[str, Author] = field(default_factory=dict)  # by login
    line: int = 0


def parse_gmt(value: str) -> datetime | None:
    """A WordPress GMT date (``2016-07-25 03:32:29``) as an aware UTC time; None when absent or not a date."""
    value = value.strip()
    if not value or value == ZERO_DATE or not value.isascii():
        return None
    try:
        return datetime.strptime(value, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def _tag(tag: str) -> str:
    """``{http://wordpress.org/export/1.2/}post_id`` as ``wp:post_id``, whatever the export's version."""
    if not tag.startswith("{"):
        return tag
    uri, _, local = tag[1:].partition("}")
    if uri.startswith(WP_NAMESPACE_PREFIX):
        return f"excerpt:{local}" if uri.rstrip("/").endswith("excerpt") else f"wp:{local}"
    prefix = NAMESPACES.get(uri)
    return f"{prefix}:{local}" if prefix else tag


class _Target:
    """Builds one element of the channel at a time (an author, a category, an item) and hands it on.

    The pure-Python parser underneath calls these as it reads, so the line the parser is at is the line
    the element starts on.
    """

    def __init__(self, line: Callable[[], int], done: Callable[[Element, int, list[int]], None]) -> None:
        self._line = line
        self._done = done
        self._depth = 0
        self._builder: TreeBuilder | None = None
        self._start_line = 0
        self._comment_lines: list[int] = []
        self.root = ""

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        tag = _tag(tag)
        self._depth += 1
        if self._depth == 1:
            self.root = tag
            if tag != "rss":
                raise WxrError(self._line(), tag, NOT_RSS.format(tag=tag))
        elif self._depth == 2 and tag != "channel":
            raise WxrError(self._line(), tag, "the <rss> of an export holds one <channel>")
        elif self._depth == 3:
            self._builder = TreeBuilder()
            self._start_line = self._line()
            self._comment_lines = []
        if self._builder is not None:
            if tag == "wp:comment" and self._depth == 4:
                self._comment_lines.append(self._line())
            self._builder.start(tag, attrib)

    def end(self, tag: str) -> None:
        tag = _tag(tag)
        if self._builder is not None:
            self._builder.end(tag)
            if self._depth == 3:
                element = self._builder.close()
                self._builder = None
                self._done(element, self._start_line, self._comment_lines)
        self._depth -= 1

    def data(self, text: str) -> None:
        if self._builder is not None:
            self._builder.data(text)

    def close(self) -> None:
        return None


def _children(element: Element, tag: str) -> Iterator[Element]:
    # By hand: ElementPath would read the "wp:" of these names as a namespace prefix.
    return (child for child in element if child.tag == tag)


def _text(element: Element, tag: str) -> str:
    child = next(_children(element, tag), None)
    return (child.text or "") if child is not None else ""


def _integer(element: Element, tag: str) -> int | None:
    text = _text(element, tag).strip()
    # ASCII digits only: int() would also take Arabic-Indic digits and a 20-digit number is no id.
    if text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    return None


def _meta(element: Element, tag: str) -> dict[str, str]:
    """Meta pairs; when a key repeats, the last value wins, as ``get_post_meta(..., single=True)`` reads it."""
    pairs = {}
    for meta in _children(element, tag):
        key = _text(meta, "wp:meta_key")
        if key:
            pairs[key] = _text(meta, "wp:meta_value")
    return pairs


def _author(element: Element, line: int) -> Author:
    meta = _meta(element, "wp:author_meta")
    meta.update(_meta(element, "wp:usermeta"))
    return Author(
        id=_integer(element, "wp:author_id"),
        login=_text(element, "wp:author_login").strip(),
        display_name=_text(element, "wp:author_display_name").strip(),
        email=_text(element, "wp:author_email").strip(),
        meta=meta,
        line=line,
    )


def _comment(element: Element, line: int) -> WxrComment:
    return WxrComment(
        id=_integer(element, "wp:comment_id"),
        author=_text(element, "wp:comment_author").strip(),
        user_id=_integer(element, "wp:comment_user_id") or 0,
        at=_text(element, "wp:comment_date_gmt"),
        text=_text(element, "wp:comment_content"),
        approved=_text(element, "wp:comment_approved").strip(),
        type=_text(element, "wp:comment_type").strip(),
        parent=_integer(element, "wp:comment_parent") or 0,
        meta=_meta(element, "wp:commentmeta"),
        line=line,
    )


def _post(element: Element, line: int, comment_lines: list[int]) -> WxrPost:
    comments = tuple(
        _comment(c, comment_line)
        for c, comment_line in zip(_children(element, "wp:comment"), comment_lines, strict=True)
    )
    terms = tuple(
        Term(domain=term.get("domain", ""), nicename=term.get("nicename", ""), name=(term.text or "").strip())
        for term in _children(element, "category")
    )
    return WxrPost(
        id=_integer(element, "wp:post_id"),
        title=_text(element, "title"),
        body=_text(element, "content:encoded"),
        creator=_text(element, "dc:creator").strip(),
        posted_at=_text(element, "wp:post_date_gmt"),
        modified_at=_text(element, "wp:post_modified_gmt"),
        name=_text(element, "wp:post_name").strip(),
        status=_text(element, "wp:status").strip(),
        type=_text(element, "wp:post_type").strip() or "post",
        password=_text(element, "wp:post_password"),
        sticky=_text(element, "wp:is_sticky").strip() == "1",
        terms=terms,
        meta=_meta(element, "wp:postmeta"),
        comments=comments,
        line=line,
    )


def read_wxr(source: BinaryIO, *, progress: Callable[[int], None] | None = None) -> Iterator[Channel | WxrPost]:
    """The export's ``Channel`` (before its first item, or at the end if it has none), then each ``WxrPost``.

    ``progress`` is told how many bytes have been read so far, after each block.
    """
    found = _Found()

    def line() -> int:
        return parser.parser.CurrentLineNumber

    target = _Target(line, found.done)
    # defusedxml's parser is ElementTree's pure-Python one, which calls the target as it reads: the line the
    # parser is at is then the line the element starts on.
    parser = DefusedXMLParser(target=target, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    read = 0
    try:
        while block := source.read(READ_SIZE):
            read += len(block)
            parser.feed(block)
            if progress is not None:
                progress(read)
            yield from found.ready
            found.ready.clear()
        parser.close()
    except ParseError as error:
        line_number, _ = error.position
        raise WxrError(line_number, "", f"not well-formed XML ({_expat_reason(error)})") from None
    except DefusedXmlException as error:
        raise WxrError(line(), "", FORBIDDEN.format(what=_forbidden(error))) from None
    yield from found.ready
    header = found.header
    if not header["yielded"]:
        if header["version"] is None:
            raise WxrError(None, "channel", "holds no <wp:wxr_version>: this is not a WordPress export")
        yield Channel(version=header["version"], title=header["title"], link=header["link"], authors=header["authors"])


class _Found:
    """What the parser has found and not yet handed on: the channel once its header is read, then each post."""

    def __init__(self) -> None:
        self.ready: list[Channel | WxrPost] = []
        self.header: dict[str, Any] = {"version": None, "title": "", "link": "", "authors": {}, "yielded": False}

    def done(self, element: Element, start: int, comment_lines: list[int]) -> None:
        header = self.header
        tag = element.tag
        if tag == "wp:wxr_version":
            version = (element.text or "").strip()
            if version not in READABLE_VERSIONS:
                raise WxrError(
                    start, tag, UNKNOWN_VERSION.format(version=version, readable=" or ".join(READABLE_VERSIONS))
                )
            header["version"] = version
        elif tag in ("title", "link") and not header["yielded"]:
            header[tag] = (element.text or "").strip()
        elif tag == "wp:author":
            author = _author(element, start)
            if author.login:
                header["authors"][author.login] = author
        elif tag == "item":
            if not header["yielded"]:
                if header["version"] is None:
                    raise WxrError(start, "item", NO_VERSION)
                channel = Channel(
                    version=header["version"],
                    title=header["title"],
                    link=header["link"],
                    authors=header["authors"],
                    line=start,
                )
                header["yielded"] = True
                self.ready.append(channel)
            self.ready.append(_post(element, start, comment_lines))


def _expat_reason(error: ParseError) -> str:
    message = str(error)
    return message.split(":", 1)[0] if ":" in message else message


def _forbidden(error: DefusedXmlException) -> str:
    name = type(error).__name__
    return {
        "DTDForbidden": "A document type declaration (<!DOCTYPE>)",
        "EntitiesForbidden": "An entity declaration (<!ENTITY>)",
        "ExternalReferenceForbidden": "A reference to an external file or address",
    }.get(name, name)
