"""``zdb standings FILE.SWT``: a Swiss-Chess file is read by its content, its standings computed
from the round records (each player's points as the sample's JSON gives its results); a team
tournament, an SWT with errors and one of another version refused in one line naming the place."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from tests.formats.swt_files import SAMPLES, build, two_rounds
from zdb.cli import main

INDIVIDUAL = SAMPLES / "SwissIndividual.SWT"
POINTS = {1: 0.0, 2: 0.5, 3: 1.0}  # 4002, low two bits: loss, draw, win


def _run(*arguments: str) -> Any:
    return CliRunner().invoke(main, ["standings", *arguments])


def _refusal(*arguments: str) -> str:
    result = _run(*arguments)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return str(lines[0])


def _json_points() -> dict[str, float]:
    with (SAMPLES / "SwissIndividual.json").open(encoding="utf-8") as handle:
        expected = json.load(handle)
    points: dict[str, float] = {str(p["2021"]): 0.0 for p in expected["players"]}
    for x in expected["pairings_players"]:
        points[str(int(x["player"], 16))] += POINTS[int(x["4002"].split("-")[1]) & 3]
    return points


def test_the_individual_sample_as_a_table() -> None:
    result = _run(str(INDIVIDUAL))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Standings: Swiss, 24 players, 9 rounds")
    assert lines[2].split()[:5] == ["Rank", "Player", "Name", "Points", "Games"]


def test_points_and_names_as_the_json_says(tmp_path: Path) -> None:
    renamed = tmp_path / "turnier.dat"  # told by content, not by the name
    renamed.write_bytes(INDIVIDUAL.read_bytes())
    result = _run(str(renamed), "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["rows"]
    assert {row["player"]: row["points"] for row in rows} == _json_points()
    with (SAMPLES / "SwissIndividual.json").open(encoding="utf-8") as handle:
        names = {str(p["2021"]): p["2000"] for p in json.load(handle)["players"]}
    assert {row["player"]: row["name"] for row in rows} == names
    assert all(row["games"] == 9 for row in rows)


def test_a_generated_7xx_file() -> None:
    result = CliRunner().invoke(main, ["standings", "-", "--json"], input=build(two_rounds(700)))
    assert result.exit_code == 0, result.output
    rows = {row["player"]: row["points"] for row in json.loads(result.output)["rows"]}
    assert rows == {"1": 2.0, "2": 1.0, "3": 0.5, "4": 0.5}


def test_refusals_name_the_place(tmp_path: Path) -> None:
    broken = two_rounds(883)
    broken.players[1] = replace(broken.players[1], birth="19751345")
    path = tmp_path / "broken.swt"
    path.write_bytes(build(broken))
    assert _refusal(str(path)) == f"{path}: player 2, Geburtsdatum: birth date '1975/13/45' is not a valid date"
    other = bytearray(INDIVIDUAL.read_bytes())
    other[0x261:0x263] = (1012).to_bytes(2, "little")
    path.write_bytes(bytes(other))
    line = _refusal(str(path))
    assert line.startswith(f"{path}: general data, file version: this Swiss-Chess file has version 10.12")
    assert "FIDE TRF" in line


def test_the_team_sample_as_a_season_with_the_files_own_points() -> None:
    """Match and board points equal what Swiss-Chess stored in the team records (fields 1038
    and 1039, each times two; the structure's field names)."""
    result = _run(str(SAMPLES / "SwissTeam.SWT"), "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["rows"]
    with (SAMPLES / "SwissTeam.json").open(encoding="utf-8") as handle:
        teams = json.load(handle)["teams"]
    stored = {t["1000"]: (t["1038"] / 2, t["1039"] / 2) for t in teams}
    assert {r["team"]: (r["match_points"], r["board_points"]) for r in rows} == stored
