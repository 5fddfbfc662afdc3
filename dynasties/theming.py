"""A dynasty's look, set in its Ascension Address: a colour palette, a header line and the names its vote
icons go by on the tally.

The palettes are a fixed set, each a block of CSS custom properties in ``static/css/site.css`` selected by
the ``data-palette`` attribute of the page's ``<html>``; a dynasty names one and no colour value ever
reaches a page from input, so the Content Security Policy needs no inline style. Labels and the header line
are plain text, escaped like any other.

Pure: no Django.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

DEFAULT_PALETTE = "harbour"
# name: what the Ascension form offers. Keep in step with the ``[data-palette=…]`` blocks of site.css.
PALETTES: dict[str, str] = {
    "harbour": "Harbour (blue on grey, the default)",
    "daybreak": "Daybreak (amber on cream)",
    "midnight": "Midnight (pale on dark blue)",
    "forest": "Forest (greens)",
    "ember": "Ember (red and charcoal)",
    "parchment": "Parchment (sepia)",
}

HEADER_LINE_MAX = 120
VOTE_LABEL_MAX = 24
DEFAULT_VOTE_LABELS = {"for": "FOR", "against": "AGAINST", "deferential": "DEFERENTIAL"}

_ICON_WORD = re.compile(r"\b(?:" + "|".join(DEFAULT_VOTE_LABELS.values()) + r")\b")

UNKNOWN_PALETTE = "There is no palette “{name}”; choose one of {names}."
HEADER_TOO_LONG = "The header line may be at most {limit} characters; this one has {length}."
LABEL_TOO_LONG = "The name for {icon} may be at most {limit} characters; this one has {length}."
BAD_CHARACTERS = "The {what} may not hold line breaks, control, invisible or direction-changing characters."


class ThemeError(ValueError):
    """A theme that cannot be used; the message says why."""


@dataclass(frozen=True)
class Theme:
    palette: str = DEFAULT_PALETTE
    header_line: str = ""
    vote_labels: tuple[tuple[str, str], ...] = tuple(DEFAULT_VOTE_LABELS.items())

    def label(self, icon: str) -> str:
        return dict(self.vote_labels).get(icon, icon.upper())

    def in_vote_names(self, text: str) -> str:
        """A sentence the rules wrote ("5 FOR reaches Quorum 4") in the names this dynasty gives its vote
        icons ("5 Aye reaches Quorum 4"). The rules name icons in capitals, as the seeds do; nothing else in
        their sentences is a capitalised icon name."""
        labels = {default: self.label(icon) for icon, default in DEFAULT_VOTE_LABELS.items()}
        if all(label == default for default, label in labels.items()):
            return text
        return _ICON_WORD.sub(lambda match: labels[match.group(0)], text)


def _plain_line(text: str, what: str) -> str:
    text = unicodedata.normalize("NFC", (text or "").strip())
    # Cc: controls (NUL, line breaks); Cf: format characters (zero-width, bidirectional overrides).
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in text):
        raise ThemeError(BAD_CHARACTERS.format(what=what))
    return text


def theme_from(*, palette: str = "", header_line: str = "", vote_labels: dict[str, str] | None = None) -> Theme:
    """Check a theme as given in an Ascension Address; empty values fall back to the defaults."""
    palette = (palette or "").strip() or DEFAULT_PALETTE
    if palette not in PALETTES:
        raise ThemeError(UNKNOWN_PALETTE.format(name=palette, names=", ".join(PALETTES)))
    header = _plain_line(header_line, "header line")
    if len(header) > HEADER_LINE_MAX:
        raise ThemeError(HEADER_TOO_LONG.format(limit=HEADER_LINE_MAX, length=len(header)))
    labels = []
    for icon, default in DEFAULT_VOTE_LABELS.items():
        label = _plain_line((vote_labels or {}).get(icon, ""), f"name for {default}") or default
        if len(label) > VOTE_LABEL_MAX:
            raise ThemeError(LABEL_TOO_LONG.format(icon=default, limit=VOTE_LABEL_MAX, length=len(label)))
        labels.append((icon, label))
    return Theme(palette=palette, header_line=header, vote_labels=tuple(labels))
