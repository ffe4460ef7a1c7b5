"""Drills of the background work's own failures, with real processes as in ``test_drills``
(``zdb serve``, ``zdb worker`` and ``zdb beat``, a Redis of the drills' own, PostgreSQL):

* a list import's worker killed in the middle, while late tournaments wait: the recalculation's
  worker evaluates them meanwhile (imports have a queue and a worker of their own), the sweep
  marks the import failed because its worker was lost, and no worker takes it up again;
* beat killed during a Redis outage while submissions are accepted: readiness reports the sweep
  as stopped, and once beat is back every accepted submission is evaluated;
* a ZIP bomb uploaded while a late tournament waits: the late tournament is evaluated while the
  import's worker is held, the bomb is refused at the bound for unpacked data, naming it, and the
  import's worker does not unpack it (its peak memory is printed).

Each prints its time to consistency (not asserted: the machine is shared).
"""

from __future__ import annotations

import io
import os
import shutil
import signal
import time
import zipfile
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.db.test_drills import (  # noqa: F401 - fixtures used here
    Production,
    _all_accepted,
    _stop,
    _wait,
    broker,
    drill_template,
    production,
)
from workers.celery_app import create_app as create_celery
from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.lists.lost_imports import WORKER_LOST
from zdb.lists.models import ListImport
from zdb.service_beats import SWEEP, last_beat
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="the drills stop a Redis of their own"),
]

#: memberships of the uploaded list: enough for an import of several seconds
_LIST_SIZE = 60_000
_MB = 1024 * 1024
#: line ends the ZIP bomb unpacks to (it packs to some 250 KB), and the test's bound for unpacked
#: data: an import that unpacked the bomb whole would hold 32 times the bound
_BOMB_BYTES = 256 * _MB
_UNPACKED_BOUND = 8 * _MB


def _import_state(url: str, import_id: int) -> tuple[str, str | None, bool]:
    with engine_for(url).connect() as connection:
        status, error, beat = connection.execute(
            select(ListImport.status, ListImport.error, ListImport.heartbeat_at).where(ListImport.id == import_id)
        ).one()
    return status, error, beat is not None


