"""The new Emperor's forms: the Ascension Address and handing the role on."""

from django import forms

from dynasties.theming import HEADER_LINE_MAX, PALETTES, VOTE_LABEL_MAX


class AscensionForm(forms.Form):
    title = forms.CharField(max_length=300, required=False,
                            help_text="Leave empty for “Ascension Address: <theme>”.")
    theme = forms.CharField(max_length=200)
    player_term = forms.CharField(max_length=40, label="Players are called",
                                  help_text="Replaces the current term throughout the Ruleset (plurals too).")
    emperor_term = forms.CharField(max_length=40, label="The Emperor is called")
    extra_renames = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Other renames",
        help_text="One per line as “Old = New”, for example a currency: “Thalers = Doubloons”.",
    )
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 8}), required=False, help_text="Markdown.")
    palette = forms.ChoiceField(choices=list(PALETTES.items()), required=False, label="Colour scheme",
                                help_text="Every page shows it while this dynasty runs.")
    header_line = forms.CharField(max_length=HEADER_LINE_MAX, required=False, label="Header line",
                                  help_text="A line under the site's name on every page.")
    vote_label_for = forms.CharField(max_length=VOTE_LABEL_MAX, required=False, label="FOR is called",
                                     help_text="The tally's name for FOR votes. Empty: FOR.")
    vote_label_against = forms.CharField(max_length=VOTE_LABEL_MAX, required=False, label="AGAINST is called")
    vote_label_deferential = forms.CharField(max_length=VOTE_LABEL_MAX, required=False,
                                             label="DEFERENTIAL is called")

    def __init__(self, *args, rules=(), columns=(), rows=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["keep_rules"] = forms.MultipleChoiceField(
            choices=[(rule.anchor, f"{rule.number} {rule.title}") for rule in rules], required=False,
            widget=forms.CheckboxSelectMultiple, label="Dynastic rules to keep",
            help_text="Every dynastic rule not ticked is repealed.",
        )
        self.fields["keep_columns"] = forms.MultipleChoiceField(
            choices=[(name, name) for name in columns], required=False, widget=forms.CheckboxSelectMultiple,
            label="GNDT columns to keep", help_text="The new table starts with these, at their defaults.",
        )
        self.fields["keep_rows"] = forms.MultipleChoiceField(
            choices=[(name, name) for name in rows], required=False, widget=forms.CheckboxSelectMultiple,
            label="GNDT rows to keep", help_text="Rows that are not players, such as a shared pot.",
        )

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
