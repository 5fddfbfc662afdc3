"""Voting from the post page, the tally box, posting, and the admin panel for resolving matters."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from dynasties.models import Game, User
from votes.forms import CommentForm, PostForm, ReopenForm
from votes.hiding import may_see
from votes.limits import EDIT_ONLY_AUTHOR, LimitVerdict
from votes.markup import render_markdown
from votes.matter_kind_services import kinds_in_force
from votes.models import MAX_BODY_BYTES, Post
from votes.page_models import awaiting_vote, edit_verdict_for, matter_view, offer_optional_effects, pending_votes_of
from votes.posting import EditForbidden, PostError, post_edit
from votes.requests import GameRequest, SignedInRequest, admin_of
from votes.selectors import enacted_awaiting_ruleset
from votes.services import (
    VoteError,
    comment_added,
    dov_emperor_decide,
    matter_mark_carried_out,
    matter_reopen,
    matter_resolve,
)
from votes.state import GameState, game_state

NO_SUCH_POST = "There is no post at that address; nothing was saved."


def _post_or_404(slug: str) -> Post:
    # With its amendment, if any: saying whether it could be enacted with it needs no further query.
    return get_object_or_404(Post.objects.for_listing().with_comments().select_related("amendment"), slug=slug)


def _render_matter(
    request: GameRequest,
    post: Post,
    *,
    form: CommentForm,
    error: str = "",
    status: int = 200,
    state: GameState | None = None,
) -> HttpResponse:
    """The post page, or just its matter block (tally box, comments, form) for an htmx request; ``state`` is
    the game a vote just made was checked against, shown as of that moment rather than built again."""
    now = state.now if state is not None else timezone.now()
    request.game_state = state if state is not None else game_state(now)
    post = _post_or_404(post.slug)
    view = matter_view(post, state=request.game_state, now=now, viewer=request.user)
    context = {"post": post, "matter": view, "form": form, "error": error}
    if request.htmx and request.method == "POST":
        # A vote sent in place also changes the sidebar's list of what awaits the reader's vote.
        votes = pending_votes_of(state=request.game_state, viewer=request.user, now=now)
        context.update(
            refresh_awaiting=True, my_votes=votes, awaiting_vote=awaiting_vote(state=request.game_state, votes=votes)
        )
    template = "votes/_matter.html" if request.htmx else "blog/post_detail.html"
    return render(request, template, context, status=status)


@require_POST
def comment_create(request: GameRequest, slug: str) -> HttpResponse:
    post = Post.objects.filter(slug=slug).first()
    if post is None or not may_see(post, request.user):
        return render(request, "error.html", {"message": NO_SUCH_POST}, status=404)
    if not request.user.is_authenticated:
        messages.error(request, "Log in to comment or vote.")
        return redirect_to_login(post.get_absolute_url())
    form = CommentForm(request.POST)
    if not form.is_valid():
        error = " ".join(str(e) for errors in form.errors.values() for e in errors)
        return _render_matter(request, post, form=form, error=error, status=200 if request.htmx else 400)
    try:
        added = comment_added(
            post=post,
            author=request.user,
            text=form.cleaned_data["text"],
            icon=form.cleaned_data["icon"] or None,
            trivial=form.cleaned_data["trivial"],
        )
    except VoteError as error:
        return _render_matter(request, post, form=form, error=str(error), status=200 if request.htmx else 400)
    if request.htmx:
        return _render_matter(request, post, form=CommentForm(), state=added.state)
    messages.success(request, "Your comment was posted.")
    return redirect(post.get_absolute_url() + "#comments")


@require_GET
def tally_box(request: GameRequest, slug: str) -> HttpResponse:
    request.fragment_only = True  # always a fragment, even without htmx: no sidebar to fill (see the context)
    post = _post_or_404(slug)
    if not may_see(post, request.user):
        raise Http404(NO_SUCH_POST)
    now = timezone.now()
    request.game_state = game_state(now)
    view = matter_view(post, state=request.game_state, now=now, viewer=request.user)
    response = render(request, "votes/_tally.html", {"post": post, "matter": view})
    response["Vary"] = "HX-Request"
    return response


ONLY_PLAYERS_POST = "Only players may post: your account may comment but not post."


ONLY_ADMINS = "Only admins may use the admin panel."


def _admin_of(request: HttpRequest) -> User:
    return admin_of(request, ONLY_ADMINS)


def admin_panel(request: GameRequest) -> HttpResponse:
    admin = _admin_of(request)
    now = timezone.now()
    request.game_state = state = game_state(now)
    posts = {
        p.pk: p
        for p in Post.objects.for_listing()
        .with_comments()
        .select_related("amendment")
        .filter(pk__in=[p.pk for p in state.pending])
    }
    views = [matter_view(posts[p.pk], state=state, now=now, viewer=admin) for p in state.pending]
    offer_optional_effects(views, state=state, admin=admin)
    recent = Post.objects.shown().recently_resolved().for_listing()[:10]
    return render(
        request,
        "votes/admin_panel.html",
        {
            "views": views,
            "recent": recent,
            "reopen_form": ReopenForm(),
            "awaiting_ruleset": enacted_awaiting_ruleset(now=now),
        },
    )


@require_POST
def resolve(request: HttpRequest, slug: str) -> HttpResponse:
    admin = _admin_of(request)
    post = get_object_or_404(Post, slug=slug)
    apply_amendment = request.POST.get("apply_amendment") != "no"
    action = request.POST.get("action", "")
    # The optional effects ticked for this action (2005: the enacting admin's claim); the service checks them.
    chosen = request.POST.getlist(f"effect_{action}") if action in ("enact", "fail") else []
    try:
        matter_resolve(post=post, admin=admin, action=action, apply_amendment=apply_amendment, effects_chosen=chosen)
    except VoteError as error:
        messages.error(request, str(error))
    else:
        post.refresh_from_db()
        messages.success(request, f"“{post.title}”: {post.display_status}.")
    return redirect("admin_panel")


@require_POST
def reopen(request: HttpRequest, slug: str) -> HttpResponse:
    admin = _admin_of(request)
    post = get_object_or_404(Post, slug=slug)
    form = ReopenForm(request.POST)
    try:
        if not form.is_valid():
            raise VoteError("Say why the resolution is being reopened.")
        matter_reopen(post=post, admin=admin, reason=form.cleaned_data["reason"])
    except VoteError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"“{post.title}” is pending again.")
    return redirect("admin_panel")


@require_POST
def carried_out(request: HttpRequest, slug: str) -> HttpResponse:
    """An admin says an enacted matter's effects were carried out by other means: the panel stops asking."""
    admin = _admin_of(request)
    post = get_object_or_404(Post, slug=slug)
    try:
        matter_mark_carried_out(post=post, admin=admin)
    except VoteError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"“{post.title}”: its effects are recorded as carried out.")
    return redirect("admin_panel")


