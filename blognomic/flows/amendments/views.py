"""The post form with an amendment, and reverting what an amendment applied after its matter was reopened."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from blognomic.flows.amendments.forms import AmendmentForm
from blognomic.flows.amendments.models import AmendmentApplication
from blognomic.flows.amendments.services import (
    amendment_preview,
    amendment_revert,
    post_create_with_amendment,
    ruleset_base_number,
)
from blognomic.flows.amendments.shape import AmendmentRefused
from gndt.selectors import amendment_picks
from ruleset.models import RULESET_SLUG, Revision
from votes import limits
from votes.forms import PostForm
from votes.matter_kind_services import kinds_in_force
from votes.posting import PostError
from votes.requests import GameRequest, SignedInRequest
from votes.selectors import proposal_allowance_of
from votes.state import game_state
from votes.views import ONLY_PLAYERS_POST

UNKNOWN_RULESET_BASE = (
    "The Ruleset has no revision {number} to compare the edited Ruleset with, so its changes "
    "cannot be worked out; nothing was posted. Open the form again to edit the current Ruleset."
)


def _ruleset_text(number: int | None) -> str | None:
    """The text of the Ruleset's revision ``number``; None when it has no such revision."""
    if number is None:
        return ""
    revision = Revision.objects.filter(page__slug=RULESET_SLUG, number=number).only("text").first()
    return revision.text if revision else None


def _editor_base(request: SignedInRequest) -> tuple[int | None, str, int | None]:
    """The Ruleset revision the editor was opened on (the latest when the form is new), its text, and the
    revision the form named when there is no such revision."""
    try:
        base_number = int(request.POST.get("ruleset_base") or "") if request.method == "POST" else None
    except ValueError:
        base_number = None
    if base_number is None:
        base_number = ruleset_base_number()
    base_text = _ruleset_text(base_number)
    if base_text is not None:
        return base_number, base_text, None
    # Without the text the editor was opened on no change can be worked out: the post would lose its
    # amendment and go up as prose, so it is refused instead.
    unknown_base, base_number = base_number, ruleset_base_number()
    return base_number, _ruleset_text(base_number) or "", unknown_base


@login_required
def new_post(request: SignedInRequest) -> HttpResponse:
    """Write a post; a Proposal or Call for Judgement may carry an amendment, previewed before posting.

    An account that may not post is told what would let it (applying to join) instead of getting a form; a
    player sees only the current profile's fields and how many more Proposals they may post.
    """
    now = timezone.now()
    request.game_state = state = game_state(now)
    if not request.user.is_player:
        return render(
            request,
            "votes/new_post.html",
            {"not_player": ONLY_PLAYERS_POST},
            status=403 if request.method == "POST" else 200,
        )
    profile = state.game.rules_profile()
    base_number, base_text, unknown_base = _editor_base(request)
    # The category of the dynasty's own votable matters (Petitions) is offered only when its rules define one.
    own_kinds = [kind.name for kind in kinds_in_force(state.dynasty) if kind.base == "matter"]
    post_form = PostForm(
        request.POST or None,
        initial={"kind": request.GET.get("kind", "proposal")},
        profile=profile,
        matter_kinds=own_kinds,
    )
    amend_form = AmendmentForm(
        request.POST or None,
        base_text=base_text,
        initial={"ruleset_text": base_text, "ruleset_base": base_number},
        picks=amendment_picks(state.dynasty, viewer=request.user),
    )
    preview = None
    if unknown_base is not None:
        post_form.add_error(None, UNKNOWN_RULESET_BASE.format(number=unknown_base))
    if request.method == "POST" and post_form.is_valid() and amend_form.is_valid():
        try:
            operations = amend_form.operations()
            if "preview" in request.POST:
                preview = amendment_preview(
                    operations, base_number=base_number, since=None, now=now, checked_by=request.user
                )
            else:
                post = post_create_with_amendment(
                    author=request.user,
                    operations=operations,
                    base_number=base_number,
                    now=now,
                    **post_form.cleaned_data,
                )
                messages.success(request, f"Posted “{post.title}”.")
                return redirect(post)
        except (AmendmentRefused, PostError) as error:
            post_form.add_error(None, str(error))
    status = 400 if request.method == "POST" and (post_form.errors or amend_form.errors) else 200
    return render(
        request,
        "amendments/new_post.html",
        {"form": post_form, "amend_form": amend_form, "preview": preview, **_proposals_left(request, now=now)},
        status=status,
    )


def _proposals_left(request: SignedInRequest, *, now: datetime) -> dict:
    """How many more Proposals the player may post, and why none may be posted during a hiatus."""
    state = request.game_state
    profile = state.game.rules_profile()
    allowance = proposal_allowance_of(request.user, profile=profile, now=now)
    # During a hiatus that forbids Proposals, the form says so rather than counting Proposals left today.
    hiatus = limits.hiatus_post_allowed(
        kind="proposal", profile=profile, hiatus_reason=state.hiatus.reasons if state.hiatus else None
    )
    return {"allowance": allowance, "proposals_barred": "" if hiatus.allowed else hiatus.message}


@require_POST
def revert(request: GameRequest, pk: int) -> HttpResponse:
    if not (request.user.is_authenticated and request.user.is_admin):
        raise PermissionDenied("Only admins may revert what an amendment applied.")
    application = get_object_or_404(AmendmentApplication, pk=pk)
    try:
        amendment_revert(application=application, admin=request.user, now=timezone.now())
    except AmendmentRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Reverted what “{application.post.title}” applied.")
    return redirect("admin_panel")
