"""The wheel as production installs it, never editable: built from what the Dockerfile copies
(an sdist, then the wheel from it), installed into a fresh virtual environment with the pinned
versions of requirements.lock (checked against their hashes, as the image does). From there,
away from the source tree, ``zdb db upgrade`` migrates SQLite and PostgreSQL, and a smoke test
serves the embedded mode on a free port, creates an admin token, submits a small tournament
through the API, waits for its recalculation and reads the rating back.

Slow (about a minute: the build and the install take most of it, from uv's cache after the
first run); ``make test`` runs it, ``-m 'not slow'`` leaves it out.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy.engine import make_url
from uv import find_uv_bin

from tests.conftest import ROOT
from tests.databases import _admin, _with_database

pytestmark = pytest.mark.slow

UV = find_uv_bin()


def _run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 300) -> str:
    """Run a command; its stdout, or the test fails with everything it said."""
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{command} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def _build_context(target: Path) -> Path:
    """What the Dockerfile's first stage copies (its COPY lines), and nothing else."""
    stage = (ROOT / "Dockerfile").read_text(encoding="utf-8").split("\nFROM ")[1]
    target.mkdir()
    for sources in re.findall(r"^COPY (?!--)(.+) \S+$", stage, flags=re.MULTILINE):
        for name in sources.split():
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(source, target / name)
    return target


@dataclass(frozen=True)
class Installed:
    bin: Path
    #: where the commands run: no source tree in it or above it
    elsewhere: Path

    def environment(self, **settings: str) -> dict[str, str]:
        clean = {k: v for k, v in os.environ.items() if not k.startswith(("ZDB_", "PYTHON", "VIRTUAL_ENV"))}
        return {**clean, **settings}

    def zdb(self, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / "zdb"), *args],
            cwd=self.elsewhere,
            env=self.environment(**settings),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    work = tmp_path_factory.mktemp("wheel")
    source = _build_context(work / "source")
    _run(UV, "build", "--python", sys.executable, "--out-dir", work / "dist", source, cwd=work)
    (wheel,) = (work / "dist").glob("zdb-*.whl")
    venv = work / "venv"
    _run(UV, "venv", "--python", sys.executable, venv, cwd=work)
    python = venv / "bin" / "python"
    # compiled as pip (and so the image) does, not at each first import
    lock = ROOT / "requirements.lock"
    _run(UV, "pip", "install", "--python", python, "--compile-bytecode", "--require-hashes", "-r", lock, cwd=work)
    _run(UV, "pip", "install", "--python", python, "--compile-bytecode", "--no-deps", wheel, cwd=work)
    _run(UV, "pip", "check", "--python", python, cwd=work)
    shutil.rmtree(source)
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    yield Installed(venv / "bin", elsewhere)
    shutil.rmtree(venv)  # a few hundred megabytes


def test_the_wheel_is_installed_not_the_source_tree(installed: Installed) -> None:
    where = _run(
        installed.bin / "python",
        "-c",
        "import zdb, zdb.migrate; print(zdb.__file__); print(zdb.migrate.migrations_folder())",
        cwd=installed.elsewhere,
        env=installed.environment(),
    ).split()
    site = installed.bin.parent / "lib"
    assert all(Path(path).is_relative_to(site) for path in where), where
    assert Path(where[1]).name == "_migrations" and (Path(where[1]) / "versions").is_dir()


