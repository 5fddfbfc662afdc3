"""An archive (the ``import_archive`` format) built from the history's records.

What the figures give is kept as given: each proposal's title, proposer, posting and closing times, outcome,
resolving admin, dynasty and number of comments; who was active in each month; each dynasty's length. What
they do not give is made up here, plainly and reproducibly (the same files and seed give the same archive):

- comment texts are "Comment 3 of 12." and their times are spread between posting and closing;
- each comment's author is a player active in that month, and every player the month's list names writes at
  least one comment that month where there are comments enough, so activity per month matches the figures;
- the first comment of most commenters carries a vote, split so the tally agrees with the recorded outcome
  (more FOR than AGAINST for an enacted proposal, the reverse for a failed one, the proposer's own AGAINST
  for an illegal one, which the site calls self-killed);
- players join at the start of their first active month, are idle through the months they are missing from,
  and are idle at the end unless active in the last month; whoever ever resolved a proposal is an admin.

The figures name no Emperors, so every dynasty's Emperor is left unknown (the archive's null) and vetoes carry
no VETO vote. Dynasties that have proposals start an hour before their first one and last their recorded
length; dynasties without proposals (before 2005) are laid end to end back from the first that has some.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.utils.text import slugify

from blognomic.moving.archive.fields import FORMAT, VERSION, format_time
from blognomic.moving.history.reading import MonthRecord, ProposalRecord
from dynasties.clock import moment_plus

# The CSV's statuses as the archive's status and outcome.
OUTCOMES = {
    "Enacted": ("enacted", "enacted"),
    "Failed": ("failed", "failed"),
    "Vetoed": ("failed", "vetoed"),
    "Illegal": ("failed", "self-killed"),
    "Open": ("pending", None),
}
# Share of a commenter's first comments that carry a vote; the rest are discussion.
VOTING_SHARE = 0.85
# Open proposals have no closing time: their comments fall within this long after posting.
OPEN_WINDOW = timedelta(hours=48)
ASCENSION_LEAD = timedelta(hours=1)
BODY = (
    "This proposal comes from the figures of BlogNomic's history, which keep its title, proposer, dates, "
    "outcome and number of comments but not its text."
)
SLUG_LENGTH = 60


@dataclass(frozen=True)
class History:
    proposals: list[ProposalRecord]
    months: list[MonthRecord]
    lengths: dict[int, int]


def month_of(moment: datetime) -> date:
    return date(moment.year, moment.month, 1)


def month_start(month: date) -> datetime:
    return datetime(month.year, month.month, 1, tzinfo=UTC)


def next_month(month: date) -> date:
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


def dynasty_spans(
    numbers: list[int], proposals: list[ProposalRecord], lengths: dict[int, int]
) -> dict[int, tuple[datetime, datetime | None]]:
    """When each dynasty started and ended; the last one is still going unless its length is recorded."""
    first: dict[int, datetime] = {}
    for p in proposals:
        first[p.dynasty] = min(first.get(p.dynasty, p.posted_at), p.posted_at)
    numbers = sorted(numbers)
    starts: dict[int, datetime] = {n: first[n] - ASCENSION_LEAD for n in numbers if n in first}
    if not starts:
        return {}
    # Forward from each dated dynasty, then backward from the earliest, one recorded length at a time.
    for previous, number in zip(numbers, numbers[1:], strict=False):
        if number not in starts and previous in starts:
            starts[number] = moment_plus(starts[previous], timedelta(days=lengths.get(previous, 0)))
    for number, following in reversed(list(zip(numbers, numbers[1:], strict=False))):
        if number not in starts:
            starts[number] = moment_plus(starts[following], -timedelta(days=lengths.get(number, 0)))
    spans = {}
    for index, number in enumerate(numbers):
        if number in lengths:
            ended = moment_plus(starts[number], timedelta(days=lengths[number]))
        elif index + 1 < len(numbers):
            ended = starts[numbers[index + 1]]
        else:
            ended = None
        spans[number] = (starts[number], ended)
    return spans


def build_archive(history: History, *, dynasties: list[int], seed: int) -> dict:
    """The archive for ``history``'s proposals and the given dynasty numbers (with or without proposals)."""
    proposals = sorted(history.proposals, key=lambda p: (p.posted_at, p.line))
    spans = dynasty_spans(dynasties, proposals, history.lengths)
    if not spans:
        return {"format": FORMAT, "version": VERSION, "players": [], "dynasties": [], "posts": []}
    begin = min(start for start, _ in spans.values())
    last_moment = max(max((p.closed_at or p.posted_at) for p in proposals), begin)
    first_month, last_month = month_of(begin), month_of(last_moment)
    listed = {m.month: m for m in history.months if first_month <= m.month <= last_month}

    # Who was active in which month: the monthly lists, plus proposing and resolving.
    active: dict[date, set[str]] = defaultdict(set)
    for month, record in listed.items():
        active[month].update(record.names)
    admins: set[str] = set()
    for p in proposals:
        active[month_of(p.posted_at)].add(p.proposer)
        if p.admin and p.closed_at:
            active[month_of(p.closed_at)].add(p.admin)
            admins.add(p.admin)

    coverage = _Coverage()
    posts = [_post(p, active, listed, seed, coverage) for p in proposals]
    _name_posts(posts, proposals)
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": _players(active, admins, last_month),
        "dynasties": [
            {
                "number": n,
                "emperor": None,
                "player_term": "Player",
                "emperor_term": "Emperor",
                "theme": "",
                "started_at": format_time(start),
                "ended_at": format_time(end),
            }
            for n, (start, end) in sorted(spans.items())
        ],
        "posts": posts,
    }


