"""Joining the game, the admins' roster page, idling and leaving, and the dynasties' history."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from dynasties import services
from dynasties.forms import ApplicationForm, RenameForm
from dynasties.models import Application, Dynasty, User
from dynasties.selectors import game_state
from votes.models import Post


def join(request: HttpRequest) -> HttpResponse:
    form = ApplicationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.application_submit(
                name=form.cleaned_data["name"], password=form.cleaned_data["password"],
                message=form.cleaned_data["message"], ip_address=request.META.get("REMOTE_ADDR"),
                now=timezone.now(),
            )
        except services.RosterError as error:
            form.add_error(None, str(error))
        else:
            return render(request, "dynasties/join_sent.html", {"name": form.cleaned_data["name"]})
    return render(request, "dynasties/join.html", {"form": form}, status=400 if request.method == "POST" else 200)


def _require_admin(request: HttpRequest) -> None:
    if not (request.user.is_authenticated and request.user.is_admin):
        raise PermissionDenied("Only admins may manage the roster.")


def roster(request: HttpRequest) -> HttpResponse:
    _require_admin(request)
    now = timezone.now()
    request.game_state = game_state(now)
    return render(request, "dynasties/roster.html", {
        "applications": Application.objects.filter(status=Application.PENDING).order_by("submitted_at"),
        "candidates": services.idle_candidates(now=now),
        "rename_form": RenameForm(),
    })


def _acted(request: HttpRequest, action, success: str, redirect_to: str) -> HttpResponse:
    try:
        action()
    except services.RosterError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, success)
    return redirect(redirect_to)


@require_POST
def application_decide(request: HttpRequest, pk: int) -> HttpResponse:
    _require_admin(request)
    application = get_object_or_404(Application, pk=pk)
    if request.POST.get("decision") == "approve":
        return _acted(request, lambda: services.application_approve(
            application=application, admin=request.user, now=timezone.now()),
            f"{application.name} is now a player.", "roster")
    return _acted(request, lambda: services.application_reject(
        application=application, admin=request.user, now=timezone.now()),
        f"The application from {application.name} was rejected.", "roster")


@require_POST
@login_required
def idle(request: HttpRequest, name: str) -> HttpResponse:
    user = get_object_or_404(User, username=name)
    return _acted(request, lambda: services.player_idle(user=user, by=request.user, now=timezone.now()),
                  f"{user} is now idle.", user.get_absolute_url())


@require_POST
@login_required
def unidle(request: HttpRequest, name: str) -> HttpResponse:
    user = get_object_or_404(User, username=name)
    return _acted(request, lambda: services.player_unidle(user=user, by=request.user, now=timezone.now()),
                  f"{user} is active again.", user.get_absolute_url())


@require_POST
def set_admin(request: HttpRequest, name: str) -> HttpResponse:
    _require_admin(request)
    user = get_object_or_404(User, username=name)
    make_admin = request.POST.get("admin") == "yes"
    return _acted(request, lambda: services.player_set_admin(user=user, is_admin=make_admin, by=request.user,
                                                             now=timezone.now()),
                  f"{user} is {'now' if make_admin else 'no longer'} an admin.", "roster")


@require_POST
@login_required
def leave(request: HttpRequest) -> HttpResponse:
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm that you want to leave the game.")
        return redirect(request.user.get_absolute_url())
    return _acted(request, lambda: services.player_leave(user=request.user, now=timezone.now()),
                  "You have left the game.", request.user.get_absolute_url())


@require_POST
def rename(request: HttpRequest, name: str) -> HttpResponse:
    _require_admin(request)
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
    return _acted(request, lambda: services.player_rename(
        user=user, new_name=form.cleaned_data["new_name"], admin=request.user, proposal=proposal,
        now=timezone.now()), f"{old} is now called {form.cleaned_data['new_name']}.", "roster")


def dynasty_list(request: HttpRequest) -> HttpResponse:
    dynasties = list(reversed(Dynasty.objects.with_ordinals()))
    return render(request, "dynasties/dynasty_list.html", {"dynasties": dynasties})


def dynasty_detail(request: HttpRequest, number: int) -> HttpResponse:
    from dynasties.selectors import dynasty_history

    dynasty = get_object_or_404(Dynasty.objects.select_related("emperor", "ascension_address", "declaration"),
                                number=number)
    return render(request, "dynasties/dynasty_detail.html", {"dynasty": dynasty, **dynasty_history(dynasty)})


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """The user's notices, newest first; opening the page marks them read."""
    notices = list(request.user.notifications.all()[:100])
    request.user.notifications.filter(read_at__isnull=True).update(read_at=timezone.now())
    return render(request, "dynasties/notifications.html", {"notices": notices, "unread_notifications": 0})


