"""The account page (one's own address) and the address confirmation link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from blognomic.community.accounts.addresses import AddressError, email_change_request, email_confirm, email_remove
from blognomic.community.accounts.forms import WRONG_PASSWORD, AddressForm


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The player's own address: the confirmed one, the one waiting for confirmation, and a form to change it."""
    form = AddressForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        email_change_request(user=request.user, address=form.cleaned_data["email"], now=timezone.now())
        request.user.refresh_from_db(fields=["email", "email_pending"])
        if request.user.email_pending:
            messages.success(
                request,
                "A link to confirm the address was mailed to it. Until you follow it, nothing else is sent there.",
            )
        else:
            messages.success(request, "That address is already your confirmed one.")
        return redirect("account")
    return render(request, "accounts/account.html", {"form": form}, status=400 if request.method == "POST" else 200)


@require_POST
@login_required
def email_remove_view(request: HttpRequest) -> HttpResponse:
    if not request.user.check_password(request.POST.get("password", "")):
        messages.error(request, WRONG_PASSWORD + " Your address was kept.")
    else:
        email_remove(user=request.user)
        messages.success(request, "Your address was removed; nothing more will be mailed to you.")
    return redirect("account")


def email_confirm_view(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks (a mail scanner that follows links confirms nothing); POST confirms, logged in or not."""
    if request.method != "POST":
        return render(request, "accounts/email_confirm.html", {"token": token})
    try:
        user = email_confirm(token=token)
    except AddressError as error:
        return render(request, "accounts/email_confirm.html", {"error": str(error)}, status=400)
    return render(request, "accounts/email_confirm.html", {"confirmed": user})
