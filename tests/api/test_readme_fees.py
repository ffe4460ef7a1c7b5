"""README's "A FIDE-rated tournament and its fees" runs as written: its commands in one shell
against a fresh embedded service with the synthetic federation, after the few lines of README
before it that they use (``API``, the tokens, the headers). Each curl call is answered 2xx; then
the walk's outcome is checked against figures worked by hand from the example files (FIDE's
report file, of a tournament of 2026, comes as TRF-2026 and on request as TRF16):

the round robin of ``examples/fide-tournament.json`` has four players (FIDE ratings 2412, 2398,
2377, 2381: average 2392, the 2380–2599 tier of 12 €), all members of the federation, six rated
games, and its results came after the 7th day after its end (15 Nov 2026): by
``examples/fee-schedule.json`` it owes 10.00 + 6 x 0.50 + 4 x 12.00 + 60.00 = 121.00.
"""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.api.readme_walks import run_section, section_commands, service  # noqa: F401 - a fixture
from tests.api.test_readme_commands import project  # noqa: F401 - a fixture
from zdb.formats.trf import iter_games, parse_trf

HEADING = "### A FIDE-rated tournament and its fees"


def test_a_fide_rated_tournament_goes_from_registration_to_its_fees(project: Path, service: int) -> None:  # noqa: F811
    commands = section_commands(HEADING)
    assert len(commands) >= 10, commands
    walk = run_section(project, service, commands, ["FID", "FCODE", "NUMBER", "ADMIN_TOKEN"])
    for entry in walk.calls:
        _, status, code = entry
        assert status.startswith("2") and code == "0", (entry, walk.stdout[-2000:])
    fid, code, number, token = walk.kept.values()
    api = httpx.Client(
        base_url=f"http://127.0.0.1:{service}/api/v1", timeout=10, headers={"Authorization": f"Bearer {token}"}
    )
    registration = api.get(f"/announcements/{code}/fide-registration").json()
    assert (registration["state"], registration["category"], registration["system"]) == (
        "evaluated",
        "standard",
        "round_robin",
    )
    assert registration["registered_late"] is True and registration["report"]["late"] is True
    assert registration["report"]["report_due"] == "2026-11-22"

    fees = api.get(f"/tournaments/{fid}/fees").json()
    assert (fees["total"], fees["pending"]) == ("121.00", None), fees
    basis = fees["assessments"][0]
    assert (basis["players"], basis["games"], basis["non_members"], basis["average_elo"]) == (4, 6, 0, 2392)
    assert {(x["kind"], x["amount"]) for x in basis["lines"]} == {
        ("dwz_tournament", "10.00"),
        ("dwz_game", "3.00"),
        ("fide_round_robin", "48.00"),
        ("fide_late", "60.00"),
    }
    invoice = api.get(f"/fees/invoices/{number}").json()
    assert (invoice["payer"], invoice["total"]) == ("Post SV Sankt Rosenheim", "121.00")

    # FIDE's report file reads back as the tournament: four players, six games
    report = parse_trf(api.get(f"/tournaments/{fid}/fide-report.trf").text)
    assert report.ok, report.errors
    assert len(report.players) == 4 and len(list(iter_games(report))) == 6
    # and carries what the registration says: city, type, arbiters with their FIDE ids, rate of play
    assert (report.city, report.tournament_type) == ("Sankt Rosenheim", "Individual: Round-Robin")
    assert (report.chief_arbiter, report.deputy_arbiters) == ("Weber, Anna (4600010)", ("Kranz, Ulrich (4600011)",))
    assert report.time_control == "90 min/40 moves + 30 min + 30 s"
    # a tournament of November 2026: TRF-2026 (FIDE applies it from 2025-09-01), with its records:
    # the three rounds, the registered round robin, the rate of play encoded (TRF26.pdf, 222)
    assert (report.header["142"], report.header["192"]) == (("3",), ("FIDE_ROUNDROBIN",))
    assert report.time_control_code == "40/5400:1800+30"
    # TRF16 on request: the same players and games, none of TRF26's records
    trf16 = parse_trf(api.get(f"/tournaments/{fid}/fide-report.trf", params={"version": "trf16"}).text)
    assert trf16.ok and list(iter_games(trf16)) == list(iter_games(report))
    assert not {"142", "192", "222"} & set(trf16.header)
    # the report written leaves the results as late as they came
    assert api.get(f"/announcements/{code}/fide-registration").json()["report"]["late"] is True
