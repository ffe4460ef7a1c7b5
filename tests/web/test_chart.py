"""The rating chart's geometry: every label inside the view box, whichever side of the plot the
2026 conversion stands on (the label once ran past the right edge and read "Ur")."""

from __future__ import annotations

from datetime import date

import pytest

from zdb.ratings.card_schemas import HistoryEntry
from zdb.web.chart import LEFT, WIDTH, rating_chart

#: the widest the label can be: "Umstellung 2026" at the phone's font size (style.css), with room
LABEL_WIDTH = 15 * 19 * 0.62


def _entry(kind: str, day: date, rating: int) -> HistoryEntry:
    return HistoryEntry(
        kind=kind,
        date=day,
        event="X",
        tournament_id=1 if kind == "tournament" else None,
        tournament_version=None,
        tournament_name=None,
        old_rating=None,
        old_index=None,
        new_rating=rating,
        new_index=1,
        stored=None,
        evaluation=None,
    )


@pytest.mark.parametrize("conversion_year", [2017, 2021, 2026])
def test_the_conversion_label_stays_inside_the_box(conversion_year: int) -> None:
    history = [
        _entry("start_rating", date(2016, 1, 1), 1500),
        _entry("conversion", date(conversion_year, 6, 8), 1550),
        _entry("tournament", date(2026, 6, 9), 1560),
    ]
    chart = rating_chart(history)
    assert chart is not None
    (marker,) = chart.conversions
    if marker.anchor == "end":
        assert marker.label_x < marker.point.x and marker.label_x - LABEL_WIDTH >= 0
    else:
        assert marker.label_x > marker.point.x and marker.label_x + LABEL_WIDTH <= WIDTH
    if conversion_year in (2017, 2026):  # near the left edge it reads rightwards, near the right leftwards
        assert marker.anchor == ("end" if conversion_year == 2026 else "start")


def test_year_and_rating_labels_have_room() -> None:
    chart = rating_chart([_entry("start_rating", date(2016, 1, 1), 900), _entry("tournament", date(2026, 1, 2), 2450)])
    assert chart is not None
    assert LEFT - 6 - 4 * 19 * 0.62 >= 0  # "2450" right-aligned left of the plot
    assert all(tick.position + 2 * 19 * 0.62 <= WIDTH for tick in chart.year_ticks)
