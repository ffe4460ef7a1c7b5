"""README's commands work as written: every command of README's ```sh blocks runs, in README's
order and in one shell, against a fresh embedded service (SQLite, the recalculation in a thread)
in a temporary ZDB_HOME on a free port, from a folder laid out like the project's. Each command
must exit 0 and each curl call must be answered 2xx; the few commands a test cannot run (a second
service, Docker, the benchmarks) are listed below with the reason. ``test_readme_sessions.py``
beside this matches the same curl calls against the OpenAPI document."""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.test_readme_sessions import README, _shell_blocks

PROJECT = README.parent

#: README commands this test does not run, by how they start, and why.
NOT_RUN = {
    "make run": "the test starts the same service itself (zdb serve in ZDB_HOME), on a free port",
    "make test": "the suite this test belongs to",
    "zdb worker": "the production worker needs Redis and runs until stopped",
    "zdb serve": "runs until stopped; the test's service is this command",
    'echo "POSTGRES_PASSWORD': "production with Docker",
    "docker ": "production with Docker",
    ".venv/bin/python benchmarks/": "benchmarks take minutes",
    "zdb lists import FILE": "the reference list names a file; the first day's session runs it on a generated list",
    "zdb lists rebaseline FILE": "the reference list names a file; tests/db/test_list_commands.py runs it",
    "zdb fide import FILE": "the reference list names a file; FIDE's list is not in the repository",
    "pg_dump ": "backup of a production PostgreSQL server (tests/db/test_backup_restore.py runs it)",
    "pg_restore ": "restore into a production PostgreSQL server (tests/db/test_backup_restore.py runs it)",
    "ZDB_DATABASE_URL=postgresql": "a production PostgreSQL server (tests/db/test_backup_restore.py runs it)",
}

#: README commands that README says are refused at their place in the sessions: exit status and
#: what the message says. The quick look at the top has loaded the synthetic federation already.
REFUSED = {"zdb synth --scale 1.0": (1, "already holds players")}

#: curl's exit status when ``| head`` has closed the pipe before the whole answer was written.
CURL_PIPE_CLOSED = 23

_CURL = """
curl() {
    local headers rc
    headers=$(mktemp)
    command curl -D "$headers" "$@"; rc=$?
    printf '%s %s %s\\n' "$README_LINE" "$(awk '/^HTTP\\//{c=$2} END{print c}' "$headers")" "$rc" >>"$CURL_LOG"
    rm -f "$headers"
    return $rc
}
"""


#: README sections whose commands need a database of their own, and the test that runs them so
SECTIONS_RUN_ELSEWHERE = {
    "## A federation's first day": "an empty database: tests/api/test_readme_first_day.py runs the session",
}


def _sections_run_elsewhere(text: str) -> list[range]:
    """The line ranges of SECTIONS_RUN_ELSEWHERE (a section ends where the next ``## `` begins)."""
    lines = text.splitlines()
    ranges = []
    for heading in SECTIONS_RUN_ELSEWHERE:
        start = next(n for n, line in enumerate(lines, start=1) if line.strip() == heading)
        end = next((n for n, line in enumerate(lines, start=1) if n > start and line.startswith("## ")), len(lines))
        ranges.append(range(start, end))
    return ranges


def _commands() -> list[tuple[int, str]]:
    text = README.read_text(encoding="utf-8")
    elsewhere = _sections_run_elsewhere(text)
    return [
        (line, command)
        for line, command in _shell_blocks(text)
        if _words(command) and not any(line in section for section in elsewhere)
    ]


