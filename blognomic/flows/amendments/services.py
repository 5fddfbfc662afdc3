"""Amendments in the game: checking them against the game as it is now, posting them, showing them as a
diff with what went stale, applying them when their matter is enacted, and reverting them after a reopening.

Votes stores an amendment with its post; this module, at the top, is the one that knows the Ruleset, the
GNDT, the core rules and the roster. Applying the amendment is a step of enacting its matter, and an
amendment that no longer applies is an obstacle to enacting it (both listed in ``blognomic/enactment.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils.formats import date_format

from blognomic.flows.amendments.models import AmendmentApplication
from blognomic.flows.amendments.shape import (
    GAME_OPS,
    AmendmentRefused,
    check_shape,
    describe_parameter,
    indices_of,
    label,
    refusal,
    wanted,
)
from blognomic.flows.roster.services import RosterError, player_rename, rename_problem, rule_change_record
from dynasties import names
from dynasties.models import Dynasty, Game, Rename, User
from dynasties.models import RuleChange as ParameterChange
from gndt.amendment_operations import GNDT_OPS, apply_gndt_operations, cells_named, describe_cell
from gndt.models import CellChange, Update
from gndt.services import GndtError
from gndt.services.amendment_writes import gndt_amendment_table, gndt_apply_amendment, gndt_revert_amendment
from gndt.sight import Sight, sight_of
from ruleset.amendment_operations import (
    PAGE_OPS,
    RULE_OPS,
    apply_page_operations,
    apply_rule_operations,
    describe_page_operation,
    rules_named,
    translate_operations,
)
from ruleset.amendment_writes import rule_renames_since, ruleset_apply_amendment, ruleset_revert_amendment
from ruleset.diffing import render_inline_diff
from ruleset.models import RULESET_SLUG, Page, Revision, RuleChange
from ruleset.services import WikiError
from ruleset.structure import parse_ruleset, serialize_ruleset
from votes.amendment_errors import OperationRefused
from votes.models import Amendment, Post, Status
from votes.posting import amendment_save, post_create
from votes.resolution_steps import EnactmentRefused

CACHE_SECONDS = 24 * 3600
NO_LONGER_APPLIES = "The amendment no longer applies: {problem}"
NEEDS_AN_ADMIN = "renaming players and changing core rules is done by an admin enacting the matter"
NO_SUCH_PLAYER = "there is no player “{name}”"
NAME_CLASH_AT_ENACTMENT = "a name it gives is already taken"
# What a reader who may not see it is told of an operation on a secret, in place of what it does.
SECRET_CHANGE = "a secret change to the GNDT"
NOTHING_TO_REVERT = "There is nothing to revert: the amendment was not applied, or was reverted already."
STILL_ENACTED = "“{title}” is enacted; reopen it before reverting what its amendment applied."


@dataclass
class Preview:
    """An amendment checked against the game now: what it does, where it no longer fits, and the diffs."""

    descriptions: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    ruleset_diff: str = ""
    page_diffs: list[tuple[str, str]] = field(default_factory=list)
    gndt_changes: list[tuple[str, str, str]] = field(default_factory=list)
    gndt_cells: list[tuple[str, str]] = field(default_factory=list)  # (row, column) of each of gndt_changes
    base_number: int | None = None

    @property
    def applies(self) -> bool:
        return not self.problems


def _when(moment: datetime) -> str:
    return date_format(moment, "j M")


def _cause_of_revision(revision: Revision) -> str:
    if revision.post is not None:
        return f"{revision.post.title}, enacted {_when(revision.at)}"
    who = f" by {revision.author}" if revision.author_id else ""
    return f"revision {revision.number}{who}, {_when(revision.at)}"


def _cause_of_update(update: Update) -> str:
    if update.post is not None:
        return f"{update.post.title}, enacted {_when(update.at)}"
    who = f"{update.by}" if update.by_id else "the system"
    return f"update #{update.pk} by {who}, {_when(update.at)}"


def ruleset_base_number() -> int | None:
    """The number of the Ruleset's current revision: what an amendment written now is written against."""
    page = Page.objects.filter(slug=RULESET_SLUG).select_related("current").first()
    return page.current.number if page and page.current else None


