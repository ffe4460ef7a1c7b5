"""From what a referee sends (JSON or a TRF file) to a ``TournamentSubmission`` of person numbers.

Why this layer: both inputs name players the referee's way and carry the tournament's data in
their own shape. Each is turned into one draft (players as ``PlayerQuery``, games by start
number, problems found while reading), then checked as a whole: the rules of
``validation.py`` (spec §3 time control, dates, pairings, kind), the federation, and the
player matching. Every problem, with its field path (``body.players[2].pkz``) or TRF line
(``line 14``), is raised in one ``ValidationError``; newcomers are created only when nothing
else is wrong, so a refused submission writes nothing. ``preview`` evaluates the result with
the engine on the participants' stored states before the end date, writing nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.common.names import fold_name
from zdb.errors import ValidationError, ValidationProblem
from zdb.federations.models import Federation
from zdb.formats.tournament_file import read_tournament_file
from zdb.formats.trf import Severity, TrfDocument, TrfNationalRecord, TrfPlayer, TrfProblem, iter_games
from zdb.lists.epochs import epoch_problems
from zdb.lists.fide_start import fide_start_ratings
from zdb.messages import Message
from zdb.players.matching import PlayerQuery, match_players
from zdb.rating import InvalidInputError, ResultCode
from zdb.submissions.json_reading import JsonTournament
from zdb.submissions.schemas import PlayerIn, TournamentIn
from zdb.tournaments.person_facts import KnownPerson, known_people, learn_birth_years
from zdb.tournaments.service import SubmittedGame, SubmittedPlayer, TournamentSubmission
from zdb.tournaments.validation import check_dates, check_kind, check_pairings, check_time_control

__all__ = ["PREVIEW_ID", "Intake", "TrfMeta", "intake_json", "intake_trf"]

#: the order key's id of a previewed tournament: after every stored one of its date and acronym
PREVIEW_ID = 2**31 - 1


@dataclass(frozen=True, slots=True)
class TrfMeta:
    """What a TRF file does not say (or what overrides it): given as query parameters."""

    acronym: str
    federation: str
    kind: str = "individual"
    youth_u12: bool = False
    name: str | None = None
    start_date: date | None = None
    end_date: date | None = None
    time_control: str | None = None


@dataclass(frozen=True, slots=True)
class Intake:
    """A checked submission: the service's input, and per player (in start-number order) the
    person number (negative: a newcomer a preview did not create), whether it was created, the
    name (the record's; a newcomer's as submitted) and the file's spelling where it differs;
    the warnings to answer with, and the birth years the records learn (person number → year)."""

    submission: TournamentSubmission
    created: tuple[bool, ...]
    names: tuple[str, ...]
    names_in_file: tuple[str | None, ...] = ()
    warnings: tuple[ValidationProblem, ...] = ()
    learned: Mapping[int, int] = field(default_factory=dict)


@dataclass(slots=True)
class _Entry:
    query: PlayerQuery
    name: str
    birth_year: int | None
    member: bool
    fide_rating: int | None
    #: whether the submission said member or guest itself (JSON ``member``); a TRF only implies it
    member_stated: bool = False


@dataclass(slots=True)
class _Draft:
    acronym: str
    federation: str
    kind: str
    youth_u12: bool
    name: str
    start_date: date | None
    end_date: date | None
    round_dates: list[date]
    time_control: str | None
    players: list[_Entry | None]  # None: a JSON player the schema refused
    games: list[tuple[int | None, int | None, int, int, str]]  # round, board, white, black (start numbers), result
    places: dict[str, str]  # field -> where it came from ("body.time_control", "line 7")
    problems: list[ValidationProblem] = field(default_factory=list)
    warnings: list[ValidationProblem] = field(default_factory=list)
    check_pairs: bool = True  # a TRF's pairings were checked by the reader from both sides
    #: the games' numbers in the submission (JSON: a broken game is left out, and numbers keep their place)
    game_numbers: list[int] | None = None
    #: fields whose problem the schema already found: their rules are not checked again
    broken: frozenset[str] = frozenset()


def _json_entry(k: int, p: PlayerIn) -> _Entry:
    query = PlayerQuery(
        place=f"body.players[{k}]",
        pkz=p.pkz,
        club_code=p.club_code,
        member_no=p.member_no,
        fide_id=p.fide_id,
        surname=p.surname,
        given_name=p.given_name,
        birth_date=p.birth_date,
        birth_year=p.birth_year,
        sex=p.sex,
        club=p.club,
        guest=not p.member,
    )
    birth_year = p.birth_year if p.birth_year is not None else (p.birth_date.year if p.birth_date else None)
    name = f"{p.given_name or ''} {p.surname or ''}".strip()
    return _Entry(query, name, birth_year, p.member, p.fide_rating, "member" in p.model_fields_set)


def _from_json(read: JsonTournament) -> _Draft:
    body, broken = read.head, read.broken
    games = [(g.round, g.board, g.white, g.black, g.result) for g in read.games if g is not None]
    return _Draft(
        acronym=body.acronym,
        federation=body.federation,
        kind=body.kind,
        youth_u12=body.youth_u12,
        name=body.name,
        start_date=body.start_date,
        end_date=None if "end_date" in broken else body.end_date,
        round_dates=list(body.round_dates),
        time_control=body.time_control,
        players=[None if p is None else _json_entry(k, p) for k, p in enumerate(read.players)],
        games=games,
        game_numbers=[k for k, g in enumerate(read.games) if g is not None],
        places={name: f"body.{name}" for name in ("acronym", "federation", "kind", "time_control")},
        problems=list(read.problems),
        broken=broken,
    )


#: the reader's field names, so that the pages can show them in their language
_FIELD_NAMES = {
    name.template: name
    for name in (
        Message("birth date"),
        Message("encoding"),
        Message("federation"),
        Message("FIDE id"),
        Message("layout"),
        Message("name"),
        Message("national number"),
        Message("national rating"),
        Message("points"),
        Message("rank"),
        Message("rating"),
        Message("record code"),
        Message("rounds"),
        Message("sex"),
        Message("start number"),
        Message("title"),
    )
}
_ROUND_FIELD = re.compile(r"(?:(\d{3}) )?round (\d+)")


def _field_label(field: str) -> Message | str:
    """A reader's field ("round 3", "birth date", "042", ...) as a text the pages can translate."""
    match = _ROUND_FIELD.fullmatch(field)
    if match is None:
        return _FIELD_NAMES.get(field, field)
    code, round_no = match.groups()
    if code is None:
        return Message("round {round}", round=int(round_no))
    return Message("{code} round {round}", code=code, round=int(round_no))


