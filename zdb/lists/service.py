"""Importing a federation's rating list: read the ZIP, compute the difference, and (unless a dry
run) write it, all in the caller's transaction. Flushes, never commits.

The list's date is the epoch of the starting states it brings: the date given (``--date``, the
upload's ``list_date``), else the date the ZIP stamps on its ``spieler.csv`` (none at all, or
the ZIP format's earliest time, asks for the date). A list with
problems stores nothing, unless told to skip the lines with problems; those are then listed in
the answer. A dry run answers the same difference and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime

from sqlalchemy.orm import Session

from zdb.errors import ValidationError, ValidationProblem
from zdb.formats.dsb_files import Codec
from zdb.formats.list_model import Problem, RatingList
from zdb.formats.list_reader import read_rating_list
from zdb.formats.read_limits import ReadLimits, ReadRefusedError
from zdb.lists.difference import Difference
from zdb.lists.models import ListImport
from zdb.lists.problem_texts import place_of, placed_problem
from zdb.lists.sync_plan import plan_sync
from zdb.lists.sync_writes import WRITE_STEPS, write_sync
from zdb.lists.upload_refusals import refusal_error
from zdb.messages import Message

__all__ = ["CODECS", "PHASES", "ListProblemsError", "import_rating_list", "list_date_of", "phase_of", "phases"]

#: what an import does, in order: ``progress(done, total)`` reports ``done`` phases ended, so
#: that the one under way is ``PHASES[done]``; a dry run ends after the comparison (total 2),
#: an applied import after the writes (``zdb.lists.sync_writes``; total 9)
PHASES = (
    "reading the list",
    "comparing it with the register",
    "writing federations and clubs",
    "writing new people",
    "writing corrected people",
    "writing memberships",
    "writing starting states",
    "writing the audit log",
    "storing",
)
_READ_STEPS = 2
assert len(PHASES) == _READ_STEPS + WRITE_STEPS


def phases(*, dry_run: bool) -> int:
    """How many phases an import has: ``total`` of its progress."""
    return _READ_STEPS if dry_run else _READ_STEPS + WRITE_STEPS


def phase_of(done: int, total: int) -> str:
    """The phase under way when ``done`` of ``total`` have ended."""
    return "done" if done >= total else PHASES[done]


#: the encodings a caller may state (else each file's is detected)
CODECS: tuple[Codec, ...] = ("utf-8", "cp1252", "latin-1")


class ListProblemsError(ValidationError):
    """A list refused because of its problems (each with file, line and column); nothing is stored."""

    def __init__(self, problems: list[Problem], difference: Difference) -> None:
        super().__init__([ValidationProblem(place_of(p), placed_problem(p).text) for p in problems])
        self.difference = difference


def list_date_of(rating_list: RatingList, given: date | None) -> date:
    if given is not None:
        return given
    # 1980-01-01 00:00 is the ZIP format's earliest time: what a writer stamps without a date
    if rating_list.stamp is not None and rating_list.stamp != datetime(1980, 1, 1):
        return rating_list.stamp.date()
    raise ValidationError(
        [
            ValidationProblem(
                "list_date", Message("the list carries no date: give the date of the list (--date YYYY-MM-DD)")
            )
        ]
    )


def import_rating_list(
    session: Session,
    data: bytes,
    *,
    file: str,
    list_date: date | None = None,
    codec: Codec | None = None,
    dry_run: bool = False,
    skip_problems: bool = False,
    by: str = "list import",
    import_id: int | None = None,
    actor_token_id: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    limits: ReadLimits | None = None,
) -> Difference:
    """Sync the register with the rating-list ZIP ``data``; the difference it made (or, in a
    dry run, would make). ``import_id`` names the import's row; without one, an applied import
    records a row of its own. ``progress(done, total)`` follows its phases (``PHASES``).
    ``limits`` bound the reading (default: ``ReadLimits()``); a ZIP that is malformed or exceeds
    them is refused (``ValidationError`` naming the bound)."""
    total = phases(dry_run=dry_run)

    def report(done: int) -> None:
        if progress is not None:
            progress(done, total)

    report(0)
    bounds = limits or ReadLimits()
    try:
        rating_list = read_rating_list(data, codec, name=file, limits=bounds)
    except ReadRefusedError as error:
        raise refusal_error(error) from None
    if not rating_list.members and not rating_list.problems:
        empty = Problem.of("spieler.csv", 0, "", "no membership in the list")
        rating_list = RatingList((), (), (), (), (empty,), rating_list.formats, rating_list.stamp)
    day = list_date_of(rating_list, list_date)
    report(1)
    plan = plan_sync(session, rating_list, day, file, dry_run=dry_run)
    try:
        bounds.check_deadline(file)  # the reading and the plan took the run time: nothing is written
    except ReadRefusedError as error:
        raise refusal_error(error) from None
    difference = plan.difference
    difference.problems = [str(p) for p in plan.problems]
    difference.problem_texts = [placed_problem(p).as_json() for p in plan.problems]
    # exactly the lines the plan leaves out and stores (a problem on a line the plan takes, such
    # as a FIDE id already given, leaves the line in); one of the whole file (line 0) refuses it
    difference.skipped = len(plan.left_out)
    difference.stored_lines = plan.stored_lines
    difference.warnings = [str(w) for w in plan.warnings]
    difference.warning_texts = [w.as_json() for w in plan.warnings]
    if dry_run:
        report(_READ_STEPS)
        return difference
    fatal = [p for p in plan.problems if p.line == 0]
    if plan.problems and (not skip_problems or fatal):
        raise ListProblemsError(fatal or plan.problems, difference)
    if import_id is None:
        record = ListImport(kind="list", file_name=file[:200], list_date=day, status="done", dry_run=False)
        record.finished_at = datetime.now(UTC)
        record.skip_problems = skip_problems
        record.actor_token_id = actor_token_id
        session.add(record)
        session.flush()
        import_id = record.id
    report(_READ_STEPS)
    write_sync(
        session,
        plan,
        import_id=import_id,
        by=by,
        actor_token_id=actor_token_id,
        progress=lambda step, _: report(_READ_STEPS + step),
    )
    difference.applied = True
    record_row = session.get(ListImport, import_id)
    if record_row is not None:
        record_row.list_date = day
        record_row.result = difference.as_json()
        # the import's own row (a command's) ends with its phases all done, as a worker's does
        record_row.progress_done = record_row.progress_total = total
    session.flush()
    return difference
