"""The new Emperor's forms: the Ascension Address and handing the role on."""

from django import forms

from dynasties.theming import HEADER_LINE_MAX, PALETTES, VOTE_LABEL_MAX

# Keyed by whether the boxes start ticked: what the core rules do with a rule the Address does not name.
KEEP_RULES_HELP = {
    False: "The core rules repeal every dynastic rule the Address does not list to keep: tick each rule to keep. "
    "None is ticked at first; a rule left unticked is repealed.",
    True: "The core rules repeal only the dynastic rules the Address names: untick each rule to repeal. "
    "All are ticked at first; a rule left ticked is kept.",
}
KEEP_COLUMNS_HELP = {
    False: "The new table starts with the columns ticked, at their defaults. None is ticked at first, as no "
    "dynastic rule is: tick those the rules you keep need.",
    True: "The new table starts with the columns ticked, at their defaults. All are ticked at first, as the "
    "dynastic rules are: untick those of the rules you repeal.",
}
KEEP_ROWS_HELP = {
    False: "Rows that are not players, such as a shared pot: none is ticked at first, like the columns.",
    True: "Rows that are not players, such as a shared pot: all are ticked at first, like the columns.",
}


KEEP_FIELDS = (
    ("keep_rules", "Dynastic rules to keep", KEEP_RULES_HELP),
    ("keep_columns", "GNDT columns to keep", KEEP_COLUMNS_HELP),
    ("keep_rows", "GNDT rows to keep", KEEP_ROWS_HELP),
)


class AscensionForm(forms.Form):
    title = forms.CharField(max_length=300, required=False, help_text="Leave empty for “Ascension Address: <theme>”.")
    theme = forms.CharField(max_length=200)
    player_term = forms.CharField(
        max_length=40,
        label="Players are called",
        help_text="Replaces the current term throughout the Ruleset (plurals too).",
    )
    emperor_term = forms.CharField(max_length=40, label="The Emperor is called")
    extra_renames = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        label="Other renames",
        help_text="One per line as “Old = New”, for example a currency: “Thalers = Doubloons”.",
    )
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 8}), required=False, help_text="Markdown.")
    palette = forms.ChoiceField(
        choices=list(PALETTES.items()),
        required=False,
        label="Colour scheme",
        help_text="Every page shows it while this dynasty runs.",
    )
    header_line = forms.CharField(
        max_length=HEADER_LINE_MAX,
        required=False,
        label="Header line",
        help_text="A line under the site's name on every page.",
    )
    vote_label_for = forms.CharField(
        max_length=VOTE_LABEL_MAX,
        required=False,
        label="FOR is called",
        help_text="The tally's name for FOR votes. Empty: FOR.",
    )
    vote_label_against = forms.CharField(max_length=VOTE_LABEL_MAX, required=False, label="AGAINST is called")
    vote_label_deferential = forms.CharField(max_length=VOTE_LABEL_MAX, required=False, label="DEFERENTIAL is called")

    def __init__(self, *args, rules=(), columns=(), rows=(), repeals_unlisted: bool = True, **kwargs):
        """``repeals_unlisted``: whether the profile's core rules repeal every dynastic rule the Address does
        not list to keep (2015 on) or only those it names (2005, 2008). The boxes start as those rules would
        leave things if the Address named nothing, and the old GNDT's columns and rows follow the rules: a
        fresh start keeps none, keeping every rule keeps them all."""
        super().__init__(*args, **kwargs)
        keep = not repeals_unlisted
        choices = {
            "keep_rules": [(rule.anchor, f"{rule.number} {rule.title}") for rule in rules],
            "keep_columns": [(name, name) for name in columns],
            "keep_rows": [(name, name) for name in rows],
        }
        for name, label, help_text in KEEP_FIELDS:
            if choices[name]:  # nothing to keep, nothing to ask: an empty list is what is sent
                self.fields[name] = forms.MultipleChoiceField(
                    choices=choices[name],
                    required=False,
                    widget=forms.CheckboxSelectMultiple,
                    label=label,
                    initial=[value for value, _ in choices[name]] if keep else [],
                    help_text=help_text[keep],
                )

    def clean(self):
        cleaned = super().clean()
        for name, _, _ in KEEP_FIELDS:
            cleaned.setdefault(name, [])
        return cleaned

    def clean_extra_renames(self) -> dict[str, str]:
        renames = {}
        for number, line in enumerate(self.cleaned_data["extra_renames"].splitlines(), start=1):
            if not line.strip():
                continue
            old, sep, new = line.partition("=")
            if not sep or not old.strip() or not new.strip():
                raise forms.ValidationError(f"Line {number} should look like “Old = New”.")
            renames[old.strip()] = new.strip()
        return renames


class HandOverForm(forms.Form):
    to = forms.CharField(max_length=150, label="Pass the role to")


class DynastyStartForm(forms.Form):
    """An admin begins the current dynasty by hand after an import (``dynasty_start``)."""

    number = forms.IntegerField(min_value=1, help_text="The dynasty's number as the game counts it (after any here).")
    emperor = forms.CharField(
        max_length=150, required=False, help_text="The Emperor's name, a player here. Empty: a Metadynasty."
    )
    player_term = forms.CharField(max_length=40, initial="Player", label="Players are called")
    player_term_plural = forms.CharField(
        max_length=40, required=False, label="Plural", help_text="Leave empty to add an 's'."
    )
    emperor_term = forms.CharField(max_length=40, initial="Emperor", label="The Emperor is called")
