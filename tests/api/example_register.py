"""The project's example files (``examples/``) and a register of their people, as README's
synthetic federation numbers them (``examples/README.md``), built by hand: tests that send the
unchanged example files need no synthetic load."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.web.same_site import SAME_SITE
from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.federations.models import Club, Federation
from zdb.players.models import Membership
from zdb.players.service import NewPlayer, create_players

__all__ = ["EXAMPLES", "Office", "kranz"]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
QUERY = {"acronym": "OPN", "federation": "101"}
#: the example files' known players (examples/README.md): number, surname, given name, FIDE id
PEOPLE = [
    (10000022, "Müller", "Frank", None),
    (10000035, "Schneider", "Björn", None),
    (10000040, "Vogel", "Petra", 4686469),
    (10000044, "Schulze", "Niklas", None),
    (10000069, "Fuchs", "Daniel", 4628716),
]
#: club 10126's membership numbers the files name
MEMBERS = {10000040: 3, 10000022: 52}


class Office:
    """A client on the example register, with the referee's and the rating office's tokens."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.client = TestClient(create_app(Settings(database_url=url), recalculation=False))
        with unit_of_work(engine_for(url)) as session:
            for prefix, name, level, parent in (
                ("", "Deutscher Schachbund", 0, None),
                ("1", "Badischer Schachverband", 1, ""),
                ("101", "Bezirk 101", 2, "1"),
            ):
                session.add(Federation(prefix=prefix, name=name, level=level, parent_prefix=parent))
                session.flush()
            session.add(Club(code="10126", name="Post SV Sankt Rosenheim", federation_prefix="101"))
            session.flush()
            create_players(
                session,
                [NewPlayer(surname=s, given_name=g, fide_id=f, pkz=pkz, nation="GER") for pkz, s, g, f in PEOPLE],
            )
            for pkz, number in MEMBERS.items():
                joined = date(2020, 1, 1)
                session.add(Membership(player_pkz=pkz, club_code="10126", member_no=number, valid_from=joined))
            self.referee = create_token(session, "referee", "1", label="referee").secret
            self.admin = create_token(session, "admin", None, label="office").secret

    def trf(self, method: str, path: str, file: str, *, text: str | None = None, **more: str) -> Any:
        """An example ``file`` (or ``text``) sent as the referee's."""
        headers = {"Authorization": f"Bearer {self.referee}", "Content-Type": "application/octet-stream"}
        data = (EXAMPLES / file).read_bytes() if text is None else text.encode()
        return self.client.request(method, f"/api/v1{path}", params={**QUERY, **more}, content=data, headers=headers)

    def signed_in(self, who: str = "referee") -> TestClient:
        """A page client signed in with the referee's (or the office's) token."""
        client = TestClient(self.client.app, follow_redirects=False, headers=SAME_SITE)  # a form of this site
        token = self.referee if who == "referee" else self.admin
        assert client.post("/referee/sign-in", data={"token": token, "next": "/referee"}).status_code == 303
        return client

    def admin_post(self, path: str, body: dict[str, Any]) -> Any:
        return self.client.post(f"/api/v1{path}", json=body, headers={"Authorization": f"Bearer {self.admin}"})


def kranz(answer: Any) -> dict[str, Any]:
    """Ida Kranz's row of a submission's or preview's answer: start number 6 in every example file."""
    rows = answer.json().get("players") or answer.json()["rows"]
    return next(r for r in rows if r["start_no"] == 6)
