"""The windows of a from-scratch run read ahead on a second connection (PostgreSQL), so that
the server packs the next window's columns while the engine replays the last one.

Read on the run's own connection, the 26 windows of the synthetic federation at scale 1 took
about 8 s of the run's wall time with the engine idle, and the copy of the run's rows had to
be paused before each. Here a thread reads them on a connection of its own, in the order the
replay asks for them, at most one window ahead of it: it reads window k + 1 once the run has
taken window k, so no more than two windows are in memory at once, as before.

The reader sees exactly what the run sees: the run's transaction exports its snapshot once it
has read the heads (``pg_export_snapshot``), and the reader's transaction (REPEATABLE READ,
read only) takes it before its first read (``SET TRANSACTION SNAPSHOT``). Rows the run's
transaction writes are invisible to the reader, and the reader needs none of them: it reads
only the committed tournament versions the heads name, which never change once stored.

A reader that fails hands its error to the run, which raises it where it asks for the window
(the run fails, its transaction rolls back, nothing of it is stored). The reader's connection
is opened outside the engine's pool and closed for good in every outcome: at the normal end,
when the run fails (its read in progress is cancelled), and when the process is killed (the
server ends a backend whose client has gone).
"""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import suppress
from types import TracebackType

import psycopg
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from zdb.rating import Tournament
from zdb.recalculation import windows

__all__ = ["READER_NAME", "WindowReader"]

#: the reader's ``application_name``: how its backend is told apart in ``pg_stat_activity``
READER_NAME = "zdb window reader"

# pg_export_snapshot's identifiers: hexadecimal fields joined by dashes (sent as a literal:
# SET TRANSACTION SNAPSHOT takes no parameter).
_SNAPSHOT = re.compile(r"[0-9A-Fa-f]+(-[0-9A-Fa-f]+)+")

#: a window's tournaments by id, or what stopped the reader
_Read = dict[int, Tournament] | BaseException


class _ReaderStoppedError(Exception):
    """The run no longer asks for windows."""


class WindowReader:
    """Reads the tournaments of ``window_pairs`` (each window a list of (id, version) pairs) on
    a connection of its own that shares the snapshot of ``session``'s transaction. Use as a
    context manager; iterating gives each window's tournaments by id, in order."""

    def __init__(self, session: Session, window_pairs: Sequence[Sequence[tuple[int, int]]]) -> None:
        snapshot = str(session.execute(text("SELECT pg_export_snapshot()")).scalar_one())
        if not _SNAPSHOT.fullmatch(snapshot):
            raise RuntimeError(f"an exported snapshot the reader does not understand: {snapshot!r}")
        self._snapshot = snapshot
        self._url = session.get_bind().engine.url
        self._windows = [list(pairs) for pairs in window_pairs]
        # The run takes a window, then the reader may read the next: one permit at a time.
        self._permits = threading.Semaphore(1)
        self._read: queue.SimpleQueue[_Read] = queue.SimpleQueue()
        self._stopped = threading.Event()
        self._connection: Connection | None = None
        self._thread = threading.Thread(target=self._run, name=READER_NAME, daemon=True)

    def __enter__(self) -> WindowReader:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[dict[int, Tournament]]:
        for _ in self._windows:
            read = self._read.get()
            if isinstance(read, BaseException):
                raise read
            self._permits.release()
            yield read

    def close(self) -> None:
        """Stop reading and close the connection; returns once the reader has ended."""
        if self._thread.is_alive():
            self._stopped.set()
            self._permits.release()  # a reader waiting for its turn sees the stop
            connection = self._connection
            if connection is not None:
                # A read in progress is cancelled rather than waited for (nothing reads it).
                # The connection may be closing meanwhile: then there is nothing to cancel.
                with suppress(Exception):  # best effort: the reader ends either way
                    raw = connection.connection.driver_connection
                    if isinstance(raw, psycopg.Connection):
                        raw.cancel()
        self._thread.join()

    def _turn(self) -> None:
        """Wait until the run has taken the window before (or has stopped the reader)."""
        self._permits.acquire()
        if self._stopped.is_set():
            raise _ReaderStoppedError

    def _run(self) -> None:
        try:
            self._read_windows()
        except BaseException as error:  # handed to the run, which raises it
            self._read.put(error)

    def _read_windows(self) -> None:
        # Outside the engine's pool: the connection is closed, not kept, when the reader ends.
        engine = create_engine(self._url, poolclass=NullPool, connect_args={"application_name": READER_NAME})
        try:
            with engine.connect() as connection, Session(bind=connection) as session:
                self._connection = connection
                # Both before the transaction's first query (the connection begins it here).
                connection.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
                connection.execute(text(f"SET TRANSACTION SNAPSHOT '{self._snapshot}'"))
                with suppress(_ReaderStoppedError):
                    for loaded in windows.read_windows(session, self._windows, self._turn):
                        self._read.put(loaded)
                self._connection = None
                connection.rollback()  # read only: nothing to keep
        finally:
            self._connection = None
            engine.dispose()
