"""The two Swiss-Chess sample files read field by field as their JSON says (shared/data/swt/samples:
swtparser.js's reading, keyed by the structure files' field numbers; read at test time): every
player, team, round record and result, and the general data."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from tests.formats.swt_files import SAMPLES, fields, structure
from zdb.formats.swt import SwtFile, read_swt, read_swt_document
from zdb.formats.trf import iter_games
from zdb.rating import ResultCode

NAMES = ["SwissIndividual", "SwissTeam"]

# JSON field number -> SwtPlayer attribute; texts compare without trailing blanks
PLAYER_FIELDS = {
    "2000": "name",
    "2001": "club",
    "2002": "title",
    "2003": "elo",
    "2004": "nwz",
    "2006": "federation",
    "2008": "birth",
    "2010": "zps_club",
    "2011": "zps_member",
    "2013": "attribute",
    "2033": "fide_id",
    "2034": "pkz",
    "2016": "team",
    "2017": "board",
    "2021": "id",
    "2022": "rank",
}
TEAM_FIELDS = {
    "1000": "name",
    "1015": "first_player",
    "1016": "players",
    "1018": "id",
    "1019": "number",
    "1020": "rank",
}
GENERAL_FIELDS = {
    "1": "rounds",
    "2": "current_round",
    "3": "paired_rounds",
    "4": "players",
    "34": "boards",
    "35": "team_tournament",
    "65": "name",
    "66": "city",
    "67": "arbiter",
    "69": "remark",
    "70": "start_date",
    "71": "end_date",
    "185": "team_id_offset",
    "9999": "version",
}


def _sample(name: str) -> tuple[bytes, dict[str, Any]]:
    data = (SAMPLES / f"{name}.SWT").read_bytes()
    with (SAMPLES / f"{name}.json").open(encoding="utf-8") as handle:
        return data, json.load(handle)


def _same(mine: object, theirs: object) -> bool:
    return mine == (theirs.rstrip() if isinstance(theirs, str) else theirs)


# Read anew for every test (a read of a few kilobytes): a reading shared by the module would
# run inside the first test only, and `make mutation` runs against a changed function only the
# tests that call it.
@pytest.fixture(params=NAMES)
def sample(request: pytest.FixtureRequest) -> tuple[SwtFile, dict[str, Any], bytes]:
    data, expected = _sample(request.param)
    return read_swt(data), expected, data


def test_read_without_a_problem(sample: tuple[SwtFile, dict[str, Any], bytes]) -> None:
    swt, _, data = sample
    assert swt.problems == ()
    assert read_swt_document(data).problems == ()


def test_general_data(sample: tuple[SwtFile, dict[str, Any], bytes]) -> None:
    swt, expected, _ = sample
    general = swt.general
    assert general is not None
    for number, attribute in GENERAL_FIELDS.items():
        assert _same(getattr(general, attribute), expected["general"][number]), number
    assert general.mode == int(expected["general"]["31"].split("-")[1])
    assert general.teams == (expected["general"]["80"] if expected["general"]["35"] else 0)
    assert general.periods == tuple(v for k in ("72", "73", "74") if (v := expected["general"][k].rstrip()))
    deputies = [expected["general"].get(k, "") for k in ("68", "85", "86", "87")]
    assert general.deputies == tuple(d for d in deputies if d)
    written = [expected["general"].get(str(89 + 2 * k)) for k in range(general.rounds)]
    assert [d.strftime("%a %b %d %Y") if d else None for d in general.round_dates] == written


def test_every_player(sample: tuple[SwtFile, dict[str, Any], bytes]) -> None:
    swt, expected, _ = sample
    assert len(swt.players) == len(expected["players"]) == expected["general"]["4"]
    for player, theirs in zip(swt.players, expected["players"], strict=True):
        assert player.index == theirs["positionInSWT"]
        for number, attribute in PLAYER_FIELDS.items():
            assert _same(getattr(player, attribute), theirs[number]), (player.index, number)


def test_every_round_record(sample: tuple[SwtFile, dict[str, Any], bytes]) -> None:
    swt, expected, _ = sample
    ids = {p.index: p.id for p in swt.players}
    mine = {
        (f"{ids[p.player]:x}", p.round): (
            f"4000-{p.colour}",
            f"{p.opponent:x}",
            f"4002-{p.result}",
            f"3006-{p.status}",
            p.table,
            p.board,
        )
        for p in swt.pairings
    }
    theirs = {
        (x["player"], x["round"]): (x["4000"], x["4001"], x["4002"], x["4005"], x["4004"], x["4006"])
        for x in expected["pairings_players"]
    }
    assert len(mine) == len(swt.pairings) == len(expected["pairings_players"])
    assert mine == theirs


def test_every_team_and_team_round(sample: tuple[SwtFile, dict[str, Any], bytes]) -> None:
    swt, expected, _ = sample
    assert len(swt.teams) == len(expected.get("teams", []))
    for team, theirs in zip(swt.teams, expected.get("teams", []), strict=True):
        assert team.index == theirs["positionInSWT"]
        for number, attribute in TEAM_FIELDS.items():
            assert _same(getattr(team, attribute), theirs[number]), (team.index, number)
    numbers = {t.index: t.number for t in swt.teams}
    mine = {
        (numbers[p.team], p.round): (
            f"3001-{p.place}",
            p.opponent,
            f"3004-{p.result}",
            p.table,
            f"3006-{p.status}",
            p.board,
        )
        for p in swt.team_pairings
    }
    theirs = {
        (x["team"], x["round"]): (x["3001"], x["3002"], x["3004"], x["3005"], x["3006"], x["3008"])
        for x in expected.get("pairings_teams", [])
    }
    assert mine == theirs


def _expected_games(expected: dict[str, Any]) -> set[tuple[int, int, int, str]]:
    """(round, white, black, result) of every game, from the white player's JSON round record:
    the result's low two bits (4002: 1 loss, 2 draw, 3 win), forfeit when 4005 is kampflos."""
    games = set()
    for x in expected["pairings_players"]:
        if x["4000"] != "4000-1":
            continue
        points = int(x["4002"].split("-")[1]) & 3
        forfeit = x["4005"] in ("3006-1", "3006-4")
        result = {
            (3, False): ResultCode.WHITE_WINS,
            (2, False): ResultCode.DRAW,
            (1, False): ResultCode.BLACK_WINS,
            (3, True): ResultCode.WHITE_WINS_FORFEIT,
            (1, True): ResultCode.BLACK_WINS_FORFEIT,
        }[(points, forfeit)]
        games.add((x["round"], int(x["player"], 16), int(x["4001"], 16), result.value))
    return games


