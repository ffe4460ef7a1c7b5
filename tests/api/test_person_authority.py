"""A referee's file is rated with everything the database knows: the person's record decides his
birth year and whether he is a member (spec §13.16, WO 3.4.3); a file only identifies him.

Real files are sparse: a person number alone, a club code + membership number, a TRF without
birth dates. Each test compares the API's answer for the sparse file with its answer for the
same file spelled out in full, or with the engine's evaluation of the stored inputs, so that no
figure is written here; and each fails where the file's silence used to be read as "age unknown"
or "guest".
"""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Any

import pytest
from sqlalchemy import select, update

from tests.api.at_once import at_once
from tests.api.test_submissions import (
    FIGURES,
    _another_weekend,
    _body,
    _counts,
    _games,
    _german_line,
    _headers,
    _player_line,
    _post,
    _post_trf,
    round_robin_cells,
)
from tests.api.world import REPLAY, World
from tests.db.scenario import differences, recalc
from zdb.audit.models import AuditEntry
from zdb.db import engine_for, unit_of_work
from zdb.players.models import Player
from zdb.tournaments.models import Participation, TournamentRecord

#: the replay vector's birth years: the records of the world hold them
BIRTH_YEARS = {p["pid"]: p["birth_year"] for e in REPLAY["events"] for p in e.get("players", [])}


def _figures(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: r[k] for k in FIGURES} for r in rows]


def _preview(world: World, body: dict[str, Any], path: str = "/api/v1/tournaments/preview") -> Any:
    return world.client.post(path, json=body, headers=_headers(world, "referee_c"))


def _four(world: World, *pids: str, **given: dict[str, Any]) -> list[dict[str, Any]]:
    """Players named by person number alone, with more fields where ``given`` says."""
    return [{"pkz": world.pkz[pid], **given.get(pid, {})} for pid in pids]


def test_a_player_named_by_person_number_alone_is_rated_with_his_records_birth_year(fresh: World) -> None:
    # B (born 2012) and E (born 2009) are youths: their K differs from an adult's (spec §6/§7).
    sparse = _body(fresh, players=_four(fresh, "A", "B", "E", "D"))
    full = _body(
        fresh,
        players=_four(fresh, "A", "B", "E", "D", **{p: {"birth_year": BIRTH_YEARS[p]} for p in "ABED"}),
    )
    by_number, spelled_out = _preview(fresh, sparse), _preview(fresh, full)
    assert by_number.status_code == spelled_out.status_code == 200, by_number.text
    assert _figures(by_number.json()["rows"]) == _figures(spelled_out.json()["rows"])
    # Stored, too: the participation carries the record's year, and the explanation knows the age.
    made = _post(fresh, sparse)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    with unit_of_work(engine_for(fresh.url)) as session:
        rows = session.execute(
            select(Participation.player_pkz, Participation.birth_year).where(Participation.tournament_id == tid)
        )
        years = {r.player_pkz: r.birth_year for r in rows}
    assert years == {fresh.pkz[p]: BIRTH_YEARS[p] for p in "ABED"}
    recalc(fresh.url)
    explained = fresh.get(f"/tournaments/{tid}/players/{fresh.pkz['D']}/explanation").json()
    assert explained["age_known"] is True


def test_club_code_and_membership_number_take_the_records_birth_year(fresh: World) -> None:
    # B is member 2 of C0327 (tests/api/world.py).
    sparse = _body(
        fresh,
        players=[
            {"pkz": fresh.pkz["A"]},
            {"club_code": "C0327", "member_no": 2},
            {"pkz": fresh.pkz["E"]},
            {"pkz": fresh.pkz["D"]},
        ],
    )
    full = _body(fresh, players=_four(fresh, "A", "B", "E", "D", B={"birth_year": BIRTH_YEARS["B"]}))
    assert _figures(_preview(fresh, sparse).json()["rows"]) == _figures(_preview(fresh, full).json()["rows"])


