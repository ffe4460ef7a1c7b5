"""A fresh, empty database on a PostgreSQL server, for the benchmarks that need one."""

from __future__ import annotations

import psycopg
from sqlalchemy.engine import make_url

__all__ = ["fresh_database"]


def fresh_database(server: str, name: str, *, template: str | None = None) -> str:
    """Drop and create database ``name`` on ``server`` (a SQLAlchemy URL), empty or as a copy of
    ``template``; its URL."""
    url = make_url(server)
    with psycopg.connect(
        host=url.host,
        port=url.port or 5432,
        user=url.username,
        password=url.password,
        dbname=url.database,
        autocommit=True,
    ) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return url.set(database=name).render_as_string(hide_password=False)
