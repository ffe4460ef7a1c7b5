"""Team seasons: clubs field teams of eight boards plus substitutes, the teams of a region play
in leagues of about ten, and a whole league season is one tournament (spec §3).

Each season a club ranks its team players by strength and cuts the list into teams; the
region's teams, ranked by their top eight, fill its leagues from the top tier down. In a match
a player who cannot come is replaced by the next substitute of his team; a board nobody can
fill stays empty and has no game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from math import log2
from random import Random

from zdb.synthetic.clubs import NATIONAL, apportion
from zdb.synthetic.events import Draft, Scene, Sheet, acronym, weekday_on_or_after
from zdb.synthetic.model import Match, Team, TournamentKind
from zdb.synthetic.pairing import round_robin
from zdb.synthetic.players import Population

__all__ = ["BOARDS", "team_seasons"]

BOARDS = 8
LEAGUE_SIZE = 10
MIN_ROSTER = 9  # a team has its eight regulars and at least one substitute
MIN_LEAGUE = 4
DOUBLE_ROUND_ROBIN = 0.3
FORFEITS = 0.008
TIME_CONTROL = "40/5400+30:1800+30"
TIERS = ("Oberliga", "Landesliga", "Verbandsliga", "Bezirksliga", "Kreisliga", "Kreisklasse")


@dataclass(slots=True)
class _Team:
    club: int
    number: int
    roster: list[int]  # best first
    strength: float


def team_seasons(scene: Scene, rng: Random) -> Iterator[Draft]:
    """Every league season ending within the time line, drawn as the caller asks for them."""
    for year in range(scene.start.year - 1, scene.end.year):
        by_region = _teams(scene, rng, year)
        leagues: list[tuple[str, str, list[_Team]]] = []
        overflow: list[_Team] = []
        for char, short in scene.regions:
            teams = by_region.get(char, [])
            if len(teams) < MIN_LEAGUE:
                overflow += teams
            else:
                leagues += _leagues(teams, short, char + "00")
        if len(overflow) > 1:
            leagues += _leagues(overflow, "Deutschland", NATIONAL.code)
        for name, organiser, teams in leagues:
            draft = _season(scene, rng, year=year, name=name, organiser=organiser, teams=teams)
            if draft is not None and scene.within(draft.round_dates[-1]):
                yield draft


def _teams(scene: Scene, rng: Random, year: int) -> dict[str, list[_Team]]:
    """Each club's teams of the season starting in ``year``, by region."""
    population = scene.population
    day = date(year, 8, 20).toordinal()
    strength = scene.world.truth.year_row(year)
    by_region: dict[str, list[_Team]] = {}
    for c, club in enumerate(scene.clubs):
        pool = [
            i
            for i in population.members_of[c]
            if population.team[i] and population.active(i, day) and population.club_at(i, day) == c
        ]
        if len(pool) < BOARDS:
            continue
        ranking = {i: strength[i] + rng.gauss(0.0, 50.0) for i in pool}
        pool.sort(key=ranking.__getitem__, reverse=True)
        at = 0
        for number, size in enumerate(apportion(len(pool), [1] * max(1, len(pool) // MIN_ROSTER)), start=1):
            roster = pool[at : at + size]
            at += size
            top = roster[:BOARDS]
            by_region.setdefault(club.region, []).append(
                _Team(c, number, roster, sum(strength[i] for i in top) / len(top))
            )
    return by_region


def _leagues(teams: list[_Team], area: str, organiser: str) -> list[tuple[str, str, list[_Team]]]:
    """The teams, strongest first, cut into leagues of about ten; tier t has 2**t leagues."""
    teams = sorted(teams, key=lambda t: (-t.strength, t.club, t.number))
    count = max(1, round(len(teams) / LEAGUE_SIZE))
    leagues = []
    at = 0
    for k, size in enumerate(apportion(len(teams), [1] * count)):
        tier = int(log2(k + 1))
        name = f"{TIERS[min(tier, len(TIERS) - 1)]} {area}"
        if tier:
            name += f" {k + 2 - 2**tier}"
        leagues.append((name, organiser, teams[at : at + size]))
        at += size
    return leagues


def _season(scene: Scene, rng: Random, *, year: int, name: str, organiser: str, teams: list[_Team]) -> Draft | None:
    """One league's season starting in ``year``: a single or double round robin of matches."""
    population, clubs = scene.population, scene.clubs
    schedule = round_robin(len(teams))
    double = rng.random() < DOUBLE_ROUND_ROBIN
    if double:
        schedule += [[(away, home) for home, away in pairs] for pairs in schedule]
    first = weekday_on_or_after(date(year, 9, 10) + timedelta(days=rng.randrange(28)), 6)
    interval = 14 if double else rng.choice((21, 28))
    dates = [first + timedelta(days=interval * k) for k in range(len(schedule))]
    sheet = Sheet(scene.world, rng, year, FORFEITS)
    matches = []
    for number, (pairs, day) in enumerate(zip(schedule, dates, strict=True), start=1):
        sheet.new_round()
        for home, away in pairs:
            home_lineup = _lineup(population, rng, teams[home].roster, day.toordinal())
            away_lineup = _lineup(population, rng, teams[away].roster, day.toordinal())
            boards = min(len(home_lineup), len(away_lineup))
            for board in range(boards):
                # the home team has white on the odd boards (board 1 is index 0)
                if board % 2 == 0:
                    sheet.play(home_lineup[board], away_lineup[board], board + 1)
                else:
                    sheet.play(away_lineup[board], home_lineup[board], board + 1)
            if boards:
                matches.append(Match(number, home, away, boards))
    return sheet.draft(
        acronym=acronym(rng, "M"),
        name=f"{name} {year}/{(year + 1) % 100:02d}",
        kind=TournamentKind.TEAM_SEASON,
        organiser=organiser,
        time_control=TIME_CONTROL,
        round_dates=dates,
        teams=tuple(
            Team(clubs[t.club].zps, t.number, clubs[t.club].name + ("" if t.number == 1 else f" {t.number}"))
            for t in teams
        ),
        matches=tuple(matches),
    )


def _lineup(population: Population, rng: Random, roster: list[int], day: int) -> list[int]:
    """Who plays, in board order: the best eight who come; if fewer than eight can come,
    half of those who said no are persuaded after all."""
    random, reliability = rng.random, population.reliability
    coming: list[int] = []
    persuaded: list[int] = []
    for player in roster:
        if population.active(player, day):
            chance = random()
            if chance < reliability[player]:
                coming.append(player)
                if len(coming) == BOARDS:
                    return coming
            elif chance < (1.0 + reliability[player]) / 2:
                persuaded.append(player)
    if not persuaded:
        return coming
    position = {player: k for k, player in enumerate(roster)}
    return sorted(coming + persuaded[: BOARDS - len(coming)], key=position.__getitem__)
