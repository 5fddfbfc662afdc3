"""Forms of the GNDT pages: the admins' forms for columns, rows, actions, effects and word lists.

Forms only read what was typed; the rules (bounds, names taken, contradictory settings) are checked by the
services, whose ``GndtError`` the views attach to the form.
"""

from __future__ import annotations

import re

from django import forms

from dynasties.inputs import MomentField
from dynasties.parsing import MAX_INTEGER, InputError, parse_whole_number
from gndt.models import Action, Column, GameVariable, Row, ScheduledEffect


def split_entries(text: str) -> list[str]:
    """Entries typed one per line, or separated by commas on a single line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) == 1:
        lines = [part.strip() for part in lines[0].split(",") if part.strip()]
    return lines


class NumberedChoiceField(forms.ModelChoiceField):
    """A choice of row or column by its number, in ASCII digits only: ``"١"`` is 1 to ``int()`` but not here,
    and a 20-digit number is refused before it reaches the database."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            parse_whole_number(str(value))
        except InputError:
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice") from None
        return super().to_python(value)


class ColumnForm(forms.Form):
    name = forms.CharField(max_length=60, help_text=Column._meta.get_field("name").help_text)
    kind = forms.ChoiceField(choices=Column.KIND_CHOICES, help_text=Column._meta.get_field("kind").help_text)
    minimum = forms.IntegerField(
        required=False,
        min_value=-MAX_INTEGER,
        max_value=MAX_INTEGER,
        help_text=Column._meta.get_field("minimum").help_text,
    )
    maximum = forms.IntegerField(
        required=False,
        min_value=-MAX_INTEGER,
        max_value=MAX_INTEGER,
        help_text=Column._meta.get_field("maximum").help_text,
    )
    allow_negative = forms.BooleanField(
        required=False,
        label="Negative values allowed",
        help_text=Column._meta.get_field("allow_negative").help_text,
    )
    clamp = forms.BooleanField(
        required=False, label="Clamp to the bounds", help_text=Column._meta.get_field("clamp").help_text
    )
    choices = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Allowed values",
        help_text="One per line, or separated by commas. " + Column._meta.get_field("choices").help_text,
    )
    default = forms.CharField(required=False, max_length=200, help_text=Column._meta.get_field("default").help_text)
    order = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_INTEGER, help_text=Column._meta.get_field("order").help_text
    )
    hidden = forms.BooleanField(
        required=False, label="Hidden (secret state)", help_text=Column._meta.get_field("hidden").help_text
    )
    owner_visible = forms.BooleanField(
        required=False,
        label="Each player sees their own",
        help_text=Column._meta.get_field("owner_visible").help_text,
    )
    description = forms.CharField(
        required=False, max_length=300, help_text=Column._meta.get_field("description").help_text
    )

    @classmethod
    def for_column(cls, column: Column, data=None) -> ColumnForm:
        initial = {field: getattr(column, field) for field in cls.base_fields}
        initial["choices"] = "\n".join(column.choices or [])
        return cls(data, initial=initial)

    def service_fields(self) -> dict:
        data = dict(self.cleaned_data)
        data["choices"] = split_entries(data["choices"])
        return data


class RowForm(forms.Form):
    name = forms.CharField(max_length=150, help_text="A row that is not a player, such as “The Pot” or “:PROTO”.")


class ActionForm(forms.Form):
    name = forms.CharField(max_length=80, help_text=Action._meta.get_field("name").help_text)
    frequency = forms.ChoiceField(choices=Action.FREQUENCY_CHOICES)
    phase = forms.ChoiceField(
        choices=Action._meta.get_field("phase").choices,
        required=False,
        help_text=Action._meta.get_field("phase").help_text,
    )
    weekly_cap = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_INTEGER, help_text=Action._meta.get_field("weekly_cap").help_text
    )
    description = forms.CharField(
        required=False, max_length=300, help_text=Action._meta.get_field("description").help_text
    )