def test_db_upgrade_migrates_sqlite(installed: Installed, tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = installed.zdb("db", "upgrade", ZDB_HOME=str(home))
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"database: sqlite:///{home / 'zdb.sqlite3'}\n" and "database at head" in done.stdout
    checked = installed.zdb("export", ZDB_HOME=str(home))  # this version's schema, or it says otherwise
    assert checked.returncode == 0 and json.loads(checked.stdout), checked.stderr


def test_db_upgrade_migrates_postgresql(installed: Installed, postgres_server: str) -> None:
    name = f"zdb_wheel_{uuid.uuid4().hex[:12]}"
    with _admin(postgres_server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(postgres_server, name)
    try:
        done = installed.zdb("db", "upgrade", ZDB_DATABASE_URL=url)
        assert done.returncode == 0, done.stderr
        assert done.stderr == f"database: {make_url(url).render_as_string(hide_password=True)}\n"
        listed = installed.zdb("token", "list", "--database-url", url)  # this version's schema, or it says so
        assert listed.returncode == 0, listed.stderr
        parsed = make_url(url)
        with psycopg.connect(
            host=parsed.host, port=parsed.port or 5432, user=parsed.username, password=parsed.password, dbname=name
        ) as connection:
            (revision,) = connection.execute("SELECT version_num FROM alembic_version").fetchone() or ("",)
        assert revision == max(path.stem.split("_")[0] for path in (ROOT / "migrations" / "versions").glob("0*.py"))
    finally:
        with _admin(postgres_server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Api:
    base: str
    token: str

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


@pytest.fixture
def served(installed: Installed, tmp_path: Path) -> Iterator[Api]:
    """``zdb serve`` of the wheel, embedded, on a free port; a small federation, an admin token."""
    home = str(tmp_path / "home")
    assert installed.zdb("db", "upgrade", ZDB_HOME=home).returncode == 0
    loaded = installed.zdb("synth", "--scale", "0.001", ZDB_HOME=home)
    assert loaded.returncode == 0, loaded.stderr
    created = installed.zdb("token", "create", "--role", "admin", "--label", "smoke test", ZDB_HOME=home)
    assert created.returncode == 0, created.stderr
    token = created.stdout.split()[-1]
    port = _free_port()
    server = subprocess.Popen(
        [str(installed.bin / "zdb"), "serve", "--port", str(port)],
        cwd=installed.elsewhere,
        env=installed.environment(ZDB_HOME=home, ZDB_SWEEP_SECONDS="1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    api = Api(f"http://127.0.0.1:{port}/api/v1", token)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.communicate()[1]
            try:
                if api.call("GET", "/health")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not answer within a minute"
            time.sleep(0.2)
        yield api
    finally:
        server.terminate()
        try:
            _, said = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            _, said = server.communicate()
    assert f"database: sqlite:///{home}/zdb.sqlite3" in said


def test_a_tournament_submitted_to_the_served_wheel_is_rated(served: Api) -> None:
    status, top = served.call("GET", "/ratings/top?limit=2")
    assert status == 200 and len(top["items"]) == 2, top
    first, second = top["items"]
    federation = first["clubs"][0]["code"][:1] if first["clubs"] else ""
    status, last = served.call("GET", "/tournaments?limit=1&offset=0")
    assert status == 200, last
    end = max(row["end_date"] for row in last["items"]) if last["items"] else "2026-01-01"
    tournament = {
        "acronym": "SMK",
        "name": "Smoke test",
        "federation": federation,
        "end_date": end,
        "time_control": "90 min + 30 s",
        "players": [{"pkz": first["pkz"]}, {"pkz": second["pkz"]}],
        "games": [{"round": 1, "white": 1, "black": 2, "result": "0-1"}],
    }
    status, submitted = served.call("POST", "/tournaments", tournament)
    assert status == 201, submitted
    deadline = time.monotonic() + 60
    while (detail := served.call("GET", f"/tournaments/{submitted['id']}")[1])["status"] != "evaluated":
        assert time.monotonic() < deadline, f"not evaluated within a minute: {detail}"
        time.sleep(0.3)
    status, report = served.call("GET", f"/tournaments/{submitted['id']}/evaluation")
    assert status == 200 and report["current"], report
    rows = {row["pkz"]: row for row in report["rows"]}
    assert rows[first["pkz"]]["r0"] == first["rating"] and rows[first["pkz"]]["w"] == 0
    status, card = served.call("GET", f"/players/{first['pkz']}")
    assert status == 200 and card["rating"] == rows[first["pkz"]]["rn"] < first["rating"], (card, rows)
