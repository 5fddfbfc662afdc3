"""The messages pages: inbox, sent, a conversation with its reply form, and composing a new one."""

from __future__ import annotations

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.db.models.functions import Lower
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from blognomic.community.messaging import selectors
from blognomic.community.messaging.models import Conversation
from blognomic.community.messaging.services import MessageError, conversation_mark_read, message_reply, message_send
from dynasties.models import User
from dynasties.privacy import personal_page


@personal_page
@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    return render(request, "messaging/inbox.html", {"conversations": selectors.inbox(request.user)})


@personal_page
@login_required
def sent(request: HttpRequest) -> HttpResponse:
    return render(request, "messaging/sent.html", {"sent": selectors.sent(request.user)})


@personal_page
@login_required
def compose(request: HttpRequest) -> HttpResponse:
    typed = {"to": request.GET.get("to", ""), "subject": "", "body": ""}
    error = ""
    if request.method == "POST":
        typed = {key: request.POST.get(key, "") for key in ("to", "subject", "body")}
        try:
            conversation = message_send(
                sender=request.user,
                recipients=typed["to"].split(","),
                subject=typed["subject"],
                body=typed["body"],
                now=timezone.now(),
            )
        except MessageError as refusal:
            error = str(refusal)
        else:
            flash.success(request, "Your message was sent.")
            return redirect(conversation)
    players = (
        User.objects.players()
        .exclude(pk=request.user.pk)
        .order_by(Lower("username"), "username")
        .values_list("username", flat=True)
    )
    return render(
        request,
        "messaging/compose.html",
        {"typed": typed, "error": error, "players": list(players)},
        status=400 if error else 200,
    )


@personal_page
@login_required
def thread(request: HttpRequest, pk: int) -> HttpResponse:
    conversation = get_object_or_404(Conversation, pk=pk)
    if not conversation.participants.filter(user=request.user).exists():
        raise Http404("No such conversation.")
    error, typed = "", ""
    if request.method == "POST":
        typed = request.POST.get("body", "")
        try:
            message_reply(conversation=conversation, sender=request.user, body=typed, now=timezone.now())
        except MessageError as refusal:
            error = str(refusal)
        else:
            return redirect(f"{conversation.get_absolute_url()}#latest")
    else:
        conversation_mark_read(conversation=conversation, user=request.user, now=timezone.now())
    names = [p.user.username for p in conversation.participants.select_related("user")]
    return render(
        request,
        "messaging/thread.html",
        {
            "conversation": conversation,
            "messages_in_thread": selectors.thread(conversation),
            "names": names,
            "error": error,
            "typed": typed,
        },
        status=400 if error else 200,
    )
