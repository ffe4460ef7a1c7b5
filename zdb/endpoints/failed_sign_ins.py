"""Counting failed sign-ins, so that guessing tokens is slow without locking anyone out.

Why: a fixed count of failures per address (the limit before) let ten wrong tokens from a club's
NAT or a proxy lock every valid token of that address out for a minute, the admin's included;
and as the count was tested before the request and raised after it, concurrent guesses passed
the limit (17 of a limit of 10). Here a failure is counted when it happens and the count decides
at once (one atomic step of the storage: a Lua script in Redis, a lock in memory), and only
failures are counted:

* against the failing credential from that address (a revoked token, a known client whose
  secret is wrong), and
* for a credential nobody knows (a guessed token), against the address as well.

A valid credential is never counted and never refused, whatever others sent from its address.
``count_failed_sign_in`` answers False for the failure over the limit: the caller then answers
429 (with ``retry_after``) instead of 401. The API's guard, the pages' sign-in and any other door
that checks a credential call it. A storage out of reach lets the sign-in through (logged): the
limit protects the service, it must not take it down.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time

from limits import RateLimitItem, parse
from limits.errors import StorageError
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from zdb.config import Settings

__all__ = ["FailedSignIns", "credential_key"]

_log = logging.getLogger(__name__)


def credential_key(credential: str) -> str:
    """What a credential is counted under: a hash, never the secret itself."""
    return hashlib.sha256(credential.encode("utf-8")).hexdigest()[:32]


def _storage(settings: Settings) -> Storage:
    url = settings.rate_limit_storage or settings.broker_url
    if url is None or url.startswith("memory://"):
        return MemoryStorage()
    storage = storage_from_string(url.removeprefix("async+"), wrap_exceptions=True)
    assert isinstance(storage, Storage)  # a URL without async+ names a synchronous storage
    return storage


class FailedSignIns:
    """The counts of one service (``Settings.rate_limit_failed_auth`` in
    ``Settings.rate_limit_storage``, else the broker's Redis, else this process's memory)."""

    def __init__(self, settings: Settings, storage: Storage | None = None) -> None:
        self.item: RateLimitItem = parse(settings.rate_limit_failed_auth)
        self.limiter = MovingWindowRateLimiter(storage or _storage(settings))
        # the memory storage's moving window is a read and a write: one thread at a time
        self._lock = threading.Lock()

    def _keys(self, address: str, credential: str, *, known: bool) -> list[tuple[str, ...]]:
        keys: list[tuple[str, ...]] = [("failed-sign-in", credential_key(credential), address)]
        if not known:
            keys.append(("failed-sign-in", address))
        return keys

    def count_failed_sign_in(self, address: str, credential: str, *, known: bool) -> bool:
        """Count one failed sign-in of ``credential`` from ``address`` (``known``: the credential
        exists but failed, e.g. a revoked token); False when this failure is over the limit."""
        within = True
        try:
            with self._lock:
                for keys in self._keys(address, credential, known=known):
                    within = self.limiter.hit(self.item, *keys) and within
        except StorageError as error:
            _log.warning("failed sign-ins not counted, the storage is out of reach: %s", error.storage_error)
            return True
        return within

    def retry_after(self, address: str, credential: str, *, known: bool) -> int:
        """Seconds until the window has moved on far enough for another attempt."""
        reset = time.time() + self.item.get_expiry()
        try:
            for keys in self._keys(address, credential, known=known):
                stats = self.limiter.get_window_stats(self.item, *keys)
                if stats.remaining == 0:
                    reset = stats.reset_time
                    break
        except StorageError:
            pass
        return max(1, math.ceil(reset - time.time()))
