"""Where the reader finds each value in an SWT file: offsets, lengths, types and code tables.

Every fact here is from the structure description of SWT-structure-files (fnogatz, commit
f48c90f, LGPL-3; copied to ``shared/data/swt/structure``): ``700/`` describes versions 7.xx,
``800/`` what changed in 8.xx (a field missing there is read as in 7.xx). A ``Field`` names its
source as "<dir>/<file> <field number>"; offsets are 0-based and hexadecimal there, as here.
The German field names are those of ``field-names/de.csv`` (what Swiss-Chess shows a referee).

Types of the structure files: ``int`` one byte; ``inb`` two bytes little-endian; ``in9`` two
bytes little-endian minus the team-id offset of general field 185; ``bib`` two bytes
little-endian (a player id); ``asc`` text padded with NUL; ``boo`` ``00`` false, ``FF`` true;
``sel`` one byte looked up in a code table (``*-selection.csv``); ``dat`` two bytes
little-endian, days since 1899-12-30; ``tim`` hour byte then minute byte.

What the structure files do not state, read from the two sample files of swtparser.js (the only
files described; both are version 8.83): the round records start at ``start:fixtures_players``,
first every player's rounds (player by player in the order of the player records, round 1
first), then every team's rounds; the player records follow them, then the team records. The
player records' count is general field 4, the teams' field 80, the rounds' field 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = [
    "COLOURS",
    "GENERAL",
    "PAIRING",
    "PLAYER_700",
    "PLAYER_800",
    "STATUS",
    "TEAM",
    "TEAM_PAIRING",
    "TEAM_PLACES",
    "TOURNAMENT_MODES",
    "VERSION_OFFSET",
    "Field",
    "Kind",
    "Layout",
    "layout_of",
]


class Kind(Enum):
    """The structure files' value types (see the module docstring)."""

    INT = "int"
    INB = "inb"
    IN9 = "in9"
    BIB = "bib"
    ASC = "asc"
    BOO = "boo"
    SEL = "sel"
    DAT = "dat"
    TIM = "tim"


@dataclass(frozen=True, slots=True)
class Field:
    """One value: field number (structure files), offset in its record, type, length in bytes."""

    number: int
    offset: int
    kind: Kind
    length: int = 1
    name: str = ""  # German name, field-names/de.csv


def _f(number: int, start: int, kind: str, end: int | None = None, name: str = "") -> Field:
    return Field(number, start, Kind(kind), (end - start + 1) if end is not None else 1, name)


#: version number, general data bytes 261-262 (700/general.csv and 800/general.csv, field 9999)
VERSION_OFFSET = 0x261