def _trf_problem(problem: TrfProblem) -> ValidationProblem:
    place = problem.place  # "line 14"; an SWT has no lines: "player 7"
    text: Message | str = problem.text or problem.message
    if problem.field:
        text = Message("{field}: {message}", field=_field_label(problem.field), message=text)
    if problem.column:
        text = Message("column {column}, {message}", column=problem.column, message=text)
    return ValidationProblem(place, text)


def _split_name(name: str) -> tuple[str, str]:
    """TRF names are "Surname, Given name"."""
    surname, _, given = name.partition(",")
    return surname.strip(), given.strip()


def _german(player: TrfPlayer) -> TrfNationalRecord | None:
    return next((n for n in player.national if n.federation == "GER"), None)


def _trf_entry(player: TrfPlayer) -> _Entry:
    ger = _german(player)
    surname, given = _split_name(player.name or (ger.name if ger else ""))
    sex = {"m": "M", "w": "F", "f": "F"}.get((player.sex or (ger.sex if ger else None) or "").lower())
    member_no = ger.member_no if ger and ger.member_no and ger.member_no.isdigit() else None
    person_no = ger.person_no if ger and ger.person_no and ger.person_no.isdigit() else None
    birth_date = player.birth_date or (ger.birth_date if ger else None)
    birth_year = player.birth_year or (ger.birth_year if ger else None)
    club = ger.club_code if ger else None
    # A player of another federation without a German line is a guest (WO 3.4.3: not a member).
    # This describes only a person the database does not know: a known one's is his record's.
    member = ger is not None or player.federation in (None, "", "GER")
    query = PlayerQuery(
        place=player.place,
        pkz=None if person_no is None else int(person_no),
        club_code=club,
        member_no=None if member_no is None else int(member_no),
        fide_id=player.fide_id,
        surname=surname or None,
        given_name=given,
        birth_date=birth_date,
        birth_year=birth_year,
        sex=sex,
        club=club,
        guest=not member,
    )
    return _Entry(query, f"{given} {surname}".strip(), birth_year, member, player.rating)


