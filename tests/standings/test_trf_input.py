"""Standings from TRF: real files from ``shared/data/trf`` against their own points columns, an
independent Buchholz (FIDE C.07 art. 8.1, 16.3) and hand-checked facts; the bye mapping, the
pairing system and every refusal on small files written here; the command through ``CliRunner``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import SHARED
from zdb.cli import main
from zdb.formats.trf import ByeKind as TrfByeKind
from zdb.formats.trf import TrfDocument, TrfPlayer, TrfRoundCell, parse_trf
from zdb.rating import InvalidInputError
from zdb.standings import (
    Bye,
    ByeKind,
    IndividualStandings,
    PairingSystem,
    individual_standings,
    standings_input_from_trf,
)
from zdb.standings.from_trf import BYE_KINDS, TrfInputError

TRF = SHARED / "data" / "trf"
LICHESS = TRF / "lichess-swiss-2020-06-13p-10r.trf"
BUNRATTY = TRF / "icu-bunratty-masters-2011-34p-crlf.trf"
GROS = TRF / "javafo-gros-open-2010-52p-partial-xxr.trf"
BBP = TRF / "bbp-autotest-issue15-180p-11r-cr-eol.trf"
REAL_FILES = [LICHESS, BUNRATTY, GROS, BBP]
HALF = Fraction(1, 2)


def _read(path: Path) -> tuple[TrfDocument, IndividualStandings]:
    doc = parse_trf(path.read_bytes())
    request = standings_input_from_trf(doc)
    return doc, individual_standings(request.tournament, request.order)


# --- an independent reading of the cells (the reader's cells, not the standings' records) ------

_GAME_POINTS = {"1": Fraction(1), "+": Fraction(1), "W": Fraction(1), "=": HALF, "D": HALF}
_BYE_POINTS = {"H": HALF, "F": Fraction(1), "U": Fraction(1), "+": Fraction(1)}


def _cell_points(cell: TrfRoundCell) -> Fraction:
    table = _GAME_POINTS if cell.opponent is not None else _BYE_POINTS
    return table.get(cell.result or "", Fraction(0))


def _requested_bye(cell: TrfRoundCell) -> bool:
    """C.07 art. 16.1.1 as the module maps it: H, Z, "-" without opponent, blank."""
    return cell.opponent is None and cell.result in (None, "H", "Z", "-")


def _voluntarily_unplayed(cell: TrfRoundCell) -> bool:
    """C.07 art. 16.1.2: a requested bye or a forfeit loss."""
    return _requested_bye(cell) or (cell.opponent is not None and cell.result == "-")


def _adjusted(player: TrfPlayer, rounds: int) -> Fraction:
    """C.07 art. 16.3: points as awarded, but requested byes followed only by voluntarily unplayed
    rounds (art. 16.2.5) count as draws (art. 16.3.2)."""
    cells = player.cells[:rounds]
    total = sum((_cell_points(cell) for cell in cells), Fraction(0))
    for cell in reversed(cells):
        if not _voluntarily_unplayed(cell):
            break
        if _requested_bye(cell):
            total += HALF - _cell_points(cell)
    return total


def _played_every_round(player: TrfPlayer, rounds: int) -> bool:
    return all(cell.opponent is not None and cell.result in ("1", "0", "=") for cell in player.cells[:rounds])


# --- the real files --------------------------------------------------------------------------


def _points_to_skip(doc: TrfDocument, rounds: int) -> dict[int, str]:
    """Players whose points column cannot be compared, and why."""
    warned = {p.line for p in doc.warnings if p.field == "points"}
    skip = {}
    for player in doc.players:
        if player.line in warned:
            skip[player.start_no] = "the reader warns that the file's own points column disagrees with its cells"
        elif any(_cell_points(cell) for cell in player.cells[rounds:]):
            skip[player.start_no] = "the column counts a bye announced for the round being paired"
    return skip


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda path: path.name)
def test_points_equal_the_points_column(path: Path) -> None:
    doc, standings = _read(path)
    skip = _points_to_skip(doc, standings.rounds)
    assert len(skip) < len(doc.players) // 4, skip
    for player in doc.players:
        if player.start_no not in skip:
            assert player.points is not None
            assert standings.row(str(player.start_no)).points == Fraction(player.points), player.line


def test_skipped_players_are_the_ones_expected() -> None:
    # Bunratty Masters writes ten byes as "     -  " (colour '-', no result): TRF26 makes them
    # zero-point byes, the file's points column counts them otherwise; the reader warns for the
    # five players concerned (lines 29, 31, 32, 38 and one more).
    doc, standings = _read(BUNRATTY)
    assert set(_points_to_skip(doc, standings.rounds)) == {16, 18, 19, 25, 34}
    # Gros: line 56, player 43 has "0000 - H" in round 5, the round being paired (no game result
    # in it, so it is left out); his column already counts the half point: 0 + 1/2 + 0 + 0 + 1/2.
    doc, standings = _read(GROS)
    assert _points_to_skip(doc, standings.rounds) == {
        43: "the column counts a bye announced for the round being paired"
    }
    assert standings.row("43").points == HALF
    # lichess and bbp: every column agrees.
    for path in (LICHESS, BBP):
        doc, standings = _read(path)
        assert _points_to_skip(doc, standings.rounds) == {}


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda path: path.name)
def test_ranks_are_a_ranking_of_every_player(path: Path) -> None:
    doc, standings = _read(path)
    assert sorted(int(row.player) for row in standings.rows) == sorted(p.start_no for p in doc.players)
    for position, row in enumerate(standings.rows, start=1):
        previous = standings.rows[position - 2] if position > 1 else None
        assert row.rank == position or (previous is not None and row.rank == previous.rank)
        if previous is not None:
            assert previous.points >= row.points
    assert standings.rows[0].rank == 1


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda path: path.name)
def test_buchholz_and_sonneborn_berger_of_players_who_played_every_round(path: Path) -> None:
    # C.07 art. 8.1, 9.1 with art. 16.3: for a player without unplayed rounds, Buchholz is the
    # sum of his opponents' adjusted scores, SB the same weighted by his points in each game.
    doc, standings = _read(path)
    adjusted = {p.start_no: _adjusted(p, standings.rounds) for p in doc.players}
    checked = 0
    for player in doc.players:
        if not _played_every_round(player, standings.rounds):
            continue
        cells = player.cells[: standings.rounds]
        row = standings.row(str(player.start_no))
        assert row.buchholz == sum((adjusted[c.opponent or 0] for c in cells), Fraction(0)), player.line
        expected_sb = sum((adjusted[c.opponent or 0] * _cell_points(c) for c in cells), Fraction(0))
        assert row.sonneborn_berger == expected_sb, player.line
        checked += 1
    assert checked >= 5


def test_lichess_buchholz_by_hand() -> None:
    _, standings = _read(LICHESS)
    assert (standings.pairing_system, standings.rounds) == (PairingSystem.SWISS, 10)
    # Line 16: player 1 (8.0) met 13, 4, 3, 6, 9, 10, 2, 5, 8, 7. Their points columns: 1, 6.5,
    # 6.5, 5.5, 4, 3, 7.5, 5.5, 4.5, 5. Line 28: player 13 has "-" in rounds 4 to 10, zero-point
    # byes followed only by such rounds, so each counts as a draw for his opponents (art. 16.2.5,
    # 16.3.2): 1 + 7/2 = 9/2. Everybody else ends with rounds he was available for.
    assert standings.row("1").buchholz == Fraction(105, 2)  # 49 + 7/2
    # Player 13 (1.0): opponents 1, 9, 7 with 8 + 4 + 5, and seven dummies of his own score 1
    # (art. 16.4.2: min(1, 1/2 x 10 rounds)).
    row = standings.row("13")
    assert (row.points, row.games, row.buchholz) == (Fraction(1), 3, Fraction(24))
    assert row.buchholz_cut1 == 23  # art. 16.5.1: a voluntarily unplayed round is cut first


def test_bbp_forfeits_count_as_the_results_say() -> None:
    # bbp-autotest: 84 "+" and 88 "-" against paired opponents, CR-only line endings.
    doc, standings = _read(BBP)
    assert standings.rounds == 11 and len(standings.rows) == 180
    assert sum(row.points for row in standings.rows) == sum(Fraction(p.points or 0) for p in doc.players)


# --- the mapping, on a small file written here ------------------------------------------------


def _line(no: int, name: str, points: str, *cells: str) -> str:
    """A ``001`` line: the columns of TRF16 / TRF26, rounds from column 92 in 10-character cells."""
    head = f"001 {no:>4}      {name:<33} {'':>4} {'':3} {'':>11} {'':10} {points:>4} {'':>4}  "
    assert len(head) == 91
    return head + "".join(f"{cell:<10}" for cell in cells)


def _game(opponent: int, colour: str, result: str) -> str:
    return f"{opponent:>4} {colour} {result}"


def _bye(code: str) -> str:
    return f"0000 - {code}"


def _document(*lines: str, header: str = "012 Test\n") -> str:
    return header + "\n".join(lines) + "\n"


#: Seven players, three rounds: every kind of unplayed cell the reader knows.
BYES_FILE = _document(
    _line(1, "Alpha", "2.5", _game(2, "w", "1"), _bye("H"), _game(3, "b", "1")),
    _line(2, "Bravo", "1.0", _game(1, "b", "0"), _bye("F"), "          "),
    _line(3, "Charlie", "1.0", _bye("U"), _game(4, "w", "0"), _game(1, "w", "0")),
    _line(4, "Delta", "2.0", _bye("+"), _game(3, "b", "1"), _bye("Z")),
    _line(5, "Echo", "0.0", _bye("-"), _game(6, "w", "0"), "     -"),
    _line(6, "Foxtrot", "2.0", _game(7, "w", "1"), _game(5, "b", "1"), _game(7, "b", "0")),
    _line(7, "Golf", "1.0", _game(6, "b", "0"), _bye("Z"), _game(6, "w", "1")),
)


def test_every_bye_kind_is_mapped() -> None:
    assert set(BYE_KINDS) == set(TrfByeKind)
    doc = parse_trf(BYES_FILE)
    assert doc.errors == ()
    tournament = standings_input_from_trf(doc).tournament
    assert tournament.players == ("1", "2", "3", "4", "5", "6", "7")
    byes = [set(round_.byes) for round_ in tournament.rounds]
    assert byes == [
        {Bye("3", ByeKind.PAIRING_ALLOCATED), Bye("4", ByeKind.PAIRING_ALLOCATED), Bye("5", ByeKind.ZERO_POINT)},
        {Bye("1", ByeKind.HALF_POINT), Bye("2", ByeKind.FULL_POINT), Bye("7", ByeKind.ZERO_POINT)},
        {Bye("2", ByeKind.ZERO_POINT), Bye("4", ByeKind.ZERO_POINT), Bye("5", ByeKind.ZERO_POINT)},
    ]
    standings = individual_standings(tournament)
    for player in doc.players:
        assert standings.row(str(player.start_no)).points == Fraction(player.points or 0), player.name


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("012 Test\n", PairingSystem.SWISS),
        ("012 Test\n092 Individual: Swiss-System\n", PairingSystem.SWISS),
        ("012 Test\n092 Round Robin\n", PairingSystem.ROUND_ROBIN),
        ("012 Test\n092 Rundenturnier\n", PairingSystem.ROUND_ROBIN),
        ("012 Test\n092 Swiss\n192 BERGER_ROUNDROBIN_G2\n", PairingSystem.ROUND_ROBIN),
        ("012 Test\n192 FIDE_ROUNDROBIN\n", PairingSystem.ROUND_ROBIN),
        ("012 Test\n092 round-robin\n192 FIDE_DUTCH_2025\n", PairingSystem.SWISS),  # 192 decides
    ],
)
def test_pairing_system(header: str, expected: PairingSystem) -> None:
    text = _document(_line(1, "Alpha", "1.0", _game(2, "w", "1")), _line(2, "Bravo", "0.0", _game(1, "b", "0")))
    doc = parse_trf(text.replace("012 Test\n", header, 1))
    assert standings_input_from_trf(doc).tournament.pairing_system is expected


def test_trailing_rounds_without_a_result_are_left_out() -> None:
    # bbp-dutch2025-c5: round 3 holds only one "0000 - Z" (the round being paired).
    doc = parse_trf((TRF / "bbp-dutch2025-c5-6p-xxr-zbye.trf").read_bytes())
    assert doc.rounds == 3
    assert len(standings_input_from_trf(doc).tournament.rounds) == 2
    doc = parse_trf(GROS.read_bytes())
    assert (doc.rounds, len(standings_input_from_trf(doc).tournament.rounds)) == (5, 4)


# --- refusals -----------------------------------------------------------------------------------


def _refusal(text: str | bytes) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as caught:
        standings_input_from_trf(parse_trf(text))
    return caught.value


BROKEN_FILE = _document(
    _line(1, "Alpha", "1.0", _game(2, "w", "1")),
    _line(2, "Bravo", "0.0", _game(3, "b", "0")),  # line 3: 2 names 3, 1 names 2
    _line(3, "Charlie", "0.0", _game(9, "w", "0")),  # line 4: no player 9
)


def test_errors_are_refused_with_every_line() -> None:
    error = _refusal(BROKEN_FILE)
    assert isinstance(error, TrfInputError)
    assert len(error.errors) >= 2
    assert error.place.startswith("line 2, round 1")
    assert "more error" in error.problem and "4" in error.problem
    assert "\n" not in str(error)


@pytest.mark.parametrize(
    "name", ["icu-armstrong-cup-2011-team-league-160p.trf", "sharly-bbp-trf26-team-utf8-names-8p.trf"]
)
def test_team_files_are_refused(name: str) -> None:
    error = _refusal((TRF / name).read_bytes())
    assert "team tournament" in error.problem and error.place.startswith("line ")


def test_team_type_code_is_refused() -> None:
    text = _document(_line(1, "Alpha", "1.0", _game(2, "w", "1")), _line(2, "Bravo", "0.0", _game(1, "b", "0")))
    error = _refusal(text.replace("012 Test\n", "012 Test\n192 FIDE_TEAM_BAKU\n"))
    assert error.place == "192"


@pytest.mark.parametrize(
    ("extra", "place"),
    [
        ("162  W 3.0    D 1.0    L 0.0\n", "162"),
        ("XXS PAB=.5\n", "XXS"),
    ],
)
def test_other_scoring_is_refused(extra: str, place: str) -> None:
    text = _document(_line(1, "Alpha", "1.0", _game(2, "w", "1")), _line(2, "Bravo", "0.0", _game(1, "b", "0")))
    assert _refusal(text.replace("012 Test\n", "012 Test\n" + extra)).place == place


def test_standard_scoring_written_out_is_accepted() -> None:
    header = "012 Test\n162  W 1.0    D 0.5    L 0.0    A 0.0\nXXS W=1 D=0.5 WL=0 BL=0 FL=0 ZPB=0 PAB=1\n"
    text = _document(_line(1, "Alpha", "1.0", _game(2, "w", "1")), _line(2, "Bravo", "0.0", _game(1, "b", "0")))
    assert len(standings_input_from_trf(parse_trf(text.replace("012 Test\n", header))).tournament.rounds) == 1


def test_abnormal_points_are_refused() -> None:
    error = _refusal((TRF / "sharly-bbp-trf26-individual-299-5p.trf").read_bytes())
    assert error.place.endswith("299")


def test_a_game_without_a_result_in_a_played_round_is_refused() -> None:
    text = _document(
        _line(1, "Alpha", "1.0", _game(2, "w", "1"), _game(3, "w", " ")),
        _line(2, "Bravo", "1.0", _game(1, "b", "0"), _game(4, "w", "1")),
        _line(3, "Charlie", "0.0", _game(4, "w", "0"), _game(1, "b", " ")),
        _line(4, "Delta", "1.0", _game(3, "b", "1"), _game(2, "b", "0")),
    )
    assert _refusal(text).place == "line 2, round 2"


# --- the command ----------------------------------------------------------------------------------


def _one_line_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return str(lines[0])


def _run(*arguments: str, stdin: bytes | None = None) -> Any:
    return CliRunner().invoke(main, ["standings", *arguments], input=stdin)


def test_command_prints_a_table() -> None:
    result = _run(str(LICHESS))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Standings: Swiss, 13 players, 10 rounds; ranked by points, then BH, SB")
    header = lines[2].split()
    assert header[:5] == ["Rank", "Player", "Name", "Points", "Games"]
    first = lines[4].split()
    assert first[:5] == ["1", "1", "mattderkuerschner", "8", "10"]  # line 16
    assert first[header.index("BH")] == "52.5"


def test_command_json() -> None:
    result = _run(str(LICHESS), "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert (document["pairing_system"], document["rounds"]) == ("swiss", 10)
    rows = {row["player"]: row for row in document["rows"]}
    assert rows["13"]["name"] == "johnnydiggson" and rows["13"]["BH"] == 24.0  # line 28
    assert rows["2"]["points"] == 7.5  # line 17


def test_command_detects_trf_by_content(tmp_path: Path) -> None:
    path = tmp_path / "gros.txt"
    path.write_bytes(GROS.read_bytes())
    result = _run(str(path), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["rounds"] == 4
    from_stdin = _run("-", "--json", stdin=BUNRATTY.read_bytes())
    assert from_stdin.exit_code == 0, from_stdin.output
    assert len(json.loads(from_stdin.output)["rows"]) == 34


def test_command_leaves_decoding_to_the_reader() -> None:
    # ISO-8859-1, not UTF-8: the JSON path would refuse it, the TRF reader decodes it.
    result = _run(str(TRF / "icu-latin1-encoded-3p-no-end-date.trf"), "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["rows"]) == 3


def test_command_broken_trf_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.trf"
    path.write_text(BROKEN_FILE, encoding="ascii")
    line = _one_line_error(_run(str(path)))
    assert line.startswith(f"{path}: line 2, round 1: ")


def test_command_team_trf_is_a_league_table() -> None:
    # The file: "330 +- 1 1 2" (team 1 Alpha wins its match against team 2 Bravo by forfeit),
    # "3 w 1" / "4 b 0" (Charlie's player beats Delta's); "362 TW 2.0 TD 1.0 TL 0.0".
    result = _run(str(TRF / "sharly-bbp-trf26-team-330-forfeit-4p.trf"))
    assert result.exit_code == 0, result.output
    table = result.output.split("\n\n")[1].splitlines()[2:]
    figures = {line.split()[-8]: line.split()[-3:] for line in table}  # MP, BP, BW; a shared rank is blank
    assert figures == {
        "Alpha": ["2", "1", "1"],
        "Charlie": ["2", "1", "1"],
        "Bravo": ["0", "0", "0"],
        "Delta": ["0", "0", "0"],
    }
    matches = result.output.split("Matches\n\n")[1].split("\n\n")[0].splitlines()[2:]
    assert [line.split() for line in matches] == [
        ["1", "Alpha", "Bravo", "1:0", "1:0", "2:0", "kampflos"],
        ["1", "Charlie", "Delta", "1:0", "1:0", "2:0"],
    ]
    assert "1:+" in result.output and "1:−" in result.output  # the players' boards: won and lost kampflos


def test_command_format_option_overrides_the_suffix() -> None:
    assert "malformed JSON" in _one_line_error(_run(str(LICHESS), "--format", "json"))
