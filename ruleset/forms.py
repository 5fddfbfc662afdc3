"""Forms for editing and creating wiki pages; limits (size, titles, permissions) are for the services."""

from __future__ import annotations

import re

from django import forms

from dynasties.inputs import MomentField
from dynasties.parsing import MAX_INTEGER
from ruleset.models import Page
from votes.models import Post

_POST_ADDRESS = re.compile(r"/posts/(?P<slug>[^/]+)/?$")


class CausePostField(forms.CharField):
    """A post given by its slug or its address; cleans to the ``Post`` (or None when left empty)."""

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return None
        match = _POST_ADDRESS.search(value)
        slug = match["slug"] if match else value.strip().strip("/")
        post = Post.objects.filter(slug=slug).first()
        if post is None:
            raise forms.ValidationError(f"No post “{slug}”. Give the post's address or its slug.")
        return post


class RevisionForm(forms.Form):
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 24, "spellcheck": "true", "class": "wiki-textarea"}),
        required=False,
        strip=False,
    )
    summary = forms.CharField(
        required=False,
        max_length=300,
        label="Edit summary",
        help_text="Say what you changed and why, e.g. “Enacting Proposal: Quorum Failures”.",
    )
    post = CausePostField(
        required=False,
        label="Caused by post",
        help_text="Optional: the address or slug of the post that caused this change, such as the enacted proposal.",
    )
    base = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=MAX_INTEGER)


class NewPageForm(forms.Form):
    title = forms.CharField(required=False, strip=True)
    kind = forms.ChoiceField(
        choices=[(Page.ORDINARY, "Ordinary page"), (Page.GAMESTATE, "Gamestate (admins only)")],
        initial=Page.ORDINARY,
        help_text="Gamestate pages, such as a map or a list of chests, may be edited only by admins.",
    )
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 18, "class": "wiki-textarea"}), required=False, strip=False
    )
    summary = forms.CharField(required=False, max_length=300, label="Edit summary")


class AsOfForm(forms.Form):
    at = MomentField(label="As it stood at (UTC)")
