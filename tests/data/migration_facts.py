"""Prints, as JSON, what a game database holds and shows: row counts, each votable matter's tally, and the
status of the public pages. Run with DATABASE_URL pointing at the database; used by test_migrations.py."""

import json
import os
import sys
from datetime import UTC, datetime

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blognomic.settings")

import django  # noqa: E402

django.setup()

import time_machine  # noqa: E402
from django.apps import apps  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

settings.ALLOWED_HOSTS = ["*"]
MOMENT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TABLES = [
    "blognomic_post",
    "blognomic_comment",
    "votes_resolution",
    "dynasties_user",
    "dynasties_dynasty",
    "dynasties_absence",
    "dynasties_application",
    "ruleset_page",
    "ruleset_revision",
    "gndt_column",
    "gndt_row",
    "gndt_cell",
    "gndt_update",
    "gndt_cellchange",
]

facts = {"tables": {}, "tallies": {}, "pages": {}}
with connection.cursor() as cursor:
    for table in TABLES:
        cursor.execute(f"SELECT COUNT(*) FROM {table}")  # noqa: S608 - fixed table names
        facts["tables"][table] = cursor.fetchone()[0]
post_model = next(m for m in apps.get_models() if m._meta.db_table == "blognomic_post")
posts = list(post_model.objects.order_by("pk"))
with time_machine.travel(MOMENT, tick=False):
    for post in posts:
        if post.kind in ("proposal", "cfj", "dov"):
            out = __import__("io").StringIO()
            call_command("tally", post.slug, "--json", stdout=out)
            facts["tallies"][post.slug] = json.loads(out.getvalue())
    client = Client()
    urls = [
        "/",
        "/feed/",
        "/category/proposals/",
        "/wiki/ruleset/",
        "/wiki/ruleset/history/",
        "/gndt/",
        "/gndt/log/",
        "/dynasties/",
        "/core-rules/",
    ] + [f"/posts/{post.slug}/" for post in posts]
    for url in urls:
        response = client.get(url)
        body = response.content.decode()
        facts["pages"][url] = {
            "status": response.status_code,
            "titles": [p.title for p in posts if url == f"/posts/{p.slug}/" and p.title in body],
        }
print(json.dumps(facts, indent=1, sort_keys=True, ensure_ascii=False))
