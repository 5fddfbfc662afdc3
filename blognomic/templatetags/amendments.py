"""Amendment blocks for pages of lower layers: the post page's live diff and the admin panel's conflicts.

The post page and the admin panel belong to votes, which knows nothing of the Ruleset or the GNDT; they load
this library by name, and the blocks are drawn here, at the top.
"""

from __future__ import annotations

from django import template
from django.utils import timezone

from blognomic.flows.amendments.models import AmendmentApplication
from blognomic.flows.amendments.services import (
    amendment_preview_cached,
    amendment_preview_for,
    amendment_previews_cached,
    application_descriptions_for,
    revertible_applications,
)
from gndt.selectors import gndt_update_shown
from ruleset.models import Revision
from votes.models import Amendment

register = template.Library()


def _amendment(post) -> Amendment | None:
    try:
        return post.amendment
    except Amendment.DoesNotExist:
        return None


@register.inclusion_tag("amendments/_post_block.html", takes_context=True)
def amendment_block(context, post):
    """The post's amendment: a live diff while it is pending, what it applied once enacted; each told as the
    reader may see it (an operation on a secret they may not see is told only as a secret change)."""
    amendment = _amendment(post)
    if amendment is None:
        return {"amendment": None}
    request = context.get("request")
    viewer = getattr(request, "user", None)
    # A pending matter shows the live diff; only a resolved one may have applied its amendment.
    application = (
        None if post.is_pending else AmendmentApplication.objects.filter(post=post).order_by("-at", "-pk").first()
    )
    if application is None:
        preview = amendment_preview_for(amendment, viewer=viewer, now=timezone.now())
        return {"amendment": amendment, "post": post, "preview": preview}
    revisions = list(
        Revision.objects.filter(pk__in=application.revisions)
        .select_related("page")
        .only("id", "number", "page__slug", "page__title")
    )
    update = (application.gndt or {}).get("update")
    # The update's page answers only those who may see some of it; so does its link here.
    shown_update = update if update and gndt_update_shown(update, viewer=viewer) is not None else None
    return {
        "amendment": amendment,
        "post": post,
        "application": application,
        "revisions": revisions,
        "descriptions": application_descriptions_for(application, amendment.operations, viewer),
        "gndt_update": shown_update,
    }


@register.simple_tag
def amendment_panel_previews(views) -> dict:
    """The live previews of every pending matter's amendment in the admin panel, read together (see
    ``amendment_previews_cached``): post id → preview."""
    amendments = [amendment for amendment in (_amendment(view.post) for view in views) if amendment is not None]
    return amendment_previews_cached(amendments, now=timezone.now())


@register.inclusion_tag("amendments/_panel_block.html")
def amendment_panel(post, view, csrf_token=None, previews=None):
    """In the admin panel: whether the amendment still applies, and the choice to enact without it."""
    amendment = _amendment(post)
    if amendment is None:
        return {"amendment": None}
    preview = (previews or {}).get(post.pk) or amendment_preview_cached(amendment, now=timezone.now())
    return {"amendment": amendment, "post": post, "view": view, "csrf_token": csrf_token, "preview": preview}


@register.inclusion_tag("amendments/_reverts.html")
def amendment_reverts(csrf_token=None):
    """Amendments applied by matters that have since been reopened: offer to revert what they did."""
    return {"applications": revertible_applications(), "csrf_token": csrf_token}
