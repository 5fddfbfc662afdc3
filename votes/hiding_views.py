"""The admin panel's page of posts hidden from the site, and hiding or showing one from its page."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from votes.hiding import ONLY_ADMINS_HIDE, HidingError, post_hide, post_unhide
from votes.models import Post
from votes.requests import admin_of


def hidden_posts(request: HttpRequest) -> HttpResponse:
    admin_of(request, ONLY_ADMINS_HIDE)
    posts = Post.objects.hidden().for_listing().select_related("hidden_by").order_by("-hidden_at", "-pk")
    return render(request, "votes/hidden_posts.html", {"posts": posts})


@require_POST
def hide(request: HttpRequest, slug: str) -> HttpResponse:
    admin = admin_of(request, ONLY_ADMINS_HIDE)
    post = get_object_or_404(Post, slug=slug)
    try:
        post_hide(post=post, admin=admin, at=timezone.now())
    except HidingError as error:
        messages.error(request, str(error))
        return redirect(post.get_absolute_url())
    messages.success(request, f"“{post.title}” is hidden from the site; it is listed here to show again.")
    return redirect("hidden_posts")


@require_POST
def unhide(request: HttpRequest, slug: str) -> HttpResponse:
    admin = admin_of(request, ONLY_ADMINS_HIDE)
    post = get_object_or_404(Post, slug=slug)
    try:
        post_unhide(post=post, admin=admin)
    except HidingError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"“{post.title}” is shown on the site again.")
    return redirect("hidden_posts")
