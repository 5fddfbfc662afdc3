"""Middleware of the site's own: the health check answered before any other."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from blognomic.views import healthz

HEALTH_PATH = "/healthz/"


class HealthCheckMiddleware:
    """Answers ``/healthz/`` ahead of host validation and the HTTPS redirect.

    A container's health check asks gunicorn directly, as ``127.0.0.1`` over plain HTTP: production settings
    would refuse that host (ALLOWED_HOSTS) and redirect to https. The answer says only whether the database
    responds, so it is safe to give to any host.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)
