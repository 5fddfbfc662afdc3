"""Reading a MediaWiki XML export (schema 0.10 or 0.11) as a stream of plain records.

The file may be gigabytes (a wiki's whole history), so it is read in chunks by a SAX parser and only the
revision being read is held in memory. The parser is hardened: a document type declaration is refused
outright (MediaWiki never writes one, and it is where entity-expansion bombs and external entities live),
and so are entities and external references. Every refusal names the element and its line.

``read_export`` yields, in file order, one ``SiteInfo`` (if the file has one), then a ``PageRevision`` for
each revision and a ``Skipped`` for each revision that cannot be imported (no text, text deleted) or
element the reader does not import (log items, uploads). Pages may repeat: a dump may split a page's
history over several ``<page>`` elements, so records carry their page's title rather than being nested.
"""

from __future__ import annotations

import xml.sax
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import BinaryIO
from xml.sax.expatreader import ExpatLocator

from defusedxml import DefusedXmlException
from defusedxml.expatreader import DefusedExpatParser

from dynasties.clock import storable_moment_problem

SCHEMA_VERSIONS = ("0.10", "0.11")
NAMESPACE = "http://www.mediawiki.org/xml/export-{version}/"
CHUNK_BYTES = 64 * 1024
# The deepest element the reader looks at is <mediawiki><page><revision><contributor><username>; anything
# nested deeper is only counted, so a file of deeply nested elements is read in time linear in its size.
DEEPEST_READ = 5

UNKNOWN_SCHEMA = "line {line}: <{element}> is not a MediaWiki export of a version read here ({versions}): {found}"
NOT_AN_EXPORT = "line {line}: <{element}> is not a MediaWiki export (expected <mediawiki>)"
BAD_XML = "line {line}: the file is not well-formed XML: {reason}"
FORBIDDEN = "line {line}: {what} are refused: a MediaWiki export has none, and they can exhaust memory or read files"
BAD_VALUE = "line {line}: <{element}> {problem}"
MISSING = "line {line}: <{element}> has no <{child}>"
NO_TEXT = "line {line}: <revision> {revision_id} of {title!r} has no <text>"
TEXT_DELETED = "line {line}: <revision> {revision_id} of {title!r} has its text deleted"
NOT_IMPORTED = "line {line}: <{element}> is not imported"


class ExportError(ValueError):
    """The file cannot be read as a MediaWiki export; the message names the element and its line."""


@dataclass(frozen=True)
class SiteInfo:
    sitename: str = ""
    dbname: str = ""
    base: str = ""
    generator: str = ""
    case: str = "first-letter"
    namespaces: dict[int, str] = field(default_factory=dict)
    version: str = ""


@dataclass(frozen=True)
class Contributor:
    """Who saved a revision: a user, an address (an anonymous edit), or nobody shown (deleted)."""

    username: str | None = None
    user_id: int | None = None
    ip: str | None = None
    deleted: bool = False

    @property
    def name(self) -> str | None:
        return self.username or self.ip


@dataclass(frozen=True)
class PageRevision:
    title: str
    namespace: int
    page_id: int | None
    revision_id: int | None
    parent_id: int | None
    timestamp: datetime
    contributor: Contributor
    comment: str
    comment_deleted: bool
    minor: bool
    text: str
    sha1: str
    model: str
    line: int


@dataclass(frozen=True)
class Skipped:
    kind: str
    reason: str
    line: int
    title: str = ""


Record = SiteInfo | PageRevision | Skipped


@dataclass
class _Revision:
    line: int
    fields: dict[str, str] = field(default_factory=dict)
    contributor: dict[str, str] = field(default_factory=dict)
    contributor_deleted: bool = False
    comment_deleted: bool = False
    text_deleted: bool = False
    has_text: bool = False
    minor: bool = False


