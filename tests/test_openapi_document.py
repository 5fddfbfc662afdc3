"""The API reference in the documentation is made from the code: the committed ``docs/reference/openapi.json``
must be what ``manage.py export_openapi`` writes now, and what the site serves at ``/api/openapi.json``."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from blognomic.community.api.schema_file import DOCUMENTED_SCHEMA, openapi_text

REGENERATE = "The API changed: run `python manage.py export_openapi` and commit docs/reference/openapi.json."


def test_the_documented_schema_is_the_one_the_code_generates():
    assert DOCUMENTED_SCHEMA.read_text(encoding="utf-8") == openapi_text(), REGENERATE


def test_export_openapi_writes_the_schema_to_a_file(tmp_path):
    target = tmp_path / "openapi.json"
    call_command("export_openapi", str(target))
    assert target.read_text(encoding="utf-8") == openapi_text()
    assert set(json.loads(target.read_text())["paths"]) >= {"/api/posts", "/api/gndt", "/api/ruleset/rules"}


def test_export_openapi_prints_the_schema_with_a_dash(capsys):
    call_command("export_openapi", "-")
    assert capsys.readouterr().out == openapi_text()


@pytest.mark.django_db
def test_the_documented_schema_is_the_one_the_site_serves(client):
    served = client.get("/api/openapi.json")
    assert served.status_code == 200
    assert served.json() == json.loads(DOCUMENTED_SCHEMA.read_text(encoding="utf-8")), REGENERATE
