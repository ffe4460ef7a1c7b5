"""FIDE's fixed columns as the TRF writers fill them (``zdb.formats.trf.columns``): text left in
its field, numbers and points right, a quarter point with two decimals, and the static part of a
player line at the columns of FIDE's player section (1-3 code, 5-8 start number, 10 sex, 11-13
title right-aligned, 15-47 name, 49-52 rating, 54-56 federation, 58-68 id right-aligned, 70-79
birth date)."""

from __future__ import annotations

from zdb.formats.trf.columns import fit, number, points, static_part


def test_text_is_left_numbers_and_points_right() -> None:
    assert fit("ab", 4) == "ab  "
    assert fit("abcdef", 4) == "abcd"
    assert fit("ab", 4, right=True) == "  ab"
    assert number(7, 4) == "   7"
    assert [points(3.0), points(11.5), points(2.25), points(None)] == [" 3.0", "11.5", "2.25", "    "]


def test_the_static_part_stands_at_fides_columns() -> None:
    line = static_part(
        "001",
        12,
        sex="w",
        title="WFM",
        name="Vogel, Petra",
        rating=2050,
        origin="GER",
        identifier="4628716",
        birth="1990/05/17",
    )
    assert len(line) == 79
    assert line[0:3] == "001" and line[4:8] == "  12" and line[9] == "w" and line[10:13] == "WFM"
    assert line[14:47] == "Vogel, Petra".ljust(33) and line[48:52] == "2050" and line[53:56] == "GER"
    assert line[57:68] == "    4628716" and line[69:79] == "1990/05/17"
    titled = static_part("001", 1, sex="m", title="g", name="A", rating=None, origin=None, identifier="", birth="")
    assert titled[10:13] == "  g" and titled[48:52] == "    "