@login_required
def edit_post(request: SignedInRequest, slug: str) -> HttpResponse:
    """The edit form, offered only to whom the edit rules let edit the post now; a refusal says why."""
    post = get_object_or_404(Post.objects.select_related("author", "matter_kind").with_comments(), slug=slug)
    if not may_see(post, request.user):
        raise Http404(NO_SUCH_POST)
    now = timezone.now()
    verdict = edit_verdict_for(
        post, list(post.comments.all()), viewer=request.user, profile=Game.load().rules_profile(), now=now
    )
    if verdict is None:
        verdict = LimitVerdict(allowed=False, message=EDIT_ONLY_AUTHOR)
    if not verdict.allowed:
        return render(request, "votes/new_post.html", {"editing": post, "refused": verdict.message}, status=403)
    initial = {
        "kind": post.kind,
        "title": post.title,
        "body": post.body,
        "flavour": post.flavour,
        "trivial": post.trivial,
    }
    state = game_state(now)
    own_kinds = [kind.name for kind in kinds_in_force(state.dynasty) if kind.base == "matter"]
    if post.matter_kind is not None and post.kind == "matter" and post.matter_kind.name not in own_kinds:
        own_kinds.append(post.matter_kind.name)  # a kind since retired still names its own posts
    form = PostForm(request.POST or None, initial=initial, profile=state.game.rules_profile(), matter_kinds=own_kinds)
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            post_edit(
                post=post,
                editor=request.user,
                title=data["title"],
                body=data["body"],
                flavour=data["flavour"],
                kind=data["kind"],
            )
        except EditForbidden as error:
            return render(request, "votes/new_post.html", {"editing": post, "refused": str(error)}, status=403)
        except PostError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "Your changes were saved.")
            return redirect(post)
    if request.method == "POST":
        status = 400
    return render(request, "votes/new_post.html", {"form": form, "editing": post}, status=status)


@require_POST
@login_required
def emperor_decide(request: SignedInRequest, slug: str) -> HttpResponse:
    """2005: the Duke rules a Declaration of Victory legal or illegal when no clear decision was reached."""
    post = get_object_or_404(Post, slug=slug)
    legal = request.POST.get("legal") == "yes"
    try:
        dov_emperor_decide(post=post, emperor=request.user, legal=legal)
    except VoteError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"You ruled the win {'legal' if legal else 'illegal'}.")
    return redirect(post)


PREVIEW_TOO_LONG = "Too long to preview: a post or comment may be at most 100 KB."


@require_POST
def markdown_preview(request: HttpRequest) -> HttpResponse:
    """The post's body or the comment's text as saving would render it, for the forms' Preview button."""
    if not request.user.is_authenticated:
        raise PermissionDenied("Log in to preview.")
    source = request.POST.get("body", request.POST.get("text", ""))
    if len(source.encode("utf-8")) > MAX_BODY_BYTES:
        return HttpResponse(f'<p class="message error">{PREVIEW_TOO_LONG}</p>', status=400)
    html = render_markdown(source) if source.strip() else '<p class="muted">Nothing to preview yet.</p>'
    return HttpResponse(html)
