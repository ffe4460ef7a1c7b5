"""Commands on the database: migrate, recalculate, verify, import, export, synthetic data."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import click
from sqlalchemy import func, select
from sqlalchemy.exc import DataError, IntegrityError

from zdb.cli.database import DATABASE_URL, existing, migrated, named
from zdb.cli.errors import fail, read_json, reported_input_errors
from zdb.db import unit_of_work
from zdb.errors import DomainError

__all__ = ["register"]


@click.group("db")
def db_group() -> None:
    """Schema migrations."""


@db_group.command("upgrade")
@click.option("--revision", default="head", show_default=True)
@DATABASE_URL
def upgrade_command(revision: str, url: str | None) -> None:
    """Migrate the schema to REVISION (Alembic)."""
    from zdb.migrate import upgrade

    upgrade(named(url), revision)
    click.echo(f"database at {revision}")


@db_group.command("downgrade")
@click.argument("revision")
@click.option("--yes", is_flag=True, help="Go down to 'base' without asking (scripts).")
@DATABASE_URL
def downgrade_command(revision: str, url: str | None, yes: bool) -> None:
    """Migrate the schema down to REVISION ('base' removes every table and all data: it asks
    first, unless --yes)."""
    from zdb.migrate import downgrade

    database = existing(url)
    if revision == "base" and not yes:
        click.confirm("'base' removes every table and all their data; go on?", abort=True, err=True)
    downgrade(database, revision)
    click.echo(f"database at {revision}")


@click.command("recalc")
@click.option("--from-scratch", is_flag=True, help="Re-evaluate the whole time line, not only what changed.")
@DATABASE_URL
def recalc_command(from_scratch: bool, url: str | None) -> None:
    """Bring every stored rating up to date now, in this process."""
    from zdb.cli.progress import progress_line
    from zdb.recalculation.run import run_recalculation

    engine = migrated(url)
    with progress_line() as report:
        outcome = run_recalculation(engine, from_scratch=from_scratch, report=report)
    if not outcome.ran:
        click.echo("another recalculation is running; it will take every change into account")
        return
    click.echo(
        f"{'from scratch' if outcome.from_scratch else 'incremental'}: {outcome.evaluated} tournaments evaluated, "
        f"{outcome.changed_players} players changed, {outcome.removed} events removed, {outcome.duration_ms} ms"
        + ("" if outcome.clean else "; newer changes arrived meanwhile: another run follows")
    )


@click.command("verify")
@click.option("--limit", default=50, show_default=True, help="Print at most this many differences.")
@DATABASE_URL
def verify_command(limit: int, url: str | None) -> None:
    """Recompute the whole time line in memory and compare it with every stored figure."""
    from zdb.recalculation.verify import verify

    with unit_of_work(migrated(url)) as session:
        differences = verify(session)
    for line in differences[:limit]:
        click.echo(line)
    if differences:
        click.echo(f"{len(differences)} differences", err=True)
        sys.exit(1)
    click.echo("no differences: the database equals a from-scratch evaluation")


@click.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--by", default="import", show_default=True, help="Recorded as the submitter.")
@click.option("--no-recalc", is_flag=True, help="Store the submissions only.")
@DATABASE_URL
def import_command(file: Any, by: str, no_recalc: bool, url: str | None) -> None:
    """Take in an events file (the vectors' replay input format), then recalculate."""
    from zdb.exchange.events_import import import_events
    from zdb.recalculation.run import run_recalculation

    source = file.name if file.name != "<stdin>" else "stdin"
    engine = migrated(url)
    document = read_json(file, source)
    with reported_input_errors(source):
        try:
            with unit_of_work(engine) as session:
                counts = import_events(session, document, by=by)
        except DomainError as error:
            fail(source, str(error))
        except (DataError, IntegrityError) as error:
            # What the reader lets through and the database refuses; nothing was stored.
            fail(source, f"cannot be stored: {str(error.orig).splitlines()[0]}")
    click.echo(", ".join(f"{value} {name.replace('_', ' ')}" for name, value in counts.items()))
    if not no_recalc:
        outcome = run_recalculation(engine)
        click.echo(f"recalculated: {outcome.evaluated} tournaments evaluated in {outcome.duration_ms} ms")


@click.command("export")
@DATABASE_URL
def export_command(url: str | None) -> None:
    """Print the stored results in the vectors' replay ``expected`` format."""
    from zdb.exchange.results_export import export_results
    from zdb.timeline.state import is_dirty

    with unit_of_work(migrated(url)) as session:
        document = export_results(session)
        pending = is_dirty(session)
    click.echo(json.dumps(document, ensure_ascii=False, indent=2))
    if pending:
        click.echo("note: changes wait for a recalculation (zdb recalc); these are the last run's results", err=True)


def _scale(context: click.Context, parameter: click.Parameter, value: float) -> float:
    if not (math.isfinite(value) and 0 < value <= 10):  # zdb.synthetic.generate's range
        raise click.BadParameter(f"must be above 0 and at most 10, got {value}")
    return value


@click.command("synth")
@click.option(
    "--scale", default=1.0, show_default=True, callback=_scale, help="1.0: ~100,000 players, ~5 M games; 0.1: a tenth."
)
@click.option("--seed", default=1, show_default=True)
@click.option("--no-recalc", is_flag=True, help="Load only; recalculate later.")
@DATABASE_URL
def synth_command(scale: float, seed: int, no_recalc: bool, url: str | None) -> None:
    """Load the engine benchmark's synthetic federation into an empty database."""
    from zdb.cli.progress import progress, progress_line
    from zdb.exchange.synthetic import load_register, load_tournaments
    from zdb.players.models import Player
    from zdb.recalculation.run import run_recalculation
    from zdb.synthetic import generate

    engine = migrated(url)
    with engine.connect() as connection:
        if connection.execute(select(func.count()).select_from(Player)).scalar_one():
            raise click.ClickException(
                "the database already holds players: synth loads into an empty database; to start over,"
                " remove everything with `zdb db downgrade base --yes`, then `zdb db upgrade`"
                " (or name an empty folder with ZDB_HOME)"
            )
    click.echo(f"generating the synthetic federation (seed {seed}, scale {scale}) ...")
    world = generate(seed=seed, scale=scale)
    with unit_of_work(engine) as session:
        load_register(session, world)
        loaded = 0
        with progress("loading", "tournaments") as report:

            def advance(tournaments: int) -> None:
                nonlocal loaded
                loaded += tournaments
                report(loaded, len(world.tournaments))

            report(0, len(world.tournaments))
            games = load_tournaments(session, world, advance=advance)
    click.echo(f"{len(world.players)} players, {len(world.tournaments)} tournaments, {games} games stored")
    if not no_recalc:
        with progress_line() as line:
            outcome = run_recalculation(engine, report=line)
        click.echo(f"recalculated from scratch: {outcome.evaluated} tournaments in {outcome.duration_ms} ms")


def register(group: click.Group) -> None:
    for command in (db_group, recalc_command, verify_command, import_command, export_command, synth_command):
        group.add_command(command)
