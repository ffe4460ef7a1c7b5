"""Finding the players of a submission in the database, and creating the newcomers.

Why: referees know their players by the club's membership number, the person number printed on
the rating list, or the FIDE id; tournament files carry whichever the pairing program had. The
person number is our key, so each participant is resolved to one before a tournament is
stored. Identifications are tried in a fixed order: person number, club code + membership
number (a current membership), FIDE id, then name + birth date. A player found by none is
created from name, birth date, sex and club (a membership is added), under a lock that makes
concurrent creators take turns and look again: one new person is created once. Two players fitting name +
birth date is an ambiguity the referee must resolve: it is reported with the candidates,
never guessed. Flushes, never commits; with ``create=False`` (the preview) nothing is written.

Scopes: matching runs for a caller. A full birth date is non-public, so it only tells apart the
records whose birth date the caller may read (``Principal.sees_private``); any other record is
compared by name and birth year alone, so that whether a tried date fits can never be learned
from the answer (a preview would otherwise be a birth-date oracle). A newcomer is created only
in a club inside the caller's scope.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.common.names import fold_name
from zdb.errors import ValidationProblem
from zdb.federations.models import Club
from zdb.locks import PERSON_NUMBERS, hold
from zdb.messages import Message
from zdb.players.merged import LIVE, survivor_of
from zdb.players.models import Membership, Player
from zdb.players.service import NewPlayer, create_players
from zdb.players.similar import Wanted, current_clubs, similar_records

__all__ = ["MatchOutcome", "PlayerQuery", "match_players"]

_FIRST_BIRTH_YEAR = 1850  # the records' check (players.birth_year)


@dataclass(frozen=True, slots=True)
class PlayerQuery:
    """How a submission names one player; ``place`` is where problems are reported."""

    place: str
    pkz: int | None = None
    club_code: str | None = None
    member_no: int | None = None
    fide_id: int | None = None
    surname: str | None = None
    given_name: str | None = None
    birth_date: date | None = None
    birth_year: int | None = None
    sex: str | None = None
    club: str | None = None
    #: a newcomer the submission describes as a guest (WO 3.4.3: never a member of a club)
    guest: bool = False


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """Per query: the person number (None for a newcomer not created, in a preview), whether it
    was created, and every problem found."""

    pkz: tuple[int | None, ...]
    created: tuple[bool, ...]
    problems: tuple[ValidationProblem, ...]
    warnings: tuple[ValidationProblem, ...] = ()


def _name(surname: str, given_name: str) -> str:
    return f"{given_name} {surname}".strip()


def _by_name(session: Session, query: PlayerQuery, caller: Principal) -> tuple[list[Player], list[Player]]:
    """The records fitting name and birth (date where the caller may read it, else year), and
    among them those whose birth date was not compared because the caller may not read it."""
    assert query.surname is not None
    folded = fold_name(_name(query.surname, query.given_name or ""))
    condition = (Player.search_name == folded) & LIVE
    year = query.birth_date.year if query.birth_date is not None else query.birth_year
    if year is not None:
        # A record whose birth year is unknown fits too: it is the same person more often than
        # a newcomer of the same name (and a duplicate would be rated as unrated).
        condition &= or_(Player.birth_year == year, Player.birth_year.is_(None))
    candidates = list(session.execute(select(Player).where(condition).order_by(Player.pkz)).scalars())
    if query.birth_date is None or not candidates:
        return candidates, []
    clubs = current_clubs(session, [p.pkz for p in candidates])
    fitting, unseen = [], []
    for player in candidates:
        if not caller.sees_private(clubs[player.pkz]):
            # The date is not compared, whether it fits or not: the answer must not depend on it.
            fitting.append(player)
            unseen.append(player)
        elif player.birth_date is None or player.birth_date == query.birth_date:
            fitting.append(player)
    return fitting, unseen


def _find(
    session: Session, query: PlayerQuery, caller: Principal
) -> tuple[int | None, list[ValidationProblem], list[ValidationProblem]]:
    """The person number of an existing player, None for a newcomer; problems; warnings."""
    if query.pkz is not None:
        survivor = survivor_of(session, query.pkz)
        if survivor is None:
            unknown = Message("no player has the person number {pkz}", pkz=query.pkz)
            return None, [ValidationProblem(f"{query.place}.pkz", unknown)], []
        if survivor != query.pkz:
            merged = Message(
                "the person number {pkz} was merged into {survivor}: the player is taken as {survivor}",
                pkz=query.pkz,
                survivor=survivor,
            )
            return survivor, [], [ValidationProblem(f"{query.place}.pkz", merged)]
        return query.pkz, [], []
    if query.club_code is not None and query.member_no is not None:
        found = session.execute(
            select(Membership.player_pkz).where(
                Membership.club_code == query.club_code,
                Membership.member_no == query.member_no,
                Membership.valid_until.is_(None),
            )
        ).scalar()
        # A merge moves the memberships to the survivor and frees the FIDE id, so these find no
        # absorbed record; survivor_of guards the invariant should a record be changed by hand.
        if found is not None:
            return survivor_of(session, found), [], []
    if query.fide_id is not None:
        found = session.execute(select(Player.pkz).where(Player.fide_id == query.fide_id)).scalar()
        if found is not None:
            return survivor_of(session, found), [], []
    if not query.surname:
        return (
            None,
            [
                ValidationProblem(
                    query.place,
                    Message(
                        "the player was not found by the given identification, and no name is given to find or "
                        "create him"
                    ),
                )
            ],
            [],
        )
    candidates, unseen = _by_name(session, query, caller)
    if len(candidates) == 1:
        warnings = []
        if unseen:
            warnings.append(
                ValidationProblem(
                    query.place,
                    Message(
                        "found as {pkz} by name and birth year; his birth date lies outside the token's "
                        "scope and was not compared: if he is someone else, name the player by person number",
                        pkz=candidates[0].pkz,
                    ),
                )
            )
        return candidates[0].pkz, [], warnings
    if len(candidates) > 1:
        listed = "; ".join(f"{p.pkz} {_name(p.surname, p.given_name)} ({p.birth_year or 'born ?'})" for p in candidates)
        return (
            None,
            [
                ValidationProblem(
                    query.place,
                    Message(
                        "ambiguous: {count} players fit {name!r}; name one by pkz: candidates {listed}",
                        count=len(candidates),
                        name=_name(query.surname, query.given_name or ""),
                        listed=listed,
                    ),
                )
            ],
            [],
        )
    return None, [], []


def _newcomer_problems(session: Session, query: PlayerQuery, caller: Principal) -> list[ValidationProblem]:
    """A newcomer is created from what is given (name; birth date and sex where known, as many
    tournament files lack them); a club that does not exist is refused, and so is a club outside
    the caller's scope: a referee makes members of his region's clubs only (a newcomer without
    a club, a guest from elsewhere, he may create)."""
    problems = []
    if query.club is not None and session.get(Club, query.club) is None:
        unknown = Message("no club has the code {code!r}", code=query.club)
        problems.append(ValidationProblem(f"{query.place}.club", unknown))
    elif query.club is not None and not caller.covers(query.club):
        problems.append(
            ValidationProblem(
                f"{query.place}.club",
                Message(
                    "a newcomer cannot be made a member of club {club!r}: it lies outside the token's scope "
                    "{scope!r}; name the player by person number, or leave his club to the rating office",
                    club=query.club,
                    scope=caller.scope,
                ),
            )
        )
    born = query.birth_date.year if query.birth_date is not None else query.birth_year
    if born is not None and not _FIRST_BIRTH_YEAR <= born <= date.today().year:
        problems.append(
            ValidationProblem(
                query.place,
                Message(
                    "a birth year of {born} cannot be a player's (from {first} to this year)",
                    born=born,
                    first=_FIRST_BIRTH_YEAR,
                ),
            )
        )
    return problems


def _similar_warnings(
    session: Session, queries: Sequence[PlayerQuery], newcomers: Sequence[int], caller: Principal
) -> list[ValidationProblem]:
    """A newcomer whose name is near a record's of the same birth (``zdb.players.similar``):
    the referee is told, never refused; he names the player by person number if it is him."""
    wanted = [
        Wanted(q.surname or "", q.given_name or "", q.birth_date, q.birth_year) for q in (queries[k] for k in newcomers)
    ]
    warnings = []
    for k, similar in zip(newcomers, similar_records(session, wanted, caller), strict=True):
        query = queries[k]
        for record in similar:
            warnings.append(
                ValidationProblem(
                    query.place,
                    Message(
                        "no record fits {name!r}, so a new person is entered; but the record {pkz} ({record}, born "
                        "{year}) has a similar name and the same birth year: if it is the same person, name the "
                        "player by that person number",
                        name=_name(query.surname or "", query.given_name or ""),
                        pkz=record.pkz,
                        record=record.name,
                        year=record.birth_year,
                    ),
                )
            )
    return warnings


def _new_player(query: PlayerQuery) -> NewPlayer:
    birth = query.birth_date
    return NewPlayer(
        surname=query.surname or "",
        given_name=query.given_name or "",
        birth_year=query.birth_year if birth is None else birth.year,
        birth_date=birth,
        sex=query.sex,
        fide_id=query.fide_id,
        guest=query.guest,
    )


def match_players(
    session: Session, queries: Sequence[PlayerQuery], *, create: bool, joined: date, caller: Principal
) -> MatchOutcome:
    """Resolve every query for ``caller``; create the newcomers (``create``), their memberships
    from ``joined``.

    Nothing is created when any problem was found: the caller refuses the whole submission.
    """
    found: list[int | None] = []
    problems: list[ValidationProblem] = []
    warnings: list[ValidationProblem] = []
    newcomers: list[int] = []
    holders: dict[tuple[str, int], str] = {}
    for k, query in enumerate(queries):
        pkz, trouble, told = _find(session, query, caller)
        found.append(pkz)
        problems += trouble
        warnings += told
        if pkz is None and not trouble:
            problems += _newcomer_problems(session, query, caller)
            newcomers.append(k)
            if query.club is not None and query.member_no is not None and query.club_code == query.club:
                # One current holder of a membership number per club (the memberships' unique index).
                other = holders.setdefault((query.club, query.member_no), query.place)
                if other != query.place:
                    problems.append(
                        ValidationProblem(
                            query.place,
                            Message(
                                "has the membership number {number} of {other}", number=query.member_no, other=other
                            ),
                        )
                    )
    if newcomers:
        warnings += _similar_warnings(session, queries, newcomers, caller)
    created = [False] * len(queries)
    if problems or not create or not newcomers:
        return MatchOutcome(tuple(found), tuple(created), tuple(problems), tuple(warnings))
    # Concurrent submissions naming the same new person must create him once: creators take
    # turns (the lock is held until the transaction ends), and each looks again for the
    # newcomers once it holds the lock, finding those a submission committed meanwhile.
    hold(session, PERSON_NUMBERS)
    still_new = []
    for k in newcomers:
        pkz, trouble, told = _find(session, queries[k], caller)
        if trouble:
            return MatchOutcome(tuple(found), tuple(created), (*problems, *trouble), tuple(warnings))
        warnings += told
        if pkz is None:
            still_new.append(k)
        else:
            found[k] = pkz
    newcomers = still_new
    if not newcomers:
        return MatchOutcome(tuple(found), tuple(created), tuple(problems), tuple(warnings))
    new = [_new_player(queries[k]) for k in newcomers]
    numbers = create_players(session, new)
    for k, pkz in zip(newcomers, numbers, strict=True):
        found[k] = pkz
        created[k] = True
        club = queries[k].club
        if club is not None:
            member_no = queries[k].member_no if queries[k].club_code == club else None
            session.add(Membership(player_pkz=pkz, club_code=club, member_no=member_no, valid_from=joined))
    session.flush()
    return MatchOutcome(tuple(found), tuple(created), tuple(problems), tuple(warnings))