def _trf(world: World, born: bool) -> str:
    """A, B, E, D as a round robin; named by person number in GER lines, with or without birth dates."""
    cells = round_robin_cells(4)
    lines = ["012 Herbstturnier", "042 2026/11/06", "052 2026/11/08", "122 90 min + 30 s"]
    for no, pid in enumerate("ABED", 1):
        birth = f"{BIRTH_YEARS[pid]}/05/17" if born else ""
        person = ("m", f"Spieler, {pid}", "GER", "", birth)
        lines.append(_player_line(no, person, cells[no]))
        lines.append(_german_line(no, person, str(world.pkz[pid])))
    return "\n".join(lines) + "\n"


def _preview_trf(world: World, text: str, path: str = "/api/v1/tournaments/preview/trf") -> Any:
    headers = _headers(world, "referee_c", **{"Content-Type": "text/plain; charset=utf-8"})
    return world.client.post(
        path, params={"acronym": "TRF", "federation": "C03"}, content=text.encode(), headers=headers
    )


def test_a_trf_file_without_birth_dates_takes_the_records(fresh: World) -> None:
    sparse, full = _preview_trf(fresh, _trf(fresh, born=False)), _preview_trf(fresh, _trf(fresh, born=True))
    assert sparse.status_code == full.status_code == 200, sparse.text
    assert _figures(sparse.json()["rows"]) == _figures(full.json()["rows"])
    # The rows show the record's names and the file's spelling beside them.
    rows = sparse.json()["rows"]
    assert rows[0]["name"] == "Anna Müller"
    assert rows[0]["name_in_file"] == "A Spieler"


def test_preview_rows_of_players_by_person_number_carry_the_records_name(fresh: World) -> None:
    rows = _preview(fresh, _body(fresh, players=_four(fresh, "A", "B", "E", "D"))).json()["rows"]
    assert [r["name"] for r in rows] == ["Anna Müller", "Bernd Mueller", "Erik Weiß", "Dieter Schmidt"]
    assert all(r["name_in_file"] is None for r in rows)


def test_a_contradicting_birth_year_changes_nothing_and_is_a_warning(fresh: World) -> None:
    wrong = BIRTH_YEARS["E"] - 30
    body = _body(fresh, players=_four(fresh, "A", "B", "E", "D", E={"birth_year": wrong}))
    right = _body(fresh, players=_four(fresh, "A", "B", "E", "D"))
    answer = _preview(fresh, body)
    assert answer.status_code == 200, answer.text
    assert _figures(answer.json()["rows"]) == _figures(_preview(fresh, right).json()["rows"])
    [warning] = answer.json()["warnings"]
    assert warning["place"] == "body.players[2]"
    assert str(wrong) in warning["message"] and str(BIRTH_YEARS["E"]) in warning["message"]
    made = _post(fresh, body)
    assert made.status_code == 201
    assert made.json()["warnings"] == answer.json()["warnings"]
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.get(Player, fresh.pkz["E"]).birth_year == BIRTH_YEARS["E"]  # type: ignore[union-attr]


def test_membership_is_the_records_fact(fresh: World) -> None:
    # A guest (created as one) named later by person number in a TRF GER line stays a guest,
    # and a member said to be a guest in JSON stays a member, with a warning.
    guest = {"surname": "Gast", "given_name": "Gustav", "birth_date": "1990-02-03", "member": False}
    made = _post(fresh, _body(fresh, acronym="GST", players=[*_four(fresh, "A", "B", "D"), guest]))
    assert made.status_code == 201, made.text
    gustav = made.json()["players"][3]["pkz"]
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.get(Player, gustav).guest is True  # type: ignore[union-attr]
    text = _trf(fresh, born=False).replace(str(fresh.pkz["E"]), str(gustav))
    rows = _preview_trf(fresh, text).json()["rows"]
    assert [r["pkz"] for r in rows][2] == gustav
    assert [r["member"] for r in rows] == [True, True, False, True]
    said = _preview(fresh, _body(fresh, players=_four(fresh, "A", "B", "E", "D", E={"member": False})))
    assert [r["member"] for r in said.json()["rows"]] == [True, True, True, True]
    assert [w["place"] for w in said.json()["warnings"]] == ["body.players[2]"]


