"""Django's admin for posts, comments and resolutions: for looking, and for fixing text, not for playing.

A dynasty's kinds of votable matter and effects of resolving may be defined here too: the form checks them
as the services do (citing an enacted Proposal, every column named existing) and saves through them; once
saved they are read-only, since a change is a new definition citing its own Proposal.
"""

from django import forms
from django.contrib import admin
from django.utils import timezone

from dynasties.models import Dynasty
from votes.matter_kind_services import (
    KindError,
    effect_problems,
    effect_spec_from,
    kind_problems,
    kind_spec_from,
    matter_effect_define,
    matter_kind_define,
)
from votes.models import Comment, MatterEffect, MatterKind, Post, Resolution, Status


@admin.register(Post)
class PostAdmin(admin.ModelAdmin):
    list_display = ["title", "kind", "author", "posted_at", "status", "outcome"]
    list_filter = ["kind", "status"]
    search_fields = ["title", "slug"]

    def get_readonly_fields(self, request, obj=None):
        """A post's category, author, time and state change only through the site, where the posting rules,
        the edit locks and the resolution records apply; here they are shown, not edited."""
        if obj is None:
            return ()
        return ("kind", "author", "posted_at", "status", "outcome", "admin_note", "anonymous", "trivial", "matter_kind")


admin.site.register(Comment)
admin.site.register(Resolution)

KIND_FIELDS = [
    "name",
    "base",
    "subject_rule",
    "subject_text",
    "posters",
    "posters_filter",
    "electorate",
    "electorate_filter",
    "quorum",
    "resolution",
    "verdict_hours",
    "veto",
    "veto_filter",
    "counts_towards_limits",
    "phase",
]
EFFECT_FIELDS = [
    "label",
    "core_kind",
    "matter_kind",
    "when",
    "target",
    "column",
    "amount",
    "trivial_amount",
    "optional",
    "after_hours",
    "not_if_vetoed_or_self_killed",
]


class _CitingForm(forms.ModelForm):
    """Checks a definition as its service will, so a refusal shows on the form and nothing is saved."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "proposal" in self.fields:
            self.fields["proposal"].queryset = Post.objects.filter(kind__in=("proposal", "cfj"), status=Status.ENACTED)

    def _fields(self, names):
        return {name: self.cleaned_data.get(name) for name in names}


class MatterKindForm(_CitingForm):
    class Meta:
        model = MatterKind
        fields = [*KIND_FIELDS, "proposal"]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            spec = kind_spec_from(**self._fields(KIND_FIELDS))
            dynasty = Dynasty.objects.current()
            problems = kind_problems(spec, dynasty) if dynasty else ["There is no dynasty in progress."]
        except KindError as error:
            problems = error.problems
        if problems:
            raise forms.ValidationError(problems)
        return cleaned


class MatterEffectForm(_CitingForm):
    class Meta:
        model = MatterEffect
        fields = [*EFFECT_FIELDS, "proposal"]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            spec = effect_spec_from(**self._fields(EFFECT_FIELDS))
            dynasty = Dynasty.objects.current()
            problems = effect_problems(spec, dynasty) if dynasty else ["There is no dynasty in progress."]
        except KindError as error:
            problems = error.problems
        if problems:
            raise forms.ValidationError(problems)
        return cleaned


class _DefinitionAdmin(admin.ModelAdmin):
    list_filter = ["dynasty"]

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return bool(getattr(request.user, "is_admin", False)) and super().has_add_permission(request)


@admin.register(MatterKind)
class MatterKindAdmin(_DefinitionAdmin):
    form = MatterKindForm
    list_display = [
        "name",
        "dynasty",
        "base",
        "subject_text",
        "electorate",
        "quorum",
        "resolution",
        "phase",
        "proposal",
        "retired_at",
    ]

    def save_model(self, request, obj, form, change):
        created = matter_kind_define(
            admin=request.user, proposal=form.cleaned_data["proposal"], now=_now(), **form._fields(KIND_FIELDS)
        )
        obj.pk, obj.dynasty_id, obj.by_id, obj.at = created.pk, created.dynasty_id, created.by_id, created.at


@admin.register(MatterEffect)
class MatterEffectAdmin(_DefinitionAdmin):
    form = MatterEffectForm
    list_display = [
        "label",
        "dynasty",
        "core_kind",
        "matter_kind",
        "when",
        "target",
        "column",
        "amount",
        "optional",
        "proposal",
        "retired_at",
    ]

    def save_model(self, request, obj, form, change):
        created = matter_effect_define(
            admin=request.user, proposal=form.cleaned_data["proposal"], now=_now(), **form._fields(EFFECT_FIELDS)
        )
        obj.pk, obj.dynasty_id, obj.by_id, obj.at = created.pk, created.dynasty_id, created.by_id, created.at


def _now():
    return timezone.now()
