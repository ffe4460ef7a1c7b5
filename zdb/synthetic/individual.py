"""Individual events: club championships, weekend opens and youth events.

Who enters an open follows each player's habit: every year a player gets as many "tickets" as
he will play opens (a Poisson number around his rate); most tickets stay in his own region,
some travel. Opens are then scheduled until the tickets are used up, so the number of opens
follows the number of players at every scale. Youth championships are held per region and
age group; youth opens draw on the juniors' own habit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date, timedelta
from math import exp, log
from random import Random

from zdb.synthetic.events import Draft, Scene, Sheet, acronym, weekday_on_or_after
from zdb.synthetic.model import TournamentKind
from zdb.synthetic.names import town_name
from zdb.synthetic.pairing import Swiss, round_robin
from zdb.synthetic.players import Population

__all__ = ["club_championships", "open_dates", "opens", "play_round_robin", "play_swiss", "youth_events"]

CHAMPIONSHIP_SHARE = 0.7  # clubs holding a championship in a given season
CHAMPIONSHIP_SIZE = (6, 14)
OPEN_SIZE = (50, 300)
OPEN_MEDIAN = 95.0
OPEN_ROUNDS = ((5, 0.55), (7, 0.3), (9, 0.15))
TRAVEL = 0.3  # share of open entries outside the player's region
MIN_FIELD = 12
YOUTH_GROUPS = (10, 12, 14, 16, 18)
YOUTH_FIELD = 40
YOUTH_OPEN_SIZE = (30, 120)
DROPOUT = 0.005  # chance per round that a player leaves a Swiss tournament
_STAY = log(1.0 - DROPOUT)
FORFEITS = {"club": 0.015, "open": 0.006, "youth": 0.008}
STANDARD = "5400+30"
LONG = "40/5400+30:1800+30"
RAPIDISH = "3600+30"  # 60 min + 30 s: 90 minutes by spec §3's count
#: relative number of opens starting in each month (Easter, summer and autumn holidays)
MONTHS = (8, 7, 8, 10, 9, 7, 9, 10, 7, 10, 8, 7)


def play_round_robin(sheet: Sheet, entrants: Sequence[int]) -> None:
    """Every entrant against every other (n - 1 rounds, n with an odd number)."""
    for pairs in round_robin(len(entrants)):
        sheet.new_round()
        for table, (a, b) in enumerate(pairs, start=1):
            sheet.play(entrants[a], entrants[b], table)


def play_swiss(sheet: Sheet, rng: Random, entrants: Sequence[int], rounds: int) -> None:
    """A Swiss tournament seeded by strength as the organiser sees it (with noise); a player who
    forfeits or drops out is not paired again."""
    swiss = Swiss([sheet.strength(i) + rng.gauss(0.0, 80.0) for i in entrants])
    # the round after which each player leaves early, if he does (a geometric draw)
    leaving: dict[int, list[int]] = {}
    for player in range(len(entrants)):
        leaving.setdefault(int(log(1.0 - rng.random()) / _STAY), []).append(player)
    for number in range(rounds):
        sheet.new_round()
        for table, (a, b) in enumerate(swiss.pair(), start=1):
            outcome = sheet.play(entrants[a], entrants[b], table)
            swiss.record(a, b, outcome.white_halves, outcome.black_halves)
            if outcome.white_absent:
                swiss.withdraw(a)
            if outcome.black_absent:
                swiss.withdraw(b)
        for player in leaving.get(number, ()):
            swiss.withdraw(player)


def open_dates(first: date, rounds: int) -> list[date]:
    """Round dates: 5 rounds Friday to Sunday, 7 rounds Wednesday to Sunday, 9 rounds on nine
    days from a Saturday."""
    if rounds == 5:
        start = weekday_on_or_after(first, 4)
        offsets: tuple[int, ...] = (0, 1, 1, 2, 2)
    elif rounds == 7:
        start = weekday_on_or_after(first, 2)
        offsets = (0, 1, 2, 2, 3, 3, 4)
    else:
        start = weekday_on_or_after(first, 5)
        offsets = tuple(range(rounds))
    return [start + timedelta(days=k) for k in offsets]


def _poisson(rng: Random, mean: float) -> int:
    limit = exp(-mean)
    count = 0
    product = rng.random()
    while product > limit:
        count += 1
        product *= rng.random()
    return count


def _draw(population: Population, rng: Random, pool: list[int], *, count: int, field: list[int], day: int) -> None:
    """Move up to ``count`` tickets of players free to play on ``day`` from ``pool`` into
    ``field`` (no player twice); the tickets of players who cannot come that day stay."""
    aside = []
    entered = set(field)
    while count > 0 and pool:
        k = rng.randrange(len(pool))
        player = pool[k]
        pool[k] = pool[-1]
        pool.pop()
        if player in entered or not population.active(player, day):
            aside.append(player)
            continue
        entered.add(player)
        field.append(player)
        count -= 1
    pool += aside


def club_championships(scene: Scene, rng: Random) -> Iterator[Draft]:
    """Round robins of 6-14 members, weekly or fortnightly over a season (or a calendar year),
    drawn as the caller asks for them."""
    population = scene.population
    for year in range(scene.start.year - 1, scene.end.year + 1):
        for c, club in enumerate(scene.clubs):
            if rng.random() >= CHAMPIONSHIP_SHARE:
                continue
            calendar_year = rng.random() < 0.35
            opening = date(year, 1, 15) if calendar_year else date(year, 9, 1)
            first = weekday_on_or_after(opening + timedelta(days=rng.randrange(42)), 4)
            day = first.toordinal()
            pool = [
                i
                for i in population.members_of[c]
                if population.active(i, day) and population.club_at(i, day) == c and rng.random() < population.champ[i]
            ]
            if len(pool) < CHAMPIONSHIP_SIZE[0]:
                continue
            entrants = rng.sample(pool, min(len(pool), rng.randint(*CHAMPIONSHIP_SIZE)))
            rounds = len(entrants) - 1 + len(entrants) % 2
            interval = rng.choice((14, 21)) if calendar_year else rng.choice((7, 14))
            dates = [first + timedelta(days=interval * k) for k in range(rounds)]
            if not scene.within(dates[-1]):
                continue
            sheet = Sheet(scene.world, rng, dates[-1].year, FORFEITS["club"])
            play_round_robin(sheet, entrants)
            season = str(year) if calendar_year else f"{year}/{(year + 1) % 100:02d}"
            draft = sheet.draft(
                acronym=acronym(rng, "V"),
                name=f"Vereinsmeisterschaft {club.name} {season}",
                kind=TournamentKind.CLUB_CHAMPIONSHIP,
                organiser=club.zps,
                time_control=STANDARD,
                round_dates=dates,
            )
            if draft is not None:
                yield draft


def _size(rng: Random, bounds: tuple[int, int], median: float) -> int:
    return min(bounds[1], max(bounds[0], round(rng.lognormvariate(log(median), 0.45))))


def opens(scene: Scene, rng: Random) -> Iterator[Draft]:
    """Swiss opens of 50-300 players over 5, 7 or 9 rounds, as many as the players' habits fill,
    drawn as the caller asks for them."""
    population, regions = scene.population, scene.regions
    region_index = {char: k for k, (char, _) in enumerate(regions)}
    club_region = [region_index[club.region] for club in scene.clubs]
    for year in range(scene.start.year, scene.end.year + 1):
        first, last = date(year, 1, 1).toordinal(), date(year + 1, 1, 1).toordinal()
        pools: list[list[int]] = [[] for _ in regions]
        travel: list[int] = []
        for player, rate in enumerate(population.open_rate):
            since, until = max(population.since[player], first), min(population.until[player], last)
            if not rate or since >= until:
                continue
            home = travel if population.club[player] < 0 else pools[club_region[population.club_at(player, since)]]
            for _ in range(_poisson(rng, rate * (until - since) / (last - first))):
                (travel if rng.random() < TRAVEL else home).append(player)
        tickets = sum(map(len, pools)) + len(travel)
        plan: list[tuple[date, int, int, int, int]] = []
        planned = 0
        while planned < 0.95 * tickets:
            rounds = rng.choices([r for r, _ in OPEN_ROUNDS], [w for _, w in OPEN_ROUNDS])[0]
            size = _size(rng, OPEN_SIZE, OPEN_MEDIAN * (1.3 if rounds == 9 else 1.0))
            month = rng.choices(range(1, 13), MONTHS)[0]
            region = rng.choices(range(len(regions)), [len(pool) + 1 for pool in pools])[0]
            plan.append((date(year, month, 1) + timedelta(days=rng.randrange(28)), len(plan), rounds, size, region))
            planned += size
        for first_day, _, rounds, size, region in sorted(plan):
            dates = open_dates(first_day, rounds)
            if not scene.within(dates[-1]):
                continue
            day = dates[0].toordinal()
            field: list[int] = []
            _draw(population, rng, pools[region], count=round(size * (1.0 - TRAVEL)), field=field, day=day)
            _draw(population, rng, travel, count=size - len(field), field=field, day=day)
            _draw(population, rng, pools[region], count=size - len(field), field=field, day=day)
            # still short (the region's players are used up): players from the busiest other regions
            for other in sorted(range(len(pools)), key=lambda k: -len(pools[k])):
                if len(field) >= OPEN_SIZE[0]:
                    break
                _draw(population, rng, pools[other], count=OPEN_SIZE[0] - len(field), field=field, day=day)
            if len(field) < MIN_FIELD:
                continue
            sheet = Sheet(scene.world, rng, year, FORFEITS["open"])
            play_swiss(sheet, rng, field, rounds)
            draft = sheet.draft(
                acronym=acronym(rng, "O"),
                name=f"{town_name(rng)} Open {year}",
                kind=TournamentKind.OPEN,
                organiser=regions[region][0] + "00",
                time_control=STANDARD if rounds == 5 else LONG,
                round_dates=dates,
            )
            if draft is not None:
                yield draft


def youth_events(scene: Scene, rng: Random) -> Iterator[Draft]:
    """Regional youth championships per age group (Easter holidays) and youth opens, drawn as
    the caller asks for them."""
    for year in range(scene.start.year, scene.end.year + 1):
        yield from _championships(scene, rng, year)
        yield from _youth_opens(scene, rng, year)


def _championships(scene: Scene, rng: Random, year: int) -> list[Draft]:
    population = scene.population
    first = weekday_on_or_after(date(year, 3, 25) + timedelta(days=rng.randrange(21)), 2)
    day = first.toordinal()
    groups: dict[tuple[str, int], list[int]] = {}
    for player, rate in enumerate(population.youth_rate):
        if not rate or not population.active(player, day):
            continue
        age = year - population.birth_year[player]
        group = next((g for g in YOUTH_GROUPS if age < g), None)
        if group is not None and rng.random() < 0.5:
            groups.setdefault((scene.clubs[population.club_at(player, day)].region, group), []).append(player)
    drafts = []
    short_names = dict(scene.regions)
    for (region, group), candidates in sorted(groups.items()):
        if len(candidates) < 6:
            continue
        entrants = rng.sample(candidates, YOUTH_FIELD) if len(candidates) > YOUTH_FIELD else candidates
        if len(entrants) <= 10:
            rounds = len(entrants) - 1 + len(entrants) % 2
            dates = [first + timedelta(days=k // 2) for k in range(rounds)]  # two rounds a day
        else:
            rounds = 7 if len(entrants) >= 16 else 5
            dates = open_dates(first, rounds)
        if not scene.within(dates[-1]):
            continue
        sheet = Sheet(scene.world, rng, year, FORFEITS["youth"])
        if len(entrants) <= 10:
            play_round_robin(sheet, entrants)
        else:
            play_swiss(sheet, rng, entrants, rounds)
        draft = sheet.draft(
            acronym=acronym(rng, "J"),
            name=f"Jugendeinzelmeisterschaft {short_names[region]} U{group} {year}",
            kind=TournamentKind.YOUTH,
            organiser=region + "00",
            time_control=RAPIDISH if group <= 12 else STANDARD,
            round_dates=dates,
        )
        if draft is not None:
            drafts.append(draft)
    return drafts


def _youth_opens(scene: Scene, rng: Random, year: int) -> list[Draft]:
    population = scene.population
    first, last = date(year, 1, 1).toordinal(), date(year + 1, 1, 1).toordinal()
    pool: list[int] = []
    for player, rate in enumerate(population.youth_rate):
        since, until = max(population.since[player], first), min(population.until[player], last)
        if rate and since < until and population.junior(player, year):
            pool += [player] * _poisson(rng, rate * (until - since) / (last - first))
    planned = 0
    plan = []
    while planned < 0.95 * len(pool):
        size = _size(rng, YOUTH_OPEN_SIZE, 60.0)
        plan.append((date(year, rng.choices(range(1, 13), MONTHS)[0], 1) + timedelta(days=rng.randrange(28)), size))
        planned += size
    drafts = []
    for first_day, size in sorted(plan):
        rounds = 5 if rng.random() < 0.7 else 7
        dates = open_dates(first_day, rounds)
        if not scene.within(dates[-1]):
            continue
        field: list[int] = []
        _draw(population, rng, pool, count=size, field=field, day=dates[0].toordinal())
        if len(field) < MIN_FIELD:
            continue
        sheet = Sheet(scene.world, rng, year, FORFEITS["youth"])
        play_swiss(sheet, rng, field, rounds)
        draft = sheet.draft(
            acronym=acronym(rng, "J"),
            name=f"{town_name(rng)} Jugendopen {year}",
            kind=TournamentKind.YOUTH,
            organiser="000",
            time_control=RAPIDISH,
            round_dates=dates,
        )
        if draft is not None:
            drafts.append(draft)
    return drafts
