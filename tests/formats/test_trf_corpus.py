"""The 19 real TRF files of shared/data/trf: every one is read completely, the finished
tournaments without an error, the unfinished ones with exactly the error that says so, and the
facts that SOURCES.md states about each file come out of the parser."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest

from tests.conftest import SHARED
from zdb.formats.trf import ByeKind, TrfDocument, iter_byes, iter_games, parse_trf
from zdb.rating import ResultCode

TRF_DIR = SHARED / "data" / "trf"
FILES = sorted(path.name for path in TRF_DIR.glob("*.trf"))

# The unfinished tournaments: files a pairing program reads or writes while the tournament runs,
# with more rounds announced (XXR or 142) than played. Only finished tournaments are rated, so
# each gives one error, on the announcing record (zdb/formats/trf/finished.py): (line, field,
# the rounds without results). Their earlier warning "declares N rounds but the player lines hold
# M" is this error now.
EXPECTED_ERRORS: dict[str, tuple[int, str, str]] = {
    "bbp-dutch2025-c5-6p-xxr-zbye.trf": (8, "XXR", "round 3"),  # XXR 3; round 3 holds only a Z bye
    "cppdubov-issue4-7p-no-header.trf": (8, "XXR", "rounds 3 to 5"),  # XXR 5, 2 rounds
    "echecsjs-trf26-team-minimal-2p.trf": (9, "142", "rounds 2 to 5"),  # 142 5 (and XXR 5), 1 round
    "javafo-gros-open-2010-52p-partial-xxr.trf": (13, "XXR", "rounds 5 to 9"),  # round 5: byes only
    # lichess announced 21 rounds and the file holds 20: whether the Swiss stopped early or was
    # exported before its last round, the file cannot say; a referee who knows corrects XXR.
    "lichess-swiss-bullet-2020-112p-21r.trf": (9, "XXR", "round 21"),
    "sharly-bbp-trf26-individual-299-5p.trf": (3, "142", "rounds 2 and 3"),
    "sharly-bbp-trf26-team-330-forfeit-4p.trf": (3, "142", "rounds 2 and 3"),
    "sharly-bbp-trf26-team-utf8-names-8p.trf": (3, "142", "round 3"),
}

# The warnings each file gives, by field, and why (SOURCES.md: what is odd about the file).
EXPECTED_WARNINGS: dict[str, Counter[str]] = {
    "bbp-autotest-issue15-180p-11r-cr-eol.trf": Counter({"052": 1}),  # only 012 and 001: no date
    "bbp-dutch2025-c5-6p-xxr-zbye.trf": Counter({"052": 1}),  # header is only 012
    "cppdubov-issue4-7p-no-header.trf": Counter({"052": 1}),  # no header
    "cppdubov-random-81p-10r-mixed-eol.trf": Counter({"042": 1, "052": 2, "record code": 1}),  # placeholders, TNR
    "echecsjs-trf26-team-minimal-2p.trf": Counter({"birth date": 2, "points": 2}),  # shifted births
    "fide-tec-grandmommys-cup-trf25-249p-team-crlf.trf": Counter(),
    "fide-tec-grandmommys-cup-trf26-adapted-249p-team.trf": Counter(),
    "icu-armstrong-cup-2011-team-league-160p.trf": Counter(),
    "icu-armstrong-cup-2012-utf8-bom-2p.trf": Counter(),
    "icu-latin1-encoded-3p-no-end-date.trf": Counter({"encoding": 1, "052": 1}),  # ISO-8859-1, no 052/132
    "javafo-gros-open-2010-52p-partial-xxr.trf": Counter(),
    "lichess-swiss-2020-06-13p-10r.trf": Counter(),
    "lichess-swiss-bullet-2020-112p-21r.trf": Counter(),
    "sharly-bbp-trf26-individual-299-5p.trf": Counter({"052": 1}),
    "sharly-bbp-trf26-team-330-forfeit-4p.trf": Counter({"052": 1}),
    "sharly-bbp-trf26-team-utf8-names-8p.trf": Counter({"052": 1}),
    "sharly-trf26-individual-240-byes-nrs-16p.trf": Counter(),
    # ICU byes "     -  " carry no code (the total decides), club codes in the federation column,
    # 132 written YY.DD.MM; the points warnings are counted against the file below.
    "icu-bunratty-masters-2011-34p-crlf.trf": Counter({"132 round 1": 1, "federation": 1}),
    "icu-bunratty-minor-2011-103p-crlf.trf": Counter({"132 round 1": 1, "federation": 1}),
}


# SOURCES.md: players, rounds in the player lines, encoding (ASCII reads as UTF-8), line endings.
SHAPES: dict[str, tuple[int, int, str, str]] = {
    "icu-armstrong-cup-2011-team-league-160p.trf": (160, 11, "utf-8", "LF"),
    "icu-bunratty-masters-2011-34p-crlf.trf": (34, 6, "utf-8", "CRLF"),
    "icu-bunratty-minor-2011-103p-crlf.trf": (103, 6, "utf-8", "CRLF"),
    "icu-armstrong-cup-2012-utf8-bom-2p.trf": (2, 1, "utf-8-sig", "LF"),
    "icu-latin1-encoded-3p-no-end-date.trf": (3, 3, "iso-8859-1", "LF"),
    "javafo-gros-open-2010-52p-partial-xxr.trf": (52, 5, "utf-8", "CRLF"),  # 4 played, round 5 partly
    "fide-tec-grandmommys-cup-trf25-249p-team-crlf.trf": (249, 14, "utf-8", "CRLF"),
    "fide-tec-grandmommys-cup-trf26-adapted-249p-team.trf": (249, 14, "utf-8", "LF"),
    "echecsjs-trf26-team-minimal-2p.trf": (2, 1, "utf-8", "LF"),
    "sharly-trf26-individual-240-byes-nrs-16p.trf": (16, 5, "utf-8", "LF"),
    "lichess-swiss-2020-06-13p-10r.trf": (13, 10, "utf-8", "LF"),
    "lichess-swiss-bullet-2020-112p-21r.trf": (112, 20, "utf-8", "LF"),
    "bbp-autotest-issue15-180p-11r-cr-eol.trf": (180, 11, "utf-8", "CR"),
    "bbp-dutch2025-c5-6p-xxr-zbye.trf": (6, 3, "utf-8", "LF"),  # 2 played and 1 bye cell
    "cppdubov-random-81p-10r-mixed-eol.trf": (81, 10, "utf-8", "mixed"),
    "cppdubov-issue4-7p-no-header.trf": (7, 2, "utf-8", "LF"),
    "sharly-bbp-trf26-team-utf8-names-8p.trf": (8, 2, "utf-8", "LF"),
    "sharly-bbp-trf26-team-330-forfeit-4p.trf": (4, 1, "utf-8", "LF"),
    "sharly-bbp-trf26-individual-299-5p.trf": (5, 1, "utf-8", "LF"),
}


@cache
def doc_of(name: str) -> TrfDocument:
    return parse_trf((TRF_DIR / name).read_bytes())


ANY = "any"


def bye_count(doc: TrfDocument, kind: ByeKind, code: str | None = ANY) -> int:
    return sum(1 for b in iter_byes(doc) if b.kind is kind and code in (ANY, b.code))


def results(doc: TrfDocument) -> Counter[ResultCode]:
    return Counter(game.result for game in iter_games(doc))


def test_the_corpus_is_there() -> None:
    assert len(FILES) == 19, f"expected the 19 files of SOURCES.md in {TRF_DIR}"


@pytest.mark.parametrize("name", FILES)
def test_every_file_parses_with_the_expected_errors_and_warnings(name: str) -> None:
    doc = doc_of(name)
    if name in EXPECTED_ERRORS:
        line, field, rounds = EXPECTED_ERRORS[name]
        [error] = doc.errors
        assert (error.line, error.field) == (line, field)
        assert error.message.startswith("the tournament is not finished: ")
        assert f"no results for {rounds};" in error.message
    else:
        assert doc.errors == (), [str(p) for p in doc.errors]
    fields = Counter(p.field or "" for p in doc.warnings if p.field != "points" or "bunratty" not in name)
    assert fields == EXPECTED_WARNINGS[name], [str(p) for p in doc.warnings]


@pytest.mark.parametrize("name", FILES)
def test_players_rounds_encoding_and_line_endings(name: str) -> None:
    doc = doc_of(name)
    assert (len(doc.players), doc.rounds, doc.encoding, doc.line_endings) == SHAPES[name]
    assert all(len(p.cells) == doc.rounds for p in doc.players)


def _points_mismatch_lines(name: str) -> set[int]:
    """Independent of the parser: 001 lines whose points column differs from their result codes
    (TRF defaults; the ICU '-' colour cells without a code count nothing)."""
    value = {"1": 1.0, "+": 1.0, "=": 0.5, "H": 0.5, "U": 1.0, "F": 1.0}
    lines = re.split(r"\r\n|\r|\n", (TRF_DIR / name).read_bytes().decode("utf-8"))
    mismatched = set()
    for lineno, line in enumerate(lines, start=1):
        if line.startswith("001"):
            total = sum(value.get(line[k], 0.0) for k in range(98, len(line), 10))
            if total != float(line[80:84]):
                mismatched.add(lineno)
    return mismatched


@pytest.mark.parametrize("name", ["icu-bunratty-masters-2011-34p-crlf.trf", "icu-bunratty-minor-2011-103p-crlf.trf"])
def test_icu_byes_without_code_give_points_warnings_exactly_where_the_total_differs(name: str) -> None:
    doc = doc_of(name)
    warned = {p.line for p in doc.warnings if p.field == "points"}
    assert warned and warned == _points_mismatch_lines(name)
    dash_lines = {p.line for p in doc.players if any(c.colour == "-" and c.result is None for c in p.cells)}
    assert warned <= dash_lines


def test_armstrong_2011_team_league() -> None:
    doc = doc_of("icu-armstrong-cup-2011-team-league-160p.trf")
    assert (len(doc.players), doc.rounds, len(doc.round_dates), doc.line_endings) == (160, 11, 11, "LF")
    assert doc.name == "Leinster Chess Union Div 1 Armstrong Cup 2010 - 2011"  # not the 012... ruler
    assert doc.city is None and doc.header["072"] == ("",)
    assert (doc.start_date, doc.end_date) == (date(2010, 9, 13), date(2011, 3, 13))  # YY.MM.DD
    assert doc.round_dates[1] == date(2010, 9, 25)
    assert len(doc.teams) == 12 and {t.source for t in doc.teams} == {"013"}
    assert max(len(t.members) for t in doc.teams) == 21
    assert all(p.rank is None for p in doc.players)
    assert bye_count(doc, ByeKind.ABSENT) == 708
    assert bye_count(doc, ByeKind.PAIRING_PLUS) == 6 and bye_count(doc, ByeKind.NOT_PAIRED) == 2
    # A team round robin: each of the 66 team pairs meets in exactly one round.
    met: dict[frozenset[int], set[int]] = {}
    for game in iter_games(doc):
        white, black = doc.team_of(game.white), doc.team_of(game.black)
        assert white is not None and black is not None and white is not black
        met.setdefault(frozenset((white.number, black.number)), set()).add(game.round)
    assert set(met) == {frozenset(pair) for pair in combinations(range(1, 13), 2)}
    assert all(len(rounds) == 1 for rounds in met.values())
    assert doc.problems == ()


def test_bunratty_masters() -> None:
    doc = doc_of("icu-bunratty-masters-2011-34p-crlf.trf")
    assert (len(doc.players), doc.rounds, doc.line_endings) == (34, 6, "CRLF")
    assert (doc.start_date, doc.end_date) == (date(2011, 2, 25), date(2011, 2, 27))
    assert doc.round_dates == tuple(date(2011, 2, d) for d in (25, 26, 26, 26, 27, 27))  # 132 is YY.DD.MM
    assert {p.sex for p in doc.players} == {"m", "w"}  # written as uppercase M (and one F)
    short = doc.player(1)
    assert short is not None and (short.name, short.title) == ("Short, Nigel", "GM")  # title in columns 12-13
    assert {"ENN", "KIL", "GON", "ADA", None} <= {p.federation for p in doc.players}  # club codes or blank
    assert all(p.fide_id is None for p in doc.players)
    assert bye_count(doc, ByeKind.ZERO_POINT, None) == 10  # "     -  "
    assert doc.header["032"] == ("",) and doc.header["112"] == ("",)


def test_bunratty_minor() -> None:
    doc = doc_of("icu-bunratty-minor-2011-103p-crlf.trf")
    assert (len(doc.players), doc.rounds) == (103, 6)
    assert all(p.rating is None for p in doc.players) and doc.header["072"] == ("0",)
    assert bye_count(doc, ByeKind.PAIRING_PLUS) == 3  # 0000 - +: the pairing bye here
    assert bye_count(doc, ByeKind.ZERO_POINT, None) == 19


def test_armstrong_2012_with_bom() -> None:
    doc = doc_of("icu-armstrong-cup-2012-utf8-bom-2p.trf")
    assert doc.encoding == "utf-8-sig"
    assert doc.name == "Leinster Chess Union Div 1 Armstrong Cup 2011 - 2012"
    assert (len(doc.players), doc.rounds, doc.round_dates) == (2, 1, ())
    assert doc.problems == ()


def test_latin1_file() -> None:
    doc = doc_of("icu-latin1-encoded-3p-no-end-date.trf")
    assert doc.encoding == "iso-8859-1"
    assert doc.name == "Läs Végas National Opeñ"
    assert (len(doc.players), doc.rounds) == (3, 3)
    assert doc.start_date == date(2008, 6, 7) and doc.end_date is None


def test_javafo_partial_tournament() -> None:
    doc = doc_of("javafo-gros-open-2010-52p-partial-xxr.trf")
    assert (len(doc.players), doc.declared_rounds, doc.rounds, doc.line_endings) == (52, 9, 5, "CRLF")
    assert doc.extensions["XXR"] == ("9",)
    assert bye_count(doc, ByeKind.HALF_POINT) == 16
    assert bye_count(doc, ByeKind.ZERO_POINT) == 6
    assert bye_count(doc, ByeKind.PAIRING_ALLOCATED) == 3
    assert [doc.player(n).title for n in (1, 2, 3)] == ["GM", "IM", "FM"]  # type: ignore[union-attr]
    first = doc.player(1)
    assert first is not None and (first.birth_year, first.birth_date) == (1978, None)
    assert any(p.rating is None and p.fide_id is None for p in doc.players)  # rating 0 and FIDE id 0
    assert (doc.start_date, doc.end_date, doc.round_dates) == (date(2010, 9, 24), date(2010, 10, 2), ())
    assert doc.header["112"] == ("",)
    found = results(doc)
    assert found[ResultCode.WHITE_WINS_FORFEIT] + found[ResultCode.BLACK_WINS_FORFEIT] > 0


def test_fide_sample_trf25() -> None:
    doc = doc_of("fide-tec-grandmommys-cup-trf25-249p-team-crlf.trf")
    text = (TRF_DIR / "fide-tec-grandmommys-cup-trf25-249p-team-crlf.trf").read_text(encoding="utf-8")
    assert (len(doc.players), len(doc.teams), doc.rounds, doc.line_endings) == (249, 50, 14, "CRLF")
    assert len(doc.round_dates) == 14 and len(set(doc.round_dates)) == 12  # two dates repeated
    assert doc.name == "Grandmommy's Cup"
    assert bye_count(doc, ByeKind.NOT_PAIRED) == 1328
    assert bye_count(doc, ByeKind.PAIRING_PLUS) == 98
    assert len(doc.national_records) == 15 and {r.federation for r in doc.national_records} == {"IND"}
    assert len(doc.bye_records) == len(re.findall(r"(?m)^240 ", text))  # TAB lines included
    assert len(doc.team_forfeits) == len(re.findall(r"(?m)^330 ", text))
    assert {"300", "801", "802", "250", "260"} <= {r.code for r in doc.records}
    assert doc.declared_rounds == 14 and doc.round_dates[-1] == doc.end_date == date(2024, 12, 14)
    assert doc.problems == ()


def test_fide_sample_trf26_adapted() -> None:
    doc = doc_of("fide-tec-grandmommys-cup-trf26-adapted-249p-team.trf")
    assert (len(doc.players), len(doc.teams), doc.rounds, doc.line_endings) == (249, 50, 14, "LF")
    india = doc.teams[0]
    assert (india.number, india.name, india.match_points, india.game_points) == (1, "India", 15.0, 28.0)
    (fra,) = doc.national_records
    assert (fra.federation, fra.start_no, fra.rating) == ("FRA", 14, 2700)
    assert doc.tournament_type == "FIDE-TEAM-BAKU"
    assert doc.header["362"] == ("TW 2.0   TD 1.0   TL 0.0",)
    assert {"299", "801", "802"} <= {r.code for r in doc.records}
    assert doc.problems == ()  # the DDD/AAA/BBB... legend and ruler lines are silent


def test_echecsjs_team_fixture() -> None:
    doc = doc_of("echecsjs-trf26-team-minimal-2p.trf")
    assert (len(doc.players), doc.rounds, doc.declared_rounds) == (2, 1, 5)
    kasparov = doc.players[0]
    assert (kasparov.sex, kasparov.title, kasparov.fide_id) == ("m", "GM", 4100018363)
    assert kasparov.birth_date == date(1963, 4, 13)  # one column to the right
    assert doc.players[1].title == "IM"
    (rus,) = kasparov.national
    assert (rus.federation, rus.rating) == ("RUS", 2650)
    (team,) = doc.teams
    assert (team.name, team.members) == ("Russia", (1, 2))
    assert [(b.kind, b.round, b.ids) for b in doc.bye_records] == [("H", 1, (1,))]


def test_sharly_individual_with_byes_and_nrs() -> None:
    doc = doc_of("sharly-trf26-individual-240-byes-nrs-16p.trf")
    assert (len(doc.players), doc.rounds) == (16, 5)
    assert doc.round_dates == tuple(date(2025, 9, d) for d in (13, 13, 13, 14, 14))  # from column 93
    (fra,) = doc.national_records
    assert (fra.start_no, fra.rating, fra.origin, fra.national_id) == (1, 2200, "IDF", "D50113")
    assert len(doc.bye_records) == 4 and any(len(r.ids) == 2 for r in doc.bye_records)
    kinds = {b.kind for b in iter_byes(doc)}
    assert {ByeKind.HALF_POINT, ByeKind.PAIRING_ALLOCATED, ByeKind.ZERO_POINT} <= kinds
    found = results(doc)
    assert found[ResultCode.WHITE_WINS_FORFEIT] + found[ResultCode.BLACK_WINS_FORFEIT] > 0
    assert doc.problems == ()


def test_lichess_club_swiss() -> None:
    doc = doc_of("lichess-swiss-2020-06-13p-10r.trf")
    assert (len(doc.players), doc.rounds, doc.declared_rounds) == (13, 10, 10)
    assert doc.start_date == doc.end_date == date(2020, 5, 29)
    assert doc.city == "https://lichess.org/swiss/FaLp5fSD" and doc.federation == "Lichess"
    assert doc.header["132"] == doc.header["112"] == doc.header["122"] == ("",)  # bare codes
    assert doc.round_dates == ()
    assert all(p.rank is None and p.rating is None and p.federation is None and p.fide_id is None for p in doc.players)
    assert doc.extensions["XXC"] == ("white1",)
    no_0000 = [c for p in doc.players for c in p.cells if c.opponent is None and c.colour is None and c.result]
    assert {c.result for c in no_0000} == {"H", "U", "-"}
    assert doc.problems == ()


def test_lichess_bullet() -> None:
    doc = doc_of("lichess-swiss-bullet-2020-112p-21r.trf")
    assert (len(doc.players), doc.rounds, doc.declared_rounds) == (112, 20, 21)
    assert doc.players[0].name == "sherwin--tiu"  # name from column 16
    assert bye_count(doc, ByeKind.NOT_PAIRED) == 1065
    assert all(p.rank is None for p in doc.players) and all(p.rating for p in doc.players[:4])
    assert doc.extensions["XXC"] == ("rank white1",)
    assert not {"072", "082", "132"} & set(doc.header)


def test_bbp_cr_only() -> None:
    doc = doc_of("bbp-autotest-issue15-180p-11r-cr-eol.trf")
    assert (doc.line_endings, len(doc.players), doc.rounds) == ("CR", 180, 11)
    assert set(doc.header) == {"012"}
    found = results(doc)
    # 84 "+" and 88 "-" against paired opponents: 84 single forfeits and 2 double forfeits.
    assert found[ResultCode.WHITE_WINS_FORFEIT] + found[ResultCode.BLACK_WINS_FORFEIT] == 84
    assert found[ResultCode.DOUBLE_FORFEIT] == 2


def test_bbp_dutch_zero_point_bye_in_the_round_being_paired() -> None:
    doc = doc_of("bbp-dutch2025-c5-6p-xxr-zbye.trf")
    assert (len(doc.players), doc.rounds, doc.declared_rounds) == (6, 3, 3)
    assert [(b.start_no, b.round) for b in iter_byes(doc) if b.kind is ByeKind.ZERO_POINT] == [(4, 3)]


def test_cppdubov_random() -> None:
    doc = doc_of("cppdubov-random-81p-10r-mixed-eol.trf")
    assert (doc.line_endings, len(doc.players), doc.rounds) == ("mixed", 81, 10)
    assert doc.start_date is None and doc.end_date is None
    assert all(p.fide_id is None and p.birth_year is None for p in doc.players)
    assert [r.code for r in doc.records] == ["TNR"]
    pairing_byes = [b.round for b in iter_byes(doc) if b.kind is ByeKind.PAIRING_PLUS]
    assert sorted(pairing_byes) == list(range(1, 11))  # one per round
    found = results(doc)
    assert found[ResultCode.WHITE_WINS_FORFEIT] + found[ResultCode.BLACK_WINS_FORFEIT] == 75


def test_cppdubov_without_header() -> None:
    doc = doc_of("cppdubov-issue4-7p-no-header.trf")
    assert (len(doc.players), doc.rounds, doc.declared_rounds, dict(doc.header)) == (7, 2, 5, {})
    assert bye_count(doc, ByeKind.PAIRING_ALLOCATED) == 2


def test_sharly_utf8_team_names() -> None:
    doc = doc_of("sharly-bbp-trf26-team-utf8-names-8p.trf")
    assert [(t.number, t.name, t.members) for t in doc.teams] == [
        (1, "Liffré A", (1, 2)),
        (2, "Pacé B", (3, 4)),
        (3, "Vitré", (5, 6)),
        (4, "Évran D", (7, 8)),
    ]
    assert doc.header["192"] == ("FIDE_TEAM_TYPEA_MP_GP",)
    assert len(list(iter_games(doc))) == 8


def test_sharly_whole_team_forfeit() -> None:
    doc = doc_of("sharly-bbp-trf26-team-330-forfeit-4p.trf")
    (forfeit,) = doc.team_forfeits
    assert (forfeit.kind, forfeit.round, forfeit.white_team, forfeit.black_team) == ("+-", 1, 1, 2)
    assert [(b.start_no, b.kind) for b in iter_byes(doc)] == [(1, ByeKind.PAIRING_PLUS), (2, ByeKind.ZERO_POINT)]
    assert [t.name for t in doc.teams] == ["Alpha", "Bravo", "Charlie", "Delta"]  # 310 after the 001 lines


def test_sharly_abnormal_points_record() -> None:
    doc = doc_of("sharly-bbp-trf26-individual-299-5p.trf")
    assert [r.code for r in doc.records] == ["299"]
    assert not [p for p in doc.warnings if p.field == "points"]  # player 4's 2.0 is the 299 bonus
    assert [(b.start_no, b.kind) for b in iter_byes(doc)] == [(5, ByeKind.PAIRING_ALLOCATED)]


def test_the_files_are_read_from_the_shared_folder_not_copied() -> None:
    here = Path(__file__).resolve().parent
    assert not list(here.rglob("*.trf"))
