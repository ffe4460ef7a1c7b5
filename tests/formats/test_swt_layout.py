"""The reader's layout is the structure description's (shared/data/swt/structure, read at test
time), and the reader is a pure library."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.swt_files import fields, selection, structure
from tests.purity import assert_calls_no_clock_or_io
from zdb.formats.swt import layout

PACKAGE = Path(layout.__file__).parent


@pytest.mark.parametrize(
    ("table", "directory", "name"),
    [
        (layout.GENERAL, "700", "general"),
        (layout.GENERAL, "800", "general"),
        (layout.GENERAL_800, "800", "general"),
        (layout.PLAYER_700, "700", "player"),
        (layout.PLAYER_800, "800", "player"),
        (layout.PAIRING, "700", "individual-pairings"),
        (layout.TEAM, "700", "team"),
        (layout.TEAM_PAIRING, "700", "team-pairings"),
    ],
)
def test_every_field_is_where_the_structure_files_say(
    table: dict[str, layout.Field], directory: str, name: str
) -> None:
    described = fields(directory, name)
    for key, field in table.items():
        spec = described[field.number]
        kind = spec.kind.split(":")[0]
        # "bin" (a byte shown in hex) is read as the number it is
        assert (field.offset, field.length) == (spec.start, spec.length), key
        assert field.kind.value == kind or (kind == "bin" and field.kind is layout.Kind.INT), key


def test_round_dates_and_record_lengths() -> None:
    described = fields("800", "general")
    for k in range(layout.ROUND_DATES_MAX):
        spec = described[layout.ROUND_DATE_800.number + 2 * k]
        assert (spec.start, spec.kind) == (layout.ROUND_DATE_800.offset + layout.ROUND_DATE_STEP * k, "dat")
    for version, directory in ((700, "700"), (883, "800")):
        shape = layout.layout_of(version)
        assert shape is not None
        counts = structure(directory)
        assert (shape.player_length, shape.team_length, shape.pairing_length, shape.rounds_start) == (
            counts["length:player"],
            counts["length:team"],
            counts["length:pairing"],
            counts["start:fixtures_players"],
        )
    assert [layout.layout_of(v) for v in (0, 699, 900, 1012)] == [None] * 4


def test_code_tables_are_the_selection_files() -> None:
    for table, number in ((layout.COLOURS, 4000), (layout.STATUS, 3006), (layout.TEAM_PLACES, 3001)):
        assert {byte: value for value, byte in selection(number).items()} == table


def test_the_reader_is_pure() -> None:
    assert_calls_no_clock_or_io(PACKAGE)
