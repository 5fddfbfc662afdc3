"""Kinds of votable matter a dynasty defines for itself, as pure functions over plain data.

A dynastic rule may add a votable matter the core rules do not know: the 2005 Petition ("a post with a
subject of 'Petition: [Topic]'", on which "only the Duke may vote", resolved "after 48 hours"), or the 2008
Town Meeting (a Proposal whose title "includes the phrase 'Town Meeting'", in which "Dead Villagers and
Prisoners may not vote", with a Quorum of "half the number of living, unimprisoned Villagers, rounded
down, plus one", which the Mayor may Veto). A ``KindSpec`` holds such a definition:

- ``base``: ``proposal`` (a Proposal its title marks: it queues and is resolved like one) or ``matter``
  (a category of its own, outside the proposal queue);
- the subject rule: a title ``prefix`` ("Petition:") or a ``phrase`` anywhere in it ("Town Meeting");
- who may post one and who may vote: every active player, the Emperor alone, or the players whose GNDT
  values pass every ``Condition`` (Alive = Yes, Occupation ≠ Prisoner; Occupation = Duke names one player);
- its Quorum: the profile's (half the active players) or half the eligible voters, rounded down, plus one;
- how it resolves: by the core rules of Proposals (with its own electorate and Quorum), or by a ``verdict``
  after some hours: enacted ("approved") with more FOR than AGAINST, failed ("rejected") otherwise, failed
  ("ignored") when nobody eligible voted;
- who may veto it: as the profile says, nobody, the Emperor (even one who may not vote on it), or the players
  a filter names;
- whether it counts towards proposal limits;
- the ``phase`` of the game's calendar it may be posted in, if any (2008: "Town Meetings may be called by any
  living Villager during the daytime"; ``dynasties.phases``).

Nothing here reads the clock or the database: GNDT values arrive as plain mappings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from dynasties.phases import PHASE_CHOICES, UNKNOWN_PHASE, phase_refusal
from votes.clauses import Clause, Facts, Rules, Wait
from votes.subjects import subject_form
from votes.tallying import Electorate, Tally

BASE_PROPOSAL, BASE_MATTER = "proposal", "matter"
BASES = (BASE_PROPOSAL, BASE_MATTER)
SUBJECT_PREFIX, SUBJECT_PHRASE = "prefix", "phrase"
SUBJECT_RULES = (SUBJECT_PREFIX, SUBJECT_PHRASE)
ANYONE, NOT_EMPEROR, EMPEROR, FILTER = "any", "not_emperor", "emperor", "filter"
POSTERS = (ANYONE, NOT_EMPEROR, EMPEROR, FILTER)
ELECTORATES = (ANYONE, EMPEROR, FILTER)
QUORUM_PROFILE, QUORUM_ELIGIBLE = "profile", "eligible"
QUORUMS = (QUORUM_PROFILE, QUORUM_ELIGIBLE)
RESOLVE_CORE, RESOLVE_VERDICT = "core", "verdict"
RESOLUTIONS = (RESOLVE_CORE, RESOLVE_VERDICT)
VETO_PROFILE, VETO_NONE = "profile", "none"
VETOES = (VETO_PROFILE, VETO_NONE, EMPEROR, FILTER)
EQUALS, NOT_EQUALS = "=", "≠"
OPERATORS = (EQUALS, NOT_EQUALS)
MAX_VERDICT_HOURS = 24 * 28

NAME_NEEDED = "A kind of votable matter needs a name."
SUBJECT_NEEDED = "A kind of votable matter needs a subject rule: the title prefix or phrase that marks one."
SUBJECT_TOO_LONG = "The subject rule may be at most 60 characters."
UNKNOWN_CHOICE = "{what} must be one of: {choices}; “{value}” is not."
FILTER_NEEDED = "{what} is “players filtered by GNDT values”, but no condition is given."
FILTER_UNUSED = "{what} is not filtered by GNDT values, so it may not carry conditions."
VERDICT_HOURS = "A verdict needs the hours after which it is given: a whole number from 1 to {most}."
NO_SUCH_COLUMN = "The condition “{condition}” names the GNDT column “{column}”, which does not exist."
HIDDEN_COLUMN = (
    "The condition “{condition}” names the hidden GNDT column “{column}”: a public rule may not depend on secret state."
)
BAD_CONDITION = "A condition needs a GNDT column, an operator (= or ≠) and a value."
NAME_TOO_LONG = "The name may be at most 60 characters."
CONTROL_CHARACTER = "The name, the subject rule and the conditions must be one line of text each."
CONDITION_TOO_LONG = "A condition's column may be at most 60 characters and its value at most 200."
CLASHES_WITH = "The subject rule “{subject}” would also match the kind “{other}” ({their}); make them distinct."


@dataclass(frozen=True)
class Condition:
    """One test on a player's GNDT value: ``column`` ``op`` ``value`` (compared without regard to case)."""

    column: str
    op: str
    value: str

    def __str__(self) -> str:
        return f"{self.column} {self.op} {self.value}"

    def holds(self, values: Mapping[str, str]) -> bool:
        same = values.get(self.column, "").strip().casefold() == self.value.strip().casefold()
        return same if self.op == EQUALS else not same