def amendment_check(
    operations, *, base_number: int | None, since: datetime | None, now: datetime, checked_by: User | None = None
) -> Preview:
    """``amendment_preview`` without its diffs: what posting and enacting need to know (whether the operations
    apply, what they do and what went stale), without rendering what nobody will read."""
    return _examine(operations, base_number=base_number, since=since, now=now, checked_by=checked_by, diffs=False)


def amendment_preview(
    operations,
    *,
    base_number: int | None,
    since: datetime | None,
    now: datetime,
    checked_by: User | None = None,
    secret: frozenset[int] = frozenset(),
) -> Preview:
    """Check ``operations`` against the game at ``now`` and say what they would do, with the diffs a reader
    is shown.

    ``base_number`` is the Ruleset revision they were written against (rules are followed through renames
    since), ``since`` when they were written: what changed after it is reported as stale. Raises
    ``AmendmentRefused`` when the operations are not well formed at all.

    ``checked_by`` is the author checking what they wrote (the post form, posting): it is checked against the
    GNDT as they may see it, so that a hidden column they may not know of is refused as one that does not
    exist, and nothing in the preview or a refusal tells them a value they may not see. Without it, against
    all of it (enacting, the admin panel). The operations numbered in ``secret`` (from 0) are left out and
    told only as ``SECRET_CHANGE``: see ``amendment_preview_for``.
    """
    return _examine(
        operations, base_number=base_number, since=since, now=now, checked_by=checked_by, secret=secret, diffs=True
    )


def _examine(
    operations,
    *,
    base_number: int | None,
    since: datetime | None,
    now: datetime,
    checked_by: User | None,
    secret: frozenset[int] = frozenset(),
    diffs: bool,
) -> Preview:
    operations = check_shape(operations)
    preview = Preview(base_number=base_number)
    descriptions: dict[int, str] = {}
    _preview_rules(operations, preview, descriptions, diffs=diffs)
    _preview_pages(operations, preview, descriptions, since, diffs=diffs)
    sight = None
    if checked_by is not None and indices_of(operations, GNDT_OPS):
        sight = sight_of(checked_by, Dynasty.objects.current())
    _preview_gndt(operations, preview, descriptions, since, now, sight=sight, secret=secret)
    _preview_game(operations, preview, descriptions, now)
    preview.descriptions = [descriptions.get(index, label(op)) for index, op in enumerate(operations)]
    return as_seen(preview, sight) if sight is not None else preview


def as_seen(preview: Preview, sight: Sight) -> Preview:
    """``preview`` without the cells its reader may not see (a new row's starting secret, another's role)."""
    kept = [index for index, cell in enumerate(preview.gndt_cells) if sight.sees_cell(*cell)]
    if len(kept) == len(preview.gndt_cells):
        return preview
    return replace(
        preview,
        gndt_changes=[preview.gndt_changes[index] for index in kept],
        gndt_cells=[preview.gndt_cells[index] for index in kept],
    )


