"""The people of a WordPress export: the account each of its names is here, who is a player, their addresses.

- Each WordPress account (an author's login, or the name of a registered commenter) is one account here,
  found or made by ``blognomic.moving.archive.people.accounts_for``. A name this site cannot hold
  (invisible or direction-changing characters) comes in under its cleaned form (``dynasties.names.cleaned``),
  which the report names. Two different WordPress accounts whose names are lookalikes (same confusable
  skeleton, any case) are not merged: the second is refused, and the report says so.
- A guest comment (``comment_user_id`` 0) belongs to nobody here, whatever name it was signed with.
- Players: the user meta ``is_player`` where the export carries it; else every registered WordPress account
  was a player from its first post or comment, and now only those the admin names (``players``) are active:
  the others are idle until they come back.
- Each author's ``wp:author_email`` becomes their account's confirmed address, since the old site held it,
  so they can claim the account with the password-reset mail.
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from blognomic.moving.archive.people import accounts_for
from blognomic.moving.wordpress.mapping import is_truthy
from blognomic.moving.wordpress.reading import Author, Channel, WxrComment
from dynasties import names as name_rules
from dynasties.models import Absence, Dynasty, User

PLAYERS_AND_FIELD = (
    "the export says who is a player (user meta {key!r}), so --players is not needed; leave it out or use a "
    "mapping file whose [players] meta_key names no field"
)
PLAYERS_UNKNOWN = "--players names {names}, who wrote nothing in the export under that name"


class PeopleRefused(Exception):
    """The people the admin named do not fit the export; the message says why."""


class People:
    def __init__(self, *, names: dict[str, str], notes: list[str], player_meta: str, players: tuple[str, ...] | None):
        self.names = names
        self.notes = notes
        self.player_meta = player_meta
        self.named_players = players
        self.by_id: dict[int, Author] = {}
        self.authors: dict[str, Author] = {}
        self.has_field = False
        self.players: set[str] = set()  # source names of players, when the export says who they are
        self.targets: dict[str, str] = {}  # source name to the name here
        self.claimed: dict[str, tuple[str, str]] = {}  # lookalike key to the first (source name, name here)
        self.refused: dict[str, str] = {}  # source name to why it has no account here
        self.accounts: dict[str, User] = {}
        self.registered: set[str] = set()  # source names of WordPress accounts (not guests)
        self.first_seen: dict[int, tuple[str, datetime]] = {}  # account pk to (source name, first activity)

    def start(self, channel: Channel) -> None:
        self.authors = channel.authors
        self.by_id = {a.id: a for a in channel.authors.values() if a.id is not None}
        carried = [a for a in channel.authors.values() if self.player_meta in a.meta]
        self.has_field = bool(carried)
        if self.has_field and self.named_players is not None:
            raise PeopleRefused(PLAYERS_AND_FIELD.format(key=self.player_meta))
        self.players = {a.login for a in carried if is_truthy(a.meta[self.player_meta])}
        for login in channel.authors:  # in the export's order, so the same file always keeps the same one
            self._target(login)
        self.registered.update(channel.authors)

    # -- names ------------------------------------------------------------------------------------------------

    def _target(self, name: str) -> str | None:
        if name in self.targets or name in self.refused:
            return self.targets.get(name)
        target = self.names.get(name, name_rules.normalise(name))
        problem = name_rules.name_problem(target)
        if problem is not None:
            clean = name_rules.cleaned(target)
            if not clean:
                self.refused[name] = f"its author {name!r} cannot be an account's name here, even cleaned"
                return None
            self.notes.append(f"The name {name!r} comes in as {clean!r}: {problem}")
            target = clean
        first = self.claimed.setdefault(name_rules.lookalike_key(target), (name, target))
        if first[1] != target:
            self.refused[name] = (
                f"its author {name!r} looks like {first[0]!r}, another WordPress account: not merged "
                "(a names file may give one of them another name)"
            )
            self.notes.append(f"{name!r} and {first[0]!r} are lookalike names of two WordPress accounts; not merged.")
            return None
        self.targets[name] = target
        return target

    def account(self, name: str) -> User | None:
        """The account for a source name, made if new; None (``refused`` says why) when it can have none."""
        if name not in self.accounts:
            target = self._target(name)
            if target is None:
                return None
            self.accounts.update(accounts_for([name], mapping={name: target}))
        return self.accounts[name]

    def commenter(self, comment: WxrComment) -> str | None:
        """The WordPress account a comment was written by; None for a guest's."""
        if not comment.user_id:
            return None
        author = self.by_id.get(comment.user_id)
        name = author.login if author is not None else comment.author
        if name:
            self.registered.add(name)
        return name or None

    def resolver(self, raw: str) -> str | None:
        """The author the ACF field ``admin_user`` names by their WordPress user id (a login is taken too)."""
        raw = raw.strip()
        if raw.isascii() and raw.isdigit():
            author = self.by_id.get(int(raw))
            return author.login if author is not None else None
        return raw if raw in self.authors else None

    # -- players ----------------------------------------------------------------------------------------------

    def is_player(self, name: str, user: User) -> bool:
        return self._was_player(name) or user.joined_at is not None

    def _was_player(self, name: str) -> bool:
        return name in self.players if self.has_field else name in self.registered

    def note_activity(self, name: str, user: User, at: datetime) -> None:
        if self._was_player(name) and user.joined_at is None:
            first = self.first_seen.get(user.pk)
            if first is None or at < first[1]:
                self.first_seen[user.pk] = (name, at)

    def finish(self, *, at: datetime) -> tuple[int, int]:
        """Make the new players players from their first activity; idle those the admin did not name.
        Returns how many became players and how many of them are idle."""
        named = set(self.named_players or ())
        if named:
            known = set(self.targets) | set(self.targets.values())
            unknown = sorted(named - known)
            if unknown:
                raise PeopleRefused(PLAYERS_UNKNOWN.format(names=", ".join(repr(n) for n in unknown)))
        players = list(User.objects.filter(pk__in=self.first_seen))
        idle = []
        for user in players:
            source, user.joined_at = self.first_seen[user.pk]
            if not self.has_field and not ({source, user.username} & named):
                idle.append(user)
        User.objects.bulk_update(players, ["joined_at"])
        dynasty = Dynasty.objects.current()
        Absence.objects.bulk_create(
            Absence(user=user, kind=Absence.IDLE, started_at=max(at, user.joined_at), dynasty=dynasty) for user in idle
        )
        return len(players), len(idle)

    # -- addresses --------------------------------------------------------------------------------------------

    def confirm_addresses(self) -> int:
        """Give each author's account the address the old site held, as confirmed, where it has none and has
        never been claimed; returns how many were given."""
        given = 0
        taken = {e.casefold() for e in User.objects.exclude(email="").values_list("email", flat=True)}
        for login, author in self.authors.items():
            user = self.accounts.get(login)
            address = author.email
            if user is None or not address or user.email or user.has_usable_password():
                continue
            try:
                validate_email(address)
            except ValidationError:
                self.notes.append(f"{login!r}: {address!r} is not an email address; the account has none.")
                continue
            if address.casefold() in taken:
                self.notes.append(f"{login!r}: {address!r} belongs to another account; the account has none.")
                continue
            taken.add(address.casefold())
            User.objects.filter(pk=user.pk).update(email=address)
            user.email = address
            given += 1
        return given
