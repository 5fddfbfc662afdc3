"""What resolving a matter does to the GNDT under a dynasty's own rules, as pure functions over plain data.

2005 pays for Proposals: "When a Proposal is enacted, its proposer gains 10 Thalers, or 2 Thalers if it was
Trivial. When a Proposal fails, its proposer loses 3 Thalers."; "Whenever an Admin Enacts a non-Trivial
Proposal, they may claim 5 Thalers. Whenever they Enact a Trivial Proposal, they may claim 2 Thalers.";
"Whenever an Admin Enacts or Fails a Proposal that has been pending for more than 48 hours, he/she has the
option of deducting 5 Thalers from the accounts of all active Families who did not vote on the Proposal. This
deduction cannot take place if a proposal has been vetoed or self failed."

An ``EffectSpec`` is one such sentence: on which matters (a core kind or a dynasty's kind), on enactment or
failure or both, whose GNDT value changes (the author, the resolving admin, or every active player who did
not vote), which column, by how much (another amount when the matter is Trivial), whether the admin chooses
it (optional, a checkbox when resolving) and any condition of age or of how it failed. ``changes_due`` turns
the effects and the facts of one resolution into the cell changes to make; the GNDT applies them with its
columns' bounds and clamping.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

ENACTED, FAILED, EITHER = "enacted", "failed", "either"
WHEN = (ENACTED, FAILED, EITHER)
AUTHOR, ADMIN, NON_VOTERS = "author", "admin", "non_voters"
TARGETS = (AUTHOR, ADMIN, NON_VOTERS)
CORE_KINDS = ("proposal", "cfj", "dov")
MAX_AMOUNT = 10**9
MAX_HOURS = 24 * 365

COLUMN_NEEDED = "An effect needs the GNDT column it changes."
LABEL_TOO_LONG = "An effect's label may be at most 120 characters, on one line."
NO_SUCH_COLUMN = "The GNDT column “{column}” does not exist."
HIDDEN_COLUMN = (
    "The GNDT column “{column}” is hidden: an effect is shown in the public log and the admin field, so it "
    "may not change secret state."
)
NOT_A_NUMBER_COLUMN = "The GNDT column “{column}” does not hold whole numbers, so nothing can be added to it."
AMOUNT_NEEDED = "An effect needs an amount other than 0, at most {most} either way."
UNKNOWN_CHOICE = "{what} must be one of: {choices}; “{value}” is not."
KIND_NEEDED = "An effect applies to a core kind (proposal, cfj, dov) or to one of the dynasty's kinds."
BAD_HOURS = "The hours an effect waits for must be a whole number from 1 to {most}."
ADMIN_ON_SYSTEM = "Only an admin who resolves the matter can receive “{label}”; the system resolved it."


@dataclass(frozen=True)
class EffectSpec:
    """One effect of resolving a matter (see the module docstring)."""

    label: str
    column: str
    amount: int
    target: str = AUTHOR
    when: str = ENACTED
    trivial_amount: int | None = None
    optional: bool = False
    after_hours: int | None = None  # only when the matter had been pending more than this many hours
    not_if_vetoed_or_self_killed: bool = False
    core_kind: str = ""  # "proposal", "cfj" or "dov"; or empty with a dynasty's kind in ``kind_id``
    kind_id: object = None
    id: object = None


@dataclass(frozen=True)
class ResolutionFacts:
    """What an effect looks at: the matter, how it was resolved and by whom, and the tally then."""

    core_kind: str
    kind_id: object
    enacted: bool
    author: str
    admin: str | None
    trivial: bool
    vetoed: bool
    self_killed: bool
    open_hours: float
    not_voted: tuple[str, ...]


@dataclass(frozen=True)
class CellDelta:
    """Add ``delta`` to ``player``'s value in ``column``, because of the effect ``label``."""

    player: str
    column: str
    delta: int
    label: str
    effect_id: object = None


def spec_problems(
    spec: EffectSpec, *, columns: dict[str, str], hidden: Iterable[str] = (), kind_ids: Iterable[object] = ()
) -> list[str]:
    """Everything wrong with a definition; ``columns`` maps each GNDT column in use to its kind of value."""
    problems = []
    if len(spec.label) > 120 or any(ord(character) < 32 for character in spec.label + spec.column):
        problems.append(LABEL_TOO_LONG)
    if not spec.column.strip():
        problems.append(COLUMN_NEEDED)
    elif spec.column not in columns:
        problems.append(NO_SUCH_COLUMN.format(column=spec.column))
    elif spec.column in set(hidden):
        problems.append(HIDDEN_COLUMN.format(column=spec.column))
    elif columns[spec.column] != "integer":
        problems.append(NOT_A_NUMBER_COLUMN.format(column=spec.column))
    for amount in (spec.amount, spec.trivial_amount):
        if amount is not None and (
            not isinstance(amount, int) or isinstance(amount, bool) or not 0 < abs(amount) <= MAX_AMOUNT
        ):
            problems.append(AMOUNT_NEEDED.format(most=MAX_AMOUNT))
            break
    for what, value, choices in (("The target", spec.target, TARGETS), ("When", spec.when, WHEN)):
        if value not in choices:
            problems.append(UNKNOWN_CHOICE.format(what=what, choices=", ".join(choices), value=value))
    if (spec.core_kind not in CORE_KINDS or spec.kind_id is not None) and not (
        spec.core_kind == "" and spec.kind_id in set(kind_ids)
    ):
        problems.append(KIND_NEEDED)
    if spec.after_hours is not None and not (isinstance(spec.after_hours, int) and 1 <= spec.after_hours <= MAX_HOURS):
        problems.append(BAD_HOURS.format(most=MAX_HOURS))
    return problems


