"""A small export shaped like BlogNomic's own: matters' states as custom post statuses, the ACF fields
``flavour``, ``admin`` (the admin's note) and ``admin_user`` (the resolving admin's user id), comment meta
``vote`` and ``good_flavour``, authors with their addresses and no ``is_player`` field.

Every name and text is made up here.
"""

from __future__ import annotations

from tests.wordpress.wxr import C, P, author, export

MIRRORED = "\u202eMirror\u202c Hand"  # a direction-changing name, as in WordPress's own UTF-8 test export
MIRRORED_TITLE = "Story: \u05e9\u05dc\u05d5\u05dd and \u202eback\u202c again"
CYRILLIC_ORLA = "\u041erla"  # a lookalike of Orla: Cyrillic O

AUTHORS = (
    author(1, "Nell")
    + author(2, "Orla")
    + author(3, "Pim")
    + author(4, "Quill")
    + author(5, CYRILLIC_ORLA)
    + author(6, MIRRORED)
)


def _votes(post_id: int, day: str, votes: list[tuple[str, int, str]]) -> list[C]:
    return [
        C(post_id * 10 + n, name, f"2019-03-{day} {10 + n:02d}:00:00", vote=vote, user_id=user_id)
        for n, (name, user_id, vote) in enumerate(votes)
    ]


def matter(post_id: int, title: str, status: str, note: str = "", *, votes=(), by: str = "2", **extra) -> P:
    day = f"{post_id % 28 + 1:02d}"
    meta = {"flavour": "", "admin": note, "admin_user": by if note else ""}
    return P(
        post_id,
        title,
        extra.pop("author", "Nell"),
        f"2019-03-{day} 09:00:00",
        status=status,
        name=extra.pop("name", f"matter-{post_id}"),
        meta=meta,
        modified=f"2019-03-{day} 23:00:00",
        comments=_votes(post_id, day, list(votes)) + extra.pop("comments", []),
        **extra,
    )


FOUR_FOR = [("Nell", 1, "FOR"), ("Orla", 2, "FOR"), ("Pim", 3, "FOR"), ("Quill", 4, "FOR")]


def blognomic_posts() -> list[P]:
    return [
        matter(1, "Proposal: Lanterns", "open", votes=[("Orla", 2, "FOR")]),
        matter(
            2,
            "Proposal: Ropes",
            "enacted",
            "Reached quorum, 4 votes to 0. Enacted by Orla.",
            votes=FOUR_FOR,
            comments=[C(29, "Orla", "2019-03-03 20:00:00", vote="FOR", text="Me too, signed by a guest.")],
        ),
        matter(
            3,
            "Proposal: Tides",
            "failed",
            "Timed out one-three",
            votes=[("Nell", 1, "FOR"), ("Orla", 2, "AGAINST"), ("Pim", 3, "AGAINST"), ("Quill", 4, "AGAINST")],
        ),
        matter(4, "Proposal: Crowns", "vetoed", "Vetoed. -Orla", votes=[("Pim", 3, "FOR")]),
        matter(5, "Proposal: Maps", "illegal", "Illegal: it names a rule that is gone. -Orla"),
        matter(6, "Proposal: Bells", "quarantined", "Quarantined while the CfJ runs"),
        matter(
            7,
            "Proposal: Anchors",
            "failed",
            "Self-killed",
            author="Pim",
            votes=[("Pim", 3, "AGAINST"), ("Orla", 2, "FOR")],
        ),
        matter(
            8,
            "Proposal: Sails",
            "publish",
            "Popular with four SAILORS in favour and one deferring. Enacted by Orla.",
            votes=[*FOUR_FOR[:3], ("Quill", 4, "DEF")],
        ),
        matter(9, "Proposal: Unsent", "draft"),
        matter(10, "Proposal: Binned", "trash"),
        matter(11, "Proposal: Hidden", "private"),
        matter(12, MIRRORED_TITLE, "publish", author=MIRRORED, category="Story Post"),
        matter(13, "Story: Not Orla", "publish", author=CYRILLIC_ORLA, category="Story Post"),
    ]


def blognomic_export(posts: list[P] | None = None, *, authors: str = AUTHORS) -> bytes:
    return export(blognomic_posts() if posts is None else posts, authors=authors)
