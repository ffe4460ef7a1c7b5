"""A TRF file that ends in the middle of a line is called cut off at that line, and nothing else
is said of it; a whole file is never called cut off, with or without its last line break."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED
from zdb.formats.trf import parse_trf

EXAMPLE = Path(__file__).parents[2] / "examples" / "open.trf"
TRF_DIR = SHARED / "data" / "trf"


def _cut_messages(text: str) -> list[tuple[int | None, str]]:
    return [(p.line, p.message) for p in parse_trf(text).problems if "cut off" in p.message]


def test_a_player_line_cut_inside_a_field_is_cut_off() -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    player = lines[5]  # 001    1 m    Fuchs, Daniel ...
    head = "\n".join(lines[:5]) + "\n"
    # inside the name, the points, and each round's ten columns except at its result
    for end in (20, 60, 82, 95, 98, 105, 107, len(player) - 1):
        problems = parse_trf(head + player[:end]).problems
        assert [(p.line, "cut off" in p.message) for p in problems] == [(6, True)], (end, problems)


def test_a_national_line_cut_is_cut_off() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    last_ger = text.rindex("\nGER") + 1
    number = len(text[:last_ger].splitlines()) + 1
    for end in (20, 50, 64):  # in the name, the rating, the national number
        assert _cut_messages(text[: last_ger + end])[0][0] == number, end


@pytest.mark.parametrize("name", sorted(p.name for p in TRF_DIR.glob("*.trf")))
def test_a_whole_file_without_its_last_line_break_is_not_cut_off(name: str) -> None:
    data = (TRF_DIR / name).read_bytes()
    assert _cut_messages(data.rstrip(b"\r\n").decode("latin-1")) == []
