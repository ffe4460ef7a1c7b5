"""A seeded, deterministic synthetic federation: its register and ten years of tournaments.

``generate(seed, scale)`` builds a federation of about 100,000 players in 2,500 clubs (at
``scale=1``) and the tournaments they play between December 2016 and November 2026, across the
2026 rule change: team seasons, club championships, weekend opens, youth events, about 5 million
games. Results are drawn from hidden true strengths. ``scale`` shrinks the register and with it
the number of events while keeping their shapes (0.1: ~10,000 players, ~500,000 games).

It is pure (no I/O, no clock, no global random state) and returns frozen data, so that the
engine benchmark, the database loader and the database benchmark all work on the same world.
``late_open`` draws one more tournament from that world, for a late submission.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date, timedelta
from itertools import chain
from random import Random

from zdb.synthetic.clubs import REGIONS, build_clubs
from zdb.synthetic.events import ArrivalKey, Draft, Scene, Sheet, World, acronym, arrivals, release, submit_in_order
from zdb.synthetic.individual import FORFEITS, STANDARD, club_championships, open_dates, opens, play_swiss, youth_events
from zdb.synthetic.model import (
    FIRST_PID,
    Club,
    Federation,
    FederationLevel,
    Match,
    Membership,
    Player,
    SyntheticFederation,
    SyntheticTournament,
    Team,
    TournamentKind,
    Truth,
)
from zdb.synthetic.players import build_population
from zdb.synthetic.teams import team_seasons

__all__ = [
    "END",
    "FIRST_PID",
    "START",
    "ArrivalKey",
    "Club",
    "Federation",
    "FederationLevel",
    "Match",
    "Membership",
    "Player",
    "SyntheticFederation",
    "SyntheticTournament",
    "Team",
    "TournamentKind",
    "Truth",
    "drafted",
    "generate",
    "late_open",
    "release",
    "submit_in_order",
]

#: the time line: tournaments end on or after START and on or before END
START = date(2016, 12, 1)
END = date(2026, 11, 30)


def generate(seed: int = 1, scale: float = 1.0) -> SyntheticFederation:
    """The synthetic federation for ``seed`` at ``scale`` (1.0: ~100,000 players, ~5 M games)."""
    register, arriving = drafted(seed, scale)
    return replace(register, tournaments=submit_in_order(arriving))


def drafted(seed: int = 1, scale: float = 1.0) -> tuple[SyntheticFederation, Iterator[tuple[ArrivalKey, Draft]]]:
    """``generate``'s federation without its tournaments, and its tournaments' drafts, each with
    its key in the submission order, drawn one at a time as the caller asks for them: at scale
    10 (a million players, ~52 M games) the tournaments do not fit into memory at once, and a
    caller streams them (``release`` gives a draft its id: its place among the sorted keys).
    The drafts are the same as ``generate``'s, in the same order: each kind of event draws from
    a random stream of its own, and the kinds are drawn one after the other as before."""
    if not 0.0 < scale <= 10.0:
        raise ValueError(f"scale must be in (0, 10], not {scale}")
    federations, clubs = build_clubs(Random(f"{seed}:clubs"), scale)
    population, players, initial_states, truth = build_population(Random(f"{seed}:players"), clubs, scale, START, END)
    scene = Scene(
        world=World(population.pids, population.birth_year, population.guest, truth),
        population=population,
        clubs=clubs,
        regions=[(char, short) for char, _, short, _ in REGIONS],
        start=START,
        end=END,
    )
    # one random stream per kind of event: a change to one kind leaves the others as they were
    drafts = chain(
        team_seasons(scene, Random(f"{seed}:teams")),
        club_championships(scene, Random(f"{seed}:championships")),
        opens(scene, Random(f"{seed}:opens")),
        youth_events(scene, Random(f"{seed}:youth")),
    )
    register = SyntheticFederation(
        seed=seed,
        scale=scale,
        start=START,
        end=END,
        federations=federations,
        clubs=clubs,
        players=players,
        initial_states=initial_states,
        tournaments=(),
        truth=truth,
    )
    return register, arrivals(drafts, Random(f"{seed}:submissions"), START, END)


def late_open(
    federation: SyntheticFederation, end_date: date | None = None, size: int = 100, variant: int = 0
) -> SyntheticTournament:
    """A weekend open (5 rounds, Friday to Sunday) of ``size`` players who are members and
    played in the year before it, ending on the Sunday on or before ``end_date`` (default: a
    year before the time line's end), submitted after every other tournament under a new id.
    ``variant`` draws a different open for the same date."""
    target = end_date or federation.end - timedelta(days=365)
    last_day = target - timedelta(days=(target.weekday() + 1) % 7)
    dates = open_dates(last_day - timedelta(days=2), 5)
    recent: dict[str, None] = {}
    for tournament in federation.tournaments:
        if last_day - timedelta(days=365) <= tournament.event.end_date < last_day:
            recent.update(dict.fromkeys(p.pid for p in tournament.event.players if p.member))
    candidates = []
    for pid in recent:
        membership = federation.player(pid).membership_at(dates[0])
        if membership is not None and membership.active:
            candidates.append(int(pid) - FIRST_PID)
    rng = Random(f"{federation.seed}:late:{last_day.isoformat()}:{variant}")
    entrants = rng.sample(candidates, min(size, len(candidates)))
    players = federation.players
    world = World(
        [p.pid for p in players], [p.birth_year for p in players], [not p.member for p in players], federation.truth
    )
    sheet = Sheet(world, rng, last_day.year, FORFEITS["open"])
    play_swiss(sheet, rng, entrants, len(dates))
    draft = sheet.draft(
        acronym=acronym(rng, "O"),
        name=f"Nachgemeldetes Open {last_day.year}",
        kind=TournamentKind.OPEN,
        organiser="000",
        time_control=STANDARD,
        round_dates=dates,
    )
    if draft is None:
        raise ValueError(f"no players for an open ending {last_day.isoformat()}")
    last = max(federation.tournaments, key=lambda t: t.submitted, default=None)
    submitted = (last.submitted if last else federation.end) + timedelta(days=1)
    return release(draft, max((t.event.id for t in federation.tournaments), default=0) + 1, submitted)
