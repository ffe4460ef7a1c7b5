"""README's "A tournament's life" runs as written: its commands (the ```sh no-test block of the
refused second submission included) in one shell against a fresh embedded service with the
synthetic federation, after the few lines of README before it that they use (``API``, the
tokens, the headers). Each curl call is answered 2xx, or the status its comment announces."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx

from tests.api.readme_walks import run_section, section_commands, service  # noqa: F401 - a fixture
from tests.api.test_readme_commands import project  # noqa: F401 - a fixture

HEADING = "### A tournament's life"


def test_a_tournaments_life_runs_as_written(project: Path, service: int) -> None:  # noqa: F811
    commands = section_commands(HEADING)
    assert len(commands) >= 9, commands
    walk = run_section(project, service, commands, ["LID", "CODE", "RID", "ADMIN_TOKEN", "CID", "LINK"])
    announced = {number: set(re.findall(r"#.*?\b(409)\b", command)) for number, command in commands}
    for entry in walk.calls:
        line, status, code = entry
        assert status.startswith("2") or status in announced[line], (entry, walk.stdout[-2000:])
        assert code == "0", entry
    assert sum(1 for _, status, _ in walk.calls if status == "409") == 1
    lid, code, rid, admin, cid, secret = walk.kept.values()
    follow = f"/complaints/follow/{secret}"
    api = httpx.Client(base_url=f"http://127.0.0.1:{service}/api/v1", timeout=10)
    deadline = time.monotonic() + 60
    while api.get("/recalculation").json()["state"] != "idle":
        assert time.monotonic() < deadline, "the recalculation did not finish in 60 s"
        time.sleep(0.2)
    assert api.get(f"/announcements/{code}").json()["tournament_id"] == int(lid)
    states = api.get(f"/tournaments/{lid}/states").json()
    assert states["state"] == "evaluated"
    recorded = [(c["state"], c["version"]) for c in states["history"] if c["state"] != "evaluated"]
    # the review: waited, approved by the officer, then evaluated
    review = api.get(f"/reviews/{rid}", headers={"Authorization": f"Bearer {admin}"}).json()
    assert (review["state"], review["reason"]) == ("approved", "crosstable checked")
    reviewed = api.get(f"/tournaments/{review['tournament_id']}/states").json()
    assert reviewed["state"] == "evaluated"
    assert [c["state"] for c in reviewed["history"]] == ["submitted", "in_review", "approved", "evaluated"]
    assert recorded == [("submitted", 1), ("corrected", 2), ("corrected", 3)]
    evaluation = api.get(f"/tournaments/{lid}/evaluation").json()
    assert evaluation["version"] == 3
    # the edition published today: inside its complaint period (the complaint is resolved)
    assert evaluation["provisional"]["reasons"] == ["complaint_period"]
    complaint = api.get(follow).json()
    assert complaint["id"] == int(cid) and complaint["state"] == "resolved"
    assert [n["state"] for n in complaint["notes"]] == ["in_progress", "resolved"]
    assert [(k["kind"], k["target"]) for k in complaint["links"]] == [("correction", f"tournament {lid} version 3")]
    assert "spieler@example.org" not in api.get(follow).text
    rules = api.get("/federations/101/settings").json()
    assert (rules["announcement"], rules["announcement_from"], rules["announcement_days"]) == ("warn", "1", 14)
