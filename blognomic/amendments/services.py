"""Amendments in the game: checking them against the game as it is now, posting them, showing them as a
diff with what went stale, applying them when their matter is enacted, and reverting them after a reopening.

Votes stores an amendment with its post and sends ``matter_enacted``; this module, at the top, is the one
that knows the Ruleset, the GNDT, the core rules and the roster, and connects to that hook
(``BlognomicConfig.ready``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.formats import date_format

from blognomic.amendments.operations import (
    GAME_OPS,
    AmendmentRefused,
    check_shape,
    describe_parameter,
    indices_of,
    label,
    refusal,
)
from blognomic.models import AmendmentApplication
from blognomic.roster.services import RosterError, player_rename, rule_change_record
from dynasties.models import Dynasty, Game, PlayerNameValidator, Rename, User
from dynasties.models import RuleChange as ParameterChange
from gndt.amend import GNDT_OPS, apply_gndt_operations, cells_named, describe_cell
from gndt.amend import AmendError as GndtAmendError
from gndt.models import CellChange, Update
from gndt.services import GndtError
from gndt.services.amendments import gndt_amendment_table, gndt_apply_amendment, gndt_revert_amendment
from ruleset.amend import (
    PAGE_OPS,
    RULE_OPS,
    apply_page_operations,
    apply_rule_operations,
    describe_page_operation,
    rules_named,
    translate_operations,
)
from ruleset.amend import (
    AmendError as RuleAmendError,
)
from ruleset.diffing import render_inline_diff
from ruleset.models import RULESET_SLUG, Page, Revision, RuleChange
from ruleset.services import WikiError, rule_renames_since, ruleset_apply_amendment, ruleset_revert_amendment
from ruleset.structure import parse_ruleset, serialize_ruleset
from votes.models import Amendment, Post
from votes.posting import amendment_save, post_create
from votes.signals import EnactmentRefused

CACHE_SECONDS = 24 * 3600
NO_LONGER_APPLIES = "The amendment no longer applies: {problem}"
NEEDS_AN_ADMIN = "renaming players and changing core rules is done by an admin enacting the matter"
NO_SUCH_PLAYER = "there is no player “{name}”"
NAME_TAKEN = "the name “{name}” belongs to someone else"
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
    base_number: int | None = None

    @property
    def applies(self) -> bool:
        return not self.problems


def _when(moment: datetime) -> str:
    return date_format(moment, "j M")


def _cause_of_revision(revision: Revision) -> str:
    if revision.post_id:
        return f"{revision.post.title}, enacted {_when(revision.at)}"
    who = f" by {revision.author}" if revision.author_id else ""
    return f"revision {revision.number}{who}, {_when(revision.at)}"


def _cause_of_update(update: Update) -> str:
    if update.post_id:
        return f"{update.post.title}, enacted {_when(update.at)}"
    who = f"{update.by}" if update.by_id else "the system"
    return f"update #{update.pk} by {who}, {_when(update.at)}"


def ruleset_base_number() -> int | None:
    """The number of the Ruleset's current revision: what an amendment written now is written against."""
    page = Page.objects.filter(slug=RULESET_SLUG).select_related("current").first()
    return page.current.number if page and page.current_id else None


def amendment_preview(operations, *, base_number: int | None, since: datetime | None, now: datetime) -> Preview:
    """Check ``operations`` against the game at ``now`` and say what they would do.

    ``base_number`` is the Ruleset revision they were written against (rules are followed through renames
    since), ``since`` when they were written: what changed after it is reported as stale. Raises
    ``AmendmentRefused`` when the operations are not well formed at all.
    """
    operations = check_shape(operations)
    preview = Preview(base_number=base_number)
    descriptions: dict[int, str] = {}
    _preview_rules(operations, preview, descriptions)
    _preview_pages(operations, preview, descriptions, since)
    _preview_gndt(operations, preview, descriptions, since, now)
    _preview_game(operations, preview, descriptions, now)
    preview.descriptions = [descriptions.get(index, label(op)) for index, op in enumerate(operations)]
    return preview


def _preview_rules(operations: list[dict], preview: Preview, descriptions: dict[int, str]) -> None:
    indices = indices_of(operations, RULE_OPS)
    if not indices:
        return
    page = Page.objects.filter(slug=RULESET_SLUG).select_related("current").first()
    if page is None or page.current_id is None:
        preview.problems.append(refusal(indices[0], operations[indices[0]], "there is no Ruleset yet").args[0])
        return
    current = page.current
    base = preview.base_number if preview.base_number is not None else current.number
    translated = translate_operations(operations, rule_renames_since(page, base))
    ruleset = parse_ruleset(current.text)
    labels = {rule.anchor: f"{rule.number} {rule.title}" for rule in ruleset.all_rules()}
    touched = _rules_touched(page, base, operations, translated) if base < current.number else {}
    try:
        applied = apply_rule_operations(current.text, translated, stale=bool(touched))
    except RuleAmendError as error:
        stale_words = touched.get(error.index)
        if stale_words:
            preview.problems.append(f"{stale_words}; {error.reason}")
        else:
            preview.problems.append(refusal(error.index, translated[error.index], error.reason, labels).args[0])
        preview.stale.extend(words for index, words in sorted(touched.items()) if index != error.index)
        return
    preview.stale.extend(words for _, words in sorted(touched.items()))
    descriptions.update(zip(indices, applied.descriptions, strict=True))
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
        words[index] = (f"Rule {change.number} {verb} since this was posted "
                        f"({_cause_of_revision(change.revision)})")
    return words


