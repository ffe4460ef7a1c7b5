"""What the player matching answers, called directly: each way a known person is found (person
number, a merged person number, club code + membership number, FIDE id, name + birth), the
newcomer proposed or created, and the refusals of a newcomer with their texts and places — a
club that does not exist, a club outside the caller's scope, a birth year outside the records'
range (from 1850, the check of ``players.birth_year``, to the current year: the module's rule;
the rating rules say nothing of it), one membership number given to two newcomers. On both
databases; on PostgreSQL also the second look under the lock on person numbers, when another
submission created the newcomer while the matching waited for it. Fast enough to run against
every mutant of ``zdb/players/matching.py``."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import date

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.common.names import fold_name
from zdb.db import engine_for, unit_of_work
from zdb.federations.models import Club, Federation
from zdb.locks import PERSON_NUMBERS, hold
from zdb.players.matching import MatchOutcome, PlayerQuery, match_players
from zdb.players.models import Membership, Player
from zdb.players.service import NewPlayer, create_players

REFEREE = Principal("referee", "C")  # his scope: the clubs whose codes start with C
ADMIN = Principal("admin")
JOINED = date(2026, 3, 1)
THIS_YEAR = date.today().year


def _federation(url: str) -> int:
    """Region C with club C0327, region D with club D0101, and one member of C0327 (membership
    number 7, FIDE id 4600001); his person number."""
    with unit_of_work(engine_for(url)) as session:
        session.add(Federation(prefix="", name="Deutscher Schachbund", level=0, parent_prefix=None))
        session.flush()
        session.add(Federation(prefix="C", name="Region C", level=1, parent_prefix=""))
        session.add(Federation(prefix="D", name="Region D", level=1, parent_prefix=""))
        session.flush()
        session.add(Club(code="C0327", name="SK Musterstadt 1920", federation_prefix="C"))
        session.add(Club(code="D0101", name="SC Anderswo", federation_prefix="D"))
        session.flush()
        (pkz,) = create_players(
            session, [NewPlayer(surname="Bekannt", given_name="Berta", birth_year=1970, sex="F", fide_id=4600001)]
        )
        session.add(Membership(player_pkz=pkz, club_code="C0327", member_no=7, valid_from=date(2010, 1, 1)))
    return pkz


def _match(url: str, *queries: PlayerQuery, create: bool = True, caller: Principal = REFEREE) -> MatchOutcome:
    with unit_of_work(engine_for(url)) as session:
        return match_players(session, queries, create=create, joined=JOINED, caller=caller)


def _said(outcome: MatchOutcome) -> list[tuple[str, str]]:
    return [(p.place, p.message) for p in outcome.problems]


def _ambiguous(name: str, *candidates: str) -> str:
    """The refusal of a player whom several records fit, each candidate as the refusal names him."""
    return f"ambiguous: {len(candidates)} players fit '{name}'; name one by pkz: candidates {'; '.join(candidates)}"


def _warned(outcome: MatchOutcome) -> list[tuple[str, str]]:
    return [(w.place, w.message) for w in outcome.warnings]


def _persons(url: str) -> int:
    with unit_of_work(engine_for(url)) as session:
        return len(session.execute(select(Player.pkz)).all())


def _memberships(url: str, pkz: int) -> list[tuple[str, int | None, date]]:
    with unit_of_work(engine_for(url)) as session:
        rows = session.execute(
            select(Membership.club_code, Membership.member_no, Membership.valid_from).where(
                Membership.player_pkz == pkz
            )
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


def _newcomer(**given: object) -> PlayerQuery:
    return PlayerQuery("players[0]", surname="Neumann", given_name="Nora", **given)  # type: ignore[arg-type]


# --- known persons ---------------------------------------------------------------------------


def test_a_person_named_by_his_number_is_found(database_url: str) -> None:
    pkz = _federation(database_url)
    outcome = _match(database_url, PlayerQuery("players[0]", pkz=pkz))
    assert (outcome.pkz, outcome.created, outcome.problems, outcome.warnings) == ((pkz,), (False,), (), ())


def test_an_unknown_person_number_is_refused_at_its_field(database_url: str) -> None:
    pkz = _federation(database_url)
    outcome = _match(database_url, PlayerQuery("players[3]", pkz=pkz + 1000, surname="Bekannt"))
    assert outcome.pkz == (None,) and outcome.created == (False,)
    assert _said(outcome) == [("players[3].pkz", f"no player has the person number {pkz + 1000}")]
    assert _persons(database_url) == 1


def test_a_merged_person_number_is_taken_as_the_survivor_with_a_warning(database_url: str) -> None:
    survivor, gone = _merged(database_url)
    outcome = _match(database_url, PlayerQuery("players[1]", pkz=gone))
    assert (outcome.pkz, outcome.created, outcome.problems) == ((survivor,), (False,), ())
    assert _warned(outcome) == [
        (
            "players[1].pkz",
            f"the person number {gone} was merged into {survivor}: the player is taken as {survivor}",
        )
    ]


def test_a_member_is_found_by_club_code_and_membership_number(database_url: str) -> None:
    pkz = _federation(database_url)
    outcome = _match(database_url, PlayerQuery("players[0]", club_code="C0327", member_no=7))
    assert (outcome.pkz, outcome.created, outcome.problems, outcome.warnings) == ((pkz,), (False,), (), ())


def test_a_membership_that_ended_finds_nobody(database_url: str) -> None:
    pkz = _federation(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        session.execute(select(Membership).where(Membership.player_pkz == pkz)).scalar_one().valid_until = date(
            2020, 12, 31
        )
    outcome = _match(database_url, PlayerQuery("players[2]", club_code="C0327", member_no=7))
    assert outcome.pkz == (None,)
    assert _said(outcome) == [
        (
            "players[2]",
            "the player was not found by the given identification, and no name is given to find or create him",
        )
    ]


def test_another_membership_number_or_club_finds_nobody(database_url: str) -> None:
    _federation(database_url)
    for query in (
        PlayerQuery("players[0]", club_code="C0327", member_no=8),
        PlayerQuery("players[0]", club_code="D0101", member_no=7),
        PlayerQuery("players[0]", club_code="C0327"),
        PlayerQuery("players[0]", member_no=7),
    ):
        outcome = _match(database_url, query)
        assert outcome.pkz == (None,) and [p.place for p in outcome.problems] == ["players[0]"], query


def test_a_player_is_found_by_fide_id(database_url: str) -> None:
    pkz = _federation(database_url)
    outcome = _match(database_url, PlayerQuery("players[0]", fide_id=4600001, club_code="C0327", member_no=99))
    assert (outcome.pkz, outcome.created, outcome.problems) == ((pkz,), (False,), ())
    unknown = _match(database_url, PlayerQuery("players[0]", fide_id=4600002))
    assert unknown.pkz == (None,) and len(unknown.problems) == 1


def test_a_player_is_found_by_name_and_birth_date(database_url: str) -> None:
    pkz = _federation(database_url)
    query = PlayerQuery("players[0]", surname="Bekannt", given_name="Berta", birth_date=date(1970, 6, 1))
    outcome = _match(database_url, query)
    assert (outcome.pkz, outcome.created, outcome.problems, outcome.warnings) == ((pkz,), (False,), (), ())
    assert _persons(database_url) == 1


# --- newcomers -------------------------------------------------------------------------------


def test_a_newcomer_is_proposed_in_a_preview_and_nothing_is_written(database_url: str) -> None:
    _federation(database_url)
    outcome = _match(database_url, _newcomer(birth_year=1990, club="C0327"), create=False)
    assert (outcome.pkz, outcome.created, outcome.problems, outcome.warnings) == ((None,), (False,), (), ())
    assert _persons(database_url) == 1


def test_a_newcomer_is_created_with_his_membership(database_url: str) -> None:
    known = _federation(database_url)
    query = _newcomer(
        birth_date=date(1990, 2, 3), sex="F", fide_id=4600009, club="C0327", club_code="C0327", member_no=12
    )
    outcome = _match(database_url, query)
    (pkz,) = outcome.pkz
    assert pkz is not None and pkz != known
    assert (outcome.created, outcome.problems) == ((True,), ())
    assert _memberships(database_url, pkz) == [("C0327", 12, JOINED)]
    with unit_of_work(engine_for(database_url)) as session:
        player = session.get_one(Player, pkz)
        recorded = (player.surname, player.given_name, player.birth_year, player.birth_date, player.sex)
        assert recorded == ("Neumann", "Nora", 1990, date(1990, 2, 3), "F")
        assert (player.fide_id, player.guest) == (4600009, False)
    # Found again by the same identification, not created a second time.
    again = _match(database_url, PlayerQuery("players[0]", club_code="C0327", member_no=12))
    assert (again.pkz, again.created) == ((pkz,), (False,))


def test_a_newcomer_without_a_club_is_created_without_a_membership(database_url: str) -> None:
    _federation(database_url)
    outcome = _match(database_url, _newcomer(birth_year=1990))
    (pkz,) = outcome.pkz
    assert pkz is not None and outcome.created == (True,) and outcome.problems == ()
    assert _memberships(database_url, pkz) == []


def test_a_guest_is_created_from_his_birth_year_with_what_the_file_lacks_left_empty(database_url: str) -> None:
    _federation(database_url)
    outcome = _match(database_url, PlayerQuery("players[0]", surname="Gast", birth_year=1988, guest=True))
    (pkz,) = outcome.pkz
    assert pkz is not None and outcome.created == (True,) and outcome.problems == ()
    with unit_of_work(engine_for(database_url)) as session:
        player = session.get_one(Player, pkz)
        recorded = (player.surname, player.given_name, player.birth_year, player.birth_date, player.sex)
        assert recorded == ("Gast", "", 1988, None, None)
        assert (player.fide_id, player.guest) == (None, True)


def test_a_newcomer_in_an_unknown_club_is_refused(database_url: str) -> None:
    _federation(database_url)
    outcome = _match(database_url, _newcomer(birth_year=1990, club="C9999"), caller=ADMIN)
    assert (outcome.pkz, outcome.created) == ((None,), (False,))
    assert _said(outcome) == [("players[0].club", "no club has the code 'C9999'")]
    assert _persons(database_url) == 1


def test_a_newcomer_in_a_club_outside_the_scope_is_refused(database_url: str) -> None:
    _federation(database_url)
    outcome = _match(database_url, _newcomer(birth_year=1990, club="D0101"))
    assert (outcome.pkz, outcome.created) == ((None,), (False,))
    assert _said(outcome) == [
        (
            "players[0].club",
            "a newcomer cannot be made a member of club 'D0101': it lies outside the token's scope 'C'; "
            "name the player by person number, or leave his club to the rating office",
        )
    ]
    assert _persons(database_url) == 1


def test_the_rating_office_may_make_a_newcomer_a_member_of_any_club(database_url: str) -> None:
    _federation(database_url)
    outcome = _match(database_url, _newcomer(birth_year=1990, club="D0101"), caller=ADMIN)
    (pkz,) = outcome.pkz
    assert pkz is not None and outcome.created == (True,) and outcome.problems == ()
    assert _memberships(database_url, pkz) == [("D0101", None, JOINED)]


def test_an_unknown_club_and_an_impossible_birth_year_are_both_told(database_url: str) -> None:
    _federation(database_url)
    outcome = _match(database_url, _newcomer(birth_year=1849, club="C9999"))
    assert _said(outcome) == [
        ("players[0].club", "no club has the code 'C9999'"),
        ("players[0]", "a birth year of 1849 cannot be a player's (from 1850 to this year)"),
    ]


def test_birth_years_from_1850_to_this_year_are_taken(database_url: str) -> None:
    _federation(database_url)
    for given in ({"birth_year": 1850}, {"birth_year": THIS_YEAR}, {"birth_date": date(1850, 1, 1)}):
        outcome = _match(database_url, _newcomer(**given), create=False)
        assert (outcome.pkz, outcome.problems) == ((None,), ()), given
    outcome = _match(database_url, _newcomer(birth_date=date(THIS_YEAR, 1, 1)), create=False)
    assert outcome.problems == ()


def test_birth_years_before_1850_or_after_this_year_are_refused(database_url: str) -> None:
    _federation(database_url)
    for given, year in (
        ({"birth_year": 1849}, 1849),
        ({"birth_year": THIS_YEAR + 1}, THIS_YEAR + 1),
        ({"birth_date": date(1849, 12, 31)}, 1849),
        ({"birth_date": date(THIS_YEAR + 1, 1, 1)}, THIS_YEAR + 1),
        # The date decides where both are given (the year is what the file said besides).
        ({"birth_date": date(1849, 12, 31), "birth_year": 1990}, 1849),
    ):
        outcome = _match(database_url, _newcomer(**given))
        assert _said(outcome) == [
            ("players[0]", f"a birth year of {year} cannot be a player's (from 1850 to this year)")
        ], given
        assert outcome.created == (False,)
    assert _persons(database_url) == 1


def test_a_date_in_range_outweighs_a_year_out_of_it(database_url: str) -> None:
    _federation(database_url)
    outcome = _match(database_url, _newcomer(birth_date=date(1990, 5, 5), birth_year=1849), create=False)
    assert outcome.problems == ()


def _second(member_no: int) -> PlayerQuery:
    return PlayerQuery(
        "players[1]",
        surname="Zweiter",
        given_name="Zeno",
        birth_year=1991,
        club="C0327",
        club_code="C0327",
        member_no=member_no,
    )


def test_one_membership_number_for_two_newcomers_is_refused(database_url: str) -> None:
    _federation(database_url)
    first = _newcomer(birth_year=1990, club="C0327", club_code="C0327", member_no=12)
    outcome = _match(database_url, first, _second(member_no=12))
    assert _said(outcome) == [("players[1]", "has the membership number 12 of players[0]")]
    assert outcome.created == (False, False)
    outcome = _match(database_url, first, _second(member_no=13))
    assert outcome.problems == () and outcome.created == (True, True)
    assert outcome.pkz[0] != outcome.pkz[1]


def test_a_newcomer_near_a_record_of_the_same_birth_year_is_created_with_a_warning(database_url: str) -> None:
    """One edit from "Berta Bekannt", born 1970: entered as someone new, but the referee is told
    of the record (never refused); a near name of another birth year is not told."""
    known = _federation(database_url)
    near = PlayerQuery("players[1]", surname="Bekant", given_name="Berta", birth_year=1970)
    outcome = _match(database_url, near, create=False)
    assert (outcome.pkz, outcome.problems) == ((None,), ())
    assert _warned(outcome) == [
        (
            "players[1]",
            f"no record fits 'Berta Bekant', so a new person is entered; but the record {known} (Berta Bekannt, "
            "born 1970) has a similar name and the same birth year: if it is the same person, name the player "
            "by that person number",
        )
    ]
    other_year = PlayerQuery("players[1]", surname="Bekant", given_name="Berta", birth_year=1971)
    assert _match(database_url, other_year, create=False).warnings == ()


def test_a_near_name_with_another_known_birth_date_is_not_told(database_url: str) -> None:
    """Where the caller may read the record's full birth date, the newcomer's date is compared:
    another date is another person, the same date is told."""
    _federation(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        (dated,) = create_players(
            session, [NewPlayer(surname="Datiert", given_name="Dora", birth_year=1975, birth_date=date(1975, 5, 5))]
        )
        session.add(Membership(player_pkz=dated, club_code="C0327", member_no=8, valid_from=date(2010, 1, 1)))
    other_date = PlayerQuery("players[0]", surname="Datirt", given_name="Dora", birth_date=date(1975, 6, 6))
    assert _match(database_url, other_date, create=False).warnings == ()
    same_date = PlayerQuery("players[0]", surname="Datirt", given_name="Dora", birth_date=date(1975, 5, 5))
    assert [w.place for w in _match(database_url, same_date, create=False).warnings] == ["players[0]"]


def test_a_newcomer_named_by_surname_alone_near_such_a_record_is_told(database_url: str) -> None:
    _federation(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        (single,) = create_players(session, [NewPlayer(surname="Einname", birth_year=1985)])
    outcome = _match(database_url, PlayerQuery("players[0]", surname="Einnam", birth_year=1985), create=False)
    assert [w.message.split(" has a similar name")[0] for w in outcome.warnings] == [
        f"no record fits 'Einnam', so a new person is entered; but the record {single} (Einname, born 1985)"
    ]


def test_a_club_without_a_membership_number_finds_nobody_by_membership(database_url: str) -> None:
    # A membership may lack its number; a file that gives the club alone names nobody by it.
    _federation(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        (other,) = create_players(session, [NewPlayer(surname="Zweit", given_name="Zora", birth_year=1980, sex="F")])
        session.add(Membership(player_pkz=other, club_code="C0327", member_no=None, valid_from=date(2010, 1, 1)))
    outcome = _match(database_url, _newcomer(club_code="C0327", birth_year=1990))
    assert outcome.created == (True,) and outcome.pkz != (other,)


def test_a_record_whose_birth_date_the_caller_may_not_read_is_found_with_a_warning(database_url: str) -> None:
    pkz = _federation(database_url)
    query = PlayerQuery("players[0]", surname="Bekannt", given_name="Berta", birth_date=date(1970, 6, 1))
    outcome = _match(database_url, query, caller=Principal("referee", "D"))
    assert (outcome.pkz, outcome.created, outcome.problems) == ((pkz,), (False,), ())
    assert _warned(outcome) == [
        (
            "players[0]",
            f"found as {pkz} by name and birth year; his birth date lies outside the token's scope and was not "
            "compared: if he is someone else, name the player by person number",
        )
    ]


def test_two_records_fitting_name_and_birth_are_refused_as_ambiguous_with_both_named(database_url: str) -> None:
    # A record without a birth year fits any year; with the known one that makes two.
    pkz = _federation(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        (other,) = create_players(session, [NewPlayer(surname="Bekannt", given_name="Berta", birth_year=None)])
    outcome = _match(database_url, PlayerQuery("players[0]", surname="Bekannt", given_name="Berta", birth_year=1970))
    assert outcome.pkz == (None,) and outcome.warnings == ()
    assert _said(outcome) == [
        ("players[0]", _ambiguous("Berta Bekannt", f"{pkz} Berta Bekannt (1970)", f"{other} Berta Bekannt (born ?)"))
    ]


def test_every_players_refusals_and_warnings_are_told_together(database_url: str) -> None:
    # A file's players are resolved one after the other; what is said of one is not lost by
    # what is said of the next.
    pkz = _federation(database_url)
    unknown = [PlayerQuery(f"players[{k}]", pkz=990000 + k) for k in range(2)]
    outcome = _match(database_url, *unknown)
    assert [place for place, _ in _said(outcome)] == ["players[0].pkz", "players[1].pkz"]
    newcomers = [
        PlayerQuery(f"players[{k}]", surname=name, given_name="Nora", birth_year=1990, club="C9999")
        for k, name in enumerate(("Neumann", "Neufeld"))
    ]
    outcome = _match(database_url, *newcomers, caller=ADMIN)
    assert _said(outcome) == [(f"players[{k}].club", "no club has the code 'C9999'") for k in range(2)]
    berta = PlayerQuery("players[0]", surname="Bekannt", given_name="Berta", birth_date=date(1970, 6, 1))
    twice = [dataclasses.replace(berta, place=f"players[{k}]") for k in range(2)]
    outcome = _match(database_url, *twice, create=False, caller=Principal("referee", "D"))
    assert outcome.pkz == (pkz, pkz)
    assert [place for place, _ in _warned(outcome)] == ["players[0]", "players[1]"]


def test_an_ambiguity_without_a_given_name_names_the_surname_alone(database_url: str) -> None:
    # Two records "Einname" (one born 1985, one of unknown year) fit a file that gives no given name.
    _federation(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        first, second = create_players(
            session, [NewPlayer(surname="Einname", birth_year=1985), NewPlayer(surname="Einname")]
        )
    outcome = _match(database_url, PlayerQuery("players[0]", surname="Einname", birth_year=1985))
    assert _said(outcome) == [
        (
            "players[0]",
            f"ambiguous: 2 players fit 'Einname'; name one by pkz: candidates {first} Einname (1985); "
            f"{second} Einname (born ?)",
        )
    ]


def test_newcomers_sharing_a_club_but_no_membership_number_of_it_are_all_created(database_url: str) -> None:
    """Only a membership number of the newcomer's own club is one; two newcomers giving the club
    without a number, or a number of another club, do not hold the same number of it."""
    _federation(database_url)
    queries = [
        PlayerQuery(f"players[{k}]", surname=name, birth_year=1990, **given)  # type: ignore[arg-type]
        for k, (name, given) in enumerate(
            (
                ("Ohnenummer", {"club": "C0327", "club_code": "C0327"}),
                ("Auchohne", {"club": "C0327", "club_code": "C0327"}),
                ("Fremdnummer", {"club": "C0327", "club_code": "D0101", "member_no": 5}),
                ("Auchfremd", {"club": "C0327", "club_code": "D0101", "member_no": 5}),
            )
        )
    ]
    outcome = _match(database_url, *queries)
    assert outcome.problems == () and outcome.created == (True, True, True, True)
    assert len(set(outcome.pkz)) == 4
    # The number of another club is not the newcomer's number in his own.
    foreign = outcome.pkz[2]
    assert foreign is not None and _memberships(database_url, foreign) == [("C0327", None, JOINED)]


def _merged(url: str) -> tuple[int, int]:
    """The federation and a record of Berta Bekannt (1970) merged into its member: the
    survivor's person number and the merged one."""
    survivor = _federation(url)
    with unit_of_work(engine_for(url)) as session:
        (gone,) = create_players(session, [NewPlayer(surname="Bekannt", given_name="Berta", birth_year=1970)])
        session.flush()
        session.get_one(Player, gone).merged_into = survivor
    return survivor, gone


