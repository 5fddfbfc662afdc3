"""Victory and succession: an enacted Declaration of Victory ends the dynasty and starts the next one.

The new Emperor may hand the role to another player, then posts the Ascension Address, which renames the
game's terms, repeals the dynastic rules not kept, archives the GNDT and ends the hiatus.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction

from dynasties.clock import format_moment
from dynasties.models import Dynasty, User
from dynasties.theming import DEFAULT_VOTE_LABELS, Theme, ThemeError, theme_from
from gndt.services import gndt_start_dynasty
from ruleset.ascension import gamestate_pages_replace_keywords, ruleset_apply_ascension, ruleset_snapshot
from ruleset.services import WikiError
from votes.models import Kind, Outcome, Post, Resolution, Status, title_subject
from votes.posting import BODY_TOO_LONG, EMPTY_SUBJECT, unique_slug


class SuccessionError(Exception):
    """A step of victory or ascension was refused; the message says why."""


NOT_THE_NEW_EMPEROR = "Only the new {emperor}, {name}, may do that."
NOTHING_AWAITS = "No new dynasty is waiting for an Ascension Address."
HAND_TO_PLAYER = "The role can only be passed to an active player."


def dynasty_begin_from_declaration(*, declaration: Post, now: datetime) -> Dynasty:
    """A step of enacting a DoV (``blognomic/enactment.py``): the other pending DoVs fail and a dynasty
    begins with its author."""
    with transaction.atomic():
        note = f"Failed automatically: “{declaration.title}” was enacted at {format_moment(now)}"
        for other in (
            Post.objects.select_for_update().filter(kind=Kind.DOV, status=Status.PENDING).exclude(pk=declaration.pk)
        ):
            other.status, other.outcome = Status.FAILED, Outcome.FAILED
            other.admin_note = f"{other.admin_note}\n{note}".strip()
            other.save(update_fields=["status", "outcome", "admin_note"])
            Resolution.objects.create(post=other, outcome=Outcome.FAILED, by=None, at=now, note=note)
        old = _running_dynasty_end(at=now)
        number = (Dynasty.objects.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        return Dynasty.objects.create(
            number=number,
            emperor=declaration.author,
            started_at=now,
            declaration=declaration,
            player_term=old.player_term if old else "Player",
            player_term_plural=old.player_term_plural if old else "",
            emperor_term=old.emperor_term if old else "Emperor",
            theme="",
        )


def _running_dynasty_end(*, at: datetime) -> Dynasty | None:
    """The running dynasty, locked and ended at ``at`` (None when none runs)."""
    old = Dynasty.objects.select_for_update().filter(ended_at__isnull=True).order_by("-number").first()
    if old is not None:
        old.ended_at = at
        old.save(update_fields=["ended_at"])
    return old


NUMBER_TAKEN = "Dynasty {number} is already in the game; the dynasty begun must be numbered after {latest}."
NUMBER_POSITIVE = "A dynasty's number is a whole number from 1."
STARTS_BEFORE_RUNNING = "The running dynasty began at {began}; the new one must begin later."
SUCCESSION_UNDER_WAY = (
    "A Declaration of Victory is pending or a new dynasty awaits its Ascension Address: the game's own succession "
    "begins the next dynasty."
)
EMPEROR_NOT_PLAYER = "The Emperor must be a player (one who has joined the game)."
ONLY_ADMINS_START = "Only admins may begin a dynasty."


@dataclass(frozen=True)
class DynastyOpening:
    """How an admin begins the current dynasty by hand, after a game was imported: its number, Emperor (None:
    a Metadynasty) and terms."""

    number: int
    emperor: User | None
    player_term: str = "Player"
    player_term_plural: str = ""
    emperor_term: str = "Emperor"


def dynasty_start(*, opening: DynastyOpening, by: User, at: datetime) -> Dynasty:
    """Begin the game's current dynasty by hand: the running one (if any) ends at ``at`` and the new one runs
    from then, already ascended (no hiatus). Refused while the game's own succession is under way, for a
    number not after every dynasty here, or for an Emperor who is not a player; nothing is written then."""
    if not by.is_admin:
        raise SuccessionError(ONLY_ADMINS_START)
    player_term = _clean_term(opening.player_term, "players")
    emperor_term = _clean_term(opening.emperor_term, "the Emperor")
    plural = (opening.player_term_plural or "").strip()
    if plural:
        plural = _clean_term(plural, "players (plural)")
    if opening.number < 1:
        raise SuccessionError(NUMBER_POSITIVE)
    if opening.emperor is not None and not opening.emperor.is_player:
        raise SuccessionError(EMPEROR_NOT_PLAYER)
    with transaction.atomic():
        running = Dynasty.objects.select_for_update().filter(ended_at__isnull=True).order_by("-number").first()
        if (running is not None and running.awaiting_ascension) or Post.objects.filter(
            kind=Kind.DOV, status=Status.PENDING
        ).exists():
            raise SuccessionError(SUCCESSION_UNDER_WAY)
        latest = Dynasty.objects.order_by("-number").values_list("number", flat=True).first()
        if latest is not None and opening.number <= latest:
            raise SuccessionError(NUMBER_TAKEN.format(number=opening.number, latest=latest))
        if running is not None and running.started_at >= at:
            raise SuccessionError(STARTS_BEFORE_RUNNING.format(began=format_moment(running.started_at)))
        _running_dynasty_end(at=at)
        return Dynasty.objects.create(
            number=opening.number,
            emperor=opening.emperor,
            started_at=at,
            ascended_at=at,
            player_term=player_term,
            player_term_plural=plural,
            emperor_term=emperor_term,
        )


def emperor_hand_over(*, dynasty: Dynasty, by: User, to: User, now: datetime) -> Dynasty:
    """Before the Ascension Address, the new Emperor may pass the role to another player."""
    with transaction.atomic():
        dynasty = Dynasty.objects.select_for_update(of=("self",)).select_related("emperor").get(pk=dynasty.pk)
        if not dynasty.awaiting_ascension:
            raise SuccessionError(NOTHING_AWAITS)
        if dynasty.emperor_id != by.pk:
            raise SuccessionError(NOT_THE_NEW_EMPEROR.format(emperor=dynasty.emperor_term, name=dynasty.emperor))
        if not User.objects.active_at(now).filter(pk=to.pk).exists() or to.pk == by.pk:
            raise SuccessionError(HAND_TO_PLAYER)
        dynasty.emperor = to
        dynasty.save(update_fields=["emperor"])
        return dynasty


NOT_AWAITING = "The {emperor} has already posted this dynasty's Ascension Address."
TERM_NEEDED = "Give a name for {what} (a single word or short phrase, at most 40 characters)."


def _clean_term(term: str, what: str) -> str:
    term = (term or "").strip()
    if not term or len(term) > 40 or any(ch in term for ch in "=:/\n"):
        raise SuccessionError(TERM_NEEDED.format(what=what))
    return term


@dataclass(frozen=True)
class AscensionAddress:
    """What the new Emperor writes in the Ascension Address, as the Ascension page's form gives it.

    ``keep_rules`` names the dynastic rules kept (by anchor), ``keep_columns`` the GNDT columns and
    ``keep_rows`` its rows that are not players'; ``extra_renames`` adds keyword replacements beyond the two
    terms (2005's currency). ``palette``, ``header_line`` and ``vote_labels`` (keyed ``for``, ``against``,
    ``deferential``) are the dynasty's look (``dynasties.theming``).
    """

    title: str
    body: str
    theme: str
    player_term: str
    emperor_term: str
    keep_rules: list[str]
    keep_columns: list[str]
    keep_rows: Sequence[str] = ()
    extra_renames: dict[str, str] = field(default_factory=dict)
    palette: str = ""
    header_line: str = ""
    vote_labels: dict[str, str] | None = None


def ascension_address_post(*, author: User, address: AscensionAddress, now: datetime) -> Post:
    """The new Emperor's Ascension Address: one post, one ruleset revision, a fresh GNDT; hiatus ends.

    The old Ruleset is kept as a snapshot named after the dynasty that just ended; the new terms replace
    the old throughout the Ruleset (with ``extra_renames`` for things such as 2005's currency), and the
    dynastic rules not in ``keep_rules`` are repealed, all in one revision. The same renames reach every
    gamestate page and the new GNDT's kept columns and kept rows that are not players (``keep_rows``).

    The dynasty's look is set too; a bad one refuses the whole Address.
    """
    try:
        look = theme_from(palette=address.palette, header_line=address.header_line, vote_labels=address.vote_labels)
    except ThemeError as error:
        raise SuccessionError(str(error)) from error
    player_term = _clean_term(address.player_term, "players")
    emperor_term = _clean_term(address.emperor_term, "the Emperor")
    title = _address_title(address)
    with transaction.atomic():
        dynasty = _dynasty_awaiting_address(author)
        previous = Dynasty.objects.filter(number__lt=dynasty.number).order_by("-number").first()
        post = Post.objects.create(
            slug=unique_slug(title),
            kind=Kind.ASCENSION,
            title=title,
            author=author,
            posted_at=now,
            dynasty=dynasty,
            body=address.body or "",
            status=Status.NONE,
        )
        renames = {}
        if dynasty.player_term != player_term:
            renames[dynasty.player_term] = player_term
        if dynasty.emperor_term != emperor_term:
            renames[dynasty.emperor_term] = emperor_term
        renames.update({old: new for old, new in (address.extra_renames or {}).items() if old and new and old != new})
        _rewrite_wiki(previous=previous, post=post, renames=renames, keep_rules=address.keep_rules, now=now)
        if previous is not None:
            gndt_start_dynasty(
                old_dynasty=previous,
                new_dynasty=dynasty,
                keep_columns=address.keep_columns,
                keep_rows=address.keep_rows,
                renames=renames,
                now=now,
            )
        dynasty.theme = address.theme.strip()[:200]
        _set_look(dynasty, look)
        dynasty.player_term, dynasty.player_term_plural = player_term, ""
        dynasty.emperor_term = emperor_term
        dynasty.ascended_at, dynasty.ascension_address = now, post
        dynasty.save()
        return post


def _address_title(address: AscensionAddress) -> str:
    """The Address's title (a default one after the theme when none is given), refused when it has no subject
    or its body is too long."""
    title = (address.title or "").strip() or f"Ascension Address: {address.theme.strip() or 'A New Dynasty'}"
    if not title_subject(title):
        raise SuccessionError(EMPTY_SUBJECT)
    if len((address.body or "").encode("utf-8")) > 100 * 1024:
        raise SuccessionError(BODY_TOO_LONG)
    return title


def _dynasty_awaiting_address(author: User) -> Dynasty:
    """The current dynasty, locked, when it is waiting for ``author``'s Ascension Address."""
    dynasty = (
        Dynasty.objects.select_for_update(of=("self",))
        .select_related("emperor")
        .filter(ended_at__isnull=True)
        .order_by("-number")
        .first()
    )
    if dynasty is None or dynasty.declaration_id is None:
        raise SuccessionError(NOTHING_AWAITS)
    if dynasty.emperor_id != author.pk:
        raise SuccessionError(NOT_THE_NEW_EMPEROR.format(emperor=dynasty.emperor_term, name=dynasty.emperor))
    if dynasty.ascended_at is not None:
        raise SuccessionError(NOT_AWAITING.format(emperor=dynasty.emperor_term))
    return dynasty


def _rewrite_wiki(
    *, previous: Dynasty | None, post: Post, renames: dict[str, str], keep_rules: list[str], now: datetime
) -> None:
    """The old Ruleset kept as a snapshot, the new one in one revision, the renames on every gamestate page."""
    author = post.author
    summary = f"Ascension Address: {title_subject(post.title)}"
    try:
        if previous is not None:
            ruleset_snapshot(dynasty_number=previous.number, now=now, author=author)
        ruleset_apply_ascension(
            replacements=renames, keep_anchors=keep_rules, author=author, now=now, post=post, summary=summary
        )
        gamestate_pages_replace_keywords(replacements=renames, author=author, now=now, post=post, summary=summary)
    except WikiError as error:
        raise SuccessionError(str(error)) from error


def _set_look(dynasty: Dynasty, look: Theme) -> None:
    """The dynasty's palette, header line and vote labels; a label left as the default is stored empty."""
    labels = dict(look.vote_labels)
    dynasty.palette, dynasty.header_line = look.palette, look.header_line
    dynasty.vote_label_for = "" if labels["for"] == DEFAULT_VOTE_LABELS["for"] else labels["for"]
    dynasty.vote_label_against = "" if labels["against"] == DEFAULT_VOTE_LABELS["against"] else labels["against"]
    dynasty.vote_label_deferential = (
        "" if labels["deferential"] == DEFAULT_VOTE_LABELS["deferential"] else labels["deferential"]
    )
