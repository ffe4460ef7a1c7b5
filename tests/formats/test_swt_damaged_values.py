"""A Swiss-Chess file whose player name holds a control character, or whose tournament date is
implausible (``01.01.0001``), is refused naming the record and the Swiss-Chess field, as a TRF
file is (``test_trf_hostile_lines``)."""

from __future__ import annotations

from dataclasses import replace

from tests.formats.swt_files import build, two_rounds
from zdb.formats.swt import read_swt_document
from zdb.formats.trf import Severity


def _errors(version: int, **changes: object) -> list[tuple[str | None, str | None, str]]:
    tournament = two_rounds(version)
    players = changes.pop("players", tournament.players)
    document = read_swt_document(build(replace(tournament, players=players, **changes)))  # type: ignore[arg-type]
    return [(p.record, p.field, p.message) for p in document.problems if p.severity is Severity.ERROR]


def test_the_sample_tournament_has_no_errors() -> None:
    assert _errors(800) == []


def test_an_esc_in_a_player_name_is_an_error_naming_record_and_field() -> None:
    players = list(two_rounds(800).players)
    players[1] = replace(players[1], name="Schmidt,\x1bDieter")
    found = _errors(800, players=players)
    assert [(record, field) for record, field, _ in found] == [("player 2", "Spielername")]
    assert found[0][2].startswith("a control character (ESC) in column 9")


def test_an_implausible_start_date_is_an_error_naming_the_field() -> None:
    found = _errors(800, start_date="01.01.0001")
    assert [(field, message) for _, field, message in found] == [
        ("Datum Start", "'01.01.0001' is not a plausible date: a tournament's dates lie between 1900 and 2099")
    ]
