"""The world the API tests read: the replay vector of vectors.json, submitted and recalculated
through the database, dressed with a federation tree, clubs, names with umlauts, birth dates,
memberships and API tokens; then a withdrawn and a pending tournament on top.

Known answers stay in vectors.json: tests compare the API's figures with it, never with numbers
written here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from tests.conftest import VECTORS
from tests.db.scenario import recalc, submit
from zdb.app import create_app
from zdb.auth.service import create_token, revoke_token
from zdb.common.names import fold_name
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.federations.models import Club, Federation
from zdb.players.models import Membership, Player
from zdb.players.service import pkz_by_external_id
from zdb.tournaments.models import TournamentVersion

REPLAY = VECTORS["replays"][0]

#: pid -> surname, given name, sex: three spellings of one surname, and other letters to fold
NAMES = {
    "A": ("Müller", "Anna", "F"),
    "B": ("Mueller", "Bernd", "M"),
    "C": ("Muller", "Carla", "F"),
    "D": ("Schmidt", "Dieter", "M"),
    "E": ("Weiß", "Erik", "M"),
    "F": ("Öztürk", "Fatma", "F"),
    "G": ("Groß", "Gerd", "M"),
    "H": ("Hoffmann", "Hanna", "F"),
}
FEDERATIONS = [
    ("", "Deutscher Schachbund", 0, None),
    ("C", "Region C", 1, ""),
    ("C01", "Bezirk C01", 2, "C"),
    ("C03", "Bezirk C03", 2, "C"),
    ("D", "Region D", 1, ""),
]
CLUBS = [("C0101", "SC Erste 01", "C01"), ("C0327", "SK Musterstadt 1920", "C03"), ("D0001", "SV Delta", "D")]
#: pid -> (club, member number, status, until)
MEMBERSHIPS = {
    "A": [("C0327", 1, "active", None)],
    "B": [("C0327", 2, "active", None)],
    "E": [("C0327", 3, "passive", None)],
    "H": [("C0327", 4, "active", None), ("D0001", 9, "active", date(2020, 12, 31))],
    "C": [("C0101", 1, "active", None)],
    "D": [("D0001", 1, "active", None)],
    "F": [("D0001", 2, "passive", None)],
}
FIDE_IDS = {"A": 4600001, "C": 4600003}
#: tournament id -> organising federation, name
TOURNAMENTS = {
    1: ("C03", "Vereinsmeisterschaft Musterstadt"),
    2: ("C01", "Bezirksmeisterschaft C01"),
    3: ("D", "Delta Open"),
    4: ("C", "Bezirksliga Region C"),
}
WITHDRAWN, PENDING = 6, 7
#: name -> role, scope; "revoked" is revoked at once
TOKENS = [
    ("admin", "admin", None),
    ("referee_c", "referee", "C"),
    ("referee_d", "referee", "D"),
    ("club_c0327", "club", "C0327"),
    ("club_d0001", "club", "D0001"),
    ("revoked", "club", "C0327"),
]
#: submitted after the recalculation: tournament id -> acronym, end date
LATE = {WITHDRAWN: ("XTR", "2026-10-01"), PENDING: ("NEW", "2026-10-05")}


@dataclass
class World:
    url: str
    client: TestClient
    pkz: dict[str, int]  # vector pid -> person number
    tokens: dict[str, str] = field(default_factory=dict)  # name -> secret

    @property
    def pid(self) -> dict[int, str]:
        return {number: pid for pid, number in self.pkz.items()}

    def get(self, path: str, token: str | None = None, **params: Any) -> Any:
        headers = {} if token is None else {"Authorization": f"Bearer {self.tokens[token]}"}
        return self.client.get(f"/api/v1{path}", params=params, headers=headers)


def _register(url: str, pkz: dict[str, int]) -> None:
    birth_years = {p["pid"]: p["birth_year"] for e in REPLAY["events"] for p in e.get("players", [])}
    with unit_of_work(engine_for(url)) as session:
        for prefix, name, level, parent in FEDERATIONS:
            session.add(Federation(prefix=prefix, name=name, level=level, parent_prefix=parent))
            session.flush()
        for code, name, federation in CLUBS:
            session.add(Club(code=code, name=name, federation_prefix=federation))
        session.flush()
        for pid, (surname, given, sex) in NAMES.items():
            year = birth_years.get(pid)
            session.execute(
                update(Player)
                .where(Player.pkz == pkz[pid])
                .values(
                    surname=surname,
                    given_name=given,
                    search_name=fold_name(f"{given} {surname}"),
                    sex=sex,
                    birth_date=None if year is None else date(year, 5, 17),
                    fide_id=FIDE_IDS.get(pid),
                    nation="GER",
                )
            )
        for pid, memberships in MEMBERSHIPS.items():
            for club, number, status, until in memberships:
                session.add(
                    Membership(
                        player_pkz=pkz[pid],
                        club_code=club,
                        member_no=number,
                        status=status,
                        valid_from=date(2010, 1, 1),
                        valid_until=until,
                    )
                )
        for tid, (federation, name) in TOURNAMENTS.items():
            session.execute(
                update(TournamentVersion)
                .where(TournamentVersion.tournament_id == tid)
                .values(federation_prefix=federation, name=name)
            )


def _tokens(url: str) -> dict[str, str]:
    made = {}
    with unit_of_work(engine_for(url)) as session:
        for name, role, scope in TOKENS:
            made[name] = create_token(session, role, scope, label=name).secret
        revoke_token(session, made["revoked"][:12])
    return made


def build_world(url: str) -> World:
    submit(url, {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]})
    outcome = recalc(url)
    assert outcome.ran and outcome.clean
    with unit_of_work(engine_for(url)) as session:
        pkz = pkz_by_external_id(session, list(NAMES))
    _register(url, pkz)
    # After the recalculation: a tournament withdrawn before its evaluation, one still pending.
    first, third = REPLAY["events"][0], REPLAY["events"][2]
    late = [
        *(
            dict(event, id=tid, acronym=LATE[tid][0], end_date=LATE[tid][1])
            for tid, event in ((WITHDRAWN, first), (PENDING, third))
        ),
        {"withdraw": WITHDRAWN},
    ]
    submit(url, {"initial_states": {}, "events": late})
    client = TestClient(create_app(Settings(database_url=url, read_pool_size=2), recalculation=False))
    return World(url, client, pkz, _tokens(url))
