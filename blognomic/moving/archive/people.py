"""The people of an imported game: each name in a WordPress or MediaWiki file becomes one account here.

A person who wrote on the blog and edited the wiki is one account, whichever file names them first. A name is
matched to an existing account by its exact username, else by the site's lookalike rule (same confusable
skeleton in any case, ``dynasties.names``), which is the rule that keeps two such accounts from existing at
all. A name with no match becomes a new account that is not a player and has no usable password: its owner
claims it by the password-reset mail, so no password travels in an export.

Names that differ between the two programs ("Kevan" on the wiki, "kevan_k" on the blog) are joined by a
names file, one rename a line::

    # old name = name here
    kevan_k = Kevan
    Seventy-Fifth Trombone = 75th Trombone

Blank lines and lines starting with ``#`` are ignored; a name may not hold ``=``; each old name appears once.
"""

from __future__ import annotations

from collections.abc import Iterable

from dynasties import names as rules
from dynasties.models import User

NAMES_LINE = "line {line} of the names file: {problem}"
NO_EQUALS = "expected 'old name = name here'"
TWICE = "{name!r} is renamed twice"
BAD_NAME = "{name!r} cannot be an account's name here: {problem}"


class PeopleError(ValueError):
    """A names file or a name that cannot be read; the message says which line or name."""


def read_names_file(text: str) -> dict[str, str]:
    """The renames a names file asks for, old name to name here, both in the stored normal form."""
    mapping: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        old, sep, new = line.partition("=")
        old, new = rules.normalise(old), rules.normalise(new)
        if not sep or not old or not new or "=" in new:
            raise PeopleError(NAMES_LINE.format(line=number, problem=NO_EQUALS))
        if old in mapping:
            raise PeopleError(NAMES_LINE.format(line=number, problem=TWICE.format(name=old)))
        for name in (old, new):
            problem = rules.name_problem(name)
            if problem is not None:
                raise PeopleError(NAMES_LINE.format(line=number, problem=BAD_NAME.format(name=name, problem=problem)))
        mapping[old] = new
    return mapping


def target_names(source: Iterable[str], *, mapping: dict[str, str]) -> dict[str, str]:
    """Each source name and the name it stands for here (renamed, in normal form); refuses unusable names."""
    targets: dict[str, str] = {}
    for name in source:
        normal = rules.normalise(name)
        target = mapping.get(name, mapping.get(normal, normal))
        problem = rules.name_problem(target)
        if problem is not None:
            raise PeopleError(BAD_NAME.format(name=name, problem=problem))
        targets[name] = target
    return targets


def accounts_for(names: Iterable[str], *, mapping: dict[str, str]) -> dict[str, User]:
    """The account for each source name, creating the missing ones (not players, no usable password).

    Run it inside the import's transaction: the accounts it creates are part of what the import writes.
    """
    targets = target_names(names, mapping=mapping)
    wanted = set(targets.values())
    by_name = {user.username: user for user in User.objects.filter(username__in=wanted)}
    by_key: dict[str, User] = {}
    if wanted - by_name.keys():
        for user in User.objects.iterator():
            by_key.setdefault(rules.lookalike_key(user.username), user)
    accounts: dict[str, User] = {}
    for source, target in sorted(targets.items(), key=lambda item: item[1]):
        user = by_name.get(target)
        if user is None:
            key = rules.lookalike_key(target)
            user = by_key.get(key)
            if user is None:
                user = User(username=target)
                user.set_unusable_password()
                user.save()
                by_key[key] = user
            by_name[target] = user
        accounts[source] = user
    return accounts
