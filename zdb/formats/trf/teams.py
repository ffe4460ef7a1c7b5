"""Team records: ``013`` (TRF16), ``310`` / ``320`` / ``330`` (TRF26) and the ``240`` bye record.

Columns (1-based, characters; FIDE TRF26 "Team Section", "Bye Section", "Forfeited Matches"):

* ``013``: 5-36 team name, then start numbers from column 37 in steps of 5 (37-40, 42-45, ...).
* ``310``: 5-7 team number (right-aligned by FIDE, left-aligned by some tools), 9-40 name,
  42-46 nickname, 48-53 strength factor, 55-60 match points, 62-67 game points, 69-71 rank,
  start numbers from column 74 in steps of 5 (74-77, 79-82, ...).
* ``320``: 5-8 match points and 10-13 game points of the pairing-allocated bye, then the team
  given that bye in round 1 at 15-17, round 2 at 19-21, ... (``000`` or blank: none).
* ``330``: 5-6 ``+-`` / ``-+`` / ``--``, 8-10 round, 12-14 white team, 16-18 black team.
* ``240``: 5 ``F``/``H``/``Z``, 7-9 round, then player (or team) ids at 11-14, 16-19, ...

Start-number lists and the short records are read as whitespace-separated numbers, which the
column layout allows and which survives tabs and alignment differences between tools.
"""

from __future__ import annotations

from zdb.formats.trf.model import TrfByeRecord, TrfTeam, TrfTeamBye, TrfTeamForfeit
from zdb.formats.trf.players import is_int
from zdb.formats.trf.problems import Problems
from zdb.messages import Message

__all__ = ["parse_013", "parse_240", "parse_310", "parse_320", "parse_330"]


def _members(text: str, lineno: int, code: str, problems: Problems) -> tuple[int, ...]:
    members: list[int] = []
    for token in text.split():
        if not is_int(token):
            problems.error(lineno, Message("team member {token!r} is not a start number", token=token), field=code)
        elif int(token):
            members.append(int(token))
    return tuple(members)


def _float(text: str, lineno: int, field: str, problems: Problems) -> float | None:
    if not text:
        return None
    try:
        return float(text.replace(",", "."))
    except ValueError:
        problems.warning(lineno, Message("{text!r} is not a number", text=text), field=field)
        return None


def parse_013(line: str, lineno: int, ordinal: int, problems: Problems) -> TrfTeam:
    line = line.replace("\t", " ")
    name = line[4:36].strip()
    if not name:
        problems.warning(lineno, Message("the team has no name"), field="013")
    return TrfTeam(lineno, ordinal, name, _members(line[36:], lineno, "013", problems), "013")


def parse_310(line: str, lineno: int, problems: Problems) -> TrfTeam | None:
    line = line.replace("\t", " ")
    number_text = line[4:7].strip()
    if not is_int(number_text) or not int(number_text):
        problems.error(
            lineno,
            Message("team number {number!r} is not a positive number", number=number_text),
            field="310",
            column=5,
        )
        return None
    name = line[8:40].strip()
    if not name:
        problems.warning(lineno, Message("the team has no name"), field="310")
    rank_text = line[68:71].strip()
    rank = int(rank_text) if is_int(rank_text) else None
    if rank_text and rank is None:
        problems.warning(lineno, Message("team rank {rank!r} is not a number", rank=rank_text), field="310")
    return TrfTeam(
        line=lineno,
        number=int(number_text),
        name=name,
        members=_members(line[72:], lineno, "310", problems),
        source="310",
        nickname=line[41:46].strip() or None,
        strength=_float(line[47:53].strip(), lineno, "310 strength factor", problems),
        match_points=_float(line[54:60].strip(), lineno, "310 match points", problems),
        game_points=_float(line[61:67].strip(), lineno, "310 game points", problems),
        rank=rank,
    )


def parse_320(line: str, lineno: int, problems: Problems) -> list[TrfTeamBye]:
    line = line.replace("\t", " ")
    match_points = _float(line[4:8].strip(), lineno, "320 match points", problems)
    game_points = _float(line[9:13].strip(), lineno, "320 game points", problems)
    byes: list[TrfTeamBye] = []
    for k, start in enumerate(range(14, len(line), 4)):
        text = line[start : start + 3].strip()
        if not text:
            continue
        if not is_int(text):
            problems.warning(
                lineno,
                Message("round {round}: team {text!r} is not a number", round=k + 1, text=text),
                field="320",
                column=start + 1,
            )
        elif int(text):
            byes.append(TrfTeamBye(lineno, k + 1, int(text), match_points, game_points))
    return byes


def parse_330(line: str, lineno: int, problems: Problems) -> TrfTeamForfeit | None:
    tokens = line[4:].split()
    if len(tokens) == 4 and tokens[0] in ("+-", "-+", "--") and all(is_int(t) for t in tokens[1:]):
        return TrfTeamForfeit(lineno, tokens[0], int(tokens[1]), int(tokens[2]), int(tokens[3]))
    problems.error(
        lineno,
        Message("cannot read the forfeited match {text!r} (expected 'TT RRR WWW BBB')", text=line[4:].strip()),
        field="330",
    )
    return None


def parse_240(line: str, lineno: int, problems: Problems) -> TrfByeRecord | None:
    tokens = line[4:].split()
    if len(tokens) >= 3 and tokens[0].upper() in ("F", "H", "Z") and all(is_int(t) for t in tokens[1:]):
        return TrfByeRecord(lineno, tokens[0].upper(), int(tokens[1]), tuple(int(t) for t in tokens[2:]))
    problems.error(
        lineno,
        Message("cannot read the bye record {text!r} (expected 'T RRR PPPP ...')", text=line[4:].strip()),
        field="240",
    )
    return None