def test_name_and_birth_year_find_a_record_whose_birth_year_is_unknown(fresh: World) -> None:
    # A newcomer without a birth date is created; a later file names him by name and birth year.
    nobody = {"surname": "Ohnejahr", "given_name": "Olaf", "club": "C0327"}
    first = _post(fresh, _body(fresh, acronym="OJ1", players=[*_four(fresh, "A", "B", "D"), nobody]))
    assert first.status_code == 201, first.text
    olaf = first.json()["players"][3]["pkz"]
    recalc(fresh.url)
    later = {"surname": "Ohnejahr", "given_name": "Olaf", "birth_year": 2012}
    body = _body(
        fresh,
        acronym="OJ2",
        end_date="2026-11-15",
        start_date="2026-11-13",
        round_dates=["2026-11-13", "2026-11-14", "2026-11-15"],
        players=[*_four(fresh, "A", "B", "D"), later],
    )
    second = _post(fresh, body)
    assert second.status_code == 201, second.text
    assert second.json()["players"][3] == {"start_no": 4, "pkz": olaf, "created": False}
    assert any(str(olaf) in w["message"] and "2012" in w["message"] for w in second.json()["warnings"])
    # The record learned the year; every evaluation of his is redone with it (from scratch equal).
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.get(Player, olaf).birth_year == 2012  # type: ignore[union-attr]
        years = set(session.execute(select(Participation.birth_year).where(Participation.player_pkz == olaf)).scalars())
        learned = session.execute(select(AuditEntry).where(AuditEntry.action == "player.learn")).scalars().all()
    assert years == {2012}
    assert [e.target for e in learned] == [f"player {olaf}"]
    outcome = recalc(fresh.url)
    assert outcome.clean and outcome.evaluated >= 2
    assert differences(fresh.url) == []
    youth = fresh.get(f"/tournaments/{first.json()['id']}/players/{olaf}/explanation").json()
    assert youth["age_known"] is True


def test_several_records_fitting_name_and_birth_year_are_listed(fresh: World) -> None:
    twin = {"surname": "Zwilling", "given_name": "Zoe", "club": "C0327"}
    made = _post(fresh, _body(fresh, acronym="ZW1", players=[*_four(fresh, "A", "B"), twin, dict(twin)]))
    assert made.status_code == 201, made.text
    twins = [p["pkz"] for p in made.json()["players"][2:]]
    asked = {"surname": "Zwilling", "given_name": "Zoe", "birth_year": 2001}
    answer = _post(fresh, _body(fresh, players=[*_four(fresh, "A", "B", "D"), asked]))
    assert answer.status_code == 422
    [error] = answer.json()["errors"]
    assert error["place"] == "body.players[3]"
    assert all(str(pkz) in error["message"] for pkz in twins)


def test_a_mistyped_national_number_is_an_error_on_its_line(fresh: World) -> None:
    text = _trf(fresh, born=True).replace(str(fresh.pkz["B"]), "1000010X")
    before = _counts(fresh.url)
    answer = _post_trf(fresh, text)
    assert answer.status_code == 422, answer.text
    lines = text.splitlines()
    bad = next(k for k, line in enumerate(lines, 1) if "1000010X" in line)
    assert [e["place"] for e in answer.json()["errors"]] == [f"line {bad}"], answer.text
    assert "1000010X" in answer.json()["errors"][0]["message"]
    assert _counts(fresh.url) == before


def test_the_readers_warnings_reach_the_referee(fresh: World) -> None:
    # A pairing without colours: the reader takes the lower start number as white and says so.
    text = _trf(fresh, born=True)
    lines = text.splitlines()
    first = next(k for k, line in enumerate(lines) if line.startswith("001"))
    second = next(k for k, line in enumerate(lines) if line.startswith("001") and k > first)
    for k in (first, second):
        line = list(lines[k].ljust(100))
        line[96] = " "  # the colour of round 1
        lines[k] = "".join(line).rstrip()
    answer = _preview_trf(fresh, "\n".join(lines) + "\n")
    assert answer.status_code == 200, answer.text
    warnings = answer.json()["warnings"]
    assert warnings and warnings[0]["place"] == f"line {first + 1}"
    stored = _post_trf(fresh, "\n".join(lines) + "\n")
    assert stored.status_code == 201
    assert stored.json()["warnings"] == warnings


