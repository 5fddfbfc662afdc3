"""A JSON API for other tools: posts with their tallies, the roster, the GNDT and its log, the Ruleset's
revisions and rules. Anyone may read it; it shows what a visitor sees (no secret GNDT columns, no author of an
anonymous post). Lists are paginated; each answer costs a fixed number of queries.

A player's own programs act for them with a personal access token in the ``Authorization: Bearer`` header
(made on the account page). A token presented with any request is checked, so a revoked or expired one is
refused at once, and each token's requests are counted against its budget (429 with ``Retry-After``).
"""

from __future__ import annotations

import math
from enum import StrEnum
from functools import cache

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import RequestDataTooBig
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone
from ninja import NinjaAPI, Query
from ninja.errors import AuthenticationError, HttpError, ValidationError

from blognomic.community.api import schemas
from blognomic.community.api.retries import IDEMPOTENCY_KEY, WRITES
from blognomic.community.api.writes import gndt as gndt_writes
from blognomic.community.api.writes import resolving
from blognomic.community.tokens.auth import BrowserSession, PersonalToken
from blognomic.community.tokens.models import AccessToken
from blognomic.community.tokens.scopes import READ
from blognomic.community.tokens.throttling import TokenRateThrottle
from dynasties.models import Notification
from gndt.selectors import gndt_log, gndt_table_for, log_entries
from ruleset.models import Page, Revision
from ruleset.structure import parse_ruleset
from votes.judging import judge_posts, tally_report
from votes.models import KIND_SLUGS, Comment, Kind, Post, Status
from votes.state import game_state


def anyone(request: HttpRequest) -> str:
    """Reading needs no token; this lets a request without one through (``PersonalToken`` checks any token first)."""
    return "anyone"


class BlogNomicAPI(NinjaAPI):
    def get_openapi_schema(self, *args, **kwargs):
        """Ninja lists only the schemes an operation takes; an operation that also takes no credentials at all
        (every read) says so with the empty requirement, as OpenAPI spells "optional"."""
        schema = super().get_openapi_schema(*args, **kwargs)
        problem = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        for operations in schema["paths"].values():
            for method, operation in operations.items():
                responses = operation["responses"]
                if {"PersonalToken": []} in operation.get("security", []):
                    # Any token presented is checked, and counted against its budget.
                    responses.setdefault("401", {"description": "The token does not act", **problem})
                    responses.setdefault("429", {"description": "The token's budget is spent", **problem})
                if operation.get("security") == [{"PersonalToken": []}]:
                    operation["security"].append({})
                if method.upper() in WRITES:
                    # Every write takes a key (``retries``), and may be answered as that module says.
                    operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
                    responses.setdefault("403", {"description": "Not allowed: scope, rights or CSRF", **problem})
                    responses.setdefault("413", {"description": "The body is over the site's limit", **problem})
                    responses.setdefault("400", {"description": "Bad request", **problem})
                    responses.setdefault(
                        "409", {"description": "The first request with this key is running", **problem}
                    )
                    responses.setdefault(
                        "422", {"description": "The key was first sent with another request", **problem}
                    )
        return schema


api = BlogNomicAPI(
    title="BlogNomic",
    version="1",
    urls_namespace="api",
    docs_url=None,
    description=__doc__.strip(),
    auth=[PersonalToken(), anyone],
    throttle=[TokenRateThrottle()],
)

api.add_router("", gndt_writes.router)
api.add_router("", resolving.router)

PER_PAGE = 50
BEYOND_THE_END = "Page {page} is beyond the last page ({pages})."
NO_SUCH_POST = "There is no post with id “{id}”."
NO_TABLE = "No dynasty has a GNDT yet."
NO_RULESET = "There is no Ruleset page yet."
TOO_LARGE = "The request is too large: a request's body may be at most {limit:,} bytes."
NO_SUCH_ENDPOINT = "There is no API endpoint at {path}; {root} lists what the API offers."
JSON_ONLY = "The API reads a JSON body: send it with “Content-Type: application/json”, not as a form."
KINDS = {kind.value for kind in Kind}
# What ?kind= and ?status= accept, declared as enums so the schema says so: each kind's own value, and the
# category slugs the blog's addresses use ("calls-for-judgement").
PostKind = StrEnum("PostKind", {value: value for value in sorted(KINDS | set(KIND_SLUGS))})
PostStatus = StrEnum("PostStatus", {value: value for value in (Status.PENDING, Status.ENACTED, Status.FAILED)})
REFUSED = {400: schemas.Problem}


