"""``zdb serve``: the REST API under uvicorn, in either mode.

Embedded (no broker): the schema is brought up to date first, for convenience (the embedded
database in ZDB_HOME is created on first use), and the recalculation runs in a thread of the
one serving process. Production: migrations are the one-shot ``zdb db upgrade``; the workers
only serve, and changes go to the Celery worker. Either way the database is named on stderr.
"""

from __future__ import annotations

import socket

import click

from zdb.cli.database import named
from zdb.cli.errors import fail

__all__ = ["register"]


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(min=1), help="Processes (production).")
def serve_command(host: str, port: int, workers: int) -> None:
    """Serve the REST API (http://HOST:PORT/api/v1, documentation at /api/v1/docs)."""
    import uvicorn

    from zdb.config import settings

    current = settings()
    if current.embedded and workers > 1:
        fail("serve", "the embedded mode serves from one process (its recalculation runs in it); set ZDB_BROKER_URL")
    _can_listen(host, port)
    named(current.database_url)
    if current.embedded:
        from zdb.migrate import upgrade

        upgrade(current.database_url)
    uvicorn.run("zdb.app:app_from_environment", factory=True, host=host, port=port, workers=workers)


def _can_listen(host: str, port: int) -> None:
    """Refuse at once when the address is taken: uvicorn would find out only after the
    application has started (and in the embedded mode, after its recalculation has begun)."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            probe.bind((host, port))
    except OSError as error:
        fail("serve", f"cannot listen on {host}:{port}: {error.strerror or error} (another server there? --port)")


def register(group: click.Group) -> None:
    group.add_command(serve_command)