def test_a_schema_error_does_not_hide_the_other_problems(fresh: World) -> None:
    games = _games(4)
    games[1] = {**games[1], "white": 1, "black": 1}
    body = _body(
        fresh,
        acronym="WINTER",
        time_control="60 min",
        games=games,
        players=[
            {"pkz": 99_999_999},
            {"pkz": fresh.pkz["B"]},
            {"pkz": fresh.pkz["E"], "sex": "X"},
            {"pkz": fresh.pkz["D"]},
        ],
    )
    body["end_date"] = "2026-02-30"
    before = _counts(fresh.url)
    answer = _post(fresh, body)
    assert answer.status_code == 422, answer.text
    places = {e["place"] for e in answer.json()["errors"]}
    assert {
        "body.acronym",
        "body.end_date",
        "body.players[2].sex",  # the schema's
        "body.time_control",
        "body.games[1]",
        "body.players[0].pkz",
    } <= places
    assert _counts(fresh.url) == before


def test_a_broken_game_keeps_the_others_numbers(fresh: World) -> None:
    games = _games(4)
    games[0] = {**games[0], "result": 7}
    games[3] = {**games[3], "white": 9}
    answer = _post(fresh, _body(fresh, games=games))
    assert answer.status_code == 422
    places = {e["place"] for e in answer.json()["errors"]}
    assert "body.games[0].result" in places
    assert "body.games[3].white" in places


def test_a_correction_preview_does_not_count_the_version_it_corrects(fresh: World) -> None:
    # four weeks before the TRF below: the same tournament twice would be refused as stored already
    body = {**_another_weekend(fresh), "players": _four(fresh, "A", "B", "E", "D")}
    made = _post(fresh, body)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    recalc(fresh.url)
    stored = fresh.get(f"/tournaments/{tid}/evaluation").json()["rows"]
    answer = _preview(fresh, body, f"/api/v1/tournaments/{tid}/preview")
    assert answer.status_code == 200, answer.text
    assert _figures(answer.json()["rows"]) == _figures(stored)
    # The pages' correction preview, too, and a TRF correction's.
    trf = _trf(fresh, born=False)
    made_trf = _post_trf(fresh, trf)
    recalc(fresh.url)
    trf_tid = made_trf.json()["id"]
    stored_trf = fresh.get(f"/tournaments/{trf_tid}/evaluation").json()["rows"]
    again = _preview_trf(fresh, trf, f"/api/v1/tournaments/{trf_tid}/preview/trf")
    assert _figures(again.json()["rows"]) == _figures(stored_trf)


def test_a_birth_year_learned_during_a_run_is_taken_by_the_next(fresh: World) -> None:
    """The run that is busy when a record learns a birth year may have read the old one: its
    end must not clear the stale mark; the next run redoes the tournaments."""
    if not fresh.url.startswith("postgresql"):
        pytest.skip("SQLite serialises writers: a change cannot commit during a run")
    nobody = {"surname": "Ohnejahr", "given_name": "Olga", "club": "C0327"}
    first = _post(fresh, _body(fresh, acronym="OJ1", players=[*_four(fresh, "A", "B", "D"), nobody]))
    olga = first.json()["players"][3]["pkz"]
    recalc(fresh.url)
    # A from-scratch run has loaded every tournament (with the old year) when the year is learned.
    from zdb.recalculation.recalculate import recalculate
    from zdb.tournaments.person_facts import learn_birth_years

    learned: list[bool] = []

    def meanwhile(done: int, total: int) -> None:
        if not learned:
            with unit_of_work(engine_for(fresh.url)) as other:
                learn_birth_years(other, {olga: 2013})
            learned.append(True)

    with unit_of_work(engine_for(fresh.url)) as session:
        outcome = recalculate(session, from_scratch=True, progress=meanwhile)
    assert learned and outcome.ran and not outcome.clean
    with unit_of_work(engine_for(fresh.url)) as session:
        stale = session.execute(
            select(TournamentRecord.stale_generation).where(TournamentRecord.id == first.json()["id"])
        ).scalar_one()
    assert stale is not None
    assert recalc(fresh.url).clean
    assert differences(fresh.url) == []


