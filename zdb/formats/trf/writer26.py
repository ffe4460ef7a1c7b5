"""The records TRF-2026 adds to TRF16, as ``writer.write_trf(doc, "trf26")`` writes them.

Layout (FIDE TRF26, "Tournament Report File Format Version 2026", approved by the FIDE Council on
12/05/2025, applied from 01/09/2025; transcribed in echecsjs/trf ``SPEC.md``; columns 1-based):

* header records after ``132``: ``142`` rounds, ``152`` initial colour, ``162`` scoring points
  (only where they differ from the defaults), ``172`` starting rank method (with NRS lines),
  ``182`` pairing controller, ``192`` encoded tournament type, ``202``/``212`` tie-breaks,
  ``222`` encoded time control, ``352`` board colours and ``362`` team scoring. Each is written
  where the document holds it (``TrfDocument.header``, ``time_control_code``, the rounds);
  ``142`` always, as the larger of the announced and the played rounds, so that an unfinished
  tournament reads back as unfinished (TRF26 has no need of JaVaFo's ``XXR``);
* National Rating Support lines (the ``001`` static part behind a federation code: 11-13
  classification, 49-52 national rating, 54-56 origin, 58-68 national number), after the
  player lines;
* ``240`` the bye section: 5 ``F``/``H``/``Z``, 7-9 round, player ids at 11-14, 16-19, ...
  (the cells keep their own codes ``0000 - H`` and so on: the spec's bye section lists the
  byes, the player section still carries every round);
* the other TRF26 records the reader keeps as written (``250``, ``260``, ``299``, ``300``,
  ``801``, ``802``), as written;
* ``310`` teams instead of TRF16's ``013`` (which TRF26 phases out): 5-7 number, 9-40 name,
  42-46 nickname, 48-53 strength factor, 55-60 match points, 62-67 game points, 69-71 rank,
  members from column 74, five columns each; ``320`` the teams' pairing-allocated byes (one
  line per match and game points, a team number per round at 15-17, 19-21, ..., ``000`` for
  none); ``330`` forfeited matches (5-6 type, 8-10 round, 12-14 white, 16-18 black team).
"""

from __future__ import annotations

from zdb.formats.trf.codes import KEPT_CODES
from zdb.formats.trf.columns import fit, number, points, static_part
from zdb.formats.trf.model import TrfDocument, TrfNationalRecord, TrfTeam

__all__ = ["header_26", "national_lines", "records_26"]

#: the TRF26 header records after 132 that are written as the document holds them, in order
_PLAIN = ("152", "162", "172", "182", "192", "202", "212")
_TEAM = ("352", "362")


def _value(doc: TrfDocument, code: str) -> str | None:
    values = doc.header.get(code, ())
    return values[0] if values and values[0] else None


def header_26(doc: TrfDocument) -> list[str]:
    """``142`` to ``362``."""
    lines = []
    rounds = max(doc.declared_rounds or 0, doc.rounds)
    if rounds:
        lines.append(f"142 {rounds}")
    for code in _PLAIN:
        value = _value(doc, code)
        if value is not None:
            # 162: the first result code stands in column 6
            lines.append(f"{code}  {value}" if code == "162" else f"{code} {value}")
    if doc.time_control_code:
        lines.append(f"222 {doc.time_control_code}")
    lines += [f"{code} {value}" for code in _TEAM if (value := _value(doc, code)) is not None]
    return lines


def _national(record: TrfNationalRecord) -> str:
    return static_part(
        record.federation,
        record.start_no,
        sex=record.sex,
        title=record.classification,
        name=record.name,
        rating=record.rating,
        origin=record.origin,
        identifier=record.national_id or "",
        birth=record.birth_text,
    )


def national_lines(doc: TrfDocument) -> list[str]:
    return [_national(record) for record in doc.national_records]


def _team(team: TrfTeam) -> str:
    strength = None if team.strength is None else f"{team.strength:g}"
    return (
        "310 "
        + number(team.number, 3)
        + " "
        + fit(team.name, 32)
        + " "
        + fit(team.nickname, 5)
        + " "
        + fit(strength, 6, right=True)
        + " "
        + points(team.match_points, 6)
        + " "
        + points(team.game_points, 6)
        + " "
        + number(team.rank, 3)
        + "  "
        + " ".join(f"{member:4d}" for member in team.members)
    )


def _team_byes(doc: TrfDocument) -> list[str]:
    by_points: dict[tuple[float | None, float | None], dict[int, int]] = {}
    for bye in doc.team_byes:
        by_points.setdefault((bye.match_points, bye.game_points), {})[bye.round] = bye.team
    lines = []
    for (match_points, game_points), teams in by_points.items():
        rounds = "".join(f" {teams.get(k, 0):03d}" for k in range(1, max(teams) + 1))
        lines.append("320 " + points(match_points) + " " + points(game_points) + rounds)
    return lines


def records_26(doc: TrfDocument) -> list[str]:
    """What follows the player lines: NRS lines, byes, the kept records, teams, team byes and
    forfeited matches."""
    lines = national_lines(doc)
    lines += [
        f"240 {record.kind} {record.round:3d} " + " ".join(f"{no:4d}" for no in record.ids)
        for record in doc.bye_records
    ]
    lines += [record.text for record in doc.records if record.code in KEPT_CODES]
    lines += [_team(team) for team in doc.teams]
    lines += _team_byes(doc)
    lines += [
        f"330 {forfeit.kind} {forfeit.round:03d} {forfeit.white_team:03d} {forfeit.black_team:03d}"
        for forfeit in doc.team_forfeits
    ]
    return lines
