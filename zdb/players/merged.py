"""A person number absorbed by a merge is no person any more: it answers as its survivor.

Why: a merge (``zdb.office.merge``) keeps the absorbed record, with its name and birth data, so
that its number can redirect for good. Every place that looks people up must therefore skip
such a record as a candidate (by name, birth date, club or FIDE id) and read a number that
names one as the surviving person's: otherwise a referee's unchanged file finds the one person
twice ("ambiguous"), or a tournament is stored under a number that no longer counts.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from zdb.players.models import Player

__all__ = ["LIVE", "follow_merges", "survivor_of"]

#: the records that are people (not absorbed by a merge): the only candidates of any look-up
LIVE: ColumnElement[bool] = Player.merged_into.is_(None)


def survivor_of(session: Session, pkz: int) -> int | None:
    """The person ``pkz`` is now: itself, or the survivor of its merge (a survivor merged again
    later: the last one); None when no record has that number."""
    seen = {pkz}
    while True:
        merged_into = session.execute(select(Player.merged_into).where(Player.pkz == pkz)).one_or_none()
        if merged_into is None:
            return None
        if merged_into[0] is None:
            return pkz
        pkz = merged_into[0]
        # A merge refuses a record that was merged already, so the chain cannot come back.
        assert pkz not in seen, f"merge chain loops at {pkz}"
        seen.add(pkz)


def follow_merges(pkz: int, merged_into: Mapping[int, int]) -> int:
    """``survivor_of`` over a map read beforehand (absorbed number → survivor), for bulk readers."""
    seen = {pkz}
    while pkz in merged_into:
        pkz = merged_into[pkz]
        assert pkz not in seen, f"merge chain loops at {pkz}"
        seen.add(pkz)
    return pkz
