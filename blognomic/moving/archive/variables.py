"""The game variables of the archive's ``gndt`` part: ``gndt.variables[]``, what each dynasty's sidebar shows.

Shape::

    "variables": [{"dynasty": 2, "label": "The Year", "row": "Calendar", "column": "Year", "phase_rule": "",
                   "order": 1, "proposal": "keep-the-year", "by": "Ada", "at": "…", "retired_at": null}]

A variable names a row and a column of its dynasty's GNDT, or a ``phase_rule`` (``day-parity``) and neither;
``proposal`` is the id of the post that made it gamestate, or null. Written after the GNDT and the posts, in
the importer's transaction; a bad field raises ``ArchiveError`` naming it and nothing is written.
"""

from __future__ import annotations

from typing import Any

from blognomic.moving.archive.fields import ArchiveError, Reader, format_time
from dynasties.models import Dynasty, User
from dynasties.phases import PHASE_RULES
from gndt.models import Column, GameVariable, Row
from votes.models import Post


def export_variables() -> list[dict]:
    variables = GameVariable.objects.select_related("dynasty", "row", "column", "proposal", "by").order_by(
        "dynasty__number", "order", "pk"
    )
    return [
        {
            "dynasty": v.dynasty.number,
            "label": v.label,
            "row": v.row.name if v.row_id else None,
            "column": v.column.name if v.column_id else None,
            "phase_rule": v.phase_rule,
            "order": v.order,
            "proposal": v.proposal.slug if v.proposal_id else None,
            "by": v.by.username if v.by_id else None,
            "at": format_time(v.at),
            "retired_at": format_time(v.retired_at),
        }
        for v in variables
    ]


def import_variables(data: Any, *, users: dict[str, User], dynasties: dict[int, Dynasty], path: str) -> None:
    if data is None:
        return
    holder = Reader({"variables": data}, path.rpartition(".")[0])
    variables = []
    for item, item_path in holder.items("variables"):
        r = Reader(item, item_path)
        number = r.integer("dynasty", minimum=1)
        if number not in dynasties:
            raise ArchiveError(r.at("dynasty"), f"there is no dynasty {number}")
        dynasty = dynasties[number]
        rule = r.text("phase_rule", required=False, max_length=20)
        if rule and rule not in PHASE_RULES:
            raise ArchiveError(r.at("phase_rule"), f"must be one of {', '.join(PHASE_RULES)} or empty")
        row_name = r.text("row", required=False, max_length=150)
        column_name = r.text("column", required=False, max_length=60)
        if bool(rule) == bool(row_name and column_name) or (not rule and bool(row_name) != bool(column_name)):
            raise ArchiveError(item_path, "names either a row and a column, or a phase_rule")
        row = column = None
        if not rule:
            row = Row.objects.filter(dynasty=dynasty, name=row_name).first()
            column = Column.objects.filter(dynasty=dynasty, name=column_name).first()
            if row is None:
                raise ArchiveError(r.at("row"), f"Dynasty {number}'s GNDT has no row {row_name!r}")
            if column is None:
                raise ArchiveError(r.at("column"), f"Dynasty {number}'s GNDT has no column {column_name!r}")
        slug = r.text("proposal", required=False, max_length=200)
        proposal = Post.objects.filter(slug=slug).first() if slug else None
        if slug and proposal is None:
            raise ArchiveError(r.at("proposal"), f"there is no post {slug!r}")
        by_name = r.text("by", required=False, max_length=150)
        if by_name and by_name not in users:
            raise ArchiveError(r.at("by"), f"there is no account {by_name!r}")
        variables.append(
            GameVariable(
                dynasty=dynasty,
                label=r.text("label", max_length=60),
                row=row,
                column=column,
                phase_rule=rule,
                order=r.integer("order", required=False) or 0,
                proposal=proposal,
                by=users[by_name] if by_name else None,
                at=r.time("at"),
                retired_at=r.time("retired_at", required=False),
            )
        )
    GameVariable.objects.bulk_create(variables)
    showing = {v.dynasty_id for v in variables if v.retired_at is None}
    Dynasty.objects.filter(pk__in=showing).update(shows_variables=True)