@api.exception_handler(ValidationError)
def refuse_unreadable_input(request: HttpRequest, error: ValidationError) -> HttpResponse:
    """A parameter the API cannot read is answered like every other refusal: a 400 with one ``detail``."""
    problems = []
    for problem in error.errors:
        where = ".".join(str(part) for part in problem.get("loc", ())[1:]) or "the request"
        problems.append(f"{where}: {problem.get('msg', 'not readable')}")
    return api.create_response(request, {"detail": "; ".join(problems)}, status=400)


@api.exception_handler(RawPostDataException)
def refuse_a_form(request: HttpRequest, error: RawPostDataException) -> HttpResponse:
    """A write sent as a multipart form, whose stream the site's NUL check has already read as a form: the API
    takes JSON alone, and says so."""
    return api.create_response(request, {"detail": JSON_ONLY}, status=400)


@api.exception_handler(RequestDataTooBig)
def refuse_oversized_body(request: HttpRequest, error: RequestDataTooBig) -> HttpResponse:
    """A body over the site's limit is refused before it is read, in JSON like every other refusal."""
    detail = TOO_LARGE.format(limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    return api.create_response(request, {"detail": detail}, status=413)


@api.exception_handler(AuthenticationError)
def ask_for_a_token(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    """A 401 names the scheme the API takes (RFC 9110), and says why the token presented does not act."""
    detail = str(error) if str(error) != "Unauthorized" else "Sign in, or send a personal access token."
    response = api.create_response(request, {"detail": detail}, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


@cache
def _endpoints() -> list[dict]:
    """What the root lists, read from the API's own schema, so the two can never disagree."""
    prefix = reverse("api:api-root").rstrip("/")
    paths = api.get_openapi_schema()["paths"]
    return [
        {"path": path, "summary": operation["summary"]}
        for path, operations in paths.items()
        if path != f"{prefix}/"
        for operation in operations.values()
    ]


@api.get("/", response=schemas.Index, summary="What the API offers")
def index(request):
    return {"openapi": reverse("api:openapi-json"), "endpoints": _endpoints()}


@api.get(
    "/me",
    auth=[PersonalToken(), BrowserSession()],
    response={200: schemas.Me, 401: schemas.Problem},
    summary="Who the token or the signed-in browser acts for",
)
def me(request):
    user = request.user
    token = request.auth if isinstance(request.auth, AccessToken) else None
    return {
        "name": user.username,
        "player": user.is_player,
        "admin": user.is_admin,
        "token": None
        if token is None
        else {"name": token.name, "scopes": token.scopes, "expires_at": token.expires_at},
    }


def not_an_endpoint(request: HttpRequest, rest: str) -> HttpResponse:
    """Any other address under the API's root. With a trailing slash, as the site's pages are written, the
    endpoint without it answers; anything else is a JSON 404 pointing at the root, never an HTML page."""
    if request.path_info.endswith("/"):
        try:
            match = resolve(request.path_info.rstrip("/"))
        except Resolver404:
            match = None
        if match is not None and match.namespace == "api":
            return match.func(request, *match.args, **match.kwargs)
    root = reverse("api:api-root")
    return JsonResponse({"detail": NO_SUCH_ENDPOINT.format(path=request.path[:200], root=root)}, status=404)


def _page(queryset, page: int) -> tuple[list, dict]:
    count = queryset.count()
    pages = max(1, math.ceil(count / PER_PAGE))
    if page > pages:
        raise HttpError(404, BEYOND_THE_END.format(page=page, pages=pages))
    items = list(queryset[(page - 1) * PER_PAGE : page * PER_PAGE])
    return items, {"page": page, "pages": pages, "count": count}


def _with_comment_count(queryset):
    """Each post's number of comments, counted per post by a correlated subquery: the page of posts is chosen
    (and counted) from the posts alone, rather than after joining and grouping every comment of the archive."""
    per_post = Comment.objects.filter(post=OuterRef("pk")).order_by().values("post").annotate(n=Count("pk")).values("n")
    return queryset.annotate(comment_count=Coalesce(Subquery(per_post, output_field=IntegerField()), 0))


def _summary(post: Post, judgement=None) -> dict:
    tally = None
    if judgement is not None:
        t = judgement.tally
        tally = {
            "for": t.for_count,
            "against": t.against_count,
            "quorum": t.quorum,
            "can_enact": judgement.can_enact,
            "can_fail": judgement.can_fail,
        }
    return {
        "id": post.slug,
        "kind": post.kind,
        "title": post.title,
        "author": None if post.anonymous else post.author.username,
        "posted_at": post.posted_at,
        "status": post.status or None,
        "outcome": post.outcome or None,
        "url": post.get_absolute_url(),
        "comments": getattr(post, "comment_count", 0),
        "tally": tally,
    }


@api.get("/posts", response={200: schemas.PostList, 404: schemas.Problem, **REFUSED}, summary="Posts, newest first")
def posts(
    request,
    kind: PostKind = Query(None, description="a kind of post, or a category's slug"),
    status: PostStatus = Query(None, description="pending, enacted or failed"),
    page: int = Query(1, ge=1, le=1_000_000),
):
    queryset = Post.objects.shown().select_related("author").order_by("-posted_at", "-pk")
    if kind:
        queryset = queryset.filter(kind=KIND_SLUGS.get(kind.value, kind.value))
    if status:
        queryset = queryset.filter(status=status.value)
    items, meta = _page(_with_comment_count(queryset), page)
    now = timezone.now()
    judgements = judge_posts(items, state=game_state(now), now=now)
    return {**meta, "results": [_summary(post, judgements.get(post.pk)) for post in items]}


@api.get(
    "/posts/{post_id}",
    response={200: schemas.PostDetail, 404: schemas.Problem},
    summary="One post with its comments and, for a votable matter, its tally",
)
def post(request, post_id: str):
    found = _with_comment_count(Post.objects.shown().select_related("author").filter(slug=post_id))
    post = found.first()
    if post is None:
        raise HttpError(404, NO_SUCH_POST.format(id=post_id[:100]))
    return post_detail(post)


def post_detail(post: Post) -> dict:
    """What ``GET /api/posts/{id}`` answers for ``post``, tallied now: the writes answer with it too."""
    if not hasattr(post, "comment_count"):
        post = _with_comment_count(Post.objects.select_related("author").filter(pk=post.pk)).get()
    now = timezone.now()
    full = tally_report(post, now=now) if post.is_votable else None
    judgement = judge_posts([post], state=game_state(now), now=now).get(post.pk)
    comments = [
        {"author": c.author.username, "at": c.at, "icon": c.icon, "text": c.text}
        for c in post.comments.select_related("author").order_by("at", "pk")
    ]
    return {
        **_summary(post, judgement),
        "body": post.body,
        "flavour": post.flavour,
        "comments_list": comments,
        "full_tally": full,
    }


@api.get("/players", response=schemas.Roster, summary="The roster: every current player, quorum, the Emperor")
def players(request):
    state = game_state(timezone.now())
    emperor = state.emperor
    people = [(user, False) for user in state.roster.active] + [(user, True) for user in state.roster.idle]
    return {
        "quorum": state.quorum,
        "active": len(state.roster.active),
        "emperor": emperor.username if emperor else None,
        "players": [
            {
                "name": user.username,
                "admin": user.is_admin,
                "idle": idle,
                "emperor": bool(emperor and emperor.pk == user.pk),
                "joined_at": user.joined_at,
                "url": reverse("player_detail", args=[user.username]),
            }
            for user, idle in people
        ],
    }


def _current_dynasty():
    state = game_state(timezone.now())
    if state.dynasty is None:
        raise HttpError(404, NO_TABLE)
    return state


def _reader(request: HttpRequest):
    """Whom a read shows: a token with the read scope reads as its owner (their own hidden GNDT values, as the
    browser shows them to them); anyone else reads as a visitor."""
    token = request.auth
    if isinstance(token, AccessToken) and READ in token.scopes:
        return token.user
    return AnonymousUser()


@api.get(
    "/gndt",
    response={200: schemas.GndtTable, 404: schemas.Problem},
    summary="The current dynasty's GNDT as the reader may see it (a visitor: no secret columns)",
)
def gndt(request):
    state = _current_dynasty()
    table = gndt_table_for(state.dynasty, viewer=_reader(request), state=state)
    return {
        "dynasty": state.dynasty.number,
        "columns": [{"name": c.name, "kind": c.kind, "default": c.default} for c in table.columns],
        "rows": [
            {
                "name": r.row.name,
                "player": r.row.user.username if r.row.user else None,
                "idle": r.idle,
                "values": {cell.column.name: cell.value for cell in r.cells},
            }
            for r in table.all_rows
        ],
    }


@api.get(
    "/gndt/log",
    response={200: schemas.GndtLog, 404: schemas.Problem, **REFUSED},
    summary="The current GNDT's updates, newest first, as the reader may see them (a visitor: no secret columns)",
)
def gndt_log_api(request, page: int = Query(1, ge=1, le=1_000_000)):
    state = _current_dynasty()
    viewer = _reader(request)
    updates, meta = _page(gndt_log(state.dynasty, viewer=viewer), page)
    entries = log_entries(updates, viewer=viewer, dynasty=state.dynasty)
    return {
        **meta,
        "results": [
            {
                "id": e.update.pk,
                "at": e.update.at,
                "by": e.update.by.username if e.update.by else None,
                "comment": e.update.comment,
                "changes": [
                    {"row": c.row.name, "column": c.column.name, "old": c.old, "new": c.new}
                    for c in e.changes
                    if c.column is not None
                ],
            }
            for e in entries
        ],
    }


@api.get(
    "/notices",
    auth=[PersonalToken(READ), BrowserSession()],
    response={200: schemas.NoticeList, 401: schemas.Problem, 403: schemas.Problem, **REFUSED, 404: schemas.Problem},
    summary="The caller's own notices, newest first (reading them marks nothing read)",
)
def notices(request, page: int = Query(1, ge=1, le=1_000_000)):
    items, meta = _page(Notification.objects.filter(user=request.user).order_by("-created_at", "-pk"), page)
    return {
        **meta,
        "results": [
            {"text": n.text, "url": n.url or None, "at": n.created_at, "read": n.read_at is not None} for n in items
        ],
    }


def _ruleset() -> Page:
    page = Page.objects.filter(slug="ruleset").select_related("current").first()
    if page is None:
        raise HttpError(404, NO_RULESET)
    return page


@api.get(
    "/ruleset/revisions",
    response={200: schemas.RevisionList, 404: schemas.Problem, **REFUSED},
    summary="The Ruleset's revisions, newest first",
)
def revisions(request, page: int = Query(1, ge=1, le=1_000_000)):
    ruleset = _ruleset()
    queryset = Revision.objects.filter(page=ruleset).select_related("author", "post", "page").order_by("-number")
    items, meta = _page(queryset, page)
    return {
        **meta,
        "results": [
            {
                "number": r.number,
                "at": r.at,
                "author": r.author.username if r.author else None,
                "summary": r.summary,
                "post": r.post.slug if r.post_id else None,
                "url": r.get_absolute_url(),
            }
            for r in items
        ],
    }


@api.get(
    "/ruleset/rules",
    response={200: schemas.Rules, 404: schemas.Problem},
    summary="Every rule of the current Ruleset, with its number, title and text",
)
def rules(request):
    ruleset = _ruleset()
    if ruleset.current is None:
        return {"revision": None, "rules": []}
    parsed = parse_ruleset(ruleset.current.text)
    base = ruleset.get_absolute_url()
    return {
        "revision": ruleset.current.number,
        "rules": [
            {
                "number": rule.number,
                "title": rule.title,
                "anchor": rule.anchor,
                "text": rule.body,
                "url": f"{base}#{rule.anchor}",
            }
            for rule in parsed.all_rules()
        ],
    }
