"""The time line: which events exist and in which order they are evaluated (spec §2).

Submissions (tournaments, corrections, withdrawals, start ratings) arrive in any order; the
time line is what they amount to: the latest version of every tournament not withdrawn, every
start rating, and the conversion event(s), sorted by the order key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from zdb.rating.model import InvalidInputError, PlayerId, Tournament
from zdb.rating.rulesets import CONVERSIONS, Conversion

__all__ = [
    "Event",
    "OrderKey",
    "StartRating",
    "Submission",
    "Withdrawal",
    "build_timeline",
    "event_date",
    "event_name",
    "order_key",
    "timeline_changes",
]


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A referee withdraws a tournament: it leaves the time line (spec §2)."""

    tournament: int


@dataclass(frozen=True, slots=True)
class StartRating:
    """Federation staff give a player without a DWZ a rating and index at a date (spec §2);
    ordered before every tournament ending that day. A player who obtains a DWZ this way
    loses his stored leftover games, as with a first rating (spec §13.9) [decision]."""

    pid: PlayerId
    date: date
    rating: int
    index: int


Event = Tournament | Conversion | StartRating
Submission = Tournament | Withdrawal | StartRating

#: (date, phase, text, id): phase 0 start ratings, 1 tournaments, 2 conversions (spec §2, §8)
OrderKey = tuple[date, int, str, int]


def order_key(event: Event) -> OrderKey:
    """spec §2: (end_date, acronym, id) for tournaments; start ratings before and the conversion
    after every tournament ending on their date."""
    if isinstance(event, Tournament):
        return (event.end_date, 1, event.acronym, event.id)
    if isinstance(event, StartRating):
        return (event.date, 0, event.pid, 0)
    return (event.date, 2, event.name, 0)


def event_name(event: Event) -> int | str:
    """How the event is named in orders and histories (a tournament by its id)."""
    if isinstance(event, Tournament):
        return event.id
    if isinstance(event, StartRating):
        return f"start-rating:{event.pid}"
    return event.name


def event_date(event: Event) -> date:
    if isinstance(event, Tournament):
        return event.end_date
    return event.date


def build_timeline(
    submissions: Iterable[Submission], conversions: Sequence[Conversion] = CONVERSIONS
) -> tuple[Event, ...]:
    """The ordered time line a sequence of submissions amounts to.

    A tournament id seen again replaces the earlier version (a correction); a withdrawal
    removes it; withdrawing an unknown id and reusing a withdrawn id are errors (spec §2). A
    second start rating for the same player and date replaces the first.
    """
    tournaments: dict[int, Tournament] = {}
    withdrawn: set[int] = set()
    starts: dict[tuple[PlayerId, date], StartRating] = {}
    for k, submission in enumerate(submissions):
        if isinstance(submission, Withdrawal):
            if submission.tournament not in tournaments:
                state = "was already withdrawn" if submission.tournament in withdrawn else "does not exist"
                raise InvalidInputError(f"events[{k}].withdraw", f"tournament {submission.tournament} {state}")
            del tournaments[submission.tournament]
            withdrawn.add(submission.tournament)
        elif isinstance(submission, StartRating):
            starts[(submission.pid, submission.date)] = submission
        else:
            if submission.id in withdrawn:
                raise InvalidInputError(
                    f"events[{k}].id", f"tournament id {submission.id} was withdrawn and is never reused"
                )
            tournaments[submission.id] = submission
    events: list[Event] = [*tournaments.values(), *starts.values(), *conversions]
    return tuple(sorted(events, key=order_key))


def timeline_changes(old: Sequence[Event], new: Sequence[Event]) -> dict[OrderKey, Event | None]:
    """What turns time line ``old`` into ``new``: per order key, the new event or ``None`` for an
    event that left its place (withdrawn, or moved by a correction)."""
    before = {order_key(event): event for event in old}
    after = {order_key(event): event for event in new}
    changes: dict[OrderKey, Event | None] = dict.fromkeys(before.keys() - after.keys())
    for key, event in after.items():
        if before.get(key) != event:
            changes[key] = event
    return changes
