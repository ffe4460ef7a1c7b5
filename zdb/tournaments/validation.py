"""Checks a submitted tournament must pass before anything is stored, kept pure (no database).

Why a module of its own: a referee's upload is answered with one complete list of what is wrong,
so every check here collects ``ValidationProblem`` s instead of stopping at the first; the intake
(``zdb.submissions.intake``) adds what only the database can tell (player matching, federations)
and raises once. The time control rules are those of spec §3; the notations read are listed in
``zdb.formats.time_control``. The texts say what the rule requires, in the referee's words; the
rules they apply are cited in the comments.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from zdb.errors import ValidationProblem
from zdb.formats.time_control import Period, parse_time_control, time_control_minutes
from zdb.messages import Message
from zdb.tournaments.models import RESULT_CODES

__all__ = [
    "KINDS",
    "Period",
    "check_dates",
    "check_kind",
    "check_pairings",
    "check_time_control",
    "parse_time_control",
    "time_control_minutes",
]

KINDS = ("individual", "team_season")
#: spec §3: minutes every player must get per game (U12 youth tournaments: 60)
REQUIRED_MINUTES, REQUIRED_MINUTES_U12 = 90, 60
#: spec §3: minutes the first of several periods must give (U12: 40), moves 40 where unstated
FIRST_PERIOD_MINUTES, FIRST_PERIOD_MINUTES_U12 = 60, 40
DEFAULT_MOVES = 40


def _first_period_minutes(period: Period) -> float:
    """spec §3: the first period's base time plus its increment over its moves (40 where unstated)."""
    return (period.seconds + period.increment * (period.moves or DEFAULT_MOVES)) / 60


def _minutes(value: float) -> str:
    return f"{value:g}"


def check_time_control(text: str | None, *, youth_u12: bool, place: str = "time_control") -> list[ValidationProblem]:
    """spec §3: a tournament is rated only if its time control gives every player 90 minutes
    (U12: 60), and with several periods its first period 60 minutes (U12: 40)."""
    required = REQUIRED_MINUTES_U12 if youth_u12 else REQUIRED_MINUTES
    if text is None or not text.strip():
        # spec §3: only tournaments with a qualifying time control are rated
        return [
            ValidationProblem(
                place,
                Message(
                    "is required: a tournament is rated only when every player has at least {required} minutes",
                    required=required,
                ),
            )
        ]
    periods = parse_time_control(text)
    if periods is None:
        return [
            ValidationProblem(
                place,
                Message(
                    "cannot read the time control {text!r}: write it as 90+30 (minutes + seconds per move), "
                    "40/120+30 or PGN 40/5400+30:1800+30",
                    text=text,
                ),
            )
        ]
    problems = []
    minutes = time_control_minutes(periods)
    if minutes < required:  # spec §3: base times + 60 × increment, at least 90 (U12: 60)
        values = {"text": text, "minutes": _minutes(minutes), "required": required}
        if youth_u12:
            message = Message(
                "{text!r} gives {minutes} minutes per player (base times + 60 × increment); "
                "a rated U12 youth tournament needs at least {required} minutes",
                **values,
            )
        else:
            message = Message(
                "{text!r} gives {minutes} minutes per player (base times + 60 × increment); "
                "a rated tournament needs at least {required} minutes",
                **values,
            )
        problems.append(ValidationProblem(place, message))
    if len(periods) > 1:  # spec §3: the first of several periods, at least 60 (U12: 40) minutes
        first_required = FIRST_PERIOD_MINUTES_U12 if youth_u12 else FIRST_PERIOD_MINUTES
        first = _first_period_minutes(periods[0])
        if first < first_required:
            values = {"text": text, "minutes": _minutes(first), "required": first_required}
            if youth_u12:
                message = Message(
                    "the first period of {text!r} gives {minutes} minutes (base time + increment × its moves); "
                    "in a U12 youth tournament it needs at least {required} minutes",
                    **values,
                )
            else:
                message = Message(
                    "the first period of {text!r} gives {minutes} minutes (base time + increment × its moves); "
                    "it needs at least {required} minutes",
                    **values,
                )
            problems.append(ValidationProblem(place, message))
    return problems


