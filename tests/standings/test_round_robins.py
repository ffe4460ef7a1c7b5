"""Round robins: recognised from their pairings or named by the file, ranked by Sonneborn-Berger
(seed 002; FIDE C.07 art. 9.1, forfeits as regular games by art. 15.2) and shown as an n×n table
with "+", "−" and "spielfrei" as referees write them. Known answers are computed by hand here."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from tests.standings.round_robins import circle_rounds, generated_round_robin
from tests.standings.test_trf_input import _document, _game, _line
from zdb.cli import main
from zdb.formats.trf import parse_trf
from zdb.rating import ResultCode
from zdb.standings import (
    ENGLISH,
    GERMAN,
    CellKind,
    IndividualTournament,
    Pairing,
    PairingSystem,
    Round,
    detected_pairing_system,
    dump_individual,
    individual_standings,
    load_document,
    round_cells,
    round_robin_cycles,
    round_robin_grid,
    standings_input_from_trf,
)

# --- the generator itself ------------------------------------------------------------------------


@pytest.mark.parametrize("count", [3, 4, 5, 6, 7, 8])
def test_circle_method_pairs_everybody_once(count: int) -> None:
    pairs = [frozenset(pair) for pairs in circle_rounds(count) for pair in pairs]
    assert len(pairs) == len(set(pairs)) == count * (count - 1) // 2


# --- recognised from the pairings ----------------------------------------------------------------


def _pairings(tournament: IndividualTournament) -> list[Any]:
    return [pairing for round_ in tournament.rounds for pairing in round_.pairings]


@pytest.mark.parametrize("count", [3, 4, 5, 8])
@pytest.mark.parametrize(("double", "cycles"), [(False, 1), (True, 2)])
def test_single_and_double_round_robins_are_recognised(count: int, double: bool, cycles: int) -> None:
    tournament = generated_round_robin(count, double=double)
    assert round_robin_cycles(tournament.players, _pairings(tournament)) == cycles
    assert detected_pairing_system(tournament.players, _pairings(tournament)) is PairingSystem.ROUND_ROBIN


def test_a_missing_or_repeated_pairing_is_no_round_robin() -> None:
    pairings = _pairings(generated_round_robin(6))
    players = generated_round_robin(6).players
    assert detected_pairing_system(players, pairings[1:]) is PairingSystem.SWISS  # one pair never met
    assert detected_pairing_system(players, [*pairings, pairings[0]]) is PairingSystem.SWISS  # one pair met twice
    triple = _pairings(generated_round_robin(4, double=True)) + _pairings(generated_round_robin(4))
    assert round_robin_cycles(generated_round_robin(4).players, triple) is None  # three cycles
    match = generated_round_robin(2)  # two players who met once: a match, which tells nothing
    assert len(_pairings(match)) == 1
    assert detected_pairing_system(match.players, _pairings(match)) is PairingSystem.SWISS


# --- ranked by Sonneborn-Berger, hand-computed ---------------------------------------------------

#: 1-2 1-0, 3-1 ½, 4-1 1-0 (4 beats 1), 2-3 1-0, 2-4 1-0, 3-4 1-0 in three rounds.
#: Points: 1: 1.5, 2: 2, 3: 1.5, 4: 1. SB (C.07 art. 9.1): 1: 2 (beat 2) + 0.75 (drew 3) = 2.75;
#: 2: 1.5 + 1 = 2.5; 3: 0.75 + 1 = 1.75; 4: 1.5 (beat 1). BH is the same for 1 and 3 (a
#: complete round robin: everybody else's points), so SB decides: 2, 1, 3, 4.
FOUR = {
    "id": 1,
    "acronym": "RRT",
    "end_date": "2026-03-01",
    "players": [{"pid": str(k), "rating": 1500 + k, "index": 5, "birth_year": 1980} for k in range(1, 5)],
    "games": [
        {"white": "1", "black": "2", "result": "1-0", "round": 1},
        {"white": "3", "black": "4", "result": "1-0", "round": 1},
        {"white": "3", "black": "1", "result": "1/2-1/2", "round": 2},
        {"white": "2", "black": "4", "result": "1-0", "round": 2},
        {"white": "4", "black": "1", "result": "1-0", "round": 3},
        {"white": "2", "black": "3", "result": "1-0", "round": 3},
    ],
}


def _standings_document(document: dict[str, Any]) -> dict[str, Any]:
    request = load_document(document)
    assert not isinstance(request, type(None))
    tournament = request.tournament  # type: ignore[union-attr]
    return dump_individual(individual_standings(tournament), tournament)


def test_rounds_without_a_named_system_that_form_a_round_robin_rank_by_sb() -> None:
    document = _standings_document(FOUR)
    assert document["pairing_system"] == "round-robin"
    assert document["tie_break_order"] == ["SB"]
    rows = {row["player"]: row for row in document["rows"]}
    assert {player: row["SB"] for player, row in rows.items()} == {"1": 2.75, "2": 2.5, "3": 1.75, "4": 1.5}
    assert [row["player"] for row in document["rows"]] == ["2", "1", "3", "4"]
    # the n×n table in rank order, each row's results against the columns
    assert document["crosstable"] == {
        "cycles": 1,
        "players": ["2", "1", "3", "4"],
        "cells": [
            [[], ["0"], ["1"], ["1"]],
            [["1"], [], ["½"], ["0"]],
            [["0"], ["½"], [], ["1"]],
            [["0"], ["1"], ["0"], []],
        ],
    }


def test_a_named_system_decides_over_the_pairings() -> None:
    document = _standings_document(FOUR | {"pairing": "swiss"})
    assert (document["pairing_system"], document["tie_break_order"]) == ("swiss", ["BH", "SB"])
    assert "crosstable" not in document


#: A double round robin of three with a forfeit: A-B 1-0, B-C ½, C-A 0-1, B-A +- (B wins by
#: forfeit), C-B 0-1, A-C ½. Points: A 2.5, B 2.5, C 1. C.07 art. 15.2: the forfeit is a regular
#: game, so SB: A = 1×2.5 (B) + 1×1 + ½×1 (C) = 4; B = 1×2.5 (A, forfeit) + ½×1 + 1×1 = 4;
#: C = ½×2.5 (B) + ½×2.5 (A) = 2.5. A and B stay tied after SB and share rank 1 (C.07 art. 2.1
#: leaves the rest to the regulations).
DOUBLE = [
    ("A", "B", ResultCode.WHITE_WINS),
    ("B", "C", ResultCode.DRAW),
    ("C", "A", ResultCode.BLACK_WINS),
    ("B", "A", ResultCode.WHITE_WINS_FORFEIT),
    ("C", "B", ResultCode.BLACK_WINS),
    ("A", "C", ResultCode.DRAW),
]


def _double() -> IndividualTournament:
    rounds = tuple(Round((Pairing(white, black, result),)) for white, black, result in DOUBLE)
    players = ("A", "B", "C")
    pairings = [pairing for round_ in rounds for pairing in round_.pairings]
    return IndividualTournament(players, rounds, detected_pairing_system(players, pairings))


def test_double_round_robin_with_a_forfeit() -> None:
    tournament = _double()
    assert tournament.pairing_system is PairingSystem.ROUND_ROBIN
    standings = individual_standings(tournament)
    assert [(row.player, row.rank, row.points, row.sonneborn_berger) for row in standings.rows] == [
        ("A", 1, Fraction(5, 2), Fraction(4)),
        ("B", 1, Fraction(5, 2), Fraction(4)),
        ("C", 3, Fraction(1), Fraction(5, 2)),
    ]
    grid = round_robin_grid(tournament, standings)
    assert grid.cycles == 2
    scores = [[[GERMAN.score(cell) for cell in cell_list] for cell_list in line] for line in grid.cells]
    assert scores == [
        [[], ["1", "−"], ["1", "½"]],  # A: beat B, then lost to him by forfeit; beat C, drew
        [["0", "+"], [], ["½", "1"]],
        [["0", "½"], ["½", "0"], []],
    ]


def test_the_free_round_of_an_odd_round_robin_reads_spielfrei() -> None:
    tournament = _double()
    cells = round_cells(tournament)
    for player in tournament.players:  # three players, six rounds: each is free twice
        free = [cell for cell in cells[player] if cell.kind is CellKind.BYE]
        assert len(free) == 2 and all(cell.points == 0 for cell in free)
        assert {GERMAN.text(cell) for cell in free} == {"spielfrei"}
        assert {ENGLISH.text(cell) for cell in free} == {"bye"}
    b_round_4 = cells["B"][3]
    assert (GERMAN.text(b_round_4), GERMAN.title(b_round_4)) == ("Aw+", "+ kampflos")
    assert (ENGLISH.text(cells["A"][3]), ENGLISH.title(cells["A"][3])) == ("Bb−", "− forfeit")


@pytest.mark.parametrize("count", [4, 5, 6])
def test_generated_round_robin_table_adds_up(count: int) -> None:
    tournament = generated_round_robin(count, double=count == 5)
    standings = individual_standings(tournament)
    grid = round_robin_grid(tournament, standings)
    cycles = 2 if count == 5 else 1
    for i, player in enumerate(grid.players):
        assert grid.cells[i][i] == ()
        for j in range(count):
            if i != j:  # every game gives out one point between the two cells
                assert len(grid.cells[i][j]) == cycles
                both = sum(c.points for c in grid.cells[i][j]) + sum(c.points for c in grid.cells[j][i])
                assert both == cycles
        assert sum(c.points for cells in grid.cells[i] for c in cells) == standings.row(player).points


# --- from TRF ------------------------------------------------------------------------------------

#: The four players above as a TRF file: 1 beats 2 (R1), draws 3 (R2), loses to 4 (R3); 2 beats 4
#: (R2) and 3 (R3); 3 beats 4 (R1).
FOUR_TRF = _document(
    _line(1, "Eins", "1.5", _game(2, "w", "1"), _game(3, "b", "="), _game(4, "b", "0")),
    _line(2, "Zwei", "2.0", _game(1, "b", "0"), _game(4, "w", "1"), _game(3, "w", "1")),
    _line(3, "Drei", "1.5", _game(4, "w", "1"), _game(1, "w", "="), _game(2, "b", "0")),
    _line(4, "Vier", "1.0", _game(3, "b", "0"), _game(2, "b", "0"), _game(1, "w", "1")),
)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("012 Test\n", PairingSystem.ROUND_ROBIN),  # no 092: the pairings decide
        ("012 Test\n092 Round robin\n", PairingSystem.ROUND_ROBIN),
        ("012 Test\n092 Vereinsmeisterschaft\n", PairingSystem.ROUND_ROBIN),  # names no system
        ("012 Test\n092 Swiss\n", PairingSystem.SWISS),  # the file decides
    ],
)
def test_trf_pairing_system(header: str, expected: PairingSystem) -> None:
    doc = parse_trf(FOUR_TRF.replace("012 Test\n", header, 1))
    assert doc.errors == ()
    tournament = standings_input_from_trf(doc).tournament
    assert tournament.pairing_system is expected
    standings = individual_standings(tournament)
    for player in doc.players:  # the file's points column
        assert standings.row(str(player.start_no)).points == Fraction(player.points or 0)


def test_command_prints_the_round_robin_table(tmp_path: Any) -> None:
    path = tmp_path / "rr.trf"
    path.write_text(FOUR_TRF.replace("012 Test\n", "012 Test\n092 Round robin\n", 1), encoding="ascii")
    result = CliRunner().invoke(main, ["standings", str(path)])
    assert result.exit_code == 0, result.output
    title, _, heading, grid = result.output.rstrip("\n").split("\n\n")
    assert "round robin" in title and "then SB" in title and heading == "Crosstable"
    rows = [line.split() for line in grid.splitlines()[2:]]
    assert [(row[1], row[2:6]) for row in rows] == [
        ("2", ["×", "0", "1", "1"]),
        ("1", ["1", "×", "½", "0"]),
        ("3", ["0", "½", "×", "1"]),
        ("4", ["0", "1", "0", "×"]),
    ]
    document = json.loads(CliRunner().invoke(main, ["standings", str(path), "--json"]).output)
    assert [row["name"] for row in document["rows"]] == ["Zwei", "Eins", "Drei", "Vier"]
