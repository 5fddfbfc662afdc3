"""Whole pages cached for the next reader, keyed so that no reader is ever shown a page older than the data.

A cached page is found under a key made of:

- the content version (``blognomic.web.freshness``), which every write to the database moves on, so a page
  rendered before a tally, a Ruleset edit, a GNDT update, an idling or a beat job's work is never served after;
- who is looking: anonymous, or the account as the session names it (its role and its hidden GNDT columns
  follow from it), read from the session alone so that a page served from the cache never loads the account
  (see ``viewer``);
- the host, the path with its query, and the htmx headers (a fragment is never served for a whole page).

A reader's page also holds the reader's own version it was rendered at, which their read markers move (their
unread counts), and is served only while that is still their version. Kept in the page rather than in its key,
it is read in the same round trip as the page; the reader's session is read in the same trip as the content
version (``blognomic.web.sessions``), so with Redis a cached page costs two round trips, a player's as a
visitor's.

No page is served past the next moment something it shows changes with time alone: a matter it judged becomes
enactable or failable, one it lists turns old or stale, an age it shows ("3 hours old", "open 12.4 hours")
changes at the precision shown, the seasonal hiatus begins or ends. The selectors note those moments while
the page renders (see ``votes.horizon``), so "Can be enacted now" shows at that second, and a page that shows
nothing of the kind (a resolved matter, the Ruleset, the GNDT) lives until the content changes, or at most
``PAGE_CACHE_SECONDS``. The header's clock is set to the moment each response leaves (``with_clock``), so it
never dates a page.

Concurrent misses of one page render it once (a page is missed by every reader at once right after a write):
the first takes a short lock (``RENDER_LOCK_SECONDS``) and renders; the others wait for what it stores, or for
its lock to go, and then render themselves only if it stored nothing. A visitor is not kept waiting when the
page was rendered for the version before within the last ``STALE_SECONDS`` and is still right as to time: they
are given that rendering, marked ``X-Page-Cache: stale``, while the fresh one is made. A logged-in reader always
waits, so a player who has just voted sees their vote.

While the content version cannot be read (Redis is away, see ``blognomic.web.sturdy_cache``), every page is rendered
from the database and kept nowhere.

Only GET and HEAD requests to the pages listed in ``CACHED_PAGES``, carrying no ``Authorization`` header (an API
token), are served from the cache, and a response
is stored only when it is a plain 200 that set no cookie, changed no session, showed no message and asked
for no ``Cache-Control: private/no-store``. A request carrying a message to show is never served from it.

The CSRF token every page holds (htmx sends it with each POST) belongs to the visitor's own cookie, so pages
are rendered with a placeholder instead (``csrf_placeholder``, a context processor) and each response gets
the reader's own token in its place; a view that asks for the real token while being rendered is not stored.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.urls import Resolver404, resolve
from django.utils import dateformat, timezone

from blognomic.web.freshness import (
    VersionUnavailable,
    current_version,
    own_version_beside,
    version_beside,
    version_lags_writes,
)
from votes import horizon

# The pages worth caching: read often and the same for every reader of one kind (forms on them carry the
# placeholder token, see below). A page that writes while it renders (a message thread marks itself read) is
# stored under the versions before its own write, so it is never served again.
CACHED_PAGES = frozenset(
    {
        "front_page",
        "post_detail",
        "month_archive",
        "category",
        "player_list",
        "player_detail",
        "feed",
        "category_feed",
        "post_comments_feed",
        "stats",
        "stats_chart",
        "stats_table",
        "tally_box",
        "admin_panel",
        "wiki_index",
        "wiki_page",
        "wiki_history",
        "wiki_feed",
        "wiki_revision",
        "wiki_diff",
        "wiki_rule",
        "wiki_rule_history",
        "gndt_table",
        "gndt_log",
        "gndt_dynasty_table",
        "gndt_dynasty_log",
        "gndt_update",
        "dynasty_list",
        "dynasty_detail",
        "search",
        "game_at",
        "roster",
        "core_rules",
        "seals",
        "messages_inbox",
        "messages_sent",
        "message_thread",
        # The read-only API, by namespaced name: its operations' short names ("posts", "rules") are too common.
        "api:api-root",
        "api:openapi-json",
        "api:posts",
        "api:post",
        "api:players",
        "api:gndt",
        "api:gndt_log_api",
        "api:revisions",
        "api:rules",
    }
)
HTMX_HEADERS = (
    "HTTP_HX_REQUEST",
    "HTTP_HX_TARGET",
    "HTTP_HX_TRIGGER",
    "HTTP_HX_TRIGGER_NAME",
    "HTTP_HX_BOOSTED",
    "HTTP_HX_CURRENT_URL",
    "HTTP_ACCEPT",
)
UNSTORED_HEADERS = frozenset({"set-cookie", "content-length"})
RENDERING_ATTRIBUTE = "_page_cache_rendering"
VERSION_ATTRIBUTE = "_page_cache_version"
CLOCK_FORMAT = "D j M Y H:i:s"  # as base.html writes the clock
# How long one request may hold a page to render it before another may render it too: a bound in case the
# renderer dies, well above the slowest page's rendering.
RENDER_LOCK_SECONDS = 10
# How old the previous rendering of a page may be for a visitor to be given it while another request renders
# the page afresh.
STALE_SECONDS = 10
# How often a waiting request looks for the page another is rendering: at first soon, then less often.
WAIT_STEPS = (0.005, 0.01, 0.02, 0.04)


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
    rendered_at: datetime | None = None
    # The reader's own version it was rendered at (None for a visitor's page).
    own_version: int | str | None = None

    def fresh_at(self, now: datetime, own_version: int | str | None) -> bool:
        return own_version == self.own_version and (self.valid_until is None or now < self.valid_until)

    def response(self) -> HttpResponse:
        response = HttpResponse(self.content, status=self.status)
        for name, value in self.headers:
            response.headers[name] = value
        return response


def page_name(request: HttpRequest) -> str | None:
    """The page's view name, with its namespace where it has one (``api:posts``). The match is kept on the
    request, as Django keeps its own: a page served from the cache never reaches Django's resolving, and the
    middleware outside this one would otherwise resolve the address again (a fifth of a cached hit for an
    address late in the URL configuration)."""
    try:
        request.resolver_match = resolve(request.path_info)
    except Resolver404:
        return None
    return request.resolver_match.view_name


def content_version(request: HttpRequest) -> int | str:
    """The content version this request's page is cached under (read once), for a view that keeps some
    costly part of its page under the same version, so that part is never staler than the page."""
    version = getattr(request, VERSION_ATTRIBUTE, None)
    return current_version() if version is None else version


Answer = TypeVar("Answer")


def kept_for_version(
    request: HttpRequest, name: str, question: str, work_out: Callable[[], Answer], *, seconds: int = 3600
) -> Answer:
    """The answer to ``question`` (any text that names it wholly), worked out once per content version.

    For a costly part of a page whose answer changes only with the content (a search's hits, a listing's
    count): the page cache renders a page afresh whenever an age it shows changes, and the part would
    otherwise be worked out again each time. Kept under the version the page is cached under, it
    is never staler than the page around it.
    """
    if version_lags_writes():
        return work_out()  # the request's own writes are not yet counted in the version
    try:
        version = content_version(request)
    except VersionUnavailable:
        return work_out()
    digest = hashlib.blake2b(question.encode(), digest_size=16).hexdigest()
    key = f"kept:{name}:{version}:{digest}"
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


def reader(request: HttpRequest) -> int | None:
    """The account the session names, whose own version keys their pages (None for a visitor)."""
    account = request.session.get(SESSION_KEY)
    try:
        return None if account is None else int(account)
    except (TypeError, ValueError):
        return None


def _page_parts(request: HttpRequest) -> list[str]:
    parts = [viewer(request), request.get_host(), request.get_full_path()]
    return parts + [request.META.get(header, "") for header in HTMX_HEADERS]


def page_key(request: HttpRequest, version: int | str | None = None) -> str:
    if version is None:
        version = current_version()
    parts = [str(version), *_page_parts(request)]
    return "blognomic:page:" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def latest_key(request: HttpRequest) -> str:
    """Where the key of the page's latest rendering, whatever the version, is kept (for visitors' pages)."""
    return "blognomic:page-latest:" + hashlib.sha256("\x1f".join(_page_parts(request)).encode()).hexdigest()


def rendering_key(key: str) -> str:
    return key + ":rendering"


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
        if (
            not enabled()
            or request.method not in ("GET", "HEAD")
            # A request with credentials of its own (an API token) is answered for them alone: it is checked and
            # counted on each request, and what its owner may see must never be kept for the session's reader.
            or "authorization" in request.headers
            or page_name(request) not in CACHED_PAGES
            or version_lags_writes()
        ):
            return self.get_response(request)
        try:
            version = self._content_version(request)
            if holds_message(request):
                return self.get_response(request)
            key = page_key(request, version)
            own, found = own_version_beside(reader(request), [key])
        except VersionUnavailable:
            return self.get_response(request)  # rendered from the database, kept nowhere
        setattr(request, VERSION_ATTRIBUTE, version)
        now = timezone.now()
        page = found.get(key)
        if page is not None and page.fresh_at(now, own):
            return self._for_reader(request, page.response(), now)
        if request.method != "GET":
            return self._render(request, key, own)
        lock = rendering_key(key)
        if not cache.add(lock, 1, timeout=RENDER_LOCK_SECONDS):
            # Another request is rendering this page: take what it stores rather than render it again.
            served = self._stale_for_visitor(request, key, now) or self._when_rendered(request, key, own, lock)
            if served is not None:
                return served
            if not cache.add(lock, 1, timeout=RENDER_LOCK_SECONDS):
                return self._render(request, key, own)
        try:
            return self._render(request, key, own)
        finally:
            cache.delete(lock)

    @staticmethod
    def _content_version(request: HttpRequest) -> int | str:
        """The content version, with the reader's session read in the same round trip where the session store
        can take it (``blognomic.web.sessions``)."""
        session = request.session
        session_key = session.key_to_prime() if hasattr(session, "key_to_prime") else None
        version, found = version_beside([session_key] if session_key else [])
        if session_key:
            session.prime(found.get(session_key))
        return version

    def _render(self, request: HttpRequest, key: str, own: int | str | None) -> HttpResponse:
        now = timezone.now()
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
            headers = tuple(
                (name, value) for name, value in response.headers.items() if name.lower() not in UNSTORED_HEADERS
            )
            # A moment already past was noted by a judgement as of an earlier time (a record, the game at a
            # moment): it says nothing about when this page stops being right. The longest life is a bound for
            # anything that changes with time and that no selector notes.
            longest = now + timedelta(seconds=settings.PAGE_CACHE_SECONDS)
            valid_until = min((moment for moment in moments if moment > now), default=longest)
            page = CachedPage(response.status_code, headers, response.content, min(valid_until, longest), now, own)
            stored = {key: page}
            if viewer(request) == "anonymous":
                stored[latest_key(request)] = key
            cache.set_many(stored, timeout=settings.PAGE_CACHE_SECONDS)
        return self._for_reader(request, response, now)

    def _stale_for_visitor(self, request: HttpRequest, key: str, now: datetime) -> HttpResponse | None:
        """The page's previous rendering, for a visitor, if it is recent and still right as to time."""
        if viewer(request) != "anonymous":
            return None
        previous_key = cache.get(latest_key(request))
        if previous_key is None or previous_key == key:
            return None
        page = cache.get(previous_key)
        if page is None or page.rendered_at is None or not page.fresh_at(now, None):
            return None
        if now - page.rendered_at > timedelta(seconds=STALE_SECONDS):
            return None
        response = page.response()
        response["X-Page-Cache"] = "stale"
        return self._for_reader(request, response, now)

    def _when_rendered(self, request: HttpRequest, key: str, own: int | str | None, lock: str) -> HttpResponse | None:
        """The page another request is rendering, once it is stored; None if that request let go of the page
        without storing it (a response that may not be kept) or held it too long."""
        deadline = time.monotonic() + RENDER_LOCK_SECONDS
        steps = iter(WAIT_STEPS)
        while time.monotonic() < deadline:
            time.sleep(next(steps, WAIT_STEPS[-1]))
            found = cache.get_many([key, lock])
            page, now = found.get(key), timezone.now()
            if page is not None and page.fresh_at(now, own):
                return self._for_reader(request, page.response(), now)
            if lock not in found:
                return None
        return None

    @staticmethod
    def _for_reader(request: HttpRequest, response: HttpResponse, now: datetime) -> HttpResponse:
        if response.streaming:
            return response
        content = with_clock(response.content, now)
        mark = placeholder().encode()
        if mark in content:
            content = content.replace(mark, get_token(request).encode())
        if content is not response.content:
            response.content = content
        return response


CLOCK = b'<time id="utc-clock"'


def with_clock(content: bytes, now: datetime) -> bytes:
    """``content`` with the header's clock (base.html) set to ``now``: the script that keeps it ticking starts
    from the time it says, so a page from the cache must not carry the time it was rendered."""
    start = content.find(CLOCK)
    if start < 0:
        return content
    attribute = content.find(b'datetime="', start)
    attribute_end = content.find(b'"', attribute + len(b'datetime="'))
    text = content.find(b">", attribute_end) + 1
    end = content.find(b"</time>", text)
    if min(attribute, attribute_end, text - 1, end) < 0:
        return content
    local = timezone.localtime(now)
    # As base.html writes it (``machine_time``): HTML allows no more than three digits of a second.
    stamp = now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return b"".join(
        (
            content[:attribute],
            b'datetime="',
            stamp.encode(),
            content[attribute_end:text],
            dateformat.format(local, CLOCK_FORMAT).encode(),
            b" UTC",
            content[end:],
        )
    )
