"""The wiki's pages: reading, history, permalinks, diffs, time travel, rule histories and editing.

Reading needs no login. Each view gathers input, calls a selector or a service and renders; the sidebar
reuses the game state built here (``request.game_state``), which also tells whether the viewer is an
active player without another query.
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from dynasties.inputs import path_number, query_number
from dynasties.parsing import MAX_INTEGER
from ruleset import selectors
from ruleset.cached import content_html, diff_html
from ruleset.diffing import render_side_by_side_diff
from ruleset.forms import AsOfForm, NewPageForm, RevisionForm
from ruleset.lineage import fill_blame, rule_lineage, ruleset_blame
from ruleset.models import Page, Revision
from ruleset.services import (
    EditConflict,
    WikiError,
    WikiPermissionDenied,
    page_create,
    page_create_refusal,
    page_edit_refusal,
    page_set_protection,
    revision_add,
    revision_revert,
)
from ruleset.structure import parse_ruleset
from votes.requests import GameRequest
from votes.state import game_state

DIFF_VIEWS = ("inline", "side")
LATEST_ALIASES = ("latest", "current", "cur")
NOT_A_REVISION = "A revision is a number or “latest”."


def _now_and_state(request: GameRequest) -> datetime:
    now = timezone.now()
    request.game_state = game_state(now)
    return now


def _is_active(request: GameRequest) -> bool:
    user = request.user
    return user.is_authenticated and any(player.pk == user.pk for player in request.game_state.roster.active)


def _edit_refusal(request: GameRequest, page: Page, now: datetime) -> str | None:
    """Why the viewer may not edit ``page`` (None when they may); visitors are never offered an edit."""
    if not request.user.is_authenticated:
        return "Log in to edit."
    return page_edit_refusal(page=page, user=request.user, now=now, is_active=_is_active(request))


def _page_context(request: GameRequest, page: Page, now: datetime, **context) -> dict:
    refusal = _edit_refusal(request, page, now)
    return {
        "page": page,
        "can_edit": refusal is None,
        "edit_refusal": refusal,
        "latest_number": selectors.latest_number(page),
        **context,
    }


# --- reading ---------------------------------------------------------------------------------------


@require_GET
def wiki_index(request: GameRequest) -> HttpResponse:
    now = _now_and_state(request)
    can_create = (
        request.user.is_authenticated
        and page_create_refusal(kind=Page.ORDINARY, user=request.user, now=now, is_active=_is_active(request)) is None
    )
    return render(request, "ruleset/index.html", {"pages": selectors.pages_index(), "can_create": can_create})


@require_GET
def wiki_page(request: GameRequest, slug: str) -> HttpResponse:
    now = _now_and_state(request)
    page = selectors.page_for_reading(slug)
    revision = selectors.revision_by_number(page, page.current.number) if page.current else None
    html, glossary = content_html(page, revision)
    html = fill_blame(html, ruleset_blame(page) if page.is_ruleset and revision else None)
    return render(
        request,
        "ruleset/page.html",
        _page_context(
            request,
            page,
            now,
            revision=revision,
            content_html=html,
            glossary=glossary,
            tab="read",
        ),
    )


@require_GET
def wiki_revision(request: GameRequest, slug: str, number: int) -> HttpResponse:
    now = _now_and_state(request)
    page = selectors.page_for_reading(slug)
    revision = selectors.revision_by_number(page, number)
    return _render_revision(request, page, revision, now)


def _render_revision(
    request: GameRequest, page: Page, revision: Revision, now: datetime, as_of: datetime | None = None
) -> HttpResponse:
    html, glossary = content_html(page, revision)
    html = fill_blame(html, None)
    return render(
        request,
        "ruleset/revision.html",
        _page_context(
            request,
            page,
            now,
            revision=revision,
            content_html=html,
            glossary=glossary,
            as_of=as_of,
            as_of_form=AsOfForm(initial={"at": as_of or revision.at}),
            tab="history",
        ),
    )


@require_GET
def wiki_as_of(request: GameRequest, slug: str) -> HttpResponse:
    """The page as it stood at ``?at=`` (UTC): the revision that was current then."""
    now = _now_and_state(request)
    page = selectors.page_for_reading(slug)
    form = AsOfForm(request.GET or None)
    if not form.is_valid():
        status = 400 if request.GET else 200
        context = _page_context(request, page, now, form=form, tab="history")
        return render(request, "ruleset/as_of.html", context, status=status)
    moment = form.cleaned_data["at"]
    revision = selectors.revision_as_of(page, moment)
    if revision is None:
        return render(
            request,
            "ruleset/as_of.html",
            _page_context(
                request,
                page,
                now,
                form=form,
                tab="history",
                error=f"“{page.title}” did not exist yet at {moment:%Y-%m-%d %H:%M:%S} UTC.",
            ),
            status=404,
        )
    return _render_revision(request, page, revision, now, as_of=moment)


@require_GET
def wiki_history(request: GameRequest, slug: str) -> HttpResponse:
    now = _now_and_state(request)
    page = selectors.page_for_reading(slug)
    history = selectors.revision_history(page, request.GET.get("page"))
    return render(
        request,
        "ruleset/history.html",
        _page_context(
            request,
            page,
            now,
            history=history,
            protection_log=selectors.protection_log(page),
            players_url=reverse("player_detail", args=["-"]).removesuffix("-/"),
            as_of_form=AsOfForm(initial={"at": now.replace(microsecond=0)}),
            tab="history",
        ),
    )


def _revision_number(value: str, latest: int) -> int:
    if value in LATEST_ALIASES:
        return latest
    return path_number(value, message=NOT_A_REVISION)


@require_GET
def wiki_diff_form(request: GameRequest, slug: str) -> HttpResponse:
    """The history page's compare form (``?old=&new=``) sent on to the diff's own address."""
    page = selectors.page_for_reading(slug)
    old, new = request.GET.get("old", "").strip() or "1", request.GET.get("new", "").strip() or "latest"
    for value in (old, new):
        if value not in (*LATEST_ALIASES, "prev"):
            path_number(value, message=NOT_A_REVISION)
    url = reverse("wiki_diff", args=[page.slug, old, new])
    view = request.GET.get("view")
    return redirect(url + (f"?{urlencode({'view': view})}" if view in DIFF_VIEWS else ""))


@require_GET
def wiki_diff(request: GameRequest, slug: str, old: str, new: str) -> HttpResponse:
    """The changes between two revisions, inline or side by side; ``latest`` names the current one."""
    now = _now_and_state(request)
    page = selectors.page_for_reading(slug)
    latest = selectors.latest_number(page)
    new_number = _revision_number(new, latest)
    old_number = new_number - 1 if old == "prev" else _revision_number(old, latest)
    old_number, new_number = min(old_number, new_number), max(old_number, new_number)
    old_revision, new_revision = selectors.revision_pair(page, old_number, new_number)
    asked = request.GET.get("view", "")
    view = asked if asked in DIFF_VIEWS else "inline"
    adjacent = new_number == old_number + 1
    context = _page_context(
        request,
        page,
        now,
        old=old_revision,
        new=new_revision,
        view=view,
        page_url=page.get_absolute_url(),
        diff_html=diff_html(old_revision.text, new_revision.text, view),
        rule_changes=selectors.rule_changes_in(new_revision) if adjacent and page.is_ruleset else [],
        adjacent=adjacent,
        tab="history",
    )
    template = "ruleset/_diff.html" if request.htmx else "ruleset/diff.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def wiki_rule(request: GameRequest, slug: str, ref: str) -> HttpResponse:
    """A rule cited by number or name ("1.4", "Rule 1.4", "Dynasties") sent to its anchor on the page."""
    page = selectors.page_for_reading(slug)
    if not page.is_ruleset or page.current is None:
        raise Http404("Only the Ruleset has numbered rules.")
    rule = parse_ruleset(selectors.revision_by_number(page, page.current.number).text).find(ref)
    if rule is None:
        raise Http404(f"No rule “{ref}”.")
    return HttpResponseRedirect(f"{page.get_absolute_url()}#{rule.anchor}")


@require_GET
def wiki_rule_history(request: GameRequest, slug: str, anchor: str) -> HttpResponse:
    """Every revision that added, changed, renamed or removed one rule, under each title it has had."""
    now = _now_and_state(request)
    page = selectors.page_for_reading(slug)
    if not page.is_ruleset:
        raise Http404("Only the Ruleset has numbered rules.")
    lineage = rule_lineage(page, anchor, request.GET.get("page"))
    if lineage.latest is None and not lineage.unindexed:
        raise Http404("No rule with that anchor has ever been in this page.")
    if lineage.renamed_to:
        # The rule was renamed, not repealed: its whole history is under the title it has now.
        return redirect(reverse("wiki_rule_history", args=[page.slug, lineage.renamed_to]))
    return render(
        request,
        "ruleset/rule_history.html",
        _page_context(
            request,
            page,
            now,
            rule_history=lineage,
            tab="history",
        ),
    )


# --- writing ---------------------------------------------------------------------------------------


def _forbidden(request: GameRequest, message: str) -> HttpResponse:
    return render(request, "ruleset/forbidden.html", {"message": message}, status=403)


@login_required
@require_http_methods(["GET", "POST"])
def wiki_edit(request: GameRequest, slug: str) -> HttpResponse:
    """Edit a page. The form carries the revision it started from, so a later save is an edit conflict."""
    now = _now_and_state(request)
    page = selectors.page_for_reading(slug)
    refusal = _edit_refusal(request, page, now)
    if refusal:
        return _forbidden(request, refusal)
    if request.method == "GET":
        current = selectors.revision_by_number(page, page.current.number) if page.current else None
        # An admin arriving from an enactment gets the summary and the cause filled in.
        form = RevisionForm(
            initial={
                "text": current.text if current else "",
                "base": page.current.number if page.current else 0,
                "summary": request.GET.get("summary", "")[:300],
                "post": request.GET.get("post", "")[:200],
            }
        )
        return render(request, "ruleset/edit.html", _page_context(request, page, now, form=form, tab="edit"))
    form = RevisionForm(request.POST)
    if not form.is_valid():
        return render(
            request, "ruleset/edit.html", _page_context(request, page, now, form=form, tab="edit"), status=400
        )
    data = form.cleaned_data
    try:
        revision_add(
            page=page,
            author=request.user,
            text=data["text"],
            summary=data["summary"],
            now=now,
            post=data["post"],
            base_number=data["base"],
        )
    except EditConflict as conflict:
        return _render_conflict(request, page, now, form, conflict)
    except WikiError as error:
        form.add_error(None, str(error))
        return render(
            request,
            "ruleset/edit.html",
            _page_context(request, page, now, form=form, tab="edit"),
            status=403 if isinstance(error, WikiPermissionDenied) else 400,
        )
    messages.success(request, "Saved.")
    return redirect(page.get_absolute_url())


def _render_conflict(
    request: GameRequest, page: Page, now: datetime, form: RevisionForm, conflict: EditConflict
) -> HttpResponse:
    """Show the editor's text (kept in the form, now based on the latest revision) and the latest text."""
    mine = form.cleaned_data["text"].replace("\r\n", "\n")
    data = request.POST.copy()
    data["base"] = str(conflict.latest.number)
    context = _page_context(
        request,
        page,
        now,
        form=RevisionForm(data),
        tab="edit",
        conflict=conflict,
        latest=conflict.latest,
        conflict_diff=render_side_by_side_diff(conflict.latest.text, mine),
    )
    return render(request, "ruleset/edit.html", context, status=409)


