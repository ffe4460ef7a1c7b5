"""An ``SwtFile`` as the ``TrfDocument`` the intake and the standings read, with its own checks.

Why one document for both formats: a Swiss-Chess tournament then takes exactly the way of a
TRF file (the same validation, player matching, preview and standings). An SWT has no lines:
players get ``line`` 0 and ``record`` "player 7"; problems name the record and the Swiss-Chess
field ("player 7", field "Geburtsdatum").

Mapping (values of ``layout.py``'s code tables):

* start number: the player's TNr.-ID (2021), which the round records name as opponent;
* round cell: colour 1 ``w``, 2 ``b``; result (4002, low two bits) 3 ``1``, 2 ``=``, 1 ``0``,
  0 none; with status kampflos (forfeit) ``+`` / ``-`` (a forfeited draw ``D``, not rated);
  adjourned games have no result; a player not in the line-up (nicht eingesetzt) is not paired;
* "spielfrei" (colour 3 or 4, no opponent): a bye by its points, 1 ``U`` (pairing-allocated),
  1/2 ``H``, 0 ``Z``;
* NWZ (2004), ZPS club (2010) and membership number (2011) and, in 8.xx, the PKZ (2034) make the
  ``GER`` national record the intake matches by (7.xx keeps only five digits of the PKZ: unused);
* Attribut (2013) ``m``/``w`` (as the samples write it, either case) is the sex;
* teams (team tournaments): each team with its players by board (2016 MNr., 2017 Brett).

Checks (errors, as the TRF reader's): every opponent exists and names the player back in the
same round, colours differ, results fit together; the birth date is a date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType

from zdb.formats.swt.layout import TOURNAMENT_MODES
from zdb.formats.swt.model import SwtFile, SwtGeneral, SwtPairing, SwtPlayer, SwtTeam
from zdb.formats.swt.reader import GENERAL_RECORD, version_text
from zdb.formats.swt.values import TEXT_ENCODING
from zdb.formats.trf.controls import control_character
from zdb.formats.trf.dates import IMPLAUSIBLE_BIRTH, PLAUSIBLE_YEARS, parse_birth
from zdb.formats.trf.games import ASYMMETRIC, RESULT_PAIRS
from zdb.formats.trf.model import Severity, TrfDocument, TrfNationalRecord, TrfPlayer, TrfRoundCell, TrfTeam
from zdb.formats.trf.problems import Problems
from zdb.messages import Message

__all__ = ["swt_document"]

_RESULTS = {3: "1", 2: "=", 1: "0"}
_FORFEITS = {3: "+", 2: "D", 1: "-"}
_BYES = {3: "U", 2: "H", 1: "Z", 0: "Z"}
_COLOURS = {1: "w", 2: "b"}
_FORFEIT, _NOT_PLAYING, _ADJOURNED = frozenset({1, 4}), frozenset({2, 3}), frozenset({5, 6})
_SEX = {"m": "m", "w": "w", "f": "w"}
_TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}
_DIGITS = re.compile(r"[0-9]{1,9}")
_DAY = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})|([0-9]{4})-([0-9]{2})-([0-9]{2})")
#: a period as Swiss-Chess samples write it: "40/90min + 30s/move", "Rest/30min+30s/move"
_PERIOD = re.compile(r"(?:([0-9]+)|rest)\s*/\s*([0-9]+)\s*min\s*(?:\+\s*([0-9]+)\s*s\S*)?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Cell:
    opponent: int | None
    colour: str | None
    result: str | None


def _number(value: str) -> int | None:
    return int(value) or None if _DIGITS.fullmatch(value) else None


def _day(text: str) -> date | None:
    match = _DAY.fullmatch(text.strip())
    if match is None:
        return None
    groups = match.groups()
    day, month, year = (groups[0], groups[1], groups[2]) if groups[0] else (groups[5], groups[4], groups[3])
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None


def time_control(periods: tuple[str, ...]) -> str | None:
    """The periods (72-74) in PGN notation when each is read ("40/5400+30:1800+30"), else as written."""
    pgn = []
    for period in periods:
        match = _PERIOD.fullmatch(period.strip())
        if match is None:
            return ", ".join(periods) or None
        moves, minutes, increment = match.groups()
        pgn.append(f"{moves + '/' if moves else ''}{int(minutes) * 60}{'+' + increment if increment else ''}")
    return ":".join(pgn) or None


def _cell(pairing: SwtPairing | None) -> _Cell:
    if pairing is None or pairing.status in _NOT_PLAYING:
        return _Cell(None, None, None)
    points = pairing.result & 3
    if pairing.opponent == 0:
        return _Cell(None, "-", _BYES[points])
    colour = _COLOURS.get(pairing.colour)
    if pairing.status in _ADJOURNED or points == 0:
        return _Cell(pairing.opponent, colour, None)
    table = _FORFEITS if pairing.status in _FORFEIT else _RESULTS
    return _Cell(pairing.opponent, colour, table[points])


class _Converter:
    def __init__(self, swt: SwtFile, general: SwtGeneral, problems: Problems) -> None:
        self.swt, self.general, self.problems = swt, general, problems
        self.players: dict[int, SwtPlayer] = {}
        for player in swt.players:
            if player.id == 0 or player.id in self.players:
                problems.error(
                    None,
                    Message("the player id {id} is not a positive number used once", id=player.id),
                    field="TNr.-ID",
                    record=f"player record {player.index + 1}",
                )
                continue
            self.players[player.id] = player
        self.cells: dict[tuple[int, int], _Cell] = {}
        self.by_round: dict[tuple[int, int], SwtPairing] = {}
        for pairing in swt.pairings:
            owner = swt.players[pairing.player]
            if self.players.get(owner.id) is owner:
                self.by_round[(owner.id, pairing.round)] = pairing
                self.cells[(owner.id, pairing.round)] = _cell(pairing)

    def check_rounds(self) -> None:
        for (player_id, round_no), cell in sorted(self.cells.items()):
            pairing = self.by_round[(player_id, round_no)]
            record, where = f"player {player_id}", f"round {round_no}"
            if pairing.status in _ADJOURNED:
                self.problems.warning(
                    None, Message("the game is adjourned: it has no result"), field=where, record=record
                )
            if cell.opponent is None:
                continue
            other = self.cells.get((cell.opponent, round_no))
            if cell.opponent not in self.players:
                self.problems.error(
                    None,
                    Message("opponent {opponent} does not exist", opponent=cell.opponent),
                    field=where,
                    record=record,
                )
            elif other is None or other.opponent != player_id:
                self.problems.error(
                    None,
                    Message("opponent {opponent} is not paired with this player in that round", opponent=cell.opponent),
                    field=where,
                    record=record,
                )
            elif player_id < cell.opponent:
                self._check_game(round_no, cell, other, record)

    def _check_game(self, round_no: int, cell: _Cell, other: _Cell, record: str) -> None:
        """One game, once (from the lower id): colours differ, the two results make one game's."""
        where = f"round {round_no}"
        if cell.colour is not None and cell.colour == other.colour:
            self.problems.error(
                None,
                Message("both players of the game have the same colour"),
                field=where,
                record=record,
            )
            return
        if cell.result is None or other.result is None:
            if round_no <= self.general.paired_rounds:
                self.problems.warning(None, Message("the game has no result"), field=where, record=record)
            return
        white_first = cell.colour == "w" or other.colour == "b" or (cell.colour is None and other.colour is None)
        codes = (cell.result, other.result) if white_first else (other.result, cell.result)
        if codes not in RESULT_PAIRS:
            self.problems.error(
                None,
                Message("the results {mine} and {theirs} do not fit together", mine=cell.result, theirs=other.result),
                field=where,
                record=record,
            )
        elif codes in ASYMMETRIC:
            self.problems.warning(
                None,
                Message(
                    "the results {mine} and {theirs} are not those of one game", mine=cell.result, theirs=other.result
                ),
                field=where,
                record=record,
            )

    def player(self, swt: SwtPlayer, rounds: int) -> TrfPlayer:
        record = f"player {swt.id}"
        birth_text = (
            f"{swt.birth[:4]}/{swt.birth[4:6]}/{swt.birth[6:]}"
            if _DIGITS.fullmatch(swt.birth) and len(swt.birth) == 8
            else swt.birth
        )
        birth_year, birth_date, birth_error = parse_birth(birth_text)
        if birth_error is not None:
            report = self.problems.warning if birth_error.template == IMPLAUSIBLE_BIRTH else self.problems.error
            report(None, birth_error, field="Geburtsdatum", record=record)
        for value, name in ((swt.elo, "FIDE-Elo"), (swt.nwz, "NWZ")):
            if value and _number(value) is None and value.strip("0"):
                self.problems.warning(
                    None, Message("rating {text!r} is not a number; ignored", text=value), field=name, record=record
                )
        if not swt.name:
            self.problems.warning(None, Message("the player has no name"), field="Spielername", record=record)
        control = control_character(swt.name)
        if control is not None:  # ESC and its kind: a damaged file (the name ends at a NUL, as Swiss-Chess writes it)
            self.problems.error(None, control[1], field="Spielername", record=record)
        sex = _SEX.get(swt.attribute.lower())
        title = swt.title.upper() if swt.title.upper() in _TITLES else (swt.title or None)
        cells = []
        for round_no in range(1, rounds + 1):
            cell = self.cells.get((swt.id, round_no), _Cell(None, None, None))
            written = (
                ""
                if cell.colour is None and cell.result is None and cell.opponent is None
                else (f"{cell.opponent or 0:4d} {cell.colour or ' '} {cell.result or ' '}")
            )
            cells.append(TrfRoundCell(round_no, cell.opponent, cell.colour, cell.result, 0, written.rstrip()))
        national: tuple[TrfNationalRecord, ...] = ()
        pkz = swt.pkz if self.general.version >= 800 and _number(swt.pkz) else None
        if swt.zps_club or swt.zps_member or pkz or _number(swt.nwz):
            national = (
                TrfNationalRecord(
                    line=0,
                    federation="GER",
                    start_no=swt.id,
                    sex=sex,
                    classification=None,
                    name=swt.name,
                    rating=_number(swt.nwz),
                    origin=None,
                    national_id=pkz or _national_id(swt),
                    birth_text=birth_text,
                    birth_year=birth_year,
                    birth_date=birth_date,
                    club_code=swt.zps_club or None,
                    member_no=swt.zps_member or None,
                    person_no=pkz,
                ),
            )
        return TrfPlayer(
            line=0,
            start_no=swt.id,
            sex=sex,
            title=title,
            name=swt.name,
            rating=_number(swt.elo),
            federation=swt.federation or None,
            fide_id=_number(swt.fide_id),
            birth_text=birth_text,
            birth_year=birth_year,
            birth_date=birth_date,
            points=None,
            rank=swt.rank or None,
            cells=tuple(cells),
            national=national,
            record=record,
        )

    def teams(self) -> tuple[TrfTeam, ...]:
        teams: list[TrfTeam] = []
        for team in self.swt.teams:
            members = sorted((p for p in self.players.values() if p.team == team.number), key=lambda p: (p.board, p.id))
            teams.append(_team(team, tuple(p.id for p in members)))
        return tuple(teams)

    def dates(self) -> tuple[date | None, date | None]:
        found = []
        for text, name in ((self.general.start_date, "Datum Start"), (self.general.end_date, "Datum Ende")):
            value = _day(text)
            if value is not None and not PLAUSIBLE_YEARS[0] <= value.year <= PLAUSIBLE_YEARS[1]:
                self.problems.error(
                    None,
                    Message(
                        "{text!r} is not a plausible date: a tournament's dates lie between {first} and {last}",
                        text=text,
                        first=PLAUSIBLE_YEARS[0],
                        last=PLAUSIBLE_YEARS[1],
                    ),
                    field=name,
                    record=GENERAL_RECORD,
                )
                value = None
            elif text and value is None:
                self.problems.warning(
                    None,
                    Message("{text!r} is not a date (DD.MM.YYYY); ignored", text=text),
                    field=name,
                    record=GENERAL_RECORD,
                )
            found.append(value)
        return found[0], found[1]


