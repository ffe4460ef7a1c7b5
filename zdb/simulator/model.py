"""What the rating simulator is asked and what it answers, as frozen values.

A player (rating, index, birth year, games played) meets a list of opponents in a tournament
ending on a given date; for every score he could make, 0 to n in half points, each rating
system gives his new rating (seed 003: "Für jede mögliche Punktzahl werden die Änderung der
Wertungszahl berechnet und ausgegeben").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import Enum
from fractions import Fraction

from zdb.rating import InvalidInputError

__all__ = ["Outcome", "Simulation", "SimulationRequest", "System", "SystemResult", "possible_scores"]


class System(Enum):
    DWZ = "dwz"  # the federation's rating, through the rating engine (dwz-rules.md)
    FIDE = "fide"  # FIDE Elo (FIDE Handbook B.02; seed 003 for the historical rule set)
    FCR = "fcr"  # Freechess rating (seed 003)
    INGO = "ingo"  # the historical Ingo system (seed 002); lower is better


#: No scale the simulator knows goes near this; beyond it the systems' formulas overflow.
MAX_RATING = 5000


@dataclass(frozen=True, slots=True)
class SimulationRequest:
    """The player and his opponents. ``rating`` and ``opponents`` are read on each system's own
    scale (seed 003's simulator asks for one list of numbers and the system to apply).

    ``games_played`` counts the player's rated games before the tournament (FIDE's K);
    None means "at least 30". ``reached_2400``: his published FIDE rating was 2400 or more at
    some time (FIDE B.02 art. 8.3.3).
    """

    rating: int
    opponents: tuple[int, ...]
    end_date: date
    index: int = 1
    birth_year: int | None = None
    games_played: int | None = None
    reached_2400: bool = False

    def __post_init__(self) -> None:
        if not self.opponents:
            raise InvalidInputError("opponents", "at least one opponent is needed")
        if not 0 < self.rating <= MAX_RATING:
            raise InvalidInputError("rating", f"must lie between 1 and {MAX_RATING}, got {self.rating}")
        for k, opponent in enumerate(self.opponents):
            if not 0 < opponent <= MAX_RATING:
                raise InvalidInputError(f"opponents[{k}]", f"must lie between 1 and {MAX_RATING}, got {opponent}")
        if self.index < 0:
            raise InvalidInputError("index", f"must not be negative, got {self.index}")
        if self.games_played is not None and self.games_played < 0:
            raise InvalidInputError("games_played", f"must not be negative, got {self.games_played}")
        if self.birth_year is not None and self.birth_year > self.end_date.year:
            raise InvalidInputError("birth_year", f"{self.birth_year} is after the tournament's end")

    @property
    def age(self) -> int | None:
        """Year of the end date minus the birth year, as the DWZ rules count it (dwz-rules.md §6)."""
        return None if self.birth_year is None else self.end_date.year - self.birth_year

    @property
    def games(self) -> int:
        return len(self.opponents)


def possible_scores(games: int) -> tuple[Fraction, ...]:
    """0, 1/2, 1, ..., ``games``: every score a player can make in ``games`` games."""
    return tuple(Fraction(k, 2) for k in range(2 * games + 1))


@dataclass(frozen=True, slots=True)
class Outcome:
    """One system's answer for one score."""

    score: Fraction
    rating: int  # the new rating
    change: int
    coefficient: Fraction | None = None  # E (DWZ classic, FCR) or K (DWZ 2026, FIDE)
    performance: Fraction | None = None  # DWZ Rh, Ingo performance
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SystemResult:
    """One system's outcomes for every possible score, with the rule set it applied."""

    system: System
    rule_set: str
    scale: str
    coefficient: str  # what ``Outcome.coefficient`` is: "E", "K" or ""
    expected: float | None  # expected points against these opponents
    lower_is_better: bool
    outcomes: tuple[Outcome, ...]

    def at(self, score: Fraction) -> Outcome:
        for outcome in self.outcomes:
            if outcome.score == score:
                return outcome
        raise KeyError(score)


@dataclass(frozen=True, slots=True)
class Simulation:
    request: SimulationRequest
    results: tuple[SystemResult, ...]
