"""docker-compose.yml stays valid for the compose tools operators use (checked offline)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_compose_file_is_valid():
    """`docker-compose config -q` accepts the file: postgres, redis, web, worker and beat with health checks."""
    tool = shutil.which("docker-compose")
    if tool is None:
        pytest.fail("docker-compose is missing: `make test` installs Debian's docker-compose package.")
    env = {**os.environ, "SECRET_KEY": "validation-only"}
    result = subprocess.run([tool, "-f", "docker-compose.yml", "config", "-q"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    services = subprocess.run([tool, "-f", "docker-compose.yml", "config", "--services"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60).stdout.split()
    assert set(services) == {"postgres", "redis", "web", "worker", "beat"}
    text = (ROOT / "docker-compose.yml").read_text()
    assert text.count("healthcheck:") == 5
