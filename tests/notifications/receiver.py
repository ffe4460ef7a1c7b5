"""A real receiver of notifications for the tests: an HTTP server on this machine that verifies
every request's signature with ``standardwebhooks`` (the reference implementation), as club
software would, and keeps what it received."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook


@dataclass
class Received:
    event_id: str
    body: dict[str, Any]


@dataclass
class Receiver:
    secret: str = ""
    #: the answer code; 503 plays a receiver that is down
    answer: int = 200
    received: list[Received] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # signatures that did not verify
    #: set: a request waits until ``release`` is set (a worker killed mid-delivery)
    hold: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    arrived: threading.Event = field(default_factory=threading.Event)
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks/zdb"

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [r.body for r in self.received if kind is None or r.body["type"] == kind]


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            receiver.arrived.set()
            if receiver.hold.is_set():
                receiver.release.wait(60)
            # A delivery may arrive between the subscription's answer and the test taking its
            # secret from it (a relay running by itself, as the embedded one does): it waits for
            # the secret, as club software is set up before it hears anything.
            deadline = time.monotonic() + 30
            while not receiver.secret and time.monotonic() < deadline:
                time.sleep(0.01)
            try:
                payload = Webhook(receiver.secret).verify(body, dict(self.headers.items()))
            except Exception as error:
                receiver.refused.append(str(error))
                self.send_response(400)
                self.end_headers()
                return
            if receiver.answer == 200:
                receiver.received.append(Received(self.headers["webhook-id"], payload))
            self.send_response(receiver.answer)
            self.end_headers()
            self.wfile.write(json.dumps({"ok": receiver.answer == 200}).encode())

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


@contextmanager
def running(receiver: Receiver, port: int = 0) -> Iterator[Receiver]:
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler(receiver))
    receiver.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.release.set()
        server.shutdown()
        server.server_close()