@dataclass(frozen=True)
class KindSpec:
    """A dynasty's kind of votable matter (see the module docstring for each field)."""

    name: str
    base: str
    subject_rule: str
    subject_text: str
    posters: str = ANYONE
    posters_filter: tuple[Condition, ...] = ()
    electorate: str = ANYONE
    electorate_filter: tuple[Condition, ...] = ()
    quorum: str = QUORUM_PROFILE
    resolution: str = RESOLVE_CORE
    verdict_hours: int | None = None
    veto: str = VETO_PROFILE
    veto_filter: tuple[Condition, ...] = ()
    counts_towards_limits: bool = True
    phase: str = ""
    id: object = None


def conditions_from(raw: object) -> tuple[Condition, ...]:
    """Conditions from JSON (a list of ``{"column", "op", "value"}``); ``ValueError`` when malformed."""
    if raw in (None, ""):
        return ()
    if not isinstance(raw, list | tuple):
        raise ValueError(BAD_CONDITION)
    conditions = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise ValueError(BAD_CONDITION)
        column, op, value = (str(item.get(key, "")).strip() for key in ("column", "op", "value"))
        op = NOT_EQUALS if op in ("!=", "<>", "≠") else op
        if not column or op not in OPERATORS:
            raise ValueError(BAD_CONDITION)
        conditions.append(Condition(column=column, op=op, value=value))
    return tuple(conditions)


def conditions_as_json(conditions: Iterable[Condition]) -> list[dict[str, object]]:
    return [{"column": c.column, "op": c.op, "value": c.value} for c in conditions]


def spec_problems(spec: KindSpec, *, columns: Mapping[str, bool], others: Iterable[KindSpec] = ()) -> list[str]:
    """Everything wrong with a definition, each in a sentence; empty when it may be saved.

    ``columns`` maps each GNDT column in use to whether it is hidden; ``others`` are the kinds in force, which
    a new subject rule may not overlap.
    """
    problems: list[str] = []
    if not spec.name.strip():
        problems.append(NAME_NEEDED)
    elif len(spec.name) > 60:
        problems.append(NAME_TOO_LONG)
    every_condition = (*spec.posters_filter, *spec.electorate_filter, *spec.veto_filter)
    texts = [spec.name, spec.subject_text, *(c.column for c in every_condition), *(c.value for c in every_condition)]
    if any(ord(character) < 32 for text in texts for character in text):
        problems.append(CONTROL_CHARACTER)
    if any(len(c.column) > 60 or len(c.value) > 200 for c in every_condition):
        problems.append(CONDITION_TOO_LONG)
    if not spec.subject_text.strip():
        problems.append(SUBJECT_NEEDED)
    elif len(spec.subject_text) > 60:
        problems.append(SUBJECT_TOO_LONG)
    for what, value, choices in (
        ("The base", spec.base, BASES),
        ("The subject rule", spec.subject_rule, SUBJECT_RULES),
        ("Who may post", spec.posters, POSTERS),
        ("Who may vote", spec.electorate, ELECTORATES),
        ("The Quorum", spec.quorum, QUORUMS),
        ("The resolution", spec.resolution, RESOLUTIONS),
        ("Who may veto", spec.veto, VETOES),
    ):
        if value not in choices:
            problems.append(UNKNOWN_CHOICE.format(what=what, choices=", ".join(choices), value=value))
    for what, mode, conditions in (
        ("Who may post", spec.posters, spec.posters_filter),
        ("Who may vote", spec.electorate, spec.electorate_filter),
        ("Who may veto", spec.veto, spec.veto_filter),
    ):
        if mode == FILTER and not conditions:
            problems.append(FILTER_NEEDED.format(what=what))
        if mode != FILTER and conditions:
            problems.append(FILTER_UNUSED.format(what=what))
        for condition in conditions:
            if condition.column not in columns:
                problems.append(NO_SUCH_COLUMN.format(condition=condition, column=condition.column))
            elif columns[condition.column]:
                problems.append(HIDDEN_COLUMN.format(condition=condition, column=condition.column))
    if spec.phase and spec.phase not in PHASE_CHOICES:
        problems.append(UNKNOWN_PHASE.format(phase=spec.phase, phases=", ".join(PHASE_CHOICES)))
    if spec.resolution == RESOLVE_VERDICT and not (
        isinstance(spec.verdict_hours, int) and 1 <= spec.verdict_hours <= MAX_VERDICT_HOURS
    ):
        problems.append(VERDICT_HOURS.format(most=MAX_VERDICT_HOURS))
    if spec.subject_text.strip():
        for other in others:
            if other.id != spec.id and other.base == spec.base and _overlaps(spec, other):
                problems.append(
                    CLASHES_WITH.format(subject=spec.subject_text, other=other.name, their=describe_subject(other))
                )
    return problems


