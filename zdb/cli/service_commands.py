"""Long-running processes: the Celery worker (with the beat sweeper)."""

from __future__ import annotations

import click

__all__ = ["register"]


@click.command("worker")
@click.option("--beat/--no-beat", default=True, show_default=True, help="Also run the periodic sweeper.")
@click.option("--concurrency", default=1, show_default=True, help="Runs are serialised anyway; 1 is enough.")
@click.option("--loglevel", default="info", show_default=True)
def worker_command(beat: bool, concurrency: int, loglevel: str) -> None:
    """Run the Celery worker that recalculates ratings (needs ZDB_BROKER_URL)."""
    from pathlib import Path

    from workers.celery_app import app

    Path("var").mkdir(exist_ok=True)
    argv = ["worker", f"--loglevel={loglevel}", f"--concurrency={concurrency}", "--queues=zdb"]
    if beat:
        argv.append("--beat")
    app.worker_main(argv=argv)


@click.command("beat")
@click.option("--loglevel", default="info", show_default=True)
def beat_command(loglevel: str) -> None:
    """Run the periodic sweeper alone (when workers run with --no-beat)."""
    from pathlib import Path

    from workers.celery_app import app

    Path("var").mkdir(exist_ok=True)
    app.start(argv=["beat", f"--loglevel={loglevel}"])


def register(group: click.Group) -> None:
    group.add_command(worker_command)
    group.add_command(beat_command)