def _from_trf(document: TrfDocument, meta: TrfMeta) -> _Draft:
    players = sorted(document.players, key=lambda p: p.start_no)
    position = {p.start_no: k + 1 for k, p in enumerate(players)}
    games: list[tuple[int | None, int | None, int, int, str]] = []
    for game in iter_games(document):
        if game.result is ResultCode.DRAW and not game.rated:
            continue  # spec §3: a draw before move 1 (D/D) is not rated; the engine has no unrated draw code
        games.append((game.round, None, position[game.white], position[game.black], game.result.value))
    round_dates = list(document.round_dates)
    return _Draft(
        acronym=meta.acronym,
        federation=meta.federation,
        kind=meta.kind,
        youth_u12=meta.youth_u12,
        name=meta.name if meta.name is not None else (document.name or ""),
        start_date=meta.start_date or document.start_date,
        end_date=meta.end_date or document.end_date,
        round_dates=[d for d in round_dates if d is not None] if all(round_dates) else [],
        time_control=meta.time_control or document.time_control,
        players=[_trf_entry(p) for p in players],
        games=games,
        places={
            "acronym": "query.acronym",
            "federation": "query.federation",
            "kind": "query.kind",
            "time_control": "query.time_control" if meta.time_control else "record 122 (time control)",
            "end_date": "query.end_date" if meta.end_date else "record 052 (end date)",
        },
        problems=[_trf_problem(p) for p in (*document.errors, *document.warnings) if _refuses(p)],
        warnings=[_trf_problem(p) for p in document.warnings if not _refuses(p)],
        check_pairs=False,
        broken=_unread_records(document, meta),
    )


def _unread_records(document: TrfDocument, meta: TrfMeta) -> frozenset[str]:
    """The fields a file refused as a whole (cut off, of another Swiss-Chess version, no
    tournament file at all) would have given: its error is the answer, and the records it could
    not give are no further problems (a cut SWT is not also "lacking record 052")."""
    if document.players or document.header or not document.errors:
        return frozenset()
    unread = {"start_date", "round_dates"}
    if not meta.end_date:
        unread.add("end_date")
    if not meta.time_control:
        unread.add("time_control")
    return frozenset(unread)


def _refuses(problem: TrfProblem) -> bool:
    """The reader's errors, and a national number that names nobody: the reader (which also
    serves the standings) passes over it, but a submission would match the player by name
    alone and may take another person's record."""
    return problem.severity is Severity.ERROR or problem.field == "national number"


