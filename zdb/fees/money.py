"""Money as exact decimals: amounts are kept in whole cents and shown as decimals with two places
(never a float on the way)."""

from __future__ import annotations

from decimal import Decimal

__all__ = ["cents", "decimal", "german"]

_CENT = Decimal("0.01")


def cents(amount: Decimal) -> int:
    """Whole cents of an amount with at most two places (the schemas refuse more)."""
    scaled = amount * 100
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{amount} has more than two decimal places")
    return int(scaled)


def decimal(amount_cents: int) -> Decimal:
    return (Decimal(amount_cents) / 100).quantize(_CENT)


def german(amount_cents: int) -> str:
    """``1234567`` → ``12.345,67`` (the bookkeeping's and the pages' German notation)."""
    sign = "-" if amount_cents < 0 else ""
    whole, part = divmod(abs(amount_cents), 100)
    return f"{sign}{whole:,}".replace(",", ".") + f",{part:02d}"
