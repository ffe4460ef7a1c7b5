"""What every kind of event shares: the players as events see them, the score sheet a
tournament's games are written on, and the submission of the finished tournaments.

Submission order is end-date order with a few days' delay, except for a small share that
arrives weeks or months late: those are the ones that make a chronological rating database
recalculate the past (spec §2).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from random import Random

from zdb.rating import Game, Participant, PlayerId, Tournament
from zdb.synthetic.model import Club, Match, SyntheticTournament, Team, TournamentKind, Truth
from zdb.synthetic.play import Outcome, Results
from zdb.synthetic.players import Population

__all__ = [
    "LATE_SHARE",
    "ArrivalKey",
    "Draft",
    "Scene",
    "Sheet",
    "World",
    "acronym",
    "arrivals",
    "release",
    "submit_in_order",
    "weekday_on_or_after",
]

#: share of tournaments submitted weeks or months after their end
LATE_SHARE = 0.02
_LATE_DAYS = (21, 240)
_USUAL_DAYS = (1, 7)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class World:
    """The players as events see them: index-aligned facts and the hidden truth. A player's
    tournament entry is shared between tournaments while it does not change."""

    __slots__ = ("_entries", "birth_year", "guest", "pids", "truth")

    def __init__(self, pids: Sequence[PlayerId], birth_year: Sequence[int], guest: Sequence[bool], truth: Truth):
        self.pids = pids
        self.birth_year = birth_year
        self.guest = guest
        self.truth = truth
        self._entries: dict[object, Participant] = {}

    def entry(self, player: int, year: int) -> Participant:
        """The player's entry in a tournament of ``year`` (with his FIDE rating then, if any)."""
        fide = self.truth.fide_rating(player, year)
        key: object = player if fide is None else (player, fide)
        entry = self._entries.get(key)
        if entry is None:
            entry = Participant(self.pids[player], self.birth_year[player], not self.guest[player], fide)
            self._entries[key] = entry
        return entry


@dataclass(frozen=True, slots=True)
class Scene:
    """What the event generators read: the players, the clubs, the regions as (character,
    short name), and the time line's first and last possible end date."""

    world: World
    population: Population
    clubs: Sequence[Club]
    regions: Sequence[tuple[str, str]]
    start: date
    end: date

    def within(self, day: date) -> bool:
        return self.start <= day <= self.end


@dataclass(slots=True)
class Draft:
    """A finished tournament before submission gives it an id."""

    acronym: str
    name: str
    kind: TournamentKind
    organiser: str
    referee: PlayerId
    time_control: str
    round_dates: list[date]
    players: list[Participant]
    games: list[Game]
    round_sizes: list[int]
    boards: bytearray
    teams: tuple[Team, ...] = ()
    matches: tuple[Match, ...] = ()


class Sheet:
    """One tournament's participants and games, written down as they are played."""

    __slots__ = ("_results", "_seen", "_strength", "_world", "_year", "boards", "games", "players", "round_sizes")

    def __init__(self, world: World, rng: Random, year: int, forfeits: float) -> None:
        self._world = world
        self._results = Results(rng, forfeits)
        self._strength = world.truth.year_row(year)
        self._year = year
        self._seen: set[int] = set()
        self.players: list[Participant] = []
        self.games: list[Game] = []
        self.round_sizes: list[int] = []
        self.boards = bytearray()

    def strength(self, player: int) -> float:
        return self._strength[player]

    def new_round(self) -> None:
        self.round_sizes.append(0)

    def play(self, white: int, black: int, board: int) -> Outcome:
        """Play a game of the current round at ``board`` and write it down."""
        strength = self._strength
        outcome = self._results.draw(strength[white], strength[black])
        seen = self._seen
        if white not in seen:
            seen.add(white)
            self.players.append(self._world.entry(white, self._year))
        if black not in seen:
            seen.add(black)
            self.players.append(self._world.entry(black, self._year))
        pids = self._world.pids
        self.games.append(Game(pids[white], pids[black], outcome.result))
        self.round_sizes[-1] += 1
        self.boards.append(board)
        return outcome

    def draft(
        self,
        *,
        acronym: str,
        name: str,
        kind: TournamentKind,
        organiser: str,
        time_control: str,
        round_dates: Sequence[date],
        teams: tuple[Team, ...] = (),
        matches: tuple[Match, ...] = (),
    ) -> Draft | None:
        """The tournament as played (rounds without a game at the end dropped), or None if
        nobody played."""
        rounds = len(self.round_sizes)
        while rounds and not self.round_sizes[rounds - 1]:
            rounds -= 1
        if not rounds:
            return None
        # the referee who submits: the first member on the sheet
        referee = next((p.pid for p in self.players if p.member), self.players[0].pid)
        return Draft(
            acronym,
            name,
            kind,
            organiser,
            referee,
            time_control,
            list(round_dates[:rounds]),
            self.players,
            self.games,
            self.round_sizes[:rounds],
            self.boards,
            teams,
            matches,
        )


def acronym(rng: Random, letter: str) -> str:
    """Three capital letters, the first naming the kind of event."""
    return letter + _LETTERS[rng.randrange(26)] + _LETTERS[rng.randrange(26)]


def weekday_on_or_after(day: date, weekday: int) -> date:
    """The first ``weekday`` (Monday 0 ... Sunday 6) on or after ``day``."""
    return day + timedelta(days=(weekday - day.weekday()) % 7)


#: a draft's place in the submission order: submitted, end date, acronym, the draft's sequence
#: number (unique, so that two keys never tie)
ArrivalKey = tuple[date, date, str, int]


def arrivals(drafts: Iterable[Draft], rng: Random, start: date, end: date) -> Iterator[tuple[ArrivalKey, Draft]]:
    """The drafts ending within [start, end], each with its key in the submission order, one
    at a time as ``drafts`` yields them: a caller that cannot keep every draft (a federation of
    a million players) sorts the keys and puts the drafts aside."""
    for sequence, draft in enumerate(drafts):
        end_date = draft.round_dates[-1]
        if not start <= end_date <= end:
            continue
        delay = rng.randint(*_LATE_DAYS) if rng.random() < LATE_SHARE else rng.randint(*_USUAL_DAYS)
        yield (end_date + timedelta(days=delay), end_date, draft.acronym, sequence), draft


def submit_in_order(arriving: Iterable[tuple[ArrivalKey, Draft]]) -> tuple[SyntheticTournament, ...]:
    """The tournaments of ``arrivals``'s drafts in submission order, with ids given in that
    order (an id is assigned at first submission, spec §2)."""
    ordered = sorted(arriving, key=lambda item: item[0])
    return tuple(release(draft, number, key[0]) for number, (key, draft) in enumerate(ordered, start=1))


def release(draft: Draft, number: int, submitted: date) -> SyntheticTournament:
    """The submitted tournament: the draft under id ``number``."""
    return SyntheticTournament(
        event=Tournament(number, draft.acronym, draft.round_dates[-1], tuple(draft.players), tuple(draft.games)),
        name=draft.name,
        kind=draft.kind,
        organiser=draft.organiser,
        referee=draft.referee,
        round_dates=tuple(draft.round_dates),
        round_sizes=tuple(draft.round_sizes),
        boards=bytes(draft.boards),
        time_control=draft.time_control,
        submitted=submitted,
        teams=draft.teams,
        matches=draft.matches,
    )
