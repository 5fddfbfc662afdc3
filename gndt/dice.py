"""Random generators typed into GNDT update comments.

A player rolls dice or draws from a word list by writing a token in the
comment of a GNDT update: ``DICE6`` (one six-sided die), ``3DICE6`` (three of
them), ``FRUIT``, ``COLOUR`` (or ``COLOR``) and ``VEGGIE``.  This module finds
those tokens, rolls them with a cryptographic generator and describes the
results so they can be stored beside the comment.

Decisions about how tokens are read:

* Tokens are upper case exactly as the rulesets print them; ``dice6`` is
  ordinary text.
* A token must stand alone: it may not be glued to letters, digits or ``_``
  on either side, so ``PARADICE6``, ``DICE6s`` and ``GRAPEFRUIT`` roll
  nothing, while ``#DICE52``, ``(DICE6)`` and ``DICE6,DICE6`` do.
* A bare ``DICE`` is a six-sided die: Ruleset 21 (2005) asks players to "roll
  a DICE" and reads the result as 1 to 6.
* ``DICE 52`` with a single space is read as ``DICE52``: Ruleset 52 (2008)
  prints it that way in the card-drawing comments it prescribes.
* A die with zero or fewer sides (``DICE0``, ``DICE-3``) always shows 0, and
  ``0DICE6`` rolls no dice and totals 0.
* Word lists are data: any upper-case name in the ``lists`` mapping is a
  token, so a proposal that changes or adds a list needs no code change.
  ``COLOR`` is the same list as ``COLOUR``.
"""

from __future__ import annotations

import functools
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

DEFAULT_LISTS: dict[str, tuple[str, ...]] = {
    "FRUIT": ("Lemon", "Orange", "Kiwi", "Grape", "Cherry", "Tangelo"),
    "COLOUR": (
        "White",
        "Red",
        "Green",
        "Silver",
        "Yellow",
        "Turquoise",
        "Magenta",
        "Orange",
        "Purple",
        "Black",
    ),
    "VEGGIE": ("Potato", "Carrot", "Triffid", "Pumpkin"),
}

# Spellings that draw from another list; the rulesets accept both spellings of colour.
LIST_ALIASES: dict[str, str] = {"COLOR": "COLOUR"}

BARE_DICE_SIDES = 6
MAX_DICE_PER_TOKEN = 100
MAX_SIDES = 1_000_000
MAX_TOKENS_PER_COMMENT = 20

TOO_MANY_DICE = "{token}: at most {limit} dice may be rolled at once."
TOO_MANY_SIDES = "{token}: a die may have at most {limit:,} sides."
TOO_MANY_TOKENS = "A comment may hold at most {limit} rolls; this one has {count}."
EMPTY_LIST = "{token}: the {name} list has no entries to choose from."

# Digits are matched greedily and checked afterwards, so an absurd number is
# reported instead of being silently ignored (or overflowing int()).
_DICE_PATTERN = r"(?P<count>[0-9]+)?DICE(?:(?P<sides>-?[0-9]+)|\ (?P<spaced_sides>[0-9]+))?"
_STANDALONE_BEFORE = r"(?<![A-Za-z0-9_])"
_STANDALONE_AFTER = r"(?![A-Za-z0-9_])"
_MAX_DIGITS = 9
_MAX_SHOWN_TOKEN = 24


class DiceError(ValueError):
    """A comment asks for a roll that is refused; the message names the token."""


class RandomSource(Protocol):
    """The two operations a roll needs; ``random.Random`` and ``secrets.SystemRandom`` both fit."""

    def randint(self, a: int, b: int) -> int: ...

    def choice(self, seq: Sequence[str]) -> str: ...


SYSTEM_RNG: RandomSource = secrets.SystemRandom()


@dataclass(frozen=True)
class Roll:
    """One token of a comment and what it produced.

    ``kind`` is ``"dice"`` for a die roll, otherwise the name of the list drawn
    from (``"FRUIT"``, ``"COLOUR"``…).  ``start`` and ``end`` locate the token
    in the comment so a page can show each result beside its token.
    """

    token: str
    kind: str
    start: int
    end: int
    count: int = 0
    sides: int = 0
    results: tuple[int, ...] = ()
    total: int = 0
    pick: str | None = None

    @property
    def is_dice(self) -> bool:
        return self.kind == "dice"


