"""README's commands work as a reader runs them: every ```sh block of README runs literally, in
README's order and in one shell, in a fresh folder laid out like the project's, and what each
command prints is checked: its exit status, every curl call answered 2xx (or the status README's
comment on the line announces), and the key outputs of ``KEY_OUTPUTS``.

``make run`` is started the way README says, as ``zdb serve`` with the ``ZDB_HOME`` and ``PORT``
its line names (the Makefile's defaults otherwise), on a free port: README's address of that port
(``127.0.0.1:8000``, or the other port a line names) is the only text the test changes.

A block that cannot run in a test (production with Docker, a reference of commands with
placeholders) begins with the comment line ``# not run by the README test: <why>``, which README's
readers see too; the test names every block it skipped and why. Any other block, a new one
included, is run. ``test_readme_sessions.py`` beside this matches the same curl calls against the
OpenAPI document."""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.api.test_readme_sessions import README

PROJECT = README.parent
#: the comment line that keeps a block out of the run, followed by the reason
NOT_RUN_MARKER = "# not run by the README test:"
#: commands the test does not run itself, and why (``make run`` is started as ``zdb serve``)
COMMANDS_NOT_RUN = {"make test": "the whole suite, this test included"}
#: what a command prints (a regular expression its standard output must match), by a text of the command
KEY_OUTPUTS = {
    "zdb synth --scale 0.01": r"players",
    "zdb rate --table": r"Rn",
    "zdb token list": r"old club software",
    'zdb token revoke "$OLD"': r"^token \d+ \(\w+\) revoked$",
    '"$API/tournaments/$TID/evaluation"': r'"tournament":\s*\{"id"',
    "zdb lists import liste.zip --date 2026-09-30 --dry-run": r"\S",
    '"$API/lists/imports/$LID"': r'"status":\s*"(waiting|running|done)"',
    '"$API/memberships/$OLDEST"': r'"status":\s*"passive"',
    '"$API/players/$NINA/merge"': r'"survivor":\s*\d+',
    '"$API/recalculation/runs/$RUN/changes"': r'"items":',
    'curl -s -i "$API/players/$TWIN"': r"(?im)^location: \S*/players/\d+",
    "audit-log?actor=rating%20office&action=player.merge": r'"action":\s*"player\.merge"',
}
#: curl's exit status when ``| head`` has closed the pipe before the whole answer was written
CURL_PIPE_CLOSED = 23
#: what ``make run`` is when its line names neither (the Makefile's defaults)
DEFAULT_PORT, DEFAULT_HOME = 8000, "$PWD/var"

_PRELUDE = r"""
curl() {
    local headers rc
    headers=$(mktemp)
    command curl -D "$headers" "$@"; rc=$?
    printf '%s %s %s\n' "$README_LINE" "$(awk '/^HTTP\//{c=$2} END{print c}' "$headers")" "$rc" >>"$CURL_LOG"
    rm -f "$headers"
    return $rc
}
# make run [ZDB_HOME=…] [PORT=…], started in the background: zdb serve on the port README's is
# moved to (the first argument), ready before the next command (a bounded wait for readiness)
make_run() {
    local port=$1 home="$PWD/var" arg
    shift
    for arg in "$@"; do case "$arg" in ZDB_HOME=*) home=${arg#ZDB_HOME=} ;; esac; done
    ZDB_HOME="$home" "$PWD/.venv/bin/zdb" serve --port "$port" >>"$SERVE_LOG" 2>&1 &
    echo $! >>"$SERVICES"
    local tries=0
    until command curl -sf "http://127.0.0.1:$port/api/v1/health/ready" >/dev/null; do
        tries=$((tries + 1))
        if [ "$tries" -gt 600 ] || ! kill -0 "$(tail -n 1 "$SERVICES")" 2>/dev/null; then return 1; fi
        sleep 0.1
    done
}
"""


@dataclass(frozen=True)
class Block:
    line: int  # README's line of the opening fence
    commands: tuple[tuple[int, str], ...]  # (line, command), continuations joined
    not_run: str | None  # why the block is not run


def readme_blocks(text: str) -> list[Block]:
    """Every ```sh block of README with its commands."""
    blocks: list[Block] = []
    inside, pending, start, opened = False, "", 0, 0
    commands: list[tuple[int, str]] = []
    reason: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            if inside:
                blocks.append(Block(opened, tuple(commands), reason))
            inside, opened, commands, reason = line.strip() == "```sh", number, [], None
            continue
        if not inside:
            continue
        if not commands and not pending and line.startswith(NOT_RUN_MARKER):
            reason = line.removeprefix(NOT_RUN_MARKER).strip()
            continue
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        command = pending + line
        pending = ""
        if _words(command):
            commands.append((start, command))
    return blocks


