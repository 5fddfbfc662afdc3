"""Edit summaries as MediaWiki shows them: ``/* Section */ the rest`` names the section the edit began in, and
a history page shows it as an arrow link to that section followed by the rest ("→Gold: fixed a typo")."""

from __future__ import annotations

import re
from dataclasses import dataclass

AUTOCOMMENT = re.compile(r"/\*\s*(.*?)\s*\*/")


@dataclass(frozen=True)
class SummaryPart:
    """A piece of a summary: plain text, or a section (``section`` set) with whether text follows it."""

    text: str
    section: str = ""
    followed: bool = False


def summary_parts(summary: str) -> list[SummaryPart]:
    """``summary`` cut into plain text and the sections its ``/* … */`` comments name, in order. An empty
    comment (``/**/``) stays as it was typed, as MediaWiki leaves it."""
    parts: list[SummaryPart] = []
    position = 0
    for match in AUTOCOMMENT.finditer(summary or ""):
        if not match.group(1):
            continue
        between = summary[position : match.start()]
        if between.strip():
            parts.append(SummaryPart(text=between.lstrip() if parts and parts[-1].section else between))
        followed = bool(summary[match.end() :].strip())
        parts.append(SummaryPart(text=match.group(1), section=match.group(1), followed=followed))
        position = match.end()
    rest = (summary or "")[position:]
    if rest.strip():
        # The space after the comment is MediaWiki's separator, replaced by the colon.
        parts.append(SummaryPart(text=rest.lstrip() if parts and parts[-1].section else rest))
    return parts
