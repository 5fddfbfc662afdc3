"""Where a page sends its reader back to: the ``next`` a form or a link passes along, if it is a path here.

Every view that reads ``next`` asks ``next_path``. Anything but a path on this site ("1", "//elsewhere",
"https://elsewhere/", "javascript:…", a backslash, which browsers read as a slash, a control character, a
very long address) gives the view's own fallback, so a hostile ``next`` never sends anyone off the site and
never fails a request after its write is done.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

# Far beyond any address the site makes; a longer one is someone's experiment, not a page to go back to.
MAX_NEXT_LENGTH = 2000


def local_path(value: object, *, host: str) -> str | None:
    """``value`` when it is an absolute path on ``host`` (``/gndt/log/?by=P03``), else None.

    Only paths are kept: a bare word such as "1" would be taken for a page beside the current one (and by
    ``redirect`` for a view's name), and the site's own forms only ever pass paths.
    """
    if not isinstance(value, str) or not value or len(value) > MAX_NEXT_LENGTH:
        return None
    # isprintable() refuses NUL, line breaks and every other control or separator character; browsers drop
    # some of them silently, which can turn "/\t/evil.example" into another host.
    if not value.isprintable() or "\\" in value:
        return None
    if not value.startswith("/") or value.startswith("//"):
        return None
    if not url_has_allowed_host_and_scheme(value, allowed_hosts={host}):
        return None
    return value


def next_path(request: HttpRequest, fallback: str = "") -> str:
    """The request's ``next`` (the form's field, else the query string's) when it is a path on this site,
    else ``fallback``."""
    value = request.POST.get("next") if request.method == "POST" and "next" in request.POST else None
    if value is None:
        value = request.GET.get("next")
    return local_path(value, host=request.get_host()) or fallback
