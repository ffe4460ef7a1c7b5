"""Reads the records of an SWT file (bytes in, ``SwtFile`` out); never raises for bad input.

Order of the file (``layout.py`` says where each fact comes from): the general data, then from
``rounds_start`` every player's round records and every team's, then the player records, then
the team records. The counts of the general data fix every position, so a file shorter than
they require is refused as cut off before any record is read.
"""

from __future__ import annotations

from datetime import date

from zdb.formats.swt import layout
from zdb.formats.swt.layout import GENERAL, GENERAL_800, PAIRING, TEAM, TEAM_PAIRING, Layout
from zdb.formats.swt.model import SwtFile, SwtGeneral, SwtPairing, SwtPlayer, SwtTeam, SwtTeamPairing
from zdb.formats.swt.values import number, text, u16, when
from zdb.formats.trf.problems import Problems
from zdb.messages import Message

__all__ = ["GENERAL_RECORD", "MAX_ROUNDS", "is_binary", "read_swt", "version_text"]

GENERAL_RECORD = "general data"
#: more rounds than any tournament has: a larger count means the bytes are not an SWT
MAX_ROUNDS = 99
#: Swiss-Chess versions are numbered 700, 883, ...: such a number at the version bytes of a file
#: that is not 7.xx or 8.xx is taken for another Swiss-Chess version
_PLAUSIBLE_VERSIONS = range(500, 3000)
#: control bytes among the first 611 that make a file binary (the samples have over 400 NUL);
#: tab, line feed, form feed, carriage return and the DOS end-of-file mark occur in texts
_MIN_CONTROLS = 8
_TEXT_CONTROLS = frozenset(b"\t\n\x0c\r\x1a")
#: what every refusal of the whole file advises (Swiss-Chess exports FIDE TRF in every version)
_EXPORT_ADVICE = Message("export the tournament from Swiss-Chess as FIDE TRF and send that file instead")


def version_text(version: int) -> str:
    """883 -> "8.83"."""
    return f"{version // 100}.{version % 100:02d}"


def is_binary(data: bytes) -> bool:
    """Control bytes (NUL and the others no text has) among the first bytes, more than a stray
    one, and not UTF-16 text (which a TRF may be): an SWT, or at least no TRF. UTF-16 text without
    a byte order mark has NUL in (nearly) every high byte and none in the low bytes; an SWT's
    general data, mostly NUL, has them on both sides."""
    head = data[: layout.VERSION_OFFSET + 2]
    controls = sum(1 for byte in head if byte < 0x20 and byte not in _TEXT_CONTROLS)
    if controls < _MIN_CONTROLS or data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    even, odd = head[:200:2], head[1:200:2]
    for high, low in ((odd, even), (even, odd)):
        if low and 0 not in low and high.count(0) >= 0.9 * len(high):
            return False
    return True


def _general(data: bytes, version: int, shape: Layout) -> SwtGeneral:
    g = {key: number(data, field) for key, field in GENERAL.items() if field.kind is not layout.Kind.ASC}
    t = {key: text(data, field) for key, field in GENERAL.items() if field.kind is layout.Kind.ASC}
    deputies = [t["deputy_1"]]
    organiser = ""
    round_dates: list[date | None] = []
    if shape.major >= 8:
        deputies += [text(data, GENERAL_800[key]) for key in ("deputy_2", "deputy_3", "deputy_4")]
        organiser = text(data, GENERAL_800["organiser"])
        first = layout.ROUND_DATE_800
        for k in range(min(g["rounds"], layout.ROUND_DATES_MAX)):
            step = layout.ROUND_DATE_STEP * k
            round_dates.append(when(data, layout.Field(first.number + 2 * k, first.offset + step, first.kind, 2)))
    team_tournament = g["team_tournament"] != 0
    return SwtGeneral(
        version=version,
        rounds=g["rounds"],
        current_round=g["current_round"],
        paired_rounds=g["paired_rounds"],
        players=g["players"],
        teams=g["teams"] if team_tournament else 0,
        team_tournament=team_tournament,
        mode=g["mode"],
        boards=g["boards"],
        scoring=g["scoring"],
        team_id_offset=g["team_id_offset"],
        name=t["name"],
        city=t["city"],
        arbiter=t["arbiter"],
        deputies=tuple(d for d in deputies if d),
        remark=t["remark"],
        start_date=t["start_date"],
        end_date=t["end_date"],
        periods=tuple(p for p in (t["period_1"], t["period_2"], t["period_3"]) if p),
        organiser=organiser,
        round_dates=tuple(round_dates),
    )


def _player(record: bytes, index: int, shape: Layout) -> SwtPlayer:
    f = shape.player
    return SwtPlayer(
        index=index,
        id=number(record, f["id"]),
        name=text(record, f["name"]),
        club=text(record, f["club"]),
        title=text(record, f["title"]),
        elo=text(record, f["elo"]),
        nwz=text(record, f["nwz"]),
        federation=text(record, f["federation"]),
        birth=text(record, f["birth"]),
        zps_club=text(record, f["zps_club"]),
        zps_member=text(record, f["zps_member"]),
        pkz=text(record, f["pkz"]),
        fide_id=text(record, f["fide_id"]),
        attribute=text(record, f["attribute"]),
        team=number(record, f["team"]),
        board=number(record, f["board"]),
        rank=number(record, f["rank"]),
    )


