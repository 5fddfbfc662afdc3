"""The shape of an amendment: which operations exist, the fields each takes, and the size limits. Pure.

An amendment is a JSON list of operations, each a dict with an ``op`` key. The Ruleset and wiki page
operations are those of ``ruleset.amendment_operations``, the GNDT ones those of
``gndt.amendment_operations``; two more are the game's own:

- ``parameter_set``: ``parameter`` (one of the core-rule parameters on the Core rules page) and ``value``
  (as an admin would type it: a whole number, yes/no, or "none");
- ``player_rename``: ``player`` (the current name) and ``name`` (the new one).

``check_shape`` refuses anything that is not such a list, with the operation's number and the reason, before
anything is looked up in the game.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from dynasties.profiles import ADJUSTABLE, parse_parameter
from gndt.amendment_operations import GNDT_OPS, describe_cell
from ruleset.amendment_operations import PAGE_OPS, RULE_OPS, Operation, quote_change

MAX_OPERATIONS = 100
MAX_BYTES = 200 * 1024
GAME_OPS = ("parameter_set", "player_rename")
ALL_OPS = RULE_OPS + PAGE_OPS + GNDT_OPS + GAME_OPS

NOT_A_LIST = "An amendment is a list of operations."
TOO_MANY = "An amendment may have at most {limit} operations; this one has {count}."
TOO_LARGE = "An amendment may be at most 200 KB; this one is {size:,} bytes."
NOT_UNICODE = "An amendment must be valid Unicode text; this one holds a lone surrogate such as \\ud800."
OPERATION = "Operation {number} ({what}): {reason}."
NOT_AN_OPERATION = "not an operation (each is an object with an “op”)"
UNKNOWN_OP = "“{op}” is not an operation; use one of {ops}"
MISSING_FIELD = "it needs “{field}”"
NOT_TEXT = "“{field}” must be text"
NOT_NUMBER = "“{field}” must be a whole number or empty"
NOT_FLAG = "“{field}” must be true or false"
NOT_LIST = "“{field}” must be a list of text"
UNKNOWN_FIELD = "it does not take “{field}”"
POSITION_NEEDED = "say where it goes: “after” a rule, or “into” a section or rule"

TEXT, NUMBER, FLAG, TEXTS, DELTA = "text", "number", "flag", "texts", "delta"

# op → (required fields, optional fields), each field → its type.
FIELDS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "rule_add": ({"title": TEXT}, {"body": TEXT, "after": TEXT, "into": TEXT, "at": TEXT}),
    "rule_replace": ({"rule": TEXT, "body": TEXT}, {}),
    "rule_replace_passage": ({"rule": TEXT, "old": TEXT, "new": TEXT}, {}),
    "rule_rename": ({"rule": TEXT, "title": TEXT}, {}),
    "rule_repeal": ({"rule": TEXT}, {}),
    "rule_move": ({"rule": TEXT}, {"after": TEXT, "into": TEXT, "at": TEXT}),
    "page_replace": ({"page": TEXT, "text": TEXT}, {}),
    "page_replace_passage": ({"page": TEXT, "old": TEXT, "new": TEXT}, {}),
    "cell_set": ({"row": TEXT, "column": TEXT, "value": TEXT}, {"was": TEXT}),
    "cell_add": ({"row": TEXT, "column": TEXT, "delta": DELTA}, {}),
    "column_add": (
        {"column": TEXT},
        {
            "kind": TEXT,
            "minimum": NUMBER,
            "maximum": NUMBER,
            "allow_negative": FLAG,
            "clamp": FLAG,
            "choices": TEXTS,
            "default": TEXT,
        },
    ),
    "column_retire": ({"column": TEXT}, {}),
    "row_add": ({"row": TEXT}, {}),
    "row_retire": ({"row": TEXT}, {}),
    "parameter_set": ({"parameter": TEXT, "value": TEXT}, {}),
    "player_rename": ({"player": TEXT, "name": TEXT}, {}),
}


class AmendmentRefused(ValueError):
    """An amendment that cannot be posted; the message names the operation and the reason."""


def size_of(operations: object) -> int:
    return len(json.dumps(operations, ensure_ascii=False).encode("utf-8"))


def label(op: Operation, rules: dict[str, str] | None = None) -> str:
    """A short name for an operation, for messages: “replace a passage in 2.3 Fog”, “Cato’s Oil”."""
    rules = rules or {}
    kind = op.get("op")
    # An amendment read from an archive may hold anything where a name belongs, a list too: no dict key.
    named = str(op.get("rule", ""))
    rule = rules.get(named, named)
    words = {
        "rule_add": lambda: f"add the rule “{op.get('title', '')}”",
        "rule_replace": lambda: f"replace the text of {rule}",
        "rule_replace_passage": lambda: f"replace a passage in {rule}",
        "rule_rename": lambda: f"rename {rule}",
        "rule_repeal": lambda: f"repeal {rule}",
        "rule_move": lambda: f"move {rule}",
        "page_replace": lambda: f"replace the page {op.get('page', '')}",
        "page_replace_passage": lambda: f"replace a passage in the page {op.get('page', '')}",
        "cell_set": lambda: f"set {describe_cell(str(op.get('row', '')), str(op.get('column', '')))}",
        "cell_add": lambda: f"add to {describe_cell(str(op.get('row', '')), str(op.get('column', '')))}",
        "column_add": lambda: f"add the GNDT column {op.get('column', '')}",
        "column_retire": lambda: f"remove the GNDT column {op.get('column', '')}",
        "row_add": lambda: f"add the GNDT row {op.get('row', '')}",
        "row_retire": lambda: f"remove the GNDT row {op.get('row', '')}",
        "parameter_set": lambda: f"set {op.get('parameter', '')}",
        "player_rename": lambda: f"rename {op.get('player', '')}",
    }
    return words[kind]() if isinstance(kind, str) and kind in words else str(kind)


def wanted(op: Operation, rules: dict[str, str] | None = None) -> str:
    """What an operation that can no longer be applied set out to do, in full enough words to judge it by: a
    replaced passage with its quotes, a rule by its number and title as they were."""
    if op.get("op") in ("rule_replace_passage", "page_replace_passage"):
        old, new = quote_change(str(op.get("old", "")), str(op.get("new", "")))
        where = label(op, rules).removeprefix("replace a passage in ")
        return f"Wanted to replace “{old}” with “{new}” in {where}"
    words = label(op, rules)
    return f"Wanted to {words}"


def refusal(index: int, op: Operation, reason: str, rules: dict[str, str] | None = None) -> AmendmentRefused:
    return AmendmentRefused(OPERATION.format(number=index + 1, what=label(op, rules), reason=reason))


def _field_problem(name: str, kind: str, value: object) -> str | None:
    if kind == TEXT and not isinstance(value, str):
        return NOT_TEXT.format(field=name)
    if kind == NUMBER and value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        return NOT_NUMBER.format(field=name)
    if kind == FLAG and not isinstance(value, bool):
        return NOT_FLAG.format(field=name)
    if kind == TEXTS and not (isinstance(value, list) and all(isinstance(item, str) for item in value)):
        return NOT_LIST.format(field=name)
    if kind == DELTA and (isinstance(value, bool) or not isinstance(value, int | str)):
        return NOT_NUMBER.format(field=name)
    return None


def check_shape(operations: object) -> list[Operation]:
    """The operations, checked for shape and size; ``AmendmentRefused`` on the first problem."""
    if not isinstance(operations, list):
        raise AmendmentRefused(NOT_A_LIST)
    if len(operations) > MAX_OPERATIONS:
        raise AmendmentRefused(TOO_MANY.format(limit=MAX_OPERATIONS, count=len(operations)))
    try:
        size = size_of(operations)
    except UnicodeEncodeError:
        raise AmendmentRefused(NOT_UNICODE) from None
    if size > MAX_BYTES:
        raise AmendmentRefused(TOO_LARGE.format(size=size))
    checked = []
    for index, op in enumerate(operations):
        if not isinstance(op, dict) or "op" not in op:
            raise AmendmentRefused(OPERATION.format(number=index + 1, what="?", reason=NOT_AN_OPERATION))
        if not isinstance(op["op"], str) or op["op"] not in FIELDS:
            raise refusal(index, op, UNKNOWN_OP.format(op=op["op"], ops=", ".join(ALL_OPS)))
        required, optional = FIELDS[op["op"]]
        for name in required:
            if name not in op:
                raise refusal(index, op, MISSING_FIELD.format(field=name))
        for name, value in op.items():
            if name == "op":
                continue
            kind = required.get(name) or optional.get(name)
            if kind is None:
                raise refusal(index, op, UNKNOWN_FIELD.format(field=name))
            problem = _field_problem(name, kind, value)
            if problem:
                raise refusal(index, op, problem)
        if op["op"] in ("rule_add", "rule_move") and not (op.get("after") or op.get("into")):
            raise refusal(index, op, POSITION_NEEDED)
        if op["op"] == "parameter_set":
            try:
                parse_parameter(op["parameter"], op["value"])
            except ValueError as error:
                raise refusal(index, op, str(error).rstrip(".")) from None
        checked.append(dict(op))
    return checked


def describe_parameter(op: Operation, old: object) -> str:
    """“Sets pending_limit (Most Proposals one player may have pending) from 2 to 3”."""
    value = parse_parameter(op["parameter"], op["value"])
    meaning = ADJUSTABLE[op["parameter"]][2]
    return f"Sets {op['parameter']} ({meaning}) from {_shown(old)} to {_shown(value)}"


def _shown(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def indices_of(operations: Sequence[Operation], kinds: Sequence[str]) -> list[int]:
    return [index for index, op in enumerate(operations) if op.get("op") in kinds]
