"""Victory and succession: an enacted Declaration of Victory ends the dynasty and starts the next one.

The new Emperor may hand the role to another player, then posts the Ascension Address, which renames the
game's terms, repeals the dynastic rules not kept, archives the GNDT and ends the hiatus.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from dynasties.clock import format_moment
from dynasties.models import Dynasty, User
from dynasties.theming import DEFAULT_VOTE_LABELS, ThemeError, theme_from
from votes.models import Kind, Outcome, Post, Status


class SuccessionError(Exception):
    """A step of victory or ascension was refused; the message says why."""


NOT_THE_NEW_EMPEROR = "Only the new {emperor}, {name}, may do that."
NOTHING_AWAITS = "No new dynasty is waiting for an Ascension Address."
HAND_TO_PLAYER = "The role can only be passed to an active player."


def dynasty_begin_from_declaration(*, declaration: Post, now: datetime, **_signal) -> Dynasty:
    """When a DoV is enacted (``votes.signals.declaration_enacted``), the other pending DoVs fail and a
    dynasty begins with its author."""
    from votes.models import Resolution

    with transaction.atomic():
        note = f"Failed automatically: “{declaration.title}” was enacted at {format_moment(now)}"
        for other in Post.objects.select_for_update().filter(kind=Kind.DOV, status=Status.PENDING).exclude(
            pk=declaration.pk
        ):
            other.status, other.outcome = Status.FAILED, Outcome.FAILED
            other.admin_note = f"{other.admin_note}\n{note}".strip()
            other.save(update_fields=["status", "outcome", "admin_note"])
            Resolution.objects.create(post=other, outcome=Resolution.FAILED, by=None, at=now, note=note)
        old = Dynasty.objects.select_for_update().filter(ended_at__isnull=True).order_by("-number").first()
        if old is not None:
            old.ended_at = now
            old.save(update_fields=["ended_at"])
        number = (Dynasty.objects.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        return Dynasty.objects.create(
            number=number, emperor=declaration.author, started_at=now, declaration=declaration,
            player_term=old.player_term if old else "Player",
            player_term_plural=old.player_term_plural if old else "",
            emperor_term=old.emperor_term if old else "Emperor",
            theme="",
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


def ascension_address_post(*, author: User, title: str, body: str, theme: str, player_term: str,
                           emperor_term: str, keep_rules: list[str], keep_columns: list[str],
                           keep_rows: list[str] = (), extra_renames: dict[str, str] | None = None,
                           palette: str = "", header_line: str = "", vote_labels: dict[str, str] | None = None,
                           now: datetime) -> Post:
    """The new Emperor's Ascension Address: one post, one ruleset revision, a fresh GNDT; hiatus ends.

    The old Ruleset is kept as a snapshot named after the dynasty that just ended; the new terms replace
    the old throughout the Ruleset (with ``extra_renames`` for things such as 2005's currency), and the
    dynastic rules not in ``keep_rules`` are repealed, all in one revision. The same renames reach every
    gamestate page and the new GNDT's kept columns and kept rows that are not players (``keep_rows``).

    The dynasty's look is set too (``dynasties.theming``): a named ``palette``, a ``header_line`` and the names
    of the vote icons (``vote_labels``, keyed ``for``, ``against``, ``deferential``); a bad one refuses the
    whole Address.
    """
    from gndt.services import gndt_start_dynasty
    from ruleset.services import (
        WikiError,
        gamestate_pages_replace_keywords,
        ruleset_apply_ascension,
        ruleset_snapshot,
    )
    from votes.models import title_subject
    from votes.posting import BODY_TOO_LONG, EMPTY_SUBJECT, unique_slug

    try:
        look = theme_from(palette=palette, header_line=header_line, vote_labels=vote_labels)
    except ThemeError as error:
        raise SuccessionError(str(error)) from error
    player_term = _clean_term(player_term, "players")
    emperor_term = _clean_term(emperor_term, "the Emperor")
    title = (title or "").strip() or f"Ascension Address: {theme.strip() or 'A New Dynasty'}"
    if not title_subject(title):
        raise SuccessionError(EMPTY_SUBJECT)
    if len((body or "").encode("utf-8")) > 100 * 1024:
        raise SuccessionError(BODY_TOO_LONG)
    with transaction.atomic():
        dynasty = Dynasty.objects.select_for_update(of=("self",)).select_related("emperor").filter(
            ended_at__isnull=True).order_by("-number").first()
        if dynasty is None or dynasty.declaration_id is None:
            raise SuccessionError(NOTHING_AWAITS)
        if dynasty.emperor_id != author.pk:
            raise SuccessionError(NOT_THE_NEW_EMPEROR.format(emperor=dynasty.emperor_term, name=dynasty.emperor))
        if dynasty.ascended_at is not None:
            raise SuccessionError(NOT_AWAITING.format(emperor=dynasty.emperor_term))
        previous = Dynasty.objects.filter(number__lt=dynasty.number).order_by("-number").first()
        post = Post.objects.create(
            slug=unique_slug(title), kind=Kind.ASCENSION, title=title, author=author, posted_at=now,
            dynasty=dynasty, body=body or "", status=Status.NONE,
        )
        renames = {}
        if dynasty.player_term != player_term:
            renames[dynasty.player_term] = player_term
        if dynasty.emperor_term != emperor_term:
            renames[dynasty.emperor_term] = emperor_term
        renames.update({old: new for old, new in (extra_renames or {}).items() if old and new and old != new})
        try:
            if previous is not None:
                ruleset_snapshot(dynasty_number=previous.number, now=now, author=author)
            ruleset_apply_ascension(replacements=renames, keep_anchors=keep_rules, author=author, now=now,
                                    post=post, summary=f"Ascension Address: {title_subject(title)}")
            gamestate_pages_replace_keywords(replacements=renames, author=author, now=now, post=post,
                                             summary=f"Ascension Address: {title_subject(title)}")
        except WikiError as error:
            raise SuccessionError(str(error)) from error
        if previous is not None:
            gndt_start_dynasty(old_dynasty=previous, new_dynasty=dynasty, keep_columns=keep_columns,
                               keep_rows=keep_rows, renames=renames, now=now)
        dynasty.theme = theme.strip()[:200]
        labels = dict(look.vote_labels)
        dynasty.palette, dynasty.header_line = look.palette, look.header_line
        dynasty.vote_label_for = "" if labels["for"] == DEFAULT_VOTE_LABELS["for"] else labels["for"]
        dynasty.vote_label_against = "" if labels["against"] == DEFAULT_VOTE_LABELS["against"] else labels["against"]
        dynasty.vote_label_deferential = (
            "" if labels["deferential"] == DEFAULT_VOTE_LABELS["deferential"] else labels["deferential"]
        )
        dynasty.player_term, dynasty.player_term_plural = player_term, ""
        dynasty.emperor_term = emperor_term
        dynasty.ascended_at, dynasty.ascension_address = now, post
        dynasty.save()
        return post
