"""README's "A tournament's life" runs as written: its commands (the ```sh no-test block of the
refused second submission included) in one shell against a fresh embedded service with the
synthetic federation, after the few lines of README before it that they use (``API``, the
tokens, the headers). Each curl call is answered 2xx, or the status its comment announces."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.test_readme_commands import _PRELUDE as _CURL
from tests.api.test_readme_commands import _environment, _free_port, project  # noqa: F401 - a fixture
from tests.api.test_readme_sessions import README

HEADING = "### A tournament's life"

#: README's lines before the section that its commands use
SETUP = """
export PATH="$PWD/.venv/bin:$PATH"
zdb synth --scale 0.01 >/dev/null 2>&1 || exit 1
ADMIN_TOKEN=$(zdb token create --role admin --label "rating office" 2>/dev/null | tail -n 1)
REFEREE_TOKEN=$(zdb token create --role referee --scope 1 --label "referee 1" 2>/dev/null | tail -n 1)
API=http://127.0.0.1:{port}/api/v1; REF="Authorization: Bearer $REFEREE_TOKEN"
ADMIN="Authorization: Bearer $ADMIN_TOKEN"; JSON='Content-Type: application/json'
"""


@pytest.fixture
def service(project: Path) -> Iterator[int]:  # noqa: F811 - the fixture above
    """``make run``: ``zdb serve`` with ZDB_HOME=var, embedded, on a free port."""
    port = _free_port()
    log = (project / "serve.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "zdb", "serve", "--port", str(port)],
        cwd=project,
        env=_environment(project),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/v1/health/ready", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, (project / "serve.log").read_text()
            assert time.monotonic() < deadline, "the service did not become ready in 60 s"
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _section_commands() -> list[tuple[int, str]]:
    """(line, command) of every shell block of the section, continuations joined."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(lines, start=1) if line.strip() == HEADING)
    commands: list[tuple[int, str]] = []
    inside, pending, first = False, "", 0
    for number, line in enumerate(lines[start:], start=start + 1):
        if line.startswith(("## ", "### ", "**Limits.**")):
            break
        if line.startswith("```"):
            inside = line.strip().startswith("```sh")
            continue
        if not inside or not line.strip() or line.lstrip().startswith("#"):
            continue
        first = first if pending else number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        commands.append((first, pending + line))
        pending = ""
    return commands


def test_a_tournaments_life_runs_as_written(project: Path, service: int) -> None:  # noqa: F811
    commands = _section_commands()
    assert len(commands) >= 9, commands
    script = [_CURL, SETUP.format(port=service)]
    for number, command in commands:
        check = f'[ "$?" -eq 0 ] || {{ echo "line {number} failed" >&2; exit 1; }}'
        script += [f"README_LINE={number}", command, check]
    script.append('printf "%s %s %s %s %s %s\\n" "$LID" "$CODE" "$RID" "$ADMIN_TOKEN" "$CID" "$LINK" > ids')
    curl_log = project / "curl.log"
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=project,
        env={**_environment(project), "CURL_LOG": str(curl_log)},
        capture_output=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    announced = {number: set(re.findall(r"#.*?\b(409)\b", command)) for number, command in commands}
    for entry in curl_log.read_text().splitlines():
        line, status, code = entry.split(" ")
        assert status.startswith("2") or status in announced[int(line)], (entry, done.stdout[-2000:])
        assert code == "0", entry
    assert sum(1 for e in curl_log.read_text().splitlines() if e.split(" ")[1] == "409") == 1
    lid, code, rid, admin, cid, secret = (project / "ids").read_text().split()
    follow = f"/complaints/follow/{secret}"
    api = httpx.Client(base_url=f"http://127.0.0.1:{service}/api/v1", timeout=10)
    deadline = time.monotonic() + 60
    while api.get("/recalculation").json()["state"] != "idle":
        assert time.monotonic() < deadline, "the recalculation did not finish in 60 s"
        time.sleep(0.2)
    assert api.get(f"/announcements/{code}").json()["tournament_id"] == int(lid)
    states = api.get(f"/tournaments/{lid}/states").json()
    assert states["state"] == "evaluated"
    recorded = [(c["state"], c["version"]) for c in states["history"] if c["state"] != "evaluated"]
    # the review: waited, approved by the officer, then evaluated
    review = api.get(f"/reviews/{rid}", headers={"Authorization": f"Bearer {admin}"}).json()
    assert (review["state"], review["reason"]) == ("approved", "crosstable checked")
    reviewed = api.get(f"/tournaments/{review['tournament_id']}/states").json()
    assert reviewed["state"] == "evaluated"
    assert [c["state"] for c in reviewed["history"]] == ["submitted", "in_review", "approved", "evaluated"]
    assert recorded == [("submitted", 1), ("corrected", 2), ("corrected", 3)]
    evaluation = api.get(f"/tournaments/{lid}/evaluation").json()
    assert evaluation["version"] == 3
    # the edition published today: inside its complaint period (the complaint is resolved)
    assert evaluation["provisional"]["reasons"] == ["complaint_period"]
    complaint = api.get(follow).json()
    assert complaint["id"] == int(cid) and complaint["state"] == "resolved"
    assert [n["state"] for n in complaint["notes"]] == ["in_progress", "resolved"]
    assert [(k["kind"], k["target"]) for k in complaint["links"]] == [("correction", f"tournament {lid} version 3")]
    assert "spieler@example.org" not in api.get(follow).text
    rules = api.get("/federations/101/settings").json()
    assert (rules["announcement"], rules["announcement_from"], rules["announcement_days"]) == ("warn", "1", 14)