def _players(active: dict[date, set[str]], admins: set[str], last_month: date) -> list[dict]:
    months_of: dict[str, list[date]] = defaultdict(list)
    for month in sorted(active):
        for name in active[month]:
            months_of[name].append(month)
    players = []
    for name, months in sorted(months_of.items(), key=lambda item: (item[1][0], item[0])):
        past = []
        for before, after in zip(months, months[1:], strict=False):
            if next_month(before) < after:
                past.append(
                    {
                        "kind": "idle",
                        "from": format_time(month_start(next_month(before))),
                        "until": format_time(month_start(after)),
                    }
                )
        idle = months[-1] < last_month
        player = {
            "name": name,
            "admin": name in admins,
            "idle": idle,
            "joined_at": format_time(month_start(months[0])),
            "past_absences": past,
        }
        if idle:
            player["idle_since"] = format_time(month_start(next_month(months[-1])))
        players.append(player)
    return players


class _Coverage:
    """Prefers, for each month, the listed players who have not commented yet that month."""

    def __init__(self) -> None:
        self.seen: dict[date, set[str]] = defaultdict(set)

    def pick(self, rng: random.Random, month: date, pool: list[str], listed: MonthRecord | None) -> str:
        seen = self.seen[month]
        fresh = [name for name in (listed.names if listed else ()) if name not in seen and name in pool]
        name = rng.choice(fresh or pool)
        seen.add(name)
        return name


