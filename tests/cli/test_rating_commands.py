"""``zdb rate`` and ``zdb replay`` reproduce vectors.json and refuse bad input with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import ROOT, VECTORS
from tests.vector_compare import assert_row, assert_rows, canonical_states
from zdb.cli import main


def _run(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def _rate(document: Any) -> Any:
    code, out, err = _run(["rate", "-"], json.dumps(document))
    assert code == 0, err
    return json.loads(out)


def test_rate_reproduces_every_tournament_vector_in_one_array() -> None:
    cases = VECTORS["tournaments"]
    results = _rate([{"tournament": c["tournament"], "states": c["states"]} for c in cases])
    assert len(results) == len(cases)
    for case, result in zip(cases, results, strict=True):
        assert result["rule_set"] == case["expected"]["rule_set"]
        assert_rows(case["expected"]["rows"], result["rows"], case["name"])
        assert canonical_states(result["states"]) == canonical_states(case["expected"]["states"])


def test_rate_reproduces_every_single_player_vector(tmp_path: Path) -> None:
    for k, case in enumerate(VECTORS["single_player"]):
        path = tmp_path / f"case{k}.json"
        path.write_text(json.dumps({"tournament": case["tournament"], "states": case["states"]}), encoding="utf-8")
        code, out, err = _run(["rate", str(path)])
        assert code == 0, err
        result = json.loads(out)
        assert result["rule_set"] == case["rule_set"]
        (row,) = (row for row in result["rows"] if row["pid"] == case["expected"]["pid"])
        assert_row(case["expected"], row, case["name"])


@pytest.mark.parametrize("case", VECTORS["replays"], ids=[c["name"] for c in VECTORS["replays"]])
def test_replay_reproduces_the_replay_vectors(case: dict[str, Any]) -> None:
    document = {"initial_states": case["initial_states"], "events": case["events"]}
    code, out, err = _run(["replay", "-"], json.dumps(document))
    assert code == 0, err
    result, expected = json.loads(out), case["expected"]
    assert result["order"] == expected["order"]
    assert canonical_states(result["final_states"]) == canonical_states(expected["final_states"])
    assert result["history"] == expected["history"]
    for tournament_id, rows in expected["reports"].items():
        assert_rows(rows, result["reports"][tournament_id], tournament_id)


def test_rate_table_shows_the_referees_figures() -> None:
    case = VECTORS["tournaments"][0]
    code, out, _ = _run(
        ["rate", "--table", "-"], json.dumps({"tournament": case["tournament"], "states": case["states"]})
    )
    assert code == 0
    first = case["expected"]["rows"][0]
    line = next(line for line in out.splitlines() if line.startswith(first["pid"] + " "))
    assert f"{first['r0']}-{first['i0']}" in line and f"{first['rn']}-{first['i_new']}" in line


def _tournament(**changes: Any) -> dict[str, Any]:
    base = {
        "id": 1,
        "acronym": "ABC",
        "end_date": "2025-05-04",
        "players": [{"pid": "A", "birth_year": 1980}, {"pid": "B", "birth_year": None}],
        "games": [{"white": "A", "black": "B", "result": "1-0"}],
    }
    return {"tournament": base | changes, "states": {}}


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ('{"tournament": ', "stdin:1:16: malformed JSON"),
        (json.dumps(_tournament(end_date="2025-02-30")), "tournament.end_date: impossible date '2025-02-30'"),
        (
            json.dumps(_tournament(games=[{"white": "A", "black": "X", "result": "1-0"}])),
            "tournament.games[0].black: unknown player 'X'",
        ),
        (
            json.dumps(_tournament(games=[{"white": "A", "black": "A", "result": "1-0"}])),
            "tournament.games[0]: player 'A' is paired with himself",
        ),
        (
            json.dumps(_tournament(games=[{"white": "A", "black": "B", "result": "2-0"}])),
            "tournament.games[0].result: unknown result code '2-0'",
        ),
        (
            json.dumps(_tournament(players=[{"pid": "A", "birth_year": 1980}, {"pid": "A", "birth_year": 1981}])),
            "tournament.players[1].pid: player 'A' is listed twice",
        ),
        (json.dumps(_tournament(acronym="ABCD")), "tournament.acronym: must have 3 printable characters"),
        (json.dumps(_tournament(acronym="A\x00C")), "tournament.acronym: must have 3 printable characters"),
        (json.dumps(_tournament(end_date="20250301")), "tournament.end_date: expected a date YYYY-MM-DD"),
        (json.dumps(_tournament(id=2**31)), "tournament.id: must be between 1 and 2147483647"),
        (
            json.dumps(_tournament(players=[{"pid": "A", "fide_rating": 10**15}, {"pid": "B"}])),
            "tournament.players[0].fide_rating: must be between 0 and 3500",
        ),
        (
            json.dumps(_tournament(players=[{"pid": "A", "birth_year": 3000}, {"pid": "B"}])),
            "tournament.players[0].birth_year: must be between 1850 and 2200",
        ),
        (
            json.dumps(_tournament(players=[{"pid": "A" * 65}, {"pid": "B"}])),
            "tournament.players[0].pid: must be 1 to 64 printable characters",
        ),
        (
            json.dumps({"tournament": _tournament()["tournament"], "states": {"A": {"rating": 2**40, "index": 1}}}),
            "states.A.rating: must be between 0 and 3500",
        ),
        (json.dumps(_tournament(id="7")), "tournament.id: expected an integer"),
        (json.dumps(_tournament(players="nobody")), "tournament.players: expected an array"),
        (
            json.dumps({"tournament": _tournament()["tournament"], "states": {"A": {"rating": 1500, "index": -1}}}),
            "states.A.index: must be between 0 and 9999",
        ),
        (json.dumps([_tournament(), 5]), "[1]: expected an object"),
    ],
)
def test_rate_refuses_bad_input_with_one_line(stdin: str, message: str) -> None:
    code, out, err = _run(["rate", "-"], stdin)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert message in err


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([{"withdraw": 4}], "events[0].withdraw: tournament 4 does not exist"),
        (
            [{"start_rating": {"pid": "A", "date": "2025-13-01", "rating": 1500, "index": 1}}],
            "events[0].start_rating.date: impossible date",
        ),
        (
            [{"id": 1, "acronym": "ABC", "end_date": "2025-01-01", "players": [], "games": [{}]}],
            "events[0].games[0].result: missing",
        ),
        (
            [{"start_rating": {"pid": "A", "date": "2025-01-01", "rating": 1500, "index": -1}}],
            "events[0].start_rating.index: must be between 0 and 9999",
        ),
        ([{"withdraw": 2**63}], "events[0].withdraw: must be between 1 and 2147483647"),
    ],
)
def test_replay_refuses_bad_input(events: list[Any], message: str) -> None:
    code, _, err = _run(["replay", "-"], json.dumps({"initial_states": {}, "events": events}))
    assert code == 2
    assert message in err


@pytest.mark.parametrize(
    ("states", "message"),
    [
        ({"A" * 65: {"rating": 1500, "index": 1}}, f"initial_states.{'A' * 65}: must be 1 to 64 printable characters"),
        (
            {
                "A": {
                    "rating": None,
                    "index": 0,
                    "leftover": [{"tournament": 1, "end_date": "2025-01-01", "opp_rating": 10**20, "points": 1}],
                }
            },
            "initial_states.A.leftover[0].opp_rating: must be between 0 and 3500",
        ),
    ],
)
def test_replay_refuses_impossible_states(states: dict[str, Any], message: str) -> None:
    code, _, err = _run(["replay", "-"], json.dumps({"initial_states": states, "events": []}))
    assert code == 2
    assert message in err


def test_a_missing_file_is_bad_input_too(tmp_path: Path) -> None:
    code, _, err = _run(["rate", str(tmp_path / "nope.json")])
    assert code == 2
    assert "nope.json" in err


def test_the_installed_command_runs_the_bundled_example() -> None:
    # The entry point README's "run" command uses, as a separate process: no traceback, a table.
    example = ROOT / "zdb" / "examples" / "club-championship.json"
    done = subprocess.run(
        [sys.executable, "-m", "zdb", "rate", "--table", str(example)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "rule set wo2026" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "zdb", "rate", "-"], input="[", capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
