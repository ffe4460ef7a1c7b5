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
@click.option(
    "--queues",
    type=click.Choice(["all", "recalculation", "imports"]),
    default="all",
    show_default=True,
    help="recalculation: the recalculation's queue only; imports: the list imports' only (production runs a "
    "worker for each, so that a recalculation never waits behind an import); all: both, in two processes.",
)
@click.option(
    "--concurrency", type=int, default=None, help="Processes (default: 2 for all queues, else 1; runs are serialised)."
)
@click.option(
    "--name",
    default=None,
    help="The worker's name among several on one host (its node name NAME@host); default: celery@host.",
)
@click.option("--loglevel", default="info", show_default=True)
def worker_command(beat: bool, queues: str, concurrency: int | None, name: str | None, loglevel: str) -> None:
    """Run the Celery worker that recalculates ratings and imports lists (needs ZDB_BROKER_URL)."""
    from workers.celery_app import app
    from zdb.config import IMPORT_QUEUE, WORKER_QUEUE

    _prepare()
    names = {"all": f"{WORKER_QUEUE},{IMPORT_QUEUE}", "recalculation": WORKER_QUEUE, "imports": IMPORT_QUEUE}[queues]
    # With both queues a second process keeps the recalculation going while an import runs.
    processes = concurrency or (2 if queues == "all" else 1)
    argv = ["worker", f"--loglevel={loglevel}", f"--concurrency={processes}", f"--queues={names}"]
    if name:
        # two workers of one name on one host would share their control queue: each has its own
        argv.append(f"--hostname={name}@%h")
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