def _preview_rules(operations: list[dict], preview: Preview, descriptions: dict[int, str], *, diffs: bool) -> None:
    indices = indices_of(operations, RULE_OPS)
    if not indices:
        return
    page = Page.objects.filter(slug=RULESET_SLUG).select_related("current").first()
    current = page.current if page is not None else None
    if page is None or current is None:
        preview.problems.append(refusal(indices[0], operations[indices[0]], "there is no Ruleset yet").args[0])
        return
    base = preview.base_number if preview.base_number is not None else current.number
    translated = translate_operations(operations, rule_renames_since(page, base))
    ruleset = parse_ruleset(current.text)
    labels = {rule.anchor: f"{rule.number} {rule.title}" for rule in ruleset.all_rules()}
    touched = _rules_touched(page, base, operations, translated) if base < current.number else {}
    try:
        applied = apply_rule_operations(current.text, translated, stale=bool(touched))
    except OperationRefused as error:
        stale_words = touched.get(error.index)
        if stale_words:
            preview.problems.append(f"{stale_words}; {error.reason}")
        else:
            preview.problems.append(refusal(error.index, translated[error.index], error.reason, labels).args[0])
        preview.stale.extend(words for index, words in sorted(touched.items()) if index != error.index)
        # Nothing was applied, so each operation says what it set out to do, its rules named as they were
        # when it was written (a rule since renamed or repealed has no number now).
        if base != current.number:
            written = Revision.objects.filter(page=page, number=base).values_list("text", flat=True).first()
            if written is not None:
                labels = {
                    **{rule.anchor: f"{rule.number} {rule.title}" for rule in parse_ruleset(written).all_rules()},
                    **labels,
                }
        descriptions.update({index: wanted(operations[index], labels) for index in indices})
        return
    preview.stale.extend(words for _, words in sorted(touched.items()))
    descriptions.update(zip(indices, applied.descriptions, strict=True))
    if diffs:
        # Against the canonical form, so a Ruleset stored with other spacing shows only the amendment's change.
        preview.ruleset_diff = render_inline_diff(serialize_ruleset(ruleset), applied.text, context=2)


def _rules_touched(page: Page, base: int, operations: list[dict], translated: list[dict]) -> dict[int, str]:
    """For each operation whose rule changed after revision ``base``: the plain words saying so."""
    names: dict[int, set[str]] = {}
    for index, (op, now_op) in enumerate(zip(operations, translated, strict=True)):
        if op.get("op") in RULE_OPS and op.get("op") != "rule_add":
            named = set(rules_named({"rule": op.get("rule")})) | set(rules_named({"rule": now_op.get("rule")}))
            if named:
                names[index] = named
    if not names:
        return {}
    wanted = set().union(*names.values())
    changes = list(
        RuleChange.objects.filter(page=page, revision__number__gt=base, anchor__in=wanted)
        .select_related("revision__post", "revision__author")
        .order_by("revision__number", "pk")
    )
    words: dict[int, str] = {}
    for index, named in names.items():
        mine = [change for change in changes if change.anchor in named]
        if not mine:
            continue
        change = mine[-1]
        verb = "was repealed" if change.kind == RuleChange.REMOVED else "changed"
        words[index] = f"Rule {change.number} {verb} since this was posted ({_cause_of_revision(change.revision)})"
    return words


def _preview_pages(
    operations: list[dict], preview: Preview, descriptions: dict[int, str], since: datetime | None, *, diffs: bool
) -> None:
    by_page: dict[str, list[int]] = {}
    for index in indices_of(operations, PAGE_OPS):
        by_page.setdefault(operations[index]["page"], []).append(index)
    for slug, indices in by_page.items():
        page = Page.objects.filter(slug=slug).select_related("current").first()
        current = page.current if page is not None else None
        if page is None or current is None:
            preview.problems.append(
                refusal(indices[0], operations[indices[0]], f"there is no wiki page “{slug}”").args[0]
            )
            continue
        if page.is_ruleset:
            preview.problems.append(
                refusal(indices[0], operations[indices[0]], "the Ruleset is changed rule by rule, not as a page").args[
                    0
                ]
            )
            continue
        later = None
        if since is not None:
            later = page.revisions.filter(at__gt=since).select_related("post", "author").order_by("-number").first()
        stale_words = (
            f"The page “{page.title}” changed since this was posted ({_cause_of_revision(later)})" if later else ""
        )
        try:
            text = apply_page_operations(current.text, [operations[i] for i in indices], stale=bool(later))
        except OperationRefused as error:
            index = indices[error.index]
            preview.problems.append(
                f"{stale_words}; {error.reason}"
                if stale_words
                else refusal(index, operations[index], error.reason).args[0]
            )
            continue
        if stale_words:
            preview.stale.append(stale_words)
        for index in indices:
            descriptions[index] = describe_page_operation(operations[index], page.title)
        if diffs:
            preview.page_diffs.append((page.title, render_inline_diff(current.text, text, context=2)))


