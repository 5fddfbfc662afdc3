"""docker-compose.yml: valid for the compose tools, only the proxy published, the health check passing.

Docker does not run in the test environment, so this checks what can be checked offline: the file as
`docker-compose config` resolves it, and the web service's settings and health check run under the very
environment the file gives it.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SERVICES = {"proxy", "postgres", "redis", "web", "worker", "beat"}


@pytest.fixture(scope="module")
def compose() -> dict:
    tool = shutil.which("docker-compose")
    if tool is None:
        pytest.fail("docker-compose is missing: `make test` installs Debian's docker-compose package.")
    env = {**os.environ, "SECRET_KEY": "validation-only"}
    result = subprocess.run(
        [tool, "-f", "docker-compose.yml", "config"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(result.stdout)


def test_compose_file_is_valid(compose):
    """`docker-compose config` accepts the file: the proxy, postgres, redis, web, worker and beat, each
    with a health check."""
    assert set(compose["services"]) == SERVICES
    for name, service in compose["services"].items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"


def test_only_the_proxy_is_published(compose):
    """gunicorn is not published: anyone could otherwise send it X-Forwarded-Proto: https themselves."""
    published = {name for name, service in compose["services"].items() if service.get("ports")}
    assert published == {"proxy"}
    assert compose["services"]["proxy"]["image"].startswith("caddy:")


def test_gunicorn_shares_a_network_with_the_proxy_alone(compose):
    """The forwarded headers Django trusts can only come from the proxy: the web service's edge network
    holds the proxy and nothing else."""
    members: dict[str, set[str]] = {}
    for name, service in compose["services"].items():
        for network in service.get("networks") or {"default": None}:
            members.setdefault(network, set()).add(name)
    web_networks = set(compose["services"]["web"]["networks"])
    shared_with_proxy = web_networks & set(compose["services"]["proxy"]["networks"])
    assert shared_with_proxy
    for network in shared_with_proxy:
        assert members[network] == {"proxy", "web"}
    assert compose["services"]["web"]["environment"]["BEHIND_TLS_PROXY"] == "1"


def test_the_proxy_forwards_to_gunicorn():
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert re.search(r"^\s*reverse_proxy\s+web:8000\s*(\{\s*)?$", caddyfile, re.MULTILINE)


def _run_with_web_environment(compose, tmp_path, code: str) -> dict:
    """Run ``code`` (which prints JSON) in a fresh interpreter with the web service's environment."""
    web_env = {key: str(value) for key, value in compose["services"]["web"]["environment"].items()}
    web_env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'prod.sqlite3'}"  # no PostgreSQL container here
    web_env.pop("REDIS_URL")
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**clean, **web_env}, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


PROBE = """
import json, os
os.environ["DJANGO_SETTINGS_MODULE"] = "blognomic.settings"
import django
django.setup()
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
# The image runs collectstatic at build time; here the hashed manifest is not built, so plain storage.
override_settings(STORAGES={{**settings.STORAGES, "staticfiles": {{
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}}}).enable()
call_command("migrate", verbosity=0)
client = Client()
health = client.get("{path}", HTTP_HOST="{host}")
plain = client.get("/accounts/login/", HTTP_HOST="localhost")
wrong_host = client.get("/accounts/login/", HTTP_HOST="{host}")
proxied = client.get("/accounts/login/", HTTP_HOST="localhost", HTTP_X_FORWARDED_PROTO="https")
print(json.dumps({{
    "debug": settings.DEBUG,
    "health": [health.status_code, health.content.decode()],
    "plain": [plain.status_code, plain.get("Location", "")],
    "wrong_host": wrong_host.status_code,
    "proxied": proxied.status_code,
    "csp": proxied.get("Content-Security-Policy", ""),
}}))
"""


def test_the_web_health_check_passes_under_the_production_settings_compose_gives(compose, tmp_path):
    """The health check's request (plain HTTP to 127.0.0.1) gets 200 under DEBUG=0, while any other page
    keeps the host check and the redirect to https, and is served once the proxy says https."""
    check = " ".join(compose["services"]["web"]["healthcheck"]["test"])
    url = re.search(r"http://([\d.]+:\d+)(/[^'\"]*)", check)
    assert url, check
    host, path = url.groups()
    found = _run_with_web_environment(compose, tmp_path, PROBE.format(path=path, host=host))
    assert found["debug"] is False
    assert found["health"] == [200, "database ok\npages ok\n"]
    assert found["plain"] == [301, "https://localhost/accounts/login/"]
    assert found["wrong_host"] == 400
    assert found["proxied"] == 200
    assert "script-src 'self'" in found["csp"]


def test_the_web_service_and_the_image_run_gunicorn_with_its_settings_file(compose):
    """Threaded workers and the rest of deploy/gunicorn.conf.py (tests/test_slow_clients.py), in both."""
    assert "gunicorn -c deploy/gunicorn.conf.py blognomic.wsgi" in " ".join(compose["services"]["web"]["command"])
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "blognomic.wsgi"]' in dockerfile