def _check(session: Session, draft: _Draft) -> list[ValidationProblem]:
    """Everything but the player matching; a field the schema refused is not checked again."""
    places, broken = draft.places, draft.broken
    problems = list(draft.problems)
    if "acronym" not in broken and len(draft.acronym) != 3:
        problems.append(
            ValidationProblem(
                places["acronym"], Message("must have 3 characters, got {acronym!r}", acronym=draft.acronym)
            )
        )
    if "federation" not in broken and session.get(Federation, draft.federation) is None:
        problems.append(
            ValidationProblem(
                places["federation"], Message("no federation has the prefix {prefix!r}", prefix=draft.federation)
            )
        )
    if "kind" not in broken:
        problems += [ValidationProblem(places["kind"], p.text) for p in check_kind(draft.kind)]
    if not broken & {"time_control", "youth_u12"}:
        problems += check_time_control(draft.time_control, youth_u12=draft.youth_u12, place=places["time_control"])
    if draft.end_date is None:
        if "end_date" not in broken:
            problems.append(ValidationProblem(places.get("end_date", "end_date"), Message("the end date is required")))
    elif not broken & {"start_date", "round_dates"}:
        rounds = max((g[0] or 0 for g in draft.games), default=0)
        prefix = "body." if draft.check_pairs else ""
        problems += [
            ValidationProblem(prefix + p.place, p.text)
            for p in check_dates(draft.start_date, draft.end_date, draft.round_dates, rounds=rounds, today=date.today())
        ]
    if draft.check_pairs and draft.players:
        problems += check_pairings(
            len(draft.players),
            [(g[0], g[2], g[3], g[4]) for g in draft.games],
            place="body.games",
            numbers=draft.game_numbers,
        )
    return problems