@login_required
@require_http_methods(["GET", "POST"])
def wiki_new(request: GameRequest) -> HttpResponse:
    now = _now_and_state(request)
    is_active = _is_active(request)
    refusal = page_create_refusal(kind=Page.ORDINARY, user=request.user, now=now, is_active=is_active)
    if refusal:
        return _forbidden(request, refusal)
    form = NewPageForm(request.POST or None, initial={"title": request.GET.get("title", "")})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        kind_refusal = page_create_refusal(kind=data["kind"], user=request.user, now=now, is_active=is_active)
        if kind_refusal:
            form.add_error(None, kind_refusal)
        else:
            try:
                page = page_create(
                    title=data["title"],
                    kind=data["kind"],
                    author=request.user,
                    text=data["text"],
                    summary=data["summary"],
                    now=now,
                )
            except WikiError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, f"Created “{page.title}”.")
                return redirect(page.get_absolute_url())
    status = 400 if request.method == "POST" else 200
    return render(request, "ruleset/new.html", {"form": form}, status=status)


@login_required
@require_POST
def wiki_revert(request: GameRequest, slug: str, number: int) -> HttpResponse:
    """Restore an old revision's text as a new revision."""
    now = _now_and_state(request)
    page = selectors.page_for_reading(slug)
    base = query_number(request, "base", maximum=MAX_INTEGER)
    try:
        revision_revert(page=page, number=number, author=request.user, now=now, base_number=base)
    except WikiPermissionDenied as error:
        return _forbidden(request, str(error))
    except WikiError as error:
        messages.error(request, str(error))
        return redirect(reverse("wiki_revision", args=[page.slug, number]))
    messages.success(request, f"Restored revision {number} as a new revision.")
    return redirect(page.get_absolute_url())


@login_required
@require_POST
def wiki_protect(request: GameRequest, slug: str) -> HttpResponse:
    now = _now_and_state(request)
    page = selectors.page_for_reading(slug)
    protected = request.POST.get("protected") == "1"
    try:
        page_set_protection(
            page=page, protected=protected, admin=request.user, now=now, reason=request.POST.get("reason", "")
        )
    except WikiPermissionDenied as error:
        return _forbidden(request, str(error))
    except WikiError as error:
        messages.error(request, str(error))
    else:
        state = "now protected" if protected else "no longer protected"
        messages.success(request, f"“{page.title}” is {state}.")
    return redirect(reverse("wiki_history", args=[page.slug]))
