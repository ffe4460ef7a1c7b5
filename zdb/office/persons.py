"""A person's record as the rating office keeps it: created by hand, corrected field by field.

Two of its fields are inputs of evaluations: the birth year (spec §13.16: the record's year is
used in every evaluation of the person) and whether he is a guest (WO 3.4.3). A change of either
is written into every participation of the person and marks each tournament he played stale,
so the recalculation that follows redoes them from the first one; the answer names that place.
A birth date decides the birth year: given alone, the year follows it; given with another year,
it is refused. Flushes, never commits.

A new person with the name and birth date of a record is refused (409 naming it: the office
merges or corrects instead) unless the office insists (``allow_duplicate``, audited: two people
of one name and birthday exist); a record of a near name or the same name and birth year is a
warning naming it (``zdb.players.similar``), on creation and on every correction, so that the
office sees a second record of the person while it works on one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from zdb.audit.writer import changed_values, record_entry
from zdb.auth.principal import Principal
from zdb.common.names import fold_name
from zdb.complaints.service import link_change
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.locks import PERSON_NUMBERS, hold
from zdb.messages import Message
from zdb.office.reach import recalculation_from
from zdb.players.models import Membership, Player
from zdb.players.service import NewPlayer, create_players
from zdb.players.similar import Wanted, similar_records
from zdb.rating import OrderKey
from zdb.tournaments.models import Participation
from zdb.tournaments.person_facts import mark_stale

__all__ = [
    "EDITABLE",
    "PersonCreated",
    "PersonEdit",
    "create_person",
    "edit_person",
    "person_values",
    "player_for_change",
    "similar_warnings",
]

#: the fields staff may set on a person
EDITABLE = (
    "surname",
    "given_name",
    "birth_year",
    "birth_date",
    "sex",
    "fide_id",
    "nation",
    "guest",
    "objects_to_publication",
)
_NATION = re.compile(r"[A-Z]{3}")


@dataclass(frozen=True, slots=True)
class PersonEdit:
    pkz: int
    #: the earliest place of the time line the change made dirty (None: no evaluation changes)
    reach: OrderKey | None
    #: records that may be the same person (``similar_warnings``)
    warnings: tuple[ValidationProblem, ...] = ()


@dataclass(frozen=True, slots=True)
class PersonCreated:
    pkz: int
    #: records that may be the same person (``similar_warnings``)
    warnings: tuple[ValidationProblem, ...] = ()


def _wanted(values: Mapping[str, Any]) -> Wanted:
    return Wanted(values["surname"] or "", values["given_name"] or "", values["birth_date"], values["birth_year"])


def similar_warnings(
    session: Session, caller: Principal, pkz: int | None, values: Mapping[str, Any]
) -> list[ValidationProblem]:
    """The records (other than ``pkz``) that may be the person ``values`` describe, as warnings."""
    [similar] = similar_records(session, [_wanted(values)], caller, exclude=() if pkz is None else (pkz,))
    warnings = []
    for record in similar:
        if record.same:
            text = Message(
                "player {pkz} ({name}) has the same name and birth date: if it is the same person, merge the records",
                pkz=record.pkz,
                name=record.name,
            )
        else:
            text = Message(
                "player {pkz} ({name}, born {year}) has the same or a similar name and the same birth year: if it "
                "is the same person, merge the records",
                pkz=record.pkz,
                name=record.name,
                year=record.birth_year,
            )
        warnings.append(ValidationProblem("body", text))
    return warnings


def _refuse_duplicate(session: Session, caller: Principal, values: Mapping[str, Any]) -> list[int]:
    """The records of the same name and birth date (a 409 naming the first); none when the
    office insists (``allow_duplicate``): then the numbers it insisted against, for the audit."""
    [similar] = similar_records(session, [_wanted(values)], caller)
    same = [record for record in similar if record.same]
    if same and not values.get("allow_duplicate"):
        raise ConflictError(
            Message(
                "player {pkz} ({name}) has the same name and birth date: correct or merge that record, or send "
                "allow_duplicate to enter a second person of that name and birth date",
                pkz=same[0].pkz,
                name=same[0].name,
            )
        )
    return [record.pkz for record in same]


def person_values(player: Player) -> dict[str, Any]:
    return {name: getattr(player, name) for name in EDITABLE}


def player_for_change(session: Session, pkz: int) -> Player:
    """The person, locked: a submission that learns his birth year meanwhile waits for this change."""
    player = session.execute(select(Player).where(Player.pkz == pkz).with_for_update()).scalar_one_or_none()
    if player is None:
        raise NotFoundError(Message("player {pkz} does not exist", pkz=pkz))
    if player.merged_into is not None:
        raise ConflictError(
            Message("player {pkz} was merged into {survivor}: change that record", pkz=pkz, survivor=player.merged_into)
        )
    return player


def _checked(session: Session, pkz: int | None, values: dict[str, Any]) -> list[ValidationProblem]:
    problems = []
    if not str(values.get("surname") or "").strip():
        problems.append(ValidationProblem("body.surname", Message("a person needs a surname")))
    born, year = values.get("birth_date"), values.get("birth_year")
    if born is not None and year is not None and born.year != year:
        problems.append(
            ValidationProblem(
                "body.birth_year",
                Message(
                    "the birth date {born} says {born_year}, not {year}: correct the date too, or clear it",
                    born=born.isoformat(),
                    born_year=born.year,
                    year=year,
                ),
            )
        )
    if values.get("sex") not in (None, "M", "F", "D"):
        problems.append(ValidationProblem("body.sex", Message("must be M, F or D, got {sex!r}", sex=values["sex"])))
    nation = values.get("nation")
    if nation is not None and not _NATION.fullmatch(nation):
        problem = Message("a FIDE federation code of 3 capitals, got {nation!r}", nation=nation)
        problems.append(ValidationProblem("body.nation", problem))
    if problems:
        return problems
    fide_id = values.get("fide_id")
    if fide_id is not None:
        holder = session.execute(select(Player.pkz).where(Player.fide_id == fide_id, Player.pkz != (pkz or 0))).scalar()
        if holder is not None:
            raise ConflictError(
                Message(
                    "the FIDE id {fide_id} belongs to player {holder}; merge the two records instead",
                    fide_id=fide_id,
                    holder=holder,
                )
            )
    return []


def _with_year_of_date(given: Mapping[str, Any], values: dict[str, Any]) -> None:
    # A birth date given without a year sets the year: the two never disagree in a record.
    born = given.get("birth_date")
    if born is not None and given.get("birth_year") is None:
        values["birth_year"] = born.year


def create_person(session: Session, caller: Principal, given: Mapping[str, Any]) -> PersonCreated:
    """A new person; refused when a record has his name and birth date, unless ``given`` says
    ``allow_duplicate`` (see the module's docstring)."""
    values: dict[str, Any] = {name: given.get(name) for name in EDITABLE}
    values["given_name"] = values["given_name"] or ""
    values["guest"] = bool(values["guest"])
    values["objects_to_publication"] = bool(values["objects_to_publication"])
    _with_year_of_date(given, values)
    problems = _checked(session, None, values)
    if problems:
        raise ValidationError(problems)
    # Two offices entering the same person at once: the second, once it holds the lock, sees the first.
    hold(session, PERSON_NUMBERS)
    insisted = _refuse_duplicate(session, caller, {**values, "allow_duplicate": given.get("allow_duplicate")})
    warnings = similar_warnings(session, caller, None, values)
    fields = {k: v for k, v in values.items() if k != "objects_to_publication"}
    [pkz] = create_players(session, [NewPlayer(**fields)])
    if values["objects_to_publication"]:
        session.execute(update(Player).where(Player.pkz == pkz).values(objects_to_publication=True))
    more = {"allow_duplicate_of": insisted} if insisted else {}
    record_entry(session, caller.token_id, "player.create", f"player {pkz}", before=None, after=values, **more)
    return PersonCreated(pkz, tuple(warnings))


def edit_person(
    session: Session, caller: Principal, pkz: int, given: Mapping[str, Any], *, complaint: int | None = None
) -> PersonEdit:
    """Set the ``given`` fields; an input of evaluations changed marks the person's tournaments stale.
    ``complaint``: the change is made for that complaint (about this person): it is linked to it,
    and the audit entry names it."""
    player = player_for_change(session, pkz)
    before = person_values(player)
    values = {**before, **{k: v for k, v in given.items() if k in EDITABLE}}
    if values["given_name"] is None:
        values["given_name"] = ""
    for flag in ("guest", "objects_to_publication"):
        if values[flag] is None:
            raise ValidationError([ValidationProblem(f"body.{flag}", Message("is true or false, not null"))])
    _with_year_of_date(given, values)
    problems = _checked(session, pkz, values)
    if problems:
        raise ValidationError(problems)
    if values["guest"] and not before["guest"]:
        joined = session.execute(select(Membership.club_code).where(Membership.player_pkz == pkz).limit(1)).scalar()
        if joined is not None:
            # WO 3.4.3: a guest never was a member of a federation club.
            raise ConflictError(
                Message("player {pkz} has a membership in club {club}, so he is never a guest", pkz=pkz, club=joined)
            )
    old, new = changed_values(before, values)
    if not new:
        return PersonEdit(pkz, None, tuple(similar_warnings(session, caller, pkz, values)))
    for name, value in values.items():
        setattr(player, name, value)
    player.search_name = fold_name(f"{player.given_name} {player.surname}".strip())
    session.flush()
    reach = None
    if "birth_year" in new or "guest" in new:
        facts: dict[str, Any] = {}
        if "birth_year" in new:
            facts["birth_year"] = values["birth_year"]
        if "guest" in new:
            facts["member"] = not values["guest"]
        session.execute(
            update(Participation)
            .where(Participation.player_pkz == pkz)
            .values(**facts)
            .execution_options(synchronize_session=False)
        )
        reach = mark_stale(session, [pkz])
    if complaint is not None:
        link_change(session, complaint, caller, kind="record", target=f"player {pkz}", person_pkz=pkz)
    record_entry(
        session,
        caller.token_id,
        "player.edit",
        f"player {pkz}",
        before=old,
        after=new,
        recalculation_from=recalculation_from(reach),
        **({"complaint": complaint} if complaint is not None else {}),
    )
    return PersonEdit(pkz, reach, tuple(similar_warnings(session, caller, pkz, values)))
