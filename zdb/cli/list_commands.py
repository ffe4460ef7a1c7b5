"""Commands of a federation moving in: ``zdb lists import`` (its rating list, then every later
list as a sync), ``zdb lists rebaseline`` (a deliberate new starting state) and ``zdb fide
import`` (FIDE's list as a dated edition). Each is one transaction: a refused file stores
nothing."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from zdb.cli.database import DATABASE_URL, migrated
from zdb.db import unit_of_work
from zdb.errors import DomainError

__all__ = ["register"]


def _day(context: click.Context, parameter: click.Parameter, value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"not a date (YYYY-MM-DD): {value!r}") from None


DATE = click.option("--date", "day", callback=_day, help="The list's date, YYYY-MM-DD (default: the ZIP's own).")
ENCODING = click.option(
    "--encoding",
    type=click.Choice(["utf-8", "cp1252", "latin-1"]),
    help="The encoding of the list's files (default: detected per file).",
)
SKIP = click.option("--skip-problems", is_flag=True, help="Store the list without the lines that have problems.")


@click.group("lists")
def lists_group() -> None:
    """The federation's rating lists: import, sync, re-baseline."""


def _echo_difference(answer: dict[str, Any]) -> None:
    verb = "would change" if answer["dry_run"] else "changed"
    click.echo(f"{answer['file']} of {answer['list_date']}: {verb}")
    for kind, count in answer["counts"].items():
        if count:
            click.echo(f"  {kind.replace('_', ' ')}: {count}")
            for line in answer["samples"].get(kind, [])[:3]:
                click.echo(f"      {line}")
    stored = "would be stored" if answer["dry_run"] else "stored"
    warnings, problems = answer.get("warnings", []), answer["problems"]
    click.echo(
        f"lines of spieler.csv {stored}: {answer.get('stored_lines', 0)}; lines left out: {answer['skipped']}; "
        f"warnings: {len(warnings)}; problems: {len(problems)}"
    )
    for title, lines in (("warnings", warnings), ("problems", problems)):
        if lines:
            click.echo(f"{title}{' (the first 50)' if len(lines) > 50 else ''}:", err=True)
            for line in lines[:50]:
                click.echo(f"  {line}", err=True)


def _refused(error: DomainError) -> None:
    from zdb.errors import ValidationError

    if isinstance(error, ValidationError):
        for problem in error.problems[:50]:
            click.echo(f"{problem.place}: {problem.message}", err=True)
        more = len(error.problems) - 50
        if more > 0:
            click.echo(f"... and {more} more", err=True)
        click.echo("nothing stored (--skip-problems stores the list without those lines)", err=True)
    else:
        click.echo(str(error), err=True)
    sys.exit(1)


@lists_group.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--dry-run", is_flag=True, help="Show the difference; store nothing.")
@DATE
@ENCODING
@SKIP
@DATABASE_URL
def import_command(
    file: Path, *, dry_run: bool, day: date | None, encoding: Any, skip_problems: bool, url: str | None
) -> None:
    """Take in the federation's rating-list ZIP (the first one, or a later one as a sync)."""
    from zdb.cli.progress import progress
    from zdb.lists.service import import_rating_list, phase_of

    engine = migrated(url)
    refused: DomainError | None = None
    with progress("importing", "phases") as report:

        def advance(done: int, total: int) -> None:
            report(done, total, phase_of(done, total))

        try:
            with unit_of_work(engine) as session:
                answer = import_rating_list(
                    session,
                    file.read_bytes(),
                    file=file.name,
                    list_date=day,
                    codec=encoding,
                    dry_run=dry_run,
                    skip_problems=skip_problems,
                    by=f"zdb lists import {file.name}",
                    progress=advance,
                )
        except DomainError as error:
            refused = error  # said once the progress has ended
    if refused is not None:
        _refused(refused)
        return
    _echo_difference(answer.as_json())
    if answer.applied and answer.counts["start_ratings"]:
        click.echo("the starting states wait for a recalculation (zdb recalc, or the worker)")


