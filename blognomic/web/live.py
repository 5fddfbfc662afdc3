"""Regions of a page that update themselves: a matter's tally box and comments, the front page's pending matters.

A page marks the parts that may change with ``{% live_part %}`` (``blognomic.templatetags.live``) and ends them
with ``{% live_poller %}``: a hidden element that htmx asks, every ``POLL_SECONDS``, whether anything changed since
the page was rendered. It carries, in its address:

- ``since``: the content version (``blognomic.web.freshness``) the page was rendered at, read before any of its
  data, so a write the page missed always moves the version past it;
- ``until``: the moment (seconds since the epoch) the parts stop being right with no write, as the selectors
  note it (``votes.horizon``): an age shown to the tenth of an hour, "Can be enacted now";
- ``shown``: a short digest of each part as the reader was shown it, and of each line a screen reader would be
  told of it ("Tally now 5 FOR, 2 AGAINST").

While the version is ``since`` and ``until`` has not come, the answer is 204 No Content after reading the version
alone, whoever asks and whatever the address names (so it tells nobody whether a post exists): one small query,
or one cache read where Redis keeps the version, the same on every web node. Otherwise the parts are rendered
again by the page's own templates for this reader (a hidden post answers 404, a secret stays absent), and only
those whose digest the reader has not been shown come back, out of band, beside a new poller; the status line is
sent only when what it would say changed, so a screen reader is told once, politely.

A client that is not htmx may use the ``ETag`` instead: ``If-None-Match`` with it answers 304 under the same
conditions. Every answer says ``Cache-Control: no-store``: a browser that revalidated a stored answer by itself
would hand the script a 304 as the old 200, and the parts would be swapped in again.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.html import format_html

from blognomic.web.freshness import VersionUnavailable, current_version
from blognomic.web.page_cache import content_version
from votes import horizon

POLL_SECONDS = 5
DIGEST_LENGTH = 12
# At most this many digests in ``shown``: a front page shows a few dozen parts at most.
MOST_DIGESTS = 400
POLLER_ID = "live-poller"
STATUS_ID = "live-status"
SINCE_ATTRIBUTE = "_live_since"
PARTS_ATTRIBUTE = "_live_parts"

# The content version as each store writes it: digits, or (in one process's memory) that process's mark and digits.
_VERSION = re.compile(r"(?:[0-9a-f]{32}:)?[0-9]{1,19}", re.ASCII)
_UNTIL = re.compile(r"[0-9]{1,12}", re.ASCII)
_SHOWN = re.compile(
    rf"(?:[0-9a-f]{{{DIGEST_LENGTH}}}(?:\.[0-9a-f]{{{DIGEST_LENGTH}}}){{0,{MOST_DIGESTS - 1}}})?", re.ASCII
)
# The CSRF token a form in a part holds differs at every rendering; a part's digest leaves it out.
_CSRF_VALUE = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')
_ETAG = re.compile(r'(?:W/)?"([^"]*)"')

BAD_SINCE = "since: expected the content version the page was rendered at (digits), as the page's own poller sends it."
BAD_UNTIL = "until: expected seconds since the epoch (digits)."
BAD_SHOWN = f"shown: expected up to {MOST_DIGESTS} digests of {DIGEST_LENGTH} hexadecimal digits, joined by dots."


class BadPoll(ValueError):
    """The poll's address is not one a page wrote: answered 400 with the message."""


@dataclass(frozen=True)
class Poll:
    """What the reader's page says it shows: the version it was rendered at, until when, and its parts' digests."""

    since: str | None
    until: int | None
    shown: frozenset[str]


def read_poll(query) -> Poll:
    """The poll's parameters from the query string, or ``BadPoll`` naming the first one that is not as sent."""
    since = query.get("since") or None
    if since is not None and not _VERSION.fullmatch(since):
        raise BadPoll(BAD_SINCE)
    until_text = query.get("until") or None
    if until_text is not None and not _UNTIL.fullmatch(until_text):
        raise BadPoll(BAD_UNTIL)
    shown = query.get("shown", "")
    if not _SHOWN.fullmatch(shown):
        raise BadPoll(BAD_SHOWN)
    return Poll(since, int(until_text) if until_text else None, frozenset(shown.split(".")) - {""})


def still_right(poll: Poll, version: int | str, now: datetime) -> bool:
    """Whether what the page shows is what it would show now: no write since, and no moment it waited for come."""
    return poll.since == str(version) and (poll.until is None or now.timestamp() < poll.until)


def etag_for(version: int | str, until: int | None) -> str:
    return f'"{version}.{until or 0}"'


def etag_still_right(request: HttpRequest, version: int | str, now: datetime) -> str | None:
    """The tag ``If-None-Match`` names of an answer given for this version whose moment has not come, if any."""
    for tag in _ETAG.findall(request.headers.get("If-None-Match", "")):
        since, _, until = tag.rpartition(".")
        if since == str(version) and until.isascii() and until.isdigit() and len(until) <= 12:
            if int(until) == 0 or now.timestamp() < int(until):
                return f'"{tag}"'
    return None