def _preview_gndt(
    operations: list[dict],
    preview: Preview,
    descriptions: dict[int, str],
    since: datetime | None,
    now: datetime,
    *,
    sight: Sight | None,
    secret: frozenset[int],
) -> None:
    for index in secret:
        descriptions[index] = SECRET_CHANGE
    # A secret operation is not tried at all: whether it still applies would tell what it touches.
    operations = [{"op": "secret"} if index in secret else op for index, op in enumerate(operations)]
    indices = indices_of(operations, GNDT_OPS)
    if not indices:
        return
    dynasty = Dynasty.objects.current()
    table = gndt_amendment_table(dynasty, now=now, sight=sight)
    stale: dict[int, str] = {}
    if since is not None and dynasty is not None:
        cells = {index: cells_named(operations[index]) for index in indices}
        wanted = {cell for named in cells.values() for cell in named}
        if wanted:
            changes = (
                CellChange.objects.filter(
                    update__dynasty=dynasty,
                    update__at__gt=since,
                    row__name__in={r for r, _ in wanted},
                    column__name__in={c for _, c in wanted},
                )
                .select_related("update__post", "update__by", "row", "column")
                .order_by("update__at", "pk")
            )
            last = {(change.row.name, change.column.name): change.update for change in changes}
            for index, named in cells.items():
                for cell in named:
                    if cell in last:
                        stale[index] = (
                            f"{describe_cell(*cell)} changed since this was posted ({_cause_of_update(last[cell])})"
                        )
    try:
        applied = apply_gndt_operations(table, operations)
    except OperationRefused as error:
        words = stale.pop(error.index, "")
        preview.problems.append(
            f"{words}; {error.reason}" if words else refusal(error.index, operations[error.index], error.reason).args[0]
        )
        preview.stale.extend(stale.values())
        return
    preview.stale.extend(stale.values())
    descriptions.update(zip(indices, applied.descriptions, strict=True))
    preview.gndt_changes = [(describe_cell(w.row, w.column), w.old, w.new) for w in applied.writes]
    preview.gndt_cells = [(w.row, w.column) for w in applied.writes]


def _preview_game(operations: list[dict], preview: Preview, descriptions: dict[int, str], now: datetime) -> None:
    indices = indices_of(operations, GAME_OPS)
    if not indices:
        return
    profile = Game.load().rules_profile()
    renamed: dict[str, str] = {}
    for index in indices:
        op = operations[index]
        if op["op"] == "parameter_set":
            descriptions[index] = describe_parameter(op, getattr(profile, op["parameter"]))
            continue
        # The name as the roster will take it, checked by the roster's own rules.
        player, name = op["player"].strip(), names.normalise(op["name"])
        current = renamed.get(player, player)
        user = User.objects.filter(username=current, joined_at__isnull=False).first()
        problem = NO_SUCH_PLAYER.format(name=player) if user is None else rename_problem(user=user, new_name=name)
        if problem:
            preview.problems.append(refusal(index, op, problem.rstrip(".")).args[0])
            continue
        renamed[name] = current
        descriptions[index] = f"Renames {player} to {name}"


# --- the post page ----------------------------------------------------------------------------------


_WORLD_MODELS = (Revision, Update, ParameterChange, Rename)


def world_version() -> tuple:
    """What changes whenever anything an amendment reads changes: the newest revision, update, parameter change
    and rename.

    Every post page with an amendment asks this, so it is one plain statement of four ``MAX`` subqueries:
    built through the ORM (four aggregates, or subqueries annotated on one row) compiling the query cost many
    times running it (benchmarks/RESULTS.md, "Figures once quoted in the code"). The names come from the models.
    """
    quote = connection.ops.quote_name
    subqueries = []
    for model in _WORLD_MODELS:
        column = model._meta.pk.column
        assert column is not None  # a primary key is always a column of its table
        subqueries.append(f"(SELECT MAX({quote(column)}) FROM {quote(model._meta.db_table)})")
    newest = ", ".join(subqueries)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {newest}")
        # An aggregate query returns its one row even over empty tables.
        return tuple(cursor.fetchone() or ())


