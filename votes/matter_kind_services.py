"""A dynasty's own kinds of votable matter and the effects of resolving matters: defining them, and reading
what judging and resolving need.

The rules themselves are pure (``votes.matter_kind_rules``, ``votes.effects``); here they meet the database. GNDT
values reach this layer only through the reader the site installs with the steps of resolving
(``votes.resolution_steps.game_values``), and effects are carried out by one of those steps.

How to define a kind and an effect in code (as the admin does with the forms, citing the enacted Proposal;
every argument is keyword-only and ``now`` is passed in)::

    from votes.matter_kind_services import matter_effect_define, matter_kind_define

    petition = matter_kind_define(
        admin=ada, proposal=enacted, now=now, name="Petition", base="matter",
        subject_rule="prefix", subject_text="Petition:",
        posters="not_emperor",                     # "The Duke may not be a Petitioner"
        electorate="emperor", quorum="eligible",   # "only the Duke may vote on it"
        resolution="verdict", verdict_hours=48,    # approved / rejected / ignored after 48 hours
        veto="none", counts_towards_limits=False)
    matter_kind_define(
        admin=ada, proposal=enacted, now=now, name="Town Meeting", base="proposal",
        subject_rule="phrase", subject_text="Town Meeting",
        posters="filter", posters_filter=[{"column": "Alive", "op": "=", "value": "Yes"}],
        electorate="filter", electorate_filter=[{"column": "Alive", "op": "=", "value": "Yes"},
                                                {"column": "Occupation", "op": "≠", "value": "Prisoner"}],
        quorum="eligible", veto="emperor",
        phase="Daytime")                           # "called … during the daytime"
    matter_effect_define(
        admin=ada, proposal=enacted, now=now, label="the proposer's reward", core_kind="proposal",
        when="enacted", target="author", column="Thalers", amount=10, trivial_amount=2)
    matter_effect_define(
        admin=ada, proposal=enacted, now=now, label="idle hands", core_kind="proposal", when="either",
        target="non_voters", column="Thalers", amount=-5, optional=True, after_hours=48,
        not_if_vetoed_or_self_killed=True)

Both refuse bad input with ``KindError`` (its ``problems`` list each reason) and save nothing. A kind or an
effect is never edited: ``matter_kind_retire`` / ``matter_effect_retire`` end it, and a new one replaces it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from django.db import transaction

from dynasties.models import Dynasty, User
from dynasties.parsing import parse_whole_number
from votes import effects, matter_kind_rules
from votes.models import AMENDABLE_KINDS, MatterEffect, MatterKind, Post, Status
from votes.resolution_steps import game_values as installed_game_values
from votes.tallying import Electorate, Tally


class KindError(Exception):
    """A definition was refused; the message says why and ``problems`` lists each reason."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(" ".join(problems))
        self.problems = list(problems)


NOT_AN_ADMIN = "Only admins may define kinds of votable matter and their effects."
CITE_ENACTED = "A dynasty's rules change only by an enacted Proposal: cite one (“{title}” is {status})."
NO_DYNASTY = "There is no dynasty in progress to define it for."
ALREADY_RETIRED = "“{name}” was already removed at {when}."
BAD_NUMBER = "{what} must be a whole number."


def _check_citation(admin: User, proposal: Post) -> None:
    if not admin.is_admin:
        raise KindError([NOT_AN_ADMIN])
    if proposal.kind not in AMENDABLE_KINDS or proposal.status != Status.ENACTED:
        raise KindError(
            [CITE_ENACTED.format(title=proposal.title, status=proposal.display_status.lower() or "not a Proposal")]
        )


def _current_dynasty() -> Dynasty:
    dynasty = Dynasty.objects.current()
    if dynasty is None:
        raise KindError([NO_DYNASTY])
    return dynasty


def _whole(value, what: str) -> int | None:
    """A whole number from a form or code: None for empty; ``KindError`` for anything else."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise KindError([BAD_NUMBER.format(what=what)])
    if isinstance(value, int):
        return value
    text = str(value).strip()
    sign = -1 if text[:1] in ("-", "−") else 1
    try:
        return sign * parse_whole_number(text[1:] if text[:1] in ("-", "−", "+") else text, maximum=effects.MAX_AMOUNT)
    except ValueError:
        raise KindError([BAD_NUMBER.format(what=what)]) from None


# --- Reading ---


def game_values(dynasty_id: int, *, at: datetime | None = None) -> matter_kind_rules.GameValues:
    """The dynasty's GNDT as the kinds read it, through the reader the site installs (none: no GNDT)."""
    return installed_game_values(dynasty_id, at=at)


def kinds_in_force(dynasty: Dynasty | None) -> list[MatterKind]:
    if dynasty is None:
        return []
    return list(MatterKind.objects.in_force(dynasty))