def _pairing(record: bytes, player: int, round_no: int) -> SwtPairing | None:
    colour = layout.COLOURS.get(number(record, PAIRING["colour"]), 0)
    opponent = number(record, PAIRING["opponent"])
    if not colour and not opponent:
        return None  # not paired in this round
    return SwtPairing(
        player=player,
        round=round_no,
        colour=colour,
        opponent=opponent,
        result=number(record, PAIRING["result"]),
        status=layout.STATUS.get(number(record, PAIRING["status"]), 0),
        table=number(record, PAIRING["table"]),
        board=number(record, PAIRING["board"]),
    )


def _team(record: bytes, index: int, offset: int) -> SwtTeam:
    return SwtTeam(
        index=index,
        id=number(record, TEAM["id"], team_id_offset=offset),
        number=number(record, TEAM["number"]),
        name=text(record, TEAM["name"]),
        first_player=number(record, TEAM["first_player"]),
        players=number(record, TEAM["players"]),
        rank=number(record, TEAM["rank"]),
    )


def _team_pairing(record: bytes, team: int, round_no: int, offset: int) -> SwtTeamPairing | None:
    place = layout.TEAM_PLACES.get(number(record, TEAM_PAIRING["place"]), 0)
    opponent = number(record, TEAM_PAIRING["opponent"], team_id_offset=offset)
    if not place and not opponent:
        return None
    return SwtTeamPairing(
        team=team,
        round=round_no,
        place=place,
        opponent=opponent,
        result=number(record, TEAM_PAIRING["result"]),
        table=number(record, TEAM_PAIRING["table"]),
        status=layout.STATUS.get(number(record, TEAM_PAIRING["status"]), 0),
        board=number(record, TEAM_PAIRING["board"]),
    )


def _refuse_version(data: bytes, problems: Problems) -> None:
    version = u16(data, layout.VERSION_OFFSET)
    if len(data) >= layout.VERSION_OFFSET + 2 and version in _PLAUSIBLE_VERSIONS:
        message = Message(
            "this Swiss-Chess file has version {version}, which is not read: only SWT files of Swiss-Chess "
            "7.xx and 8.xx are; {advice}",
            version=version_text(version),
            advice=_EXPORT_ADVICE,
        )
    else:
        message = Message(
            "the file is neither a TRF text nor a Swiss-Chess SWT file: SWT files of Swiss-Chess 7.xx and 8.xx "
            "are read; otherwise {advice}",
            advice=_EXPORT_ADVICE,
        )
    problems.error(None, message, field="file version", record=GENERAL_RECORD)


def _size_problem(data: bytes, general: SwtGeneral, shape: Layout, problems: Problems) -> int | None:
    """The size the counts require; None (with an error) when they are not an SWT's or the file is shorter."""
    if not 1 <= general.rounds <= MAX_ROUNDS or general.players == 0:
        problems.error(
            None,
            Message(
                "{players} players and {rounds} rounds are no tournament: the file is damaged or not an SWT; {advice}",
                advice=_EXPORT_ADVICE,
                players=general.players,
                rounds=general.rounds,
            ),
            field="Teilnehmerzahl",
            record=GENERAL_RECORD,
        )
        return None
    records = (general.players + general.teams) * general.rounds
    needed = (
        shape.rounds_start
        + records * shape.pairing_length
        + general.players * shape.player_length
        + general.teams * shape.team_length
    )
    if len(data) < needed:
        problems.error(
            None,
            Message(
                "the file has {size} bytes, but {players} players, {teams} teams and {rounds} rounds need {needed}: "
                "it is cut off; save it again in Swiss-Chess or {advice}",
                advice=_EXPORT_ADVICE,
                size=len(data),
                players=general.players,
                teams=general.teams,
                rounds=general.rounds,
                needed=needed,
            ),
            record=GENERAL_RECORD,
        )
        return None
    return needed


def read_swt(data: bytes) -> SwtFile:
    """Read a Swiss-Chess SWT file of version 7.xx or 8.xx. Never raises for bad input: a file of
    another version, a damaged one or one that is no SWT gives an ``SwtFile`` with the error."""
    problems = Problems()
    version = u16(data, layout.VERSION_OFFSET)
    shape = layout.layout_of(version) if len(data) >= layout.VERSION_OFFSET + 2 else None
    if shape is None:
        _refuse_version(data, problems)
        return SwtFile(None, problems=problems.result())
    general = _general(data, version, shape)
    if _size_problem(data, general, shape, problems) is None:
        return SwtFile(general, problems=problems.result())
    rounds, length = general.rounds, shape.pairing_length
    pairings: list[SwtPairing] = []
    for k in range(general.players):
        for r in range(rounds):
            start = shape.rounds_start + (k * rounds + r) * length
            pairing = _pairing(data[start : start + length], k, r + 1)
            if pairing is not None:
                pairings.append(pairing)
    team_rounds_start = shape.rounds_start + general.players * rounds * length
    team_pairings: list[SwtTeamPairing] = []
    for k in range(general.teams):
        for r in range(rounds):
            start = team_rounds_start + (k * rounds + r) * length
            team_pairing = _team_pairing(data[start : start + length], k, r + 1, general.team_id_offset)
            if team_pairing is not None:
                team_pairings.append(team_pairing)
    players_start = team_rounds_start + general.teams * rounds * length
    players = [
        _player(data[players_start + k * shape.player_length : players_start + (k + 1) * shape.player_length], k, shape)
        for k in range(general.players)
    ]
    teams_start = players_start + general.players * shape.player_length
    teams = [
        _team(
            data[teams_start + k * shape.team_length : teams_start + (k + 1) * shape.team_length],
            k,
            general.team_id_offset,
        )
        for k in range(general.teams)
    ]
    return SwtFile(general, tuple(players), tuple(pairings), tuple(teams), tuple(team_pairings), problems.result())