def _preview_pages(operations: list[dict], preview: Preview, descriptions: dict[int, str],
                   since: datetime | None) -> None:
    by_page: dict[str, list[int]] = {}
    for index in indices_of(operations, PAGE_OPS):
        by_page.setdefault(operations[index]["page"], []).append(index)
    for slug, indices in by_page.items():
        page = Page.objects.filter(slug=slug).select_related("current").first()
        if page is None or page.current_id is None:
            preview.problems.append(refusal(indices[0], operations[indices[0]],
                                            f"there is no wiki page “{slug}”").args[0])
            continue
        if page.is_ruleset:
            preview.problems.append(refusal(indices[0], operations[indices[0]],
                                            "the Ruleset is changed rule by rule, not as a page").args[0])
            continue
        later = None
        if since is not None:
            later = page.revisions.filter(at__gt=since).select_related("post", "author").order_by("-number").first()
        stale_words = (f"The page “{page.title}” changed since this was posted ({_cause_of_revision(later)})"
                       if later else "")
        try:
            text = apply_page_operations(page.current.text, [operations[i] for i in indices], stale=bool(later))
        except RuleAmendError as error:
            index = indices[error.index]
            preview.problems.append(f"{stale_words}; {error.reason}" if stale_words
                                    else refusal(index, operations[index], error.reason).args[0])
            continue
        if stale_words:
            preview.stale.append(stale_words)
        for index in indices:
            descriptions[index] = describe_page_operation(operations[index], page.title)
        preview.page_diffs.append((page.title, render_inline_diff(page.current.text, text, context=2)))


def _preview_gndt(operations: list[dict], preview: Preview, descriptions: dict[int, str],
                  since: datetime | None, now: datetime) -> None:
    indices = indices_of(operations, GNDT_OPS)
    if not indices:
        return
    dynasty = Dynasty.objects.current()
    table = gndt_amendment_table(dynasty, now=now)
    stale: dict[int, str] = {}
    if since is not None and dynasty is not None:
        cells = {index: cells_named(operations[index]) for index in indices}
        wanted = {cell for named in cells.values() for cell in named}
        if wanted:
            changes = (CellChange.objects.filter(update__dynasty=dynasty, update__at__gt=since,
                                                 row__name__in={r for r, _ in wanted},
                                                 column__name__in={c for _, c in wanted})
                       .select_related("update__post", "update__by", "row", "column").order_by("update__at", "pk"))
            last = {(change.row.name, change.column.name): change.update for change in changes}
            for index, named in cells.items():
                for cell in named:
                    if cell in last:
                        stale[index] = (f"{describe_cell(*cell)} changed since this was posted "
                                        f"({_cause_of_update(last[cell])})")
    try:
        applied = apply_gndt_operations(table, operations)
    except GndtAmendError as error:
        words = stale.pop(error.index, "")
        preview.problems.append(f"{words}; {error.reason}" if words
                                else refusal(error.index, operations[error.index], error.reason).args[0])
        preview.stale.extend(stale.values())
        return
    preview.stale.extend(stale.values())
    descriptions.update(zip(indices, applied.descriptions, strict=True))
    preview.gndt_changes = [(describe_cell(w.row, w.column), w.old, w.new) for w in applied.writes]


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
        player, name = op["player"].strip(), op["name"].strip()
        current = renamed.get(player, player)
        user = User.objects.filter(username=current, joined_at__isnull=False).first()
        problem = None
        if user is None:
            problem = NO_SUCH_PLAYER.format(name=player)
        else:
            try:
                PlayerNameValidator()(name)
            except ValidationError as error:
                problem = error.messages[0].rstrip(".")
            if problem is None and User.objects.filter(username__iexact=name).exclude(pk=user.pk).exists():
                problem = NAME_TAKEN.format(name=name)
        if problem:
            preview.problems.append(refusal(index, op, problem).args[0])
            continue
        renamed[name] = current
        descriptions[index] = f"Renames {player} to {name}"


# --- the post page ----------------------------------------------------------------------------------


_WORLD_MODELS = (Revision, Update, ParameterChange, Rename)


def world_version() -> tuple:
    """What changes whenever anything an amendment reads changes: the newest revision, update, parameter change
    and rename.

    Every post page with an amendment asks this, so it is one plain statement of four ``MAX`` subqueries:
    built through the ORM (four aggregates, or subqueries annotated on one row) it cost 1.5 to 10 ms of
    query compilation, against a few hundredths of a millisecond here. The names come from the models.
    """
    quote = connection.ops.quote_name
    newest = ", ".join(f"(SELECT MAX({quote(model._meta.pk.column)}) FROM {quote(model._meta.db_table)})"
                       for model in _WORLD_MODELS)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {newest}")
        return tuple(cursor.fetchone())