def kind_of_title(dynasty: Dynasty | None, *, base: str, title: str) -> MatterKind | None:
    """The dynasty's kind a post of ``base`` (proposal or matter) with this title is, if any."""
    in_force = kinds_in_force(dynasty)
    spec = matter_kind_rules.kind_for_title([kind.spec() for kind in in_force], base=base, title=title)
    return next((kind for kind in in_force if spec is not None and kind.pk == spec.id), None)


class ValuesCache:
    """GNDT values read at most once per dynasty and moment while one page or service judges matters."""

    def __init__(self) -> None:
        self._read: dict[tuple[object, datetime | None], matter_kind_rules.GameValues] = {}

    def get(self, dynasty_id: int, at: datetime | None) -> matter_kind_rules.GameValues:
        if (dynasty_id, at) not in self._read:
            self._read[(dynasty_id, at)] = game_values(dynasty_id, at=at)
        return self._read[(dynasty_id, at)]


def electorate_for_post(
    post: Post, base: Electorate, *, at: datetime | None = None, cache: ValuesCache | None = None
) -> tuple[Electorate, matter_kind_rules.KindSpec | None]:
    """Who may vote on ``post`` and its kind's definition; the core electorate when it is of no kind.

    ``at`` None reads the GNDT as it is now; a past moment reads it as it stood then.
    """
    if post.matter_kind_id is None:
        return base, None
    kind = post.matter_kind
    spec = kind.spec()
    values = {}
    if matter_kind_rules.needs_values(spec):
        read = (cache or ValuesCache()).get(kind.dynasty_id, at)
        values = read.values
    return matter_kind_rules.electorate_for(spec, base, values=values), spec


def effects_in_force(dynasty: Dynasty | None) -> list[effects.EffectSpec]:
    if dynasty is None:
        return []
    return [effect.spec() for effect in MatterEffect.objects.in_force(dynasty)]


def resolution_facts(
    post: Post, tally: Tally, *, electorate: Electorate, enacted: bool, admin: User | None
) -> effects.ResolutionFacts:
    """The facts the effects look at: "all active Families who did not vote" are the active players, not
    only those who may vote on it, with no counted vote."""
    return effects.ResolutionFacts(
        core_kind=post.kind,
        kind_id=post.matter_kind_id,
        enacted=enacted,
        author=post.author.username,
        admin=admin.username if admin else None,
        trivial=tally.trivial,
        vetoed=tally.vetoed,
        self_killed=tally.self_killed,
        open_hours=tally.open_hours,
        not_voted=tuple(sorted(name for name in electorate.active if name not in tally.votes)),
    )


def dynastic_matters(dynasty: Dynasty | None) -> dict:
    """The dynasty's kinds and effects in force, in plain words with the Proposal each cites: two queries."""
    if dynasty is None:
        return {"matter_kinds": [], "matter_effects": []}
    in_force = list(MatterKind.objects.in_force(dynasty).select_related("proposal"))
    names = {kind.pk: kind.name for kind in in_force}
    return {
        "matter_kinds": [(kind, matter_kind_rules.describe(kind.spec())) for kind in in_force],
        "matter_effects": [
            (effect, effects.describe_effect(effect.spec(), kind_name=names.get(effect.matter_kind_id)))
            for effect in MatterEffect.objects.in_force(dynasty).select_related("proposal")
        ],
    }


# --- Defining ---


def kind_spec_from(
    *,
    name: str,
    subject_text: str,
    base: str = matter_kind_rules.BASE_MATTER,
    subject_rule: str = matter_kind_rules.SUBJECT_PREFIX,
    posters: str = matter_kind_rules.ANYONE,
    posters_filter: Iterable = (),
    electorate: str = matter_kind_rules.ANYONE,
    electorate_filter: Iterable = (),
    quorum: str = matter_kind_rules.QUORUM_PROFILE,
    resolution: str = matter_kind_rules.RESOLVE_CORE,
    verdict_hours=None,
    veto: str = matter_kind_rules.VETO_PROFILE,
    veto_filter: Iterable = (),
    counts_towards_limits: bool = True,
    phase: str = "",
) -> matter_kind_rules.KindSpec:
    """A definition from a form's or a caller's fields; ``KindError`` for conditions or hours malformed."""
    try:
        conditions = {
            key: matter_kind_rules.conditions_from(list(raw or ()))
            for key, raw in (
                ("posters_filter", posters_filter),
                ("electorate_filter", electorate_filter),
                ("veto_filter", veto_filter),
            )
        }
    except (ValueError, TypeError) as error:
        raise KindError([str(error)]) from None
    return matter_kind_rules.KindSpec(
        name=(name or "").strip(),
        base=base,
        subject_rule=subject_rule,
        subject_text=(subject_text or "").strip(),
        posters=posters,
        electorate=electorate,
        quorum=quorum,
        resolution=resolution,
        verdict_hours=_whole(verdict_hours, "The verdict's hours"),
        veto=veto,
        counts_towards_limits=bool(counts_towards_limits),
        phase=(phase or "").strip(),
        **conditions,
    )