#: the earliest end date taken: an earlier one is a typing error (and 0001-01-01 would be
#: the time line's own "before everything" mark)
EARLIEST_END = date(1900, 1, 1)


def check_dates(
    start_date: date | None,
    end_date: date,
    round_dates: Sequence[date],
    *,
    rounds: int = 0,
    today: date | None = None,
) -> list[ValidationProblem]:
    """The end not before the start; every round date inside the tournament, in order; a date
    for each round played when round dates are given. With ``today``: the tournament has
    ended (only finished tournaments are rated; a day's grace for the time zones) and not
    before 1900."""
    problems = []
    if today is not None and end_date > today + timedelta(days=1):
        problems.append(
            ValidationProblem(
                "end_date", Message("{end} lies in the future: only finished tournaments are rated", end=end_date)
            )
        )
    if today is not None and end_date < EARLIEST_END:
        problems.append(ValidationProblem("end_date", Message("{end} lies before 1900", end=end_date)))
    if start_date is not None and start_date > end_date:
        problems.append(
            ValidationProblem(
                "end_date", Message("{end} lies before the start date {start}", end=end_date, start=start_date)
            )
        )
    first = start_date or date.min
    for k, day in enumerate(round_dates):
        if not first <= day <= end_date:
            problems.append(
                ValidationProblem(
                    f"round_dates[{k}]",
                    Message(
                        "{day} lies outside the tournament ({start} to {end})", day=day, start=start_date, end=end_date
                    ),
                )
            )
        if k and day < round_dates[k - 1]:
            problems.append(
                ValidationProblem(f"round_dates[{k}]", Message("{day} lies before the previous round's date", day=day))
            )
    if round_dates and rounds > len(round_dates):
        problems.append(
            ValidationProblem(
                "round_dates",
                Message(
                    "{count} dates given, but games are paired in {rounds} rounds",
                    count=len(round_dates),
                    rounds=rounds,
                ),
            )
        )
    return problems


def check_kind(kind: str) -> list[ValidationProblem]:
    """spec §3: a team season (one league season) is one tournament; nothing else is known."""
    if kind not in KINDS:
        return [
            ValidationProblem(
                "kind", Message("must be one of {kinds}, got {kind!r}", kinds=", ".join(KINDS), kind=kind)
            )
        ]
    return []


def check_pairings(
    players: int,
    games: Sequence[tuple[int | None, int, int, str]],
    *,
    place: str = "games",
    numbers: Sequence[int] | None = None,
) -> list[ValidationProblem]:
    """Games given as (round, white, black, result) with 1-based start numbers: both in the
    list, not the same, a known result code, and nobody paired twice in one round. ``numbers``:
    each game's number in the submission, where some were left out (default: their order)."""
    problems = []
    seen: dict[tuple[int, int], int] = {}
    for k, (round_no, white, black, result) in enumerate(games):
        if numbers is not None:
            k = numbers[k]  # noqa: PLW2901 - the game's own number names it
        where = f"{place}[{k}]"
        for side, start_no in (("white", white), ("black", black)):
            if not 1 <= start_no <= players:
                problems.append(
                    ValidationProblem(
                        f"{where}.{side}", Message("no player has the start number {number}", number=start_no)
                    )
                )
        if white == black:
            problems.append(ValidationProblem(where, Message("player {player} is paired with himself", player=white)))
        if result not in RESULT_CODES:
            problems.append(
                ValidationProblem(
                    f"{where}.result",
                    Message("unknown result {result!r}; one of {codes}", result=result, codes=", ".join(RESULT_CODES)),
                )
            )
        if round_no is None:
            continue
        for start_no in {white, black}:
            earlier = seen.setdefault((round_no, start_no), k)
            if earlier != k:
                problems.append(
                    ValidationProblem(
                        where,
                        Message(
                            "player {player} plays twice in round {round} (also in {place}[{earlier}])",
                            player=start_no,
                            round=round_no,
                            place=place,
                            earlier=earlier,
                        ),
                    )
                )
    return problems
