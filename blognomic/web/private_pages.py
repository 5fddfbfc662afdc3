"""Who may keep a copy of a page. One rendered for a logged-in reader says ``Cache-Control: private``, so that
no shared cache (a proxy, a CDN) hands it to anyone else; one account's own messages and notices (views marked
with ``dynasties.privacy.personal_page``) say ``private, no-store``, so that not even a shared computer's
browser keeps them. A visitor's page, the same for every visitor, is left as it was.

The rule is the session's rather than a list of pages: an answer that read a session naming someone (or holding
anything else, such as a message to show) depended on who asked. This runs outside the page cache, so pages
served from it are marked alike, and the page cache still keeps each reader's pages under their own key.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.cache import patch_cache_control

from dynasties.privacy import is_personal_page


def depended_on_the_session(request: HttpRequest) -> bool:
    session = getattr(request, "session", None)
    return session is not None and session.accessed and not session.is_empty()


def view_of(request: HttpRequest):
    if request.resolver_match is not None:
        return request.resolver_match.func
    try:  # a page served from the cache never reached the URL resolver
        return resolve(request.path_info).func
    except Resolver404:
        return None


class PrivatePagesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if is_personal_page(view_of(request)):
            patch_cache_control(response, private=True, no_store=True)
        elif depended_on_the_session(request):
            patch_cache_control(response, private=True)
        return response
