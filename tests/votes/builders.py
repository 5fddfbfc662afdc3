"""Small builders for the vote engine's plain data, so each test reads as the rule it checks.

The default game has nine active players (Quorum 5); Ivy is the Emperor and Amy posts the matters. Times
are given in hours after POSTED, a fixed moment; nothing reads the clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from dynasties.profiles import Profile
from votes.engine import Ballot, Electorate, Judgement, Matter, Tally, judge, tally

POSTED = datetime(2016, 7, 25, 3, 32, 29, tzinfo=UTC)
PLAYERS = ("Amy", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")
EMPEROR = "Ivy"
AUTHOR = "Amy"
NOT_EMPEROR = object()  # stands for "keep the default Emperor" in keyword arguments


def hours(count: float) -> datetime:
    """The moment `count` hours after POSTED."""
    return POSTED + timedelta(hours=count)


def vote(author: str, at_hours: float, icon: str | None, *, trivial: bool = False) -> Ballot:
    """A comment by `author` with `icon`, `at_hours` after POSTED; its id says who and when."""
    return Ballot(author=author, at=hours(at_hours), icon=icon, comment_id=f"{author}@{at_hours}", trivial=trivial)


def votes(icon: str, *authors: str, at_hours: float = 1) -> tuple[Ballot, ...]:
    """The same icon from several players at one moment."""
    return tuple(vote(author, at_hours, icon) for author in authors)


def matter(
    *ballots: Ballot | tuple[Ballot, ...],
    kind: str = "proposal",
    author: str = AUTHOR,
    title: str = "Proposal: Quorum Failures",
    trivial: bool = False,
) -> Matter:
    """A matter posted at POSTED by `author` with the given comments, in order."""
    flat: list[Ballot] = []
    for item in ballots:
        flat.extend(item if isinstance(item, tuple) else (item,))
    return Matter(
        id="matter",
        kind=kind,
        author=author,
        posted_at=POSTED,
        ballots=tuple(flat),
        title=title,
        trivial=trivial,
    )


def electorate(
    *, players: tuple[str, ...] = PLAYERS, emperor: str | None | object = NOT_EMPEROR, hiatus: bool = False
) -> Electorate:
    chosen = EMPEROR if emperor is NOT_EMPEROR else emperor
    return Electorate(active=frozenset(players), emperor=chosen, hiatus=hiatus)  # type: ignore[arg-type]


def judged(subject: Matter, profile: Profile, at_hours: float, **electorate_options: object) -> Judgement:
    """The judgement of `subject` `at_hours` after POSTED."""
    return judge(subject, electorate=electorate(**electorate_options), profile=profile, now=hours(at_hours))


def tallied(subject: Matter, profile: Profile, at_hours: float, **electorate_options: object) -> Tally:
    """The tally of `subject` `at_hours` after POSTED."""
    return tally(subject, electorate=electorate(**electorate_options), profile=profile, now=hours(at_hours))