def _words(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


def _not_run(command: str) -> str | None:
    return next((prefix for prefix in NOT_RUN if command.lstrip().startswith(prefix)), None)


def _refused(command: str) -> tuple[int, str] | None:
    return next((v for prefix, v in REFUSED.items() if command.lstrip().startswith(prefix)), None)


def _script(commands: list[tuple[int, str]], port: int) -> str:
    lines = [_CURL]
    for number, command in commands:
        if _not_run(command) is not None:
            continue
        expected, _ = _refused(command) or (0, "")
        lines += [
            f"README_LINE={number}",
            f'echo ">>> README line {number} at $SECONDS s" >&2',
            command.replace("127.0.0.1:8000", f"127.0.0.1:{port}"),
            f'rc=$?; if [ "$rc" -ne {expected} ]; then echo "README line {number}: exit $rc" >&2; exit 1; fi',
        ]
    # Not README's: hands the ids the sessions kept to the checks below.
    lines.append('printf \'%s %s\\n\' "$TID" "$SID" >"$IDS"')
    return "\n".join(lines) + "\n"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _environment(folder: Path) -> dict[str, str]:
    """A newcomer's shell: no ZDB_* settings of the test run, a home of its own."""
    keep = {"PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT"}
    environment = {k: v for k, v in os.environ.items() if k in keep}
    return {**environment, "HOME": str(folder), "ZDB_HOME": str(folder / "var")}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder laid out like the project's, so that README's relative paths hold and what the
    commands write (results.json, dwz.zip, var/) stays out of the checkout."""
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    for name in ("zdb", "examples"):
        (folder / name).symlink_to(PROJECT / name, target_is_directory=True)
    return folder


@pytest.fixture
def service(project: Path) -> Iterator[int]:
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


def test_every_command_not_run_is_in_readme() -> None:
    """A stale entry would hide nothing, but it would claim README has a command it lost."""
    commands = [command for _, command in _commands()]
    for prefix in NOT_RUN:
        assert any(c.lstrip().startswith(prefix) for c in commands), f"README has no command starting {prefix!r}"
    for prefix in REFUSED:
        assert any(c.lstrip().startswith(prefix) for c in commands), f"README has no command starting {prefix!r}"


def test_readme_commands_work_as_written(project: Path, service: int) -> None:
    commands = _commands()
    run = [(n, c) for n, c in commands if _not_run(c) is None]
    assert len(run) >= 40, "README's sessions were not found"
    curl_log = project / "curl.log"
    environment = {**_environment(project), "CURL_LOG": str(curl_log), "IDS": str(project / "ids")}
    done = subprocess.run(
        ["bash", "-c", _script(commands, service)],
        cwd=project,
        env=environment,
        capture_output=True,
        encoding="utf-8",
        errors="replace",  # the legacy members CSV is Latin-1
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{done.stderr[-3000:]}\n--- stdout:\n{done.stdout[-2000:]}"
    answered: dict[int, list[tuple[str, int]]] = {}
    for entry in curl_log.read_text().splitlines():
        line, status, code = entry.split(" ")
        answered.setdefault(int(line), []).append((status, int(code)))
    for number, command in run:
        calls = sum(1 for word in _words(command) if word.endswith("curl") or word == "$(curl")
        if calls == 0:
            continue
        got = answered.get(number, [])
        assert len(got) == calls, f"README line {number}: {calls} curl calls, {len(got)} answered: {command}"
        # a redirect or a 304 is right where README's comment on the line announces it
        announced = set(re.findall(r"#.*?\b(30[1-8])\b", command))
        for status, code in got:
            assert status.startswith("2") or status in announced, (
                f"README line {number} answered {status}: {command}\n{done.stdout[-2000:]}"
            )
            assert code in (0, CURL_PIPE_CLOSED), f"README line {number}: curl exited {code}"
    for _, message in REFUSED.values():
        assert message in done.stderr
    _the_sessions_did_what_readme_says(service, *(int(i) for i in (project / "ids").read_text().split()))


def _the_sessions_did_what_readme_says(port: int, tid: int, sid: int) -> None:
    """The example files' players are the synthetic federation's (examples/README.md names them),
    the correction took, the withdrawal too."""
    api = httpx.Client(base_url=f"http://127.0.0.1:{port}/api/v1", timeout=10)
    deadline = time.monotonic() + 30
    while api.get("/recalculation").json()["state"] != "idle":
        assert time.monotonic() < deadline, "the recalculation did not finish in 30 s"
        time.sleep(0.2)
    opened = api.get(f"/tournaments/{tid}").json()
    assert (opened["status"], opened["version"]) == ("withdrawn", 2)
    evaluation = api.get(f"/tournaments/{sid}/evaluation").json()
    assert evaluation["version"] == 2
    rows = [(r["pkz"], r["surname"], r["w"]) for r in evaluation["rows"]]
    # fixed.SWT: round 5, board 3 (Müller - Schneider) a win for white instead of a draw
    assert rows[:5] == [
        (10000069, "Fuchs", 3.0),  # by FIDE id
        (10000040, "Vogel", 2.5),  # by club code 10126 + membership number 3
        (10000044, "Schulze", 3.5),  # by person number
        (10000022, "Müller", 3.0),  # by club code 10126 + membership number 52
        (10000035, "Schneider", 1.5),  # by person number
    ]
    newcomer = api.get("/players", params={"name": "Kranz"}).json()
    assert newcomer["total"] == 1, newcomer  # created by open.trf, found again by name and birth date
    assert rows[5][:2] == (newcomer["items"][0]["pkz"], "Kranz")
