"""What README's walk-through tests share ("A tournament's life", "A FIDE-rated tournament and
its fees"): the lines of README before the walks that their commands use, the embedded service
they run against, a section's shell commands, and running them in one shell with each curl
call's status logged."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.api.test_readme_commands import _PRELUDE as _CURL
from tests.api.test_readme_commands import _environment, _free_port, project  # noqa: F401 - a fixture
from tests.api.test_readme_sessions import README

__all__ = ["SETUP", "Walk", "run_section", "section_commands", "service"]

#: README's lines before the walks that their commands use
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


def section_commands(heading: str) -> list[tuple[int, str]]:
    """(line, command) of every shell block of README's section ``heading`` (up to the next
    heading or its **Limits.**), continuations joined."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(lines, start=1) if line.strip() == heading)
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


@dataclass(frozen=True)
class Walk:
    """What running a section left: each curl call's README line, HTTP status and curl's exit
    code; the shell variables asked for, as they stood at the end; what the shell printed."""

    calls: list[tuple[int, str, str]]
    kept: dict[str, str]
    stdout: str


def run_section(project: Path, port: int, commands: list[tuple[int, str]], kept: list[str]) -> Walk:  # noqa: F811
    """Run ``commands`` in one shell after ``SETUP``, each checked to succeed."""
    script = [_CURL, SETUP.format(port=port)]
    for number, command in commands:
        check = f'[ "$?" -eq 0 ] || {{ echo "line {number} failed" >&2; exit 1; }}'
        script += [f"README_LINE={number}", command, check]
    values = " ".join(f'"${name}"' for name in kept)
    script.append(f'printf "{" ".join(["%s"] * len(kept))}\\n" {values} > ids')
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
    calls = []
    for entry in curl_log.read_text().splitlines():
        line, status, code = entry.split(" ")
        calls.append((int(line), status, code))
    values_kept = (project / "ids").read_text().split()
    assert len(values_kept) == len(kept), values_kept
    return Walk(calls, dict(zip(kept, values_kept, strict=True)), done.stdout)
