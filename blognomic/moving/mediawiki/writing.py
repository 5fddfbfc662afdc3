"""Writing a MediaWiki XML export (schema 0.11) from plain records, a page at a time.

The output follows MediaWiki's ``export-0.11.xsd``: a ``<siteinfo>`` with the standard namespaces, then
one ``<page>`` per page with its revisions oldest first, each with its contributor, timestamp, comment,
origin, model, format, text (with its size in bytes) and SHA-1 in base 36, in the order the schema
requires, as ``Special:Export`` writes them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TextIO
from xml.sax.saxutils import escape

from blognomic.moving.mediawiki.reading import Contributor

VERSION = "0.11"
STANDARD_NAMESPACES = {
    -2: "Media",
    -1: "Special",
    0: "",
    1: "Talk",
    2: "User",
    3: "User talk",
    4: "Project",
    5: "Project talk",
    6: "File",
    7: "File talk",
    8: "MediaWiki",
    9: "MediaWiki talk",
    10: "Template",
    11: "Template talk",
    12: "Help",
    13: "Help talk",
    14: "Category",
    15: "Category talk",
}


@dataclass(frozen=True)
class OutRevision:
    revision_id: int
    timestamp: datetime
    contributor: Contributor
    comment: str
    text: str
    minor: bool = False


@dataclass(frozen=True)
class OutPage:
    title: str
    namespace: int
    page_id: int
    revisions: Iterable[OutRevision]


def sha1_base36(text: str) -> str:
    """MediaWiki's revision checksum: the SHA-1 of the UTF-8 text in base 36, 31 digits."""
    number = int.from_bytes(hashlib.sha1(text.encode("utf-8")).digest(), "big")
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while number:
        number, digit = divmod(number, 36)
        out = digits[digit] + out
    return out.rjust(31, "0")


def mediawiki_timestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def namespace_of(title: str, namespaces: dict[int, str] = STANDARD_NAMESPACES) -> int:
    """The namespace a title's prefix names ("User:Kevan" is 2); 0 for the main namespace."""
    prefix, sep, rest = title.partition(":")
    if not sep or not rest:
        return 0
    for key, name in namespaces.items():
        if key > 0 and name and name.casefold() == prefix.strip().casefold():
            return key
    return 0


def write_export(
    out: TextIO, pages: Iterable[OutPage], *, sitename: str = "BlogNomic", base: str = "", version: str = VERSION
) -> None:
    """Write ``pages`` as a MediaWiki export to ``out``."""
    ns = f"http://www.mediawiki.org/xml/export-{version}/"
    out.write(
        f'<mediawiki xmlns="{ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xsi:schemaLocation="{ns} http://www.mediawiki.org/xml/export-{version}.xsd" '
        f'version="{version}" xml:lang="en">\n'
    )
    out.write("  <siteinfo>\n")
    out.write(f"    <sitename>{escape(sitename)}</sitename>\n")
    out.write("    <dbname>blognomic</dbname>\n")
    out.write(f"    <base>{escape(base)}</base>\n")
    out.write("    <generator>BlogNomic</generator>\n")
    out.write("    <case>first-letter</case>\n")
    out.write("    <namespaces>\n")
    for key, name in STANDARD_NAMESPACES.items():
        if name:
            out.write(f'      <namespace key="{key}" case="first-letter">{escape(name)}</namespace>\n')
        else:
            out.write(f'      <namespace key="{key}" case="first-letter" />\n')
    out.write("    </namespaces>\n")
    out.write("  </siteinfo>\n")
    for page in pages:
        _write_page(out, page)
    out.write("</mediawiki>\n")


def _write_page(out: TextIO, page: OutPage) -> None:
    out.write("  <page>\n")
    out.write(f"    <title>{escape(page.title)}</title>\n")
    out.write(f"    <ns>{page.namespace}</ns>\n")
    out.write(f"    <id>{page.page_id}</id>\n")
    parent = None
    for revision in page.revisions:
        out.write("    <revision>\n")
        out.write(f"      <id>{revision.revision_id}</id>\n")
        if parent is not None:
            out.write(f"      <parentid>{parent}</parentid>\n")
        out.write(f"      <timestamp>{mediawiki_timestamp(revision.timestamp)}</timestamp>\n")
        _write_contributor(out, revision.contributor)
        if revision.minor:
            out.write("      <minor />\n")
        if revision.comment:
            out.write(f"      <comment>{escape(revision.comment)}</comment>\n")
        # The main slot's origin: the revision that made its content, here always the revision itself.
        out.write(f"      <origin>{revision.revision_id}</origin>\n")
        out.write("      <model>wikitext</model>\n")
        out.write("      <format>text/x-wiki</format>\n")
        size = len(revision.text.encode("utf-8"))
        # Carriage returns would be read back as newlines unless written as references.
        text = escape(revision.text).replace("\r", "&#13;")
        out.write(f'      <text bytes="{size}" xml:space="preserve">{text}</text>\n')
        out.write(f"      <sha1>{sha1_base36(revision.text)}</sha1>\n")
        out.write("    </revision>\n")
        parent = revision.revision_id
    out.write("  </page>\n")


def _write_contributor(out: TextIO, contributor: Contributor) -> None:
    if contributor.deleted or not contributor.name:
        out.write('      <contributor deleted="deleted" />\n')
    elif contributor.username:
        out.write("      <contributor>\n")
        out.write(f"        <username>{escape(contributor.username)}</username>\n")
        out.write(f"        <id>{contributor.user_id or 0}</id>\n")
        out.write("      </contributor>\n")
    else:
        out.write(f"      <contributor>\n        <ip>{escape(contributor.ip or '')}</ip>\n      </contributor>\n")


__all__ = ["OutPage", "OutRevision", "write_export", "sha1_base36", "namespace_of"]