#: general data (700/general.csv; 800/general.csv adds the round dates 89-168 and 85-88)
GENERAL = {
    "rounds": _f(1, 0x1, "int", name="Anzahl der Runden"),
    "current_round": _f(2, 0x3, "int", name="aktuelle Runde"),
    "paired_rounds": _f(3, 0x5, "int", name="ausgeloste Runden"),
    "players": _f(4, 0x7, "inb", 0x8, name="Teilnehmerzahl"),
    "mode": _f(31, 0x254, "sel", name="Turniermodus"),
    "boards": _f(34, 0x25C, "int", name="Bretter"),
    "team_tournament": _f(35, 0x25E, "boo", name="Mannschaftsturnier"),
    "name": _f(65, 0x316, "asc", 0x33D, name="Turniername"),
    "city": _f(66, 0x33F, "asc", 0x366, name="Ort/Land"),
    "arbiter": _f(67, 0x368, "asc", 0x3A3, name="Schiedsrichter"),
    "deputy_1": _f(68, 0x3A5, "asc", 0x3E0, name="Weitere Schiedsrichter (1/4)"),
    "remark": _f(69, 0x3E2, "asc", 0x41D, name="Bemerkung"),
    "start_date": _f(70, 0x41F, "asc", 0x432, name="Datum Start"),
    "end_date": _f(71, 0x434, "asc", 0x447, name="Datum Ende"),
    "period_1": _f(72, 0x449, "asc", 0x45C, name="1. Periode Züge/Std."),
    "period_2": _f(73, 0x45E, "asc", 0x471, name="2. Periode Züge/Std."),
    "period_3": _f(74, 0x473, "asc", 0x487, name="3. Periode Züge/Std."),
    "teams": _f(80, 0x534, "int", name="Mannschaftszahl"),
    "scoring": _f(81, 0x538, "sel", name="Einzelergebnis-Wertung"),
    "team_id_offset": _f(185, 0x241, "inb", 0x242, name="Offset MNr.-ID"),
    "version": _f(9999, VERSION_OFFSET, "inb", 0x262, name="_FILEVERSION_"),
}
#: 8.xx only (800/general.csv): the other arbiters 2-4, the organiser, and each round's date
#: (fields 89, 91, ... 167 at 2CC1, 2CC5, ... 2D5D: date, then time, 4 bytes per round)
GENERAL_800 = {
    "deputy_2": _f(85, 0x2E47, "asc", 0x2E82, name="Weitere Schiedsrichter (2/4)"),
    "deputy_3": _f(86, 0x2E84, "asc", 0x2EBF, name="Weitere Schiedsrichter (3/4)"),
    "deputy_4": _f(87, 0x2EC1, "asc", 0x2EFC, name="Weitere Schiedsrichter (4/4)"),
    "organiser": _f(88, 0x2E0A, "asc", 0x2E45, name="Turnierorganisator"),
}
ROUND_DATE_800 = _f(89, 0x2CC1, "dat", 0x2CC2, name="1. Runde: Datum")
ROUND_TIME_800 = _f(90, 0x2CC3, "tim", 0x2CC4, name="1. Runde: Uhrzeit")
ROUND_DATE_STEP = 4
ROUND_DATES_MAX = 40  # fields 89-168: rounds 1-40

_PLAYER_COMMON = {
    "name": _f(2000, 0x0, "asc", 0x1F, name="Spielername"),
    "club": _f(2001, 0x21, "asc", 0x40, name="Mannschaft"),
    "title": _f(2002, 0x42, "asc", 0x44, name="FIDE-Titel"),
    "elo": _f(2003, 0x46, "asc", 0x49, name="FIDE-Elo"),
    "nwz": _f(2004, 0x4B, "asc", 0x4E, name="NWZ"),
    "federation": _f(2006, 0x69, "asc", 0x6B, name="Land"),
    "birth": _f(2008, 0x80, "asc", 0x89, name="Geburtsdatum"),
    "zps_club": _f(2010, 0x99, "asc", 0x9D, name="ZPS Vereins-Nr."),
    "attribute": _f(2013, 0xB8, "asc", name="Attribut (*=inaktiv)"),
    "board": _f(2017, 0xCB, "int", name="Brett"),
}
#: player record, 7.xx (700/player.csv; 292 bytes)
PLAYER_700 = {
    **_PLAYER_COMMON,
    "zps_member": _f(2011, 0x9F, "asc", 0xA1, name="ZPS Mitglieds-Nr."),
    "pkz": _f(2039, 0x61, "asc", 0x66, name="letzte fünf Stellen von PKZ"),
    "fide_id": _f(2033, 0x8B, "asc", 0x92, name="FIDE-ID"),
    "team": _f(2016, 0xC9, "int", name="MNr."),
    "id": _f(2021, 0xDB, "int", name="TNr.-ID dez"),
    "rank": _f(2022, 0xDD, "int", name="Platz"),
}
#: player record, 8.xx (800/player.csv; 655 bytes)
PLAYER_800 = {
    **_PLAYER_COMMON,
    "zps_member": _f(2011, 0x9F, "asc", 0xA2, name="ZPS Mitglieds-Nr."),
    "pkz": _f(2034, 0x151, "asc", 0x15C, name="PKZ"),
    "fide_id": _f(2033, 0x144, "asc", 0x14F, name="FIDE-ID"),
    "team": _f(2016, 0xC9, "int", name="MNr."),
    "id": _f(2021, 0xDB, "inb", 0xDC, name="TNr.-ID dez"),
    "rank": _f(2022, 0xDD, "inb", 0xDE, name="Platz"),
}
#: a player's round record (700/individual-pairings.csv; 19 bytes, 7.xx and 8.xx)
PAIRING = {
    "colour": _f(4000, 0x8, "sel", name="Farbe"),
    "opponent": _f(4001, 0x9, "bib", 0xA, name="Gegner"),
    "result": _f(4002, 0xB, "sel", name="Einzelergebnis"),
    "table": _f(4004, 0xD, "inb", 0xE, name="Tisch"),
    "status": _f(4005, 0xF, "sel", name="Status"),
    "board": _f(4006, 0x12, "int", name="Brett"),
}
#: team record (700/team.csv; what lies within the 292 bytes of a 7.xx record)
TEAM = {
    "name": _f(1000, 0x0, "asc", 0x1F, name="Mannschaftsname"),
    "first_player": _f(1015, 0xCF, "inb", 0xD0, name="Beginn Spieler: TNr.-ID - 1"),
    "players": _f(1016, 0xD5, "int", name="Spielerzahl"),
    "id": _f(1018, 0xD9, "in9", 0xDA, name="MNr.-ID"),
    "number": _f(1019, 0xDB, "int", name="MNr."),
    "rank": _f(1020, 0xDD, "int", name="Platz"),
}
#: a team's round record (700/team-pairings.csv; 19 bytes)
TEAM_PAIRING = {
    "place": _f(3001, 0x8, "sel", name="Ort"),
    "opponent": _f(3002, 0x9, "in9", 0xA, name="Gegner"),
    "result": _f(3004, 0xB, "sel", name="Mannschaftsergebnis"),
    "table": _f(3005, 0xD, "int", name="Tisch"),
    "status": _f(3006, 0xF, "sel", name="Status"),
    "board": _f(3008, 0x12, "int", name="Brett"),
}

