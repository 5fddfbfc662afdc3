"""The amendment part of the post form: the Ruleset in an editor, and small structured forms for the rest.

The player edits the Ruleset as text; ``operations`` compares it with the revision the editor was opened on
and derives rule operations (``ruleset.amend.derive_rule_operations``). GNDT changes, a core-rule parameter,
a rename and a passage of another wiki page are given in fields of their own.
"""

from __future__ import annotations

from django import forms

from blognomic.amendments.operations import AmendmentRefused
from dynasties.profiles import ADJUSTABLE
from ruleset.amend import AmendError, derive_rule_operations
from ruleset.structure import parse_ruleset, serialize_ruleset

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
COLUMN_KINDS = [("integer", "whole number"), ("text", "text"), ("list", "list"), ("player", "player")]
RULESET_EDIT_REFUSED = "The Ruleset edit cannot become an amendment: {reason}."
NOT_A_NUMBER = "GNDT change {number}: the amount must be a whole number."
ROW_NEEDED = "GNDT change {number}: name the row."
COLUMN_NEEDED = "GNDT change {number}: name the column."


class AmendmentForm(forms.Form):
    ruleset_text = forms.CharField(widget=forms.Textarea(attrs={"rows": 24, "class": "ruleset-editor"}),
                                   required=False, strip=False, label="The Ruleset")
    ruleset_base = forms.IntegerField(widget=forms.HiddenInput, required=False)
    parameter = forms.ChoiceField(choices=[("", "—")] + [(name, f"{name}: {meaning}")
                                                        for name, (_, _, meaning) in ADJUSTABLE.items()],
                                  required=False, label="Core-rule parameter")
    parameter_value = forms.CharField(required=False, max_length=20, label="New value")
    rename_player = forms.CharField(required=False, max_length=150, label="Rename the player")
    rename_name = forms.CharField(required=False, max_length=150, label="to")
    page = forms.CharField(required=False, max_length=200, label="Wiki page (its address, e.g. map)")
    page_old = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), strip=False,
                               label="Passage to replace")
    page_new = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), strip=False,
                               label="Replace it with")

    def __init__(self, *args, base_text: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.base_text = base_text
        for n in range(GNDT_ROWS):
            self.fields[f"gndt_{n}_op"] = forms.ChoiceField(choices=GNDT_CHOICES, required=False, label="Change")
            self.fields[f"gndt_{n}_row"] = forms.CharField(required=False, max_length=150, label="Row")
            self.fields[f"gndt_{n}_column"] = forms.CharField(required=False, max_length=60, label="Column")
            self.fields[f"gndt_{n}_value"] = forms.CharField(required=False, max_length=2000, label="Value")
            self.fields[f"gndt_{n}_kind"] = forms.ChoiceField(choices=COLUMN_KINDS, required=False,
                                                             label="Column kind")

    def gndt_rows(self):
        return [[self[f"gndt_{n}_{part}"] for part in ("op", "row", "column", "value", "kind")]
                for n in range(GNDT_ROWS)]

    def operations(self) -> list[dict]:
        """The operations the form describes, in order: rules, page, GNDT, parameter, rename."""
        data = self.cleaned_data
        operations: list[dict] = []
        edited = data.get("ruleset_text") or ""
        if edited.strip() and self.base_text:
            canonical_base = serialize_ruleset(parse_ruleset(self.base_text))
            if serialize_ruleset(parse_ruleset(edited)) != canonical_base:
                try:
                    operations.extend(derive_rule_operations(self.base_text, edited))
                except AmendError as error:
                    raise AmendmentRefused(RULESET_EDIT_REFUSED.format(reason=error.reason)) from None
        if data.get("page"):
            operations.append({"op": "page_replace_passage", "page": data["page"].strip(),
                               "old": data.get("page_old", ""), "new": data.get("page_new", "")})
        for n in range(GNDT_ROWS):
            op = self._gndt_operation(n)
            if op:
                operations.append(op)
        if data.get("parameter"):
            operations.append({"op": "parameter_set", "parameter": data["parameter"],
                               "value": data.get("parameter_value", "")})
        if data.get("rename_player"):
            operations.append({"op": "player_rename", "player": data["rename_player"].strip(),
                               "name": data.get("rename_name", "").strip()})
        return operations

    def _gndt_operation(self, n: int) -> dict | None:
        data = self.cleaned_data
        kind = data.get(f"gndt_{n}_op")
        row = (data.get(f"gndt_{n}_row") or "").strip()
        column = (data.get(f"gndt_{n}_column") or "").strip()
        raw = (data.get(f"gndt_{n}_value") or "").strip()
        if not kind:
            return None
        if kind in ("cell_set", "cell_add", "cell_subtract", "row_add", "row_retire") and not row:
            raise AmendmentRefused(ROW_NEEDED.format(number=n + 1))
        if kind in ("cell_set", "cell_add", "cell_subtract", "column_add", "column_retire") and not column:
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
            if raw:
                op["default"] = raw
            return op
        return {"op": "column_retire", "column": column}
