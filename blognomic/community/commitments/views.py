"""The seals page: every seal with its digest; sealing a new text; revealing one's own."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from blognomic.community.commitments.models import Seal
from blognomic.community.commitments.services import ONLY_OWNER, SealError, seal_create, seal_reveal


def seal_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(Seal.objects.select_related("owner"), 50).get_page(request.GET.get("page"))
    return render(request, "commitments/seals.html", {"page": page})


@login_required
def seal_new(request: HttpRequest) -> HttpResponse:
    error, typed = "", {"title": "", "text": ""}
    if request.method == "POST":
        typed = {"title": request.POST.get("title", ""), "text": request.POST.get("text", "")}
        try:
            seal = seal_create(owner=request.user, title=typed["title"], text=typed["text"], now=timezone.now())
        except SealError as refusal:
            error = str(refusal)
        else:
            messages.success(request, "Sealed. Keep your text exactly as written: you will need it to reveal.")
            return redirect(f"/seals/#seal-{seal.pk}")
    return render(request, "commitments/seal_new.html", {"error": error, "typed": typed}, status=400 if error else 200)


@login_required
def seal_reveal_view(request: HttpRequest, pk: int) -> HttpResponse:
    seal = get_object_or_404(Seal.objects.select_related("owner"), pk=pk)
    if seal.owner_id != request.user.pk:
        raise PermissionDenied(ONLY_OWNER.format(owner=seal.owner.username))
    error, typed = "", ""
    if request.method == "POST":
        typed = request.POST.get("text", "")
        try:
            seal_reveal(seal=seal, by=request.user, text=typed, now=timezone.now())
        except SealError as refusal:
            error = str(refusal)
        else:
            messages.success(request, "Revealed and verified against the digest.")
            return redirect(f"/seals/#seal-{seal.pk}")
    return render(
        request,
        "commitments/seal_reveal.html",
        {"seal": seal, "error": error, "typed": typed},
        status=400 if error else 200,
    )
