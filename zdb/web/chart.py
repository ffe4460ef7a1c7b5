"""The rating chart of the player card, laid out in Python and drawn as inline SVG by the
template: it shows without JavaScript, and each point is a link to its tournament.

Pure geometry: the history entries that set a rating become points on a line over time;
tournaments, start ratings and the 2026 conversion are told apart by their marks, and the
conversion also gets a vertical line with its label on the side where the box has room: the
label never runs past the view box's edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from zdb.ratings.card_schemas import HistoryEntry

__all__ = ["Chart", "ChartPoint", "Marker", "rating_chart"]

WIDTH, HEIGHT = 640, 260
#: room for the rating labels left and the year labels below, large enough for the bigger
#: text of a phone (style.css)
LEFT, RIGHT, TOP, BOTTOM = 64, 24, 16, 32
#: the rating axis is rounded out to multiples of this
STEP = 50


@dataclass(frozen=True, slots=True)
class ChartPoint:
    x: float
    y: float
    entry: HistoryEntry


@dataclass(frozen=True, slots=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True, slots=True)
class Marker:
    """A vertical line with its label, the label right of the line, or left of it (``anchor``
    ``end``) when the line stands in the right half of the plot."""

    point: ChartPoint
    label_x: float
    anchor: str


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    left: int
    top: int
    bottom: float  # the y of the time axis
    right: float  # the x where the plot ends
    points: tuple[ChartPoint, ...]
    line: str  # the polyline's points attribute
    rating_ticks: tuple[Tick, ...]
    year_ticks: tuple[Tick, ...]
    conversions: tuple[Marker, ...]


def _rated(history: Sequence[HistoryEntry]) -> list[HistoryEntry]:
    return [entry for entry in history if entry.new_rating is not None]


def _marker(point: ChartPoint) -> Marker:
    if point.x > LEFT + (WIDTH - LEFT - RIGHT) / 2:
        return Marker(point, round(point.x - 4, 1), "end")
    return Marker(point, round(point.x + 4, 1), "start")


def rating_chart(history: Sequence[HistoryEntry]) -> Chart | None:
    """The chart of every rating the history set; None when it set none."""
    entries = _rated(history)
    if not entries:
        return None
    ratings = [entry.new_rating for entry in entries if entry.new_rating is not None]
    low = (min(ratings) // STEP) * STEP
    high = -(-max(ratings) // STEP) * STEP
    if high == low:
        low, high = low - STEP, high + STEP
    first, last = entries[0].date.toordinal(), entries[-1].date.toordinal()
    span = max(last - first, 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(day: date) -> float:
        if last == first:
            return LEFT + plot_w / 2
        return round(LEFT + (day.toordinal() - first) / span * plot_w, 1)

    def y_of(rating: int) -> float:
        return round(TOP + (high - rating) / (high - low) * plot_h, 1)

    points = tuple(ChartPoint(x_of(e.date), y_of(e.new_rating), e) for e in entries if e.new_rating is not None)
    step = STEP * max(1, -(-(high - low) // (STEP * 5)))
    rating_ticks = tuple(Tick(y_of(r), str(r)) for r in range(int(low), int(high) + 1, int(step)))
    years = range(entries[0].date.year + 1, entries[-1].date.year + 1)
    every = max(1, -(-len(years) // 8))
    year_ticks = tuple(Tick(x_of(date(y, 1, 1)), str(y)) for y in years[::every])
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        top=TOP,
        bottom=TOP + plot_h,
        right=LEFT + plot_w,
        points=points,
        line=" ".join(f"{p.x},{p.y}" for p in points),
        rating_ticks=rating_ticks,
        year_ticks=year_ticks,
        conversions=tuple(_marker(p) for p in points if p.entry.kind == "conversion"),
    )
