"""What the older DeWIS files read beyond the player card and the club lists
(``php/dewis/spieler.php``, ``verband.php``): a merged number's survivor, a player's rank in
each of his clubs, the average rating of his rated opponents in each evaluated tournament, and
the best of a federation.

The ranks are the club's rating list's: by DWZ among the club's rated current members, equal
ratings sharing a rank (1, 2, 2, 4). The opponents' average is over the games rated for him
(played at the board, spec §3) against opponents with a rating before the tournament, rounded
to a whole number.
"""

from __future__ import annotations

from sqlalchemy import and_, func, select, union_all
from sqlalchemy.orm import Session, aliased

from zdb.errors import NotFoundError
from zdb.formats.dsb_files import MemberRow
from zdb.players.models import Membership, Player
from zdb.timeline.models import Evaluation, PlayerRating
from zdb.tournaments.models import GameRow

__all__ = ["best_of_federation", "club_ranks", "opponents_average", "survivor_of"]

_PLAYED = ("1-0", "0-1", "1/2-1/2")


def survivor_of(session: Session, pkz: int) -> int:
    """The person number itself, or the record a merge kept for it; ``NotFoundError`` if none."""
    seen: set[int] = set()
    current: int | None = pkz
    while current is not None and current not in seen:
        seen.add(current)
        row = session.execute(select(Player.merged_into).where(Player.pkz == current)).first()
        if row is None:
            raise NotFoundError(f"player {pkz} does not exist")
        if row.merged_into is None:
            return current
        current = row.merged_into
    raise NotFoundError(f"player {pkz} does not exist")


def club_ranks(session: Session, pkz: int) -> dict[str, int]:
    """His rank by DWZ in each club he is a current member of (rated members only)."""
    m, r = Membership, PlayerRating
    mine = session.execute(
        select(m.club_code, r.rating)
        .join(r, r.player_pkz == m.player_pkz)
        .where(m.player_pkz == pkz, m.valid_until.is_(None), r.rating.is_not(None))
    ).all()
    ranks = {}
    for code, rating in mine:
        better = session.execute(
            select(func.count(func.distinct(m.player_pkz)))
            .join(r, r.player_pkz == m.player_pkz)
            .where(m.club_code == code, m.valid_until.is_(None), r.rating > rating)
        ).scalar_one()
        ranks[code] = better + 1
    return ranks


def opponents_average(session: Session, pkz: int) -> dict[tuple[int, int], int]:
    """(tournament id, version) -> the average rating before the tournament of his opponents in
    the games rated for him."""
    g, own, other = GameRow, Evaluation, aliased(Evaluation)
    sides = union_all(
        select(g.tournament_id, g.version, g.black_pkz.label("opponent")).where(
            g.white_pkz == pkz, g.result.in_(_PLAYED)
        ),
        select(g.tournament_id, g.version, g.white_pkz.label("opponent")).where(
            g.black_pkz == pkz, g.result.in_(_PLAYED)
        ),
    ).subquery()
    rows = session.execute(
        select(sides.c.tournament_id, sides.c.version, func.avg(other.r0))
        .join(own, and_(own.tournament_id == sides.c.tournament_id, own.version == sides.c.version))
        .join(
            other,
            and_(
                other.tournament_id == sides.c.tournament_id,
                other.version == sides.c.version,
                other.player_pkz == sides.c.opponent,
            ),
        )
        .where(own.player_pkz == pkz, other.r0.is_not(None))
        .group_by(sides.c.tournament_id, sides.c.version)
    )
    return {(tid, version): round(float(average)) for tid, version, average in rows if average is not None}


def best_of_federation(members: list[MemberRow], limit: int) -> list[MemberRow]:
    """The ``limit`` best rated members of a federation's list, each person once (at his first
    membership of the list), by DWZ, then index, then name; unrated members left out."""
    seen: set[int] = set()
    rated = []
    for row in members:
        if row.rating is None or row.pkz in seen:
            continue
        seen.add(row.pkz)
        rated.append(row)
    rated.sort(key=lambda r: (-(r.rating or 0), -(r.rating_index or 0), r.surname, r.given_name, r.pkz))
    return rated[:limit]
