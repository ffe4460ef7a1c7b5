"""The conformance harness: a time line taken in through the referee's API as referees send it,
read back through the API, and compared with the engine's from-scratch replay.

How the files are written, as real files are sparse:
- each person is named in full (name, sex, guest or member) the first time a file names him,
  and by his person number alone in every later file; a person the federation's list already
  holds (one with a starting rating) is named by his person number from the first file on;
- his birth year is told in one of his files only, chosen at random: the record learns it then,
  and every evaluation of his stored before it must be redone;
- each file is JSON or TRF at random (a TRF names a known person in a ``GER`` line by person
  number and carries no birth dates but the one that tells it);
- tournaments arrive in a shuffled order, with corrections and withdrawals among them.

Nothing here computes a rating: the expected figures are the engine's replay of the same time
line (``zdb.rating.replay``), and the read figures come from the API's JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from fastapi.testclient import TestClient

from zdb.rating import Game, PlayerState, ResultCode, Tournament, Withdrawal, build_timeline, replay

__all__ = ["Person", "Source", "check_against_engine", "submit_through_api"]

FIGURES = (
    "member",
    "stage",
    "fide_start",
    "r0",
    "i0",
    "w",
    "n",
    "unrated_games",
    "we",
    "e",
    "k",
    "rh",
    "sonder",
    "rn",
    "i_new",
    "stored",
    "leftover_used",
    "leftover_stored",
)
_OWN = {
    ResultCode.WHITE_WINS: ("1", "0"),
    ResultCode.BLACK_WINS: ("0", "1"),
    ResultCode.DRAW: ("=", "="),
    ResultCode.WHITE_WINS_FORFEIT: ("+", "-"),
    ResultCode.BLACK_WINS_FORFEIT: ("-", "+"),
    ResultCode.DOUBLE_FORFEIT: ("-", "-"),
}
_POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0}


@dataclass(frozen=True, slots=True)
class Person:
    pid: str
    surname: str
    given_name: str
    sex: str
    birth_year: int
    guest: bool


@dataclass
class Source:
    """A time line: starting states (the federation's list), the people, the submissions in
    the order they arrive (a tournament id seen again is a correction), each tournament's round
    of every game, and the organising federation of each."""

    initial: Mapping[str, PlayerState]
    people: Mapping[str, Person]
    submissions: Sequence[Tournament | Withdrawal]
    rounds: Mapping[int, Sequence[int]]
    federation: Mapping[int, str]
    time_control: str = "40/5400+30:1800+30"


@dataclass
class Intake:
    """What the API gave back: person numbers and tournament ids, and what it was sent."""

    pkz: dict[str, int] = field(default_factory=dict)
    ids: dict[int, int] = field(default_factory=dict)  # the time line's id -> the API's
    sent: list[Tournament | Withdrawal] = field(default_factory=list)  # with the API's ids
    formats: list[str] = field(default_factory=list)


def greedy_rounds(tournament: Tournament) -> list[int]:
    """A round for each game such that nobody plays twice in a round (files need rounds)."""
    busy: dict[int, set[str]] = {}
    rounds = []
    for game in tournament.games:
        round_no = 1
        while {game.white, game.black} & busy.get(round_no, set()):
            round_no += 1
        busy.setdefault(round_no, set()).update((game.white, game.black))
        rounds.append(round_no)
    return rounds


def _tells(source: Source, rng: Random) -> dict[tuple[int, str], bool]:
    """For each person, the one submission (by position) whose file tells his birth year."""
    places: dict[str, list[int]] = {}
    for k, event in enumerate(source.submissions):
        if isinstance(event, Tournament):
            for participant in event.players:
                places.setdefault(participant.pid, []).append(k)
    return {(rng.choice(at), pid): True for pid, at in places.items()}


def submit_through_api(
    client: TestClient,
    token: str,
    source: Source,
    *,
    seed: int,
    listed: Mapping[str, int],
    between: Callable[[], None] = lambda: None,
) -> Intake:
    """Send every submission; ``listed``: the persons the federation's list holds (time line id
    -> person number); ``between`` runs after a random fifth of the submissions (a recalculation)."""
    rng = Random(seed)
    tells = _tells(source, rng)
    intake = Intake(pkz=dict(listed))
    headers = {"Authorization": f"Bearer {token}"}
    for k, event in enumerate(source.submissions):
        if isinstance(event, Withdrawal):
            answer = client.delete(f"/api/v1/tournaments/{intake.ids[event.tournament]}", headers=headers)
            assert answer.status_code == 204, answer.text
            intake.sent.append(Withdrawal(intake.ids[event.tournament]))
            continue
        told = {p.pid for p in event.players if tells.get((k, p.pid))}
        as_trf = rng.random() < 0.5
        correction = event.id in intake.ids
        if as_trf:
            text = _trf(source, event, intake.pkz, told)
            path = "/api/v1/tournaments/trf" if not correction else f"/api/v1/tournaments/{intake.ids[event.id]}/trf"
            params = {"acronym": event.acronym, "federation": source.federation[event.id]}
            send = client.put if correction else client.post
            answer = send(path, params=params, content=text.encode(), headers={**headers, "Content-Type": "text/plain"})
        else:
            body = _json(source, event, intake.pkz, told)
            path = "/api/v1/tournaments" if not correction else f"/api/v1/tournaments/{intake.ids[event.id]}"
            answer = (client.put if correction else client.post)(path, json=body, headers=headers)
        assert answer.status_code in (200, 201), f"submission {k} ({'TRF' if as_trf else 'JSON'}): {answer.text}"
        made = answer.json()
        intake.ids[event.id] = made["id"]
        for participant, matched in zip(event.players, made["players"], strict=True):
            known = intake.pkz.setdefault(participant.pid, matched["pkz"])
            assert known == matched["pkz"], f"{participant.pid} was matched to another person"
        intake.sent.append(
            Tournament(made["id"], event.acronym, event.end_date, event.players, event.games)  # the API's id
        )
        intake.formats.append("trf" if as_trf else "json")
        if rng.random() < 0.2:
            between()
    return intake


def _named(source: Source, pid: str, known: Mapping[str, int], told: set[str]) -> dict[str, Any]:
    """How a JSON file names this person."""
    person = source.people[pid]
    entry: dict[str, Any] = {}
    if pid in known:
        entry["pkz"] = known[pid]
    else:
        entry |= {"surname": person.surname, "given_name": person.given_name, "sex": person.sex}
        if person.guest:
            entry["member"] = False
    if pid in told:
        entry["birth_year"] = person.birth_year
    return entry


def _json(source: Source, event: Tournament, known: Mapping[str, int], told: set[str]) -> dict[str, Any]:
    start = {p.pid: k + 1 for k, p in enumerate(event.players)}
    rounds = source.rounds[event.id]
    players = []
    for participant in event.players:
        entry = _named(source, participant.pid, known, told)
        if participant.fide_rating is not None:
            entry["fide_rating"] = participant.fide_rating
        players.append(entry)
    return {
        "acronym": event.acronym,
        "federation": source.federation[event.id],
        "end_date": event.end_date.isoformat(),
        "time_control": source.time_control,
        "players": players,
        "games": [
            {"round": r, "white": start[g.white], "black": start[g.black], "result": g.result.value}
            for r, g in zip(rounds, event.games, strict=True)
        ],
    }


def _place(line: list[str], column: int, text: str, width: int = 0) -> None:
    placed = text.rjust(width) if width else text
    line[column - 1 : column - 1 + len(placed)] = list(placed)


def _trf_line(code: str, fields: Sequence[tuple[int, str, int]]) -> str:
    line = list(code.ljust(max(column + max(len(text), width) for column, text, width in fields)))
    for column, text, width in fields:
        _place(line, column, text, width)
    return "".join(line).rstrip()


def _trf(source: Source, event: Tournament, known: Mapping[str, int], told: set[str]) -> str:
    """FIDE TRF16: 001 lines with cells round by round, a GER line with the person number of
    every known person; birth dates only where the file tells one."""
    start = {p.pid: k + 1 for k, p in enumerate(event.players)}
    rounds = source.rounds[event.id]
    last = max(rounds, default=0)
    cells: dict[int, dict[int, str]] = {no: {} for no in start.values()}
    points = dict.fromkeys(start.values(), 0.0)
    for round_no, game in zip(rounds, event.games, strict=True):
        white, black = start[game.white], start[game.black]
        mine, theirs = _OWN[game.result]
        cells[white][round_no] = f"{black:4d} w {mine}"
        cells[black][round_no] = f"{white:4d} b {theirs}"
        points[white] += _POINTS[mine]
        points[black] += _POINTS[theirs]
    d = event.end_date
    lines = [f"012 Turnier {event.id}", f"052 {d.year:04d}/{d.month:02d}/{d.day:02d}", "122 90 min + 30 s"]
    for participant in event.players:
        no, person = start[participant.pid], source.people[participant.pid]
        name = f"{person.surname}, {person.given_name}"
        born = f"{person.birth_year}/07/01" if participant.pid in told else ""
        is_known = participant.pid in known
        federation = "AUT" if person.guest and not is_known else "GER"
        rating = "" if participant.fide_rating is None else str(participant.fide_rating)
        fields = [
            (5, str(no), 4),
            (10, "w" if person.sex == "F" else "m", 0),
            (15, name, 0),
            (49, rating, 4),
            (54, federation, 0),
            (70, born, 0),
            (81, f"{points[no]:.1f}", 4),
            (86, str(no), 4),
        ]
        # A round the player did not play is written as not paired ("0000 - -").
        fields += [(92 + 10 * (r - 1), cells[no].get(r, "0000 - -"), 0) for r in range(1, last + 1)]
        lines.append(_trf_line("001", fields))
        if is_known:
            lines.append(_trf_line("GER", [(5, str(no), 4), (15, name, 0), (58, str(known[participant.pid]), 11)]))
    return "\n".join(lines) + "\n"


def check_against_engine(client: TestClient, source: Source, intake: Intake) -> int:
    """Every non-withdrawn tournament's evaluation and every person's rating as the API shows
    them, against the engine's replay of what was sent; returns the number of rows compared."""
    pids = {pkz: pid for pid, pkz in intake.pkz.items()}
    initial = {intake.pkz.get(pid, pid): state for pid, state in source.initial.items()}
    initial = {str(key): state for key, state in initial.items()}
    by_pkz = [_with_pkz(e, intake.pkz, source.people) for e in intake.sent]
    expected = replay(initial, build_timeline(by_pkz))
    compared = 0
    for tid, rows in expected.reports.items():
        shown = client.get(f"/api/v1/tournaments/{tid}/evaluation")
        assert shown.status_code == 200, shown.text
        got = {r["pkz"]: {k: r[k] for k in FIGURES} for r in shown.json()["rows"]}
        want = {int(row.pid): _figures(row) for row in rows}
        assert got == want, f"tournament {tid}: " + _first_difference(got, want, pids)
        compared += len(rows)
    for pid, pkz in intake.pkz.items():
        card = client.get(f"/api/v1/players/{pkz}").json()
        state = expected.final_states.get(str(pkz), source.initial.get(pid, PlayerState()))
        assert (card["rating"], card["rating_index"]) == (state.rating, state.index if state.rating else None), (
            f"{pid} ({pkz}): card {card['rating']}-{card['rating_index']}, engine {state.rating}-{state.index}"
        )
    return compared


def _with_pkz(event: Tournament | Withdrawal, pkz: Mapping[str, int], people: Mapping[str, Person]) -> Any:
    if isinstance(event, Withdrawal):
        return event
    players = tuple(
        p._replace(pid=str(pkz[p.pid]), birth_year=people[p.pid].birth_year, member=not people[p.pid].guest)
        for p in event.players
    )
    games = tuple(Game(str(pkz[g.white]), str(pkz[g.black]), g.result) for g in event.games)
    return Tournament(event.id, event.acronym, event.end_date, players, games)


def _figures(row: Any) -> dict[str, Any]:
    values = {k: getattr(row, k) for k in FIGURES}
    values["stage"] = row.stage.value
    return values


def _first_difference(got: dict[int, Any], want: dict[int, Any], pids: Mapping[int, str]) -> str:
    for pkz in sorted(set(got) | set(want)):
        if got.get(pkz) != want.get(pkz):
            return f"player {pkz} ({pids.get(pkz)}): API {got.get(pkz)} != engine {want.get(pkz)}"
    return "rows differ"
