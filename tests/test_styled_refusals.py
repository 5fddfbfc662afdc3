"""A player refused anywhere, Django's administration included, sees the site's own styled 403 page with why."""

from __future__ import annotations

import pytest
from django.test import Client

from blognomic.web.site_answers import ONLY_STAFF
from tests.factories import PASSWORD, make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(t0):
    return make_player("Quill Ashby", joined_at=t0)


def logged_in(user) -> Client:
    client = Client()
    client.login(username=user.username, password=PASSWORD)
    return client


@pytest.mark.parametrize("path", ["/django-admin/", "/django-admin/votes/post/", "/admin-panel/", "/roster/"])
def test_a_player_is_refused_on_the_sites_own_page(player, path):
    answer = logged_in(player).get(path, follow=True)
    page = answer.content.decode()
    assert answer.status_code == 403
    assert "data-palette=" in page, "the site's own layout"
    assert "Django site admin" not in page


def test_django_admins_refusal_says_why(player):
    page = logged_in(player).get("/django-admin/", follow=True).content.decode()
    assert ONLY_STAFF.replace("'", "&#x27;") in page


def test_a_visitor_and_the_staff_still_get_djangos_login(player):
    assert "Django site admin" in Client().get("/django-admin/login/").content.decode()
    player.is_staff = True
    player.save()
    assert logged_in(player).get("/django-admin/", follow=True).status_code == 200
