"""The synthetic federation: deterministic, structurally sound, and evaluable by the engine."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta
from itertools import combinations
from random import Random

import pytest

from zdb.rating import Conversion, ResultCode, Tournament, build_timeline, replay
from zdb.synthetic import (
    END,
    FIRST_PID,
    START,
    FederationLevel,
    SyntheticFederation,
    TournamentKind,
    generate,
    late_open,
)
from zdb.synthetic.clubs import FULL_CLUBS, REGIONS, build_clubs
from zdb.synthetic.pairing import Swiss, round_robin

SCALE = 0.01
RULE_CHANGE = date(2026, 6, 8)


@pytest.fixture(scope="module")
def federation() -> SyntheticFederation:
    return generate(seed=7, scale=SCALE)


def test_same_seed_same_federation_other_seed_other_federation() -> None:
    first = generate(seed=3, scale=0.003)
    assert first == generate(seed=3, scale=0.003)
    other = generate(seed=4, scale=0.003)
    assert other != first
    assert other.submissions != first.submissions


def test_scale_must_be_positive() -> None:
    with pytest.raises(ValueError, match="scale"):
        generate(scale=0)


def test_federation_tree_and_clubs(federation: SyntheticFederation) -> None:
    codes = {f.code: f for f in federation.federations}
    assert len(codes) == len(federation.federations)
    assert [f.code for f in federation.federations if f.level is FederationLevel.NATIONAL] == ["000"]
    regions = [f for f in federation.federations if f.level is FederationLevel.REGIONAL]
    assert sorted(f.code[0] for f in regions) == sorted(char for char, *_ in REGIONS)
    for district in (f for f in federation.federations if f.level is FederationLevel.DISTRICT):
        assert district.parent == district.code[0] + "00"
    region_chars = {char for char, *_ in REGIONS}
    for club in federation.clubs:
        assert re.fullmatch(r"[1-9A-H]\d{4}", club.zps), club.zps
        assert club.region in region_chars
        assert club.district == club.zps[:3]
        assert codes[club.district].level is FederationLevel.DISTRICT
    assert {club.region for club in federation.clubs} == region_chars
    assert len({club.zps for club in federation.clubs}) == len(federation.clubs)
    assert len({club.name for club in federation.clubs}) == len(federation.clubs)


@pytest.mark.parametrize("scale", [4.7, 10.0])
def test_club_codes_keep_the_zps_format_at_every_scale(scale: float) -> None:
    federations, clubs = build_clubs(Random("1:clubs"), scale)
    assert len(clubs) == round(FULL_CLUBS * scale)
    assert all(re.fullmatch(r"[1-9A-H]\d{4}", club.zps) for club in clubs)
    assert len({club.zps for club in clubs}) == len(clubs)
    districts = [f.code for f in federations if f.level is FederationLevel.DISTRICT]
    assert all(re.fullmatch(r"[1-9A-H]\d\d", code) for code in districts)


def test_players(federation: SyntheticFederation) -> None:
    players = federation.players
    assert len(players) == pytest.approx(100_000 * SCALE, rel=0.1)
    assert [p.pid for p in players] == [str(FIRST_PID + k) for k in range(len(players))]
    assert federation.player(players[-1].pid) is players[-1]
    names = " ".join(f"{p.first_name} {p.last_name}" for p in players)
    assert any(not ch.isascii() for ch in names), "names with umlauts and accents"
    assert {p.sex for p in players} == {"M", "F"}
    zps = {club.zps for club in federation.clubs}
    numbers: Counter[tuple[str, int]] = Counter()
    for player in players:
        for membership in player.memberships:
            assert membership.club in zps
            assert membership.until is None or membership.since < membership.until
            numbers[(membership.club, membership.number)] += 1
    assert max(numbers.values()) == 1, "membership numbers are unique within a club"
    assert any(not p.member for p in players)
    assert any(p.nation != "GER" and p.fide_id is not None for p in players)
    fide_ids = [p.fide_id for p in players if p.fide_id is not None]
    assert len(set(fide_ids)) == len(fide_ids)


def test_initial_states(federation: SyntheticFederation) -> None:
    pids = {p.pid for p in federation.players}
    assert 0.4 * len(pids) < len(federation.initial_states) < 0.8 * len(pids)
    for pid, state in federation.initial_states.items():
        assert pid in pids
        assert state.rating is not None and 300 < state.rating < 3000
        assert state.index >= 1
        assert federation.player(pid).member
    starts = federation.start_ratings()
    assert len(starts) == len(federation.initial_states)
    assert all(s.date < federation.start for s in starts)


def test_tournaments(federation: SyntheticFederation) -> None:
    tournaments = federation.tournaments
    assert [t.event.id for t in tournaments] == list(range(1, len(tournaments) + 1))
    assert {t.kind for t in tournaments} == set(TournamentKind)
    for t in tournaments:
        event = t.event
        assert re.fullmatch(r"[A-Z]{3}", event.acronym)
        assert START <= event.end_date <= END
        assert event.end_date == t.round_dates[-1] and t.start_date <= event.end_date
        assert list(t.round_dates) == sorted(t.round_dates)
        assert len(t.round_dates) == len(t.round_sizes)
        assert sum(t.round_sizes) == len(event.games) == len(t.boards)
        assert t.submitted > event.end_date
        participants = {p.pid for p in event.players}
        assert len(participants) == len(event.players)
        at = 0
        for size in t.round_sizes:
            in_round = [pid for game in event.games[at : at + size] for pid in (game.white, game.black)]
            assert len(in_round) == len(set(in_round)), f"a player twice in a round of {event.id}"
            assert set(in_round) <= participants
            at += size
        assert {pid for game in event.games for pid in (game.white, game.black)} == participants
        assert t.referee in participants
        assert [(r, b) for r, b, _ in t.placed_games()][:1] == [(1, t.boards[0])]


def test_team_seasons(federation: SyntheticFederation) -> None:
    seasons = [t for t in federation.tournaments if t.kind is TournamentKind.TEAM_SEASON]
    assert seasons
    for season in seasons:
        assert 2 <= len(season.teams) <= 12
        assert max(season.boards) <= 8
        per_round = Counter[int]()
        for match in season.matches:
            assert match.home != match.away
            per_round[match.round] += match.games
        assert [per_round[r] for r in range(1, len(season.round_sizes) + 1)] == list(season.round_sizes)
        met = Counter(frozenset((m.home, m.away)) for m in season.matches)
        assert max(met.values()) <= 2, "single or double round robin"


def test_individual_events_sizes(federation: SyntheticFederation) -> None:
    sizes = {
        kind: [len(t.event.players) for t in federation.tournaments if t.kind is kind]
        for kind in (TournamentKind.CLUB_CHAMPIONSHIP, TournamentKind.OPEN)
    }
    assert min(sizes[TournamentKind.CLUB_CHAMPIONSHIP]) >= 6
    assert max(sizes[TournamentKind.CLUB_CHAMPIONSHIP]) <= 14
    assert max(sizes[TournamentKind.OPEN]) <= 300
    assert max(sizes[TournamentKind.OPEN]) >= 50


def test_time_line_crosses_the_rule_change(federation: SyntheticFederation) -> None:
    ends = [t.event.end_date for t in federation.tournaments]
    assert min(ends) < START + timedelta(days=60)
    assert max(ends) > END - timedelta(days=60)
    assert sum(end >= RULE_CHANGE for end in ends) >= 3
    assert sum(end < RULE_CHANGE for end in ends) >= 3


def test_submission_order(federation: SyntheticFederation) -> None:
    submitted = [t.submitted for t in federation.tournaments]
    assert submitted == sorted(submitted)
    late = [t for t in federation.tournaments if (t.submitted - t.event.end_date).days > 14]
    assert 0.005 < len(late) / len(federation.tournaments) < 0.05
    # a late one arrives after tournaments that ended later than it did
    overtaken = [
        t
        for k, t in enumerate(federation.tournaments)
        if k and federation.tournaments[k - 1].event.end_date > t.event.end_date
    ]
    assert {t.event.id for t in late} <= {t.event.id for t in overtaken} | {federation.tournaments[0].event.id}


def test_participants_and_results(federation: SyntheticFederation) -> None:
    entries = [p for t in federation.tournaments for p in t.event.players]
    rated = federation.initial_states
    guests = [p for p in entries if not p.member]
    visitors = [p for p in guests if p.fide_rating is not None and p.pid not in rated]
    newcomers = {p.pid for p in entries if p.member and p.pid not in rated}
    assert 0.005 < len(guests) / len(entries) < 0.1
    assert visitors and all(federation.player(p.pid).nation != "GER" for p in visitors)
    assert len(newcomers) > 0.1 * len({p.pid for p in entries})
    results = Counter(g.result for t in federation.tournaments for g in t.event.games)
    games = sum(results.values())
    assert games == pytest.approx(5_000_000 * SCALE, rel=0.35)
    assert 0.2 < results[ResultCode.DRAW] / games < 0.4
    assert results[ResultCode.WHITE_WINS] > results[ResultCode.BLACK_WINS]
    forfeits = sum(n for code, n in results.items() if not code.rated)
    assert 0.001 < forfeits / games < 0.03
    assert results[ResultCode.DOUBLE_FORFEIT] > 0


def test_the_engine_replays_the_time_line(federation: SyntheticFederation) -> None:
    timeline = build_timeline(federation.submissions)
    result = replay(federation.initial_states, timeline)
    assert len(result.reports) == len(federation.tournaments)
    assert any(isinstance(event, Conversion) for event in timeline)
    established = sum(1 for s in result.final_states.values() if s.rating is not None)
    assert established > len(federation.initial_states), "newcomers obtained first ratings"


def test_late_open(federation: SyntheticFederation) -> None:
    late = late_open(federation, size=40)
    event = late.event
    assert event.id == len(federation.tournaments) + 1
    assert event.end_date.weekday() == 6
    assert federation.end - timedelta(days=372) <= event.end_date <= federation.end - timedelta(days=365)
    assert len(event.players) == 40
    assert all(p.member and federation.player(p.pid).membership_at(event.end_date) for p in event.players)
    assert late.submitted > max(t.submitted for t in federation.tournaments)
    assert late_open(federation, size=40) == late
    assert late_open(federation, size=40, variant=1) != late
    assert isinstance(event, Tournament)


@pytest.mark.parametrize("players", range(2, 16))
def test_round_robin_meets_everyone_once(players: int) -> None:
    rounds = round_robin(players)
    assert len(rounds) == players - 1 + players % 2
    met = sorted(tuple(sorted(pair)) for pairs in rounds for pair in pairs)
    assert met == list(combinations(range(players), 2))
    for pairs in rounds:
        seated = [p for pair in pairs for p in pair]
        assert len(seated) == len(set(seated))


def test_swiss_never_repeats_a_pairing() -> None:
    swiss = Swiss([2000.0 - 10 * k for k in range(51)])
    met: set[frozenset[int]] = set()
    for _ in range(9):
        pairs = swiss.pair()
        assert len(pairs) == 25
        for white, black in pairs:
            assert frozenset((white, black)) not in met
            met.add(frozenset((white, black)))
            swiss.record(white, black, 2 if white < black else 0, 0 if white < black else 2)
