"""``zdb synth`` submits each synthetic tournament's games as the generator placed them: every
game with its own result, round and board, in stored order."""

from __future__ import annotations

from zdb.exchange.synthetic import organiser_prefixes, submission_of
from zdb.synthetic import TournamentKind, generate
from zdb.tournaments.service import SubmittedGame


def test_submitted_games_keep_their_rounds_boards_and_results() -> None:
    world = generate(seed=1, scale=0.002)
    district = organiser_prefixes(world)
    kinds = set()
    for t in world.tournaments:
        kinds.add(t.kind)
        placed = tuple(
            SubmittedGame(int(g.white), int(g.black), g.result.value, round=r, board=b) for r, b, g in t.placed_games()
        )
        assert submission_of(t, district).games == placed, t.event.id
    assert kinds == set(TournamentKind)  # team seasons and individual events alike
