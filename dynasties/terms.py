"""Keyword replacement for a new dynasty: rename terms such as "Player" and "Emperor" throughout a text.

At an Ascension the new Emperor may replace the game's keywords ("Player" → "Hunter", "Emperor" →
"Pirate"). ``replace_keywords`` does that in one pass, so every replacement sees only the original text
and a swap ("Player" ↔ "Hunter") comes out clean.

What is matched:

- the term and its plural ("Players"); possessives follow naturally ("Player's", "Players'",
  "Player’s"), since an apostrophe ends a word;
- in any capitalisation; the replacement copies it: "player" → "hunter", "Player" → "Hunter",
  "PLAYER" → "HUNTER"; any other mixture takes the replacement as given;
- whole words only: "Playerhood" and "Emperorship" are left alone, since a compound is a different word
  that the ruleset may define separately; a hyphen or apostrophe separates words, so
  "Player-controlled" does change;
- a term of several words ("Zero Cool") across any whitespace, including a line break.

Plurals default to English spelling rules ("Duke" → "Dukes", "Family" → "Families", "Witch" →
"Witches"); irregular ones are given in ``plurals`` ({"Goose": "Geese"}), for old and new terms alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_VOWELS = frozenset("aeiou")
_SIBILANT_ENDINGS = ("s", "x", "z", "ch", "sh")


def pluralize(word: str, plurals: Mapping[str, str] | None = None) -> str:
    """The plural of ``word``: the one given in ``plurals`` if any, else by the usual English rules."""
    if plurals:
        for singular, plural in plurals.items():
            if singular.casefold() == word.casefold():
                return _copy_case(word, singular, plural)
    lower = word.lower()
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in _VOWELS:
        return word[:-1] + _suffix_case(word, "ies")
    if lower.endswith(_SIBILANT_ENDINGS):
        return word + _suffix_case(word, "es")
    return word + _suffix_case(word, "s")


def _suffix_case(word: str, suffix: str) -> str:
    return suffix.upper() if len(word) > 1 and word.isupper() else suffix


def replace_keywords(text: str, replacements: Mapping[str, str], *, plurals: Mapping[str, str] | None = None) -> str:
    """``text`` with each term in ``replacements`` (old → new) renamed, all at once.

    ``plurals`` maps a singular term, old or new, to an irregular plural.
    """
    forms = _replacement_forms(replacements, plurals or {})
    if not forms:
        return text
    pattern = _forms_pattern(form for form, _ in forms.values())

    def substitute(match: re.Match[str]) -> str:
        found = match.group()
        given_form, new = forms[_canonical(found)]
        return _copy_case(found, given_form, new)

    return pattern.sub(substitute, text)


def _replacement_forms(replacements: Mapping[str, str], plurals: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    """Every old form (singular and plural), keyed by its case-folded spelling: (form as given, new form).

    A term given explicitly wins over a plural derived from another term, so {"Player": "A",
    "Players": "B"} renames "Players" to "B".
    """
    cleaned = [(" ".join(old.split()), " ".join(new.split())) for old, new in replacements.items()]
    cleaned = [(old, new) for old, new in cleaned if old]
    forms: dict[str, tuple[str, str]] = {}
    for old, new in cleaned:
        plural_old = pluralize(old, plurals)
        forms[_canonical(plural_old)] = (plural_old, pluralize(new, plurals))
    for old, new in cleaned:
        forms[_canonical(old)] = (old, new)
    return forms


def _canonical(form: str) -> str:
    return " ".join(form.split()).casefold()


def _forms_pattern(forms: Iterable[str]) -> re.Pattern[str]:
    # Longest first, so "Zero Cool" is preferred to a term "Zero" at the same place.
    alternatives = sorted(forms, key=len, reverse=True)
    body = "|".join(r"\s+".join(re.escape(word) for word in form.split()) for form in alternatives)
    return re.compile(rf"(?<![\w])(?:{body})(?![\w])", re.IGNORECASE)


def _copy_case(found: str, canonical_form: str, replacement: str) -> str:
    """``replacement`` in the capitalisation ``found`` uses, relative to how the term was given."""
    found_letters = [char for char in found if char.isalpha()]
    if " ".join(found.split()) == canonical_form:
        return replacement
    if len(found_letters) > 1 and all(char.isupper() for char in found_letters):
        return replacement.upper()
    if all(char.islower() for char in found_letters):
        return replacement.lower()
    if found_letters and found_letters[0].isupper() and all(c.islower() for c in found_letters[1:]):
        return replacement[:1].upper() + replacement[1:]
    if found.istitle():
        return " ".join(word[:1].upper() + word[1:] for word in replacement.split(" "))
    return replacement
