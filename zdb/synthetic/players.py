"""The register: club members, newcomers joining over the years, guests and foreign visitors.

Each person gets a hidden true strength per calendar year (juniors improve, the old decline),
the habits that decide which events he plays (team chess, opens, club championship, youth
events, how reliably he turns up), a membership history (joining, leaving, changing clubs) and,
if he was established before the time line starts, the DWZ and index he starts it with.

Person numbers follow registration: members at the start first, then everybody else in the
order in which they first appear.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import accumulate
from random import Random
from types import MappingProxyType

from zdb.rating import PlayerId, PlayerState
from zdb.synthetic.model import FIRST_PID, Club, Membership, Player, Truth
from zdb.synthetic.names import NATIONS, NameSampler

__all__ = ["NEVER", "Population", "build_population"]

FULL_MEMBERS = 70_000
FULL_NEWCOMERS = 24_000
FULL_GUESTS = 3_000
FULL_VISITORS = 3_000
NEVER = date.max.toordinal()
YEAR = 365.25

#: (youngest, oldest, weight): how the members' ages at the start are distributed
_AGE_BUCKETS = ((6, 18, 24), (19, 30, 12), (31, 50, 22), (51, 70, 31), (71, 88, 11))
_PASSIVE = 0.12
_TRANSFER = 0.05
_FOREIGN_MEMBER = 0.04
_YOUTH_AGE = 18  # the last age at which a player is a junior for youth events


@dataclass(slots=True)
class Population:
    """Index-aligned facts per player, as the event generators read them in their loops.
    Days are ordinals; ``NEVER`` is an open end."""

    pids: list[PlayerId] = field(default_factory=list)
    birth_year: list[int] = field(default_factory=list)
    since: list[int] = field(default_factory=list)  # first day he can play
    until: list[int] = field(default_factory=list)  # first day he no longer plays
    club: list[int] = field(default_factory=list)  # club index of the first membership, -1 without
    switch: list[int] = field(default_factory=list)  # from this day ``second`` is his club
    second: list[int] = field(default_factory=list)
    plays: list[bool] = field(default_factory=list)  # False: a passive member
    guest: list[bool] = field(default_factory=list)  # never a member (visitors included)
    team: list[bool] = field(default_factory=list)
    open_rate: list[float] = field(default_factory=list)  # opens per year, expected
    champ: list[float] = field(default_factory=list)  # chance to enter his club championship
    youth_rate: list[float] = field(default_factory=list)  # youth events per year, expected
    reliability: list[float] = field(default_factory=list)  # chance to turn up for a team match
    members_of: list[list[int]] = field(default_factory=list)  # club index -> players ever in it

    def active(self, player: int, day: int) -> bool:
        return self.plays[player] and self.since[player] <= day < self.until[player]

    def club_at(self, player: int, day: int) -> int:
        return self.club[player] if day < self.switch[player] else self.second[player]

    def junior(self, player: int, year: int) -> bool:
        return year - self.birth_year[player] <= _YOUTH_AGE


@dataclass(slots=True)
class _Person:
    """What becomes a ``Player`` once membership numbers are known."""

    first_name: str
    last_name: str
    sex: str
    birth_date: date
    nation: str
    fide_id: int | None
    stints: list[tuple[int, int, int, bool]]  # (club index, since, until, active)


class _Builder:
    """Adds people one by one to the population, the truth and the initial states."""

    def __init__(self, rng: Random, clubs: Sequence[Club], start: date, end: date) -> None:
        self.first, self.last = start.toordinal(), end.toordinal()
        self.rng = rng
        self.names = NameSampler(rng)
        self.years = range(start.year, end.year + 1)
        self.pop = Population(members_of=[[] for _ in clubs])
        self.people: list[_Person] = []
        self.strengths: list[list[float]] = []
        self.fide: dict[int, float] = {}
        self.initial: dict[PlayerId, PlayerState] = {}
        self.fide_ids: set[int] = set()
        self.clubs = clubs
        self.region_clubs: dict[str, list[int]] = {}
        for k, club in enumerate(clubs):
            self.region_clubs.setdefault(club.region, []).append(k)

    def add(
        self,
        *,
        age: int,
        level: float,
        level_day: int,
        since: int,
        until: int,
        club: int,
        nation: str,
        sex: str,
        plays: bool = True,
    ) -> int:
        """A new person, ``age`` years old in the year of ``level_day``, of strength ``level``
        then; returns his index."""
        rng, pop = self.rng, self.pop
        index = len(pop.pids)
        year = date.fromordinal(level_day).year
        birth = date(year - age, 1, 1) + timedelta(days=rng.randrange(365))
        first, last = self.names.person(sex, nation)
        pop.pids.append(sys.intern(str(FIRST_PID + index)))
        pop.birth_year.append(birth.year)
        pop.since.append(since)
        pop.until.append(until)
        pop.club.append(club)
        pop.plays.append(plays)
        pop.guest.append(club < 0)
        talent = min(2.5, max(0.2, rng.lognormvariate(0.0, 0.45)))
        drift = rng.gauss(0.0, 6.0)
        self.strengths.append(self._trajectory(level, year, birth.year, talent, drift))
        stints = [(club, since, until, plays)] if club >= 0 else []
        switch, second = NEVER, club
        stop = min(until, self.last)
        if plays and club >= 0 and stop - since > 2 * YEAR and rng.random() < _TRANSFER:
            switch = since + int(YEAR) + rng.randrange(int(stop - since - YEAR))
            second = self._other_club(club)
            stints = [(club, since, switch, True), (second, switch, until, True)]
        for stint in stints:
            pop.members_of[stint[0]].append(index)
        pop.switch.append(switch)
        pop.second.append(second)
        self.people.append(_Person(first, last, sex, birth, nation, None, stints))
        return index

    def _other_club(self, club: int) -> int:
        rng = self.rng
        region = self.clubs[club].region
        candidates = self.region_clubs[region] if rng.random() < 0.8 else range(len(self.clubs))
        choice = candidates[rng.randrange(len(candidates))]
        return choice if choice != club else (club + 1) % len(self.clubs)

    def _trajectory(self, level: float, level_year: int, birth_year: int, talent: float, drift: float) -> list[float]:
        """Strength per year of the time line; constant before ``level_year``."""
        first = level_year - self.years.start
        values = [level] * len(self.years)
        value = level
        for k in range(max(first, 0) + 1, len(self.years)):
            age = self.years.start + k - 1 - birth_year
            if age < 20:
                value += talent * max(0.0, 2300.0 - value) * 0.07
            elif age < 35:
                value += drift
            elif age < 55:
                value += drift - 3.0
            else:
                value += drift - 6.0 - 0.5 * (age - 55)
            values[k] = value = min(2850.0, max(300.0, value))
        return values

    def habits(
        self, *, team: float, opens: float, champ: float, youth: float, open_share: float = 0.6, active: bool = True
    ) -> None:
        """How often the newest player plays which kind of event (never, for a passive member):
        ``open_share`` of the players play opens at all, ``opens`` a year on average."""
        rng, pop = self.rng, self.pop
        if not active:
            team = opens = champ = youth = 0.0
        pop.team.append(rng.random() < team)
        plays_opens = opens > 0.0 and rng.random() < open_share
        pop.open_rate.append(min(8.0, rng.expovariate(1.0 / opens)) if plays_opens else 0.0)
        pop.champ.append(rng.random() * champ)
        pop.youth_rate.append(min(6.0, rng.expovariate(1.0 / youth)) if youth and rng.random() < 0.8 else 0.0)
        pop.reliability.append(0.78 + 0.2 * rng.random())

    def give_fide(self, index: int, domestic: bool, spread: float = 40.0) -> None:
        ranges = (4_600_000, 4_999_999) if domestic else (1_000_000, 4_499_999)
        while True:
            fide_id = self.rng.randint(*ranges)
            if fide_id not in self.fide_ids:
                break
        self.fide_ids.add(fide_id)
        self.people[index].fide_id = fide_id
        self.fide[index] = self.rng.gauss(0.0, spread)

    def finish(self) -> tuple[Population, tuple[Player, ...], Mapping[PlayerId, PlayerState], Truth]:
        count = len(self.people)
        flat = array("f", bytes(4 * count * len(self.years)))
        for index, values in enumerate(self.strengths):
            for k, value in enumerate(values):
                flat[k * count + index] = value
        truth = Truth(self.years.start, count, flat, self.fide)
        numbers = _membership_numbers(self.people, len(self.clubs))
        players = []
        for index, person in enumerate(self.people):
            memberships = tuple(
                Membership(
                    self.clubs[club].zps,
                    numbers[(index, k)],
                    date.fromordinal(since),
                    None if until >= NEVER else date.fromordinal(until),
                    active,
                )
                for k, (club, since, until, active) in enumerate(person.stints)
            )
            fide_rating = truth.fide_rating(index, self.years[-1]) if person.fide_id is not None else None
            players.append(
                Player(
                    self.pop.pids[index],
                    person.first_name,
                    person.last_name,
                    person.sex,
                    person.birth_date,
                    person.nation,
                    person.fide_id,
                    fide_rating,
                    memberships,
                )
            )
        return self.pop, tuple(players), MappingProxyType(self.initial), truth


def _membership_numbers(people: Sequence[_Person], clubs: int) -> dict[tuple[int, int], int]:
    """Membership numbers count up within each club in the order of joining."""
    by_club: list[list[tuple[int, int, int]]] = [[] for _ in range(clubs)]
    for index, person in enumerate(people):
        for k, (club, since, _, _) in enumerate(person.stints):
            by_club[club].append((since, index, k))
    numbers = {}
    for entries in by_club:
        for number, (_, index, k) in enumerate(sorted(entries), start=1):
            numbers[(index, k)] = number
    return numbers


def _hazard(age: int) -> float:
    """Yearly chance of leaving chess: children and the old leave most."""
    if age < 19:
        return 0.1
    if age < 31:
        return 0.06
    if age < 71:
        return 0.035
    return 0.07


def _leave(rng: Random, since: int, age: int, end: int) -> int:
    day = since + int(rng.expovariate(_hazard(age)) * YEAR)
    return day if day <= end else NEVER


def _sex(rng: Random, junior: bool) -> str:
    return "F" if rng.random() < (0.16 if junior else 0.09) else "M"


_NATION_WEIGHTS = list(accumulate(w for _, w in NATIONS))


def _nation(rng: Random) -> str:
    return NATIONS[bisect_right(_NATION_WEIGHTS, rng.random() * _NATION_WEIGHTS[-1])][0]


def _junior_level(rng: Random, age: int) -> float:
    return min(2300.0, max(450.0, 600.0 + 80.0 * (age - 6) * rng.lognormvariate(0.0, 0.3) + rng.gauss(0.0, 120.0)))


def _adult_level(rng: Random, mean: float = 1560.0, spread: float = 260.0) -> float:
    value = rng.gauss(mean, spread) + (350.0 if rng.random() < 0.01 else 0.0)
    return min(2700.0, max(650.0, value))


def build_population(
    rng: Random, clubs: Sequence[Club], scale: float, start: date, end: date
) -> tuple[Population, tuple[Player, ...], Mapping[PlayerId, PlayerState], Truth]:
    """The whole register, its hidden truth and the initial states at ``start``."""
    builder = _Builder(rng, clubs, start, end)
    first, last = builder.first, builder.last
    club_weights = [rng.lognormvariate(0.0, 0.75) for _ in clubs]
    _members(builder, club_weights, round(FULL_MEMBERS * scale))
    # everyone else in order of first appearance, so that person numbers follow registration
    arrivals = [(first + rng.randrange(last - first), 0) for _ in range(round(FULL_NEWCOMERS * scale))]
    arrivals += [(first - 365 + rng.randrange(last - first + 365), 1) for _ in range(round(FULL_GUESTS * scale))]
    arrivals += [(first - 365 + rng.randrange(last - first + 365), 2) for _ in range(round(FULL_VISITORS * scale))]
    club_cumulative = list(accumulate(club_weights))
    for since, kind in sorted(arrivals):
        if kind == 0:
            _newcomer(builder, since, bisect_right(club_cumulative, rng.random() * club_cumulative[-1]))
        elif kind == 1:
            _guest(builder, since)
        else:
            _visitor(builder, since)
    return builder.finish()


def _members(builder: _Builder, club_weights: Sequence[float], count: int) -> None:
    """The members at the start, club by club (at least three each), most of them rated."""
    rng, first = builder.rng, builder.first
    bucket_weights = list(accumulate(w for *_, w in _AGE_BUCKETS))
    total = sum(club_weights)
    for club, weight in enumerate(club_weights):
        for _ in range(max(3, round(count * weight / total))):
            young, old, _ = _AGE_BUCKETS[bisect_right(bucket_weights, rng.random() * bucket_weights[-1])]
            age = rng.randint(young, old)
            junior = age <= _YOUTH_AGE
            nation = "GER" if rng.random() >= _FOREIGN_MEMBER else _nation(rng)
            since = first - 1 - rng.randrange(int(min(age - 5, 40) * YEAR))
            active = rng.random() >= _PASSIVE
            level = _junior_level(rng, age) if junior else _adult_level(rng)
            index = builder.add(
                age=age,
                level=level,
                level_day=first,
                since=since,
                until=_leave(rng, first, age, builder.last),
                club=club,
                nation=nation,
                sex=_sex(rng, junior),
                plays=active,
            )
            builder.habits(team=0.85 if age >= 12 else 0.25, opens=3.0, champ=0.9, youth=1.5 * junior, active=active)
            established = (0.35 if age <= 9 else 0.7 if age <= 13 else 0.93) if active else 0.75
            if rng.random() < established:
                years = (first - since) / YEAR
                rating = round(level + rng.gauss(0.0, 60.0))
                index_value = max(1, min(250, round(years * rng.uniform(0.8, 3.2))))
                builder.initial[builder.pop.pids[index]] = PlayerState(rating=rating, index=index_value)
                if rng.random() < min(0.9, max(0.02, (level - 1350.0) / 900.0)):
                    builder.give_fide(index, domestic=nation == "GER")


def _newcomer(builder: _Builder, since: int, club: int) -> None:
    """A new member, unrated: mostly a child; an adult now and then brings a FIDE rating from
    abroad (a FIDE start value, spec §10)."""
    rng = builder.rng
    junior = rng.random() < 0.75
    age = rng.randint(6, 14) if junior else rng.randint(18, 65)
    level = (
        min(1500.0, max(350.0, 450.0 + 40.0 * (age - 6) + rng.gauss(0.0, 120.0)))
        if junior
        else _adult_level(rng, 1250.0, 220.0)
    )
    index = builder.add(
        age=age,
        level=level,
        level_day=max(builder.first, since),
        since=since,
        until=_leave(rng, since, age, builder.last),
        club=club,
        nation="GER",
        sex=_sex(rng, junior),
    )
    builder.habits(team=0.35 if junior else 0.6, opens=1.2 if junior else 1.5, champ=0.8, youth=1.8 * junior)
    if not junior and rng.random() < 0.06:
        builder.give_fide(index, domestic=False)


def _guest(builder: _Builder, since: int) -> None:
    """A player who is no club's member and plays opens for a few years (spec §10)."""
    rng = builder.rng
    builder.add(
        age=rng.randint(16, 70),
        level=_adult_level(rng, 1350.0, 250.0),
        level_day=max(builder.first, since),
        since=since,
        until=since + int(rng.uniform(0.5, 4.0) * YEAR),
        club=-1,
        nation="GER",
        sex=_sex(rng, False),
    )
    builder.habits(team=0.0, opens=2.0, champ=0.0, youth=0.0, open_share=1.0)


def _visitor(builder: _Builder, since: int) -> None:
    """A foreign player with a FIDE rating and no DWZ who comes to German opens."""
    rng = builder.rng
    age = rng.randint(14, 70)
    index = builder.add(
        age=age,
        level=min(2700.0, max(1150.0, rng.gauss(1750.0, 250.0))),
        level_day=max(builder.first, since),
        since=since,
        until=since + int(rng.uniform(1.0, 10.0) * YEAR),
        club=-1,
        nation=_nation(rng),
        sex=_sex(rng, age <= _YOUTH_AGE),
    )
    builder.habits(team=0.0, opens=1.5, champ=0.0, youth=0.0, open_share=1.0)
    builder.give_fide(index, domestic=False, spread=30.0)