@lists_group.command("synth")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--memberships", default=2000, show_default=True, help="Lines of spieler.csv.")
@click.option("--seed", default=1, show_default=True)
@click.option("--layout", type=click.Choice(["portal", "dewis", "dewis-old"]), default="portal", show_default=True)
def synth_command(file: Path, memberships: int, seed: int, layout: str) -> None:
    """Write a made-up rating-list ZIP (generated names, every quirk of the real files) to try
    the import with; real member data may not be republished."""
    from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

    if memberships < 1:
        raise click.BadParameter("must be at least 1", param_hint="--memberships")
    file.write_bytes(list_zip_bytes(synthetic_list(seed, memberships), layout))
    click.echo(f"{file}: {memberships} memberships in the {layout} layout")


@lists_group.command("rebaseline")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--date", "day", callback=_day, required=True, help="The new epoch, YYYY-MM-DD.")
@ENCODING
@click.option("--yes", is_flag=True, help="Do it without asking (scripts).")
@DATABASE_URL
def rebaseline_command(file: Path, day: date, encoding: Any, yes: bool, url: str | None) -> None:
    """Make the list's DWZ and index every listed person's starting state at DATE, replacing
    what ZDB computed before it; the time line is recalculated from DATE."""
    from zdb.lists.rebaseline import rebaseline

    if not yes:
        click.confirm(
            f"the list's ratings replace ZDB's for everyone it lists, from {day}; go on?", abort=True, err=True
        )
    engine = migrated(url)
    try:
        with unit_of_work(engine) as session:
            count = rebaseline(session, file.read_bytes(), file=file.name, day=day, codec=encoding)
    except DomainError as error:
        _refused(error)
        return
    click.echo(f"{count} starting states set at {day}; the time line is recalculated from there")


@click.group("fide")
def fide_group() -> None:
    """FIDE's rating list."""


@fide_group.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--dry-run", is_flag=True, help="Read and count; store nothing.")
@click.option("--date", "day", callback=_day, help="The edition's date (default: the first of this month).")
@SKIP
@DATABASE_URL
def fide_import_command(file: Path, dry_run: bool, day: date | None, skip_problems: bool, url: str | None) -> None:
    """Store FIDE's list (players_list_foa.txt or the XML) as a dated edition."""
    from zdb.cli.progress import progress
    from zdb.lists.fide_import import import_fide_list
    from zdb.lists.import_records import record_fide_import

    engine = migrated(url)
    size = file.stat().st_size
    started = datetime.now()
    refused: DomainError | None = None
    with progress(f"reading {file.name}", "bytes") as report:
        try:
            with unit_of_work(engine) as session, file.open("rb") as lines:
                answer = import_fide_list(
                    session,
                    _counted(lines, lambda done: report(done, size)),
                    file=file.name,
                    edition=day,
                    dry_run=dry_run,
                    skip_problems=skip_problems,
                )
                if answer.applied:
                    record_fide_import(session, answer, skip_problems=skip_problems)
        except DomainError as error:
            refused = error  # said once the progress has ended
    if refused is not None:
        _refused(refused)
        return
    seconds = (datetime.now() - started).total_seconds()
    verb = "read" if dry_run else "stored"
    click.echo(
        f"edition {answer.edition}: {answer.players} players {verb}, {answer.linked} persons of the register linked "
        f"by FIDE id, {answer.problem_count} problems ({seconds:.1f} s)"
    )
    for line in answer.problems[:20]:
        click.echo(f"  {line}", err=True)


def _counted(lines: Any, report: Callable[[int], None]) -> Any:
    """The lines, the bytes read reported every 10,000 of them (reporting per line would cost
    more than reading)."""
    read = 0
    for number, line in enumerate(lines, start=1):
        read += len(line)
        if number % 10_000 == 0:
            report(read)
        yield line
    report(read)


def register(group: click.Group) -> None:
    group.add_command(lists_group)
    group.add_command(fide_group)