def kind_problems(spec: matter_kind_rules.KindSpec, dynasty: Dynasty) -> list[str]:
    """What keeps ``spec`` from being defined for ``dynasty`` now (its GNDT's columns, the kinds in force)."""
    values = game_values(dynasty.pk)
    return matter_kind_rules.spec_problems(
        spec, columns=values.hidden_by_column, others=[kind.spec() for kind in kinds_in_force(dynasty)]
    )


def matter_kind_define(*, admin: User, proposal: Post, now: datetime, **fields) -> MatterKind:
    """Define a kind of votable matter for the current dynasty, as the enacted ``proposal`` says.

    ``fields`` are those of ``kind_spec_from`` (see the module docstring for an example)."""
    _check_citation(admin, proposal)
    spec = kind_spec_from(**fields)
    with transaction.atomic():
        dynasty = _current_dynasty()
        # One definition at a time per dynasty, so two overlapping subject rules cannot both pass the check.
        Dynasty.objects.select_for_update().filter(pk=dynasty.pk).first()
        problems = kind_problems(spec, dynasty)
        if problems:
            raise KindError(problems)
        return MatterKind.objects.create(
            dynasty=dynasty,
            **MatterKind.definition_fields(spec),
            proposal=proposal,
            by=admin,
            at=now,
        )


def matter_kind_retire(*, kind: MatterKind, admin: User, proposal: Post, now: datetime) -> MatterKind:
    """End a kind, as the enacted ``proposal`` says; matters already posted keep it."""
    _check_citation(admin, proposal)
    with transaction.atomic():
        kind = MatterKind.objects.select_for_update().get(pk=kind.pk)
        if kind.retired_at is not None:
            raise KindError([ALREADY_RETIRED.format(name=kind.name, when=kind.retired_at.isoformat())])
        kind.retired_at, kind.retired_by, kind.retired_because = now, admin, proposal
        kind.save(update_fields=["retired_at", "retired_by", "retired_because"])
        return kind


def effect_spec_from(
    *,
    label: str,
    column: str,
    amount,
    core_kind: str = "",
    matter_kind: MatterKind | None = None,
    when: str = effects.ENACTED,
    target: str = effects.AUTHOR,
    trivial_amount=None,
    optional: bool = False,
    after_hours=None,
    not_if_vetoed_or_self_killed: bool = False,
) -> effects.EffectSpec:
    """A definition from a form's or a caller's fields; ``KindError`` for a number that is not one."""
    amount = _whole(amount, "The amount")
    if amount is None:
        raise KindError([effects.AMOUNT_NEEDED.format(most=effects.MAX_AMOUNT)])
    return effects.EffectSpec(
        label=(label or "").strip() or "an effect of resolving",
        column=(column or "").strip(),
        amount=amount,
        trivial_amount=_whole(trivial_amount, "The Trivial amount"),
        after_hours=_whole(after_hours, "The hours"),
        target=target,
        when=when,
        optional=bool(optional),
        core_kind=core_kind or "",
        kind_id=matter_kind.pk if matter_kind is not None else None,
        not_if_vetoed_or_self_killed=bool(not_if_vetoed_or_self_killed),
    )


def effect_problems(spec: effects.EffectSpec, dynasty: Dynasty) -> list[str]:
    table = game_values(dynasty.pk)
    return effects.spec_problems(
        spec, columns=dict(table.columns), hidden=table.hidden, kind_ids=[kind.pk for kind in kinds_in_force(dynasty)]
    )


def matter_effect_define(
    *, admin: User, proposal: Post, now: datetime, matter_kind: MatterKind | None = None, **fields
) -> MatterEffect:
    """Define an effect of resolving matters for the current dynasty, as the enacted ``proposal`` says.

    ``fields`` are those of ``effect_spec_from`` (see the module docstring for an example)."""
    _check_citation(admin, proposal)
    spec = effect_spec_from(matter_kind=matter_kind, **fields)
    with transaction.atomic():
        dynasty = _current_dynasty()
        problems = effect_problems(spec, dynasty)
        if problems:
            raise KindError(problems)
        return MatterEffect.objects.create(
            dynasty=dynasty,
            matter_kind=matter_kind,
            **MatterEffect.definition_fields(spec),
            proposal=proposal,
            by=admin,
            at=now,
        )


def matter_effect_retire(*, effect: MatterEffect, admin: User, proposal: Post, now: datetime) -> MatterEffect:
    """End an effect, as the enacted ``proposal`` says."""
    _check_citation(admin, proposal)
    with transaction.atomic():
        effect = MatterEffect.objects.select_for_update().get(pk=effect.pk)
        if effect.retired_at is not None:
            raise KindError([ALREADY_RETIRED.format(name=effect.label, when=effect.retired_at.isoformat())])
        effect.retired_at = now
        effect.save(update_fields=["retired_at"])
        return effect