def _post(
    p: ProposalRecord, active: dict[date, set[str]], listed: dict[date, MonthRecord], seed: int, coverage: _Coverage
) -> dict:
    rng = random.Random(f"{seed}:{p.line}:{p.posted_at.isoformat()}")
    status, outcome = OUTCOMES[p.status]
    end = p.closed_at or p.posted_at + OPEN_WINDOW
    moments = sorted(p.posted_at + (end - p.posted_at) * rng.random() for _ in range(p.comments))
    authors = []
    for at in moments:
        month = month_of(at)
        pool = sorted(active.get(month) or active.get(month_of(p.posted_at)) or {p.proposer})
        authors.append(coverage.pick(rng, month, pool, listed.get(month)))
    if outcome == "self-killed" and authors:
        # An illegal proposal's proposer said so first: their AGAINST kills it.
        authors[0] = p.proposer
    comments = [
        {"author": author, "at": format_time(at), "icon": None, "text": f"Comment {n} of {p.comments}."}
        for n, (author, at) in enumerate(zip(authors, moments, strict=True), start=1)
    ]
    votes = _cast_votes(rng, comments, proposer=p.proposer, outcome=outcome)
    resolution = None
    if status != "pending":
        resolution = _resolution(p, outcome, votes, listed.get(month_of(p.closed_at)))
    return {
        "id": "",
        "kind": "proposal",
        "title": p.title,
        "author": p.proposer,
        "posted_at": format_time(p.posted_at),
        "dynasty": p.dynasty,
        "body": BODY,
        "flavour": "",
        "status": status,
        "resolution": resolution,
        "comments": comments,
    }


def _cast_votes(rng: random.Random, comments: list[dict], *, proposer: str, outcome: str | None) -> dict[str, str]:
    """Put a vote on voters' first comments so the tally fits the outcome; returns each voter's vote."""
    first: dict[str, dict] = {}
    for comment in comments:
        first.setdefault(comment["author"], comment)
    voters = [name for name in first if name == proposer or rng.random() < VOTING_SHARE]
    votes: dict[str, str] = {}
    if outcome == "self-killed" and proposer in first:
        votes[proposer] = "against"
        voters.remove(proposer)
    count = len(voters)
    if outcome == "enacted":
        against = min(int(count * rng.uniform(0, 0.4)), (count - 1) // 2)
    elif outcome in ("failed", "self-killed"):
        against = count - min(int(count * rng.uniform(0, 0.45)), count // 2)
    elif outcome == "vetoed":
        against = int(count * rng.uniform(0.2, 0.6))
    else:
        against = int(count * rng.random())
    # The proposer, if voting, is among the FORs unless the votes must all be AGAINST.
    others = [name for name in voters if name != proposer]
    rng.shuffle(others)
    ordered = ([proposer] if proposer in voters else []) + others
    for index, name in enumerate(ordered):
        votes[name] = "for" if index < count - against else "against"
    for name, vote in votes.items():
        first[name]["icon"] = vote
    return votes


def _resolution(p: ProposalRecord, outcome: str, votes: dict[str, str], month: MonthRecord | None) -> dict:
    in_favour = sum(1 for vote in votes.values() if vote == "for")
    against = len(votes) - in_favour
    quorum = (month.active if month else len(votes)) // 2 + 1
    who = p.admin or "an admin the figures do not name"
    if outcome in ("vetoed", "self-killed"):
        summary = f"Failed by {who}: {outcome}"
    else:
        summary = f"{outcome.capitalize()} {in_favour}-{against} (Quorum {quorum}) by {who}"
    return {
        "by": p.admin,
        "at": format_time(p.closed_at),
        "outcome": outcome,
        "note": f"{summary}. Adminned at {p.closed_at:%Y-%m-%d %H:%M:%S} UTC",
        "tally": {
            "for": in_favour,
            "against": against,
            "quorum": quorum,
            "votes": votes,
            "self_killed": outcome == "self-killed",
            "vetoed": outcome == "vetoed",
        },
    }


def _name_posts(posts: list[dict], proposals: list[ProposalRecord]) -> None:
    """Each post's id: its dynasty and title, made unique (``228-more-helpful-kittens-2``)."""
    used: set[str] = set()
    for post, p in zip(posts, proposals, strict=True):
        base = f"{p.dynasty}-{slugify(p.title, allow_unicode=True)[:SLUG_LENGTH].strip('-') or 'proposal'}"
        slug, n = base, 1
        while slug in used:
            n += 1
            slug = f"{base}-{n}"
        used.add(slug)
        post["id"] = slug
