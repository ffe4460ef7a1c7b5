"""What the SWT reader tells about ids and round records that do not fit together, each problem
whole (severity, record, Swiss-Chess field, text): a player id that is 0 or used twice (field
2021 "TNr.-ID"), an adjourned game, an opponent that does not exist or is paired with someone else,
and every later record still checked after one of them or after a bye."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from tests.formats.swt_files import Round, build, two_rounds
from zdb.formats.swt import read_swt_document
from zdb.formats.trf import Severity

ERROR, WARNING = Severity.ERROR, Severity.WARNING


def _problems(t: object) -> list[tuple[Severity, str | None, str | None, str]]:
    document = read_swt_document(build(t))  # type: ignore[arg-type]
    return [(p.severity, p.record, p.field, p.message) for p in document.problems]


def test_a_player_id_used_twice_or_zero_is_an_error_and_the_later_players_are_read() -> None:
    t = two_rounds(883)
    t.players[1] = replace(t.players[1], id=1)  # Dieter's record claims Anna's id
    t.players[2] = replace(t.players[2], id=0)
    # Anna's opponents 2 and 4, Jörg's 4 and 2: 2 and 3 are gone, 4 is still read
    assert _problems(t) == [
        (ERROR, "player record 2", "TNr.-ID", "the player id 1 is not a positive number used once"),
        (ERROR, "player record 3", "TNr.-ID", "the player id 0 is not a positive number used once"),
        (ERROR, "player 1", "round 1", "opponent 2 does not exist"),
        (ERROR, "player 4", "round 1", "opponent 3 does not exist"),
    ]


def test_adjourned_games_and_pairings_that_do_not_fit_are_each_named() -> None:
    t = two_rounds(883)
    t.games[(0, 1)] = Round(1, 2, 0, 5)  # Anna-Dieter adjourned
    t.games[(1, 1)] = Round(2, 1, 0, 5)
    t.games[(3, 2)] = Round(1, 9, 1)  # Eva against a player 9 that does not exist
    t.games[(2, 2)] = Round(2, 4, 1)  # Jörg against Eva, who does not name him
    assert _problems(t) == [
        (WARNING, "player 1", "round 1", "the game is adjourned: it has no result"),
        (WARNING, "player 1", "round 1", "the game has no result"),
        (ERROR, "player 1", "round 2", "opponent 4 is not paired with this player in that round"),
        (WARNING, "player 2", "round 1", "the game is adjourned: it has no result"),
        (ERROR, "player 2", "round 2", "opponent 3 is not paired with this player in that round"),
        (ERROR, "player 3", "round 2", "opponent 4 is not paired with this player in that round"),
        (ERROR, "player 4", "round 2", "opponent 9 does not exist"),
    ]


def test_the_records_after_a_bye_are_checked() -> None:
    t = two_rounds(883)
    t.games[(0, 1)] = Round(3, 0, 3)  # Anna: "spielfrei" in round 1, the first record checked
    t.games[(1, 1)] = Round(3, 0, 3)
    t.games[(3, 2)] = Round(1, 9, 1)
    assert _problems(t) == [
        (ERROR, "player 1", "round 2", "opponent 4 is not paired with this player in that round"),
        (ERROR, "player 4", "round 2", "opponent 9 does not exist"),
    ]


def test_both_players_white_is_an_error_and_two_records_without_a_colour_are_not() -> None:
    t = two_rounds(883)
    t.games[(0, 1)] = Round(1, 2, 3)  # Anna and Dieter both white
    t.games[(1, 1)] = Round(1, 1, 1)
    t.games[(2, 1)] = Round(0, 4, 3)  # Jörg and Eva: no colour in either record (4000 value 0)
    t.games[(3, 1)] = Round(0, 3, 1)
    assert _problems(t) == [(ERROR, "player 1", "round 1", "both players of the game have the same colour")]


def test_a_game_of_the_last_paired_round_with_one_result_missing_has_no_result() -> None:
    t = two_rounds(883)  # two rounds, both paired (general field 3)
    t.games[(1, 2)] = Round(1, 3, 0)  # Dieter-Jörg, round 2: Dieter's record without a result
    t.games[(2, 2)] = Round(2, 2, 1)
    assert _problems(t) == [(WARNING, "player 2", "round 2", "the game has no result")]


def test_results_that_are_no_game_are_an_error_and_both_losing_a_warning() -> None:
    t = two_rounds(883)
    t.games[(0, 1)] = Round(1, 2, 3)  # Anna and Dieter both won (4002 value 3)
    t.games[(1, 1)] = Round(2, 1, 3)
    t.games[(2, 1)] = Round(1, 4, 1)  # Jörg and Eva both lost: a game the arbiter scored so
    t.games[(3, 1)] = Round(2, 3, 1)
    assert _problems(t) == [
        (ERROR, "player 1", "round 1", "the results 1 and 1 do not fit together"),
        (WARNING, "player 3", "round 1", "the results 0 and 0 are not those of one game"),
    ]


def test_an_implausible_birth_year_and_ratings_that_are_no_numbers_are_warnings() -> None:
    t = two_rounds(883)
    t.players[0] = replace(t.players[0], birth="18000101", elo="21x0", nwz="abc")
    assert _problems(t) == [
        (
            WARNING,
            "player 1",
            "Geburtsdatum",
            "birth date '1800/01/01' is not plausible: a birth year lies between 1850 and 2099",
        ),
        (WARNING, "player 1", "FIDE-Elo", "rating '21x0' is not a number; ignored"),
        (WARNING, "player 1", "NWZ", "rating 'abc' is not a number; ignored"),
    ]


def test_a_player_without_a_name_is_warned_of_and_a_rating_of_zeros_is_no_rating() -> None:
    t = two_rounds(883)
    t.players[1] = replace(t.players[1], name="", elo="0000", nwz="0")  # Swiss-Chess's empty rating
    assert _problems(t) == [(WARNING, "player 2", "Spielername", "the player has no name")]


def test_the_ger_record_of_each_player_as_a_trf_line_has_it() -> None:
    document = read_swt_document(build(two_rounds(883)))
    found = [
        [
            (
                n.line,
                n.federation,
                n.start_no,
                n.national_id,
                n.birth_text,
                n.club_code,
                n.member_no,
                n.person_no,
                n.rating,
            )
            for n in p.national
        ]
        for p in document.players
    ]
    assert found == [
        [(0, "GER", 1, "C0327-123", "1980/05/17", "C0327", "123", None, 2050)],
        [(0, "GER", 2, "C0327-7", "1975", "C0327", "7", None, 1900)],
        [(0, "GER", 3, "10012345", "1990/01/01", None, None, "10012345", 1700)],  # Jörg: only his PKZ and NWZ
        [],  # Eva: no club, no PKZ, no NWZ
    ]
    assert [[(n.sex, n.birth_year, n.birth_date) for n in p.national] for p in document.players] == [
        [("w", 1980, date(1980, 5, 17))],
        [("m", 1975, None)],
        [("m", 1990, date(1990, 1, 1))],
        [],
    ]
    assert [(p.line, p.birth_text, p.rank) for p in document.players] == [
        (0, "1980/05/17", None),
        (0, "1975", None),
        (0, "1990/01/01", None),
        (0, "", None),
    ]
