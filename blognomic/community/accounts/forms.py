"""The account page's form: a new address, confirmed with the account's password."""

from django import forms

from blognomic.community.accounts.addresses import AddressError, address_shape

WRONG_PASSWORD = "That is not your current password."


class AddressForm(forms.Form):
    email = forms.CharField(
        label="Email address",
        help_text="Seen by no one else. A link is mailed to it; nothing else is sent there until you follow the link.",
    )
    password = forms.CharField(label="Your current password", widget=forms.PasswordInput, strip=False)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_email(self) -> str:
        try:
            return address_shape(self.cleaned_data["email"])
        except AddressError as error:
            raise forms.ValidationError(str(error)) from None

    def clean_password(self) -> str:
        if not self.user.check_password(self.cleaned_data["password"]):
            raise forms.ValidationError(WRONG_PASSWORD)
        return self.cleaned_data["password"]
