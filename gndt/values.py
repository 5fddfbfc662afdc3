"""Typed values of GNDT cells.

Every GNDT column has a ``ColumnSpec`` that says what its cells may hold.
``validate_value`` turns what a player typed into the string that is stored
(or refuses it with a message naming the column and the value), and
``apply_adjustment`` adds to or subtracts from a numeric cell the way a
scheduled effect or a game action does, respecting the column's bounds.

How the seed rulesets shape the kinds:

* ``integer``: whole numbers, never negative unless the column allows it
  (the appendices of 2008 and 2016 default numeric gamestate to non-negative;
  Ruleset 142 lets Pieces go negative).  ``choices`` on an integer column are
  extra literal entries besides numbers, such as the ``-`` that Ruleset 52
  shows for a Quick Draw not yet rolled.
* ``clamp``: out-of-range numbers are set to the nearest bound instead of
  being refused (Ruleset 21's Thalers, 0..200; Ruleset 50/52's "set to zero"),
  except when the change is a cost paid for an action, which is refused.
* ``choice``: exactly one of ``choices``; matching ignores case and the
  stored value takes the spelling of the choice (Ruleset 52 prints the Turn
  marker both as ``x`` and ``X``).
* ``list``: comma-separated items stored joined by ``", "``; commas inside
  brackets belong to the item (Ruleset 21's Members such as
  ``Hans (10/M, married to Gretchen)``).  With ``choices``, each item must be
  one of them.
* ``player``: a current player's name, or blank; ``choices`` are extra
  literal entries (Ruleset 52's Forced Hand is ``-`` or a player's name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NoReturn

KINDS = ("integer", "text", "choice", "list", "player")

# Far beyond any game's numbers, and small enough that parsing stays cheap.
MAX_INTEGER_DIGITS = 15
MAX_TEXT_LENGTH = 2000

NOT_A_WHOLE_NUMBER = "{column} must be a whole number; got {value!r}"
NOT_NEGATIVE = "{column} may not be negative; got {value!r}"
BELOW_MINIMUM = "{column} may not be less than {minimum}; got {value!r}"
ABOVE_MAXIMUM = "{column} may not exceed {maximum}; got {value!r}"
NOT_A_CHOICE = "{column} must be one of {choices}; got {value!r}"
NOT_AN_ITEM = "Each item of {column} must be one of {choices}; got {value!r}"
NOT_A_PLAYER = "{column} must be the name of a player{extra}; got {value!r}"
TOO_LONG = "{column} may be at most {limit} characters long; got {length}"
NOT_ONE_LINE = "{column} must fit on one line"
NOT_NUMERIC_COLUMN = "{column} is not a numeric column"
CURRENT_NOT_A_NUMBER = "{column} holds {value!r}, which is not a number to add to"

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
_GROUPED_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+")
_BRACKETS = {"(": ")", "[": "]", "{": "}"}


class CellValueError(ValueError):
    """A value refused for a GNDT column; the message names the column and the value."""

    def __init__(self, message: str, *, column: str, value: str) -> None:
        super().__init__(message)
        self.column = column
        self.value = value


@dataclass(frozen=True)
class ColumnSpec:
    """What one GNDT column may hold."""

    name: str
    kind: str = "text"
    minimum: int | None = None
    maximum: int | None = None
    allow_negative: bool = False
    clamp: bool = False
    choices: tuple[str, ...] = ()
    default: str | None = None

    def __post_init__(self) -> None:
        # Accept any sequence of choices but store a tuple, so specs stay hashable.
        object.__setattr__(self, "choices", tuple(self.choices))
        if self.kind not in KINDS:
            raise ValueError(f"Unknown column kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"Choice column {self.name!r} needs at least one choice")
        if self.minimum is not None and self.minimum < 0 and not self.allow_negative:
            raise ValueError(f"Column {self.name!r} has a negative minimum but does not allow negatives")
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError(f"Column {self.name!r} has a minimum above its maximum")

    @property
    def lower_bound(self) -> int | None:
        if self.minimum is not None:
            return self.minimum
        return None if self.allow_negative else 0

    @property
    def upper_bound(self) -> int | None:
        return self.maximum


def validate_value(spec: ColumnSpec, raw: str, *, players: frozenset[str] = frozenset()) -> str:
    """Return the string to store for ``raw`` in a cell of ``spec``, or raise ``CellValueError``."""
    text = raw.strip()
    _check_text_shape(spec, text)
    if spec.kind == "integer":
        return _validate_integer(spec, text)
    if spec.kind == "choice":
        return _validate_choice(spec, text)
    if spec.kind == "list":
        return _validate_list(spec, text)
    if spec.kind == "player":
        return _validate_player(spec, text, players)
    return text


def apply_adjustment(
    spec: ColumnSpec,
    current: str,
    delta: int,
    *,
    at_most: int | None = None,
    at_least: int | None = None,
    cost: bool = False,
) -> str:
    """Add ``delta`` to a numeric cell and return the new stored string.

    ``at_most`` and ``at_least`` are limits of the effect itself ("add 1 to
    Treasure, to a maximum of 10"): the result stops there, but a value
    already beyond the limit is never pulled back by the effect.  The
    column's own bounds then apply: a clamping column is set to the bound,
    any other column refuses.  A ``cost`` is never clamped, because an action
    whose price cannot be paid cannot be taken.
    """
    if spec.kind != "integer":
        raise CellValueError(NOT_NUMERIC_COLUMN.format(column=spec.name), column=spec.name, value=current)
    before = _current_number(spec, current)
    after = _limit_effect(before, before + delta, at_most=at_most, at_least=at_least)
    return str(_within_bounds(spec, after, shown=str(after), clamp=spec.clamp and not cost))


def starting_value(spec: ColumnSpec) -> str:
    """The value a new row gets: the column's default, else the legal value nearest to zero.

    The nearest-to-zero rule is the 2016 appendix's for variables with no
    defined starting value: positive when tied, blank where blank is legal,
    otherwise the alphabetically earliest choice.
    """
    if spec.default is not None:
        return spec.default
    if spec.kind == "integer":
        return str(_nearest_to_zero(spec))
    if spec.kind == "choice":
        return "" if "" in spec.choices else min(spec.choices, key=str.casefold)
    return ""


def split_list_items(text: str) -> list[str]:
    """Split a list cell on commas that are not inside brackets, dropping empty items."""
    items: list[str] = []
    current: list[str] = []
    closers: list[str] = []
    for character in text:
        if character in _BRACKETS:
            closers.append(_BRACKETS[character])
        elif closers and character == closers[-1]:
            closers.pop()
        elif character == "," and not closers:
            items.append("".join(current).strip())
            current = []
            continue
        current.append(character)
    items.append("".join(current).strip())
    return [item for item in items if item]


def _check_text_shape(spec: ColumnSpec, text: str) -> None:
    if len(text) > MAX_TEXT_LENGTH:
        raise CellValueError(
            TOO_LONG.format(column=spec.name, limit=MAX_TEXT_LENGTH, length=len(text)),
            column=spec.name,
            value=text,
        )
    if "\n" in text or "\r" in text:
        raise CellValueError(NOT_ONE_LINE.format(column=spec.name), column=spec.name, value=text)


def _validate_integer(spec: ColumnSpec, text: str) -> str:
    literal = _match_choice(text, spec.choices)
    if literal is not None:
        return literal
    number = _parse_whole_number(text)
    if number is None:
        _refuse(spec, NOT_A_WHOLE_NUMBER, text)
    return str(_within_bounds(spec, number, shown=text, clamp=spec.clamp))


def _parse_whole_number(text: str) -> int | None:
    if _GROUPED_WHOLE_NUMBER.fullmatch(text):
        text = text.replace(",", "")
    if not _WHOLE_NUMBER.fullmatch(text) or len(text.lstrip("+-").lstrip("0")) > MAX_INTEGER_DIGITS:
        return None
    return int(text)


def _within_bounds(spec: ColumnSpec, number: int, *, shown: str, clamp: bool) -> int:
    lower, upper = spec.lower_bound, spec.upper_bound
    if lower is not None and number < lower:
        if clamp:
            return lower
        template = NOT_NEGATIVE if lower == 0 else BELOW_MINIMUM
        _refuse(spec, template, shown)
    if upper is not None and number > upper:
        if clamp:
            return upper
        _refuse(spec, ABOVE_MAXIMUM, shown)
    return number


def _limit_effect(before: int, after: int, *, at_most: int | None, at_least: int | None) -> int:
    # A limit stops a change moving towards it, but never pulls back a value already past it.
    if at_most is not None and after > before:
        after = min(after, max(at_most, before))
    if at_least is not None and after < before:
        after = max(after, min(at_least, before))
    return after


def _current_number(spec: ColumnSpec, current: str) -> int:
    text = current.strip() or starting_value(spec)
    number = _parse_whole_number(text)
    if number is None:
        raise CellValueError(CURRENT_NOT_A_NUMBER.format(column=spec.name, value=text), column=spec.name, value=text)
    return number


def _nearest_to_zero(spec: ColumnSpec) -> int:
    lower, upper = spec.lower_bound, spec.upper_bound
    if lower is not None and lower > 0:
        return lower
    if upper is not None and upper < 0:
        return upper
    return 0


def _match_choice(text: str, choices: tuple[str, ...]) -> str | None:
    if text in choices:
        return text
    folded = [choice for choice in choices if choice.casefold() == text.casefold()]
    return folded[0] if len(folded) == 1 else None


def _validate_choice(spec: ColumnSpec, text: str, *, template: str = NOT_A_CHOICE) -> str:
    chosen = _match_choice(text, spec.choices)
    if chosen is None:
        _refuse(spec, template, text)
    return chosen


def _validate_list(spec: ColumnSpec, text: str) -> str:
    items = split_list_items(text)
    if spec.choices:
        items = [_validate_choice(spec, item, template=NOT_AN_ITEM) for item in items]
    return ", ".join(items)


def _validate_player(spec: ColumnSpec, text: str, players: frozenset[str]) -> str:
    if not text:
        return ""
    known = _match_choice(text, tuple(sorted(players))) or _match_choice(text, spec.choices)
    if known is None:
        extra = "" if not spec.choices else " or one of " + ", ".join(spec.choices)
        raise CellValueError(
            NOT_A_PLAYER.format(column=spec.name, extra=extra, value=text), column=spec.name, value=text
        )
    return known


def _refuse(spec: ColumnSpec, template: str, value: str) -> NoReturn:
    message = template.format(
        column=spec.name,
        value=value,
        minimum=spec.lower_bound,
        maximum=spec.upper_bound,
        choices=", ".join(spec.choices),
    )
    raise CellValueError(message, column=spec.name, value=value)