def unchanged_answer(request: HttpRequest, now: datetime) -> HttpResponse | None:
    """204 (or 304 to ``If-None-Match``) when the page is still right, reading the version alone; None when the
    parts must be rendered again. While no version can be read (Redis is away) nothing is rendered: 204."""
    poll = read_poll(request.GET)
    try:
        version = current_version()
    except VersionUnavailable:
        return no_store(HttpResponse(status=204))
    if still_right(poll, version, now):
        return no_store(HttpResponse(status=204))
    tag = etag_still_right(request, version, now)
    if tag is not None:
        response = HttpResponse(status=304)
        response["ETag"] = tag
        return no_store(response)
    return None


def no_store(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_store=True, private=True)
    patch_vary_headers(response, ["Cookie"])
    return response


def mark_version(request: HttpRequest) -> None:
    """Note the content version before the view reads any data the live parts show (see the module)."""
    if hasattr(request, SINCE_ATTRIBUTE):
        return
    try:
        version: int | str | None = content_version(request)
    except VersionUnavailable:
        version = None
    setattr(request, SINCE_ATTRIBUTE, version)


@contextmanager
def watching(now: datetime) -> Iterator[list[datetime]]:
    """Collect the moments noted while a page with live parts renders (its poller reads them as it renders,
    ``horizon.noted``), and pass them on to whoever collects around it (the page cache)."""
    with horizon.collecting() as moments:
        yield moments
    horizon.note(moments, now=now)


def since_of(request: HttpRequest) -> int | str | None:
    return getattr(request, SINCE_ATTRIBUTE, None)


@dataclass
class Part:
    """One live part as rendered for this reader: its element's id, its HTML, and what a screen reader is told
    when it changes."""

    id: str
    html: str
    announce: str = ""

    @property
    def digest(self) -> str:
        normalised = _CSRF_VALUE.sub(rb"\1\2", self.html.encode())
        return _digest(b"part\x1f" + self.id.encode() + b"\x1f" + normalised)

    @property
    def announce_digest(self) -> str | None:
        return _digest(b"say\x1f" + self.id.encode() + b"\x1f" + self.announce.encode()) if self.announce else None

    def digests(self) -> list[str]:
        return [digest for digest in (self.digest, self.announce_digest) if digest]

    def out_of_band(self) -> str:
        """The part's HTML with its root element marked for htmx to swap it into the element of the same id."""
        start = self.html.find("<")
        end = self.html.find(">", start)
        opening = self.html[start:end]
        if start < 0 or f'id="{self.id}"' not in opening:
            raise ValueError(f"A live part's first element must carry its id ({self.id!r}).")
        name_end = start + 1 + len(opening[1:].split(None, 1)[0])
        return self.html[:name_end] + ' data-hx-swap-oob="true"' + self.html[name_end:]


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=DIGEST_LENGTH // 2).hexdigest()


@dataclass
class Collected:
    parts: list[Part] = field(default_factory=list)


def collected(request: HttpRequest) -> Collected:
    """The live parts rendered so far for this request (by ``{% live_part %}``)."""
    found = getattr(request, PARTS_ATTRIBUTE, None)
    if found is None:
        found = Collected()
        setattr(request, PARTS_ATTRIBUTE, found)
    return found


def poll_address(url: str, *, since: int | str | None, until: datetime | None, parts: list[Part]) -> str:
    query = {"since": "" if since is None else str(since)}
    if until is not None:
        query["until"] = str(int(until.astimezone(UTC).timestamp()) + 1)
    query["shown"] = ".".join(digest for part in parts for digest in part.digests())
    return f"{url}?{urlencode(query)}"


def poller(url: str | None, *, since: int | str | None, until: datetime | None, parts: list[Part]) -> str:
    """The hidden element that asks for changes every ``POLL_SECONDS`` (an inert one with no ``url``: nothing
    on the page can change any more)."""
    if url is None:
        return format_html('<div id="{}" hidden></div>', POLLER_ID)
    return format_html(
        '<div id="{}" hidden data-hx-get="{}" data-hx-trigger="every {}s" data-hx-swap="outerHTML"></div>',
        POLLER_ID,
        poll_address(url, since=since, until=until, parts=parts),
        POLL_SECONDS,
    )


def status_line() -> str:
    """The polite status a screen reader reads out when a tally changes; on the page from the start, empty."""
    return format_html('<p id="{}" class="visually-hidden" role="status" aria-live="polite"></p>', STATUS_ID)


def changed_answer(
    poll: Poll, parts: list[Part], *, url: str | None, since: int | str | None, until: datetime | None
) -> HttpResponse:
    """A new poller, the parts the reader has not been shown, and the status line if it has news."""
    news = [part for part in parts if part.digest not in poll.shown]
    said = [part.announce for part in parts if part.announce_digest and part.announce_digest not in poll.shown]
    body = [poller(url, since=since, until=until, parts=parts), *(part.out_of_band() for part in news)]
    if said:
        body.append(format_html('<p data-hx-swap-oob="innerHTML:#{}">{}</p>', STATUS_ID, " ".join(said)))
    response = HttpResponse("\n".join(body))
    if since is not None:
        response["ETag"] = etag_for(since, None if until is None else int(until.timestamp()) + 1)
    return no_store(response)
