"""Joining the game, the admins' roster page, idling, leaving and renames, and the core rules page."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from blognomic.flows.roster import services
from blognomic.flows.roster.forms import ApplicationForm, RenameForm
from blognomic.web.addresses import client_address
from dynasties.models import Application, Game, RuleChange, User
from dynasties.profiles import ADJUSTABLE, get_profile
from dynasties.redirects import next_path
from votes.matter_kind_services import KindError, dynastic_matters, matter_effect_retire, matter_kind_retire
from votes.models import MatterEffect, MatterKind, Post
from votes.requests import GameRequest, SignedInRequest, admin_of
from votes.state import game_state


def join(request: GameRequest) -> HttpResponse:
    form = ApplicationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.application_submit(
                name=form.cleaned_data["name"],
                password=form.cleaned_data["password"],
                message=form.cleaned_data["message"],
                ip_address=client_address(request),
                now=timezone.now(),
                email=form.cleaned_data["email"],
            )
        except services.RosterError as error:
            form.add_error(None, str(error))
        else:
            # Redirect after the POST, so reloading the confirmation does not send the application again.
            request.session["application_sent"] = form.cleaned_data["name"]
            return redirect("join_sent")
    return render(request, "dynasties/join.html", {"form": form}, status=400 if request.method == "POST" else 200)


def join_sent(request: GameRequest) -> HttpResponse:
    name = request.session.get("application_sent")
    if not name:
        return redirect("join")
    return render(request, "dynasties/join_sent.html", {"name": name})


ONLY_ADMINS = "Only admins may manage the roster."


def roster(request: GameRequest) -> HttpResponse:
    admin_of(request, ONLY_ADMINS)
    now = timezone.now()
    request.game_state = game_state(now)
    return render(
        request,
        "dynasties/roster.html",
        {
            "applications": Application.objects.filter(status=Application.PENDING).order_by("submitted_at"),
            "candidates": services.idle_candidates(now=now),
            "rename_form": RenameForm(),
        },
    )


def _acted(request: GameRequest, action, success: str, redirect_to: str) -> HttpResponse:
    try:
        action()
    except services.RosterError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, success)
    return redirect(redirect_to)


@require_POST
def application_decide(request: GameRequest, pk: int) -> HttpResponse:
    admin = admin_of(request, ONLY_ADMINS)
    application = get_object_or_404(Application, pk=pk)
    if request.POST.get("decision") == "approve":
        return _acted(
            request,
            lambda: services.application_approve(application=application, admin=admin, now=timezone.now()),
            f"{application.name} is now a player.",
            "roster",
        )
    return _acted(
        request,
        lambda: services.application_reject(application=application, admin=admin, now=timezone.now()),
        f"The application from {application.name} was rejected.",
        "roster",
    )


@require_POST
@login_required
def idle(request: SignedInRequest, name: str) -> HttpResponse:
    user = get_object_or_404(User, username=name)
    return _acted(
        request,
        lambda: services.player_idle(user=user, by=request.user, now=timezone.now()),
        f"{user} is now idle.",
        next_path(request, fallback=user.get_absolute_url()),
    )


@require_POST
def idle_many(request: GameRequest) -> HttpResponse:
    """Idle the players checked on the roster: first a page that names them and asks to confirm, then one
    action for all of them."""
    admin = admin_of(request, ONLY_ADMINS)
    chosen = list(User.objects.filter(username__in=request.POST.getlist("players")).order_by("username"))
    if not chosen:
        messages.error(request, services.NOBODY_CHOSEN)
        return redirect("roster")
    if request.POST.get("confirm") != "yes":
        return render(request, "dynasties/idle_many_confirm.html", {"chosen": chosen})
    return _acted(
        request,
        lambda: services.players_idle(users=chosen, by=admin, now=timezone.now()),
        f"{len(chosen)} players are now idle.",
        "roster",
    )


@require_POST
@login_required
def unidle(request: SignedInRequest, name: str) -> HttpResponse:
    user = get_object_or_404(User, username=name)
    return _acted(
        request,
        lambda: services.player_unidle(user=user, by=request.user, now=timezone.now()),
        f"{user} is active again.",
        next_path(request, fallback=user.get_absolute_url()),
    )


@require_POST
def set_admin(request: GameRequest, name: str) -> HttpResponse:
    admin = admin_of(request, ONLY_ADMINS)
    user = get_object_or_404(User, username=name)
    make_admin = request.POST.get("admin") == "yes"
    return _acted(
        request,
        lambda: services.player_set_admin(user=user, is_admin=make_admin, by=admin, now=timezone.now()),
        f"{user} is {'now' if make_admin else 'no longer'} an admin.",
        "roster",
    )


@require_POST
@login_required
def leave(request: SignedInRequest) -> HttpResponse:
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm that you want to leave the game.")
        return redirect(request.user.get_absolute_url())
    return _acted(
        request,
        lambda: services.player_leave(user=request.user, now=timezone.now()),
        "You have left the game.",
        request.user.get_absolute_url(),
    )


@require_POST
def rename(request: GameRequest, name: str) -> HttpResponse:
    admin = admin_of(request, ONLY_ADMINS)
    user = get_object_or_404(User, username=name)
    form = RenameForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the new name and the enacted Proposal that allowed it.")
        return redirect("roster")
    proposal = Post.objects.filter(slug=form.cleaned_data["proposal"]).first()
    if proposal is None:
        messages.error(request, f"No post with id {form.cleaned_data['proposal']!r}.")
        return redirect("roster")
    old = user.username
    return _acted(
        request,
        lambda: services.player_rename(
            user=user, new_name=form.cleaned_data["new_name"], admin=admin, proposal=proposal, now=timezone.now()
        ),
        f"{old} is now called {form.cleaned_data['new_name']}.",
        "roster",
    )


def _retire_dynastic_rule(request: GameRequest, admin: User, proposal: Post, now: datetime) -> None:
    """Remove one of the dynasty's kinds of matter or effects of resolving, as an enacted Proposal says."""
    wants_kind = "retire_kind" in request.POST
    pk = parse_id(request.POST.get("retire_kind" if wants_kind else "retire_effect", ""))
    target: MatterKind | MatterEffect | None = None
    if pk is not None and wants_kind:
        target = MatterKind.objects.filter(pk=pk).first()
    elif pk is not None:
        target = MatterEffect.objects.filter(pk=pk).first()
    if target is None:
        messages.error(request, "There is no such kind of matter or effect; nothing was changed.")
        return
    try:
        if isinstance(target, MatterKind):
            matter_kind_retire(kind=target, admin=admin, proposal=proposal, now=now)
        else:
            matter_effect_retire(effect=target, admin=admin, proposal=proposal, now=now)
    except KindError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"“{target}” was removed.")


