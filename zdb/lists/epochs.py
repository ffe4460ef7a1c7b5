"""The epoch rule: a tournament ending on or before the date of the rating list that brought a
participant in is already inside the rating the list gave him, so it cannot be evaluated again.

A list's DWZ is the evaluation of every tournament its federation had rated up to the list's
date. Taking such a tournament once more would count its games twice (and a start rating at
the list's date, spec §2, is ordered before every tournament ending that day, so even one
ending on the date itself would be evaluated on top of a rating that holds it). Such a
submission is refused, the problem naming the player, his place in the file and the date.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.errors import ValidationProblem
from zdb.lists.models import ListBaseline
from zdb.messages import Message
from zdb.players.models import Player

__all__ = ["epoch_problems"]


def epoch_problems(session: Session, end_date: date, players: Sequence[tuple[str, int]]) -> list[ValidationProblem]:
    """A problem per participant (place, person number) whose list epoch is on or after
    ``end_date``."""
    wanted = {pkz: place for place, pkz in players}
    if not wanted:
        return []
    rows = session.execute(
        select(ListBaseline.player_pkz, ListBaseline.epoch, Player.surname, Player.given_name)
        .join(Player, Player.pkz == ListBaseline.player_pkz)
        .where(ListBaseline.player_pkz.in_(list(wanted)), ListBaseline.epoch >= end_date)
    )
    problems = []
    for pkz, epoch, surname, given in sorted(rows, key=lambda row: list(wanted).index(row[0])):
        name = f"{given} {surname}".strip()
        message = Message(
            "{name} ({pkz}) came in with the rating list of {epoch}: a tournament ending on or before that date"
            " is already inside his rating",
            name=name,
            pkz=pkz,
            epoch=epoch.isoformat(),
        )
        problems.append(ValidationProblem(wanted[pkz], message))
    return problems