def _preview_key(amendment: Amendment, world: tuple) -> str:
    return "amendment:{}:{}:{}:{}".format(amendment.digest, amendment.base_ruleset_revision,
                                          amendment.written_at.timestamp(), ":".join(map(str, world)))


def _preview_now(amendment: Amendment, *, now: datetime) -> Preview:
    try:
        return amendment_preview(amendment.operations, base_number=amendment.base_ruleset_revision,
                                 since=amendment.written_at, now=now)
    except AmendmentRefused as error:
        return Preview(problems=[str(error)])


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


def post_create_with_amendment(*, author: User, operations: list[dict], base_number: int | None, now: datetime,
                               **post_fields) -> Post:
    """Post a matter with its amendment, or neither: an amendment that does not apply now is refused."""
    with transaction.atomic():
        if operations:
            preview = amendment_preview(operations, base_number=base_number, since=None, now=now)
            if preview.problems:
                raise AmendmentRefused(preview.problems[0])
        post = post_create(author=author, now=now, **post_fields)
        if operations:
            amendment_save(post=post, editor=author, operations=operations,
                           base_ruleset_revision=base_number, now=now)
        return post


# --- enacting ---------------------------------------------------------------------------------------


def amendment_apply_on_enactment(sender, *, post: Post, by: User | None, now: datetime, apply_amendment: bool,
                                 **kwargs) -> AmendmentApplication | None:
    """Receiver of ``votes.signals.matter_enacted``: apply the matter's amendment, all or nothing."""
    amendment = Amendment.objects.filter(post=post).first()
    if amendment is None:
        return None
    if not apply_amendment:
        preview = amendment_preview_cached(amendment, now=now)
        return AmendmentApplication.objects.create(post=post, digest=amendment.digest, applied=False, by=by, at=now,
                                                   note="; ".join(preview.problems))
    operations = amendment.operations
    try:
        with transaction.atomic():
            preview = amendment_preview(operations, base_number=amendment.base_ruleset_revision,
                                        since=amendment.written_at, now=now)
            if preview.problems:
                raise EnactmentRefused(NO_LONGER_APPLIES.format(problem=preview.problems[0]))
            summary = f"Enacting {post.title}"[:300]
            revisions = ruleset_apply_amendment(operations=operations, base_number=amendment.base_ruleset_revision,
                                                post=post, author=by, now=now, summary=summary)
            gndt = gndt_apply_amendment(dynasty=Dynasty.objects.current(), operations=operations, post=post, by=by,
                                        now=now)
            parameters, renames = _apply_game_operations(operations, post=post, by=by, now=now)
            return AmendmentApplication.objects.create(
                post=post, digest=amendment.digest, applied=True, by=by, at=now,
                revisions=[revision.pk for revision in revisions], gndt=gndt.as_dict(), parameters=parameters,
                renames=renames, descriptions=preview.descriptions,
            )
    except (WikiError, GndtError, RosterError) as error:
        raise EnactmentRefused(NO_LONGER_APPLIES.format(problem=error)) from error


def _apply_game_operations(operations: list[dict], *, post: Post, by: User | None, now: datetime):
    parameters, renames = [], []
    for index in indices_of(operations, GAME_OPS):
        op = operations[index]
        if by is None:
            raise EnactmentRefused(NO_LONGER_APPLIES.format(problem=NEEDS_AN_ADMIN))
        if op["op"] == "parameter_set":
            old = getattr(Game.load().rules_profile(), op["parameter"])
            change = rule_change_record(parameter=op["parameter"], raw_value=op["value"], proposal=post, admin=by,
                                        now=now)
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
        if post.status == "enacted":
            raise AmendmentRefused(STILL_ENACTED.format(title=post.title))
        summary = f"Reverting what {post.title} applied"[:300]
        try:
            ruleset_revert_amendment(revision_ids=application.revisions, post=post, author=admin, now=now,
                                     summary=summary)
            gndt_revert_amendment(applied=application.gndt, post=post, by=admin, now=now)
        except (WikiError, GndtError) as error:
            raise AmendmentRefused(str(error)) from error
        for change in application.parameters:
            ParameterChange.objects.create(parameter=change["parameter"], value=change["old"], proposal=post,
                                           by=admin, at=now)
        for rename in reversed(application.renames):
            user = User.objects.filter(username=rename["new"]).first()
            if user is None:
                raise AmendmentRefused(NO_SUCH_PLAYER.format(name=rename["new"]))
            try:
                player_rename(user=user, new_name=rename["old"], admin=admin, proposal=post, now=now,
                              reverting=True)
            except RosterError as error:
                raise AmendmentRefused(str(error)) from error
        application.reverted_at, application.reverted_by = now, admin
        application.save(update_fields=["reverted_at", "reverted_by"])
        return application


def revertible_applications() -> list[AmendmentApplication]:
    """Applied amendments whose matter is no longer enacted (it was reopened) and that are not reverted yet."""
    return list(
        AmendmentApplication.objects.filter(applied=True, reverted_at__isnull=True)
        .exclude(post__status="enacted")
        .select_related("post")
    )