def _preview_key(amendment: Amendment, world: tuple, secret: frozenset[int] = frozenset()) -> str:
    return "amendment:2:{}:{}:{}:{}:{}".format(
        amendment.digest,
        amendment.base_ruleset_revision,
        amendment.written_at.timestamp(),
        ":".join(map(str, world)),
        ",".join(map(str, sorted(secret))),
    )


def _preview_now(amendment: Amendment, *, now: datetime, secret: frozenset[int] = frozenset()) -> Preview:
    try:
        return amendment_preview(
            amendment.operations,
            base_number=amendment.base_ruleset_revision,
            since=amendment.written_at,
            now=now,
            secret=secret,
        )
    except AmendmentRefused as error:
        return Preview(problems=[str(error)])


def amendment_sight(operations: list, viewer, *, applied_in: Post | None = None) -> Sight | None:
    """``viewer``'s sight of the GNDT an amendment changes (the current one, or that of the dynasty its post
    ``applied_in`` belongs to), or None when it changes none of it (no query then)."""
    if not any(isinstance(op, dict) and op.get("op") in GNDT_OPS for op in operations):
        return None
    dynasty = applied_in.dynasty if applied_in is not None and applied_in.dynasty_id else None
    return sight_of(viewer, dynasty or Dynasty.objects.current())


def secret_operations(operations: list, sight: Sight | None) -> frozenset[int]:
    """The operations (numbered from 0) that the reader of ``sight`` may not see."""
    if sight is None:
        return frozenset()
    return frozenset(
        index
        for index, op in enumerate(operations)
        if isinstance(op, dict) and op.get("op") in GNDT_OPS and not sight.sees_operation(op)
    )


def amendment_preview_for(amendment: Amendment, *, viewer, now: datetime) -> Preview:
    """The live preview of a posted amendment as ``viewer`` may see it (a visitor: ``None`` or an anonymous
    user), cached like ``amendment_preview_cached``.

    The operations on what they may not see are told only as ``SECRET_CHANGE``: neither what they do nor
    whether they still apply, since either would tell the secret; the rest is checked without them, and the
    GNDT's changes leave out every cell they may not see.
    """
    sight = amendment_sight(amendment.operations, viewer)
    secret = secret_operations(amendment.operations, sight)
    key = _preview_key(amendment, world_version(), secret)
    preview = cache.get(key)
    if preview is None:
        preview = _preview_now(amendment, now=now, secret=secret)
        cache.set(key, preview, CACHE_SECONDS)
    return as_seen(preview, sight) if sight is not None else preview


def application_descriptions_for(application: AmendmentApplication, operations: list, viewer) -> list[str]:
    """What an applied amendment did, in plain words, as ``viewer`` may be told it."""
    sight = amendment_sight(operations, viewer, applied_in=application.post)
    secret = secret_operations(operations, sight)
    return [SECRET_CHANGE if index in secret else words for index, words in enumerate(application.descriptions)]


def amendment_preview_cached(amendment: Amendment, *, now: datetime) -> Preview:
    """The live preview of a stored amendment, cached by its digest and the state of what it reads."""
    return amendment_previews_cached([amendment], now=now)[amendment.post_id]


def amendment_previews_cached(amendments: list[Amendment], *, now: datetime) -> dict[int, Preview]:
    """The live previews of several amendments, by post id: the state of the world is read once for all of
    them and the cache asked once, so a page listing many (the admin panel) costs no query per amendment
    while nothing they read has changed."""
    if not amendments:
        return {}
    world = world_version()
    keys = {amendment.post_id: _preview_key(amendment, world) for amendment in amendments}
    found = cache.get_many(list(keys.values()))
    previews, missing = {}, {}
    for amendment in amendments:
        key = keys[amendment.post_id]
        if key in found:
            previews[amendment.post_id] = found[key]
        else:
            previews[amendment.post_id] = missing[key] = _preview_now(amendment, now=now)
    if missing:
        cache.set_many(missing, CACHE_SECONDS)
    return previews


