"""A page as it reads to the tests that compare two renderings of the same game (before and after an archive
round trip, a restore): the CSRF token's per-request mask and the content version a live page's poller names
(it counts the writes made, whatever they wrote) are set aside; everything else must be equal."""

from __future__ import annotations

import re

CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": ?)"[^"]+"')
POLLED_VERSION = re.compile(r"([?&](?:amp;)?since=)[^&\"]*")


def steady(html: str) -> str:
    return POLLED_VERSION.sub(r"\1V", CSRF.sub("CSRF", html))
