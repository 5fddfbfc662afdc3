"""The amendment part of the post form: the Ruleset in an editor, and small structured forms for the rest.

The player edits the Ruleset as text; ``operations`` compares it with the revision the editor was opened on
and derives rule operations (``ruleset.amendment_operations.derive_rule_operations``). GNDT changes, a
core-rule parameter, a rename and a passage of another wiki page are given in fields of their own.
"""

from __future__ import annotations

from django import forms

from blognomic.flows.amendments.shape import MAX_OPERATIONS, AmendmentRefused
from dynasties.profiles import ADJUSTABLE
from gndt.models import Column
from gndt.selectors import AmendmentPicks
from ruleset.amendment_operations import derive_rule_operations
from ruleset.services import MAX_PAGE_BYTES, PAGE_TOO_LARGE
from votes.amendment_errors import AmendError

GNDT_ROWS = 5
GNDT_CHOICES = [
    ("", "—"),
    ("cell_set", "set a value"),
    ("cell_add", "add to a value"),
    ("cell_subtract", "subtract from a value"),
    ("row_add", "add a row (not a player's)"),
    ("row_retire", "remove a row"),
    ("column_add", "add a column"),
    ("column_retire", "remove a column"),
]
# Every kind of column the GNDT has, as its table names them.
COLUMN_KINDS = [(kind, label.lower()) for kind, label in Column.KIND_CHOICES]
RULESET_EDIT_REFUSED = "The Ruleset edit cannot become an amendment: {reason}."
NOT_A_NUMBER = "GNDT change {number}: the amount must be a whole number."
ROW_NEEDED = "GNDT change {number}: pick the row."
COLUMN_NEEDED = "GNDT change {number}: pick the column."
NAME_NEEDED = "GNDT change {number}: give the new {what} a name."


class PickedName(forms.CharField):
    """A row's or column's name picked from a list but read as text: the game checks it, not the list, so a
    column the author may not see is refused as a missing one is. A list has no length to limit."""

    def widget_attrs(self, widget) -> dict:
        attrs = super().widget_attrs(widget)
        attrs.pop("maxlength", None)
        return attrs


