"""What a WordPress post is here: its kind from its category, its status from its WordPress status.

BlogNomic keeps a matter's state in the post status itself, as public custom statuses (``<wp:status>``):
``open`` is pending; ``enacted``, ``failed``, ``vetoed``, ``illegal`` and ``quarantined`` are resolved.
Drafts, private, trashed and other statuses are not imported. The defaults follow how BlogNomic's blog files
its posts; a small settings file (TOML) replaces any list or adds statuses::

    [kinds]                      # category names (or their nicenames) for each kind; anything else is a post
    cfj = ["Call for Judgement", "Call for Judgment", "CfJ"]

    [wp_status]                  # WordPress statuses: what each means here (add, rename or skip one)
    passed = "enacted"
    timed-out = "failed"
    quarantined = "skip"

    [status]                     # for published posts: a post meta field holding the status, then category
    meta_key = "status"          # or tag names
    enacted = ["Enacted", "Passed"]

    [players]
    meta_key = "is_player"       # the user meta that says an author is a player

A published (``publish``) votable post's status is read from the post meta field first, then from its categories and
tags, then from the result the admin recorded in the admin field ("Enacted 5-0"); a matter that none of
them resolves is pending. Names are compared in any case, with spaces, hyphens and underscores alike.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from blognomic.moving.wordpress.reading import WxrPost
from blognomic.moving.wordpress.recorded import (
    ENACTED,
    FAILED,
    ILLEGAL,
    QUARANTINED,
    SELF_KILLED,
    VETOED,
    note_outcome,
    outcome_kept,
    recorded_result,
    status_left,
)

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
    SELF_KILLED: ("Self-killed",),
    ILLEGAL: ("Illegal",),
    QUARANTINED: ("Quarantined",),
    PENDING: ("Pending",),
}
PUBLISHED = "publish"  # read the status from the post's fields, categories, tags or note
SKIP = "skip"
WP_STATUS_MEANINGS = (PENDING, ENACTED, FAILED, VETOED, SELF_KILLED, ILLEGAL, QUARANTINED, PUBLISHED, SKIP)
DEFAULT_WP_STATUSES = {
    "publish": PUBLISHED,
    "open": PENDING,
    "enacted": ENACTED,
    "failed": FAILED,
    "vetoed": VETOED,
    "illegal": ILLEGAL,
    "quarantined": QUARANTINED,
}
# WordPress's own statuses for what was never public; said plainly in the report.
UNPUBLISHED = {
    "draft": "a draft",
    "auto-draft": "a draft",
    "pending": "awaiting review, never published",
    "future": "scheduled, not yet published",
    "private": "private",
    "trash": "in the trash",
    "inherit": "a revision",
}


class MappingError(ValueError):
    """A settings file that cannot be read; the message says which key."""


def term_key(text: str) -> str:
    return re.sub(r"[\s_-]+", "-", text.strip().casefold())


@dataclass(frozen=True)
class Mapping:
    kinds: dict[str, str] = field(default_factory=dict)  # term key to kind
    statuses: dict[str, str] = field(default_factory=dict)  # term key to pending or an outcome
    wp_statuses: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_WP_STATUSES))  # wp:status to meaning
    status_meta: str = "status"
    player_meta: str = "is_player"

    @classmethod
    def default(cls) -> Mapping:
        return load_mapping("")


@dataclass(frozen=True)
class Status:
    status: str  # pending, enacted or failed
    outcome: str | None  # enacted, failed, vetoed or self-killed when resolved
    source: str  # where it was read: "status enacted", "category Enacted", "admin field", "default"
    recorded: dict[str, Any] | None = None  # the recorded result (``recorded.recorded_result``) when resolved


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


SECTIONS = ("kinds", "status", "wp_status", "players")


def load_mapping(text: str) -> Mapping:
    """The mapping a settings file asks for, over the defaults."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MappingError(f"not a TOML file: {error}") from None
    unknown = set(data) - set(SECTIONS)
    if unknown:
        raise MappingError(f"unknown section {sorted(unknown)[0]!r}: the sections are {', '.join(SECTIONS)}")
    sections = {}
    for name in SECTIONS:
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
        wp_statuses=_wp_statuses(sections["wp_status"]),
        status_meta=status_meta,
        player_meta=player_meta,
    )


def _wp_statuses(section: dict[str, Any]) -> dict[str, str]:
    """The default WordPress statuses with the file's added or renamed ones over them."""
    statuses = dict(DEFAULT_WP_STATUSES)
    for name, meaning in section.items():
        if not isinstance(meaning, str) or meaning not in WP_STATUS_MEANINGS:
            raise MappingError(f"[wp_status] {name}: must be one of {', '.join(WP_STATUS_MEANINGS)}")
        statuses[name.strip().casefold()] = meaning
    return statuses


def skip_reason(wp_status: str, mapping: Mapping) -> str | None:
    """Why a post of this WordPress status is not imported, or None when it is."""
    key = wp_status.strip().casefold()
    meaning = mapping.wp_statuses.get(key)
    if meaning == SKIP:
        return f"its status {wp_status!r} is skipped by the mapping file"
    if meaning is not None:
        return None
    if key in UNPUBLISHED:
        return f"its status is {wp_status!r} ({UNPUBLISHED[key]})"
    if not key:
        return "it has no status (wp:status)"
    return f"its status {wp_status!r} is none this import knows; the mapping file's [wp_status] may name it"


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
    """A votable post's status and recorded result: from its WordPress status where that says one, else (for a
    published post) from the first place that carries one (see the module's docstring)."""
    note = post.meta.get("admin", "")
    meaning = mapping.wp_statuses.get(post.status.strip().casefold(), PUBLISHED)
    if meaning != PUBLISHED:
        return _status(meaning, f"status {post.status}", note)
    value = post.meta.get(mapping.status_meta, "").strip() if mapping.status_meta else ""
    if value and term_key(value) in mapping.statuses:
        return _status(mapping.statuses[term_key(value)], f"post meta {mapping.status_meta}", note)
    for term in post.terms:
        for text in (term.name, term.nicename):
            found = mapping.statuses.get(term_key(text)) if text else None
            if found:
                label = "tag" if term.domain == "post_tag" else "category"
                return _status(found, f"{label} {term.name or term.nicename}", note)
    if note_outcome(note) is not None:
        return _status(None, "admin field", note)
    return Status(status=PENDING, outcome=None, source="default")


def _status(found: str | None, source: str, note: str) -> Status:
    """``found`` (an outcome, pending, or None for what only the note says) with the note read against it."""
    if found == PENDING:
        return Status(status=PENDING, outcome=None, source=source)
    recorded = recorded_result(status_outcome=found, note=note)
    if recorded is None:
        return Status(status=PENDING, outcome=None, source="default")
    outcome = recorded["outcome"]
    return Status(
        status=status_left(outcome),
        outcome=outcome_kept(outcome),
        source=source,
        recorded=recorded,
    )


def is_truthy(value: str) -> bool:
    """How WordPress plugins store a yes in meta: "1", "true", "yes", "on"."""
    return value.strip().casefold() in ("1", "true", "yes", "on")
