"""docker-compose.yml runs commands of this project: each one exists with the options it is
given, the environment it sets is what the settings read, and its health checks ask for paths
the API serves; the Dockerfile installs the wheel with the locked versions, not the source tree
(tests/packaging/test_wheel.py installs it the same way). No container is started here; this
keeps the files true to the code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from tests.conftest import ROOT
from zdb.app import create_app
from zdb.cli import main
from zdb.config import Settings

COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
OURS = {name: service for name, service in COMPOSE["services"].items() if service.get("image") == "zdb:latest"}


def _expanded(value: str) -> str:
    """``${NAME:-default}`` as compose expands it with NAME unset; a required ``${NAME:?…}`` as
    with NAME set to ``secret``."""
    value = re.sub(r"\$\{[A-Z_]+:\?[^}]*\}", "secret", value)
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def test_compose_refuses_to_start_without_a_password() -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    uses = re.findall(r"\$\{POSTGRES_PASSWORD([^}]*)\}", text)
    assert len(uses) >= 2 and all(use.startswith(":?") for use in uses), uses  # required, no fallback


def test_the_project_runs_every_process_of_production() -> None:
    assert {" ".join(service["command"][:1]) for service in OURS.values()} == {"db", "serve", "worker", "beat"}
    beats = [name for name, service in OURS.items() if service["command"][0] == "beat"]
    assert beats == ["beat"] and "--no-beat" in OURS["worker"]["command"]  # one sweeper, not two


@pytest.mark.parametrize("name", sorted(OURS))
def test_each_command_exists_with_its_options(name: str) -> None:
    # --help comes last: an unknown command or option fails before it is reached.
    result = CliRunner().invoke(main, [*OURS[name]["command"], "--help"])
    assert result.exit_code == 0, result.output


def test_the_environment_selects_the_production_mode() -> None:
    environment = {key: _expanded(str(value)) for key, value in OURS["api"]["environment"].items()}
    settings = Settings.from_environment(environment)
    assert not settings.embedded and not settings.is_sqlite
    assert settings.database_url.startswith("postgresql+psycopg://") and settings.broker_url == "redis://redis:6379/0"
    # the replica's reads (zdb.db_routing) and uvicorn's trust in the proxy's X-Forwarded-For
    assert set(environment) <= {"ZDB_DATABASE_URL", "ZDB_BROKER_URL", "ZDB_REPLICA_URLS", "FORWARDED_ALLOW_IPS"}
    assert settings.replica_urls and all(url.startswith("postgresql+psycopg://") for url in settings.replica_urls)


def test_the_health_check_asks_for_a_path_the_api_serves(tmp_path: Path) -> None:
    command = OURS["api"]["command"]
    port = command[command.index("--port") + 1]
    (check,) = re.findall(rf"http://127\.0\.0\.1:{port}(/[^']*)", " ".join(OURS["api"]["healthcheck"]["test"]))
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'zdb.sqlite3'}"), recalculation=False)
    assert "get" in app.openapi()["paths"][check]


def test_the_image_installs_the_wheel_with_the_locked_versions() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    commands = " ".join(re.findall(r"^RUN ((?:.*\\\n)*.*)", dockerfile, flags=re.MULTILINE)).replace("\\\n", " ")
    assert "pip install --no-cache-dir --require-hashes -r /tmp/requirements.lock" in commands
    assert "pip install --no-cache-dir --no-deps /tmp/dist/*.whl" in commands and "pip check" in commands
    assert " -e " not in commands and "--editable" not in commands  # the wheel, not the source tree
    assert "COPY requirements.lock /tmp/requirements.lock" in dockerfile
    (home,) = re.findall(r"ZDB_HOME=(\S+)", dockerfile)
    assert 'chown zdb "$ZDB_HOME"' in commands and f"WORKDIR {home}" in dockerfile