def _words(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


def _not_run(command: str) -> str | None:
    return next((why for prefix, why in COMMANDS_NOT_RUN.items() if command.lstrip().startswith(prefix)), None)


def _make_run_port(command: str) -> int | None:
    """The port a ``make run`` line serves on; None for any other command."""
    words = _words(command)
    if words[:2] != ["make", "run"]:
        return None
    ports = [int(w.removeprefix("PORT=")) for w in words[2:] if w.startswith("PORT=")]
    return ports[0] if ports else DEFAULT_PORT


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _moved(command: str, ports: dict[int, int]) -> str:
    """README's command with its addresses on the test's ports; ``make run`` as ``make_run``."""
    for readme_port, port in ports.items():
        command = command.replace(f"127.0.0.1:{readme_port}", f"127.0.0.1:{port}")
    serves = _make_run_port(command)
    if serves is None:
        return command
    args = " ".join(shlex.quote(w) if "$" not in w else w for w in _words(command)[2:])
    return f"make_run {ports[serves]} {args}"


def _script(blocks: list[Block], ports: dict[int, int]) -> str:
    lines = [_PRELUDE]
    for block in blocks:
        if block.not_run is not None:
            continue
        for number, written in block.commands:
            if _not_run(written) is not None:
                continue
            command = _moved(written, ports)
            lines += [
                f"README_LINE={number}",
                f"printf '\\n@@@ {number}\\n'",
                f'echo ">>> README line {number} at $SECONDS s" >&2',
                command,
                f'rc=$?; if [ "$rc" -ne 0 ]; then echo "README line {number}: exit $rc" >&2; exit 1; fi',
            ]
    # Not README's: hands the ids the sessions kept to the checks below.
    lines.append('printf \'%s %s %s %s\\n\' "$TID" "$SID" "$NINA" "$TWIN" >"$IDS"')
    return "\n".join(lines) + "\n"


def _outputs(stdout: str) -> dict[int, str]:
    """Each README line's standard output, split at the markers the script prints."""
    parts = re.split(r"^@@@ (\d+)$", stdout, flags=re.MULTILINE)
    return {int(number): output for number, output in zip(parts[1::2], parts[2::2], strict=True)}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder laid out like the project's, so that README's relative paths hold and what the
    commands write (var/, first-day/, results.json, dwz.zip) stays out of the checkout."""
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    for name in ("zdb", "examples"):
        (folder / name).symlink_to(PROJECT / name, target_is_directory=True)
    return folder


def _environment(folder: Path) -> dict[str, str]:
    """A newcomer's shell: no ZDB_* settings of the test run, a home of its own."""
    keep = {"PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT"}
    environment = {k: v for k, v in os.environ.items() if k in keep}
    return {**environment, "HOME": str(folder)}


def _stop_services(pids: Path) -> None:
    for pid in (int(p) for p in pids.read_text().split()) if pids.exists() else ():
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)


def test_blocks_not_run_say_why() -> None:
    """The blocks the walk skips, each with its reason; a stale command exception fails."""
    blocks = readme_blocks(README.read_text(encoding="utf-8"))
    skipped = [(b.line, b.not_run) for b in blocks if b.not_run is not None]
    for line, reason in skipped:
        assert reason, f"README line {line}: the block is not run, but README does not say why"
        print(f"README block at line {line} not run: {reason}")
    commands = [c for b in blocks if b.not_run is None for _, c in b.commands]
    for prefix in COMMANDS_NOT_RUN:
        assert any(c.lstrip().startswith(prefix) for c in commands), f"README has no command starting {prefix!r}"
    for key in KEY_OUTPUTS:
        assert any(key in c for c in commands), f"README runs no command with {key!r}"
    assert any(_make_run_port(c) is not None for c in commands), "README never starts the service"


def test_readme_commands_work_as_written(project: Path) -> None:
    blocks = readme_blocks(README.read_text(encoding="utf-8"))
    run = [(n, c) for b in blocks if b.not_run is None for n, c in b.commands if _not_run(c) is None]
    assert len(run) >= 60, "README's sessions were not found"
    ports = {p: _free_port() for p in {_make_run_port(c) for _, c in run} - {None} if p is not None}
    curl_log, services = project / "curl.log", project / "services"
    environment = {
        **_environment(project),
        "CURL_LOG": str(curl_log),
        "IDS": str(project / "ids"),
        "SERVICES": str(services),
        "SERVE_LOG": str(project / "serve.log"),
    }
    try:
        done = subprocess.run(
            ["bash", "-c", _script(blocks, ports)],
            cwd=project,
            env=environment,
            capture_output=True,
            encoding="utf-8",
            errors="replace",  # the legacy members CSV is Latin-1
            timeout=300,
            check=False,
        )
        serve_log = (project / "serve.log").read_text() if (project / "serve.log").exists() else ""
        assert done.returncode == 0, f"{done.stderr[-3000:]}\n--- stdout:\n{done.stdout[-2000:]}\n{serve_log[-2000:]}"
        outputs = _outputs(done.stdout)
        _every_curl_answered(curl_log, run, done.stdout)
        for key, pattern in KEY_OUTPUTS.items():
            for number, command in run:
                if key in command:
                    printed = outputs.get(number, "")
                    assert re.search(pattern, printed, re.MULTILINE), f"README line {number} printed {printed!r}"
        tid, sid, nina, twin = (int(i) for i in (project / "ids").read_text().split())
        merged = next(n for n, c in run if 'curl -s -i "$API/players/$TWIN"' in c)
        assert f"/players/{nina}" in outputs[merged] and twin != nina
        _the_sessions_did_what_readme_says(ports[DEFAULT_PORT], tid, sid)
    finally:
        _stop_services(services)


def _every_curl_answered(curl_log: Path, run: list[tuple[int, str]], stdout: str) -> None:
    answered: dict[int, list[tuple[str, int]]] = {}
    for entry in curl_log.read_text().splitlines():
        line, status, exit_code = entry.split(" ")
        answered.setdefault(int(line), []).append((status, int(exit_code)))
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
                f"README line {number} answered {status}: {command}\n{stdout[-2000:]}"
            )
            assert code in (0, CURL_PIPE_CLOSED), f"README line {number}: curl exited {code}"


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
