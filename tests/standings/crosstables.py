"""Published crosstables, written out as the standings' input (nothing is parsed from a seed).

- ``seed_round_robin``: seed 002 (shared/seeds/002_fb679fab13128d6a.txt), "Wertung nach
  Sonneborn-Berger", the 7-player matrix on lines 47-54 ("r" = draw).
- ``fide_exercise``: the FIDE Technical Commission's tie-break exercise for the regulations of
  2023/2024 (tec.fide.com/2024/03/18/tie-break-exercise/), 16 players, 5 rounds, as transcribed
  in the public test suite of github.com/marceljuenemann/tiebreak
  (src/__tests__/testcases/fide-exercise-2023.csv). That transcription has no row for player
  12; his rounds are known only from his opponents' rows (lost to 4 in round 1, forfeit win
  against 14 in round 3), and he is absent in rounds 2, 4 and 5 here.
"""

from __future__ import annotations

from zdb.rating import ResultCode
from zdb.standings import Bye, ByeKind, IndividualTournament, Pairing, PairingSystem, Round

__all__ = ["FIDE_EXERCISE_ROWS", "SEED_MATRIX", "fide_exercise", "seed_round_robin"]

# seed 002, lines 48-54: row player against column player A..G
SEED_MATRIX = {
    "A": "-rr1111",
    "B": "r-rr111",
    "C": "rr-rr11",
    "D": "0rr-111",
    "E": "00r0-11",
    "F": "00000-1",
    "G": "000000-",
}
_CELL = {"1": ResultCode.WHITE_WINS, "0": ResultCode.BLACK_WINS, "r": ResultCode.DRAW}


def seed_round_robin() -> IndividualTournament:
    """One game per pairing, each in a round of its own (the rounds of a round robin change nothing)."""
    names = tuple(SEED_MATRIX)
    games = []
    for i, white in enumerate(names):
        for j, black in enumerate(names):
            if j > i:
                games.append(Pairing(white, black, _CELL[SEED_MATRIX[white][j]]))
    return IndividualTournament(names, tuple(Round((game,)) for game in games), PairingSystem.ROUND_ROBIN)


# "+W9": won with white against 9; "=B13": drew with black; "-F11": forfeit loss against 11;
# "+F9": forfeit win; "=BYE": half-point bye; "+BYE": pairing-allocated bye; "--": not paired.
FIDE_EXERCISE_ROWS = {
    "1": "+W9 =B13 =W2 +B15 =W4",
    "2": "+B10 +W7 =B1 +W16 =B3",
    "3": "=W11 +B6 +W8 =B4 =W2",
    "4": "+B12 =BYE +W13 =W3 =B1",
    "5": "-W13 -B15 +W11 =B7 +W10",
    "6": "-B14 -W3 +BYE +W10 +B8",
    "7": "+W15 -B2 -B16 =W5 -B11",
    "8": "=B16 +W14 -B3 +W13 -W6",
    "9": "-B1 -W10 =BYE -F11 +BYE",
    "10": "-W2 +B9 -W15 -B6 -B5",
    "11": "=B3 -W16 -B5 +F9 +W7",
    "13": "+B5 =W1 -B4 -B8 -W14",
    "14": "+W6 -B8 -F12 -- +B13",
    "15": "-B7 +W5 +B10 -W1 -B16",
    "16": "=W8 +B11 +W7 -B2 +W15",
}
_POINTS = {"+": 1.0, "=": 0.5, "-": 0.0}


def fide_exercise() -> IndividualTournament:
    rounds: list[tuple[list[Pairing], list[Bye]]] = [([], []) for _ in range(5)]
    placed: set[tuple[int, str]] = set()
    for player, row in FIDE_EXERCISE_ROWS.items():
        for number, cell in enumerate(row.split()):
            if cell == "--":
                continue
            score = _POINTS[cell[0]]
            if cell[1:] == "BYE":
                kind = ByeKind.PAIRING_ALLOCATED if score == 1 else ByeKind.HALF_POINT
                rounds[number][1].append(Bye(player, kind))
                continue
            colour, opponent = cell[1], cell[2:]
            if (number, opponent) in placed:
                continue  # the game is already in from the opponent's row
            placed.add((number, player))
            if colour == "F":
                result = ResultCode.WHITE_WINS_FORFEIT if score == 1 else ResultCode.BLACK_WINS_FORFEIT
                rounds[number][0].append(Pairing(player, opponent, result))
                continue
            white, black = (player, opponent) if colour == "W" else (opponent, player)
            white_score = score if colour == "W" else 1 - score
            result = {1.0: ResultCode.WHITE_WINS, 0.0: ResultCode.BLACK_WINS, 0.5: ResultCode.DRAW}[white_score]
            rounds[number][0].append(Pairing(white, black, result))
    players = tuple(str(k) for k in range(1, 17))
    return IndividualTournament(players, tuple(Round(tuple(p), tuple(b)) for p, b in rounds), PairingSystem.SWISS)