def _ascension_choices(dynasty: Dynasty):
    from gndt.models import Column
    from ruleset.models import Page
    from ruleset.structure import parse_ruleset

    page = Page.objects.filter(slug="ruleset").select_related("current").first()
    rules = []
    if page is not None and page.current is not None:
        for section in parse_ruleset(page.current.text).sections:
            if section.title.lower().startswith("dynastic"):
                rules = list(section.rules)
    previous = Dynasty.objects.filter(number__lt=dynasty.number).order_by("-number").first()
    columns = list(Column.objects.filter(dynasty=previous).values_list("name", flat=True)) if previous else []
    return rules, columns


@login_required
def ascension(request: HttpRequest) -> HttpResponse:
    """The new Emperor's page: pass the role on, or post the Ascension Address."""
    from dynasties.forms import AscensionForm, HandOverForm
    from dynasties.succession import SuccessionError, ascension_address_post, emperor_hand_over

    now = timezone.now()
    request.game_state = state = game_state(now)
    dynasty = state.dynasty
    if dynasty is None or not dynasty.awaiting_ascension:
        return render(request, "error.html", {"message": "No new dynasty is waiting for an Ascension Address."},
                      status=404)
    rules, columns = _ascension_choices(dynasty)
    initial = {"player_term": dynasty.player_term, "emperor_term": dynasty.emperor_term,
               "keep_columns": columns}
    form = AscensionForm(request.POST if request.POST.get("step") == "ascend" else None, initial=initial,
                         rules=rules, columns=columns)
    hand_over = HandOverForm(request.POST if request.POST.get("step") == "hand-over" else None)
    if request.method == "POST" and request.POST.get("step") == "hand-over" and hand_over.is_valid():
        target = User.objects.filter(username=hand_over.cleaned_data["to"]).first()
        try:
            if target is None:
                raise SuccessionError(f"No player called {hand_over.cleaned_data['to']!r}.")
            emperor_hand_over(dynasty=dynasty, by=request.user, to=target, now=now)
        except SuccessionError as error:
            hand_over.add_error(None, str(error))
        else:
            messages.success(request, f"{target} is now the {dynasty.emperor_term}.")
            return redirect("ascension")
    if request.method == "POST" and request.POST.get("step") == "ascend" and form.is_valid():
        data = form.cleaned_data
        try:
            post = ascension_address_post(
                author=request.user, title=data["title"], body=data["body"], theme=data["theme"],
                player_term=data["player_term"], emperor_term=data["emperor_term"],
                keep_rules=data["keep_rules"], keep_columns=data["keep_columns"],
                extra_renames=data["extra_renames"], now=now,
            )
        except SuccessionError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "The new dynasty has begun.")
            return redirect(post)
    status = 400 if request.method == "POST" else 200
    return render(request, "dynasties/ascension.html",
                  {"form": form, "hand_over": hand_over, "dynasty": dynasty,
                   "is_emperor": request.user.pk == dynasty.emperor_id}, status=status)


def core_rules(request: HttpRequest) -> HttpResponse:
    """The parameters of the core rules in force, which enacted proposals changed, and (for admins) a form."""
    from dynasties.models import Game, RuleChange
    from votes.profiles import ADJUSTABLE, get_profile

    now = timezone.now()
    request.game_state = state = game_state(now)
    if request.method == "POST":
        _require_admin(request)
        proposal = Post.objects.filter(slug=request.POST.get("proposal", "").strip()).first()
        if proposal is None:
            messages.error(request, "Give the id of the enacted Proposal that changed the rule.")
        else:
            _acted(request, lambda: services.rule_change_record(
                parameter=request.POST.get("parameter", ""), raw_value=request.POST.get("value", ""),
                proposal=proposal, admin=request.user, now=now), "The core rules were changed.", "core_rules")
        return redirect("core_rules")
    game: Game = state.game
    base, current = get_profile(game.profile), game.rules_profile()
    changes = {c.parameter: c for c in RuleChange.objects.select_related("proposal", "by").order_by("at", "pk")}
    rows = [
        {"name": name, "label": label, "base": getattr(base, name), "current": getattr(current, name),
         "change": changes.get(name)}
        for name, (_, _, label) in ADJUSTABLE.items()
    ]
    history = RuleChange.objects.select_related("proposal", "by").order_by("-at", "-pk")[:50]
    return render(request, "dynasties/core_rules.html", {"rows": rows, "history": history, "profile": game})
