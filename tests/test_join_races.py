"""Simultaneous applications to join: the per-address limit and the one-pending-per-name rule hold.

A spammer's burst of requests arrives all at once; without a lock each request counted the applications
stored before any of them committed. These run on PostgreSQL, where requests really run side by side.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from blognomic.flows.roster.services import (
    APPLICATION_PENDING,
    APPLICATIONS_PER_ADDRESS_PER_DAY,
    RosterError,
    application_submit,
)
from dynasties.models import Application
from tests.concurrency import run_together
from tests.factories import make_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_eight_simultaneous_applications_from_one_address_store_three():
    """Eight applications from one address at the same instant, through the join form: three are stored."""
    make_table(3, start=timezone.now())

    def apply(i):
        def send():
            client = Client(REMOTE_ADDR="10.9.8.7")
            return client.post(
                reverse("join"),
                {"name": f"Burst {i}", "password": "a-good-passphrase", "password_again": "a-good-passphrase"},
            )

        return send

    responses = run_together([apply(i) for i in range(8)])
    assert not [r for r in responses if isinstance(r, Exception)], responses
    statuses = sorted(r.status_code for r in responses)  # an accepted one is redirected to its confirmation
    assert statuses == [302] * APPLICATIONS_PER_ADDRESS_PER_DAY + [400] * (8 - APPLICATIONS_PER_ADDRESS_PER_DAY)
    refused = [r.content.decode() for r in responses if r.status_code == 400]
    assert all("Too many applications from your address today" in html for html in refused)
    assert Application.objects.filter(ip_address="10.9.8.7").count() == APPLICATIONS_PER_ADDRESS_PER_DAY


def test_three_simultaneous_applications_with_one_name_leave_one_pending():
    """Three applications under one name (in any case) at the same instant: one is pending, two refused."""
    make_table(3, start=timezone.now())
    names = ["Copycat", "copycat", "COPYCAT"]

    def apply(name, address):
        return lambda: application_submit(
            name=name, password="a-good-passphrase", message="", ip_address=address, now=timezone.now()
        )

    results = run_together([apply(name, f"10.0.0.{i}") for i, name in enumerate(names)])
    stored = [r for r in results if isinstance(r, Application)]
    refused = [r for r in results if isinstance(r, RosterError)]
    assert len(stored) == 1 and len(refused) == 2, results
    assert all(str(error).startswith(APPLICATION_PENDING.split("{")[0]) for error in refused)
    assert Application.objects.filter(status=Application.PENDING).count() == 1