def _merged_and_near(database_url: str) -> tuple[int, PlayerQuery, PlayerQuery]:
    """A file naming a merged person number (his survivor is Berta Bekannt, 1970) and a newcomer
    whose name is near hers: the survivor and the two players."""
    survivor, gone = _merged(database_url)
    merged = PlayerQuery("players[0]", pkz=gone)
    near = PlayerQuery("players[1]", surname="Bekant", given_name="Berta", birth_year=1970)
    return survivor, merged, near


def test_a_near_name_warning_is_told_beside_the_warnings_before_it(database_url: str) -> None:
    survivor, merged, near = _merged_and_near(database_url)
    outcome = _match(database_url, merged, near, create=False)
    assert outcome.pkz == (survivor, None) and outcome.problems == ()
    assert [place for place, _ in _warned(outcome)] == ["players[0].pkz", "players[1]"]


# --- the second look under the lock (PostgreSQL: the lock PERSON_NUMBERS) --------------------

#: transactions of this database waiting for the advisory lock PERSON_NUMBERS (a bigint key is
#: stored as classid, its high half, objid, its low half, and objsubid 1)
_WAITING_FOR_PERSON_NUMBERS = text(
    "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database "
    "WHERE d.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted "
    "AND l.classid = CAST(:high AS oid) AND l.objid = CAST(:low AS oid) AND l.objsubid = 1"
)


