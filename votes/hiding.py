"""An admin hides a post from the site, and shows it again: an imported post that should never have been public
(spam, a test, a mistake in the old blog). Hidden, it is in no listing, feed, search, statistic or API answer
(``PostQuerySet.shown``), and its page answers 404 to everyone but admins. Nothing is deleted."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from dynasties.models import User
from votes.models import Post, Status

ONLY_ADMINS_HIDE = "Only admins may hide or show posts."
PENDING_NOT_HIDDEN = "“{title}” is pending: resolve it before hiding it, so the game never loses a matter in play."
ALREADY_HIDDEN = "“{title}” is already hidden."
NOT_HIDDEN = "“{title}” is not hidden."


class HidingError(Exception):
    """A post cannot be hidden or shown; the message says why and nothing changed."""


def post_hide(*, post: Post, admin: User, at: datetime) -> Post:
    """Hide ``post`` from the site; refused for a pending matter and for a post already hidden."""
    if not admin.is_admin:
        raise HidingError(ONLY_ADMINS_HIDE)
    with transaction.atomic():
        post = Post.objects.select_for_update().get(pk=post.pk)
        if post.status == Status.PENDING:
            raise HidingError(PENDING_NOT_HIDDEN.format(title=post.title))
        if post.hidden_at is not None:
            raise HidingError(ALREADY_HIDDEN.format(title=post.title))
        post.hidden_at, post.hidden_by = at, admin
        post.save(update_fields=["hidden_at", "hidden_by"])
        return post


def post_unhide(*, post: Post, admin: User) -> Post:
    """Show a hidden post on the site again."""
    if not admin.is_admin:
        raise HidingError(ONLY_ADMINS_HIDE)
    with transaction.atomic():
        post = Post.objects.select_for_update().get(pk=post.pk)
        if post.hidden_at is None:
            raise HidingError(NOT_HIDDEN.format(title=post.title))
        post.hidden_at, post.hidden_by = None, None
        post.save(update_fields=["hidden_at", "hidden_by"])
        return post


def may_see(post: Post, user) -> bool:
    """Whether ``user`` may open ``post``'s page: anyone while it is shown, admins alone once hidden."""
    return post.hidden_at is None or bool(getattr(user, "is_admin", False))
