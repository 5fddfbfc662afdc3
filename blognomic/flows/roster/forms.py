"""Forms for joining, and for the admins' roster page."""

from django import forms
from django.contrib.auth.password_validation import validate_password

from blognomic.community.accounts.addresses import AddressError, address_shape


class ApplicationForm(forms.Form):
    name = forms.CharField(max_length=150, help_text="Your name in the game. Spaces and punctuation are fine.")
    email = forms.CharField(
        label="Email address (optional)",
        required=False,
        help_text="Seen by no one else. For the notices you choose and a forgotten password; "
        "once you are approved, a link is mailed to it to confirm it.",
    )
    password = forms.CharField(widget=forms.PasswordInput, min_length=8)
    password_again = forms.CharField(widget=forms.PasswordInput, label="Password again")
    message = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=2000,
        label="Anything the admins should know?",
    )
    website = forms.CharField(
        required=False, widget=forms.HiddenInput, help_text="Left empty by people; filled in by spam robots."
    )

    def clean_email(self) -> str:
        if not self.cleaned_data.get("email", "").strip():
            return ""
        try:
            return address_shape(self.cleaned_data["email"])
        except AddressError as error:
            raise forms.ValidationError(str(error)) from None

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", "The two passwords differ.")
        if data.get("password"):
            try:
                validate_password(data["password"])
            except forms.ValidationError as error:
                self.add_error("password", error)
        if data.get("website"):
            raise forms.ValidationError("This application looks automated and was not sent.")
        return data


class RenameForm(forms.Form):
    new_name = forms.CharField(max_length=150)
    proposal = forms.CharField(max_length=200, help_text="The id (slug) of the enacted Proposal that allowed it.")