def _team(team: SwtTeam, members: tuple[int, ...]) -> TrfTeam:
    return TrfTeam(
        line=0,
        number=team.number or team.index + 1,
        name=team.name,
        members=members,
        source="SWT",
        rank=team.rank or None,
    )


def swt_document(swt: SwtFile) -> TrfDocument:
    """The document of a read SWT file: its data as far as it goes, its problems and those found here."""
    problems = Problems()
    for problem in swt.problems:
        (problems.error if problem.severity is Severity.ERROR else problems.warning)(
            problem.line, problem.text or Message(problem.message), field=problem.field, record=problem.record
        )
    general = swt.general
    if general is None or not swt.players:
        return TrfDocument(encoding=None, line_endings="none", problems=problems.result(), file_format="SWT")
    converter = _Converter(swt, general, problems)
    converter.check_rounds()
    used = [round_no for (_, round_no), cell in converter.cells.items() if cell != _Cell(None, None, None)]
    rounds = max(used, default=0)
    players = tuple(converter.player(p, rounds) for p in sorted(converter.players.values(), key=lambda p: p.id))
    start, end = converter.dates()
    round_dates = general.round_dates[:rounds]
    if end is None and round_dates and round_dates[-1] is not None:
        end = round_dates[-1]
    header = {"SWT": (version_text(general.version),)}
    return TrfDocument(
        encoding=TEXT_ENCODING,
        line_endings="none",
        header=MappingProxyType(header),
        name=general.name or None,
        city=general.city or None,
        start_date=start,
        end_date=end,
        end_date_source="SWT" if end is not None else None,
        round_dates=round_dates,
        declared_rounds=general.rounds,
        rounds=rounds,
        chief_arbiter=general.arbiter or None,
        deputy_arbiters=general.deputies,
        time_control=time_control(general.periods),
        tournament_type=TOURNAMENT_MODES.get(general.mode),
        players=players,
        teams=converter.teams(),
        problems=problems.result(),
        file_format="SWT",
    )


def _national_id(swt: SwtPlayer) -> str | None:
    """ZPS club and membership number as the TRF's GER lines write them ("C0327-123")."""
    if swt.zps_club and swt.zps_member:
        return f"{swt.zps_club}-{swt.zps_member}"
    return swt.zps_club or None
