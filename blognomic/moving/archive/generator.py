"""A synthetic game shaped like BlogNomic's real history, at any multiple of its size, as an archive.

Scale 1 has the real history's figures (``HISTORY``): 205 dynasties, 15,792 proposals, 144,382 comments,
9,450 Ruleset revisions, 382 players, and a GNDT with 1,837 updates; scale 10 ten times each, scale 0.02 a
fiftieth (at least two dynasties and a few players). Dynasties last about five weeks each, the last ending at
``end``, so a larger game reaches further into the past and every month, dynasty and current page looks as
it does at scale 1: only the archive behind them grows. Players come and go in overlapping eras; those not
seen in the last month are idle. Every text is made up here.

The result is a plain archive for ``import_archive`` (``python manage.py generate_archive --scale N``).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

HISTORY = {
    "dynasties": 205,
    "proposals": 15_792,
    "comments": 144_382,
    "revisions": 9_450,
    "players": 382,
    "gndt_updates": 1_837,
}
DYNASTY_LENGTH = timedelta(days=37)
ERA_PLAYERS = 14  # players taking part in one dynasty
WORDS = (
    "lamp lantern tide harbour keeper beacon fog signal chart reef buoy gull storm rope oar wick "
    "shutter watch ledger tower"
).split()
COMMENTS = (
    "For.",
    "Against, it breaks the daily action.",
    "For, nicely worded.",
    "Is the second clause intended?",
    "Against: too many moving parts.",
    "Reluctantly for.",
    "For, see my note on the tracker.",
    "Against for now.",
    "Nice idea.",
)
SECTIONS = (("Core Rules", 10), ("Dynastic Rules", 12))


def _stamp(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 16))).capitalize() + "."


def _ruleset_text(rules: list[list[str]]) -> str:
    lines, section = [], None
    for rule_section, title, body in rules:
        if rule_section != section:
            section = rule_section
            lines.append(f"== {section} ==")
        lines += [f"=== {title} ===", body, ""]
    return "\n".join(lines)


def sizes(scale: float) -> dict[str, int]:
    """The figures of a game at ``scale``: the real history's, multiplied, with a floor that keeps it a game."""
    if not scale > 0:
        raise ValueError("the scale must be positive")
    n = {key: round(value * scale) for key, value in HISTORY.items()}
    n["dynasties"] = max(2, n["dynasties"])
    n["players"] = max(6, n["players"])
    n["proposals"] = max(2 * n["dynasties"], n["proposals"])
    n["revisions"] = max(1, min(n["revisions"], n["proposals"]))
    n["gndt_updates"] = max(10, n["gndt_updates"])
    return n


def generate_archive(*, scale: float, end: datetime, seed: int = 2003) -> dict:
    """The archive of a game ``scale`` times the real history's size, its last dynasty ending at ``end``."""
    rng = random.Random(seed)
    n = sizes(scale)
    names = [f"Keeper {i:05d}" for i in range(1, n["players"] + 1)]
    first = end - DYNASTY_LENGTH * n["dynasties"]
    dynasties, posts, revisions, seen = [], [], [], {}
    rules = _starting_rules(rng)
    per_dynasty, extra = divmod(n["proposals"], n["dynasties"])
    comments_left, posts_left = n["comments"], n["proposals"]
    revision_every = n["proposals"] / n["revisions"]
    index = 0
    for d in range(n["dynasties"]):
        start = first + DYNASTY_LENGTH * d
        # Each era's players: a window sliding over the names, so old eras have players long gone.
        offset = (d * len(names)) // n["dynasties"]
        pool = [names[(offset + i) % len(names)] for i in range(min(ERA_PLAYERS, len(names)))]
        number = d + 1
        dynasties.append(_dynasty(rng, number, emperor=pool[0], start=start, last=d + 1 == n["dynasties"]))
        count = per_dynasty + (1 if d < extra else 0)
        for k in range(count):
            posted = start + (DYNASTY_LENGTH - timedelta(days=3)) * (k + 0.5) / count
            author = pool[k % len(pool)]
            seen[author] = max(seen.get(author, posted), posted)
            share = comments_left // posts_left
            wanted = share * 4 if k == count // 2 else share  # one busy post in every dynasty
            wanted = min(wanted, comments_left) if posts_left > 1 else comments_left
            comments = _comments(rng, pool, posted=posted, wanted=wanted, seen=seen)
            comments_left -= len(comments)
            posts_left -= 1
            pending = d + 1 == n["dynasties"] and k >= count - 2
            enacted = not pending and rng.random() < 0.6
            slug = f"d{number}-p{k + 1}"
            title = f"Proposal: {rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} {index + 1}"
            resolver = pool[1 % len(pool)]
            resolution = None if pending else _resolution(resolver, posted=posted, enacted=enacted)
            posts.append(
                {
                    "id": slug,
                    "kind": "proposal",
                    "title": title,
                    "author": author,
                    "posted_at": _stamp(posted),
                    "dynasty": number,
                    "body": _sentence(rng),
                    "flavour": "",
                    "comments": comments,
                    "status": "pending" if pending else ("enacted" if enacted else "failed"),
                    "resolution": resolution,
                }
            )
            index += 1
            if not pending and len(revisions) < n["revisions"] and len(revisions) < index / revision_every:
                revisions.append(_revision(rng, rules, by=resolver, at=posted + timedelta(days=2), post=slug))
    players = _players(names, seen=seen, admins={dynasty["emperor"] for dynasty in dynasties}, first=first, end=end)
    archive = _archive(players=players, dynasties=dynasties, posts=posts, revisions=revisions)
    archive["gndt"] = _gndt(rng, dynasties[-1], [p for p in players if not p["idle"]], n["gndt_updates"], end)
    return archive


