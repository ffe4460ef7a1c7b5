"""Whether the services the API depends on answer: the database, and in production the broker
(Redis). Each check is short and bounded by a timeout; none raises, a failure is ``False``
(what failed is logged once per check).

Used by the health endpoints (``zdb.api.routers.health``): liveness asks for nothing, readiness
for the database and, with a broker, for Redis and the sweep's last run.
"""

from __future__ import annotations

import logging
from datetime import datetime

import redis
from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

from zdb.db import unit_of_work
from zdb.service_beats import SWEEP, last_beat

__all__ = ["broker_answers", "database_answers", "last_sweep"]

_log = logging.getLogger(__name__)

#: seconds a check waits for Redis
_TIMEOUT = 2.0


def database_answers(engine: Engine) -> bool:
    """The database takes a connection and answers ``SELECT 1``."""
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        _log.warning("health: the database does not answer: %s", error.__class__.__name__)
        return False
    return True


def broker_answers(url: str) -> bool:
    """Redis at ``url`` answers ``PING``."""
    client = redis.Redis.from_url(url, socket_connect_timeout=_TIMEOUT, socket_timeout=_TIMEOUT)
    try:
        return bool(client.ping())
    except redis.RedisError as error:
        _log.warning("health: the broker does not answer: %s", error.__class__.__name__)
        return False
    finally:
        client.close()


def last_sweep(engine: Engine) -> datetime | None:
    """When the sweep last ran (``zdb.service_beats``); None if never, or if the database does
    not answer (``database_answers`` reports that)."""
    try:
        with unit_of_work(engine) as session:
            return last_beat(session, SWEEP)
    except SQLAlchemyError:
        return None
