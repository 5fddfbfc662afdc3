"""How the API knows who is asking: a personal access token in the ``Authorization`` header, or the browser's
session cookie with its CSRF token. Never both: a request that carries the header is judged by the token alone,
so a stolen cookie riding along adds nothing, and a bad token is refused rather than falling back to the cookie.
A token is never read from the address, where logs and browser histories would keep it.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils import timezone
from ninja.errors import AuthenticationError, HttpError
from ninja.security import HttpBearer, SessionAuth

from blognomic.community.tokens.issuing import TokenRefused, record_use, token_for
from blognomic.community.tokens.models import AccessToken
from blognomic.community.tokens.scopes import SCOPE_LABELS
from blognomic.web.addresses import client_address


class TokenProblem(AuthenticationError):
    """A 401 that says why the token does not act."""

    def __init__(self, message: str) -> None:
        super().__init__(401, message)


def presents_token(request: HttpRequest) -> bool:
    return "authorization" in request.headers


class PersonalToken(HttpBearer):
    """A personal access token with the given scope (``None``: any live token)."""

    def __init__(self, scope: str | None = None) -> None:
        super().__init__()
        self.scope = scope

    def __call__(self, request: HttpRequest):
        if not presents_token(request):
            return None
        scheme, _, presented = request.headers["authorization"].partition(" ")
        if scheme.lower() != "bearer" or not presented.strip():
            raise TokenProblem("Send the token as “Authorization: Bearer bn_…”.")
        return self.authenticate(request, presented)

    def authenticate(self, request: HttpRequest, token: str) -> AccessToken:
        now = timezone.now()
        try:
            found = token_for(token, now=now)
        except TokenRefused as refused:
            raise TokenProblem(str(refused)) from None
        if self.scope is not None and self.scope not in found.scopes:
            raise HttpError(
                403, f"This token may not do that: it needs the scope “{self.scope}” ({SCOPE_LABELS[self.scope]})."
            )
        record_use(found, now=now, address=client_address(request))
        # Whatever the session cookie said, this request acts for the token's owner and no one else.
        request.user = found.user
        return found


class BrowserSession(SessionAuth):
    """The logged-in browser, which must send its CSRF token; ignored whenever a token is presented."""

    def __call__(self, request: HttpRequest):
        if presents_token(request):
            return None
        return super().__call__(request)

    def authenticate(self, request: HttpRequest, key):
        user = super().authenticate(request, key)
        return None if user is None or isinstance(user, AnonymousUser) else user


def acting_as(scope: str) -> list:
    """The auth of a write needing ``scope``: a token with that scope, or the browser with its CSRF token."""
    return [PersonalToken(scope), BrowserSession()]
