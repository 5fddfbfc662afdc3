"""Every main page of the demo game as each role sees it, written to a directory: run it before and after a
change that must not alter a page (moving modules, splitting one), then ``diff -r`` the two directories.

The demo is built at a fixed moment and the clock stands still, so two runs of the same code write the same
bytes; only the per-request tokens (CSRF, CSP nonces) are masked.

    python scripts/snapshot_pages.py OUT_DIR
"""

from __future__ import annotations

import os
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "blognomic.settings"
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)

MOMENT = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
# What differs between two requests for the same page: the CSRF token and the CSP nonce.
TOKENS = re.compile(rb'(csrfmiddlewaretoken" value="|csrf-token" content="|nonce="|"X-CSRFToken": ")[A-Za-z0-9+/=_-]+')


def main(out: Path) -> None:
    import django
    import time_machine

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from blognomic.moving.demo import build_demo
    from tests.main_pages import ACCOUNTS, PASSWORD, ROLES, pages_for

    setup_test_environment()
    (ROOT / ".run").mkdir(exist_ok=True)  # where the settings put the test database's file
    connection.creation.create_test_db(verbosity=0)
    with time_machine.travel(MOMENT, tick=False):
        build_demo(now=MOMENT)
        for role in ROLES:
            client = Client()
            if ACCOUNTS[role]:
                assert client.login(username=ACCOUNTS[role], password=PASSWORD)
            for page in pages_for(role):
                body = client.get(page.path).content
                name = re.sub(r"[^a-z0-9]+", "-", f"{role} {page.name}").strip("-")
                (out / f"{name}.html").write_bytes(TOKENS.sub(rb"\1-", body))
    print(f"{len(list(out.iterdir()))} pages written to {out}")


if __name__ == "__main__":
    target = Path(sys.argv[1])
    target.mkdir(parents=True, exist_ok=True)
    main(target)