def _finish(
    session: Session, draft: _Draft, *, create: bool, tournament_id: int | None, caller: Principal, learn: bool = True
) -> Intake:
    problems = _check(session, draft)
    joined = draft.end_date or date.today()
    entries = [e for e in draft.players if e is not None]
    matched = match_players(
        session, [e.query for e in entries], create=create and not problems, joined=joined, caller=caller
    )
    problems += matched.problems
    outcome = iter(zip(matched.pkz, matched.created, strict=True))
    found = [(None, False) if e is None else next(outcome) for e in draft.players]
    created = tuple(new for _, new in found)
    numbers: list[int] = []
    first: dict[int, str] = {}
    for k, (entry, (pkz, _)) in enumerate(zip(draft.players, found, strict=True)):
        if entry is None or pkz is None:
            numbers.append(-(k + 1))  # a newcomer not created (preview, or a refused submission)
            continue
        if pkz in first:
            problems.append(
                ValidationProblem(
                    entry.query.place, Message("is the same player ({pkz}) as {other}", pkz=pkz, other=first[pkz])
                )
            )
        first.setdefault(pkz, entry.query.place)
        numbers.append(pkz)
    known = known_people(session, [n for n, new in zip(numbers, created, strict=True) if n > 0 and not new])
    facts = [
        _facts(entry, known.get(pkz)) if entry is not None else None
        for entry, pkz in zip(draft.players, numbers, strict=True)
    ]
    warnings = [*draft.warnings, *matched.warnings, *(w for f in facts if f is not None for w in f.warnings)]
    if draft.end_date is not None:
        listed = [
            (e.query.place, pkz)
            for e, pkz, new in zip(draft.players, numbers, created, strict=True)
            if e and pkz > 0 and not new
        ]
        problems += epoch_problems(session, draft.end_date, listed)
    if problems:
        raise ValidationError(problems, warnings)
    # Without problems every player was read and matched.
    people = [(pkz, f, e) for pkz, f, e in zip(numbers, facts, draft.players, strict=True) if f and e]
    assert len(people) == len(numbers)
    assert draft.end_date is not None
    learned = {pkz: f.birth_year for pkz, f, _ in people if f.learned and f.birth_year}
    fide_ratings, fide_notes = fide_start_ratings(
        session,
        [(e.query.place, pkz, e.query.fide_id) for pkz, _, e in people if e.fide_rating is None],
        start=draft.start_date or draft.end_date,
        key=(draft.end_date, 1, draft.acronym, tournament_id or PREVIEW_ID),
        skip_tournament=tournament_id,
    )
    warnings += fide_notes
    if create and learn:  # a submission waiting in review learns them when it is approved
        learn_birth_years(session, learned)
    submission = TournamentSubmission(
        acronym=draft.acronym,
        end_date=draft.end_date,
        name=draft.name,
        start_date=draft.start_date,
        round_dates=tuple(draft.round_dates),
        time_control=draft.time_control,
        kind=draft.kind,
        federation_prefix=draft.federation,
        tournament_id=tournament_id,
        players=tuple(
            SubmittedPlayer(pkz, f.birth_year, f.member, e.fide_rating or fide_ratings.get(pkz)) for pkz, f, e in people
        ),
        games=tuple(
            SubmittedGame(numbers[w - 1], numbers[b - 1], result, round_no, board)
            for round_no, board, w, b, result in draft.games
        ),
    )
    try:
        submission.engine_view(tournament_id or PREVIEW_ID)
    except InvalidInputError as error:  # pragma: no cover - the checks above catch these first
        raise ValidationError([ValidationProblem(error.place, error.problem)], warnings) from None
    return Intake(
        submission,
        created,
        tuple(f.name for _, f, _ in people),
        tuple(f.name_in_file for _, f, _ in people),
        tuple(warnings),
        learned,
    )


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the evaluation takes of one participant, and what the referee is told about it."""

    name: str
    name_in_file: str | None
    birth_year: int | None
    member: bool
    learned: bool = False  # the record learns this birth year
    warnings: tuple[ValidationProblem, ...] = ()


def _facts(entry: _Entry, person: KnownPerson | None) -> _Facts:
    """A known person's facts are his record's (spec §13.16, WO 3.4.3); the file's values only
    fill what the record lacks, and a contradiction is a warning, never a change."""
    if person is None:  # a newcomer: the file is all there is
        return _Facts(entry.name, None, entry.birth_year, entry.member)
    place, warnings = entry.query.place, []
    year, learned = person.birth_year, False
    if year is None and entry.birth_year is not None and not 1850 <= entry.birth_year <= date.today().year:
        warnings.append(
            ValidationProblem(
                place, Message("{year} cannot be a birth year: the record keeps none", year=entry.birth_year)
            )
        )
    elif year is None and entry.birth_year is not None:
        year, learned = entry.birth_year, True
        warnings.append(
            ValidationProblem(
                place,
                Message(
                    "the record of {pkz} learns the birth year {year} from this file; his earlier evaluations are "
                    "redone with it",
                    pkz=person.pkz,
                    year=entry.birth_year,
                ),
            )
        )
    elif year is not None and entry.birth_year is not None and entry.birth_year != year:
        warnings.append(
            ValidationProblem(
                place,
                Message(
                    "the file gives the birth year {given}, the record of {pkz} holds {year}: the record's is used "
                    "(the rating office corrects records)",
                    given=entry.birth_year,
                    pkz=person.pkz,
                    year=year,
                ),
            )
        )
    member = not person.guest
    if entry.member_stated and entry.member != member:
        warnings.append(
            ValidationProblem(
                place,
                Message(
                    "the submission says {said}, the record of {pkz} says {record}: the record's is used",
                    said=Message("member") if entry.member else Message("guest"),
                    pkz=person.pkz,
                    record=Message("member") if member else Message("guest"),
                ),
            )
        )
    in_file = entry.name if entry.name and fold_name(entry.name) != fold_name(person.name) else None
    return _Facts(person.name, in_file, year, member, learned, tuple(warnings))


def intake_json(
    session: Session,
    body: TournamentIn | JsonTournament,
    *,
    create: bool,
    caller: Principal,
    tournament_id: int | None = None,
    learn: bool = True,
) -> Intake:
    """A JSON submission, checked and matched for ``caller`` (newcomers created when
    ``create``); read by ``read_tournament_json``, its schema's problems and the rules' are
    answered together."""
    read = body if isinstance(body, JsonTournament) else JsonTournament(body, list(body.players), list(body.games))
    return _finish(session, _from_json(read), create=create, tournament_id=tournament_id, caller=caller, learn=learn)


def intake_trf(
    session: Session,
    data: bytes,
    meta: TrfMeta,
    *,
    create: bool,
    caller: Principal,
    tournament_id: int | None = None,
    learn: bool = True,
) -> Intake:
    """A TRF file read by ``zdb.formats.trf``: its errors (with line numbers) and ours in one list."""
    draft = _from_trf(read_tournament_file(data), meta)
    return _finish(session, draft, create=create, tournament_id=tournament_id, caller=caller, learn=learn)
