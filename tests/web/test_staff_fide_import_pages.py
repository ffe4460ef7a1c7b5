"""FIDE's list on the staff's import page (``/staff/lists/{id}``): the problems of its lines, and
the refusal of a list with problems, in German like the federation list's (the API keeps
answering them in English)."""

from __future__ import annotations

import io
import re

from fastapi.testclient import TestClient

from tests.web.html_text import text_of
from tests.web.same_site import SAME_SITE
from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.lists.runner import run_list_import
from zdb.synthetic.fide_lists import fide_players, write_fide_txt

FILE = "players_list_foa.txt"
FIRST_ID = next(iter(fide_players(3, 3))).fide_id


def _broken_list() -> bytes:
    """The header and three players; the second's sex is X, the third's name holds an ESC, and
    the first comes again as a fifth line."""
    out = io.BytesIO()
    write_fide_txt(fide_players(3, 3), out)
    header, first, second, third = out.getvalue().splitlines(keepends=True)
    assert second.count(b" M ") == 1  # the sex column of the fixed-width line
    bad_sex = second.replace(b" M ", b" X ")
    bad_name = third.replace(b",", b"\x1b", 1)
    return header + first + bad_sex + bad_name + first


def _problems(page: str, testid: str) -> list[str]:
    listed = page.split(f'data-testid="{testid}"')[1].split("</ul>", maxsplit=1)[0]
    return [text_of(item) for item in re.findall(r"<li>(.*?)</li>", listed)]


def test_a_fide_lists_problems_and_its_refusal_are_shown_in_german(postgres_url: str) -> None:
    with unit_of_work(engine_for(postgres_url)) as session:
        admin = create_token(session, "admin", label="staff").secret
    client = TestClient(
        create_app(Settings(database_url=postgres_url), recalculation=False), follow_redirects=False, headers=SAME_SITE
    )
    bearer = {"Authorization": f"Bearer {admin}"}
    ids = {}
    for run, dry_run in (("dry", "true"), ("real", "false")):
        sent = client.post(
            "/api/v1/lists/fide-imports",
            files={"file": (FILE, _broken_list())},
            data={"edition": "2026-11-01", "dry_run": dry_run},
            headers=bearer,
        )
        assert sent.status_code == 202, sent.text
        ids[run] = sent.json()["id"]
    assert run_list_import(engine_for(postgres_url), ids["dry"]) == "done"
    assert run_list_import(engine_for(postgres_url), ids["real"]) == "refused"
    assert client.post("/referee/sign-in", data={"token": admin, "next": "/staff/lists"}).status_code == 303

    german = [
        f"{FILE}, Zeile 3, Spalte Sex: Nicht M oder F: 'X'",
        f"{FILE}, Zeile 4, Spalte Name: Enthält ein Steuerzeichen (ESC); ein Wert enthält nie eines: "
        "Die Zeile ist beschädigt",
        f"{FILE}, Zeile 5, Spalte ID Number: FIDE-ID {FIRST_ID} ein weiteres Mal",
    ]
    dry = client.get(f"/staff/lists/{ids['dry']}")
    assert dry.status_code == 200
    assert _problems(dry.text, "problems") == german

    refused = client.get(f"/staff/lists/{ids['real']}")
    assert refused.status_code == 200
    assert _problems(refused.text, "refusal") == [
        f"{FILE}:3: Sex: Nicht M oder F: 'X'",
        f"{FILE}:4: Name: Enthält ein Steuerzeichen (ESC); ein Wert enthält nie eines: Die Zeile ist beschädigt",
        f"{FILE}:5: ID Number: FIDE-ID {FIRST_ID} ein weiteres Mal",
    ]

    # the API answers the same problems in English, as before
    english = client.get(f"/api/v1/lists/imports/{ids['dry']}", headers=bearer).json()["result"]["problems"]
    assert english == [
        f"{FILE}:3: Sex: not M or F: 'X'",
        f"{FILE}:4: Name: holds a control character (ESC); a value never does: the line is damaged",
        f"{FILE}:5: ID Number: FIDE id {FIRST_ID} again",
    ]
