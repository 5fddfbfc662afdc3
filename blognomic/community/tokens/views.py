"""The tokens on the account page (make one, see when each was last used, revoke one) and the admin panel's list
of every live token, from which an admin revokes any."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from blognomic.community.tokens.forms import TokenForm
from blognomic.community.tokens.issuing import TokenError, issue_token, may_revoke, revoke_token
from blognomic.community.tokens.models import AccessToken
from dynasties.privacy import personal_page
from votes.requests import admin_of

ONLY_ADMINS_LIST = "Only admins see every token."


@personal_page
@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    """GET lists the player's tokens; POST makes one and shows its secret on this answer alone (never stored in
    the session, never sent again)."""
    form = TokenForm(request.POST or None, user=request.user)
    issued = None
    if request.method == "POST" and form.is_valid():
        try:
            issued = issue_token(
                user=request.user,
                name=form.cleaned_data["name"],
                scopes=form.cleaned_data["scopes"],
                days=form.cleaned_data["days"],
                now=timezone.now(),
            )
        except TokenError as error:
            form.add_error(None, str(error))
        else:
            form = TokenForm(user=request.user)
    owned = AccessToken.objects.filter(user=request.user).select_related("use", "revoked_by")
    status = 400 if request.method == "POST" and issued is None else 200
    return render(
        request,
        "tokens/tokens.html",
        {"form": form, "issued": issued, "tokens": owned, "now": timezone.now()},
        status=status,
    )


@require_POST
@login_required
def revoke(request: HttpRequest, pk: int) -> HttpResponse:
    token = get_object_or_404(AccessToken.objects.select_related("user"), pk=pk)
    if not may_revoke(token, request.user):
        # Another player's token is none of this account's business: as if it did not exist.
        return render(request, "404.html", status=404)
    try:
        revoked = revoke_token(token=token, by=request.user, now=timezone.now())
    except TokenError as error:
        messages.error(request, str(error))
    else:
        if revoked:
            messages.success(request, f"The token “{token.name}” ({token.shown_id}) is revoked; it acts no more.")
        else:
            messages.info(request, f"The token “{token.name}” was already revoked.")
    if token.user_id == request.user.pk:
        return redirect("tokens")
    return redirect("all_tokens")


def all_tokens(request: HttpRequest) -> HttpResponse:
    admin_of(request, ONLY_ADMINS_LIST)
    now = timezone.now()
    live = (
        AccessToken.objects.filter(revoked_at=None, expires_at__gt=now)
        .select_related("user", "use")
        .order_by("user__username", "-created_at", "-pk")
    )
    return render(request, "tokens/all_tokens.html", {"tokens": live})
