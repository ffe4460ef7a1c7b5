"""The referee's tournament page offers FIDE's report file: the file the referee submitted comes
back with the same players and games, the FIDE ids ZDB holds and, where the file gave none, the
rating and title of FIDE's list in force at the start, as TRF16 or as TRF-2026 as the referee
chooses (a tournament of 2026 gets TRF-2026 without a choice); a tournament stored without rounds
is refused with a German reason; a tournament of another region is not his to download."""

from __future__ import annotations

from datetime import date

import pytest

from tests.api.test_submissions import _post_trf
from tests.api.world import FIDE_IDS, World, build_world
from tests.web.signed_in import signed_in
from tests.web.trf_files import good_trf
from zdb.db import engine_for, unit_of_work
from zdb.formats.trf import iter_games, parse_trf
from zdb.lists.models import FideRatingRow


@pytest.fixture
def fresh(database_url: str) -> World:
    return build_world(database_url)


def test_the_submitted_file_comes_back_as_fide_s_report(fresh: World) -> None:
    submitted = good_trf(fresh)
    stored = _post_trf(fresh, submitted)
    assert stored.status_code == 201, stored.text
    tid = stored.json()["id"]
    # FIDE's list as ZDB holds it: the editions before the start (2026-11-06) count, a later one not
    with unit_of_work(engine_for(fresh.url)) as session:
        for fide_id, edition, standard, title, women in (
            (FIDE_IDS["A"], date(2026, 10, 1), 2080, None, None),
            (FIDE_IDS["A"], date(2026, 11, 1), 2105, "FM", None),
            (FIDE_IDS["A"], date(2026, 12, 1), 2200, "IM", None),
            (FIDE_IDS["C"], date(2026, 10, 1), 1950, None, "WIM"),
        ):
            session.add(
                FideRatingRow(
                    fide_id=fide_id,
                    edition=edition,
                    name="",
                    federation="GER",
                    standard=standard,
                    title=title,
                    women_title=women,
                )
            )
    client = signed_in(fresh)
    page = client.get(f"/referee/tournaments/{tid}")
    assert page.status_code == 200
    assert f'href="/referee/tournaments/{tid}/fide-report.trf"' in page.text and "FIDE-Turnierbericht" in page.text
    assert "als TRF16" in page.text and "als TRF-2026" in page.text
    for version in ("trf16", "trf26"):
        assert f'href="/referee/tournaments/{tid}/fide-report.trf?version={version}"' in page.text
    answer = client.get(f"/referee/tournaments/{tid}/fide-report.trf")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-disposition"] == f'attachment; filename="zdb-{tid}-fide.trf"'
    # the tournament ends in November 2026, after FIDE made TRF-2026 the format (2025-09-01)
    assert answer.content == client.get(f"/referee/tournaments/{tid}/fide-report.trf?version=trf26").content
    trf16 = parse_trf(client.get(f"/referee/tournaments/{tid}/fide-report.trf?version=trf16").content)
    assert "142" in parse_trf(answer.content).header and "142" not in trf16.header
    for report in (parse_trf(answer.content), trf16):
        assert list(iter_games(report)) == list(iter_games(parse_trf(submitted)))
    report, original = parse_trf(answer.content), parse_trf(submitted)
    assert report.ok, report.errors
    # the FIDE ids ZDB holds: Anna Müller's (A) from the register, Carla Muller's (C) from the file too
    assert [(p.start_no, p.fide_id) for p in report.players] == [
        (1, FIDE_IDS["A"]),
        (2, None),
        (3, FIDE_IDS["C"]),
        (4, None),
    ]
    assert [(p.rating, p.title) for p in report.players] == [(2105, "FM"), (None, None), (1950, "WIM"), (None, None)]
    # the round robin of trf_files.py by hand: 2½, 2, 1½ and 0 points, no tie
    assert [(p.points, p.rank) for p in report.players] == [(2.5, 1), (2.0, 2), (1.5, 3), (0.0, 4)]
    assert list(iter_games(report)) == list(iter_games(original))
    assert (report.start_date, report.end_date, report.time_control) == (
        original.start_date,
        original.end_date,
        original.time_control,
    )


def test_without_rounds_refused_in_german_and_another_region_s_not_at_all(fresh: World) -> None:
    client = signed_in(fresh)
    # tournament 1 (C03) was submitted as JSON without rounds
    refused = client.get("/referee/tournaments/1/fide-report.trf")
    assert refused.status_code == 422
    assert "Partien haben keine Runde" in refused.text
    # tournament 3 is organised in region D
    assert client.get("/referee/tournaments/3/fide-report.trf").status_code == 403
