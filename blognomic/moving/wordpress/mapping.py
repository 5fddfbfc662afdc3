"""What a WordPress post is here: its kind from its category, its status from a field, a category or a tag.

The defaults follow how BlogNomic's blog files its posts; a small settings file (TOML) replaces any list::

    [kinds]                      # category names (or their nicenames) for each kind; anything else is a post
    cfj = ["Call for Judgement", "Call for Judgment", "CfJ"]

    [status]                     # a post meta field holding the status, then category or tag names
    meta_key = "status"
    enacted = ["Enacted", "Passed"]
    self-killed = ["Self-killed", "Illegal"]

    [players]
    meta_key = "is_player"       # the user meta that says an author is a player

A votable post's status is read from the post meta field first, then from its categories and tags, then
from the result the admin recorded in the admin field ("Enacted 5-0"); a matter that none of them
resolves is pending. Names are compared in any case, with spaces, hyphens and underscores alike.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from blognomic.moving.wordpress.reading import WxrPost
from blognomic.moving.wordpress.recorded import ENACTED, FAILED, SELF_KILLED, VETOED, parse_recorded_result

PENDING = "pending"
VOTABLE = ("proposal", "cfj", "dov")
DEFAULT_KINDS = {
    "proposal": ("Proposal", "Proposals"),
    "cfj": ("Call for Judgement", "Call for Judgment", "Calls for Judgement", "Calls for Judgment", "CfJ"),
    "dov": ("Declaration of Victory", "Declarations of Victory", "DoV"),
    "ascension": ("Ascension Address", "Ascension Addresses"),
    "story": ("Story Post", "Story Posts"),
}
DEFAULT_STATUSES = {
    ENACTED: ("Enacted", "Passed"),
    FAILED: ("Failed", "Timed out"),
    VETOED: ("Vetoed",),
    SELF_KILLED: ("Self-killed", "Illegal"),
    PENDING: ("Pending",),
}


class MappingError(ValueError):
    """A settings file that cannot be read; the message says which key."""


def term_key(text: str) -> str:
    return re.sub(r"[\s_-]+", "-", text.strip().casefold())


@dataclass(frozen=True)
class Mapping:
    kinds: dict[str, str] = field(default_factory=dict)  # term key to kind
    statuses: dict[str, str] = field(default_factory=dict)  # term key to pending or an outcome
    status_meta: str = "status"
    player_meta: str = "is_player"

    @classmethod
    def default(cls) -> Mapping:
        return load_mapping("")


@dataclass(frozen=True)
class Status:
    status: str  # pending, enacted or failed
    outcome: str | None  # enacted, failed, vetoed or self-killed when resolved
    source: str  # where it was read: "meta status", "category Enacted", "admin field", "default"


def _lists(
    section: dict[str, Any], defaults: dict[str, tuple[str, ...]], where: str, extra: tuple[str, ...] = ()
) -> dict[str, str]:
    lists = {name: list(values) for name, values in defaults.items()}
    for name, values in section.items():
        if name in extra:
            continue
        if name not in defaults:
            raise MappingError(f"[{where}] {name}: not one of {', '.join((*defaults, *extra))}")
        if not isinstance(values, list) or not all(isinstance(v, str) and v.strip() for v in values):
            raise MappingError(f"[{where}] {name}: must be a list of names")
        lists[name] = values
    keyed = {}
    for name, values in lists.items():
        for value in values:
            keyed[term_key(value)] = name
    return keyed


def load_mapping(text: str) -> Mapping:
    """The mapping a settings file asks for, over the defaults."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MappingError(f"not a TOML file: {error}") from None
    unknown = set(data) - {"kinds", "status", "players"}
    if unknown:
        raise MappingError(f"unknown section {sorted(unknown)[0]!r}: the sections are kinds, status and players")
    sections = {}
    for name in ("kinds", "status", "players"):
        section = data.get(name, {})
        if not isinstance(section, dict):
            raise MappingError(f"{name}: must be a section ([{name}])")
        sections[name] = section
    status_meta = sections["status"].get("meta_key", "status")
    player_meta = sections["players"].get("meta_key", "is_player")
    if set(sections["players"]) - {"meta_key"}:
        raise MappingError("[players]: the only key is meta_key")
    for where, value in (("status", status_meta), ("players", player_meta)):
        if not isinstance(value, str):
            raise MappingError(f"[{where}] meta_key: must be a text")
    return Mapping(
        kinds=_lists(sections["kinds"], DEFAULT_KINDS, "kinds"),
        statuses=_lists(sections["status"], DEFAULT_STATUSES, "status", extra=("meta_key",)),
        status_meta=status_meta,
        player_meta=player_meta,
    )


def kind_of(post: WxrPost, mapping: Mapping) -> str:
    """The kind of its first category that names one; a post of no such category is a plain post."""
    for term in post.terms:
        if term.domain == "category":
            for text in (term.name, term.nicename):
                kind = mapping.kinds.get(term_key(text)) if text else None
                if kind:
                    return kind
    return "post"


def status_of(post: WxrPost, mapping: Mapping) -> Status:
    """A votable post's status, from the first place that carries one (see the module's docstring)."""
    value = post.meta.get(mapping.status_meta, "").strip() if mapping.status_meta else ""
    if value and term_key(value) in mapping.statuses:
        return _status(mapping.statuses[term_key(value)], f"post meta {mapping.status_meta}")
    for term in post.terms:
        for text in (term.name, term.nicename):
            found = mapping.statuses.get(term_key(text)) if text else None
            if found:
                label = "tag" if term.domain == "post_tag" else "category"
                return _status(found, f"{label} {term.name or term.nicename}")
    recorded = parse_recorded_result(post.meta.get("admin", ""))
    if recorded is not None:
        return Status(status=recorded.status, outcome=recorded.outcome, source="admin field")
    return Status(status=PENDING, outcome=None, source="default")


def _status(found: str, source: str) -> Status:
    if found == PENDING:
        return Status(status=PENDING, outcome=None, source=source)
    return Status(status=ENACTED if found == ENACTED else FAILED, outcome=found, source=source)


def is_truthy(value: str) -> bool:
    """How WordPress plugins store a yes in meta: "1", "true", "yes", "on"."""
    return value.strip().casefold() in ("1", "true", "yes", "on")
