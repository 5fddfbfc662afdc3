"""Logging in and out, with failed attempts limited per name from one address and per address (django-axes).

A name is locked out only from the address its failures came from: locking it everywhere would let anyone
keep a player from logging in (and from voting before a deadline) by failing five times with their name.
An address that fails with many names is locked out whatever the name, at a higher limit, so one address
cannot try a few passwords on every account. After either, the reader goes back to ``next`` only when it
is a path on this site.
"""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.db.models import Sum

from dynasties.redirects import next_path


class LoginLimitBackend(AxesStandaloneBackend):
    """Refuses a login while its name is locked out from its address, or its address is.

    Every login through the site (the login page, Django's admin) passes the request. An authentication
    without one comes from code on the server (the test client's ``login``, a management command): there is
    no address to count it against, so it is left to the next backend.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def failures_towards_limit(*, name_here: int, address: int, limit: int, address_limit: int) -> int:
    """The one count compared with ``limit``: it reaches ``limit`` when the name's failures from this address
    do, or when the address's failures with any names reach ``address_limit`` (which is not below ``limit``)."""
    return max(name_here, address - (address_limit - limit))


class LoginLimitHandler(AxesDatabaseHandler):
    """Counts failures per name and address, and per address, each against its own limit.

    Expects ``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]``, in that order. Axes
    compares one count with one limit, ``AXES_FAILURE_LIMIT``; the address's count is shifted so that it
    reaches that limit exactly when it reaches ``LOGIN_ADDRESS_FAILURE_LIMIT``.
    """

    def get_failures(self, request, credentials=None) -> int:
        name_here, address = (
            attempts.aggregate(failures=Sum("failures_since_start"))["failures"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        return failures_towards_limit(
            name_here=name_here,
            address=address,
            limit=settings.AXES_FAILURE_LIMIT,
            address_limit=settings.LOGIN_ADDRESS_FAILURE_LIMIT,
        )

    def reset_user_attempts(self, request, credentials=None) -> int:
        # Logging in forgets that name's failures from the address, not other names' failures from it: one
        # account of one's own must not reset the address's count between guesses at others.
        name_here, _address = self.filter_user_attempts(request, credentials)
        deleted, _ = name_here.delete()
        return deleted


class _NextOnThisSite:
    """Django's login and logout pages, going back to ``next`` only when it is a path on this site."""

    def get_redirect_url(self) -> str:
        return next_path(self.request)


class LoginView(_NextOnThisSite, auth_views.LoginView):
    pass


class LogoutView(_NextOnThisSite, auth_views.LogoutView):
    pass
