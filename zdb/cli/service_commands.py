"""Long-running processes: the Celery worker (with the beat sweeper)."""

from __future__ import annotations

import click

from zdb.cli.database import named

__all__ = ["register"]


def _prepare() -> None:
    """Name the database the tasks work on; beat keeps its schedule in ZDB's home folder."""
    from zdb.config import settings

    current = settings()
    named(current.database_url)
    current.home.mkdir(parents=True, exist_ok=True)


@click.command("worker")
@click.option("--beat/--no-beat", default=True, show_default=True, help="Also run the periodic sweeper.")
@click.option("--concurrency", default=1, show_default=True, help="Runs are serialised anyway; 1 is enough.")
@click.option("--loglevel", default="info", show_default=True)
def worker_command(beat: bool, concurrency: int, loglevel: str) -> None:
    """Run the Celery worker that recalculates ratings (needs ZDB_BROKER_URL)."""
    from workers.celery_app import app

    _prepare()
    argv = ["worker", f"--loglevel={loglevel}", f"--concurrency={concurrency}", "--queues=zdb"]
    if beat:
        argv.append("--beat")
    app.worker_main(argv=argv)


@click.command("beat")
@click.option("--loglevel", default="info", show_default=True)
def beat_command(loglevel: str) -> None:
    """Run the periodic sweeper alone (when workers run with --no-beat)."""
    from workers.celery_app import app

    _prepare()
    app.start(argv=["beat", f"--loglevel={loglevel}"])


def register(group: click.Group) -> None:
    group.add_command(worker_command)
    group.add_command(beat_command)
