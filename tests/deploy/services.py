"""Processes the deployment tests start beside the test's PostgreSQL: ``zdb serve`` processes
(production mode: a broker named, no worker needed) and Debian's nginx with the project's own
configuration (``deploy/nginx/zdb.conf``), each in a session of its own so that a test may stop
it with its children."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT

__all__ = ["NGINX", "Api", "Nginx", "free_port", "stop", "wait"]

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
CONFIGURATION = ROOT / "deploy" / "nginx" / "zdb.conf"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait(condition: Callable[[], bool], timeout: float, what: str) -> None:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return
        time.sleep(0.05)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


class Api:
    """One ``zdb serve`` process on a free port."""

    def __init__(self, environment: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.environment = environment
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "zdb", "serve", "--port", str(self.port)],
                cwd=ROOT,
                env={**os.environ, **self.environment},
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait(self.live, 60, f"the API on port {self.port}")

    def live(self) -> bool:
        try:
            return httpx.get(f"http://127.0.0.1:{self.port}/api/v1/health/live", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process, signal.SIGKILL)
            self.process = None


class Nginx:
    """Debian's nginx with ``deploy/nginx/zdb.conf``: only the upstream's servers, the cache's
    folder and the port are replaced (compose's names are not this machine's)."""

    def __init__(self, folder: Path, upstream: list[int]) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        cache = folder / "cache"
        for sub in ("cache", "temp", "logs"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        text = CONFIGURATION.read_text()
        servers = "".join(f"    server 127.0.0.1:{port} max_fails=3 fail_timeout=5s;\n" for port in upstream)
        text, replaced = re.subn(r"    server api:8000[^\n]*\n", servers, text)
        assert replaced == 1, "the upstream's server line moved: update tests/deploy/services.py"
        text = text.replace("/var/cache/nginx/zdb", str(cache))
        text = text.replace("/var/log/nginx/access.log", str(folder / "logs" / "access.log"))
        text = text.replace("    listen 80;", f"    listen 127.0.0.1:{self.port};")
        (folder / "zdb.conf").write_text(text)
        temp = folder / "temp"
        # as root, nginx's workers would run as nobody, who cannot enter pytest's folders
        user = "user root root;\n" if os.geteuid() == 0 else ""
        (folder / "nginx.conf").write_text(
            f"""{user}daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/logs/error.log warn;
events {{ worker_connections 512; }}
http {{
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {folder}/zdb.conf;
}}
"""
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert NGINX is not None
        test = [NGINX, "-t", "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")]
        checked = subprocess.run(test, check=False, capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

        def answers() -> bool:
            try:
                httpx.get(f"{self.url}/", timeout=1)
                return True
            except httpx.HTTPError:
                return False

        wait(answers, 20, "nginx")

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process, signal.SIGQUIT)
            self.process = None