def _overlaps(one: KindSpec, other: KindSpec) -> bool:
    a, b = subject_form(one.subject_text), subject_form(other.subject_text)
    if one.subject_rule == SUBJECT_PREFIX and other.subject_rule == SUBJECT_PREFIX:
        return a.startswith(b) or b.startswith(a)
    return a in b or b in a


def describe_subject(spec: KindSpec) -> str:
    if spec.subject_rule == SUBJECT_PREFIX:
        return f"a title starting “{spec.subject_text.strip()}”"
    return f"a title including “{spec.subject_text.strip()}”"


def matches_subject(spec: KindSpec, title: str) -> bool:
    """2005: "a post with a subject of 'Petition: [Topic]'"; 2008: "If a Proposal title includes the phrase
    'Town Meeting'". Case, spacing and invisible characters are not significant (``subject_form``); a prefix
    must be followed by a topic."""
    text, title = subject_form(spec.subject_text), subject_form(title)
    if spec.subject_rule == SUBJECT_PREFIX:
        return title.startswith(text) and bool(title[len(text) :].strip(" :"))
    return text in title


def kind_for_title(specs: Iterable[KindSpec], *, base: str, title: str) -> KindSpec | None:
    """The kind a post of ``base`` with this title is, if any (definitions never overlap)."""
    return next((spec for spec in specs if spec.base == base and matches_subject(spec, title)), None)


def passing(
    conditions: Iterable[Condition], values: Mapping[str, Mapping[str, str]], players: Iterable[str]
) -> frozenset[str]:
    """The players whose GNDT values pass every condition; a player with no row passes none."""
    conditions = tuple(conditions)
    return frozenset(name for name in players if name in values and all(c.holds(values[name]) for c in conditions))


def may_post(spec: KindSpec, *, author: str, emperor: str | None, values: Mapping[str, Mapping[str, str]]) -> bool:
    """2005: "The Duke may not be a Petitioner"; 2008: "Town Meetings may be called by any living Villager"."""
    if spec.posters == NOT_EMPEROR:
        return author != emperor
    if spec.posters == EMPEROR:
        return author == emperor
    if spec.posters == FILTER:
        return author in passing(spec.posters_filter, values, [author])
    return True


def phase_refusal_for(spec: KindSpec, now: datetime) -> str | None:
    """None when a matter of this kind may be posted at ``now``; otherwise why not. 2008: "Town Meetings may
    be called by any living Villager during the daytime"; "All even-numbered days in the real world are
    Daytime in Zahndorf, and all odd-numbered days are Nighttime"."""
    return phase_refusal(spec.phase, now, what=f"A {spec.name}", done="posted")


def electorate_for(spec: KindSpec, base: Electorate, *, values: Mapping[str, Mapping[str, str]]) -> Electorate:
    """Who may vote on a matter of this kind, its Quorum's basis and who may veto it.

    2005: "only the Duke may vote on it"; 2008: "Dead Villagers and Prisoners may not vote in a Town Meeting,
    and Quorum … will be calculated as half the number of living, unimprisoned Villagers, rounded down, plus
    one"; "If the Mayor is Dead, he is still able to Veto Town Meetings".
    """
    if spec.electorate == EMPEROR:
        eligible = frozenset({base.emperor} & base.active) if base.emperor else frozenset()
    elif spec.electorate == FILTER:
        eligible = passing(spec.electorate_filter, values, base.active)
    else:
        eligible = base.active
    quorum_of = len(base.active) if spec.quorum == QUORUM_PROFILE else None
    vetoers = base.vetoers
    if spec.veto == VETO_NONE:
        vetoers = frozenset()
    elif spec.veto == EMPEROR:
        vetoers = frozenset({base.emperor}) if base.emperor else frozenset()
    elif spec.veto == FILTER:
        vetoers = passing(spec.veto_filter, values, base.active)
    return replace(base, active=eligible, quorum_of=quorum_of, vetoers=vetoers, kind_name=spec.name)


def needs_values(spec: KindSpec) -> bool:
    """Whether judging or posting a matter of this kind reads GNDT values."""
    return FILTER in (spec.posters, spec.electorate, spec.veto)


