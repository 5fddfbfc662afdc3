"""The private decks' pages: every deck of the dynasty with its public checksum and the positions drawn; a
player's own deck with its order and hole cards; drawing and revealing (``gndt.services.private_decks``).

Pages that may hold a deck's order are never stored by any cache (``never_cache``).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from gndt.models import PrivateDeck
from gndt.private_decks import listed
from gndt.selectors import private_deck_view, private_decks_for
from gndt.services.common import GndtError
from gndt.services.private_decks import (
    ONLY_OWNER,
    private_deck_deal,
    private_deck_draw,
    private_deck_reveal,
)
from gndt.views import NO_TABLE_YET
from votes.requests import GameRequest, state_of

LOG_IN = "Log in to get a deck of your own."
DEALT = "Your deck for hand {hand} is shuffled. Its checksum is public; its order is yours alone."
DRAWN = "You drew position{s} {positions} of your deck (update #{pk}); your cards are below."
REVEALED = "Your deck for hand {hand} is revealed and its checksum verified."
UNKNOWN_STEP = "Choose Draw or Reveal."


@never_cache
def private_deck_list(request: GameRequest) -> HttpResponse:
    state = state_of(request)
    dynasty = state.dynasty
    if dynasty is None:
        return render(request, "gndt/decks.html", {"error": NO_TABLE_YET, "decks": []}, status=404)
    error, hand = "", request.POST.get("hand", "")
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise PermissionDenied(LOG_IN)
        try:
            deck = private_deck_deal(dynasty=dynasty, owner=request.user, hand=hand, now=timezone.now())
        except GndtError as refusal:
            error = str(refusal)
        else:
            messages.success(request, DEALT.format(hand=deck.hand))
            return redirect("private_deck", pk=deck.pk)
    may_deal = request.user.is_authenticated and request.user.username in state.roster.active_names
    return render(
        request,
        "gndt/decks.html",
        {
            "dynasty": dynasty,
            "decks": private_decks_for(dynasty, request.user),
            "error": error,
            "hand": hand,
            "may_deal": may_deal,
        },
        status=400 if error else 200,
    )


@never_cache
def private_deck_detail(request: HttpRequest, pk: int) -> HttpResponse:
    deck = get_object_or_404(PrivateDeck.objects.for_listing(), pk=pk)
    error = ""
    if request.method == "POST":
        if not request.user.is_authenticated or deck.owner_id != request.user.pk:
            raise PermissionDenied(ONLY_OWNER.format(owner=deck.owner.username))
        step, now = request.POST.get("step", ""), timezone.now()
        try:
            if step == "draw":
                update = private_deck_draw(deck=deck, by=request.user, count=request.POST.get("count", ""), now=now)
                positions = update.private_draw.positions
                messages.success(
                    request,
                    DRAWN.format(positions=listed(positions), pk=update.pk, s="s" if len(positions) > 1 else ""),
                )
            elif step == "reveal":
                private_deck_reveal(deck=deck, by=request.user, now=now)
                messages.success(request, REVEALED.format(hand=deck.hand))
            else:
                raise GndtError(UNKNOWN_STEP)
        except GndtError as refusal:
            error = str(refusal)
        else:
            return redirect("private_deck", pk=deck.pk)
    view = private_deck_view(deck, request.user)
    return render(request, "gndt/deck.html", {"view": view, "deck": deck, "error": error}, status=400 if error else 200)