def parse_id(raw: str) -> int | None:
    raw = raw.strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else None


def core_rules(request: GameRequest) -> HttpResponse:
    """The parameters of the core rules in force, which enacted proposals changed, and (for admins) a form."""
    now = timezone.now()
    request.game_state = state = game_state(now)
    if request.method == "POST":
        admin = admin_of(request, ONLY_ADMINS)
        proposal = Post.objects.filter(slug=request.POST.get("proposal", "").strip()).first()
        if proposal is None:
            messages.error(request, "Give the id of the enacted Proposal that changed the rule.")
        elif "retire_kind" in request.POST or "retire_effect" in request.POST:
            _retire_dynastic_rule(request, admin, proposal, now)
        else:
            _acted(
                request,
                lambda: services.rule_change_record(
                    parameter=request.POST.get("parameter", ""),
                    raw_value=request.POST.get("value", ""),
                    proposal=proposal,
                    admin=admin,
                    now=now,
                ),
                "The core rules were changed.",
                "core_rules",
            )
        return redirect("core_rules")
    game: Game = state.game
    base, current = get_profile(game.profile), game.rules_profile()
    changes = {c.parameter: c for c in RuleChange.objects.select_related("proposal", "by").order_by("at", "pk")}
    rows = [
        {
            "name": name,
            "label": label,
            "base": getattr(base, name),
            "current": getattr(current, name),
            "change": changes.get(name),
        }
        for name, (_, _, label) in ADJUSTABLE.items()
    ]
    history = RuleChange.objects.select_related("proposal", "by").order_by("-at", "-pk")[:50]
    return render(
        request,
        "dynasties/core_rules.html",
        {"rows": rows, "history": history, "profile": game, **dynastic_matters(state.dynasty)},
    )
