"""FIDE's rating list into the database as a dated edition, streamed in batches.

An edition is stored whole: its rows replace those of the same edition date (a list imported
twice is one edition), other editions stay, so that the rating a player had in any month can be
looked up (spec §10 takes the newest edition published before a tournament's start). Persons
are linked by their FIDE id: the register's ``fide_id`` is the join, nothing is copied into it.

The edition's date is the one given, else the first day of the current month (FIDE publishes
its list on the first of a month). A line that cannot be read is a problem with its line and
column; the edition is stored without it only when told to skip such lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import Table, delete, func, select
from sqlalchemy.orm import Session

from zdb.bulk import copy_rows
from zdb.errors import ValidationError, ValidationProblem
from zdb.formats.fide_list import FidePlayer
from zdb.formats.fide_txt import read_fide_txt
from zdb.formats.fide_xml import read_fide_xml
from zdb.formats.list_model import Problem
from zdb.formats.read_limits import ReadLimits, ReadRefusedError
from zdb.lists.models import FideRatingRow
from zdb.lists.problem_texts import place_of, placed_problem
from zdb.lists.upload_refusals import refusal_error
from zdb.players.models import Player

__all__ = ["FideEdition", "import_fide_list", "newest_standard", "newest_standard_editions", "read_fide_file"]

_BATCH = 20_000
_COLUMNS = (
    "fide_id",
    "edition",
    "name",
    "federation",
    "sex",
    "title",
    "women_title",
    "other_titles",
    "standard",
    "standard_games",
    "standard_k",
    "rapid",
    "rapid_games",
    "rapid_k",
    "blitz",
    "blitz_games",
    "blitz_k",
    "birth_year",
    "flags",
)
_PROBLEMS_SHOWN = 50


@dataclass(slots=True)
class FideEdition:
    """The answer of a FIDE import: players read (and stored), persons of the register found in
    the edition, problems (the first ones)."""

    file: str
    edition: date
    dry_run: bool
    players: int = 0
    linked: int = 0
    problem_count: int = 0
    problems: list[str] = field(default_factory=list)
    #: the same problems as the pages translate them (``zdb.lists.problem_texts``)
    problem_texts: list[dict[str, Any]] = field(default_factory=list)
    applied: bool = False
    #: the problems kept, for a refusal
    kept: list[Problem] = field(default_factory=list, repr=False)

    def add_problem(self, problem: Problem) -> None:
        """Count a problem; the first ones are kept, in English and as the pages translate them."""
        self.problem_count += 1
        if len(self.problems) < _PROBLEMS_SHOWN:
            self.problems.append(str(problem))
            self.problem_texts.append(placed_problem(problem).as_json())
            self.kept.append(problem)

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "edition": self.edition.isoformat(),
            "dry_run": self.dry_run,
            "applied": self.applied,
            "players": self.players,
            "linked": self.linked,
            "problem_count": self.problem_count,
            "problems": list(self.problems),
            "problem_texts": list(self.problem_texts),
        }


def read_fide_file(
    lines: Iterable[bytes], file: str, limits: ReadLimits | None = None
) -> Iterator[FidePlayer | Problem]:
    """The XML reader for a ``.xml`` file, the fixed-width text reader for any other."""
    if file.lower().endswith(".xml"):
        return read_fide_xml(lines, file, limits or ReadLimits())
    return read_fide_txt(lines, file=file)


def _refused_in_words(items: Iterator[FidePlayer | Problem]) -> Iterator[FidePlayer | Problem]:
    """The items; a bound exceeded or a malformed file as the ``ValidationError`` that names it."""
    try:
        yield from items
    except ReadRefusedError as error:
        raise refusal_error(error) from None


def _row(player: FidePlayer, edition: date) -> tuple[object, ...]:
    s, r, b = player.standard, player.rapid, player.blitz
    others = ",".join(player.other_titles)[:60] or None
    return (
        player.fide_id,
        edition,
        player.name[:120],
        player.federation[:3],
        player.sex,
        player.title,
        player.women_title,
        others,
        s.rating,
        s.games,
        s.k,
        r.rating,
        r.games,
        r.k,
        b.rating,
        b.games,
        b.k,
        player.birth_year,
        player.flags[:4],
    )


def _table() -> Table:
    table: Table = FideRatingRow.__table__  # type: ignore[assignment]
    return table


def import_fide_list(
    session: Session,
    lines: Iterable[bytes],
    *,
    file: str,
    edition: date | None = None,
    dry_run: bool = False,
    skip_problems: bool = False,
    progress: Callable[[int], None] | None = None,
    limits: ReadLimits | None = None,
) -> FideEdition:
    """Store the FIDE list read from ``lines`` as the edition of ``edition``. Flushes, never
    commits; a refused list (problems, not skipped) raises ``ValidationError`` and leaves the
    caller's transaction to be rolled back, as does a list over one of ``limits``' bounds
    (the line bounds are the caller's, who gives the lines: ``zdb.lists.fide_upload``)."""
    day = edition or date.today().replace(day=1)
    answer = FideEdition(file, day, dry_run)
    table = _table()
    if not dry_run:
        session.execute(delete(FideRatingRow).where(FideRatingRow.edition == day))
    batch: list[tuple[object, ...]] = []
    ids: set[int] = set()
    for item in _refused_in_words(read_fide_file(lines, file, limits)):
        if isinstance(item, Problem):
            answer.add_problem(item)
            continue
        if item.fide_id in ids:
            answer.add_problem(Problem.of(file, item.line, "ID Number", "FIDE id {id} again", id=item.fide_id))
            continue
        ids.add(item.fide_id)
        answer.players += 1
        if not dry_run:
            batch.append(_row(item, day))
            if len(batch) >= _BATCH:
                copy_rows(session, table, _COLUMNS, batch)
                batch.clear()
        if progress is not None and answer.players % _BATCH == 0:
            progress(_BATCH)
    if answer.problem_count and not skip_problems and not dry_run:
        raise ValidationError([ValidationProblem(place_of(p), placed_problem(p).text) for p in answer.kept])
    if batch:
        copy_rows(session, table, _COLUMNS, batch)
    known = session.execute(select(Player.fide_id).where(Player.fide_id.is_not(None))).scalars()
    answer.linked = sum(1 for fide_id in known if fide_id in ids)
    answer.applied = not dry_run
    if not dry_run:
        session.flush()
    return answer


def newest_standard(session: Session, fide_ids: Iterable[int], before: date) -> dict[int, int]:
    """The standard rating of each FIDE id in the newest edition published before ``before``
    (spec §10, WO 2.2.4); ids unrated there are missing."""
    return {fide_id: rating for fide_id, (rating, _) in newest_standard_editions(session, fide_ids, before).items()}


def newest_standard_editions(session: Session, fide_ids: Iterable[int], before: date) -> dict[int, tuple[int, date]]:
    """As ``newest_standard``, with the edition each rating comes from."""
    wanted = list(set(fide_ids))
    if not wanted:
        return {}
    f = FideRatingRow
    newest = (
        select(f.fide_id, func.max(f.edition).label("edition"))
        .where(f.fide_id.in_(wanted), f.edition < before)
        .group_by(f.fide_id)
        .subquery()
    )
    rows = session.execute(
        select(f.fide_id, f.standard, f.edition).join(
            newest, (f.fide_id == newest.c.fide_id) & (f.edition == newest.c.edition)
        )
    )
    return {fide_id: (rating, edition) for fide_id, rating, edition in rows if rating is not None}
