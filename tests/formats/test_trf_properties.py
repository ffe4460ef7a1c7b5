"""Property tests: generated well-formed TRF files round-trip to the same players, games and
byes; junk never raises and always comes back with problems."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SHARED
from tests.formats.test_trf_problems import Cell, player_line
from zdb.formats.trf import ByeKind, TrfDocument, iter_byes, iter_games, parse_trf
from zdb.rating import ResultCode

# (white's code, black's code) -> engine result and rated, as documented in zdb.formats.trf.games
PAIRS = {
    ("1", "0"): (ResultCode.WHITE_WINS, True),
    ("0", "1"): (ResultCode.BLACK_WINS, True),
    ("=", "="): (ResultCode.DRAW, True),
    ("+", "-"): (ResultCode.WHITE_WINS_FORFEIT, False),
    ("-", "+"): (ResultCode.BLACK_WINS_FORFEIT, False),
    ("-", "-"): (ResultCode.DOUBLE_FORFEIT, False),
    ("W", "L"): (ResultCode.WHITE_WINS_FORFEIT, False),
    ("L", "W"): (ResultCode.BLACK_WINS_FORFEIT, False),
    ("D", "D"): (ResultCode.DRAW, False),
}
POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "=": 0.5, "D": 0.5, "0": 0.0, "-": 0.0, "L": 0.0}
# Cells without an opponent: (cell, kind, points)
BYES: list[tuple[Cell, ByeKind, float]] = [
    ((0, "-", "H"), ByeKind.HALF_POINT, 0.5),
    ((0, "-", "F"), ByeKind.FULL_POINT, 1.0),
    ((0, "-", "U"), ByeKind.PAIRING_ALLOCATED, 1.0),
    ((0, "-", "Z"), ByeKind.ZERO_POINT, 0.0),
    ((0, "-", "+"), ByeKind.PAIRING_PLUS, 1.0),
    ((0, "-", "-"), ByeKind.NOT_PAIRED, 0.0),
    ((None, "", "H"), ByeKind.HALF_POINT, 0.5),
    ((None, "", "-"), ByeKind.NOT_PAIRED, 0.0),
    ((None, "", ""), ByeKind.ABSENT, 0.0),
]
NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZäöüßÄÖÜéèñçåøłŁŻżŠš ,.-'"
TITLES = ["", "GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"]
FEDERATIONS = ["", "GER", "FRA", "AUT", "SUI", "NED", "POL"]


@dataclass
class Generated:
    text: str
    players: dict[int, tuple[object, ...]] = field(default_factory=dict)
    games: list[tuple[int, int, int, ResultCode, bool]] = field(default_factory=list)
    byes: set[tuple[int, int, ByeKind]] = field(default_factory=set)
    rounds: int = 0


@st.composite
def tournaments(draw: st.DrawFn) -> Generated:
    count = draw(st.integers(min_value=2, max_value=14))
    rounds = draw(st.integers(min_value=1, max_value=6))
    numbers = list(range(1, count + 1))
    cells: dict[int, list[Cell]] = {no: [] for no in numbers}
    points = dict.fromkeys(numbers, 0.0)
    result = Generated(text="", rounds=rounds)
    for round_no in range(1, rounds + 1):
        order = draw(st.permutations(numbers))
        absent = draw(st.integers(min_value=0, max_value=count - 2))
        for no in order[:absent]:
            cell, kind, value = draw(st.sampled_from(BYES))
            cells[no].append(cell)
            points[no] += value
            result.byes.add((round_no, no, kind))
        playing = order[absent:]
        if len(playing) % 2:
            odd = playing[-1]
            cells[odd].append((0, "-", "U"))
            points[odd] += 1.0
            result.byes.add((round_no, odd, ByeKind.PAIRING_ALLOCATED))
            playing = playing[:-1]
        for white, black in zip(playing[::2], playing[1::2], strict=True):
            codes = draw(st.sampled_from(sorted(PAIRS)))
            cells[white].append((black, "w", codes[0]))
            cells[black].append((white, "b", codes[1]))
            points[white] += POINTS[codes[0]]
            points[black] += POINTS[codes[1]]
            engine, rated = PAIRS[codes]
            result.games.append((round_no, white, black, engine, rated))
    lines = ["012 Generated Open", "042 2024/01/01", "052 2024/01/09", f"XXR {rounds}"]
    player_lines = []
    for no in numbers:
        name = draw(st.text(alphabet=NAME_CHARS, min_size=1, max_size=33).map(str.strip).filter(bool))
        sex = draw(st.sampled_from(["m", "w", " "]))
        title = draw(st.sampled_from(TITLES))
        rating = draw(st.one_of(st.just(0), st.integers(min_value=1000, max_value=2900)))
        fed = draw(st.sampled_from(FEDERATIONS))
        fide = draw(st.one_of(st.just(0), st.integers(min_value=1, max_value=99_999_999_999)))
        birth = draw(st.one_of(st.none(), st.integers(1900, 2020), st.dates(date(1900, 1, 1), date(2020, 12, 31))))
        birth_text = "" if birth is None else str(birth) if isinstance(birth, int) else birth.strftime("%Y/%m/%d")
        birth_year = None if birth is None else birth if isinstance(birth, int) else birth.year
        player_lines.append(
            player_line(
                no,
                name,
                cells[no],
                sex=sex,
                title=title,
                rating=rating,
                fed=fed,
                fide=fide,
                birth=birth_text,
                points=points[no],
            )
        )
        result.players[no] = (
            name,
            sex.strip() or None,
            title or None,
            rating or None,
            fed or None,
            fide or None,
            birth_year,
            points[no],
        )
    shuffled = draw(st.permutations(player_lines))
    eol = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    result.text = eol.join(lines + list(shuffled)) + eol
    return result


def _players(doc: TrfDocument) -> dict[int, tuple[object, ...]]:
    return {
        p.start_no: (p.name, p.sex, p.title, p.rating, p.federation, p.fide_id, p.birth_year, p.points)
        for p in doc.players
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments(), st.sampled_from(["str", "utf-8", "utf-8-sig"]))
def test_generated_tournaments_round_trip(generated: Generated, encoding: str) -> None:
    data: bytes | str = generated.text if encoding == "str" else generated.text.encode(encoding)
    doc = parse_trf(data)
    assert doc.problems == (), [str(p) for p in doc.problems]
    assert doc.encoding == (None if encoding == "str" else encoding)
    assert doc.rounds == doc.declared_rounds == generated.rounds
    assert _players(doc) == generated.players
    games = [(g.round, g.white, g.black, g.result, g.rated) for g in iter_games(doc)]
    assert sorted(games) == sorted(generated.games)  # every pairing exactly once
    assert {(b.round, b.start_no, b.kind) for b in iter_byes(doc)} == generated.byes


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000))
def test_junk_bytes_never_raise(data: bytes) -> None:
    doc = parse_trf(data)
    assert isinstance(doc, TrfDocument)
    assert doc.problems


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=2000))
def test_junk_text_never_raises(text: str) -> None:
    doc = parse_trf(text)
    assert isinstance(doc, TrfDocument)
    assert doc.problems


SMALL_FILES = [
    "sharly-trf26-individual-240-byes-nrs-16p.trf",
    "icu-bunratty-masters-2011-34p-crlf.trf",
    "echecsjs-trf26-team-minimal-2p.trf",
    "javafo-gros-open-2010-52p-partial-xxr.trf",
]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(SMALL_FILES),
    st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.binary(max_size=12), st.integers(0, 12)), max_size=8),
)
def test_damaged_real_files_never_raise(name: str, edits: list[tuple[float, bytes, int]]) -> None:
    data = bytearray((SHARED / "data" / "trf" / name).read_bytes())
    for where, insert, remove in edits:
        at = int(where * len(data))
        data[at : at + remove] = insert
    doc = parse_trf(bytes(data))
    assert isinstance(doc, TrfDocument)
    list(iter_games(doc))
    list(iter_byes(doc))
