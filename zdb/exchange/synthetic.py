"""``zdb synth``: the synthetic federation of ``zdb.synthetic`` taken into the database, as a
federation's register and its tournaments submitted in their submission order.

Players keep the generator's person numbers. Federation codes become club-code prefixes: the
national federation the empty prefix, a regional federation its character, a district its
three characters (every club code in it starts with them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from itertools import chain, count, repeat
from operator import itemgetter

from sqlalchemy.orm import Session

from zdb.bulk import copy_rows, foreign_keys_checked_at_end
from zdb.common.collector import collector_paused
from zdb.federations.models import Club, Federation
from zdb.players.models import Membership
from zdb.players.service import NewPlayer, create_players
from zdb.rating import ResultCode
from zdb.synthetic import FederationLevel, SyntheticFederation, SyntheticTournament, TournamentKind
from zdb.timeline.start_states import set_initial_states
from zdb.tournaments.models import GameRow, Participation
from zdb.tournaments.service import SubmittedGame, SubmittedPlayer, TournamentSubmission, submit_tournaments

__all__ = ["load_register", "load_tournaments", "organiser_prefixes", "prefix_of", "submission_of"]

_WHITE, _BLACK, _RESULT = map(itemgetter, range(3))  # a Game's fields
_RESULT_TEXT = {code: code.value for code in ResultCode}  # a dictionary look-up is C, ``.value`` is not


def prefix_of(code: str, level: FederationLevel) -> str:
    if level is FederationLevel.NATIONAL:
        return ""
    if level is FederationLevel.REGIONAL:
        return code[0]
    return code


def load_register(session: Session, world: SyntheticFederation) -> None:
    """Federations, clubs, players, memberships and the initial rating list."""
    levels = {FederationLevel.NATIONAL: 0, FederationLevel.REGIONAL: 1, FederationLevel.DISTRICT: 2}
    by_code = {f.code: f for f in world.federations}
    copy_rows(
        session,
        Federation.__table__,  # type: ignore[arg-type]
        ("prefix", "name", "level", "parent_prefix"),
        (
            (
                prefix_of(f.code, f.level),
                f.name,
                levels[f.level],
                None if f.parent is None else prefix_of(f.parent, by_code[f.parent].level),
            )
            for f in sorted(world.federations, key=lambda f: levels[f.level])
        ),
    )
    copy_rows(
        session,
        Club.__table__,  # type: ignore[arg-type]
        ("code", "name", "federation_prefix"),
        ((c.zps, c.name, c.district) for c in world.clubs),
    )
    create_players(
        session,
        [
            NewPlayer(
                surname=p.last_name,
                given_name=p.first_name,
                birth_year=p.birth_year,
                birth_date=p.birth_date,
                sex=p.sex,
                fide_id=p.fide_id,
                nation=p.nation,
                guest=not p.member,
                pkz=int(p.pid),
            )
            for p in world.players
        ],
    )
    copy_rows(
        session,
        Membership.__table__,  # type: ignore[arg-type]
        ("player_pkz", "club_code", "member_no", "status", "valid_from", "valid_until"),
        (
            (
                int(p.pid),
                m.club,
                m.number,
                "active" if m.active else "passive",
                m.since,
                None if m.until is None else m.until - timedelta(days=1),
            )
            for p in world.players
            for m in p.memberships
            if m.until is None or m.until > m.since  # a membership left on its first day never began
        ),
    )
    set_initial_states(session, {int(pid): state for pid, state in world.initial_states.items()})


def submission_of(t: SyntheticTournament, district: dict[str, str]) -> TournamentSubmission:
    """The submission of one synthetic tournament; ``district`` from ``organiser_prefixes``."""
    event = t.event
    return TournamentSubmission(
        acronym=event.acronym,
        end_date=event.end_date,
        players=tuple(SubmittedPlayer(int(p.pid), p.birth_year, p.member, p.fide_rating) for p in event.players),
        games=_submitted_games(t),
        name=t.name,
        start_date=t.start_date,
        round_dates=t.round_dates,
        time_control=t.time_control,
        kind="team_season" if t.kind is TournamentKind.TEAM_SEASON else "individual",
        federation_prefix=district.get(t.organiser, t.organiser),
        tournament_id=event.id,
    )


def _submitted_games(t: SyntheticTournament) -> tuple[SubmittedGame, ...]:
    """``t``'s games as submitted, as ``t.placed_games()`` places them; built column by column
    with C-level iterators (a scale-1 federation submits five million games)."""
    games = t.event.games
    assert len(games) == len(t.boards) == sum(t.round_sizes), "the generator places every game once"
    columns = zip(
        map(int, map(_WHITE, games)),
        map(int, map(_BLACK, games)),
        map(_RESULT_TEXT.__getitem__, map(_RESULT, games)),
        chain.from_iterable(map(repeat, count(1), t.round_sizes)),  # round numbers
        t.boards,
        strict=True,
    )
    return tuple(map(tuple.__new__, repeat(SubmittedGame), columns))


def organiser_prefixes(world: SyntheticFederation) -> dict[str, str]:
    """An organiser is a federation (its code) or a club (its ZPS, organising in its district)."""
    prefixes = {f.code: prefix_of(f.code, f.level) for f in world.federations}
    prefixes.update({c.zps: c.district for c in world.clubs})
    return prefixes


def _batches(items: Sequence[SyntheticTournament], size: int) -> Iterator[Sequence[SyntheticTournament]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def load_tournaments(
    session: Session, world: SyntheticFederation, *, batch: int = 2000, advance: Callable[[int], None] | None = None
) -> int:
    """Submit every tournament in submission order; returns the number of games stored.

    The load owns the database while it runs: participants' and games' foreign keys are
    checked once at its end (``foreign_keys_checked_at_end``), not row by row."""
    district = organiser_prefixes(world)
    games = 0
    tables = [Participation.__table__, GameRow.__table__]
    with collector_paused(), foreign_keys_checked_at_end(session, tables):  # type: ignore[arg-type]
        for chunk in _batches(world.tournaments, batch):
            submissions = [submission_of(t, district) for t in chunk]
            submit_tournaments(session, submissions, by="synthetic")
            games += sum(len(s.games) for s in submissions)
            if advance is not None:
                advance(len(chunk))
    return games
