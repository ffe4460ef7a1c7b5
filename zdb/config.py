"""Settings from the environment, read once per process.

With nothing set, ZDB runs embedded: the SQLite file ``zdb.sqlite3`` in ZDB's home folder and
the recalculation in a background thread of the serving process. The home folder is
``ZDB_HOME``, else ``$XDG_DATA_HOME/zdb``, else ``~/.local/share/zdb``: one place whatever the
current folder, so that every command finds the database ``zdb serve`` serves.
``ZDB_DATABASE_URL`` (PostgreSQL) and ``ZDB_BROKER_URL`` (Redis) select the production mode
with a Celery worker.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

__all__ = [
    "EMBEDDED_DATABASE",
    "IMPORT_QUEUE",
    "WORKER_QUEUE",
    "Settings",
    "embedded_database_url",
    "settings",
    "zdb_home",
]

#: the embedded database's file name in the home folder
EMBEDDED_DATABASE = "zdb.sqlite3"
#: the worker's queue on the broker (on Redis a list of that name: ``/metrics`` reports its length)
WORKER_QUEUE = "zdb"
#: the queue of the list imports: a worker of its own takes them, so that a recalculation never
#: waits behind an import of a federation's or FIDE's list (minutes)
IMPORT_QUEUE = "imports"


def zdb_home(environ: Mapping[str, str] | None = None) -> Path:
    """ZDB's own folder (absolute): ``ZDB_HOME``, else the user's data folder (XDG) + ``zdb``."""
    env = os.environ if environ is None else environ
    if env.get("ZDB_HOME"):
        return Path(env["ZDB_HOME"]).expanduser().absolute()
    data = env.get("XDG_DATA_HOME", "")
    if Path(data).is_absolute():  # the XDG rule: a relative value is ignored
        return Path(data) / "zdb"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".local" / "share" / "zdb"


def _on(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes", "on")


def embedded_database_url(home: Path) -> str:
    return f"sqlite:///{home / EMBEDDED_DATABASE}"


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = field(default_factory=lambda: embedded_database_url(zdb_home()))
    broker_url: str | None = None
    #: a run of the recalculation never takes longer than this (Celery task_time_limit)
    recalc_time_limit: int = 3600
    #: the sweeper re-dispatches a recalculation this often while the dirty position is set
    sweep_seconds: float = 30.0
    #: readiness fails when the sweep has not run for this many seconds (beat or the worker is
    #: down); 0 leaves the sweep out of readiness
    sweep_stale_seconds: float = 300.0
    #: a running list import's worker writes its heartbeat this often (PostgreSQL)
    import_heartbeat_seconds: float = 15.0
    #: a running import whose heartbeat is older than this lost its worker: the sweep marks it failed
    import_lost_seconds: float = 120.0
    #: a message taken by a worker that died unacknowledged is delivered again after this many
    #: seconds (Redis's visibility timeout); shorter than a long run on purpose: a second delivery
    #: of a running recalculation finds the recalculation lock taken and ends at once
    broker_visibility_timeout: int = 600
    #: connections of each serving process's pool for the hot reads (PostgreSQL only)
    read_pool_size: int = 10
    #: the largest body of a tournament submission, preview or correction (JSON, TRF, SWT), in bytes
    max_upload_bytes: int = 16 * 1024 * 1024
    #: the largest upload of a rating list, the federation's or FIDE's (whose ZIP is some 35 MB), in bytes
    max_list_upload_bytes: int = 64 * 1024 * 1024
    #: what an uploaded list may unpack to, all files of a ZIP together, in bytes: 24 times the
    #: list upload's bound, room for FIDE's XML list (about 860 MB from a ZIP of 40 MB)
    max_unpacked_bytes: int = 24 * 64 * 1024 * 1024
    #: files in an uploaded ZIP (the federation's list has three, FIDE's one)
    max_archive_members: int = 64
    #: lines of one file of the federation's list (kept in memory while it is read; the DSB's has some 100,000)
    max_list_lines: int = 2_000_000
    #: lines of FIDE's list (streamed; the XML has about 20 a player, some 40 M)
    max_fide_lines: int = 80_000_000
    #: bytes of one line of an uploaded list
    max_line_bytes: int = 1024 * 1024
    #: an uploaded list's import ends refused when its reading takes longer than this, in seconds
    list_import_seconds: float = 3600.0
    #: the largest body of the simulator and the small forms, in bytes
    max_small_body_bytes: int = 64 * 1024
    #: the largest body of any other request, in bytes
    max_body_bytes: int = 1024 * 1024
    #: rate limits (``zdb.api.rate_limits``); a Settings built in code has them off, the service's
    #: (from the environment) on unless ZDB_RATE_LIMITS=off
    rate_limits: bool = False
    #: where the counts live: a Redis URL (default: the broker), or memory:// (default when embedded)
    rate_limit_storage: str | None = None
    #: the club pull (club lists, members CSV, rating-list ZIP, change feed) per client address
    rate_limit_club_pull: str = "120/hour"
    #: every other read per client address
    rate_limit_reads: str = "300/minute"
    #: writes per token
    rate_limit_writes: str = "60/minute"
    #: failed authentications (wrong tokens, failed sign-ins) per client address
    rate_limit_failed_auth: str = "10/minute"
    #: complaints filed without a token (the API's and the page's form) per client address
    rate_limit_complaints: str = "5/hour"
    #: a published edition's complaint period: complaints about its evaluations are accepted this
    #: many days after its publication; later ones only from the office (``zdb.complaints.periods``)
    complaint_days: int = 30
    #: the service is reached over TLS only (a reverse proxy terminates it): answers carry HSTS
    behind_tls: bool = False
    #: "json": one JSON object a log line, with the request's id (zdb.api.request_log); "text": plain lines.
    #: Neither writes a query string (it may name a person or carry a token).
    log_format: str = "text"
    #: the recalculation evaluates with the compiled kernel (zdb.rating.kernel) when numba is
    #: installed; ZDB_COMPILED_KERNEL=off takes the array path (the same figures, slower)
    compiled_kernel: bool = True
    #: a referee's sign-in on the pages lasts this long (a working day); then he signs in again
    web_session_hours: float = 10.0
    #: an Idempotency-Key is remembered this long (``zdb.endpoints.idempotency``): a retry within it is
    #: answered with the first answer; after it, the key is forgotten and a request under it is new
    idempotency_key_hours: float = 24.0
    #: the rating portal's list paths (``/dsbwertungsportal/rs/dwz/dwzliste/…``) need a token with
    #: the scope ``dwz_liste`` (default: they do not, as the real service in 2026)
    portal_list_token: bool = False
    #: who may frame the embeddable views (``/embed/…``) for club websites: a CSP frame-ancestors
    #: source list (default ``*``: any club's site; the rest of ZDB is framed by nobody)
    embed_frame_ancestors: str = "*"
    #: the relay looks for outbox messages and due notifications at least this often, in seconds
    #: (a commit wakes it at once; this catches a wake-up lost with a process that died)
    outbox_poll_seconds: float = 5.0
    #: notifications may go to plain-HTTP addresses (default: HTTPS only)
    notifications_allow_http: bool = False
    #: notifications may go to loopback, link-local and private addresses (default: public ones only)
    notifications_allow_private: bool = False
    #: a notification is retried with growing pauses for this long, then given up (its subscription paused)
    notification_retry_hours: float = 72.0
    #: a worker holds a delivery it sends this long; one that died lets it go when this passes. Longer
    #: than an attempt can take (connect 5 s, read 10 s), so that a slow receiver is not sent it twice
    notification_lease_seconds: float = 60.0
    #: after a secret's rotation, the old secret signs too for this long (receivers switch meanwhile)
    notification_secret_overlap_hours: float = 24.0
    #: HTTP caching (``zdb.api.http_caching``): a public live answer (cards, lists, pages) may be this
    #: many seconds old at a shared cache, and served that many more while the cache asks again
    cache_max_age: int = 30
    cache_stale_seconds: int = 60
    #: a published edition's answers, immutable, are kept this long (bounded: names are corrected)
    edition_max_age: int = 86400
    #: streaming replicas of the database for the reads that may lag (``zdb.db_routing``); none by default
    replica_urls: tuple[str, ...] = ()
    #: a replica further behind than this many seconds, or not answering, is skipped until it catches up
    replica_max_lag_seconds: float = 30.0
    #: how often a replica's lag is measured, in seconds (a replica lost is skipped within about this long)
    replica_check_seconds: float = 2.0
    #: ZDB's folder: the embedded database (unless ZDB_DATABASE_URL names another) and beat's schedule
    home: Path = field(default_factory=zdb_home)

    @property
    def embedded(self) -> bool:
        """No broker: the recalculation runs in a thread of the serving process."""
        return self.broker_url is None

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if environ is None else environ)
        home = zdb_home(env)
        return cls(
            database_url=env.get("ZDB_DATABASE_URL") or embedded_database_url(home),
            broker_url=env.get("ZDB_BROKER_URL") or None,
            recalc_time_limit=int(env.get("ZDB_RECALC_TIME_LIMIT", "3600")),
            sweep_seconds=float(env.get("ZDB_SWEEP_SECONDS", "30")),
            sweep_stale_seconds=float(env.get("ZDB_SWEEP_STALE_SECONDS", "300")),
            import_heartbeat_seconds=float(env.get("ZDB_IMPORT_HEARTBEAT_SECONDS", "15")),
            import_lost_seconds=float(env.get("ZDB_IMPORT_LOST_SECONDS", "120")),
            broker_visibility_timeout=int(env.get("ZDB_BROKER_VISIBILITY_TIMEOUT", "600")),
            read_pool_size=int(env.get("ZDB_READ_POOL_SIZE", "10")),
            max_upload_bytes=int(env.get("ZDB_MAX_UPLOAD_BYTES", str(16 * 1024 * 1024))),
            max_list_upload_bytes=int(env.get("ZDB_MAX_LIST_UPLOAD_BYTES", str(64 * 1024 * 1024))),
            max_unpacked_bytes=int(env.get("ZDB_MAX_UNPACKED_BYTES", str(24 * 64 * 1024 * 1024))),
            max_archive_members=int(env.get("ZDB_MAX_ARCHIVE_MEMBERS", "64")),
            max_list_lines=int(env.get("ZDB_MAX_LIST_LINES", "2000000")),
            max_fide_lines=int(env.get("ZDB_MAX_FIDE_LINES", "80000000")),
            max_line_bytes=int(env.get("ZDB_MAX_LINE_BYTES", str(1024 * 1024))),
            list_import_seconds=float(env.get("ZDB_LIST_IMPORT_SECONDS", "3600")),
            max_small_body_bytes=int(env.get("ZDB_MAX_SMALL_BODY_BYTES", str(64 * 1024))),
            max_body_bytes=int(env.get("ZDB_MAX_BODY_BYTES", str(1024 * 1024))),
            rate_limits=env.get("ZDB_RATE_LIMITS", "on").strip().lower() not in ("off", "0", "false", "no"),
            rate_limit_storage=env.get("ZDB_RATE_LIMIT_STORAGE") or None,
            rate_limit_club_pull=env.get("ZDB_RATE_LIMIT_CLUB_PULL", "120/hour"),
            rate_limit_reads=env.get("ZDB_RATE_LIMIT_READS", "300/minute"),
            rate_limit_writes=env.get("ZDB_RATE_LIMIT_WRITES", "60/minute"),
            rate_limit_failed_auth=env.get("ZDB_RATE_LIMIT_FAILED_AUTH", "10/minute"),
            rate_limit_complaints=env.get("ZDB_RATE_LIMIT_COMPLAINTS", "5/hour"),
            complaint_days=int(env.get("ZDB_COMPLAINT_DAYS", "30")),
            behind_tls=env.get("ZDB_BEHIND_TLS", "").strip().lower() in ("1", "true", "yes", "on"),
            log_format=env.get("ZDB_LOG_FORMAT", "text").strip().lower(),
            compiled_kernel=env.get("ZDB_COMPILED_KERNEL", "on").strip().lower() not in ("off", "0", "false", "no"),
            web_session_hours=float(env.get("ZDB_WEB_SESSION_HOURS", "10")),
            idempotency_key_hours=float(env.get("ZDB_IDEMPOTENCY_KEY_HOURS", "24")),
            portal_list_token=env.get("ZDB_PORTAL_LIST_TOKEN", "").strip().lower() in ("1", "true", "yes", "on"),
            outbox_poll_seconds=float(env.get("ZDB_OUTBOX_POLL_SECONDS", "5")),
            notifications_allow_http=_on(env.get("ZDB_NOTIFICATIONS_ALLOW_HTTP", "")),
            notifications_allow_private=_on(env.get("ZDB_NOTIFICATIONS_ALLOW_PRIVATE", "")),
            notification_retry_hours=float(env.get("ZDB_NOTIFICATION_RETRY_HOURS", "72")),
            notification_lease_seconds=float(env.get("ZDB_NOTIFICATION_LEASE_SECONDS", "60")),
            notification_secret_overlap_hours=float(env.get("ZDB_NOTIFICATION_SECRET_OVERLAP_HOURS", "24")),
            embed_frame_ancestors=env.get("ZDB_EMBED_FRAME_ANCESTORS", "*").strip() or "*",
            cache_max_age=int(env.get("ZDB_CACHE_MAX_AGE", "30")),
            cache_stale_seconds=int(env.get("ZDB_CACHE_STALE_SECONDS", "60")),
            edition_max_age=int(env.get("ZDB_EDITION_MAX_AGE", "86400")),
            replica_urls=tuple(u.strip() for u in env.get("ZDB_REPLICA_URLS", "").split(",") if u.strip()),
            replica_max_lag_seconds=float(env.get("ZDB_REPLICA_MAX_LAG_SECONDS", "30")),
            replica_check_seconds=float(env.get("ZDB_REPLICA_CHECK_SECONDS", "2")),
            home=home,
        )


@cache
def settings() -> Settings:
    return Settings.from_environment()
