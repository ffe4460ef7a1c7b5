"""Clubs and the federation tree as the rating office keeps them: create, rename, move, dissolve.

A federation is named by the club-code prefix of its subtree, and a club by its code; both are
keys every scope and list relies on, so neither changes. A move therefore stays true to them: a
club moves only to a federation whose prefix begins its code (into a new district of its region,
say), a federation only under another whose prefix begins its own. A dissolved club or
federation keeps its row, with the day, for the record: its members' current memberships end
that day (their last day), and a dissolved federation takes its sub-federations and clubs with
it. Flushes, never commits.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from zdb.audit.writer import changed_values, record_entry
from zdb.auth.principal import Principal
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.federations.models import Club, Federation
from zdb.messages import Message
from zdb.players.models import Membership

__all__ = [
    "create_club",
    "create_federation",
    "dissolve_club",
    "dissolve_federation",
    "edit_club",
    "edit_federation",
]

_DEEPEST = 3  # levels: 0 national, 1 regional, 2 district, 3 sub-district


def _federation(session: Session, prefix: str, field: str | None = None) -> Federation:
    found = session.get(Federation, prefix)
    if found is None:
        unknown = Message("no federation has the prefix {prefix!r}", prefix=prefix)
        if field is None:
            raise NotFoundError(unknown)
        raise ValidationError([ValidationProblem(field, unknown)])
    return found


def _open(federation: Federation) -> None:
    if federation.dissolved_on is not None:
        raise ConflictError(
            Message(
                "federation {prefix!r} was dissolved on {day}", prefix=federation.prefix, day=federation.dissolved_on
            )
        )


def _club(session: Session, code: str) -> Club:
    club = session.get(Club, code, with_for_update=True)
    if club is None:
        raise NotFoundError(Message("no club has the code {code!r}", code=code))
    return club


def _club_values(club: Club) -> dict[str, Any]:
    return {"name": club.name, "federation_prefix": club.federation_prefix, "dissolved_on": club.dissolved_on}


def _federation_values(federation: Federation) -> dict[str, Any]:
    f = federation
    return {"name": f.name, "parent_prefix": f.parent_prefix, "level": f.level, "dissolved_on": f.dissolved_on}


def _check_club_home(session: Session, code: str, prefix: str) -> None:
    _open(_federation(session, prefix, "body.federation_prefix"))
    if not code.startswith(prefix):
        raise ValidationError(
            [
                ValidationProblem(
                    "body.federation_prefix",
                    Message(
                        "club {code} cannot belong to {prefix!r}: its code does not begin with that prefix",
                        code=code,
                        prefix=prefix,
                    ),
                )
            ]
        )


def create_club(session: Session, caller: Principal, code: str, name: str, federation_prefix: str) -> Club:
    if session.get(Club, code) is not None:
        raise ConflictError(Message("club {code} exists already", code=code))
    if not name.strip():
        raise ValidationError([ValidationProblem("body.name", Message("a club needs a name"))])
    _check_club_home(session, code, federation_prefix)
    club = Club(code=code, name=name.strip(), federation_prefix=federation_prefix)
    session.add(club)
    session.flush()
    record_entry(session, caller.token_id, "club.create", f"club {code}", before=None, after=_club_values(club))
    return club


def edit_club(session: Session, caller: Principal, code: str, given: Mapping[str, Any]) -> Club:
    """Rename, or move to another federation of its code."""
    club = _club(session, code)
    before = _club_values(club)
    name = given.get("name", club.name)
    if name is None or not name.strip():
        raise ValidationError([ValidationProblem("body.name", Message("a club needs a name"))])
    prefix = given.get("federation_prefix", club.federation_prefix)
    if prefix is None:
        raise ValidationError([ValidationProblem("body.federation_prefix", Message("a club belongs to a federation"))])
    if prefix != club.federation_prefix:
        _check_club_home(session, code, prefix)
    club.name, club.federation_prefix = name.strip(), prefix
    session.flush()
    old, new = changed_values(before, _club_values(club))
    if new:
        action = "club.move" if "federation_prefix" in new else "club.rename"
        record_entry(session, caller.token_id, action, f"club {code}", before=old, after=new)
    return club


def _end_memberships(session: Session, codes: list[str], on: date) -> int:
    m = Membership
    current = [m.club_code.in_(codes), m.valid_until.is_(None)]
    late = session.execute(select(m.player_pkz, m.club_code).where(*current, m.valid_from > on).limit(1)).first()
    if late is not None:
        raise ConflictError(
            Message(
                "player {pkz} joined club {club} after {day}: end that membership first",
                pkz=late.player_pkz,
                club=late.club_code,
                day=on.isoformat(),
            )
        )
    ended = session.execute(
        update(m).where(*current).values(valid_until=on).execution_options(synchronize_session=False)
    )
    return int(ended.rowcount or 0)  # type: ignore[attr-defined]


def dissolve_club(session: Session, caller: Principal, code: str, on: date) -> int:
    """Ends the current memberships on ``on`` (their last day); returns how many."""
    club = _club(session, code)
    if club.dissolved_on is not None:
        raise ConflictError(
            Message("club {code} was dissolved on {day} already", code=code, day=club.dissolved_on.isoformat())
        )
    ended = _end_memberships(session, [code], on)
    club.dissolved_on = on
    session.flush()
    record_entry(
        session,
        caller.token_id,
        "club.dissolve",
        f"club {code}",
        before={"dissolved_on": None},
        after={"dissolved_on": on},
        memberships_ended=ended,
    )
    return ended


def create_federation(session: Session, caller: Principal, prefix: str, name: str, parent_prefix: str) -> Federation:
    if session.get(Federation, prefix) is not None:
        raise ConflictError(Message("federation {prefix!r} exists already", prefix=prefix))
    if not name.strip():
        raise ValidationError([ValidationProblem("body.name", Message("a federation needs a name"))])
    parent = _under(session, prefix, parent_prefix)
    federation = Federation(prefix=prefix, name=name.strip(), level=parent.level + 1, parent_prefix=parent_prefix)
    session.add(federation)
    session.flush()
    record_entry(
        session,
        caller.token_id,
        "federation.create",
        f"federation {prefix}",
        before=None,
        after=_federation_values(federation),
    )
    return federation


def _under(session: Session, prefix: str, parent_prefix: str) -> Federation:
    parent = _federation(session, parent_prefix, "body.parent_prefix")
    _open(parent)
    if not (prefix.startswith(parent_prefix) and len(prefix) > len(parent_prefix)):
        raise ValidationError(
            [
                ValidationProblem(
                    "body.parent_prefix",
                    Message(
                        "federation {prefix!r} cannot lie under {parent!r}: its prefix does not extend that one",
                        prefix=prefix,
                        parent=parent_prefix,
                    ),
                )
            ]
        )
    if parent.level >= _DEEPEST:
        problem = Message("{parent!r} is a sub-district already", parent=parent_prefix)
        raise ValidationError([ValidationProblem("body.parent_prefix", problem)])
    return parent


def _subtree(session: Session, prefix: str) -> list[Federation]:
    found, frontier = [], [prefix]
    while frontier:
        children = list(session.scalars(select(Federation).where(Federation.parent_prefix.in_(frontier))))
        found.extend(children)
        frontier = [c.prefix for c in children]
    return found


def edit_federation(session: Session, caller: Principal, prefix: str, given: Mapping[str, Any]) -> Federation:
    """Rename, or move under another federation; the levels of its subtree follow."""
    federation = _federation(session, prefix)
    before = _federation_values(federation)
    name = given.get("name", federation.name)
    if name is None or not name.strip():
        raise ValidationError([ValidationProblem("body.name", Message("a federation needs a name"))])
    federation.name = name.strip()
    parent_prefix = given.get("parent_prefix", federation.parent_prefix)
    if parent_prefix != federation.parent_prefix:
        if parent_prefix is None:
            raise ValidationError(
                [ValidationProblem("body.parent_prefix", Message("only the national federation has none"))]
            )
        parent = _under(session, prefix, parent_prefix)
        shift = parent.level + 1 - federation.level
        below = _subtree(session, prefix)
        if any(f.level + shift > _DEEPEST for f in below):
            raise ValidationError(
                [
                    ValidationProblem(
                        "body.parent_prefix", Message("its subtree would lie deeper than level {level}", level=_DEEPEST)
                    )
                ]
            )
        federation.parent_prefix, federation.level = parent_prefix, parent.level + 1
        for child in below:
            child.level += shift
    session.flush()
    old, new = changed_values(before, _federation_values(federation))
    if new:
        action = "federation.move" if "parent_prefix" in new else "federation.rename"
        record_entry(session, caller.token_id, action, f"federation {prefix}", before=old, after=new)
    return federation


def dissolve_federation(session: Session, caller: Principal, prefix: str, on: date) -> int:
    """Dissolves the federation with its sub-federations and clubs; returns the memberships ended."""
    federation = _federation(session, prefix)
    if federation.parent_prefix is None:
        raise ConflictError(Message("the national federation is not dissolved"))
    _open(federation)
    federations = [federation, *(f for f in _subtree(session, prefix) if f.dissolved_on is None)]
    prefixes = [f.prefix for f in federations]
    clubs = list(session.scalars(select(Club).where(Club.federation_prefix.in_(prefixes), Club.dissolved_on.is_(None))))
    ended = _end_memberships(session, [c.code for c in clubs], on) if clubs else 0
    for each in federations:
        each.dissolved_on = on
    for club in clubs:
        club.dissolved_on = on
    session.flush()
    record_entry(
        session,
        caller.token_id,
        "federation.dissolve",
        f"federation {prefix}",
        before={"dissolved_on": None},
        after={"dissolved_on": on},
        federations=prefixes,
        clubs=[c.code for c in clubs],
        memberships_ended=ended,
    )
    return ended