# --- A verdict after some hours ---


def _verdict_text(facts: Facts) -> str:
    return f"{facts.tally.for_count} FOR to {facts.tally.against_count} AGAINST"


def verdict_rules(hours: int) -> Rules:
    """2005: "After 48 hours a Petition is considered resolved … If the Duke has voted FOR the Petition then
    it is considered approved, if the Duke has voted AGAINST the Petition then it is considered rejected, and
    if the Duke has not voted then it is considered ignored." With several eligible voters: approved on more
    FOR than AGAINST, rejected otherwise."""

    waited = Wait(hours)

    def waiting(facts: Facts) -> str:
        return f"it has been open {facts.hours_text} of the {hours} hours before its verdict"

    return Rules(
        enact=(
            Clause(
                ((waited, waiting), (lambda f: f.tally.for_count > f.tally.against_count, _verdict_text)),
                lambda f: f"Approved after {hours} hours: {_verdict_text(f)}",
            ),
        ),
        fail=(
            Clause(
                (
                    (waited, waiting),
                    (lambda f: 0 < f.tally.valid_count and f.tally.for_count <= f.tally.against_count, None),
                ),
                lambda f: f"Rejected after {hours} hours: {_verdict_text(f)}",
            ),
            Clause(
                ((waited, waiting), (lambda f: f.tally.valid_count == 0, None)),
                lambda f: f"Ignored after {hours} hours: no eligible voter voted",
            ),
        ),
    )


def verdict_hours(spec: KindSpec) -> int:
    """The hours after which a verdict kind's matters are resolved; ``spec_problems`` refuses a verdict kind
    without them, so a kind in play always has them."""
    if spec.verdict_hours is None:
        raise ValueError(VERDICT_HOURS.format(most=MAX_VERDICT_HOURS))
    return spec.verdict_hours


def verdict_thresholds(hours: int) -> list[tuple[int, bool]]:
    return [(hours, False)]


IGNORED, APPROVED, REJECTED = "ignored", "approved", "rejected"


def verdict_word(tally: Tally, *, enacted: bool) -> str:
    """What players call a verdict's outcome: approved, rejected or ignored."""
    if enacted:
        return APPROVED
    return IGNORED if tally.valid_count == 0 else REJECTED


@dataclass(frozen=True)
class GameValues:
    """A dynasty's GNDT as the kinds read it: each column in use (name → its kind of value), which of them
    are hidden, and each player's values in the columns that are not hidden."""

    columns: Mapping[str, str]
    hidden: frozenset[str]
    values: Mapping[str, Mapping[str, str]]

    @property
    def hidden_by_column(self) -> dict[str, bool]:
        return {name: name in self.hidden for name in self.columns}


NO_GNDT = GameValues(columns={}, hidden=frozenset(), values={})


_WHO = {ANYONE: "every active player", NOT_EMPEROR: "every active player but the Emperor", EMPEROR: "the Emperor alone"}


def _who(mode: str, conditions: tuple[Condition, ...]) -> str:
    if mode == FILTER:
        return "players with " + " and ".join(str(condition) for condition in conditions)
    return _WHO[mode]


def describe(spec: KindSpec) -> list[str]:
    """A definition in plain words, one line per part, for the page that lists the rules in force."""
    base = "a Proposal with " if spec.base == BASE_PROPOSAL else "its own category: "
    lines = [
        f"What: {base}{describe_subject(spec)}.",
        f"Who may post one: {_who(spec.posters, spec.posters_filter)}.",
        f"Who may vote: {_who(spec.electorate, spec.electorate_filter)}.",
        "Quorum: half "
        + ("the active players" if spec.quorum == QUORUM_PROFILE else "those who may vote")
        + ", rounded down, plus one.",
    ]
    if spec.resolution == RESOLVE_VERDICT:
        lines.append(
            f"Resolved after {spec.verdict_hours} hours: approved with more FOR than AGAINST, "
            "rejected otherwise, ignored if nobody voted."
        )
    else:
        lines.append(
            "Resolved by the core rules of Proposals"
            + (", in the proposal queue." if spec.base == BASE_PROPOSAL else ".")
        )
    veto = {VETO_PROFILE: "as the core rules say", VETO_NONE: "nobody", EMPEROR: "the Emperor, even without a vote"}
    lines.append("Who may veto: " + (veto[spec.veto] if spec.veto in veto else _who(FILTER, spec.veto_filter)) + ".")
    lines.append(
        "Counts towards proposal limits." if spec.counts_towards_limits else "Does not count towards proposal limits."
    )
    if spec.phase:
        lines.append(f"May be posted only during the {spec.phase}.")
    return lines
