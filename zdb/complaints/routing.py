"""To whom a complaint goes: the referee who evaluated the tournament, else the responsible
officer up the federation tree, else the federation's office.

Who is who, with the roles that exist: the evaluating referee is the referee token that
submitted the tournament's current version (its writer name, ``referee C (token 2)``), while
that token is not revoked. The responsible officer of a federation is the rating officer named
for it (``zdb.reviews.rules``: the same officer who reviews its submissions), while his token is
valid; where a federation names none, a referee token whose scope is exactly the federation's
prefix (the district's officer holds the district's prefix, the region's the region's); the one
created first answers. The walk starts at the tournament's
federation (a record: the federation of the person's current club, the oldest membership first)
and goes up the tree; where nobody is found the office (the admin tokens) has it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.auth.models import ApiToken
from zdb.auth.officers import RatingOfficer
from zdb.auth.principal import Principal
from zdb.federations.models import Club, Federation
from zdb.players.models import Membership
from zdb.tournaments.models import TournamentRecord, TournamentVersion

__all__ = ["Route", "responsible_officer", "route_complaint", "sees"]

_WRITER = re.compile(r"^referee (\S+) \(token (\d+)\)$")


@dataclass(frozen=True, slots=True)
class Route:
    to: str  # referee, officer, office
    scope: str | None = None
    token_id: int | None = None


OFFICE = Route("office")


def _live_referee(session: Session, token_id: int) -> ApiToken | None:
    token = session.get(ApiToken, token_id)
    return token if token is not None and token.role == "referee" and token.revoked_at is None else None


def _evaluating_referee(session: Session, tournament_id: int) -> Route | None:
    record = session.get(TournamentRecord, tournament_id)
    if record is None:
        return None
    version = session.get(TournamentVersion, (tournament_id, record.current_version))
    found = None if version is None else _WRITER.match(version.submitted_by)
    token = None if found is None else _live_referee(session, int(found.group(2)))
    return None if token is None else Route("referee", token.scope, token.id)


def _tournament_federation(session: Session, tournament_id: int) -> str | None:
    record = session.get(TournamentRecord, tournament_id)
    version = None if record is None else session.get(TournamentVersion, (tournament_id, record.current_version))
    return None if version is None else version.federation_prefix


def _person_federation(session: Session, pkz: int) -> str | None:
    m, c = Membership, Club
    return session.execute(
        select(c.federation_prefix)
        .join(m, m.club_code == c.code)
        .where(m.player_pkz == pkz, m.valid_until.is_(None))
        .order_by(m.valid_from, m.id)
        .limit(1)
    ).scalar()


def responsible_officer(session: Session, federation: str | None) -> Route | None:
    """The officer of ``federation`` or of the nearest federation above it that has one."""
    seen: set[str] = set()
    current = federation
    while current is not None and current not in seen:
        seen.add(current)  # a broken tree never loops
        named = session.get(RatingOfficer, current)
        if named is not None and named.token_id is not None and _live_referee(session, named.token_id) is not None:
            return Route("officer", current, named.token_id)
        token_id = session.execute(
            select(ApiToken.id)
            .where(ApiToken.role == "referee", ApiToken.scope == current, ApiToken.revoked_at.is_(None))
            .order_by(ApiToken.id)
            .limit(1)
        ).scalar()
        if token_id is not None:
            return Route("officer", current, token_id)
        parent = session.get(Federation, current)
        current = None if parent is None else parent.parent_prefix
    return None


def route_complaint(session: Session, *, tournament_id: int | None, person_pkz: int | None) -> Route:
    if tournament_id is not None:
        referee = _evaluating_referee(session, tournament_id)
        if referee is not None:
            return referee
        federation = _tournament_federation(session, tournament_id)
    else:
        federation = None if person_pkz is None else _person_federation(session, person_pkz)
    return responsible_officer(session, federation) or OFFICE


def sees(caller: Principal, routed_token_id: int | None, routed_scope: str | None) -> bool:
    """Whether a caller reads and decides a complaint: the office always; a referee the ones
    routed to his token and those of an officer's federation inside his scope (the region's
    officer sees his districts')."""
    if caller.role == "admin":
        return True
    if caller.role != "referee":
        return False
    if routed_token_id is not None and routed_token_id == caller.token_id:
        return True
    return routed_scope is not None and caller.covers(routed_scope)
