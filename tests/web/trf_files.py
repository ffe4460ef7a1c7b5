"""TRF files for the referee tests: four players of the API tests' world matched four ways (club
+ membership number, person number, FIDE id, newcomer) in a round robin, and the same file with
two errors, each on a line of its own."""

from __future__ import annotations

from tests.api.world import World

#: sex, name, FIDE id, birth date, the GER line's national id (None: no GER line)
PLAYERS = [
    ("w", "Mueller, Anna", "", "1980/05/17", "C0327-1"),
    ("m", "Mueller, Bernd", "", "", "pkz B"),
    ("w", "Muller, Carla", "4600003", "", None),
    ("w", "Neumann, Nina", "", "2011/03/04", "C0327-77"),
]
#: a round robin of four: (round, white, black, result)
GAMES = [
    (1, 1, 4, "1-0"),
    (1, 2, 3, "1/2-1/2"),
    (2, 4, 3, "0-1"),
    (2, 1, 2, "1/2-1/2"),
    (3, 2, 4, "1-0"),
    (3, 3, 1, "0-1"),
]
_OWN = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "=")}


def _line(code: str, fields: list[tuple[int, str, int]]) -> str:
    """``fields``: 1-based column, text, width to right-align in (0: left-aligned)."""
    line = list(code.ljust(130))
    for column, text, width in fields:
        placed = text.rjust(width) if width else text
        line[column - 1 : column - 1 + len(placed)] = list(placed)
    return "".join(line).rstrip()


def good_trf(world: World) -> str:
    cells: dict[int, list[str]] = {k: [] for k in range(1, 5)}
    for _, white, black, result in GAMES:
        cells[white].append(f"{black:4d} w {_OWN[result][0]}")
        cells[black].append(f"{white:4d} b {_OWN[result][1]}")
    lines = ["012 Herbstturnier", "042 2026/11/06", "052 2026/11/08", "122 90 min + 30 s"]
    for no, (sex, name, fide, born, national) in enumerate(PLAYERS, 1):
        fields = [
            (5, str(no), 4),
            (10, sex, 0),
            (15, name, 0),
            (54, "GER", 0),
            (58, fide, 11),
            (70, born, 0),
            (81, "0.0", 4),
            (86, str(no), 4),
        ]
        fields += [(92 + 10 * k, cell, 0) for k, cell in enumerate(cells[no])]
        lines.append(_line("001", fields))
        if national is not None:
            ident = str(world.pkz["B"]) if national == "pkz B" else national
            lines.append(
                _line(
                    "GER",
                    [(5, str(no), 4), (10, sex, 0), (15, name, 0), (49, "1500", 4), (58, ident, 11), (70, born, 0)],
                )
            )
    return "\n".join(lines) + "\n"


def two_errors(text: str) -> tuple[str, set[int]]:
    """``text`` with an impossible birth date in player 1's line and an unreadable result in
    player 3's; the two line numbers (1-based)."""
    lines = text.splitlines()
    birth = next(k for k, line in enumerate(lines) if line.startswith("001    1"))
    cell = next(k for k, line in enumerate(lines) if line.startswith("001    3"))
    lines[birth] = lines[birth][:69] + "1980/13/45" + lines[birth][79:]
    lines[cell] = lines[cell][:91] + "   4 w X" + lines[cell][99:]
    return "\n".join(lines) + "\n", {birth + 1, cell + 1}