def applies(spec: EffectSpec, facts: ResolutionFacts) -> bool:
    """Whether the effect belongs to this resolution at all (before the admin's choice of optional ones)."""
    if spec.kind_id is not None:
        if spec.kind_id != facts.kind_id:
            return False
    elif spec.core_kind != facts.core_kind or facts.kind_id is not None:
        return False
    if spec.when != EITHER and spec.when != (ENACTED if facts.enacted else FAILED):
        return False
    if spec.after_hours is not None and not facts.open_hours > spec.after_hours:
        # "a Proposal that has been pending for more than 48 hours"
        return False
    if spec.not_if_vetoed_or_self_killed and (facts.vetoed or facts.self_killed):
        # "This deduction cannot take place if a proposal has been vetoed or self failed."
        return False
    if spec.target == ADMIN and facts.admin is None and not spec.optional:
        return False
    return True


def offered(effects: Iterable[EffectSpec], facts: ResolutionFacts) -> list[EffectSpec]:
    """The optional effects the admin may choose for this resolution, in order."""
    return [spec for spec in effects if spec.optional and applies(spec, facts)]


def changes_due(
    effects: Iterable[EffectSpec], facts: ResolutionFacts, *, chosen: Iterable[object] = ()
) -> list[CellDelta]:
    """The cell changes resolving makes: every automatic effect that applies, and the optional ones chosen.

    A Trivial matter uses each effect's Trivial amount where it has one. An optional effect is applied only
    when its id is in ``chosen``; the system (no admin) never chooses one.
    """
    chosen = set(chosen)
    deltas: list[CellDelta] = []
    for spec in effects:
        if not applies(spec, facts):
            continue
        if spec.optional and (spec.id not in chosen or facts.admin is None):
            continue
        amount = spec.trivial_amount if facts.trivial and spec.trivial_amount is not None else spec.amount
        for player in _targets(spec, facts):
            deltas.append(
                CellDelta(player=player, column=spec.column, delta=amount, label=spec.label, effect_id=spec.id)
            )
    return deltas


def _targets(spec: EffectSpec, facts: ResolutionFacts) -> tuple[str, ...]:
    if spec.target == AUTHOR:
        return (facts.author,)
    if spec.target == ADMIN:
        return (facts.admin,) if facts.admin else ()
    return tuple(facts.not_voted)


def describe(delta: CellDelta) -> str:
    """A change as the GNDT log shows it: “Cato Thalers +10 (the proposer's reward)”."""
    sign = f"+{delta.delta}" if delta.delta > 0 else f"−{-delta.delta}"
    return f"{delta.player} {delta.column} {sign} ({delta.label})"


def describe_effect(spec: EffectSpec, *, kind_name: str | None = None) -> str:
    """An effect in plain words: “On enacting a Proposal: its author's Thalers +10 (+2 if Trivial)”."""
    kinds_words = {"proposal": "a Proposal", "cfj": "a Call for Judgement", "dov": "a Declaration of Victory"}
    matter = f"a {kind_name}" if kind_name else kinds_words.get(spec.core_kind, "a matter")
    when = {ENACTED: "enacting", FAILED: "failing", EITHER: "enacting or failing"}[spec.when]
    whose = {
        AUTHOR: "its author's",
        ADMIN: "the resolving admin's",
        NON_VOTERS: "every active player's who did not vote,",
    }[spec.target]
    sign = "+" if spec.amount > 0 else ""
    words = f"On {when} {matter}: {whose} {spec.column} {sign}{spec.amount}"
    if spec.trivial_amount is not None:
        words += f" ({'+' if spec.trivial_amount > 0 else ''}{spec.trivial_amount} if Trivial)"
    if spec.after_hours is not None:
        words += f", if pending more than {spec.after_hours} hours"
    if spec.not_if_vetoed_or_self_killed:
        words += ", not if vetoed or self-killed"
    return words + (" — the admin's choice" if spec.optional else "") + f" ({spec.label})"