def _someone_waits_for_person_numbers(url: str) -> bool:
    with engine_for(url).connect() as connection:
        parts = {"high": PERSON_NUMBERS >> 32, "low": PERSON_NUMBERS & 0xFFFFFFFF}
        return bool(connection.execute(_WAITING_FOR_PERSON_NUMBERS, parts).scalar())


def _wait_for(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    # A bounded wait for a condition, polled: the matching's thread reaches the lock when it gets to it.
    began = time.monotonic()
    while not condition():
        assert time.monotonic() - began < timeout, f"timed out waiting for {what}"
        time.sleep(0.01)


def _match_while_another_creates(
    url: str, queries: list[PlayerQuery], meanwhile: Callable[[Session], None]
) -> MatchOutcome:
    """The matching of ``queries`` started while another transaction holds PERSON_NUMBERS; once
    it waits for the lock, the other transaction does ``meanwhile`` and commits (releasing it)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        with unit_of_work(engine_for(url)) as other:
            hold(other, PERSON_NUMBERS)
            matching: Future[MatchOutcome] = pool.submit(_match, url, *queries)
            _wait_for(lambda: _someone_waits_for_person_numbers(url) or matching.done(), "the matching to wait")
            assert not matching.done(), "the matching did not wait for the lock"
            meanwhile(other)
        return matching.result(timeout=30)


def _merged_and_new(url: str) -> tuple[int, list[PlayerQuery], str]:
    """A file naming a merged person number (a warning) and the newcomer Nora Neumann, born 1990;
    the survivor's number, the queries and the merged number's warning."""
    survivor, gone = _merged(url)
    queries = [PlayerQuery("players[0]", pkz=gone), _newcomer(birth_year=1990)]
    queries[1] = dataclasses.replace(queries[1], place="players[1]")
    warning = f"the person number {gone} was merged into {survivor}: the player is taken as {survivor}"
    return survivor, queries, warning


def _match_while_another_creates_players(
    url: str, queries: list[PlayerQuery], players: list[NewPlayer]
) -> tuple[MatchOutcome, list[int]]:
    """The matching of ``queries`` while another submission creates ``players``; their numbers."""
    made: list[int] = []
    outcome = _match_while_another_creates(url, queries, lambda other: made.extend(create_players(other, players)))
    return outcome, made


def test_a_newcomer_created_meanwhile_by_another_submission_is_found_not_created_again(postgres_url: str) -> None:
    survivor, queries, warning = _merged_and_new(postgres_url)
    outcome, (nora,) = _match_while_another_creates_players(
        postgres_url, queries, [NewPlayer(surname="Neumann", given_name="Nora", birth_year=1990)]
    )
    assert (outcome.pkz, outcome.created, outcome.problems) == ((survivor, nora), (False, False), ())
    assert _warned(outcome) == [("players[0].pkz", warning)]
    assert _persons(postgres_url) == 3  # the member, the merged record and Nora, once


def test_a_newcomer_made_ambiguous_meanwhile_by_another_submission_is_refused(postgres_url: str) -> None:
    survivor, queries, warning = _merged_and_new(postgres_url)
    outcome, (first, second) = _match_while_another_creates_players(
        postgres_url,
        queries,
        [NewPlayer(surname="Neumann", given_name="Nora", birth_year=1990), NewPlayer("Neumann", "Nora")],
    )
    ambiguous = _ambiguous("Nora Neumann", f"{first} Nora Neumann (1990)", f"{second} Nora Neumann (born ?)")
    assert (outcome.pkz, outcome.created) == ((survivor, None), (False, False))
    assert _said(outcome) == [("players[1]", ambiguous)]
    assert _warned(outcome) == [("players[0].pkz", warning)]
    assert _persons(postgres_url) == 4  # nobody created by the matching


def test_candidates_are_listed_by_person_number_after_a_record_was_corrected(database_url: str) -> None:
    """A record corrected after a later one was written: PostgreSQL keeps the corrected row (and
    its index entry) after the later one, so only the statement's order lists them by number."""
    _federation(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        misspelt, later = create_players(
            session,
            [NewPlayer(surname="Bekant", given_name="Carla", birth_year=1975), NewPlayer("Bekannt", "Carla")],
        )
        session.flush()
        corrected = session.get_one(Player, misspelt)
        corrected.surname, corrected.search_name = "Bekannt", fold_name("Carla Bekannt")
    outcome = _match(database_url, PlayerQuery("players[0]", surname="Bekannt", given_name="Carla", birth_year=1975))
    assert _said(outcome) == [
        (
            "players[0]",
            _ambiguous("Carla Bekannt", f"{misspelt} Carla Bekannt (1975)", f"{later} Carla Bekannt (born ?)"),
        )
    ]


def test_a_file_whose_newcomer_is_created_keeps_its_warnings(database_url: str) -> None:
    # The warnings of the file (a merged person number, a newcomer near a record) are told also
    # when the newcomer is created, and a warning is never a refusal.
    survivor, merged, near = _merged_and_near(database_url)
    outcome = _match(database_url, merged, near)
    (_, new) = outcome.pkz
    assert new is not None and outcome.pkz[0] == survivor and outcome.created == (False, True)
    assert outcome.problems == ()
    assert [place for place, _ in _warned(outcome)] == ["players[0].pkz", "players[1]"]
