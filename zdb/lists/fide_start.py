"""The FIDE rating a submission leaves out, taken from FIDE's list (spec §10, WO 2.2.4, 4.1.2).

The rules need a FIDE rating for a player without a DWZ (his start value) and for one whose
DWZ is 2400 or more. When a submission names such a player's FIDE id (or his record has one)
but gives no rating, the standard rating of the newest edition of FIDE's list published before
the tournament's start is used, and the answer says so in a warning, so that the referee sees
which number was taken and from which list. A player the rules do not need it for is left as
the submission has him.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.errors import ValidationProblem
from zdb.lists.fide_import import newest_standard_editions
from zdb.messages import Message
from zdb.players.models import Player
from zdb.rating import OrderKey
from zdb.timeline.stored_state import state_before

__all__ = ["FIDE_RULE_RATING", "fide_start_ratings"]

#: from this DWZ on, the FIDE rating counts as R0 (WO 4.1.2)
FIDE_RULE_RATING = 2400


def fide_start_ratings(
    session: Session,
    players: Sequence[tuple[str, int, int | None]],
    *,
    start: date,
    key: OrderKey,
    skip_tournament: int | None = None,
) -> tuple[dict[int, int], list[ValidationProblem]]:
    """For (place, person number, FIDE id given) of the players without a FIDE rating: the
    ratings to use by person number, and a warning for each."""
    if not players:
        return {}, []
    numbers = [pkz for _, pkz, _ in players if pkz > 0]
    chosen = select(Player.pkz, Player.fide_id).where(Player.pkz.in_(numbers))
    recorded: dict[int, int | None] = {}
    for pkz, fide_id in session.execute(chosen):  # (a Result is not a mapping: no dict() of it)
        recorded[pkz] = fide_id
    ids = {pkz: given or recorded.get(pkz) for _, pkz, given in players}
    found = newest_standard_editions(session, [i for i in ids.values() if i is not None], start)
    ratings: dict[int, int] = {}
    warnings = []
    for place, pkz, _ in players:
        fide_id = ids[pkz]
        if fide_id is None or fide_id not in found:
            continue
        if pkz > 0:
            state = state_before(session, None, str(pkz), key, skip_tournament=skip_tournament)
            if state.rating is not None and state.rating < FIDE_RULE_RATING:
                continue  # an established DWZ below 2400: the rules take no FIDE rating
        rating, edition = found[fide_id]
        ratings[pkz] = rating
        message = Message(
            "no FIDE rating given: the standard rating {rating} of FIDE's list of {edition} (FIDE id {fide_id}) is"
            " used",
            rating=rating,
            edition=edition.isoformat(),
            fide_id=fide_id,
        )
        warnings.append(ValidationProblem(place, message))
    return ratings, warnings
