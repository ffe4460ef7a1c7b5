"""``zdb token`` and ``zdb serve``: tokens are stored hashed and shown once; revoking one by its
prefix or id locks it out; ``serve`` migrates the embedded database and starts uvicorn. Each
names its database on stderr. No test needs a fixed port: ``serve`` is given a free one while
its default port is held (as by a ``make run`` beside the tests)."""

from __future__ import annotations

import hashlib
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from tests.api.world import CLUBS, FEDERATIONS
from zdb.app import create_app
from zdb.audit.models import AuditEntry
from zdb.auth.models import ApiToken
from zdb.cli import main
from zdb.cli.api_commands import serve_command
from zdb.config import Settings, settings
from zdb.db import engine_for, unit_of_work
from zdb.federations.models import Club, Federation


def _zdb(url: str, *args: str) -> Any:
    return CliRunner().invoke(main, [*args, "--database-url", url])


def _with_clubs(url: str) -> None:
    with unit_of_work(engine_for(url)) as session:
        for prefix, name, level, parent in FEDERATIONS:
            session.add(Federation(prefix=prefix, name=name, level=level, parent_prefix=parent))
            session.flush()
        for code, name, federation in CLUBS:
            session.add(Club(code=code, name=name, federation_prefix=federation))


def test_create_list_and_revoke(sqlite_url: str) -> None:
    _with_clubs(sqlite_url)
    created = _zdb(sqlite_url, "token", "create", "--role", "club", "--scope", "C0327", "--label", "club software")
    assert created.exit_code == 0, created.output
    assert created.stderr == f"database: {sqlite_url}\n"
    header, secret = created.stdout.strip().splitlines()
    assert secret.startswith("zdb_") and "club C0327" in header
    with unit_of_work(engine_for(sqlite_url)) as session:
        (token,) = session.execute(select(ApiToken)).scalars()
        stored = [str(getattr(token, c.key)) for c in ApiToken.__table__.columns]
        assert token.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
        assert secret not in stored and secret.startswith(token.prefix)
    client = TestClient(create_app(Settings(database_url=sqlite_url), recalculation=False))
    me = client.get("/api/v1/me", headers={"Authorization": f"Bearer {secret}"}).json()
    assert (me["role"], me["scope"]) == ("club", "C0327")

    listed = _zdb(sqlite_url, "token", "list")
    assert token.prefix in listed.output and secret not in listed.output and "club software" in listed.output

    revoked = _zdb(sqlite_url, "token", "revoke", token.prefix)
    assert revoked.exit_code == 0 and "revoked" in revoked.output
    assert client.get("/api/v1/me", headers={"Authorization": f"Bearer {secret}"}).status_code == 401
    assert "revoked" in _zdb(sqlite_url, "token", "list").output
    again = _zdb(sqlite_url, "token", "revoke", str(token.id))
    assert again.exit_code == 2 and "already revoked" in again.output
    with unit_of_work(engine_for(sqlite_url)) as session:
        actions = list(session.execute(select(AuditEntry.action).order_by(AuditEntry.id)).scalars())
    assert actions == ["token.create", "token.revoke"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--role", "referee"], "needs a club-code prefix"),
        (["--role", "referee", "--scope", "C-1"], "needs a club-code prefix"),
        (["--role", "club", "--scope", "Z9999"], "no club has the code"),
        (["--role", "admin", "--scope", "C"], "has no scope"),
    ],
)
def test_bad_tokens_are_refused(sqlite_url: str, args: list[str], message: str) -> None:
    _with_clubs(sqlite_url)
    refused = _zdb(sqlite_url, "token", "create", *args)
    assert refused.exit_code == 2 and message in refused.output


def test_revoking_names_one_token(sqlite_url: str) -> None:
    assert "no token" in _zdb(sqlite_url, "token", "revoke", "zdb_nothing").output
    for _ in range(2):
        assert _zdb(sqlite_url, "token", "create", "--role", "referee", "--scope", "C").exit_code == 0
    with unit_of_work(engine_for(sqlite_url)) as session:
        session.execute(update(ApiToken).values(prefix="zdb_same1234"))
    ambiguous = _zdb(sqlite_url, "token", "revoke", "zdb_same1234")
    assert ambiguous.exit_code == 2 and "several tokens" in ambiguous.output


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def default_port_taken() -> Iterator[None]:
    """``serve``'s default port is in use while the test runs (by us, or already by a server)."""
    (default,) = [option.default for option in serve_command.params if option.name == "port"]
    with socket.socket() as holder:
        try:
            holder.bind(("127.0.0.1", default))
            holder.listen()
        except OSError:
            pass  # another process holds it: just as good
        yield


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch, default_port_taken: None) -> Iterator[list[dict[str, Any]]]:
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append({"app": app, **options}))
    settings.cache_clear()
    yield calls
    settings.cache_clear()


def test_serve_embedded_migrates_first(served: list[dict[str, Any]], tmp_path: Path, monkeypatch: Any) -> None:
    path = tmp_path / "fresh.sqlite3"
    monkeypatch.setenv("ZDB_DATABASE_URL", f"sqlite:///{path}")
    monkeypatch.delenv("ZDB_BROKER_URL", raising=False)
    port = _free_port()
    result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert f"database: sqlite:///{path}" in result.stderr
    assert served == [
        {"app": "zdb.app:app_from_environment", "factory": True, "host": "127.0.0.1", "port": port, "workers": 1}
    ]
    client = TestClient(create_app(Settings(database_url=f"sqlite:///{path}"), recalculation=False))
    assert client.get("/api/v1/health").status_code == 200  # migrated: every table is there
    refused = CliRunner().invoke(main, ["serve", "--workers", "2", "--port", str(_free_port())])
    assert refused.exit_code == 2 and "one process" in refused.output


def test_serve_production_leaves_migrations_alone(
    served: list[dict[str, Any]], tmp_path: Path, monkeypatch: Any
) -> None:
    path = tmp_path / "absent.sqlite3"
    monkeypatch.setenv("ZDB_DATABASE_URL", f"sqlite:///{path}")
    monkeypatch.setenv("ZDB_BROKER_URL", "redis://127.0.0.1:6379/0")
    result = CliRunner().invoke(main, ["serve", "--workers", "3", "--host", "0.0.0.0", "--port", str(_free_port())])
    assert result.exit_code == 0, result.output
    assert served[0]["workers"] == 3 and served[0]["host"] == "0.0.0.0"
    assert not path.exists()


def test_serve_refuses_a_taken_port_at_once(served: list[dict[str, Any]], sqlite_url: str, monkeypatch: Any) -> None:
    monkeypatch.setenv("ZDB_DATABASE_URL", sqlite_url)
    monkeypatch.delenv("ZDB_BROKER_URL", raising=False)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert served == []  # neither migrated nor started
