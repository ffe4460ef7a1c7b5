"""The fees of one tournament from its basis, worked by hand from the federation's published
rules for FIDE events (2026, issue 37): 3 € per player of a Swiss or team tournament; a round
robin per player by the average Elo (below 2230: 3 €, 2230–2379: 6 €, 2380–2599: 12 €,
2600–2699: 20 €, 2700 and above: 30 €); 60 € for results sent from the 8th day after the end."""

from __future__ import annotations

from datetime import date

import pytest

from zdb.fees.computation import Basis, Terms, average_elo, fee_lines
from zdb.fees.money import cents, decimal, german
from zdb.fide.deadlines import days_late, registration_deadline, report_due

FIDE_2026 = Terms(
    dwz_tournament=0,
    dwz_game=0,
    dwz_non_member=0,
    fide_player=300,
    fide_round_robin=((0, 300), (2230, 600), (2380, 1200), (2600, 2000), (2700, 3000)),
    fide_late=6000,
)


def _total(basis: Basis, terms: Terms = FIDE_2026) -> int:
    return sum(line.amount_cents for line in fee_lines(basis, terms))


@pytest.mark.parametrize(
    ("average", "per_player"),
    [
        (None, 300),
        (2229, 300),
        (2230, 600),
        (2379, 600),
        (2380, 1200),
        (2599, 1200),
        (2600, 2000),
        (2699, 2000),
        (2700, 3000),
        (2850, 3000),
    ],
)
def test_a_round_robin_pays_by_the_tier_of_its_average(average: int | None, per_player: int) -> None:
    basis = Basis(players=10, games=45, non_members=0, fide_system="round_robin", average_elo=average, days_late=0)
    assert _total(basis) == 10 * per_player


def test_swiss_and_team_pay_three_euros_a_player() -> None:
    for system in ("swiss", "team"):
        basis = Basis(players=57, games=200, non_members=3, fide_system=system, average_elo=None, days_late=0)
        assert _total(basis) == 17100  # 57 x 3.00 = 171.00


def test_late_results_cost_sixty_euros_from_the_eighth_day() -> None:
    end = date(2026, 11, 8)
    assert report_due(end) == date(2026, 11, 15)
    assert days_late(end, date(2026, 11, 15)) == 0  # the 7th day: on time
    assert days_late(end, date(2026, 11, 16)) == 1  # the 8th day: late
    on_time = Basis(players=8, games=28, non_members=0, fide_system="swiss", average_elo=None, days_late=0)
    late = Basis(players=8, games=28, non_members=0, fide_system="swiss", average_elo=None, days_late=1)
    assert (_total(on_time), _total(late)) == (2400, 2400 + 6000)
    national = Basis(players=8, games=28, non_members=0, fide_system=None, average_elo=None, days_late=5)
    assert _total(national) == 0  # the late fee is FIDE's: not for a national tournament


def test_national_fees_per_tournament_game_and_non_member() -> None:
    terms = Terms(1000, 50, 200, 300, ((0, 300),), 6000)
    basis = Basis(players=4, games=6, non_members=1, fide_system=None, average_elo=None, days_late=None)
    kinds = {(d.kind, d.quantity, d.unit_cents) for d in fee_lines(basis, terms)}
    assert kinds == {("dwz_tournament", 1, 1000), ("dwz_game", 6, 50), ("dwz_non_member", 1, 200)}
    assert _total(basis, terms) == 1500  # 10.00 + 6 x 0.50 + 1 x 2.00


def test_the_average_rounds_half_up_and_registration_is_due_six_weeks_ahead() -> None:
    assert average_elo([2229, 2230]) == 2230
    assert average_elo([2229, 2229, 2230]) == 2229
    assert average_elo([]) is None
    assert registration_deadline(date(2027, 3, 1)) == date(2027, 1, 18)


def test_money_is_exact() -> None:
    assert cents(decimal(12345)) == 12345
    assert str(decimal(-6000)) == "-60.00"
    assert german(123456789) == "1.234.567,89" and german(-5) == "-0,05"
    with pytest.raises(ValueError, match="two decimal places"):
        from decimal import Decimal

        cents(Decimal("0.001"))
