"""Reads from streaming replicas: which database a request reads, and which replicas may serve.

A federation that outgrows one PostgreSQL adds streaming replicas (``Settings.replica_urls``)
and lets them answer the reads that may lag a few seconds: the anonymous crowd's pages, lists,
cards and club pulls, the club-software door. Everything else stays on the primary:

* every write (any method but GET and HEAD) and every read inside a write's unit of work;
* a caller who identifies himself (an ``Authorization`` header, the pages' session cookie):
  staff, a referee who has just submitted and now reads his tournament back, a club whose
  portal token was issued a moment ago — he must see his own write, and a replica may not
  have it yet. (A choice: the referee's every read, not only those right after a write; they
  are few beside the public's.);
* the recalculation's state, health and metrics (they tell what the primary does), and the
  files whose ``Last-Modified`` is recorded as they are served (``zdb.ratings.file_stamps``
  writes in their GET: a replica is read-only).

Each replica's lag is measured every ``replica_check_seconds`` by a thread of the serving
process: the time since the last transaction it replayed, 0 when it has replayed everything it
received. A replica further behind than ``replica_max_lag_seconds``, or that does not answer
within ``_CONNECT_SECONDS``, is skipped until a later measurement finds it caught up; its reads
go to the other replicas, or to the primary. So a replica lost is skipped within
``replica_check_seconds + _CONNECT_SECONDS``. A request that meets it in that window finds it
gone as it connects, skips it at once (``mark_down``) and reads the primary; only a replica lost
in the middle of a statement fails that request (a 503, as any database out of reach).

The embedded mode (SQLite) and a service without replicas never build any of this.
"""

from __future__ import annotations

import itertools
import logging
import re
import threading
import time
from dataclasses import dataclass, field

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from starlette.requests import HTTPConnection

__all__ = ["ReplicaState", "Replicas", "lag_tolerant", "reading_engine", "replica_failed"]

_log = logging.getLogger(__name__)

#: a replica that does not answer within this many seconds counts as lost
_CONNECT_SECONDS = 2

#: the seconds since the last replayed transaction, 0 when everything received is replayed
_LAG = text(
    "SELECT CASE WHEN NOT pg_is_in_recovery() THEN 0"
    " WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0"
    " ELSE coalesce(extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()), 'Infinity')"
    " END"
)

#: the reads that stay on the primary whoever asks (the module's docstring)
_PRIMARY_PATHS = re.compile(
    r"^(/metrics$|/api/v1/health|/api/v1/recalculation|/recalculation$|/referee|/staff"
    r"|/api/v1/files/|/api/v1/clubs/[^/]+/members\.csv$|/dsbwertungsportal/rs/dwz/dwzliste/download/)"
)


def lag_tolerant(connection: HTTPConnection, session_cookie: str) -> bool:
    """Whether this request's reads may come from a replica."""
    if connection.scope.get("method") not in ("GET", "HEAD"):
        return False
    if "authorization" in connection.headers or session_cookie in connection.cookies:
        return False
    return _PRIMARY_PATHS.match(connection.url.path) is None


@dataclass
class ReplicaState:
    """One replica and what its last measurement found."""

    name: str  # its URL without the password
    engine: Engine
    lag: float | None = None  # seconds; None: not measured yet, or it did not answer
    usable: bool = False
    checked: float = 0.0  # time.monotonic() of the last measurement


@dataclass
class Replicas:
    """The replicas of one serving process and the thread that measures them."""

    states: list[ReplicaState]
    max_lag: float
    every: float
    #: the pages' session cookie (``zdb.web.referee_session``; the wiring names it)
    session_cookie: str = "zdb_session"
    _turn: itertools.count[int] = field(default_factory=itertools.count)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    @classmethod
    def from_urls(cls, urls: tuple[str, ...], *, max_lag: float, every: float, session_cookie: str) -> Replicas:
        states = []
        for url in urls:
            parsed = make_url(url)
            if parsed.drivername == "postgresql":
                parsed = parsed.set(drivername="postgresql+psycopg")
            engine = create_engine(
                parsed,
                pool_pre_ping=True,
                pool_size=10,
                connect_args={"connect_timeout": _CONNECT_SECONDS},
            )
            states.append(ReplicaState(parsed.render_as_string(hide_password=True), engine))
        return cls(states, max_lag, every, session_cookie)

    def measure(self) -> None:
        """Measure every replica once (the thread does it every ``every`` seconds)."""
        for state in self.states:
            try:
                with state.engine.connect() as connection:
                    connection.execute(text(f"SET statement_timeout = {_CONNECT_SECONDS * 1000}"))
                    lag = float(connection.execute(_LAG).scalar_one())
            except Exception as error:  # any failure means: not usable now
                if state.usable or state.lag is not None:
                    _log.warning("replica %s does not answer: %s", state.name, type(error).__name__)
                state.lag, state.usable = None, False
            else:
                usable = lag <= self.max_lag
                if usable != state.usable:
                    _log.warning("replica %s %s (lag %.1f s)", state.name, "in use" if usable else "skipped", lag)
                state.lag, state.usable = lag, usable
            state.checked = time.monotonic()

    def pick(self) -> Engine | None:
        """A usable replica's engine, in turn; None when none is usable."""
        usable = [state for state in self.states if state.usable]
        if not usable:
            return None
        return usable[next(self._turn) % len(usable)].engine

    def mark_down(self, engine: Engine) -> None:
        """A request found ``engine``'s replica gone: skipped until the next measurement finds it."""
        for state in self.states:
            if state.engine is engine and state.usable:
                _log.warning("replica %s failed a request: skipped", state.name)
                state.usable = False

    def serves(self, engine: Engine) -> bool:
        return any(state.engine is engine for state in self.states)

    def start(self) -> None:
        """Measure now (a replica serves from the first request on), then every ``every`` seconds."""
        self.measure()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="zdb-replica-lag", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.measure()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.every + _CONNECT_SECONDS * 2)
            self._thread = None
        for state in self.states:
            state.engine.dispose()


def reading_engine(connection: HTTPConnection) -> Engine:
    """The engine this request reads from: a usable replica for a lag-tolerant read, else the primary."""
    primary: Engine = connection.app.state.engine
    replicas: Replicas | None = getattr(connection.app.state, "replicas", None)
    if replicas is None or not lag_tolerant(connection, replicas.session_cookie):
        return primary
    return replicas.pick() or primary


def replica_failed(connection: HTTPConnection, engine: Engine) -> None:
    """A request's unit of work on ``engine`` failed to reach its database: a replica's is
    skipped at once (the primary's failure is health's business)."""
    replicas: Replicas | None = getattr(connection.app.state, "replicas", None)
    if replicas is not None:
        replicas.mark_down(engine)