#: 700/4000-selection.csv (byte -> value) with field-names/de.csv: 1 Weiss, 2 Schwarz,
#: 3 Weiss (spielfrei), 4 Schwarz (spielfrei), 0 not paired
COLOURS = {0x00: 0, 0x01: 1, 0x02: 3, 0x03: 2, 0x04: 4}
#: 700/3006-selection.csv: 1 and 4 kampflos (forfeit), 2 and 3 nicht eingesetzt (not in the
#: line-up), 5 and 6 Haengepartie (adjourned), 0 played
STATUS = {0x00: 0, 0x01: 5, 0x11: 6, 0x02: 1, 0x22: 4, 0x03: 2, 0x33: 3}
#: 700/3001-selection.csv: 1 Heim, 2 Auswaerts, 3 Heim (spielfrei), 4 Auswaerts (spielfrei)
TEAM_PLACES = {0x00: 0, 0x01: 1, 0x02: 3, 0x03: 2, 0x04: 4}
#: general field 31 (700/31-selection.csv is the identity) with field-names/de.csv
TOURNAMENT_MODES = {0: "Schweizer System", 1: "Rundenturnier", 2: "KO-Turnier", 3: "Scheveninger-System"}


@dataclass(frozen=True, slots=True)
class Layout:
    """The record lengths and the start of the round records of one version (``structure.csv``)."""

    major: int  # 7 or 8
    player_length: int
    team_length: int
    pairing_length: int
    rounds_start: int
    player: dict[str, Field]


#: 700/structure.csv and 800/structure.csv
_LAYOUTS = {
    7: Layout(7, 292, 292, 19, 3894, PLAYER_700),
    8: Layout(8, 655, 655, 19, 13384, PLAYER_800),
}


def layout_of(version: int) -> Layout | None:
    """The layout of a file version (700-799: 7.xx, 800-899: 8.xx); None for any other."""
    return _LAYOUTS.get(version // 100) if 700 <= version < 900 else None
