"""Use cases on players. Flushes, never commits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.bulk import copy_rows, in_chunks
from zdb.common.names import fold_name
from zdb.locks import PERSON_NUMBERS, hold
from zdb.players.merged import follow_merges
from zdb.players.models import Player

__all__ = ["NewPlayer", "create_players", "pkz_by_external_id"]


@dataclass(frozen=True, slots=True)
class NewPlayer:
    surname: str
    given_name: str = ""
    birth_year: int | None = None
    birth_date: date | None = None
    sex: str | None = None
    fide_id: int | None = None
    nation: str | None = None
    guest: bool = False
    external_id: str | None = None
    pkz: int | None = None  # given: kept (an imported list); None: the next free person number


_COLUMNS = (
    "pkz",
    "external_id",
    "surname",
    "given_name",
    "search_name",
    "sex",
    "birth_year",
    "birth_date",
    "fide_id",
    "nation",
    "guest",
)


def create_players(session: Session, players: Sequence[NewPlayer]) -> list[int]:
    """Insert players; returns their person numbers in the given order."""
    # Person numbers are never reused: new ones continue after the highest ever given; the
    # lock makes concurrent creators take turns until the first one commits.
    hold(session, PERSON_NUMBERS)
    highest = session.execute(select(func.max(Player.pkz))).scalar() or 10_000_000
    # numbers given with the batch count too: a new number never meets one kept in it
    next_pkz = max([highest, *(p.pkz for p in players if p.pkz is not None)]) + 1
    numbers = []
    rows = []
    for player in players:
        pkz = player.pkz
        if pkz is None:
            pkz, next_pkz = next_pkz, next_pkz + 1
        numbers.append(pkz)
        name = f"{player.given_name} {player.surname}".strip()
        rows.append(
            (
                pkz,
                player.external_id,
                player.surname,
                player.given_name,
                fold_name(name),
                player.sex,
                player.birth_year,
                player.birth_date,
                player.fide_id,
                player.nation,
                player.guest,
            )
        )
    copy_rows(session, Player.__table__, _COLUMNS, rows)  # type: ignore[arg-type]
    return numbers


def pkz_by_external_id(session: Session, external_ids: Sequence[str]) -> dict[str, int]:
    """The person each known external id names: a record a merge absorbed keeps its id, which
    then names the survivor (``zdb.players.merged``)."""
    found: dict[str, int] = {}
    for chunk in in_chunks(external_ids):
        rows = session.execute(select(Player.external_id, Player.pkz).where(Player.external_id.in_(chunk)))
        found.update((r.external_id, r.pkz) for r in rows)
    absorbed = session.execute(select(Player.pkz, Player.merged_into).where(Player.merged_into.is_not(None)))
    merged = {pkz: survivor for pkz, survivor in absorbed if survivor is not None}
    return {external: follow_merges(pkz, merged) for external, pkz in found.items()}