def roll_comment(
    comment: str,
    *,
    lists: Mapping[str, Sequence[str]] = DEFAULT_LISTS,
    rng: RandomSource | None = None,
) -> list[Roll]:
    """Roll every token in ``comment``, in the order they appear.

    Every token is checked before anything is rolled, so a refused comment
    consumes no randomness and yields no partial results.
    """
    source = rng if rng is not None else SYSTEM_RNG
    matches = list(_token_regex(lists).finditer(comment))
    if len(matches) > MAX_TOKENS_PER_COMMENT:
        raise DiceError(TOO_MANY_TOKENS.format(limit=MAX_TOKENS_PER_COMMENT, count=len(matches)))
    requests = [_parse_token(match, lists) for match in matches]
    return [_roll_one(request, source) for request in requests]


def describe(roll: Roll) -> str:
    """Render a roll for the GNDT log: ``3DICE6: 2, 5, 1 = 8``, ``DICE6: 4``, ``FRUIT: Kiwi``."""
    if not roll.is_dice:
        return f"{roll.token}: {roll.pick}"
    if len(roll.results) == 1:
        return f"{roll.token}: {roll.results[0]}"
    if not roll.results:
        return f"{roll.token}: no dice = 0"
    shown = ", ".join(str(result) for result in roll.results)
    return f"{roll.token}: {shown} = {roll.total}"


def describe_all(rolls: Sequence[Roll]) -> str:
    """All rolls of one comment, one per line."""
    return "\n".join(describe(roll) for roll in rolls)


@dataclass(frozen=True)
class _Request:
    token: str
    kind: str
    start: int
    end: int
    count: int = 0
    sides: int = 0
    choices: tuple[str, ...] = ()


def _token_regex(lists: Mapping[str, Sequence[str]]) -> re.Pattern[str]:
    aliases = {alias for alias, target in LIST_ALIASES.items() if target in lists}
    # Longest names first so a name that prefixes another cannot shadow it.
    return _compiled_token_regex(tuple(sorted({*lists, *aliases}, key=lambda name: (-len(name), name))))


@functools.lru_cache(maxsize=32)
def _compiled_token_regex(names: tuple[str, ...]) -> re.Pattern[str]:
    # "(?!)" never matches: with no lists configured only dice are tokens.
    list_pattern = "|".join(re.escape(name) for name in names) or "(?!)"
    return re.compile(f"{_STANDALONE_BEFORE}(?:{_DICE_PATTERN}|(?P<list>{list_pattern})){_STANDALONE_AFTER}")


def _shortened(token: str) -> str:
    """A token as an error message shows it: absurd ones are cut so the message stays readable."""
    return token if len(token) <= _MAX_SHOWN_TOKEN else token[: _MAX_SHOWN_TOKEN - 1] + "…"


def _parse_token(match: re.Match[str], lists: Mapping[str, Sequence[str]]) -> _Request:
    token = match.group(0)
    start, end = match.span()
    list_name = match.group("list")
    if list_name is not None:
        name = LIST_ALIASES.get(list_name, list_name)
        choices = tuple(lists[name])
        if not choices:
            raise DiceError(EMPTY_LIST.format(token=token, name=name))
        return _Request(token=token, kind=name, start=start, end=end, choices=choices)
    count = _parse_count(token, match.group("count"))
    sides = _parse_sides(token, match.group("sides") or match.group("spaced_sides"))
    return _Request(token=token, kind="dice", start=start, end=end, count=count, sides=sides)


def _parse_count(token: str, digits: str | None) -> int:
    if digits is None:
        return 1
    if len(digits.lstrip("0")) > _MAX_DIGITS or int(digits) > MAX_DICE_PER_TOKEN:
        raise DiceError(TOO_MANY_DICE.format(token=_shortened(token), limit=MAX_DICE_PER_TOKEN))
    return int(digits)


def _parse_sides(token: str, digits: str | None) -> int:
    if digits is None:
        return BARE_DICE_SIDES
    if digits.startswith("-"):
        # Any non-positive size shows 0, so its magnitude never matters.
        return 0
    if len(digits.lstrip("0")) > _MAX_DIGITS or int(digits) > MAX_SIDES:
        raise DiceError(TOO_MANY_SIDES.format(token=_shortened(token), limit=MAX_SIDES))
    return int(digits)


def _roll_one(request: _Request, rng: RandomSource) -> Roll:
    if request.kind != "dice":
        return Roll(
            token=request.token,
            kind=request.kind,
            start=request.start,
            end=request.end,
            pick=rng.choice(request.choices),
        )
    results = tuple(_roll_die(request.sides, rng) for _ in range(request.count))
    return Roll(
        token=request.token,
        kind="dice",
        start=request.start,
        end=request.end,
        count=request.count,
        sides=request.sides,
        results=results,
        total=sum(results),
    )


def _roll_die(sides: int, rng: RandomSource) -> int:
    if sides <= 0:
        return 0
    return rng.randint(1, sides)
