"""``zdb simulate``: a player's new rating for every score he could make, in every system asked.

The player's question before or during a tournament, "what do I need?" (seed 003's
Wertungszahl-Simulator): a table of scores 0 to n in half points against the new DWZ, FIDE Elo,
FCR or Ingo number, JSON with ``--json``. Option values are checked here, so that a bad one
ends with exit status 2 and one line naming the option.
"""

from __future__ import annotations

import json
import re
from datetime import date
from fractions import Fraction

import click

from zdb.cli.errors import fail, reported_input_errors
from zdb.cli.tables import format_table
from zdb.rating import RULE_SETS, RuleSet
from zdb.rating.rounding import round_half_up
from zdb.simulator import (
    DEFAULT_SYSTEMS,
    FIDE_RULE_SETS,
    Approximation,
    FideRuleSet,
    Scale,
    Simulation,
    SimulationRequest,
    System,
    SystemResult,
    dump_simulation,
    equivalents,
    simulate,
)

__all__ = ["register"]

_SYSTEMS = {system.value: system for system in System}
_DWZ_RULES = {rule_set.name: rule_set for rule_set in RULE_SETS}
_FIDE_RULES = {rule_set.name: rule_set for rule_set in FIDE_RULE_SETS}
_SEPARATORS = re.compile(r"[,;\s]+")


def _whole(value: str | None, option: str, minimum: int) -> int | None:
    if value is None:
        return None
    try:
        number = int(value.strip())
    except ValueError:
        fail(option, f"expected a whole number, got {value!r}")
    if number < minimum:
        fail(option, f"must be at least {minimum}, got {number}")
    return number


def _opponents(value: str | None) -> tuple[int, ...]:
    if value is None or not value.strip():
        fail("--opponents", "missing: give the opponents' ratings, e.g. --opponents 1650,1720,1580")
    ratings = []
    for k, item in enumerate(part for part in _SEPARATORS.split(value.strip()) if part):
        try:
            rating = int(item)
        except ValueError:
            fail("--opponents", f"item {k + 1} is not a whole number: {item!r}")
        if rating <= 0:
            fail("--opponents", f"item {k + 1} must be positive, got {rating}")
        ratings.append(rating)
    return tuple(ratings)


def _end_date(value: str | None) -> date:
    if value is None:
        return date.today()
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        fail("--end-date", f"expected a date YYYY-MM-DD, got {value!r}")


def _systems(values: tuple[str, ...]) -> tuple[System, ...]:
    names = [name for value in values for name in _SEPARATORS.split(value.strip().lower()) if name]
    if not names:
        return DEFAULT_SYSTEMS
    unknown = [name for name in names if name not in _SYSTEMS]
    if unknown:
        fail("--system", f"unknown system {unknown[0]!r} (choose from {', '.join(_SYSTEMS)})")
    chosen = tuple(dict.fromkeys(_SYSTEMS[name] for name in names))
    if System.INGO in chosen and len(chosen) > 1:
        fail("--system", "ingo reads the ratings as Ingo numbers (lower is better): simulate it on its own")
    return chosen


def _dwz_rule_set(value: str | None) -> RuleSet | None:
    if value is not None and value not in _DWZ_RULES:
        fail("--dwz-rules", f"unknown rule set {value!r} (choose from {', '.join(_DWZ_RULES)})")
    return None if value is None else _DWZ_RULES[value]


def _fide_rule_set(value: str | None) -> FideRuleSet | None:
    if value is not None and value not in _FIDE_RULES:
        fail("--fide-rules", f"unknown rule set {value!r} (choose from {', '.join(_FIDE_RULES)})")
    return None if value is None else _FIDE_RULES[value]


def _number(value: Fraction | float) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _signed(change: int) -> str:
    return f"{change:+d}" if change else "0"


def _performance_label(result: SystemResult) -> str:
    return "Rh" if result.system is System.DWZ else "Perf"


def simulation_table(simulation: Simulation, approximations: tuple[Approximation, ...]) -> str:
    request = simulation.request
    header = ["Score"]
    right = [True]
    for result in simulation.results:
        header += [result.scale, "±"]
        right += [True, True]
        if result.coefficient:
            header.append(result.coefficient)
            right.append(True)
        if any(outcome.performance is not None for outcome in result.outcomes):
            header.append(_performance_label(result))
            right.append(True)
    notes_wanted = any(outcome.notes for result in simulation.results for outcome in result.outcomes)
    if notes_wanted:
        header.append("Notes")
        right.append(False)
    rows = []
    for position, score in enumerate(simulation.results[0].outcomes):
        row = [_number(score.score)]
        notes: list[str] = []
        for result in simulation.results:
            outcome = result.outcomes[position]
            row += [str(outcome.rating), _signed(outcome.change)]
            if result.coefficient:
                row.append("" if outcome.coefficient is None else _number(outcome.coefficient))
            if any(item.performance is not None for item in result.outcomes):
                row.append("" if outcome.performance is None else str(round_half_up(outcome.performance)))
            notes += [f"{result.scale}: {note}" for note in outcome.notes]
        if notes_wanted:
            row.append("; ".join(notes))
        rows.append(row)
    age = "" if request.age is None else f", age {request.age}"
    with_index = any(result.system in (System.DWZ, System.FCR) for result in simulation.results)
    player = f"{request.rating}-{request.index}" if with_index else str(request.rating)
    average = _number(Fraction(sum(request.opponents), request.games))
    opponents = "1 opponent" if request.games == 1 else f"{request.games} opponents"
    lines = [
        f"Player {player}{age}; {opponents} (average {average}); tournament ending {request.end_date.isoformat()}",
    ]
    for result in simulation.results:
        expected = "" if result.expected is None else f", expected points {result.expected:.3f}"
        direction = " (lower is better)" if result.lower_is_better else ""
        lines.append(f"{result.scale}: rule set {result.rule_set}{expected}{direction}")
    text = "\n".join(lines) + "\n\n" + format_table(header, rows, right)
    if approximations:
        items = [f"{item.scale.value} ≈ {_number(item.value)} ({'; '.join(item.formulas)})" for item in approximations]
        text += f"\n\nApproximate equivalents of {request.rating} (approximations only): " + ", ".join(items)
    return text


