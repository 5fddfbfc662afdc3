"""Reading an archive: ``parse_archive`` checks the JSON alone, field by field, and refuses anything malformed
or self-contradictory, naming the field (``posts[3].comments[7].at``). Nothing here touches the database;
``blognomic.moving.archive.importer`` writes what was read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email, validate_ipv46_address, validate_unicode_slug
from django.utils.text import slugify

from blognomic.moving.archive.amendments import parse_amendments
from blognomic.moving.archive.fields import FORMAT, READABLE_VERSIONS, VERSION, ArchiveError, Reader, check_json
from blognomic.moving.archive.gndt_import import names_in_gndt
from blognomic.moving.archive.keys import optional_pk
from blognomic.moving.archive.matter_kinds import NO_SUCH_KIND, check_posts_kinds, parse_matter_kinds
from blognomic.moving.archive.personal import parse_personal
from blognomic.moving.archive.shapes import check_shapes
from dynasties.models import (
    PROFILE_CHOICES,
    Absence,
    Application,
    PlayerNameValidator,
)
from dynasties.profiles import ADJUSTABLE
from dynasties.theming import DEFAULT_VOTE_LABELS, HEADER_LINE_MAX, ThemeError, theme_from
from ruleset.models import Page
from ruleset.services import MAX_PAGE_BYTES
from votes.models import MAX_BODY_BYTES, VOTABLE_KINDS, Kind, Resolution

KINDS = tuple(Kind.values)
ICONS = ("for", "against", "deferential", "veto")
STATUSES = ("pending", "enacted", "failed")
OUTCOMES = ("enacted", "failed", "vetoed", "self-killed")
HISTORY_OUTCOMES = (*OUTCOMES, Resolution.REOPENED)
APPLICATION_STATUSES = tuple(value for value, _ in Application.STATUS_CHOICES)
PAGE_KINDS = (Page.RULESET, Page.GAMESTATE, Page.ORDINARY)
ABSENCE_KINDS = (Absence.IDLE, Absence.LEFT)

# Lists of ids sent in one IN (...) stay well under SQLite's limit on bound parameters.
CHUNK = 500
NAME_MAX_LENGTH = 150
POST_ID_MAX_LENGTH = 200

_names = PlayerNameValidator()


@dataclass
class Parsed:
    profile: str | None
    players: list[dict] = field(default_factory=list)
    dynasties: list[dict] = field(default_factory=list)
    posts: list[dict] = field(default_factory=list)
    pages: list[dict] = field(default_factory=list)
    accounts: set[str] = field(default_factory=set)  # every name mentioned, players or not
    emails: set[str] = field(default_factory=set)  # the accounts' addresses, lower-cased, to refuse a shared one
    account_paths: dict[str, str] = field(default_factory=dict)  # each name's first mention
    # Names mentioned but declared neither in accounts nor players: each must be an account of the database.
    account_refs: dict[str, str] = field(default_factory=dict)
    gndt: dict | None = None
    # Rows referred to but not in the archive: they must already be in the database (a partial archive).
    # Each maps to the path of its first mention, for the error message.
    dynasty_refs: dict[int, str] = field(default_factory=dict)
    post_refs: dict[str, str] = field(default_factory=dict)
    rule_changes: list[dict] = field(default_factory=list)
    game: dict = field(default_factory=dict)
    account_details: list[dict] = field(default_factory=list)
    applications: list[dict] = field(default_factory=list)
    renames: list[dict] = field(default_factory=list)
    notifications: list[dict] = field(default_factory=list)
    version: int = VERSION
    amendments: list[dict] = field(default_factory=list)
    personal: dict = field(default_factory=dict)
    matter_kinds: dict = field(default_factory=lambda: {"kinds": [], "effects": []})
    # Names already found valid: an archive names the same few hundred people in every comment.
    valid_names: set[str] = field(default_factory=set, repr=False)


def _name(reader: Reader, key: str, parsed: Parsed, *, required: bool = True) -> str | None:
    name = reader.text(key, required=required, max_length=NAME_MAX_LENGTH) or None
    if name is None:
        return None
    _mention(parsed, name, reader.at(key))
    return name


def _not_before(later: datetime | None, earlier: datetime | None, path: str, earlier_name: str) -> None:
    if later is not None and earlier is not None and later < earlier:
        raise ArchiveError(path, f"is before {earlier_name}")


def parse_archive(data: Any) -> Parsed:
    """Read and check a whole archive without touching the database."""
    root, version = _checked_header(data)
    check_shapes(data)
    parsed = Parsed(
        profile=root.choice("profile", tuple(c for c, _ in PROFILE_CHOICES), required=False), version=version
    )
    game = root.child("game")
    if game is not None:
        parsed.game = {
            "name": game.text("name", required=False, max_length=100) or None,
            "auto_resolve": game.boolean("auto_resolve"),
        }
    named: set[str] = set()
    for item, path in root.items("accounts"):
        parsed.account_details.append(_parse_account(Reader(item, path), parsed, named))
    listed: set[str] = set()
    for item, path in root.items("players"):
        parsed.players.append(_parse_player(Reader(item, path), parsed, listed))
    for item, path in root.items("applications"):
        parsed.applications.append(_parse_application(Reader(item, path), parsed))
    numbers: set[int] = set()
    for item, path in root.items("dynasties"):
        parsed.dynasties.append(_parse_dynasty(Reader(item, path), parsed, numbers))
    ids: set[str] = set()
    for item, path in root.items("posts"):
        parsed.posts.append(_parse_post(Reader(item, path), parsed, ids, numbers))
    for d, (item, path) in zip(parsed.dynasties, root.items("dynasties"), strict=True):
        r = Reader(item, path)
        for key in ("declaration", "ascension_address"):
            if d[key] is not None and d[key] not in ids:
                parsed.post_refs.setdefault(d[key], r.at(key))
    _parse_amendments(root, parsed, ids)
    parsed.personal, personal_names = parse_personal(root.data.get("personal"))
    for name, path in personal_names.items():
        _mention(parsed, name, path)
    _parse_matter_kinds(root, parsed, ids, numbers)
    for item, path in root.items("rule_changes"):
        parsed.rule_changes.append(_parse_rule_change(Reader(item, path), parsed, ids))
    for item, path in root.items("renames"):
        parsed.renames.append(_parse_rename(Reader(item, path), parsed, ids))
    for item, path in root.items("notifications"):
        parsed.notifications.append(_parse_notification(Reader(item, path), parsed))
    _parse_gndt_names(root, parsed)
    _parse_wiki(root, parsed, ids)
    parsed.account_refs = _undeclared(parsed)
    return parsed


def _checked_header(data: Any) -> tuple[Reader, int]:
    """The archive as a reader and its format's version, refused when it is not an archive this site reads."""
    if not isinstance(data, dict):
        raise ArchiveError("", "must be a JSON object")
    root = Reader(data, "")
    if root.data.get("format") != FORMAT:
        raise ArchiveError("format", f'must be "{FORMAT}"')
    version = root.data.get("version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise ArchiveError("version", f"must be {' or '.join(map(str, READABLE_VERSIONS))}")
    return root, version


def _parse_amendments(root: Reader, parsed: Parsed, ids: set[str]) -> None:
    parsed.amendments = parse_amendments(root.data.get("amendments"), ids)
    for index, amendment in enumerate(parsed.amendments):
        for n, application in enumerate(amendment["applications"]):
            for key in ("by", "reverted_by"):
                _mention(parsed, application[key], f"amendments[{index}].applications[{n}].{key}")


def _parse_gndt_names(root: Reader, parsed: Parsed) -> None:
    """Keeps the GNDT as given, noting the names in it: row owners and log authors need accounts before the
    GNDT is written; import_gndt checks the rest."""
    gndt = root.child("gndt")
    if gndt is None:
        return
    parsed.gndt = gndt.data
    for name, path in names_in_gndt(gndt.data).items():
        _mention(parsed, name, path)


def _parse_wiki(root: Reader, parsed: Parsed, ids: set[str]) -> None:
    wiki = root.child("wiki")
    if wiki is None:
        return
    titles: set[str] = set()
    slugs: set[str] = set()
    for item, path in wiki.items("pages"):
        parsed.pages.append(_parse_page(Reader(item, path), parsed, titles, slugs, ids))


def _mention(parsed: Parsed, name: Any, path: str) -> None:
    """A name the archive mentions, checked as a name wherever it stands."""
    if not isinstance(name, str) or not name.strip():
        return
    if name not in parsed.valid_names:
        if len(name) > NAME_MAX_LENGTH:
            raise ArchiveError(path, f"is longer than {NAME_MAX_LENGTH} characters")
        try:
            _names(name)
        except ValidationError as error:
            raise ArchiveError(path, f"{name!r} is not a valid name: {error.messages[0]}") from None
        parsed.valid_names.add(name)
    parsed.accounts.add(name)
    parsed.account_paths.setdefault(name, path)


def _undeclared(parsed: Parsed) -> dict[str, str]:
    """The names the archive mentions but does not declare, each with its first mention: each must already be an
    account in the database (an archive that adds to a game), or the import is refused rather than inventing one.

    An archive declares its accounts in ``accounts`` and its players in ``players``. Version 1 had no
    ``accounts``: there an account that was never a player came in by writing a post, a comment or a revision.
    """
    declared = {account["name"] for account in parsed.account_details} | {p["name"] for p in parsed.players}
    if parsed.version == 1:
        declared |= {post["author"] for post in parsed.posts}
        declared |= {comment["author"] for post in parsed.posts for comment in post["comments"]}
        declared |= {v["author"] for page in parsed.pages for v in page["revisions"] if v["author"]}
    return {name: path for name, path in parsed.account_paths.items() if name not in declared}


def _parse_matter_kinds(root: Reader, parsed: Parsed, ids: set[str], numbers: set[int]) -> None:
    """The dynasties' own kinds of matter and effects, and the kinds the posts name, which must be among them."""

    def refer_to_post(post_id: str, path: str) -> None:
        if post_id not in ids:
            parsed.post_refs.setdefault(post_id, path)

    def refer_to_dynasty(number: int, path: str) -> None:
        if number not in numbers:
            parsed.dynasty_refs.setdefault(number, path)

    parsed.matter_kinds = parse_matter_kinds(
        root,
        name=lambda r, key, required=True: _name(r, key, parsed, required=required),
        refer_to_post=refer_to_post,
        refer_to_dynasty=refer_to_dynasty,
    )
    known = {kind["pk"] for kind in parsed.matter_kinds["kinds"]}
    for index, post in enumerate(parsed.posts):
        if post["matter_kind"] is not None and post["matter_kind"] not in known:
            raise ArchiveError(f"posts[{index}].matter_kind", NO_SUCH_KIND.format(pk=post["matter_kind"]))
    check_posts_kinds(parsed.matter_kinds["kinds"], parsed.posts)


def _parse_account(r: Reader, parsed: Parsed, named: set[str]) -> dict:
    name = _name(r, "name", parsed)
    if name in named:
        raise ArchiveError(r.at("name"), f"{name!r} is listed twice")
    named.add(name)
    email = (r.text("email", required=False, max_length=254) or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ArchiveError(r.at("email"), "is not an email address") from None
        if email.lower() in parsed.emails:
            raise ArchiveError(r.at("email"), "belongs to another account listed before (an address is one account's)")
        parsed.emails.add(email.lower())
    return {
        "name": name,
        "email": email,
        "first_name": r.text("first_name", required=False, max_length=150),
        "last_name": r.text("last_name", required=False, max_length=150),
        "password": r.text("password", required=False, max_length=128),
        "is_staff": r.boolean("staff"),
        "is_superuser": r.boolean("superuser"),
        "is_active": r.boolean("active", default=True),
        "date_joined": r.time("date_joined", required=False),
        "last_login": r.time("last_login", required=False),
    }


def _parse_application(r: Reader, parsed: Parsed) -> dict:
    name = r.text("name", max_length=NAME_MAX_LENGTH)
    status = r.choice("status", APPLICATION_STATUSES)
    decided_by = _name(r, "decided_by", parsed, required=False)
    decided_at = r.time("decided_at", required=False)
    submitted_at = r.time("submitted_at")
    _not_before(decided_at, submitted_at, r.at("decided_at"), "submitted_at")
    ip_address = r.text("ip_address", required=False, max_length=45) or None
    if ip_address is not None:
        try:
            validate_ipv46_address(ip_address)
        except ValidationError:
            raise ArchiveError(r.at("ip_address"), f"{ip_address!r} is not an IP address") from None
    return {
        "pk": optional_pk(r),
        "name": name,
        "password_hash": r.text("password", required=False, max_length=256),
        "message": r.text("message", required=False),
        "ip_address": ip_address,
        "submitted_at": submitted_at,
        "status": status,
        "decided_by": decided_by,
        "decided_at": decided_at,
    }


def _parse_rename(r: Reader, parsed: Parsed, ids: set[str]) -> dict:
    proposal = r.text("proposal", max_length=POST_ID_MAX_LENGTH)
    if proposal not in ids:
        parsed.post_refs.setdefault(proposal, r.at("proposal"))
    return {
        "player": _name(r, "player", parsed),
        "old_name": r.text("old_name", max_length=NAME_MAX_LENGTH),
        "new_name": r.text("new_name", max_length=NAME_MAX_LENGTH),
        "by": _name(r, "by", parsed),
        "at": r.time("at"),
        "proposal": proposal,
    }


def _parse_notification(r: Reader, parsed: Parsed) -> dict:
    created_at = r.time("created_at")
    read_at = r.time("read_at", required=False)
    _not_before(read_at, created_at, r.at("read_at"), "created_at")
    return {
        "to": _name(r, "to", parsed),
        "key": r.text("key", max_length=200),
        "text": r.text("text", max_length=500),
        "url": r.text("url", required=False, max_length=500),
        "created_at": created_at,
        "read_at": read_at,
    }


def _parse_player(r: Reader, parsed: Parsed, listed: set[str]) -> dict:
    name = _name(r, "name", parsed)
    if name in listed:
        raise ArchiveError(r.at("name"), f"{name!r} is listed twice")
    listed.add(name)
    joined_at = r.time("joined_at")
    idle = r.boolean("idle")
    idle_since = r.time("idle_since", required=False)
    left_at = r.time("left_at", required=False)
    if idle_since is not None and not idle:
        raise ArchiveError(r.at("idle_since"), "is given but the player is not idle")
    if idle and left_at is not None:
        raise ArchiveError(r.at("idle"), "a player who has left (left_at) is not idle")
    _not_before(idle_since, joined_at, r.at("idle_since"), "joined_at")
    _not_before(left_at, joined_at, r.at("left_at"), "joined_at")
    past = []
    for item, path in r.items("past_absences"):
        a = Reader(item, path)
        start, end = a.time("from"), a.time("until")
        if end <= start:
            raise ArchiveError(a.at("until"), "must be after from")
        past.append({"kind": a.choice("kind", ABSENCE_KINDS), "from": start, "until": end})
    return {
        "name": name,
        "admin": r.boolean("admin"),
        "idle": idle,
        "joined_at": joined_at,
        "idle_since": idle_since,
        "left_at": left_at,
        "past_absences": past,
    }


def _parse_dynasty(r: Reader, parsed: Parsed, numbers: set[int]) -> dict:
    number = r.integer("number", minimum=1)
    if number in numbers:
        raise ArchiveError(r.at("number"), f"dynasty {number} is listed twice")
    numbers.add(number)
    started_at = r.time("started_at")
    ended_at = r.time("ended_at", required=False)
    _not_before(ended_at, started_at, r.at("ended_at"), "started_at")
    return {
        "number": number,
        "emperor": _name(r, "emperor", parsed, required=False),
        "player_term": r.text("player_term", required=False, max_length=40) or "Player",
        "player_term_plural": r.text("player_term_plural", required=False, max_length=40),
        "emperor_term": r.text("emperor_term", required=False, max_length=40) or "Emperor",
        "theme": r.text("theme", required=False, max_length=200),
        "started_at": started_at,
        "ended_at": ended_at,
        "declaration": r.text("declaration", required=False, max_length=POST_ID_MAX_LENGTH) or None,
        "ascension_address": r.text("ascension_address", required=False, max_length=POST_ID_MAX_LENGTH) or None,
        "ascended_at": r.time("ascended_at", required=False),
        **_look(r),
    }


def _look(r: Reader) -> dict:
    """A dynasty's optional ``look``: ``{"palette", "header_line", "vote_labels": {"for", "against",
    "deferential"}}``, checked as an Ascension Address checks it."""
    data = r.data.get("look")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ArchiveError(r.at("look"), "must be an object")
    look = Reader(data, r.at("look"))
    labels = data.get("vote_labels") or {}
    if not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values()):
        raise ArchiveError(look.at("vote_labels"), "must be an object of strings")
    unknown = set(labels) - set(DEFAULT_VOTE_LABELS)
    if unknown:
        raise ArchiveError(look.at("vote_labels"), f"names no such icon: {', '.join(sorted(unknown))}")
    try:
        theme = theme_from(
            palette=look.text("palette", required=False, max_length=20),
            header_line=look.text("header_line", required=False, max_length=HEADER_LINE_MAX),
            vote_labels=labels,
        )
    except ThemeError as error:
        raise ArchiveError(r.at("look"), str(error)) from None
    chosen = dict(theme.vote_labels)
    return {
        "palette": theme.palette,
        "header_line": theme.header_line,
        **{
            f"vote_label_{icon}": "" if chosen[icon] == default else chosen[icon]
            for icon, default in DEFAULT_VOTE_LABELS.items()
        },
    }


def _post_id(r: Reader, ids: set[str]) -> str:
    post_id = r.text("id", max_length=POST_ID_MAX_LENGTH)
    try:
        _names(post_id)
        if post_id in (".", ".."):
            raise ValidationError("dots")
    except ValidationError:
        # A post's id is its URL (/posts/<id>/), so it may hold spaces and punctuation but no '/'.
        raise ArchiveError(
            r.at("id"),
            f"{post_id!r} cannot be a post's address: it may not be blank, "
            "'.' or '..', start or end with a space, or contain '/' or control "
            "characters",
        ) from None
    if post_id in ids:
        raise ArchiveError(r.at("id"), f"{post_id!r} is used by another post")
    ids.add(post_id)
    return post_id


def _parse_post(r: Reader, parsed: Parsed, ids: set[str], numbers: set[int]) -> dict:
    post_id = _post_id(r, ids)
    kind = r.choice("kind", KINDS)
    title = r.text("title", max_length=300)
    author = _name(r, "author", parsed)
    posted_at = r.time("posted_at")
    edited_at = r.time("edited_at", required=False)
    _not_before(edited_at, posted_at, r.at("edited_at"), "posted_at")
    dynasty = r.integer("dynasty", required=False, minimum=1)
    if dynasty is not None and dynasty not in numbers:
        parsed.dynasty_refs.setdefault(dynasty, r.at("dynasty"))
    votable = kind in VOTABLE_KINDS
    status = r.choice("status", STATUSES, required=votable)
    if not votable and status is not None:
        raise ArchiveError(r.at("status"), f"a {kind} is not votable, so its status must be null")
    resolution = _parse_resolution(r, parsed, status, posted_at)
    history = _parse_resolutions(r, parsed, status, resolution, posted_at)
    comments = [_parse_comment(Reader(item, path), parsed) for item, path in r.items("comments")]
    return {
        "id": post_id,
        "kind": kind,
        "title": title,
        "author": author,
        "posted_at": posted_at,
        "edited_at": edited_at,
        "dynasty": dynasty,
        "body": r.text("body", required=False, max_bytes=MAX_BODY_BYTES, holder="a post"),
        "flavour": r.text("flavour", required=False, max_bytes=MAX_BODY_BYTES, holder="a post's flavour text"),
        "status": status or "",
        "resolution": resolution,
        "comments": comments,
        "trivial": r.boolean("trivial"),
        "sticky": r.boolean("sticky"),
        "anonymous": r.boolean("anonymous"),
        "admin_note": r.text("admin_note", required=False),
        "resolutions": history,
        "enactable_since": r.time("enactable_since", required=False),
        "failable_since": r.time("failable_since", required=False),
        "stale_since": r.time("stale_since", required=False),
        "carried_out_at": r.time("carried_out_at", required=False),
        "matter_kind": _matter_kind(r, kind),
        "imported_at": r.time("imported_at", required=False),
        "hidden_at": r.time("hidden_at", required=False),
        "hidden_by": _name(r, "hidden_by", parsed, required=False),
    }


def _parse_resolution(r: Reader, parsed: Parsed, status: str | None, posted_at: datetime) -> dict | None:
    """The latest resolution of a post that is enacted or failed; refused on any other post."""
    res = r.child("resolution")
    if status not in ("enacted", "failed"):
        if res is not None:
            raise ArchiveError(r.at("resolution"), "must be null unless the post is enacted or failed")
        return None
    if res is None:
        raise ArchiveError(r.at("resolution"), f"is required for a post that is {status}")
    outcome = res.choice("outcome", OUTCOMES)
    if (status == "enacted") != (outcome == "enacted"):
        raise ArchiveError(res.at("outcome"), f"{outcome!r} does not agree with status {status!r}")
    at = res.time("at")
    _not_before(at, posted_at, res.at("at"), "the post's posted_at")
    tally = res.data.get("tally")
    if tally is not None and not isinstance(tally, dict):
        raise ArchiveError(res.at("tally"), "must be an object (the final tally) or null")
    check_json(tally, res.at("tally"))
    return {
        "by": _name(res, "by", parsed, required=False),
        "at": at,
        "outcome": outcome,
        "note": res.text("note", required=False),
        "tally": tally or {},
        "imported_at": res.time("imported_at", required=False),
    }


def _parse_comment(c: Reader, parsed: Parsed) -> dict:
    return {
        "pk": optional_pk(c),
        "author": _name(c, "author", parsed),
        "at": c.time("at"),
        "icon": c.choice("icon", ICONS, nullable=True),
        "text": c.text("text", required=False, max_bytes=MAX_BODY_BYTES, holder="a comment"),
        "trivial": c.boolean("trivial"),
        "imported_at": c.time("imported_at", required=False),
    }


def _matter_kind(r: Reader, kind: str) -> int | None:
    """The pk of the dynasty's own kind (in ``matter_kinds``) a Proposal or a matter is, if any."""
    pk = r.integer("matter_kind", required=False, minimum=1)
    if pk is not None and kind not in (Kind.PROPOSAL, Kind.MATTER):
        raise ArchiveError(r.at("matter_kind"), f"a {kind} is of no dynasty's own kind")
    return pk


def _parse_resolutions(
    r: Reader, parsed: Parsed, status: str | None, final: dict | None, posted_at: datetime
) -> list[dict]:
    """Every resolution of a post, oldest first: ``resolutions`` when given, else the latest alone."""
    if not r.has("resolutions"):
        return [final] if final else []
    history = []
    for item, path in r.items("resolutions"):
        h = Reader(item, path)
        at = h.time("at")
        _not_before(at, posted_at, h.at("at"), "the post's posted_at")
        tally = h.data.get("tally")
        if tally is not None and not isinstance(tally, dict):
            raise ArchiveError(h.at("tally"), "must be an object (the final tally) or null")
        check_json(tally, h.at("tally"))
        history.append(
            {
                "by": _name(h, "by", parsed, required=False),
                "at": at,
                "outcome": h.choice("outcome", HISTORY_OUTCOMES),
                "note": h.text("note", required=False),
                "tally": tally or {},
                "reason": h.text("reason", required=False),
                "imported_at": h.time("imported_at", required=False),
            }
        )
    last = history[-1]["outcome"] if history else None
    if status in ("enacted", "failed") and (last is None or last == Resolution.REOPENED):
        raise ArchiveError(r.at("resolutions"), f"must end with the resolution of a post that is {status}")
    if status not in ("enacted", "failed") and last not in (None, Resolution.REOPENED):
        raise ArchiveError(r.at("resolutions"), "must end with a reopening for a post that is not resolved")
    return history


def _parse_rule_change(r: Reader, parsed: Parsed, ids: set[str]) -> dict:
    parameter = r.text("parameter", max_length=60)
    if parameter not in ADJUSTABLE:
        raise ArchiveError(r.at("parameter"), f"{parameter!r} is not a rule parameter that can be changed")
    kind, nullable, _ = ADJUSTABLE[parameter]
    value = r.data.get("value")
    valid = (value is None and nullable) or (
        isinstance(value, bool)
        if kind is bool
        else isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100_000
    )
    if not valid:
        raise ArchiveError(r.at("value"), f"is not a valid value for {parameter}")
    proposal = r.text("proposal", max_length=POST_ID_MAX_LENGTH)
    if proposal not in ids:
        parsed.post_refs.setdefault(proposal, r.at("proposal"))
    return {
        "parameter": parameter,
        "value": value,
        "proposal": proposal,
        "by": _name(r, "by", parsed),
        "at": r.time("at"),
    }


def _parse_page(r: Reader, parsed: Parsed, titles: set[str], slugs: set[str], ids: set[str]) -> dict:
    title = r.text("title", max_length=200)
    if title.lower() in titles:
        raise ArchiveError(r.at("title"), f"{title!r} is used by another page")
    titles.add(title.lower())
    slug = r.text("slug", required=False, max_length=200)
    if slug:
        try:
            validate_unicode_slug(slug)
        except ValidationError:
            raise ArchiveError(r.at("slug"), f"{slug!r} is not a slug (letters, digits, - and _)") from None
    else:
        slug = slugify(title, allow_unicode=True)[:200] or "page"
    if slug in slugs:
        raise ArchiveError(r.at("slug"), f"{slug!r} is the address of another page in this archive")
    slugs.add(slug)
    revisions = []
    for item, path in r.items("revisions", required=True):
        v = Reader(item, path)
        post = v.text("post", required=False) or None
        if post is not None and post not in ids:
            parsed.post_refs.setdefault(post, v.at("post"))
        revisions.append(
            {
                "at": v.time("at"),
                "author": _name(v, "author", parsed, required=False),
                "summary": v.text("summary", required=False, max_length=300),
                "text": v.text("text", required=False, max_bytes=MAX_PAGE_BYTES, holder="a page"),
                "post": post,
            }
        )
    if not revisions:
        raise ArchiveError(r.at("revisions"), "must hold at least one revision")
    kind = r.choice("kind", PAGE_KINDS, required=False) or Page.ORDINARY
    protection_log = []
    for item, path in r.items("protection_log"):
        p = Reader(item, path)
        protection_log.append(
            {
                "protected": p.boolean("protected"),
                "by": _name(p, "by", parsed, required=False),
                "at": p.time("at"),
                "reason": p.text("reason", required=False, max_length=300),
            }
        )
    return {
        "title": title,
        "slug": slug,
        "kind": kind,
        "protected": r.boolean("protected"),
        "created_at": r.time("created_at", required=False),
        "revisions": revisions,
        "protection_log": protection_log,
    }
