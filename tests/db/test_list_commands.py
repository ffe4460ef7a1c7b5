"""``zdb lists import``, ``zdb lists rebaseline`` and ``zdb fide import`` as an officer runs
them: the difference printed, a list with problems refused with its lines and nothing stored,
the starting states evaluated by the next recalculation, FIDE's editions by date."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import func, select

from tests.db.list_lines import with_lagging_lines
from tests.db.scenario import differences, recalc
from zdb.cli import main
from zdb.db import engine_for, unit_of_work
from zdb.formats.fide_list import FidePlayer, FideRating
from zdb.lists.fide_import import newest_standard
from zdb.lists.models import FideRatingRow
from zdb.players.models import Membership, Player
from zdb.synthetic.fide_lists import write_fide_txt
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list
from zdb.timeline.models import PlayerRating


def _zdb(url: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [*args, "--database-url", url])
    return result.exit_code, result.stdout, result.stderr


def test_lists_import_prints_the_difference_and_the_ratings_are_evaluated(sqlite_url: str, tmp_path: Path) -> None:
    data = synthetic_list(5, 60)
    path = tmp_path / "LV-0-csv.zip"
    path.write_bytes(list_zip_bytes(data))
    people = len({m.person_id for m in data.members})

    status, out, _ = _zdb(sqlite_url, "lists", "import", str(path), "--dry-run", "--date", "2026-06-30")
    assert status == 0 and "would change" in out and f"people new: {people}" in out
    with unit_of_work(engine_for(sqlite_url)) as session:
        assert session.execute(select(func.count()).select_from(Player)).scalar_one() == 0

    status, out, _ = _zdb(sqlite_url, "lists", "import", str(path), "--date", "2026-06-30")
    assert status == 0 and f"people new: {people}" in out
    recalc(sqlite_url)
    assert differences(sqlite_url) == []
    member = next(m for m in data.members if m.rating is not None and m.status == "active")
    with unit_of_work(engine_for(sqlite_url)) as session:
        rating = session.execute(
            select(PlayerRating.rating, PlayerRating.rating_index)
            .join(Player, Player.pkz == PlayerRating.player_pkz)
            .where(Player.external_id == member.person_id)
        ).one()
    assert tuple(rating) == (member.rating, member.rating_index or 0)

    raised = replace(data, members=tuple(replace(m, rating=m.rating + 1) if m is member else m for m in data.members))
    path.write_bytes(list_zip_bytes(raised))
    status, out, _ = _zdb(sqlite_url, "lists", "rebaseline", str(path), "--date", "2026-07-31", "--yes")
    assert status == 0 and "starting states set at 2026-07-31" in out
    recalc(sqlite_url)
    with unit_of_work(engine_for(sqlite_url)) as session:
        now = session.execute(
            select(PlayerRating.rating)
            .join(Player, Player.pkz == PlayerRating.player_pkz)
            .where(Player.external_id == member.person_id)
        ).scalar_one()
    assert now == member.rating + 1


def test_a_list_with_problems_is_refused_with_its_lines(sqlite_url: str, tmp_path: Path) -> None:
    data = synthetic_list(5, 30)
    bad = replace(data, members=(*data.members, replace(data.members[0], person_id="NU7", club_code="Z9999")))
    path = tmp_path / "liste.zip"
    path.write_bytes(list_zip_bytes(bad))
    status, _, err = _zdb(sqlite_url, "lists", "import", str(path), "--date", "2026-06-30")
    assert status == 1
    assert f"spieler.csv:{len(bad.members) + 1}" in err and "Z9999" in err and "nothing stored" in err
    with unit_of_work(engine_for(sqlite_url)) as session:
        assert session.execute(select(func.count()).select_from(Player)).scalar_one() == 0


def _fide(fide_id: int, standard: int | None) -> FidePlayer:
    return FidePlayer(
        fide_id,
        "Muster, Max",
        "GER",
        "M",
        None,
        None,
        (),
        None,
        FideRating(standard, 3, 20),
        FideRating(None),
        FideRating(1800, 5, 20),
        1990,
        "",
    )


def test_fide_editions_are_kept_by_date_and_looked_up_before_a_start(sqlite_url: str, tmp_path: Path) -> None:
    for day, rating in (("2026-10-01", 2001), ("2026-11-01", 2011)):
        path = tmp_path / f"{day}.txt"
        with path.open("wb") as out:
            write_fide_txt([_fide(4_600_001, rating), _fide(4_600_002, None)], out)
        status, out_text, err = _zdb(sqlite_url, "fide", "import", str(path), "--date", day)
        assert status == 0, err
        assert "2 players stored" in out_text
    status, _, _ = _zdb(sqlite_url, "fide", "import", str(path), "--date", "2026-11-01")  # the same edition again
    with unit_of_work(engine_for(sqlite_url)) as session:
        assert session.execute(select(func.count()).select_from(FideRatingRow)).scalar_one() == 4
        assert newest_standard(session, [4_600_001, 4_600_002], date(2026, 11, 1)) == {4_600_001: 2001}
        assert newest_standard(session, [4_600_001], date(2026, 11, 2)) == {4_600_001: 2011}
        assert newest_standard(session, [4_600_001], date(2026, 10, 1)) == {}


def test_lists_import_takes_a_person_whose_lines_differ_and_counts_what_it_stored(
    sqlite_url: str, tmp_path: Path
) -> None:
    data, _, lagging, _ = with_lagging_lines(synthetic_list(5, 120))
    path = tmp_path / "liste.zip"
    path.write_bytes(list_zip_bytes(data))
    status, out, err = _zdb(sqlite_url, "lists", "import", str(path), "--date", "2026-06-30")
    assert status == 0, err
    with unit_of_work(engine_for(sqlite_url)) as session:
        stored = session.execute(select(func.count()).select_from(Membership)).scalar_one()
    assert stored == len(data.members)
    assert f"lines of spieler.csv stored: {stored}; lines left out: 0; warnings: 3; problems: 0" in out
    assert f"Letzte Auswertung: {lagging.person_id}" in err


def test_lists_import_piped_prints_each_phase_on_a_line_of_its_own(sqlite_url: str, tmp_path: Path) -> None:
    path = tmp_path / "liste.zip"
    path.write_bytes(list_zip_bytes(synthetic_list(5, 30)))
    status, _, err = _zdb(sqlite_url, "lists", "import", str(path), "--date", "2026-06-30")
    assert status == 0, err
    assert "\r" not in err
    progress = [line for line in err.splitlines() if line.startswith("importing: ")]
    assert progress == [
        "importing: reading the list 0/9 phases (0 %)",
        "importing: comparing it with the register 1/9 phases (11 %)",
        "importing: writing federations and clubs 2/9 phases (22 %)",
        "importing: writing new people 3/9 phases (33 %)",
        "importing: writing corrected people 4/9 phases (44 %)",
        "importing: writing memberships 5/9 phases (55 %)",
        "importing: writing starting states 6/9 phases (66 %)",
        "importing: writing the audit log 7/9 phases (77 %)",
        "importing: storing 8/9 phases (88 %)",
        "importing: done 9/9 phases (100 %)",
    ]
