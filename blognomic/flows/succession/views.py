"""The dynasties' pages: their list and histories, and the new Emperor's Ascension page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from blognomic.flows.succession.forms import AscensionForm, DynastyStartForm, HandOverForm
from blognomic.flows.succession.selectors import dynasty_history
from blognomic.flows.succession.services import (
    AscensionAddress,
    DynastyOpening,
    SuccessionError,
    ascension_address_post,
    dynasty_start,
    emperor_hand_over,
)
from dynasties.models import Dynasty, User
from gndt.models import Column, Row
from ruleset.models import Page
from ruleset.structure import parse_ruleset
from votes.requests import GameRequest, SignedInRequest, admin_of
from votes.state import game_state


def dynasty_list(request: GameRequest) -> HttpResponse:
    dynasties = list(reversed(Dynasty.objects.with_ordinals()))
    return render(request, "dynasties/dynasty_list.html", {"dynasties": dynasties})


def dynasty_detail(request: GameRequest, number: int) -> HttpResponse:
    dynasty = get_object_or_404(
        Dynasty.objects.select_related("emperor", "ascension_address", "declaration"), number=number
    )
    return render(request, "dynasties/dynasty_detail.html", {"dynasty": dynasty, **dynasty_history(dynasty)})


def _ascension_choices(dynasty: Dynasty):
    page = Page.objects.filter(slug="ruleset").select_related("current").first()
    rules = []
    if page is not None and page.current is not None:
        for section in parse_ruleset(page.current.text).sections:
            if section.title.lower().startswith("dynastic"):
                rules = list(section.rules)
    previous = Dynasty.objects.filter(number__lt=dynasty.number).order_by("-number").first()
    columns = list(Column.objects.filter(dynasty=previous).values_list("name", flat=True)) if previous else []
    rows = (
        list(
            Row.objects.in_use()
            .filter(dynasty=previous, user=None)
            .order_by("order", "name")
            .values_list("name", flat=True)
        )
        if previous
        else []
    )
    return rules, columns, rows


@login_required
def ascension(request: SignedInRequest) -> HttpResponse:
    """The new Emperor's page: pass the role on, or post the Ascension Address."""
    now = timezone.now()
    request.game_state = state = game_state(now)
    dynasty = state.dynasty
    if dynasty is None or not dynasty.awaiting_ascension:
        return render(
            request, "error.html", {"message": "No new dynasty is waiting for an Ascension Address."}, status=404
        )
    rules, columns, rows = _ascension_choices(dynasty)
    form = AscensionForm(
        request.POST if request.POST.get("step") == "ascend" else None,
        initial={"player_term": dynasty.player_term, "emperor_term": dynasty.emperor_term},
        rules=rules,
        columns=columns,
        rows=rows,
        repeals_unlisted=state.game.rules_profile().ascension_repeals_unlisted,
    )
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
            post = ascension_address_post(author=request.user, address=_address_from(data), now=now)
        except SuccessionError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "The new dynasty has begun.")
            return redirect(post)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "dynasties/ascension.html",
        {"form": form, "hand_over": hand_over, "dynasty": dynasty, "is_emperor": request.user.pk == dynasty.emperor_id},
        status=status,
    )


def _address_from(data: dict) -> AscensionAddress:
    """The Address as the Ascension form cleaned it."""
    return AscensionAddress(
        title=data["title"],
        body=data["body"],
        theme=data["theme"],
        player_term=data["player_term"],
        emperor_term=data["emperor_term"],
        keep_rules=data["keep_rules"],
        keep_columns=data["keep_columns"],
        keep_rows=data["keep_rows"],
        extra_renames=data["extra_renames"],
        palette=data["palette"],
        header_line=data["header_line"],
        vote_labels={
            "for": data["vote_label_for"],
            "against": data["vote_label_against"],
            "deferential": data["vote_label_deferential"],
        },
    )


ONLY_ADMINS_START_PAGE = "Only admins may begin a dynasty."
NO_SUCH_PLAYER = "There is no player called “{name}” here."


def dynasty_start_page(request: GameRequest) -> HttpResponse:
    """The admin panel's page for beginning the current dynasty by hand, after a game was imported."""
    admin = admin_of(request, ONLY_ADMINS_START_PAGE)
    running = Dynasty.objects.current()
    latest = Dynasty.objects.order_by("-number").values_list("number", flat=True).first() or 0
    form = DynastyStartForm(request.POST if request.method == "POST" else None, initial={"number": latest + 1})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        emperor = None
        if data["emperor"].strip():
            emperor = User.objects.filter(username=data["emperor"].strip()).first()
            if emperor is None:
                form.add_error("emperor", NO_SUCH_PLAYER.format(name=data["emperor"].strip()))
        if not form.errors:
            opening = DynastyOpening(
                number=data["number"],
                emperor=emperor,
                player_term=data["player_term"],
                player_term_plural=data["player_term_plural"],
                emperor_term=data["emperor_term"],
            )
            try:
                dynasty = dynasty_start(opening=opening, by=admin, at=timezone.now())
            except SuccessionError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, f"{dynasty.name} (Dynasty {dynasty.number}) has begun.")
                return redirect("dynasty_detail", number=dynasty.number)
    status = 400 if form.errors else 200
    return render(request, "dynasties/dynasty_start.html", {"form": form, "running": running}, status=status)
