"""Removing a webhook reads its number as every number the site reads: finding 12's "admin POST
/notices/webhooks/ with remove=² is a 500"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from dynasties.models import Webhook
from dynasties.parsing import BAD_NUMBER, MAX_BIGINT, NUMBER_TOO_LARGE
from tests.factories import PASSWORD, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(client, t0):
    make_table(5, start=t0)
    assert client.login(username="P02", password=PASSWORD)
    return client


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("²", BAD_NUMBER),
        ("٣", BAD_NUMBER),
        ("1x", BAD_NUMBER),
        ("-1", BAD_NUMBER),
        ("99999999999999999999", NUMBER_TOO_LARGE),
    ],
)
def test_removing_with_a_number_that_is_not_one_is_a_400_and_removes_nothing(admin, t0, typed, message):
    """ "admin POST /notices/webhooks/ with remove=² is a 500": now a 400 naming what was typed."""
    Webhook.objects.create(url="https://chat.example.org/hook", created_at=t0)
    response = admin.post(reverse("webhooks"), {"remove": typed})
    assert response.status_code == 400
    assert message.format(value=typed, maximum=MAX_BIGINT) in response.content.decode()
    assert Webhook.objects.count() == 1


def test_removing_a_webhook_by_its_number(admin, t0):
    hook = Webhook.objects.create(url="https://chat.example.org/hook", created_at=t0)
    assert admin.post(reverse("webhooks"), {"remove": str(hook.pk)}).status_code == 302
    assert not Webhook.objects.exists()
