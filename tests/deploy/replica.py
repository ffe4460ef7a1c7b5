"""A streaming replica of the test's PostgreSQL, made with ``pg_basebackup`` into a folder of
its own and started on a free port with the machine's PostgreSQL binaries: the replica the
routing of reads (``zdb.db_routing``) is tested against.

The primary must allow it: ``wal_level=replica`` (PostgreSQL's default) and a replication
entry in its ``pg_hba.conf`` for 127.0.0.1 — ``.ci/run`` adds one to the machine's cluster. Where
the primary refuses, the replica's tests are skipped, unless ``ZDB_TEST_REPLICA_REQUIRED`` is set
(``.ci/run`` sets it: in CI they must run).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from tests.deploy.services import free_port, wait

__all__ = ["Replica", "binaries"]

#: the replication slots of the tests' replicas
_SLOT_PREFIX = "zdb_test_replica_"


def binaries() -> Path | None:
    """The folder of the server's own binaries (pg_ctl is not on Debian's PATH)."""
    for version in ("17", "16", "15"):
        folder = Path(f"/usr/lib/postgresql/{version}/bin")
        if (folder / "pg_ctl").exists():
            return folder
    found = shutil.which("pg_ctl")
    return Path(found).parent if found else None


def _as_postgres(command: list[str]) -> list[str]:
    # PostgreSQL refuses to run as root: its files and processes belong to the postgres user
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class Replica:
    """The replica: made once per test session, stopped and started by the tests."""

    def __init__(self, primary_url: str) -> None:
        found = binaries()
        if found is None:
            pytest.skip("no PostgreSQL server binaries on this machine")
        self.bin = found
        primary = make_url(primary_url)
        self.primary_host, self.primary_port = primary.host or "127.0.0.1", primary.port or 5432
        self.user = primary.username or "postgres"
        self.folder = Path(tempfile.mkdtemp(prefix="zdb-replica-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.slot = f"{_SLOT_PREFIX}{self.port}_{os.getpid()}"
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")

    def _primary(self) -> psycopg.Connection:  # type: ignore[type-arg]
        return psycopg.connect(
            host=self.primary_host, port=self.primary_port, user=self.user, dbname="postgres", autocommit=True
        )

    def _drop_slots(self, *, only_this: bool) -> None:
        """This replica's slot, or every inactive one an earlier run left behind (a slot no
        replica reads keeps the primary's WAL for ever)."""
        with self._primary() as connection:
            connection.execute(
                "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                "WHERE NOT active AND slot_name LIKE %s",
                (self.slot if only_this else f"{_SLOT_PREFIX}%",),
            )

    def make(self) -> None:
        self._drop_slots(only_this=False)
        copied = subprocess.run(
            _as_postgres(
                [
                    str(self.bin / "pg_basebackup"),
                    "-h",
                    self.primary_host,
                    "-p",
                    str(self.primary_port),
                    "-U",
                    self.user,
                    "-D",
                    str(self.data),
                    "-R",  # standby.signal and primary_conninfo: it follows the primary
                    "-C",  # a replication slot: the primary keeps the WAL until the replica has it
                    "-S",
                    self.slot,
                    "-X",
                    "stream",
                    "-c",
                    "fast",
                ]
            ),
            check=False,
            capture_output=True,
            text=True,
        )
        if copied.returncode != 0:
            message = f"the primary allows no streaming replica: {copied.stderr.strip()[-400:]}"
            if os.environ.get("ZDB_TEST_REPLICA_REQUIRED"):
                pytest.fail(message)
            pytest.skip(message)
        # Debian keeps a cluster's configuration outside its data folder: the replica gets its own
        settings = (
            f"port = {self.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{self.folder}'\n"
            "hot_standby = on\nmax_connections = 100\nfsync = off\n"
        )
        self._write("postgresql.conf", settings)
        self._write("pg_hba.conf", "local all all trust\nhost all all 127.0.0.1/32 trust\n")

    def _write(self, name: str, content: str) -> None:
        path = self.data / name
        subprocess.run(_as_postgres(["tee", str(path)]), input=content, text=True, check=True, capture_output=True)

    def start(self) -> None:
        log = str(self.folder / "log")
        subprocess.run(
            _as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", log, "-w", "start"]),
            check=True,
            capture_output=True,
        )
        wait(self.answers, 30, "the replica")

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(
            _as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"]),
            check=False,
            capture_output=True,
        )

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
        with contextlib.suppress(psycopg.Error):
            self._drop_slots(only_this=True)

    def log(self) -> str:
        """The end of the replica's server log (where a wait for it timed out)."""
        path = self.folder / "log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{database}"

    def _connect(self, database: str = "postgres") -> psycopg.Connection:  # type: ignore[type-arg]
        return psycopg.connect(host="127.0.0.1", port=self.port, user=self.user, dbname=database, autocommit=True)

    def answers(self, database: str = "postgres") -> bool:
        try:
            with self._connect(database) as connection:
                return bool(connection.execute("SELECT pg_is_in_recovery()").fetchone())
        except psycopg.OperationalError:
            return False

    def caught_up(self) -> bool:
        """It has replayed everything it received (and answers)."""
        try:
            with self._connect() as connection:
                row = connection.execute("SELECT pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()").fetchone()
                return bool(row and row[0])
        except psycopg.OperationalError:
            return False

    def has(self, database: str) -> None:
        """Wait until a database made on the primary is there."""
        try:
            wait(lambda: self.answers(database), 120, f"the database {database} on the replica")
        except pytest.fail.Exception:
            print(self.log())
            raise

    def pause(self) -> None:
        with self._connect() as connection:
            connection.execute("SELECT pg_wal_replay_pause()")

    def resume(self) -> None:
        with self._connect() as connection:
            connection.execute("SELECT pg_wal_replay_resume()")

    def settle(self, primary_url: str) -> None:
        """A commit on the primary, replayed here: the replica's last replayed moment is now."""
        url = make_url(primary_url)
        with psycopg.connect(
            host=url.host, port=url.port or 5432, user=url.username, dbname=url.database, autocommit=True
        ) as connection:
            connection.execute("CREATE TEMPORARY TABLE settle (x int)")
            connection.execute("SELECT txid_current()")
        time.sleep(0.05)
        wait(self.caught_up, 120, "the replica to catch up")