def test_learning_needs_no_file_when_staff_set_the_year(fresh: World) -> None:
    """The mechanism the intake uses works alone: a year set on a record through it makes the
    stored time line equal to a from-scratch evaluation again after one run."""
    from zdb.tournaments.person_facts import learn_birth_years

    with unit_of_work(engine_for(fresh.url)) as session:
        session.execute(update(Player).where(Player.pkz == fresh.pkz["G"]).values(birth_year=None))
        session.execute(update(Participation).where(Participation.player_pkz == fresh.pkz["G"]).values(birth_year=None))
    recalc(fresh.url, from_scratch=True)
    with unit_of_work(engine_for(fresh.url)) as session:
        key = learn_birth_years(session, {fresh.pkz["G"]: BIRTH_YEARS["G"]})
    assert key is not None and key[0] <= date(2026, 6, 8)
    assert recalc(fresh.url).clean
    assert differences(fresh.url) == []


def test_concurrent_files_naming_one_new_person_create_him_once(fresh: World) -> None:
    if not fresh.url.startswith("postgresql"):
        pytest.skip("SQLite serialises writers: files cannot be taken in at once")
    newcomer = {"surname": "Gleichzeitig", "given_name": "Greta", "birth_date": "2012-04-05", "club": "C0327"}

    def body(k: int) -> dict[str, Any]:
        # five tournaments (one a week): the same one five times would be refused as stored already
        players = [*_four(fresh, "A", "B", "D"), dict(newcomer)]
        return {**_another_weekend(fresh, weeks=k), "acronym": f"CC{k}", "players": players}

    bodies = [body(k) for k in range(5)]
    answers = at_once(*(partial(_post, fresh, b) for b in bodies))
    assert [a.status_code for a in answers] == [201] * 5, [a.text for a in answers]
    numbers = {a.json()["players"][3]["pkz"] for a in answers}
    assert len(numbers) == 1
    assert sum(a.json()["players"][3]["created"] for a in answers) == 1


def test_an_impossible_birth_date_is_a_problem_not_a_conflict(fresh: World) -> None:
    born_year_one = {"surname": "Alt", "given_name": "Adam", "birth_date": "0001-01-01"}
    answer = _post(fresh, _body(fresh, players=[*_four(fresh, "A", "B", "D"), born_year_one]))
    assert answer.status_code == 422, answer.text
    assert [e["place"] for e in answer.json()["errors"]] == ["body.players[3]"]
    # A known person's file cannot teach his record an impossible year either.
    text = _trf(fresh, born=True).replace(f"{BIRTH_YEARS['B']}/05/17", "1700/05/17")
    with unit_of_work(engine_for(fresh.url)) as session:
        session.execute(update(Player).where(Player.pkz == fresh.pkz["B"]).values(birth_year=None))
    taken = _post_trf(fresh, text)
    assert taken.status_code == 201, taken.text
    assert any("1700" in w["message"] for w in taken.json()["warnings"])
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.get(Player, fresh.pkz["B"]).birth_year is None  # type: ignore[union-attr]


def test_an_integrity_error_that_is_no_race_is_named(fresh: World) -> None:
    """The last line of defence: a value the schema's checks refuse is a 422 naming the rule,
    not a "concurrent change, retry" that a client would retry for ever."""
    from sqlalchemy.exc import IntegrityError

    from zdb.api.problems import _broken_rule

    with unit_of_work(engine_for(fresh.url)) as session:
        try:
            session.execute(update(Player).where(Player.pkz == fresh.pkz["A"]).values(birth_year=1))
            session.flush()
        except IntegrityError as error:
            checked = error
        else:  # pragma: no cover - the schema holds the check
            pytest.fail("the check on birth_year did not hold")
        session.rollback()
    assert _broken_rule(checked) is not None and "birth_year" in str(_broken_rule(checked))
    with unit_of_work(engine_for(fresh.url)) as session:
        try:
            session.execute(update(Player).where(Player.pkz == fresh.pkz["A"]).values(fide_id=4600003))
            session.flush()
        except IntegrityError as error:
            twice = error
        session.rollback()
    assert _broken_rule(twice) is None