# --- posting ----------------------------------------------------------------------------------------

UNKNOWN_BASE = "The Ruleset has no revision {number} for the amendment to be written against; nothing was posted."


def _ruleset_revision_exists(number: int) -> bool:
    return Revision.objects.filter(page__slug=RULESET_SLUG, number=number).exists()


def post_create_with_amendment(
    *, author: User, operations: list[dict], base_number: int | None, now: datetime, **post_fields
) -> Post:
    """Post a matter with its amendment, or neither: an amendment that does not apply now, as its author may
    see the game, is refused."""
    if operations and base_number is not None and not _ruleset_revision_exists(base_number):
        raise AmendmentRefused(UNKNOWN_BASE.format(number=base_number))
    with transaction.atomic():
        if operations:
            preview = amendment_check(operations, base_number=base_number, since=None, now=now, checked_by=author)
            if preview.problems:
                raise AmendmentRefused(preview.problems[0])
        post = post_create(author=author, now=now, **post_fields)
        if operations:
            amendment_save(post=post, editor=author, operations=operations, base_ruleset_revision=base_number, now=now)
        return post


# --- enacting ---------------------------------------------------------------------------------------

ENACT_ONLY_WITHOUT = (
    "its amendment no longer applies, so enacting it with the amendment would be refused; it "
    "may be enacted without applying the amendment, or failed."
)


def amendment_obstacles(*, posts: list[Post], now: datetime) -> dict[int, str]:
    """An obstacle to enacting (``votes.resolution_steps``): the matters among ``posts`` whose amendment no
    longer applies. The reason names no operation, so it may be shown to anyone; what conflicts is told by
    the amendment's own block, to each reader as they may see it."""
    # A post read with its amendment (``select_related("amendment")``) is not asked about again.
    known = [post for post in posts if Post.amendment.is_cached(post)]
    amendments = [amendment for post in known if (amendment := getattr(post, "amendment", None)) is not None]
    unknown = [post for post in posts if not Post.amendment.is_cached(post)]
    if unknown:
        amendments += Amendment.objects.filter(post__in=unknown)
    previews = amendment_previews_cached(amendments, now=now)
    return {post_id: ENACT_ONLY_WITHOUT for post_id, preview in previews.items() if preview.problems}


def amendment_apply_on_enactment(
    *, post: Post, by: User | None, now: datetime, apply_amendment: bool
) -> AmendmentApplication | None:
    """A step of enacting a Proposal or Call for Judgement: apply its amendment, all or nothing, or record
    that the admin chose not to."""
    amendment = Amendment.objects.filter(post=post).first()
    if amendment is None:
        return None
    if not apply_amendment:
        # The note is shown on the post page to everyone: the conflicts as a visitor may be told them.
        preview = amendment_preview_for(amendment, viewer=None, now=now)
        return AmendmentApplication.objects.create(
            post=post, digest=amendment.digest, applied=False, by=by, at=now, note="; ".join(preview.problems)
        )
    operations = amendment.operations
    try:
        with transaction.atomic():
            preview = amendment_check(
                operations, base_number=amendment.base_ruleset_revision, since=amendment.written_at, now=now
            )
            if preview.problems:
                raise EnactmentRefused(NO_LONGER_APPLIES.format(problem=preview.problems[0]))
            summary = f"Enacting {post.title}"[:300]
            revisions = ruleset_apply_amendment(
                operations=operations,
                base_number=amendment.base_ruleset_revision,
                post=post,
                author=by,
                now=now,
                summary=summary,
            )
            gndt = gndt_apply_amendment(
                dynasty=Dynasty.objects.current(), operations=operations, post=post, by=by, now=now
            )
            parameters, renames = _apply_game_operations(operations, post=post, by=by, now=now)
            return AmendmentApplication.objects.create(
                post=post,
                digest=amendment.digest,
                applied=True,
                by=by,
                at=now,
                revisions=[revision.pk for revision in revisions],
                gndt=gndt.as_dict(),
                parameters=parameters,
                renames=renames,
                descriptions=preview.descriptions,
            )
    except (WikiError, GndtError, RosterError) as error:
        raise EnactmentRefused(NO_LONGER_APPLIES.format(problem=error)) from error
    except IntegrityError as error:
        # The checks above should have caught it; a refusal still beats an error page.
        raise EnactmentRefused(NO_LONGER_APPLIES.format(problem=NAME_CLASH_AT_ENACTMENT)) from error