class EffectForm(forms.Form):
    name = forms.CharField(max_length=120, help_text=ScheduledEffect._meta.get_field("name").help_text)
    column = NumberedChoiceField(queryset=Column.objects.none(), help_text="A whole-number column.")
    target = forms.ChoiceField(choices=ScheduledEffect.TARGET_CHOICES)
    row = NumberedChoiceField(
        queryset=Row.objects.none(),
        required=False,
        help_text=ScheduledEffect._meta.get_field("row").help_text,
    )
    delta = forms.IntegerField(
        label="Add",
        min_value=-MAX_INTEGER,
        max_value=MAX_INTEGER,
        help_text=ScheduledEffect._meta.get_field("delta").help_text,
    )
    at_most = forms.IntegerField(
        required=False,
        min_value=-MAX_INTEGER,
        max_value=MAX_INTEGER,
        help_text=ScheduledEffect._meta.get_field("at_most").help_text,
    )
    at_least = forms.IntegerField(
        required=False,
        min_value=-MAX_INTEGER,
        max_value=MAX_INTEGER,
        help_text=ScheduledEffect._meta.get_field("at_least").help_text,
    )
    weekday = forms.TypedChoiceField(
        choices=[("", "Every day"), *ScheduledEffect.WEEKDAY_CHOICES],
        required=False,
        coerce=int,
        empty_value=None,
        label="Day",
    )
    hour = forms.IntegerField(min_value=0, max_value=23, initial=0, help_text="UTC hour, 0–23.")
    minute = forms.IntegerField(min_value=0, max_value=59, initial=0, help_text="UTC minute, 0–59.")
    starts_at = MomentField(
        required=False,
        label="Starts at (UTC)",
        help_text="Empty: now. Occurrences before this moment never apply.",
    )
    enabled = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args, dynasty, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["column"].queryset = Column.objects.in_use().filter(dynasty=dynasty, kind=Column.INTEGER)
        self.fields["row"].queryset = Row.objects.in_use().filter(dynasty=dynasty)

    @classmethod
    def for_effect(cls, effect: ScheduledEffect, data=None) -> EffectForm:
        initial = {field: getattr(effect, field) for field in cls.base_fields}
        return cls(data, initial=initial, dynasty=effect.dynasty)


class ListForm(forms.Form):
    THIS_DYNASTY = "dynasty"
    WHOLE_GAME = "game"

    name = forms.CharField(max_length=30, help_text="The token players type, such as FRUIT.")
    entries = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One per line, or separated by commas.",
    )
    scope = forms.ChoiceField(
        choices=[(THIS_DYNASTY, "This dynasty only"), (WHOLE_GAME, "The whole game")], initial=THIS_DYNASTY
    )
    note = forms.CharField(
        required=False, max_length=300, help_text="Why: the proposal that changed the list, for example."
    )
    remove = forms.BooleanField(required=False, label="Remove this list (the token stops drawing)")

    def clean_name(self) -> str:
        return re.sub(r"\s+", "", self.cleaned_data["name"]).upper()


class VariableForm(forms.Form):
    """A game variable for the sidebar: a GNDT cell (a row and a column) or the phase of the calendar."""

    label = forms.CharField(max_length=60, help_text=GameVariable._meta.get_field("label").help_text)
    row = NumberedChoiceField(queryset=Row.objects.none(), required=False, help_text="For a GNDT cell.")
    column = NumberedChoiceField(queryset=Column.objects.none(), required=False, help_text="For a GNDT cell.")
    phase_rule = forms.ChoiceField(
        choices=GameVariable._meta.get_field("phase_rule").choices,
        required=False,
        label="Or the phase",
        help_text="day-parity: Daytime on even-numbered days of the month (UTC), Nighttime on odd ones.",
    )
    proposal = forms.CharField(
        max_length=200,
        required=False,
        help_text="The id (slug) of the enacted proposal that made it gamestate, if one did.",
    )

    def __init__(self, *args, dynasty=None, viewer=None, **kwargs):
        super().__init__(*args, **kwargs)
        if dynasty is not None:
            self.fields["row"].queryset = Row.objects.in_use().filter(dynasty=dynasty)
            self.fields["column"].queryset = Column.objects.in_use().filter(dynasty=dynasty).visible_to(viewer, dynasty)
