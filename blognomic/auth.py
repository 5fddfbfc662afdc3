"""Logging in, with failed attempts limited per account and per address by django-axes."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend


class LoginLimitBackend(AxesStandaloneBackend):
    """Refuses a login while its name or its address is locked out.

    Every login through the site (the login page, Django's admin) passes the request. An authentication
    without one comes from code on the server (the test client's ``login``, a management command): there is
    no address to count it against, so it is left to the next backend.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