class AmendmentForm(forms.Form):
    ruleset_text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 24, "class": "ruleset-editor"}),
        required=False,
        strip=False,
        label="The Ruleset",
    )
    ruleset_base = forms.IntegerField(widget=forms.HiddenInput, required=False)
    parameter = forms.ChoiceField(
        choices=[("", "—")] + [(name, f"{name}: {meaning}") for name, (_, _, meaning) in ADJUSTABLE.items()],
        required=False,
        label="Core-rule parameter",
    )
    parameter_value = forms.CharField(required=False, max_length=20, label="New value")
    rename_player = forms.CharField(required=False, max_length=150, label="Rename the player")
    rename_name = forms.CharField(required=False, max_length=150, label="to")
    page = forms.CharField(required=False, max_length=200, label="Wiki page (its address, e.g. map)")
    page_old = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), strip=False, label="Passage to replace"
    )
    page_new = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), strip=False, label="Replace it with"
    )

    def __init__(self, *args, base_text: str = "", picks: AmendmentPicks | None = None, **kwargs) -> None:
        """``picks``: the rows and columns the GNDT's changes are picked from (``gndt.selectors.amendment_picks``).
        A row or column is sent by name, and checked against the game as its author may see it when the
        amendment is previewed or posted, so a name that is not offered is refused there, as a missing one."""
        super().__init__(*args, **kwargs)
        self.base_text = base_text
        picks = picks or AmendmentPicks()
        rows = [("", "—")]
        for group, names in (("Players", picks.player_rows), ("Other rows", picks.other_rows)):
            if names:
                rows.append((group, [(name, name) for name in names]))
        columns = [("", "—")] + [(name, f"{name} ({kind})") for name, kind in picks.columns]
        for n in range(GNDT_ROWS):
            self.fields[f"gndt_{n}_op"] = forms.ChoiceField(choices=GNDT_CHOICES, required=False, label="Change")
            self.fields[f"gndt_{n}_row"] = PickedName(
                required=False, max_length=150, label="Row", widget=forms.Select(choices=rows)
            )
            self.fields[f"gndt_{n}_column"] = PickedName(
                required=False, max_length=60, label="Column", widget=forms.Select(choices=columns)
            )
            self.fields[f"gndt_{n}_name"] = forms.CharField(required=False, max_length=150, label="New row or column")
            self.fields[f"gndt_{n}_value"] = forms.CharField(required=False, max_length=2000, label="Value or amount")
            self.fields[f"gndt_{n}_kind"] = forms.ChoiceField(
                choices=COLUMN_KINDS, required=False, label="New column's kind"
            )
            self.fields[f"gndt_{n}_choices"] = forms.CharField(
                required=False, max_length=2000, label="New column's choices"
            )

    def clean_ruleset_text(self) -> str:
        # The edited Ruleset becomes a revision of the Ruleset page, so it is held to the page's size before
        # anything is worked out from it.
        text = self.cleaned_data["ruleset_text"]
        size = len(text.encode("utf-8"))
        if size > MAX_PAGE_BYTES:
            raise forms.ValidationError(PAGE_TOO_LARGE.format(size=size))
        return text

    def gndt_rows(self):
        parts = ("op", "row", "column", "value", "name", "kind", "choices")
        return [[self[f"gndt_{n}_{part}"] for part in parts] for n in range(GNDT_ROWS)]

    def operations(self) -> list[dict]:
        """The operations the form describes, in order: rules, page, GNDT, parameter, rename."""
        data = self.cleaned_data
        operations: list[dict] = []
        edited = data.get("ruleset_text") or ""
        if edited.strip() and self.base_text:
            # An edit that changes nothing, or only spacing, derives no operations.
            try:
                operations.extend(derive_rule_operations(self.base_text, edited, limit=MAX_OPERATIONS))
            except AmendError as error:
                raise AmendmentRefused(RULESET_EDIT_REFUSED.format(reason=error.reason)) from None
        if data.get("page"):
            operations.append(
                {
                    "op": "page_replace_passage",
                    "page": data["page"].strip(),
                    "old": data.get("page_old", ""),
                    "new": data.get("page_new", ""),
                }
            )
        for n in range(GNDT_ROWS):
            op = self._gndt_operation(n)
            if op:
                operations.append(op)
        if data.get("parameter"):
            operations.append(
                {"op": "parameter_set", "parameter": data["parameter"], "value": data.get("parameter_value", "")}
            )
        if data.get("rename_player"):
            operations.append(
                {
                    "op": "player_rename",
                    "player": data["rename_player"].strip(),
                    "name": data.get("rename_name", "").strip(),
                }
            )
        return operations

    def _gndt_operation(self, n: int) -> dict | None:
        data = self.cleaned_data
        kind = data.get(f"gndt_{n}_op")
        row = (data.get(f"gndt_{n}_row") or "").strip()
        column = (data.get(f"gndt_{n}_column") or "").strip()
        raw = (data.get(f"gndt_{n}_value") or "").strip()
        if not kind:
            return None
        # A new row or column is named in a field of its own (a name in the row or column field is taken too).
        name = (data.get(f"gndt_{n}_name") or "").strip()
        if kind == "row_add":
            row = name or row
            if not row:
                raise AmendmentRefused(NAME_NEEDED.format(number=n + 1, what="row"))
        if kind == "column_add":
            column = name or column
            if not column:
                raise AmendmentRefused(NAME_NEEDED.format(number=n + 1, what="column"))
        if kind in ("cell_set", "cell_add", "cell_subtract", "row_retire") and not row:
            raise AmendmentRefused(ROW_NEEDED.format(number=n + 1))
        if kind in ("cell_set", "cell_add", "cell_subtract", "column_retire") and not column:
            raise AmendmentRefused(COLUMN_NEEDED.format(number=n + 1))
        if kind == "cell_set":
            return {"op": "cell_set", "row": row, "column": column, "value": raw}
        if kind in ("cell_add", "cell_subtract"):
            try:
                delta = int(raw.replace("+", "", 1))
            except ValueError:
                raise AmendmentRefused(NOT_A_NUMBER.format(number=n + 1)) from None
            delta = -delta if kind == "cell_subtract" else delta
            return {"op": "cell_add", "row": row, "column": column, "delta": delta}
        if kind in ("row_add", "row_retire"):
            return {"op": kind, "row": row}
        if kind == "column_add":
            op = {"op": "column_add", "column": column, "kind": data.get(f"gndt_{n}_kind") or "integer"}
            choices = [item.strip() for item in (data.get(f"gndt_{n}_choices") or "").split(",") if item.strip()]
            if choices:
                op["choices"] = choices
            if raw:
                op["default"] = raw
            return op
        return {"op": "column_retire", "column": column}
