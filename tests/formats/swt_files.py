"""SWT bytes made in test code, from the structure description in shared/ (read at test time).

The builder places every value where ``shared/data/swt/structure`` says (``700/`` for 7.xx, with
``800/`` overriding it for 8.xx), not where the reader's ``layout.py`` says, so the tests of the
reader do not check the reader's offsets against themselves. Record order as ``layout.py``
describes it (round records, player records, team records).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from tests.conftest import SHARED

STRUCTURE = SHARED / "data" / "swt" / "structure"
SAMPLES = SHARED / "data" / "swt" / "samples"


@dataclass(frozen=True)
class Spec:
    start: int
    length: int
    kind: str


def _rows(path: str) -> list[list[str]]:
    text = (STRUCTURE / path).read_text(encoding="latin-1")
    return [line.rstrip("\r").split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#")]


@cache
def fields(directory: str, name: str) -> dict[int, Spec]:
    """Field number -> where and what, from ``<directory>/<name>.csv`` (8.xx falls back on 7.xx)."""
    found: dict[int, Spec] = {} if directory == "700" else dict(fields("700", name))
    if not (STRUCTURE / directory / f"{name}.csv").exists():
        return found
    for row in _rows(f"{directory}/{name}.csv"):
        start, end, kind, number = row[0], row[1].rstrip("+"), row[2], row[3].strip()
        first = int(start, 16)
        found[int(number)] = Spec(first, (int(end, 16) - first + 1) if end else 1, kind)
    return found


@cache
def structure(directory: str) -> dict[str, int]:
    return {row[0]: int(row[1]) for row in _rows(f"{directory}/structure.csv")}


@cache
def selection(number: int) -> dict[int, int]:
    """Code-table value -> byte, from ``700/<number>-selection.csv``."""
    return {int(row[1]): int(row[0], 16) for row in _rows(f"700/{number}-selection.csv")}


@dataclass
class Player:
    name: str
    id: int
    birth: str = ""
    elo: str = ""
    nwz: str = ""
    federation: str = "GER"
    zps_club: str = ""
    zps_member: str = ""
    attribute: str = "m"
    team: int = 0
    board: int = 0
    pkz: str = ""
    fide_id: str = ""
    title: str = ""


@dataclass
class Round:
    """A player's round: colour value (4000: 1 white, 2 black, 3/4 bye), opponent id, result
    value (4002: 1 loss, 2 draw, 3 win), status value (3006: 1 forfeit, 5 adjourned, ...)."""

    colour: int
    opponent: int
    result: int
    status: int = 0


@dataclass
class Tournament:
    version: int
    rounds: int
    players: list[Player]
    games: dict[tuple[int, int], Round] = field(default_factory=dict)  # (player index, round) -> Round
    name: str = "Vereinsmeisterschaft"
    start_date: str = "18.09.2026"
    end_date: str = "20.09.2026"
    time_control: str = "40/90min + 30s/move"


def _put(buffer: bytearray, base: int, spec: Spec, value: int | str) -> None:
    at = base + spec.start
    if isinstance(value, str):
        encoded = value.encode("cp1252")[: spec.length]
        buffer[at : at + spec.length] = encoded.ljust(spec.length, b"\x00")
    else:
        buffer[at : at + spec.length] = value.to_bytes(spec.length, "little")


def build(t: Tournament) -> bytes:
    """An individual tournament's SWT file of version ``t.version`` (700-899)."""
    directory = "800" if t.version >= 800 else "700"
    shape = structure(directory)
    general, player, pairing = (
        fields(directory, "general"),
        fields(directory, "player"),
        fields("700", "individual-pairings"),
    )
    rounds_start = shape["start:fixtures_players"]
    players_start = rounds_start + len(t.players) * t.rounds * shape["length:pairing"]
    data = bytearray(players_start + len(t.players) * shape["length:player"])
    for number, value in ((1, t.rounds), (2, t.rounds), (3, t.rounds), (4, len(t.players)), (9999, t.version)):
        _put(data, 0, general[number], value)
    _put(data, 0, general[185], 998)
    for number, text in ((65, t.name), (70, t.start_date), (71, t.end_date), (72, t.time_control)):
        _put(data, 0, general[number], text)
    for k, p in enumerate(t.players):
        base = players_start + k * shape["length:player"]
        values: dict[int, int | str] = {
            2000: p.name,
            2003: p.elo,
            2004: p.nwz,
            2006: p.federation,
            2008: p.birth,
            2010: p.zps_club,
            2011: p.zps_member,
            2013: p.attribute,
            2016: p.team,
            2017: p.board,
            2021: p.id,
        }
        if p.fide_id:
            values[2033] = p.fide_id
        if p.title:
            values[2002] = p.title
        if p.pkz:
            values[2034 if directory == "800" else 2039] = p.pkz
        for number, value in values.items():
            _put(data, base, player[number], value)
        for r in range(1, t.rounds + 1):
            game = t.games.get((k, r))
            if game is None:
                continue
            at = rounds_start + (k * t.rounds + r - 1) * shape["length:pairing"]
            _put(data, at, pairing[4000], selection(4000)[game.colour])
            _put(data, at, pairing[4001], game.opponent)
            _put(data, at, pairing[4002], game.result)
            _put(data, at, pairing[4005], selection(3006)[game.status])
    return bytes(data)


def two_rounds(version: int) -> Tournament:
    """Four players, two rounds: 1-2 1-0, 3-4 1/2 (round 1); 4-1 0-1, 2-3 forfeit for 2 (round 2)."""
    players = [
        Player("Müller,Anna", 1, "19800517", "2100", "2050", zps_club="C0327", zps_member="123", attribute="w"),
        Player("Schmidt,Dieter", 2, "1975", "", "1900", zps_club="C0327", zps_member="7"),
        Player("Weiß,Jörg", 3, "19900101", nwz="1700", pkz="10012345" if version >= 800 else "12345"),
        Player("Klein,Eva", 4, "", federation="AUT", attribute="W"),
    ]
    games = {
        (0, 1): Round(1, 2, 3),
        (1, 1): Round(2, 1, 1),
        (2, 1): Round(1, 4, 2),
        (3, 1): Round(2, 3, 2),
        (3, 2): Round(1, 1, 1),
        (0, 2): Round(2, 4, 3),
        (1, 2): Round(1, 3, 3, 1),
        (2, 2): Round(2, 2, 1, 1),
    }
    return Tournament(version, 2, players, games)
