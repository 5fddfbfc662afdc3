"""One request budget per token (``API_TOKEN_RATE`` requests a minute): a runaway bot is answered 429 with
``Retry-After`` and slows no one else. Requests from the browser and anonymous reads are not counted here.

The count is one cache key per token and minute, moved with the cache's atomic increment, so every web node and
thread shares it exactly where Redis is configured (without Redis each process counts alone). Django Ninja asks
a throttle ``allow_request`` and then ``wait`` of the same object, with no request the second time; threads of
one worker share the object, so what the second call needs is kept per thread.
"""

from __future__ import annotations

import math
import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from ninja.throttling import BaseThrottle

from blognomic.community.tokens.models import AccessToken

WINDOW_SECONDS = 60


def over_budget(count: int, limit: int, now: float) -> float | None:
    """Seconds until the window that has seen ``count`` requests ends, when that is over ``limit``; else None."""
    if count <= limit:
        return None
    return max(1, math.ceil(WINDOW_SECONDS - now % WINDOW_SECONDS))


class TokenRateThrottle(BaseThrottle):
    def __init__(self) -> None:
        self._last = threading.local()

    def allow_request(self, request: HttpRequest) -> bool:
        token = getattr(request, "auth", None)
        if not isinstance(token, AccessToken):
            return True
        now = time.time()
        key = f"blognomic:token-budget:{token.pk}:{int(now // WINDOW_SECONDS)}"
        cache.add(key, 0, timeout=WINDOW_SECONDS * 2)
        try:
            count = cache.incr(key)
        except ValueError:  # Evicted between the two calls: this request is the window's first.
            cache.set(key, 1, timeout=WINDOW_SECONDS * 2)
            count = 1
        self._last.wait = over_budget(count, settings.API_TOKEN_RATE, now)
        return self._last.wait is None

    def wait(self) -> float | None:
        return getattr(self._last, "wait", None)