def _equivalent_scale(systems: tuple[System, ...]) -> Scale | None:
    if systems == (System.INGO,):
        return Scale.INGO
    if System.DWZ in systems:
        return Scale.DWZ
    if System.FIDE in systems:
        return Scale.ELO
    return None  # the seeds give no conversion for the FCR


@click.command("simulate")
@click.option("--rating", "-r", metavar="N", help="The player's rating (on each system's own scale).")
@click.option("--opponents", "-o", metavar="LIST", help="The opponents' ratings, separated by commas or spaces.")
@click.option(
    "--index", "-i", metavar="N", help="The player's DWZ index (Wertungsindex) before the tournament. [default: 1]"
)
@click.option("--age", metavar="YEARS", help="The player's age (year of the end date minus the birth year).")
@click.option("--birth-year", metavar="YEAR", help="The player's birth year (instead of --age).")
@click.option(
    "--games", "games_played", metavar="N", help="Rated games played before the tournament (FIDE K). [default: 30+]"
)
@click.option("--reached-2400", is_flag=True, help="His published FIDE rating was 2400 or more at some time.")
@click.option(
    "--end-date", metavar="DATE", help="The tournament's last day, YYYY-MM-DD; chooses the rule sets. [default: today]"
)
@click.option(
    "--system",
    "-s",
    "systems",
    metavar="NAME",
    multiple=True,
    help="dwz, fide, fcr or ingo; repeat or separate by commas. [default: dwz, fide, fcr]",
)
@click.option("--dwz-rules", metavar="NAME", help=f"Use this DWZ rule set whatever the date: {', '.join(_DWZ_RULES)}.")
@click.option(
    "--fide-rules", metavar="NAME", help=f"Use this FIDE rule set whatever the date: {', '.join(_FIDE_RULES)}."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def simulate_command(
    *,
    rating: str | None,
    opponents: str | None,
    index: str | None,
    age: str | None,
    birth_year: str | None,
    games_played: str | None,
    reached_2400: bool,
    end_date: str | None,
    systems: tuple[str, ...],
    dwz_rules: str | None,
    fide_rules: str | None,
    as_json: bool,
) -> None:
    """A player's new rating for every score from 0 to n in half points: DWZ, FIDE Elo, FCR (the
    Freechess rating of the online server Freechess) and the historical Ingo number.

    Example: zdb simulate --rating 1896 --index 21 --age 26 --opponents 1432,1806,1808,1877,1772
    --end-date 2020-05-01
    """
    player_rating = _whole(rating, "--rating", 1)
    if player_rating is None:
        fail("--rating", "missing: give the player's rating, e.g. --rating 1650")
    ratings = _opponents(opponents)
    when = _end_date(end_date)
    if age is not None and birth_year is not None:
        fail("--age", "give --age or --birth-year, not both")
    years = _whole(age, "--age", 0)
    born = when.year - years if years is not None else _whole(birth_year, "--birth-year", 1)
    if born is not None and born > when.year:
        fail("--birth-year", f"{born} is after the tournament's end ({when.isoformat()})")
    player_index = _whole(index, "--index", 0)
    chosen = _systems(systems)
    with reported_input_errors("zdb simulate"):
        request = SimulationRequest(
            rating=player_rating,
            opponents=ratings,
            end_date=when,
            index=1 if player_index is None else player_index,
            birth_year=born,
            games_played=_whole(games_played, "--games", 0),
            reached_2400=reached_2400,
        )
        simulation = simulate(
            request, chosen, dwz_rules=_dwz_rule_set(dwz_rules), fide_rules=_fide_rule_set(fide_rules)
        )
    scale = _equivalent_scale(chosen)
    approximations = () if scale is None else equivalents(player_rating, scale)
    if as_json:
        click.echo(json.dumps(dump_simulation(simulation, approximations), ensure_ascii=False, indent=2))
    else:
        click.echo(simulation_table(simulation, approximations))


def register(group: click.Group) -> None:
    group.add_command(simulate_command)