def _bomb() -> bytes:
    """A rating-list ZIP whose ``spieler.csv`` is a valid header and then ``_BOMB_BYTES`` line
    ends, written in chunks (never whole in memory); its other files are valid and empty."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("spieler.csv", "w", force_zip64=True) as member:
            member.write(
                b"ID,ZPS,Mgl-Nr,Status,Spielername,Geschlecht,Spielberechtigung,Geburtsjahr,Letzte-Auswertung,DWZ\r\n"
            )
            chunk = b"\n" * _MB
            for _ in range(_BOMB_BYTES // _MB):
                member.write(chunk)
        archive.writestr("vereine.csv", "ZPS-Nummer,Landesverband,UebergeordneterVerband,Vereinsname\r\n")
        archive.writestr("verbaende.csv", "Verbandnummer,Landesverband,UebergeordneterVerband,Verbandname\r\n")
    return buffer.getvalue()


def _peak_memory(group: int) -> dict[int, int]:
    """The peak resident memory (VmHWM, bytes) of every process of the process group ``group``
    (a worker and its pool), read from /proc while they live."""
    peaks: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getpgid(int(entry.name)) != group:
                continue
            status = (entry / "status").read_text()
        except (ProcessLookupError, FileNotFoundError, PermissionError):
            continue  # ended meanwhile, or not ours
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peaks[int(entry.name)] = int(line.split()[1]) * 1024  # given in kB
    return peaks


def _sweeps(url: str) -> float:
    """When the sweep last ran (seconds since the epoch; 0 if never)."""
    with unit_of_work(engine_for(url)) as session:
        at = last_beat(session, SWEEP)
    return 0.0 if at is None else at.timestamp()


def test_an_import_worker_killed_mid_import_while_late_tournaments_wait(
    production: Production,  # noqa: F811 - the fixture imported above
    capsys: pytest.CaptureFixture[str],
) -> None:
    production.settings.update({"ZDB_IMPORT_HEARTBEAT_SECONDS": "0.5", "ZDB_IMPORT_LOST_SECONDS": "4"})
    with unit_of_work(engine_for(production.url)) as session:
        secret = create_token(session, "admin", label="staff").secret
    with TestClient(create_app(Settings(database_url=production.url), recalculation=False)) as client:
        uploaded = client.post(
            "/api/v1/lists/imports",
            files={"file": ("LV-0-csv.zip", list_zip_bytes(synthetic_list(7, _LIST_SIZE)), "application/zip")},
            data={"list_date": "2026-11-30", "dry_run": "true"},
            headers={"Authorization": f"Bearer {secret}"},
        )
    assert uploaded.status_code == 202, uploaded.text
    import_id = uploaded.json()["id"]
    # each queue its worker, as compose runs them: the recalculation's (with beat) never takes an import
    production._start("worker", "--loglevel=warning", "--beat", "--queues", "recalculation")
    importer = production._start("worker", "--loglevel=warning", "--no-beat", "--queues", "imports")
    production.serve()
    # routed to the imports' queue by the Celery app's routes, as the API sends it
    create_celery(Settings(broker_url=production.redis.url)).send_task("zdb.import_list", args=[import_id])
    _wait(lambda: _import_state(production.url, import_id)[0] == "running", 120, "the import's start")
    # the import's worker held where it stands, so that the import cannot end before the late
    # tournaments are evaluated however fast this machine is (its heartbeat stops with it)
    os.killpg(importer.pid, signal.SIGSTOP)

    started = time.monotonic()
    _all_accepted([production.send(k) for k in range(3)])  # late tournaments while the import runs
    evaluated = _wait(production.consistent, 120, "the late tournaments' evaluation")
    # not waited for: the import never ended (the sweep may already call its silent worker lost)
    assert _import_state(production.url, import_id)[0] in ("running", "failed")

    _stop(importer, signal.SIGKILL)  # the import's worker and its pool: no clean-up of any kind
    killed = time.monotonic()
    _wait(lambda: _import_state(production.url, import_id)[0] == "failed", 120, "the sweep closing the import")
    closed = time.monotonic() - killed
    status, error, _ = _import_state(production.url, import_id)
    assert (status, error) == ("failed", WORKER_LOST)

    # a new import worker is not handed the lost import: it stays failed over two more sweeps
    production._start("worker", "--loglevel=warning", "--no-beat", "--queues", "imports")
    swept = _sweeps(production.url)
    _wait(lambda: _sweeps(production.url) > swept + 1, 60, "two more sweeps")
    assert _import_state(production.url, import_id)[0] == "failed"
    production.assert_nothing_lost("import worker killed mid-import", time.monotonic() - started, capsys)
    with capsys.disabled():
        print(
            f"[drill] late tournaments evaluated {evaluated:.1f} s after their submission while the import ran; "
            f"the lost import closed {closed:.1f} s after its worker was killed"
        )


def test_beat_killed_during_a_redis_outage(
    production: Production,  # noqa: F811 - the fixture imported above
    capsys: pytest.CaptureFixture[str],
) -> None:
    production.settings.update({"ZDB_SWEEP_STALE_SECONDS": "5"})
    worker = production._start("worker", "--loglevel=warning", "--no-beat", "--queues", "all")
    beat = production._start("beat", "--loglevel=warning")
    production.serve()
    _wait(lambda: _sweeps(production.url) > 0, 60, "the first sweep")
    production.redis.stop()  # the queue's messages are gone with it
    _stop(beat, signal.SIGKILL)  # beat dies too: nothing would send the recalculation again
    _all_accepted([production.send(k) for k in range(20)])  # accepted while Redis is down
    production.redis.start()

    def sweep_reported() -> bool:
        answer = httpx.get(f"{production.api}/health/ready", timeout=10)
        places = [e["place"] for e in answer.json().get("errors", [])] if answer.status_code == 503 else []
        return places == ["sweep"]

    noticed = _wait(sweep_reported, 60, "readiness reporting the stopped sweep")
    assert not production.consistent()  # nothing sent the recalculation: only the sweep would
    production._start("beat", "--loglevel=warning")  # what compose's restart policy does
    restarted = time.monotonic()
    if worker.poll() is not None:
        # Celery's worker may itself end on the lost connection ("Unrecoverable error"); compose
        # restarts it as it restarts beat
        production._start("worker", "--loglevel=warning", "--no-beat", "--queues", "all")
    _wait(production.consistent, 120, "a consistent database")
    production.assert_nothing_lost("beat killed during a Redis outage", time.monotonic() - restarted, capsys)
    _wait(lambda: httpx.get(f"{production.api}/health/ready", timeout=10).status_code == 200, 60, "readiness")
    with capsys.disabled():
        print(f"[drill] readiness reported the stopped sweep {noticed:.1f} s after Redis was back")


def test_a_zip_bomb_uploaded_while_a_late_tournament_waits(
    production: Production,  # noqa: F811 - the fixture imported above
    capsys: pytest.CaptureFixture[str],
) -> None:
    production.settings.update({"ZDB_MAX_UNPACKED_BYTES": str(_UNPACKED_BOUND)})
    bomb = _bomb()
    with unit_of_work(engine_for(production.url)) as session:
        staff = {"Authorization": f"Bearer {create_token(session, 'admin', label='staff').secret}"}
    # each queue a worker of its own, as in compose: the recalculation's never takes an import
    production._start("worker", "--loglevel=warning", "--beat", "--queues", "recalculation")
    importer = production._start("worker", "--loglevel=warning", "--no-beat", "--queues", "imports")
    production.serve()
    _wait(lambda: len(_peak_memory(importer.pid)) > 1, 60, "the import worker's pool process")
    before = _peak_memory(importer.pid)
    # Held, so that nothing but the recalculation's own worker can bring the late tournament's
    # evaluation about: it must not wait for the import, however long the import takes. (A bomb
    # is refused from the ZIP's directory within milliseconds, so an evaluation that merely ended
    # while the import ran could not be told apart without depending on the machine's speed.)
    os.killpg(importer.pid, signal.SIGSTOP)
    try:
        uploaded = httpx.post(
            f"{production.api}/lists/imports",
            files={"file": ("LV-0-csv.zip", bomb, "application/zip")},
            headers=staff,
            timeout=60,
        )
        assert uploaded.status_code == 202, uploaded.text
        import_id = uploaded.json()["id"]
        _all_accepted([production.send(0)])  # the late tournament, right after the bomb
        evaluated = _wait(production.consistent, 120, "the late tournament's evaluation")
        assert _import_state(production.url, import_id)[0] == "waiting"  # not waited for, not taken up
    finally:
        os.killpg(importer.pid, signal.SIGCONT)
    released = time.monotonic()
    _wait(lambda: _import_state(production.url, import_id)[0] not in ("waiting", "running"), 120, "the import's end")
    refused = time.monotonic() - released
    after = _peak_memory(importer.pid)  # before the worker ends: the fixture kills it

    answer = httpx.get(f"{production.api}/lists/imports/{import_id}", headers=staff, timeout=10).json()
    assert answer["status"] == "refused", answer
    assert answer["error"] == (
        "spieler.csv: the unpacked file spieler.csv would be larger than 8 MB (the bound for unpacked uploads, "
        "ZDB_MAX_UNPACKED_BYTES)"
    )
    assert importer.poll() is None  # the import's worker lives on for the next upload
    # The bomb was not unpacked whole: no process of the import's worker grew by half of it.
    grown = {pid: after[pid] - before.get(pid, 0) for pid in after}
    assert max(grown.values()) < _BOMB_BYTES // 2, (before, after)
    production.assert_nothing_lost("ZIP bomb uploaded while a late tournament waits", evaluated, capsys)
    peak, growth = max(after.values()) / _MB, max(grown.values()) / _MB
    with capsys.disabled():
        print(
            f"[drill] late tournament evaluated {evaluated:.1f} s after its submission while the import's worker "
            f"was held; the bomb ({len(bomb) // 1024} KB packed, "
            f"{_BOMB_BYTES // _MB} MB unpacked) refused {refused:.1f} s after the worker went on; import worker's "
            f"peak memory (VmHWM) {peak:.0f} MB, grown by at most {growth:.1f} MB"
        )