@pytest.mark.parametrize("name", NAMES)
def test_the_document_has_every_game_of_the_json(name: str) -> None:
    data, expected = _sample(name)
    document = read_swt_document(data)
    games = {tuple(game) for game in iter_games(document)}
    assert games == _expected_games(expected)
    assert len(games) == len(expected["pairings_players"]) // 2


@pytest.mark.parametrize("name", NAMES)
def test_the_document_has_every_player_with_the_json_values(name: str) -> None:
    data, expected = _sample(name)
    document = read_swt_document(data)
    assert document.file_format == "SWT"
    assert document.name == expected["general"]["65"]
    assert document.rounds == expected["general"]["1"]
    assert len(document.players) == len(expected["players"])
    for player, theirs in zip(document.players, expected["players"], strict=True):
        assert (player.start_no, player.name, player.record) == (
            theirs["2021"],
            theirs["2000"],
            f"player {theirs['2021']}",
        )
        assert player.rating == (int(theirs["2003"]) or None if theirs["2003"].strip() else None)
        assert player.fide_id == (int(theirs["2033"]) if theirs["2033"].strip() else None)
        assert player.birth_year == int(theirs["2008"][:4])
        assert player.rank == (theirs["2022"] or None)
        assert player.sex == {"m": "m", "w": "w"}[theirs["2013"].lower()]
        (national,) = player.national
        assert (national.club_code, national.member_no, national.rating) == (
            theirs["2010"],
            theirs["2011"],
            int(theirs["2004"]),
        )
    if expected.get("teams"):
        by_team = {
            t["1019"]: sorted((p["2017"], p["2021"]) for p in expected["players"] if p["2016"] == t["1019"])
            for t in expected["teams"]
        }
        assert {t.number: list(t.members) for t in document.teams} == {
            n: [pid for _, pid in members] for n, members in by_team.items()
        }


def test_dates_of_the_individual_sample() -> None:
    data, expected = _sample("SwissIndividual")
    document = read_swt_document(data)
    day, month, year = (int(v) for v in expected["general"]["71"].split("."))
    assert document.end_date == date(year, month, day)
    assert len(document.round_dates) == expected["general"]["1"]


def test_the_document_has_every_team_with_the_json_values() -> None:
    data, expected = _sample("SwissTeam")
    document = read_swt_document(data)
    assert [(t.line, t.number, t.name, t.rank, t.source) for t in document.teams] == [
        (0, t["1019"], t["1000"].rstrip(), t["1020"] or None, "SWT") for t in expected["teams"]
    ]


def test_a_team_without_its_number_is_numbered_by_its_place_in_the_file() -> None:
    data, expected = _sample("SwissTeam")
    general, shape = expected["general"], structure("800")
    players, teams, rounds = general["4"], general["80"], general["1"]
    teams_start = (
        shape["start:fixtures_players"]
        + (players + teams) * rounds * shape["length:pairing"]
        + players * shape["length:player"]
    )
    second = teams_start + shape["length:team"] + fields("700", "team")[1019].start
    changed = bytearray(data)
    changed[second] = 0  # the second team record's Mannschaftsnummer (1019)
    numbers = [t.number for t in read_swt_document(bytes(changed)).teams]
    assert numbers[:3] == [expected["teams"][0]["1019"], 2, expected["teams"][2]["1019"]]


def _first_team_round(changes: dict[int, int]) -> list[tuple[int, int, int, int]]:
    """The team sample's first team's round-1 record (team-pairings.csv) with the bytes changed:
    field number -> byte; (place, opponent, status, result) of what is read there."""
    data, expected = _sample("SwissTeam")
    general, shape = expected["general"], structure("800")
    at = shape["start:fixtures_players"] + general["4"] * general["1"] * shape["length:pairing"]
    changed = bytearray(data)
    for number, value in changes.items():
        spec = fields("700", "team-pairings")[number]
        changed[at + spec.start : at + spec.start + spec.length] = bytes([value]) * spec.length
    found = read_swt(bytes(changed)).team_pairings
    return [(p.place, p.opponent, p.status, p.result) for p in found if (p.team, p.round) == (0, 1)]


def test_a_team_round_record_read_by_the_selection_tables() -> None:
    ((place, opponent, status, result),) = _first_team_round({})
    assert opponent != 0 and place != 0
    # bytes 3001-selection.csv and 3006-selection.csv do not list read as 0, the record stays
    assert _first_team_round({3001: 0x09, 3006: 0x09}) == [(0, opponent, 0, result)]
    assert _first_team_round({3006: 0x02}) == [(place, opponent, 1, result)]  # 02: kampflos (1)
    assert _first_team_round({3002: 0x00}) == [(place, 0, status, result)]  # a place, no opponent
    assert _first_team_round({3001: 0x00, 3002: 0x00}) == []  # neither: not paired that round
