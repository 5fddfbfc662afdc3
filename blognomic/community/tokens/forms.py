"""The account page's form for a new token."""

from django import forms

from blognomic.community.tokens.issuing import EXPIRY_DAYS, NAME_LENGTH, token_problem
from blognomic.community.tokens.scopes import ADMIN, SCOPE_CHOICES


class TokenForm(forms.Form):
    name = forms.CharField(
        label="Name", max_length=NAME_LENGTH, help_text="Which program will hold it, so you know what to revoke."
    )
    scopes = forms.MultipleChoiceField(
        label="It may", choices=SCOPE_CHOICES, widget=forms.CheckboxSelectMultiple, required=False
    )
    days = forms.TypedChoiceField(
        label="Expires after",
        choices=[(days, f"{days} days") for days in EXPIRY_DAYS],
        coerce=int,
        initial=90,
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        if not user.is_admin:
            self.fields["scopes"].choices = [choice for choice in SCOPE_CHOICES if choice[0] != ADMIN]

    def clean(self):
        data = super().clean()
        if not self.errors:
            problem = token_problem(
                user=self.user, name=data["name"], scopes=data.get("scopes") or [], days=data["days"]
            )
            if problem:
                raise forms.ValidationError(problem)
        return data
