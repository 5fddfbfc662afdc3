"""Whole pages cached for the next reader, keyed so that no reader is ever shown a page older than the data.

A cached page is found under a key made of:

- the content version (``blognomic.freshness``), which every write to the database moves on, so a page
  rendered before a tally, a Ruleset edit, a GNDT update, an idling or a beat job's work is never served after;
- the minute (``PAGE_CACHE_SECONDS``): pages show ages and hours open, which change with time alone, so a
  page is never older than that; and no page is served past the next moment a matter it judged becomes
  enactable or failable, or one it lists turns old, with no vote cast (the selectors note those moments
  while the page renders, see ``votes.horizon``): "Can be enacted now" shows at that second;
- who is looking: anonymous, or the account as the session names it (its role and its hidden GNDT columns
  follow from it), read from the session alone so that a page served from the cache never loads the account
  (see ``viewer``);
- the host, the path with its query, and the htmx headers (a fragment is never served for a whole page).

Only GET and HEAD requests to the pages listed in ``CACHED_PAGES`` are served from the cache, and a response
is stored only when it is a plain 200 that set no cookie, changed no session, showed no message and asked
for no ``Cache-Control: private/no-store``. A request carrying a message to show is never served from it.

The CSRF token every page holds (htmx sends it with each POST) belongs to the visitor's own cookie, so pages
are rendered with a placeholder instead (``csrf_placeholder``, a context processor) and each response gets
the reader's own token in its place; a view that asks for the real token while being rendered is not stored.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.urls import Resolver404, resolve
from django.utils import timezone

from blognomic.freshness import current_version
from votes import horizon

# The pages worth caching: read often and the same for every reader of one kind (forms on them carry the
# placeholder token, see below). A page that writes while it renders (a message thread marks itself read) is
# stored under the version before its own write, so it is never served again.
CACHED_PAGES = frozenset({
    "front_page", "post_detail", "month_archive", "category", "player_list", "player_detail", "feed", "category_feed",
    "post_comments_feed", "stats", "stats_chart", "stats_table", "tally_box", "admin_panel",
    "wiki_index", "wiki_page", "wiki_history", "wiki_feed", "wiki_revision", "wiki_diff", "wiki_rule",
    "wiki_rule_history",
    "gndt_table", "gndt_log", "gndt_dynasty_table", "gndt_dynasty_log", "gndt_update",
    "dynasty_list", "dynasty_detail",
    "search", "game_at", "roster", "core_rules", "seals", "messages_inbox", "messages_sent", "message_thread",
    # The read-only API, by namespaced name: its operations' short names ("posts", "rules") are too common.
    "api:api-root", "api:openapi-json", "api:posts", "api:post", "api:players", "api:gndt", "api:gndt_log_api",
    "api:revisions", "api:rules",
})
HTMX_HEADERS = ("HTTP_HX_REQUEST", "HTTP_HX_TARGET", "HTTP_HX_TRIGGER", "HTTP_HX_TRIGGER_NAME",
                "HTTP_HX_BOOSTED", "HTTP_HX_CURRENT_URL", "HTTP_ACCEPT")
UNSTORED_HEADERS = frozenset({"set-cookie", "content-length"})
RENDERING_ATTRIBUTE = "_page_cache_rendering"
VERSION_ATTRIBUTE = "_page_cache_version"


def enabled() -> bool:
    return bool(getattr(settings, "PAGE_CACHE", False))


def placeholder() -> str:
    """What pages hold where the CSRF token goes: derived from the secret key, so no one can write it into a
    comment to have it replaced, and the same in every worker."""
    digest = hmac.new(settings.SECRET_KEY.encode(), b"page-cache-csrf-placeholder", hashlib.sha256).hexdigest()
    return f"csrf{digest[:40]}"


def csrf_placeholder(request: HttpRequest) -> dict:
    """Context processor: while a cacheable page renders, its CSRF token is the placeholder."""
    if getattr(request, RENDERING_ATTRIBUTE, False):
        return {"csrf_token": placeholder()}
    return {}


@dataclass(frozen=True)
class CachedPage:
    status: int
    headers: tuple[tuple[str, str], ...]
    content: bytes
    valid_until: datetime | None = None

    def response(self) -> HttpResponse:
        response = HttpResponse(self.content, status=self.status)
        for name, value in self.headers:
            response.headers[name] = value
        return response


def page_name(request: HttpRequest) -> str | None:
    """The page's view name, with its namespace where it has one (``api:posts``)."""
    try:
        return resolve(request.path_info).view_name
    except Resolver404:
        return None


