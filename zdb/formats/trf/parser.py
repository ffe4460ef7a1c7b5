"""Reads the lines of a TRF file into a ``TrfDocument``: dispatch by record code, header, dates."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from types import MappingProxyType

from zdb.formats.trf.checks import check_document
from zdb.formats.trf.codes import FEDERATIONS, HEADER_CODES, KEPT_CODES
from zdb.formats.trf.controls import control_character, field_at
from zdb.formats.trf.cut_off import cut_off_line, cut_off_message
from zdb.formats.trf.dates import DateEntry, resolve_dates
from zdb.formats.trf.decode import decode, split_lines
from zdb.formats.trf.finished import Announcement, check_finished
from zdb.formats.trf.model import (
    TrfByeRecord,
    TrfDocument,
    TrfNationalRecord,
    TrfPlayer,
    TrfRecord,
    TrfRoundCell,
    TrfTeam,
    TrfTeamBye,
    TrfTeamForfeit,
)
from zdb.formats.trf.players import CELL_WIDTH, ROUND_START, parse_national, parse_player, start_number
from zdb.formats.trf.problems import Problems
from zdb.formats.trf.teams import parse_013, parse_240, parse_310, parse_320, parse_330
from zdb.messages import Message

__all__ = ["parse_trf"]

_CODE = re.compile(r"[0-9A-Z]{3}")
_RULER = re.compile(r"[0-9 ]+")
_INT_PREFIX = re.compile(r"\s*([0-9]{1,9})")
_POINTS_COLUMN = 81


class _Reader:
    def __init__(self, problems: Problems) -> None:
        self.problems = problems
        self.header: dict[str, list[tuple[int, str]]] = {}
        self.round_dates_line: tuple[int, str] | None = None
        self.players: list[tuple[TrfPlayer, frozenset[int]]] = []
        self.national: list[TrfNationalRecord] = []
        self.teams_013: list[TrfTeam] = []
        self.teams_310: list[TrfTeam] = []
        self.team_forfeits: list[TrfTeamForfeit] = []
        self.team_byes: list[TrfTeamBye] = []
        self.bye_records: list[TrfByeRecord] = []
        self.extensions: dict[str, list[tuple[int, str]]] = {}
        self.records: list[TrfRecord] = []
        self.cut: dict[int, int] = {}  # player lines that end before the round cells: line -> last column

    def line(self, lineno: int, raw: str) -> None:
        line = raw.rstrip().rstrip("\x1a")  # Ctrl-Z: the end-of-file mark of DOS programs
        if not line.strip() or line.startswith("###"):
            return
        code = line[:3]
        control = control_character(line)
        if control is not None:
            column, message = control
            player_line = code == "001" or (code in FEDERATIONS and start_number(line) is not None)
            self.problems.error(lineno, message, field=field_at(code, column, player_line), column=column)
        if (len(line) > 3 and line[3] != " ") or not _CODE.fullmatch(code):
            if _RULER.fullmatch(line):
                return  # a column ruler such as "0123456789..." or "         1         2"
            if code == "001":
                self.problems.error(
                    lineno, Message("player line not read: column 4 must be blank"), field="record code", column=4
                )
            else:
                self.problems.warning(
                    lineno, Message("line not understood, ignored: {text!r}", text=line[:40]), field="record code"
                )
            return
        value = line[4:].strip()
        if code == "001":
            parsed = parse_player(line, lineno, self.problems)
            if parsed is not None:
                self.players.append((parsed.player, parsed.unreadable_rounds))
                if parsed.ends_before_rounds is not None:
                    self.cut[lineno] = parsed.ends_before_rounds
        elif code in HEADER_CODES:
            if code == "132" and self.round_dates_line is None:
                self.round_dates_line = (lineno, line)
            self.header.setdefault(code, []).append((lineno, value))
        elif code == "013":
            self.teams_013.append(parse_013(line, lineno, len(self.teams_013) + 1, self.problems))
        elif code == "310":
            team = parse_310(line, lineno, self.problems)
            if team is not None:
                self.teams_310.append(team)
        elif code == "320":
            self.team_byes.extend(parse_320(line, lineno, self.problems))
        elif code == "330":
            forfeit = parse_330(line, lineno, self.problems)
            if forfeit is not None:
                self.team_forfeits.append(forfeit)
        elif code == "240":
            record = parse_240(line, lineno, self.problems)
            if record is not None:
                self.bye_records.append(record)
        elif code in KEPT_CODES:
            self.records.append(TrfRecord(lineno, code, line))
        elif code.startswith("XX") or code == "DAT":
            self.extensions.setdefault(code, []).append((lineno, value))
        elif code.isalpha() and len(set(code)) == 1:
            return  # a column legend such as "DDD SSSS sTTT NNNN..." or "BBB T RRR PPP1"
        elif code in FEDERATIONS and start_number(line) is not None:
            national = parse_national(line, lineno, self.problems)
            if national is not None:
                self.national.append(national)
        else:
            if code in FEDERATIONS:
                message = Message(
                    "national rating line {code} without a start number in columns 5-8; kept, not used", code=code
                )
            else:
                message = Message("unknown record code {code!r}; line kept, not used", code=code)
            self.problems.warning(lineno, message, field="record code")
            self.records.append(TrfRecord(lineno, code, line))

    # -- header ---------------------------------------------------------------------------------

    def first(self, code: str) -> tuple[int, str] | None:
        values = self.header.get(code)
        return values[0] if values else None

    def repeats(self) -> None:
        """A header record given twice (only 112, one line per deputy arbiter, may repeat): with a
        different value the file contradicts itself, an error on the later line naming the first
        (which value holds is the referee's to say); with the same value a warning. The same for
        the JaVaFo round count XXR."""
        for code, values in [*self.header.items(), ("XXR", self.extensions.get("XXR", []))]:
            if code == "112" or len(values) < 2:
                continue
            first_line, first_value = values[0]
            for lineno, value in values[1:]:
                if " ".join(value.split()) != " ".join(first_value.split()):
                    self.problems.error(
                        lineno,
                        Message(
                            "record {code} is given twice: {value!r} here, {first!r} on line {line}; "
                            "keep the right one",
                            code=code,
                            value=value,
                            first=first_value,
                            line=first_line,
                        ),
                        field=code,
                    )
                else:
                    self.problems.warning(
                        lineno,
                        Message(
                            "record {code} repeats line {line}; the repetition is ignored", code=code, line=first_line
                        ),
                        field=code,
                    )

    def text(self, code: str) -> str | None:
        entry = self.first(code)
        return (entry[1] or None) if entry else None

    def integer(self, code: str, values: dict[str, list[tuple[int, str]]] | None = None) -> int | None:
        entries = (values or self.header).get(code)
        if not entries or not entries[0][1]:
            return None
        lineno, text = entries[0]
        match = _INT_PREFIX.match(text)
        if match is None:
            self.problems.warning(lineno, Message("{text!r} is not a number; ignored", text=text), field=code)
            return None
        if match.group(1) != text.strip():
            self.problems.warning(
                lineno,
                Message("{text!r} is not a plain number; {number} used", text=text, number=match.group(1)),
                field=code,
            )
        return int(match.group(1))

    def dates(self) -> tuple[date | None, date | None, tuple[date | None, ...]]:
        entries: list[DateEntry] = []
        for code, role in (("042", "start"), ("052", "end")):
            for k, (lineno, text) in enumerate(self.header.get(code, [])):
                # a repeated date is read too, so that an impossible one is reported on its line
                entries.append(DateEntry(text, lineno, code, role if k == 0 else "repeat"))
        entries.extend(self._round_date_entries())
        values = resolve_dates(entries, self.problems)
        start = next((v for e, v in zip(entries, values, strict=True) if e.role == "start"), None)
        end = next((v for e, v in zip(entries, values, strict=True) if e.role == "end"), None)
        count = max((e.round_no for e in entries if e.role == "round"), default=0)
        rounds: list[date | None] = [None] * count
        for entry, value in zip(entries, values, strict=True):
            if entry.role == "round":
                rounds[entry.round_no - 1] = value
        return start, end, tuple(rounds)

    def _round_date_entries(self) -> list[DateEntry]:
        """132: one date per round at columns 92-99, 102-109, ...; a date starting within three
        columns of its round's column is taken for that round (files start at 92 or 93)."""
        if self.round_dates_line is None:
            return []
        lineno, line = self.round_dates_line
        line = line.replace("\t", " ")
        tokens = [(m.start() + 4, m.group()) for m in re.finditer(r"\S+", line[3:])]
        aligned = all(_round_of(column) is not None for column, _ in tokens)
        entries: list[DateEntry] = []
        if not aligned:
            self.problems.warning(
                lineno,
                Message("round dates are not at columns 92, 102, ...; taken in order as rounds 1, 2, ..."),
                field="132",
            )
        seen: set[int] = set()
        for k, (column, text) in enumerate(tokens):
            round_no = (_round_of(column) or 0) if aligned else k + 1
            if round_no in seen:
                self.problems.warning(
                    lineno,
                    Message("a second date {text!r} for round {round}; ignored", text=text, round=round_no),
                    field="132",
                )
                continue
            seen.add(round_no)
            entries.append(DateEntry(text, lineno, f"132 round {round_no}", "round", round_no, column))
        return entries

    # -- assembly -------------------------------------------------------------------------------

    def document(self, encoding: str | None, line_endings: str) -> TrfDocument:
        self.repeats()
        start, end, round_dates = self.dates()
        end_source: str | None = "052" if end else None
        if end is None:
            end = next((d for d in reversed(round_dates) if d is not None), None)
            end_source = "132" if end else None
        if end is None:
            self.problems.warning(
                None, Message("no end date: 052 is missing or unreadable and 132 gives none"), field="052"
            )

        players, unreadable = self._players()
        if not players:
            self.problems.error(None, Message("the file has no readable player lines (001)"), field="001")
        rounds = max((_last_used(p.cells) for p in players), default=0)
        self._cut_off(players, rounds)
        players = [_pad_cells(p, rounds) for p in players]
        by_no = {p.start_no: p for p in players}
        for record in self.national:
            if record.start_no not in by_no:
                self.problems.warning(
                    record.line,
                    Message(
                        "national rating line for start number {number}, but there is no such player",
                        number=record.start_no,
                    ),
                    field="national rating",
                )
        national: dict[int, list[TrfNationalRecord]] = {}
        for record in self.national:
            national.setdefault(record.start_no, []).append(record)
        players = [replace(p, national=tuple(national.get(p.start_no, ()))) for p in players]
        declared = self.integer("142")
        xxr = self.integer("XXR", self.extensions)
        if declared is not None and xxr is not None and declared != xxr:
            self.problems.warning(
                self.extensions["XXR"][0][0],
                Message("XXR says {xxr} rounds but 142 says {declared}", xxr=xxr, declared=declared),
                field="XXR",
            )
        doc = TrfDocument(
            encoding=encoding,
            line_endings=line_endings,
            header=MappingProxyType({c: tuple(v for _, v in vs) for c, vs in self.header.items()}),
            name=self.text("012"),
            city=self.text("022"),
            federation=self.text("032"),
            start_date=start,
            end_date=end,
            end_date_source=end_source,
            round_dates=round_dates,
            declared_rounds=declared if declared is not None else xxr,
            rounds=rounds,
            chief_arbiter=self.text("102"),
            deputy_arbiters=tuple(v for _, v in self.header.get("112", []) if v),
            time_control=self.text("122"),
            time_control_code=self.text("222"),
            tournament_type=self.text("092"),
            players=tuple(players),
            national_records=tuple(self.national),
            teams=tuple(self.teams_310 or self.teams_013),
            team_forfeits=tuple(self.team_forfeits),
            team_byes=tuple(self.team_byes),
            bye_records=tuple(self.bye_records),
            extensions=MappingProxyType({c: tuple(v for _, v in vs) for c, vs in self.extensions.items()}),
            records=tuple(self.records),
        )
        counts: dict[str, tuple[int, int | None]] = {
            code: (self.header[code][0][0], self.integer(code)) for code in ("062", "082") if code in self.header
        }
        unfinished = check_finished(doc, self._announcements(declared, xxr, len(round_dates)), self.problems)
        check_document(doc, self.teams_013, unreadable, counts, self.problems, unfinished=unfinished)
        return doc

    def _cut_off(self, players: list[TrfPlayer], rounds: int) -> None:
        """Player lines cut off before their round cells, in a tournament with rounds: those that
        end before the points (column 81) and those whose points claim games they do not show.
        A line with its points (0) and no cells is a player who played no round (writers trim
        the blank cells); anything shorter was cut, and its games would be read as none."""
        for player in players:
            ends = self.cut.get(player.line)
            if ends is None or not rounds or (ends >= _POINTS_COLUMN and not player.points):
                continue
            self.problems.error(
                player.line,
                Message(
                    "the player line ends at column {column}, before the round results (from column {start}): "
                    "it is cut off",
                    column=ends,
                    start=ROUND_START,
                ),
                field="rounds",
                column=ends + 1,
            )

    def _announcements(self, declared: int | None, xxr: int | None, dated: int) -> list[Announcement]:
        """The records that say how many rounds there are, with their lines (see ``finished.py``)."""
        found = []
        if declared is not None:
            found.append(Announcement("142", declared, self.header["142"][0][0]))
        if xxr is not None:
            found.append(Announcement("XXR", xxr, self.extensions["XXR"][0][0]))
        if dated and self.round_dates_line is not None:
            found.append(Announcement("132", dated, self.round_dates_line[0]))
        return found

    def _players(self) -> tuple[list[TrfPlayer], set[tuple[int, int]]]:
        seen: dict[int, TrfPlayer] = {}
        unreadable: set[tuple[int, int]] = set()
        for player, bad_rounds in self.players:
            first = seen.get(player.start_no)
            if first is not None:
                self.problems.error(
                    player.line,
                    Message(
                        "start number {number} is used twice (first on line {first}); this line is ignored",
                        number=player.start_no,
                        first=first.line,
                    ),
                    field="start number",
                )
                continue
            seen[player.start_no] = player
            unreadable.update((player.start_no, r) for r in bad_rounds)
        return sorted(seen.values(), key=lambda p: p.start_no), unreadable


def _last_used(cells: tuple[TrfRoundCell, ...]) -> int:
    return max((c.round for c in cells if not c.blank), default=0)


def _round_of(column: int) -> int | None:
    """The round whose 132 date column is within three columns of ``column``."""
    offset = column - ROUND_START
    k = round(offset / CELL_WIDTH)
    if k < 0 or abs(offset - CELL_WIDTH * k) > 3:
        return None
    return k + 1


def _pad_cells(player: TrfPlayer, rounds: int) -> TrfPlayer:
    cells = list(player.cells[:rounds])
    step = cells[0].column - ROUND_START if cells else 0
    while len(cells) < rounds:
        k = len(cells)
        cells.append(TrfRoundCell(k + 1, None, None, None, ROUND_START + step + CELL_WIDTH * k, ""))
    return replace(player, cells=tuple(cells))


def parse_trf(data: bytes | str) -> TrfDocument:
    """Read a TRF file (bytes in any of the accepted encodings, or text). Never raises for bad
    input: everything that is wrong or odd is in ``TrfDocument.problems``."""
    problems = Problems()
    text, encoding = decode(data, problems)
    lines, line_endings = split_lines(text)
    cut = cut_off_line(text, lines)
    if cut is not None:
        # Nothing of a cut file is read: what else could be said of it follows from the cut.
        only = Problems()
        only.error(cut, cut_off_message(lines[cut - 1]))
        return TrfDocument(encoding=encoding, line_endings=line_endings, problems=only.result())
    reader = _Reader(problems)
    for lineno, raw in enumerate(lines, start=1):
        reader.line(lineno, raw)
    doc = reader.document(encoding, line_endings)
    return replace(doc, problems=problems.result())
