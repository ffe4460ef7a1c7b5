"""Conversions between rating scales, each the approximation seed 002 gives it as.

seed 002, "Beziehung zwischen den Wertungszahlen" ("Man kann Näherungsformeln für die
Umrechnungen angeben"):

- an Elo is usually about 100 points more than a DWZ: DWZ = Elo - 100;
- Elo = 2840 - 8 * Ingo (the formula of Cherubim, Hollack and Elo);
- the British BCF grade: Elo = 600 + 8 * BCF.

Every conversion passes through the Elo scale and is labelled approximate, with the formulas
it used, so that no converted number can be mistaken for a rating.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

__all__ = ["Approximation", "Scale", "convert", "equivalents"]


class Scale(Enum):
    DWZ = "DWZ"
    ELO = "Elo"
    INGO = "Ingo"
    BCF = "BCF"


@dataclass(frozen=True, slots=True)
class _Formula:
    """Elo = offset + factor * value, between one scale and Elo."""

    offset: int
    factor: int
    text: str


_TO_ELO = {
    Scale.DWZ: _Formula(100, 1, "Elo ≈ DWZ + 100"),
    Scale.INGO: _Formula(2840, -8, "Elo ≈ 2840 - 8 * Ingo"),
    Scale.BCF: _Formula(600, 8, "Elo ≈ 600 + 8 * BCF"),
}
_FROM_ELO = {
    Scale.DWZ: "DWZ ≈ Elo - 100",
    Scale.INGO: "Ingo ≈ (2840 - Elo) / 8",
    Scale.BCF: "BCF ≈ (Elo - 600) / 8",
}
SOURCE = "seed 002, approximation"


@dataclass(frozen=True, slots=True)
class Approximation:
    """A value on another scale; never a rating, always an approximation."""

    value: Fraction
    scale: Scale
    formulas: tuple[str, ...]
    source: str = SOURCE
    approximate: bool = True


def convert(value: Fraction | int, source: Scale, target: Scale) -> Approximation:
    value = Fraction(value)
    formulas: list[str] = []
    elo = value
    if source is not Scale.ELO:
        formula = _TO_ELO[source]
        elo = formula.offset + formula.factor * value
        formulas.append(formula.text)
    result = elo
    if target is not Scale.ELO:
        formula = _TO_ELO[target]
        result = (elo - formula.offset) / formula.factor
        formulas.append(_FROM_ELO[target])
    return Approximation(result, target, tuple(formulas))


def equivalents(value: Fraction | int, source: Scale) -> tuple[Approximation, ...]:
    """``value`` on every other scale."""
    return tuple(convert(value, source, target) for target in Scale if target is not source)