def _apply_game_operations(operations: list[dict], *, post: Post, by: User | None, now: datetime):
    parameters, renames = [], []
    for index in indices_of(operations, GAME_OPS):
        op = operations[index]
        if by is None:
            raise EnactmentRefused(NO_LONGER_APPLIES.format(problem=NEEDS_AN_ADMIN))
        if op["op"] == "parameter_set":
            old = getattr(Game.load().rules_profile(), op["parameter"])
            change = rule_change_record(
                parameter=op["parameter"], raw_value=op["value"], proposal=post, admin=by, now=now
            )
            parameters.append({"parameter": op["parameter"], "old": old, "new": change.value, "id": change.pk})
        else:
            user = User.objects.get(username=op["player"].strip())
            rename = player_rename(user=user, new_name=op["name"], admin=by, proposal=post, now=now)
            renames.append({"old": rename.old_name, "new": rename.new_name, "id": rename.pk})
    return parameters, renames


# --- reverting after a reopening --------------------------------------------------------------------


def amendment_revert(*, application: AmendmentApplication, admin: User, now: datetime) -> AmendmentApplication:
    """Put back what an applied amendment changed, as new revisions, updates and records citing its post.

    Offered once its matter has been reopened. Refused (``AmendmentRefused``) when it is enacted, was not
    applied or was reverted already, or when something it changed has changed since; nothing is written then.
    """
    if not admin.is_admin:
        raise AmendmentRefused("Only admins may revert what an amendment applied.")
    with transaction.atomic():
        application = AmendmentApplication.objects.select_for_update().select_related("post").get(pk=application.pk)
        post = application.post
        if not application.applied or application.reverted_at is not None:
            raise AmendmentRefused(NOTHING_TO_REVERT)
        if post.status == Status.ENACTED:
            raise AmendmentRefused(STILL_ENACTED.format(title=post.title))
        summary = f"Reverting what {post.title} applied"[:300]
        try:
            ruleset_revert_amendment(
                revision_ids=application.revisions, post=post, author=admin, now=now, summary=summary
            )
            gndt_revert_amendment(applied=application.gndt, post=post, by=admin, now=now)
        except (WikiError, GndtError) as error:
            raise AmendmentRefused(str(error)) from error
        for change in application.parameters:
            ParameterChange.objects.create(
                parameter=change["parameter"], value=change["old"], proposal=post, by=admin, at=now
            )
        for rename in reversed(application.renames):
            user = User.objects.filter(username=rename["new"]).first()
            if user is None:
                raise AmendmentRefused(NO_SUCH_PLAYER.format(name=rename["new"]))
            try:
                player_rename(user=user, new_name=rename["old"], admin=admin, proposal=post, now=now, reverting=True)
            except RosterError as error:
                raise AmendmentRefused(str(error)) from error
        application.reverted_at, application.reverted_by = now, admin
        application.save(update_fields=["reverted_at", "reverted_by"])
        return application


def revertible_applications() -> list[AmendmentApplication]:
    """Applied amendments whose matter is no longer enacted (it was reopened) and that are not reverted yet."""
    return list(
        AmendmentApplication.objects.filter(applied=True, reverted_at__isnull=True)
        .exclude(post__status=Status.ENACTED)
        .select_related("post")
    )
