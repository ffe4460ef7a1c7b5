"""The standings' input refuses what would make standings meaningless, naming the place."""

from __future__ import annotations

import pytest

from zdb.rating import InvalidInputError, ResultCode
from zdb.standings import Bye, ByeKind, IndividualTournament, MatchPoints, Pairing, Round, TeamMatch, TeamSeason

W = ResultCode.WHITE_WINS


@pytest.mark.parametrize(
    ("players", "rounds", "place"),
    [
        (("A", "A"), (), "players[1]"),
        (("A", "B"), (Round((Pairing("A", "C", W),)),), "rounds[0].pairings[0].black"),
        (("A", "B"), (Round((Pairing("A", "A", W),)),), "rounds[0].pairings[0]"),
        (
            ("A", "B", "C"),
            (Round((Pairing("A", "B", W),), (Bye("A", ByeKind.HALF_POINT),)),),
            "rounds[0].byes[0].player",
        ),
        (("A", "B"), (Round(), Round((), (Bye("Z", ByeKind.ZERO_POINT),))), "rounds[1].byes[0].player"),
    ],
)
def test_invalid_tournaments(players: tuple[str, ...], rounds: tuple[Round, ...], place: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        IndividualTournament(players, rounds)
    assert error.value.place == place


def test_invalid_season() -> None:
    with pytest.raises(InvalidInputError) as error:
        TeamSeason(("A", "B"), (TeamMatch(1, "C", "B", (W,)),), MatchPoints())
    assert error.value.place == "matches[0].home"


def test_bye_points() -> None:
    assert [kind.points for kind in ByeKind] == [1, 1, 0.5, 0]
    assert [kind.requested for kind in ByeKind] == [False, False, True, True]
