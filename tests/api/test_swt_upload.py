"""A Swiss-Chess SWT file goes through the TRF's doors: previewed, submitted and corrected like the
same tournament as TRF (body or form upload, any file name), its problems named by record
("player 2") and an SWT of another version answered with the versions read and the TRF export."""

from __future__ import annotations

from typing import Any

from tests.api.test_submissions import _counts, _games, _german_trf, _headers
from tests.api.world import World
from tests.formats.swt_files import SAMPLES, Player, Round, Tournament, build

PARAMS = {"acronym": "TRF", "federation": "C03"}


def _german_swt(world: World, **changes: str) -> bytes:
    """``_german_trf``'s tournament as Swiss-Chess 8.xx writes it: the same four players, matched
    the same four ways (club + membership number, person number, FIDE id, newcomer), the same games."""
    players = [
        Player("Mueller,Anna", 1, "19800517", nwz="1500", zps_club="C0327", zps_member="1", attribute="w"),
        Player("Mueller,Bernd", 2, "", nwz="1500", pkz=str(world.pkz["B"])),
        Player("Muller,Carla", 3, "", fide_id="4600003", attribute="w"),
        Player("Neumann,Nina", 4, "20110304", nwz="1500", zps_club="C0327", zps_member="77", attribute="w"),
    ]
    for key, value in changes.items():
        number, attribute = key.split("_", 1)
        index = int(number.removeprefix("p")) - 1
        setattr(players[index], attribute, value)
    games: dict[tuple[int, int], Round] = {}
    for game in _games(4):
        white, black, round_no = game["white"], game["black"], game["round"]
        own = {"1-0": (3, 1), "0-1": (1, 3), "1/2-1/2": (2, 2)}[game["result"]]
        games[(white - 1, round_no)] = Round(1, black, own[0])
        games[(black - 1, round_no)] = Round(2, white, own[1])
    tournament = Tournament(883, 3, players, games, name="Herbstturnier", start_date="06.11.2026")
    tournament.end_date, tournament.time_control = "08.11.2026", "90 min + 30 s"
    return build(tournament)


def _send(world: World, method: str, path: str, data: bytes, *, form: str | None = None) -> Any:
    url = f"/api/v1/tournaments{path}"
    if form is not None:
        files = {"file": (form, data, "application/octet-stream")}
        return world.client.request(method, url, params=PARAMS, files=files, headers=_headers(world, "referee_c"))
    headers = _headers(world, "referee_c", **{"Content-Type": "application/octet-stream"})
    return world.client.request(method, url, params=PARAMS, content=data, headers=headers)


def test_an_swt_is_previewed_exactly_as_the_same_trf(fresh: World) -> None:
    swt = _german_swt(fresh)
    trf = _german_trf(fresh).encode()
    as_trf = _send(fresh, "POST", "/preview/trf", trf)
    assert as_trf.status_code == 200, as_trf.text
    for form in (None, "Herbst.SWT", "renamed.trf"):
        as_swt = _send(fresh, "POST", "/preview/trf", swt, form=form)
        assert as_swt.status_code == 200, as_swt.text
        # The same evaluation; the TRF's reader warnings (its points columns) are the TRF's own.
        assert {**as_swt.json(), "warnings": []} == {**as_trf.json(), "warnings": []}
    assert [row["pkz"] for row in as_trf.json()["rows"][:3]] == [fresh.pkz["A"], fresh.pkz["B"], fresh.pkz["C"]]


def test_an_swt_is_submitted_and_corrected(fresh: World) -> None:
    swt = _german_swt(fresh)
    submitted = _send(fresh, "POST", "/trf", swt, form="Herbst.SWT")
    assert submitted.status_code == 201, submitted.text
    players = submitted.json()["players"]
    assert [p["pkz"] for p in players[:3]] == [fresh.pkz["A"], fresh.pkz["B"], fresh.pkz["C"]]
    assert [p["created"] for p in players] == [False, False, False, True]
    tid = submitted.json()["id"]
    corrected = _send(fresh, "PUT", f"/{tid}/trf", swt)
    assert corrected.status_code == 200, corrected.text
    assert (corrected.json()["id"], corrected.json()["version"]) == (tid, 2)


def test_swt_problems_name_the_player_record_and_store_nothing(fresh: World) -> None:
    swt = _german_swt(fresh, p2_birth="19751345")
    before = _counts(fresh.url)
    for path in ("/trf", "/preview/trf"):
        answer = _send(fresh, "POST", path, swt, form="Herbst.SWT")
        assert answer.status_code == 422, answer.text
        errors = {(e["place"], e["message"]) for e in answer.json()["errors"]}
        assert ("player 2", "Geburtsdatum: birth date '1975/13/45' is not a valid date") in errors
    assert _counts(fresh.url) == before


def test_an_swt_of_another_version_says_which_are_read(fresh: World) -> None:
    data = bytearray((SAMPLES / "SwissIndividual.SWT").read_bytes())
    data[0x261:0x263] = (950).to_bytes(2, "little")
    answer = _send(fresh, "POST", "/preview/trf", bytes(data), form="old.SWT")
    assert answer.status_code == 422, answer.text
    messages = [e["message"] for e in answer.json()["errors"] if e["place"] == "general data"]
    assert len(messages) == 1
    assert "version 9.50" in messages[0] and "7.xx and 8.xx" in messages[0] and "FIDE TRF" in messages[0]
