"""The admins' form for game variables on the GNDT's manage page (``gndt.services.variables``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from gndt.forms import VariableForm
from gndt.services.common import GndtError
from gndt.services.variables import gndt_variable_add
from gndt.views import _manageable, _render_manage
from votes.models import Post
from votes.requests import GameRequest

NO_SUCH_POST = "No post with id “{slug}”."


@require_POST
def gndt_variable_new(request: GameRequest) -> HttpResponse:
    admin, dynasty = _manageable(request)
    form = VariableForm(request.POST, dynasty=dynasty, viewer=request.user)
    if form.is_valid():
        data = form.cleaned_data
        slug = data["proposal"].strip()
        proposal = Post.objects.filter(slug=slug).first() if slug else None
        try:
            if slug and proposal is None:
                raise GndtError(NO_SUCH_POST.format(slug=slug))
            variable = gndt_variable_add(
                dynasty=dynasty,
                by=admin,
                now=timezone.now(),
                label=data["label"],
                row=data["row"],
                column=data["column"],
                phase_rule=data["phase_rule"],
                proposal=proposal,
            )
        except GndtError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"The sidebar now shows {variable.label}.")
            return redirect("gndt_manage")
    return _render_manage(request, dynasty, variable_form=form, status=400)
