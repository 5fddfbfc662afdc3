"""The archive's skeleton: which fields hold an object and which a list, and what a list's items are.

``check_shapes`` walks an archive against it before any field is read, so ``true``, a number or a string
where an object or a list belongs is refused by its path (``amendments: must be a list``) whichever module
reads that part later. The values themselves (texts, times, numbers, names) are checked by the readers in
``reading`` and the modules it calls; a null stands for a field left out, and the reader says whether it may be.
"""

from __future__ import annotations

from typing import Any

from blognomic.moving.archive.fields import ArchiveError

# A shape is one of these, a dict (an object whose listed keys have the given shapes; other keys are the
# readers' business), or a one-item list (a list whose every item has that shape).
OBJECT = "object"  # any object: a recorded tally, a row's values, a webhook's payload
LIST = "list"  # a list whose items its reader checks (an amendment's operations, a kind's conditions)
TEXT = "text"  # a string, as an item of a list

_TALLY = {"votes": OBJECT}
_APPLICATION = {"descriptions": [TEXT], "revisions": [OBJECT], "parameters": [OBJECT], "renames": [OBJECT]}

ARCHIVE = {
    "game": {},
    "accounts": [{}],
    "players": [{"past_absences": [{}]}],
    "applications": [{}],
    "dynasties": [{"look": {"vote_labels": OBJECT}}],
    "posts": [{"resolution": {"tally": _TALLY}, "resolutions": [{"tally": _TALLY}], "comments": [{}]}],
    "renames": [{}],
    "rule_changes": [{}],
    "notifications": [{}],
    "amendments": [{"operations": LIST, "applications": [_APPLICATION]}],
    "matter_kinds": [{}],
    "matter_effects": [{}],
    "personal": {
        "conversations": [{"participants": [{}], "messages": [{}]}],
        "seals": [{}],
        "preferences": [{}],
        "feeds": [{}],
        "webhooks": [{"deliveries": [{}]}],
        "digests": [{}],
    },
    "gndt": {
        "columns": [{"choices": [TEXT]}],
        "rows": [{"values": OBJECT}],
        "actions": [{}],
        "lists": [{"entries": [TEXT]}],
        "effects": [{"runs": [{}]}],
        "log": [{"rolls": [{"results": LIST}], "changes": [{}]}],
        "variables": [{}],
    },
    "wiki": {"pages": [{"revisions": [{}], "protection_log": [{}]}]},
}

MUST_BE_OBJECT = "must be an object"
MUST_BE_LIST = "must be a list"
MUST_BE_TEXT = "must be a string"


def check_shapes(archive: Any) -> None:
    """Refuse the first value, depth first, whose kind is not the one ``ARCHIVE`` gives for its place."""
    _check(archive, ARCHIVE, "")


def _check(value: Any, shape: Any, path: str) -> None:
    if isinstance(shape, dict) or shape == OBJECT:
        if not isinstance(value, dict):
            raise ArchiveError(path, MUST_BE_OBJECT)
        for key, inner in shape.items() if isinstance(shape, dict) else ():
            if value.get(key) is not None:
                _check(value[key], inner, f"{path}.{key}" if path else key)
    elif isinstance(shape, list) or shape == LIST:
        if not isinstance(value, list):
            raise ArchiveError(path, MUST_BE_LIST)
        if isinstance(shape, list):
            [inner] = shape
            for index, item in enumerate(value):
                if item is None:  # a list's item stands for no field that may be left out
                    _check(_NOTHING, inner, f"{path}[{index}]")
                _check(item, inner, f"{path}[{index}]")
    elif shape == TEXT and not isinstance(value, str):
        raise ArchiveError(path, MUST_BE_TEXT)


_NOTHING = object()  # matches no shape, so a null item is refused with the message its place calls for
