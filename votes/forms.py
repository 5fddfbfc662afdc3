"""Forms for commenting and voting, posting, and resolving."""

from django import forms

from votes.models import MAX_BODY_BYTES, Kind


class CommentForm(forms.Form):
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "Comment (optional with a voting icon)"}),
        required=False,
    )
    icon = forms.ChoiceField(
        choices=[
            ("", "No icon"),
            ("for", "FOR"),
            ("against", "AGAINST"),
            ("deferential", "DEFERENTIAL"),
            ("veto", "VETO"),
        ],
        required=False,
    )
    trivial = forms.BooleanField(required=False, label="Mark my FOR vote Trivial")

    def clean_text(self) -> str:
        text = self.cleaned_data["text"]
        if len(text.encode("utf-8")) > MAX_BODY_BYTES:
            raise forms.ValidationError("A comment may be at most 100 KB.")
        return text


class PostForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[(value, label) for value, label in Kind.choices if value != Kind.ASCENSION],
        label="Category",
        help_text="Which rules the post is held to: the limits on Proposals, and who votes on what and how long.",
    )
    title = forms.CharField(
        max_length=300, help_text="For example “Proposal: Quorum Failures”. The part after the colon is the subject."
    )
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 12}), required=False, help_text="Markdown.")
    flavour = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label="Flavour text",
        help_text="Shown with the post but not part of it.",
    )
    trivial = forms.BooleanField(
        required=False, label="Trivial", help_text="A Trivial proposal counts half against the proposal limits."
    )
    anonymous = forms.BooleanField(
        required=False, label="Post anonymously", help_text="A Call for Judgement may hide its author."
    )

    def __init__(self, *args, profile=None, matter_kinds=(), **kwargs):
        super().__init__(*args, **kwargs)
        # The category of votable matters only when the dynasty's rules define kinds of their own.
        if matter_kinds:
            self.fields["kind"].choices = [
                (value, f"{label} ({', '.join(matter_kinds)})" if value == Kind.MATTER else label)
                for value, label in self.fields["kind"].choices
            ]
        else:
            self.fields["kind"].choices = [c for c in self.fields["kind"].choices if c[0] != Kind.MATTER]
        # Only the fields the game's rules profile gives a meaning to.
        if profile is not None and not profile.trivial_proposals:
            del self.fields["trivial"]
        if profile is not None and not profile.cfj_anonymous:
            del self.fields["anonymous"]

    def clean_body(self) -> str:
        body = self.cleaned_data["body"]
        if len(body.encode("utf-8")) > MAX_BODY_BYTES:
            raise forms.ValidationError("A post may be at most 100 KB.")
        return body


class ReopenForm(forms.Form):
    reason = forms.CharField(max_length=500, help_text="For example the Call for Judgement that overturned it.")
