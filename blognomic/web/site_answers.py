"""The answers every site gives whatever its content: its own 403, 404 and 500 pages, and the favicon
browsers ask for by name.

The 403 and 404 pages show the game's name, look and hiatus around their message, with no sidebar, summary or
unread counts: anyone can ask for any address, and a page that answers "nothing here" should not cost what a
page of the game does (the sidebar made a 404 cost as much as the front page)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import loader
from django.templatetags.static import static

from votes.requests import GameRequest

NO_PAGE_HERE = "There is no page at this address."


def permission_denied(request: GameRequest, exception=None) -> HttpResponse:
    """A visitor who is not logged in is asked to log in and comes back; a logged-in account is told why."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    message = str(exception) if exception and str(exception) else "Your account may not use this page."
    request.error_page = True
    return render(request, "403.html", {"message": message}, status=403)


ONLY_STAFF = "Only the site's staff may use Django's administration; the game's own pages are for players."


def django_admin_login(request: GameRequest) -> HttpResponse:
    """Django's administration sends a logged-in account that is not staff to its own login page, unstyled;
    here such an account is refused on the site's 403 page instead. Everyone else gets Django's login."""
    if request.user.is_authenticated and not request.user.is_staff:
        return permission_denied(request, PermissionDenied(ONLY_STAFF))
    return admin.site.login(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page in the site's layout, rendered without the database: it may be what failed."""
    return HttpResponse(loader.get_template("500.html").render({"request": request}), status=500)


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers that ignore the page's <link rel="icon"> still ask for /favicon.ico."""
    return redirect(static("favicon.svg"), permanent=True)


def page_not_found(request: GameRequest, exception: Exception) -> HttpResponse:
    """The site's 404 page, with the message the view gave (``Http404("No such month.")``) when it gave one."""
    message = exception.args[0] if exception.args and isinstance(exception.args[0], str) else NO_PAGE_HERE
    request.error_page = True
    return render(request, "404.html", {"message": message, "request_path": request.path}, status=404)
