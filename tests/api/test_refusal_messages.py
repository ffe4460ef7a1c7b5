"""A refused submission tells the referee what to do: a JSON body's type errors name the field,
the value sent, the form expected and an example (not the framework's words), beside the rules'
problems of the rest of the body; a TRF file cut off in a line is called cut off at that line,
and a cut file (TRF or Swiss-Chess) gets that one message, not also what follows from the cut."""

from __future__ import annotations

from typing import Any

from tests.api.test_submissions import _body, _counts, _german_trf, _post, _post_trf
from tests.api.test_swt_upload import _german_swt, _send
from tests.api.world import World


def _errors(answer: Any) -> dict[str, str]:
    assert answer.status_code == 422, answer.text
    return {e["place"]: e["message"] for e in answer.json()["errors"]}


def test_json_type_errors_name_the_form_expected_beside_the_rules_problems(fresh: World) -> None:
    players = _body(fresh)["players"]
    players[0] = {"pkz": "10000042x"}
    players[3] = {**players[3], "sex": "W"}
    before = _counts(fresh.url)
    errors = _errors(
        _post(fresh, _body(fresh, end_date="26.11.2026", time_control="60 min + 10 s", acronym=123, players=players))
    )
    assert errors["body.end_date"] == '"26.11.2026" is not a date in the form YYYY-MM-DD, e.g. 2026-11-26'
    assert errors["body.acronym"] == '123 is not a text; write a text in quotes, e.g. "VMS"'
    assert errors["body.players[0].pkz"] == (
        '"10000042x" is not a whole number; write a number without quotes, e.g. 10000042'
    )
    assert errors["body.players[3].sex"] == '"W" is none of the values allowed here: "M", "F", "D"'
    # the rules' problem of the rest of the body, in the same answer
    assert "70 minutes" in errors["body.time_control"]
    assert _counts(fresh.url) == before


def test_a_day_no_calendar_has_and_a_missing_field(fresh: World) -> None:
    games = _body(fresh)["games"]
    games[0] = {key: value for key, value in games[0].items() if key != "result"}
    errors = _errors(_post(fresh, _body(fresh, start_date="2026-02-30", games=games)))
    assert errors["body.start_date"] == (
        '"2026-02-30" is a day no calendar has; a date in the form YYYY-MM-DD, e.g. 2026-09-18'
    )
    assert errors["body.games[0].result"] == 'is missing: this field is required, e.g. "1-0"'


def test_a_trf_cut_off_in_a_line_is_called_cut_off_and_nothing_else(fresh: World) -> None:
    text = _german_trf(fresh)
    lines = text.splitlines()
    before = _counts(fresh.url)
    # the last GER line loses its birth date and the end of its membership number (C0327-77):
    # read as it came, Nina Neumann would be created again as a newcomer
    national = text[: text.rindex("C0327-77") + 3]
    # the last player line loses the result of its last round
    player = "\n".join([*lines[:-1], lines[-2][:-1]])
    for cut in (national, player):
        last = len(cut.splitlines())
        errors = _errors(_post_trf(fresh, cut))
        assert list(errors) == [f"line {last}"], errors
        assert "cut off" in errors[f"line {last}"]
    assert _counts(fresh.url) == before
    whole = _post_trf(fresh, text.rstrip("\n"))  # a whole file without its last line break is read
    assert whole.status_code == 201, whole.text


def test_a_cut_swt_gets_only_its_own_message(fresh: World) -> None:
    swt = _german_swt(fresh)
    errors = _errors(_send(fresh, "POST", "/preview/trf", swt[: len(swt) // 2], form="Herbst.SWT"))
    assert list(errors) == ["general data"], errors
    assert "cut off" in errors["general data"]


def test_a_trf_uploads_query_parameters_are_answered_as_a_json_body_is(fresh: World) -> None:
    errors = _errors(_post_trf(fresh, _german_trf(fresh), end_date="26.11.2026", youth_u12="maybe"))
    assert errors["query.end_date"] == '"26.11.2026" is not a date in the form YYYY-MM-DD, e.g. 2026-11-26'
    assert errors["query.youth_u12"] == '"maybe" is neither true nor false; write true or false without quotes'