class _Handler(xml.sax.ContentHandler):
    """Builds records from SAX events; ``out`` collects what the last chunk completed."""

    def __init__(self) -> None:
        super().__init__()
        self.out: list[Record] = []
        self.locator = None
        self.path: list[str] = []
        self.version = ""
        self.uri = ""
        self.chars: list[str] = []
        self.siteinfo: dict | None = None
        self.namespace_key: int | None = None
        self.page: dict | None = None
        self.revision: _Revision | None = None

    def setDocumentLocator(self, locator) -> None:  # noqa: N802 (SAX's name)
        self.locator = locator

    @property
    def line(self) -> int:
        return self.locator.getLineNumber() if self.locator is not None else 0

    def startElementNS(self, name, qname, attrs) -> None:  # noqa: N802
        uri, local = name
        if not self.path:
            self._check_root(uri, local, attrs)
        elif uri != self.uri:
            self.path.append(local)
            return
        elif len(self.path) >= DEEPEST_READ:
            self.path.append(local)
            self.chars = []
            return
        self.path.append(local)
        self.chars = []
        where = tuple(self.path[1:])
        if where == ("siteinfo",):
            self.siteinfo = {"namespaces": {}}
        elif where == ("siteinfo", "namespaces", "namespace"):
            self.namespace_key = self._int(attrs.get((None, "key"), ""), "namespace", "key")
        elif where == ("page",):
            self.page = {"line": self.line}
        elif where == ("page", "revision"):
            self.revision = _Revision(line=self.line)
        elif self.revision is not None and where[:2] == ("page", "revision"):
            deleted = attrs.get((None, "deleted"), "") == "deleted"
            if where == ("page", "revision", "contributor"):
                self.revision.contributor_deleted = deleted
            elif where == ("page", "revision", "comment"):
                self.revision.comment_deleted = deleted
            elif where == ("page", "revision", "text"):
                self.revision.has_text = True
                self.revision.text_deleted = deleted
            elif where == ("page", "revision", "minor"):
                self.revision.minor = True
        elif where in {("logitem",), ("page", "upload")}:
            self.out.append(
                Skipped(
                    kind=local,
                    reason=NOT_IMPORTED.format(line=self.line, element=local),
                    line=self.line,
                    title=(self.page or {}).get("title", ""),
                )
            )

    def endElementNS(self, name, qname) -> None:  # noqa: N802
        uri, local = name
        if uri != self.uri:
            self.path.pop()
            return
        if len(self.path) > DEEPEST_READ:
            self.path.pop()
            self.chars = []
            return
        where = tuple(self.path[1:])
        self.path.pop()
        text = "".join(self.chars)
        self.chars = []
        if self.siteinfo is not None and where[:1] == ("siteinfo",):
            self._end_siteinfo(where, text)
        elif self.page is not None and where in {("page", "title"), ("page", "ns"), ("page", "id")}:
            self.page[local] = text
        elif self.revision is not None and where[:2] == ("page", "revision"):
            self._end_revision(where, text)
        elif where == ("page",):
            self.page = None

    def characters(self, content: str) -> None:
        # Only leaf elements' text is kept; the whitespace between elements is dropped as it comes.
        if len(self.path) >= 2 and self.path[-1] not in {"mediawiki", "page", "revision", "siteinfo"}:
            self.chars.append(content)

    def _check_root(self, uri: str, local: str, attrs) -> None:
        if local != "mediawiki":
            raise ExportError(NOT_AN_EXPORT.format(line=self.line, element=local))
        version = attrs.get((None, "version"), "")
        if version not in SCHEMA_VERSIONS or uri != NAMESPACE.format(version=version):
            found = f"version {version!r}, namespace {uri!r}" if version else f"namespace {uri!r}"
            raise ExportError(
                UNKNOWN_SCHEMA.format(line=self.line, element=local, versions=", ".join(SCHEMA_VERSIONS), found=found)
            )
        self.version, self.uri = version, uri

    def _end_siteinfo(self, where: tuple[str, ...], text: str) -> None:
        info = self.siteinfo
        if where == ("siteinfo",):
            self.out.append(SiteInfo(version=self.version, **info))
            self.siteinfo = None
        elif where == ("siteinfo", "namespaces", "namespace"):
            info["namespaces"][self.namespace_key] = text
        elif len(where) == 2 and where[1] in {"sitename", "dbname", "base", "generator", "case"}:
            info[where[1]] = text

    def _end_revision(self, where: tuple[str, ...], text: str) -> None:
        revision = self.revision
        if where == ("page", "revision"):
            self.out.append(self._finish_revision(revision))
            self.revision = None
        elif where[:3] == ("page", "revision", "contributor") and len(where) == 4:
            revision.contributor[where[3]] = text
        elif len(where) == 3 and where[2] in {"id", "parentid", "timestamp", "comment", "text", "sha1", "model"}:
            revision.fields[where[2]] = text

    def _finish_revision(self, revision: _Revision) -> Record:
        page = self.page
        title = (page.get("title") or "").strip()
        if not title:
            raise ExportError(MISSING.format(line=page["line"], element="page", child="title"))
        fields = revision.fields
        revision_id = self._int(fields.get("id"), "id", None, line=revision.line)
        if not revision.has_text:
            return Skipped(
                kind="revision",
                line=revision.line,
                title=title,
                reason=NO_TEXT.format(line=revision.line, revision_id=revision_id, title=title),
            )
        if revision.text_deleted:
            return Skipped(
                kind="revision",
                line=revision.line,
                title=title,
                reason=TEXT_DELETED.format(line=revision.line, revision_id=revision_id, title=title),
            )
        if "timestamp" not in fields:
            raise ExportError(MISSING.format(line=revision.line, element="revision", child="timestamp"))
        people = revision.contributor
        contributor = Contributor(
            username=people.get("username") or None,
            user_id=self._int(people.get("id"), "id", None, line=revision.line),
            ip=people.get("ip") or None,
            deleted=revision.contributor_deleted,
        )
        return PageRevision(
            title=title,
            namespace=self._int(page.get("ns"), "ns", None, line=page["line"]) or 0,
            page_id=self._int(page.get("id"), "id", None, line=page["line"]),
            revision_id=revision_id,
            parent_id=self._int(fields.get("parentid"), "parentid", None, line=revision.line),
            timestamp=_timestamp(fields["timestamp"], revision.line),
            contributor=contributor,
            comment=fields.get("comment", ""),
            comment_deleted=revision.comment_deleted,
            minor=revision.minor,
            text=fields.get("text", ""),
            sha1=fields.get("sha1", ""),
            model=fields.get("model", "wikitext"),
            line=revision.line,
        )

    def _int(self, value: str | None, element: str, attribute: str | None, *, line: int | None = None) -> int | None:
        if value is None or value == "":
            return None
        value = value.strip()
        digits = value[1:] if value.startswith("-") else value
        if not digits.isascii() or not digits.isdigit() or len(digits) > 18:
            what = f"attribute {attribute}=" if attribute else "value "
            raise ExportError(
                BAD_VALUE.format(
                    line=line or self.line, element=element, problem=f"has {what}{value[:40]!r}, not a whole number"
                )
            )
        return int(value)