def content_version(request: HttpRequest) -> int | str:
    """The content version this request's page is cached under (read once), for a view that keeps some
    costly part of its page under the same version, so that part is never staler than the page."""
    version = getattr(request, VERSION_ATTRIBUTE, None)
    return current_version() if version is None else version


def kept_for_version(request: HttpRequest, name: str, question: str, work_out: Callable[[], object], *,
                     seconds: int = 3600) -> object:
    """The answer to ``question`` (any text that names it wholly), worked out once per content version.

    For a costly part of a page whose answer changes only with the content (a search's hits, a listing's
    count): the page cache renders each page afresh every minute, since the sidebar tells the time, and the
    part would otherwise be worked out again each time. Kept under the version the page is cached under, it
    is never staler than the page around it.
    """
    digest = hashlib.blake2b(question.encode(), digest_size=16).hexdigest()
    key = f"kept:{name}:{content_version(request)}:{digest}"
    answer = cache.get(key)
    if answer is None:
        answer = work_out()
        cache.set(key, answer, seconds)
    return answer


def viewer(request: HttpRequest) -> str:
    """Who is reading, as their session claims: the account, the backend that logged it in and the hash of its
    password that Django checks the session against.

    A claim is trusted only as far as Django has checked it: a page is stored under a claim only after the
    same request loaded the account from it (``PageCacheMiddleware`` makes sure). A claim Django refuses (a
    password changed since) flushes the session, and such a response is never stored; an account that may no
    longer log in is rendered as a visitor. Any change to an account moves the content version on, so a
    stored page is never served to a claim that the account's row as it is now would refuse.
    """
    session = request.session
    account = session.get(SESSION_KEY)
    if account is None:
        return "anonymous"
    return f"user:{account}:{session.get(BACKEND_SESSION_KEY, '')}:{session.get(HASH_SESSION_KEY, '')}"


def page_key(request: HttpRequest, version: int | str | None = None) -> str:
    version = current_version() if version is None else version
    bucket = int(timezone.now().timestamp() // settings.PAGE_CACHE_SECONDS)
    parts = [str(version), str(bucket), viewer(request), request.get_host(), request.get_full_path()]
    parts += [request.META.get(header, "") for header in HTMX_HEADERS]
    return "blognomic:page:" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def holds_message(request: HttpRequest) -> bool:
    return "_messages" in request.session


def storable(request: HttpRequest, response: HttpResponse, csrf_asked_before: bool) -> bool:
    if request.method != "GET" or response.status_code != 200 or response.streaming:
        return False
    if response.cookies or request.session.modified:
        return False
    if not csrf_asked_before and request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        return False  # a view took the reader's real token: it must not reach another reader
    messages = getattr(request, "_messages", None)
    if messages is not None and (messages.used or getattr(messages, "_queued_messages", None)):
        return False
    cache_control = response.get("Cache-Control", "").lower()
    return "private" not in cache_control and "no-store" not in cache_control


class PageCacheMiddleware:
    """Serves the listed pages from the cache when the key matches; stores what it may (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (not enabled() or request.method not in ("GET", "HEAD") or page_name(request) not in CACHED_PAGES
                or holds_message(request)):
            return self.get_response(request)
        version = current_version()
        setattr(request, VERSION_ATTRIBUTE, version)
        key = page_key(request, version)
        now = timezone.now()
        page = cache.get(key)
        if page is not None and (page.valid_until is None or now < page.valid_until):
            return self._with_token(request, page.response())
        csrf_asked_before = bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE"))
        # Load the account now, whatever the page reads: Django checks the session's claim as it loads it, and
        # a refused claim empties the session, so nothing is stored under it (see ``viewer``).
        request.user.is_authenticated  # noqa: B018
        setattr(request, RENDERING_ATTRIBUTE, True)
        try:
            with horizon.collecting() as moments:
                response = self.get_response(request)
                if hasattr(response, "render") and callable(response.render) and not response.is_rendered:
                    response.render()
        finally:
            setattr(request, RENDERING_ATTRIBUTE, False)
        if storable(request, response, csrf_asked_before):
            headers = tuple((name, value) for name, value in response.headers.items()
                            if name.lower() not in UNSTORED_HEADERS)
            cache.set(key, CachedPage(response.status_code, headers, response.content, min(moments, default=None)),
                      timeout=settings.PAGE_CACHE_SECONDS * 2)
        return self._with_token(request, response)

    @staticmethod
    def _with_token(request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if response.streaming:
            return response
        mark = placeholder().encode()
        if mark in response.content:
            response.content = response.content.replace(mark, get_token(request).encode())
        return response