def _starting_rules(rng: random.Random) -> list[list[str]]:
    """Each section's rules as [section, title, text], the text one sentence."""
    return [
        [section, f"{rng.choice(WORDS).capitalize()} {i + 1}", _sentence(rng)]
        for section, count in SECTIONS
        for i in range(count)
    ]


def _archive(*, players: list[dict], dynasties: list[dict], posts: list[dict], revisions: list[dict]) -> dict:
    return {
        "format": "blognomic-archive",
        "version": 1,
        "profile": "2016",
        "players": players,
        "dynasties": dynasties,
        "posts": posts,
        "wiki": {"pages": [{"title": "Ruleset", "kind": "ruleset", "protected": True, "revisions": revisions}]},
    }


def _resolution(by: str, *, posted: datetime, enacted: bool) -> dict:
    return {
        "by": by,
        "at": _stamp(posted + timedelta(days=2)),
        "outcome": "enacted" if enacted else "failed",
        "note": "Resolved.",
    }


def _revision(rng: random.Random, rules: list[list[str]], *, by: str, at: datetime, post: str) -> dict:
    """The Ruleset after enacting ``post``: one rule, at random, reworded."""
    rule = rules[rng.randrange(len(rules))]
    rule[2] = _sentence(rng) + " " + _sentence(rng)
    return {"at": _stamp(at), "author": by, "post": post, "summary": f"Enacting {post}", "text": _ruleset_text(rules)}


def _dynasty(rng: random.Random, number: int, *, emperor: str, start: datetime, last: bool) -> dict:
    """A dynasty lasting ``DYNASTY_LENGTH`` from ``start``; the last one has not ended."""
    return {
        "number": number,
        "emperor": emperor,
        "player_term": "Keeper",
        "emperor_term": "Harbourmaster",
        "theme": f"The {rng.choice(WORDS).capitalize()} Dynasty",
        "started_at": _stamp(start),
        "ended_at": None if last else _stamp(start + DYNASTY_LENGTH),
    }


def _comments(rng: random.Random, pool: list[str], *, posted: datetime, wanted: int, seen: dict) -> list[dict]:
    """``wanted`` comments seven minutes apart by players of ``pool``, noting when each was last seen."""
    comments = []
    for c in range(wanted):
        at = posted + timedelta(minutes=7 * (c + 1))
        voter = pool[rng.randrange(len(pool))]
        seen[voter] = max(seen.get(voter, at), at)
        comments.append(
            {
                "author": voter,
                "at": _stamp(at),
                "icon": rng.choice(("for", "for", "against", None)),
                "text": rng.choice(COMMENTS),
            }
        )
    return comments


def _players(names: list[str], *, seen: dict, admins: set[str], first: datetime, end: datetime) -> list[dict]:
    """Every player, idle from a week after they were last seen when that was over a month before ``end``."""
    cutoff = end - timedelta(days=30)
    players = []
    for name in names:
        last = seen.get(name, first)
        player = {
            "name": name,
            "admin": name in admins,
            "idle": last < cutoff,
            "joined_at": _stamp(first - timedelta(days=7)),
        }
        if player["idle"]:
            player["idle_since"] = _stamp(max(first, min(last + timedelta(days=7), cutoff)))
        players.append(player)
    return players


def _gndt(rng: random.Random, dynasty: dict, players: list[dict], updates: int, end: datetime) -> dict:
    """The current dynasty's tracker: its active players and a pot, two columns, ``updates`` logged changes."""
    number = dynasty["number"]
    columns = _gndt_columns(number)
    rows = [p["name"] for p in players] + ["The Pot"]
    state = {row: {"Oil": 0, "Mood": "Calm"} for row in rows}
    start = datetime.fromisoformat(dynasty["started_at"].replace("Z", "+00:00"))
    log = []
    for i in range(updates):
        row = rows[rng.randrange(len(rows))]
        old = state[row]["Oil"]
        state[row]["Oil"] = old + 1 + i % 3
        at = start + (end - start) * (i + 1) / (updates + 1)
        log.append(
            {
                "dynasty": number,
                "at": _stamp(at),
                "by": players[i % len(players)]["name"] if players else None,
                "source": "player",
                "comment": f"Update {i + 1}",
                "rolls": [],
                "action": None,
                "undoes": None,
                "changes": [{"row": row, "column": "Oil", "old": str(old), "new": str(state[row]["Oil"])}],
            }
        )
    return {
        "columns": columns,
        "rows": [
            {
                "dynasty": number,
                "name": row,
                "player": row if row != "The Pot" else None,
                "order": order,
                "created_at": None,
                "retired_at": None,
                "values": {"Oil": str(state[row]["Oil"]), "Mood": state[row]["Mood"]},
            }
            for order, row in enumerate(rows, start=1)
        ],
        "actions": [],
        "lists": [],
        "effects": [],
        "log": log,
    }


def _gndt_columns(number: int) -> list[dict]:
    """Oil (a number) and Mood (text), in dynasty ``number``."""
    columns = [
        {
            "name": "Oil",
            "kind": "integer",
            "minimum": 0,
            "maximum": None,
            "allow_negative": False,
            "choices": [],
            "default": "0",
        },
        {
            "name": "Mood",
            "kind": "text",
            "minimum": None,
            "maximum": None,
            "allow_negative": False,
            "choices": [],
            "default": "Calm",
        },
    ]
    for order, column in enumerate(columns, start=1):
        column.update(
            {
                "dynasty": number,
                "clamp": False,
                "order": order,
                "hidden": False,
                "description": "",
                "created_at": None,
                "retired_at": None,
            }
        )
    return columns