def _timestamp(text: str, line: int) -> datetime:
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise ExportError(
            BAD_VALUE.format(
                line=line,
                element="timestamp",
                problem=f"has {text[:40]!r}, not a UTC time such as 2016-07-25T03:32:29Z",
            )
        )
    try:
        moment = moment.astimezone(UTC)
    except OverflowError:
        moment = None
    problem = storable_moment_problem(moment) if moment is not None else f"{text[:40]!r} is no time a date can hold"
    if problem is not None:
        raise ExportError(BAD_VALUE.format(line=line, element="timestamp", problem=f"is refused: {problem}"))
    return moment


def read_export(stream: BinaryIO, *, on_progress: Callable[[int], None] | None = None) -> Iterator[Record]:
    """The records of the export in ``stream``, read chunk by chunk; ``ExportError`` on a bad file.

    ``on_progress`` is called with the number of bytes read so far after each chunk.
    """
    handler = _Handler()
    parser = DefusedExpatParser(forbid_dtd=True, forbid_entities=True, forbid_external=True)
    parser.setFeature(xml.sax.handler.feature_namespaces, True)
    parser.setContentHandler(handler)
    # SAX hands a locator only to parse(); feeding chunks needs one given by hand, for line numbers.
    handler.setDocumentLocator(ExpatLocator(parser))
    done = 0
    try:
        while True:
            chunk = stream.read(CHUNK_BYTES)
            if not chunk:
                parser.close()
            else:
                parser.feed(chunk)
                done += len(chunk)
            yield from handler.out
            handler.out.clear()
            if on_progress is not None:
                on_progress(done)
            if not chunk:
                return
    except xml.sax.SAXParseException as error:
        raise ExportError(BAD_XML.format(line=error.getLineNumber(), reason=error.getMessage())) from None
    except DefusedXmlException as error:
        what = {
            "DTDForbidden": "document type declarations",
            "EntitiesForbidden": "entity declarations",
            "ExternalReferenceForbidden": "external references",
        }.get(type(error).__name__, "declarations")
        raise ExportError(FORBIDDEN.format(line=handler.line, what=what)) from None
