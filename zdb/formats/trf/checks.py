"""Consistency checks over a whole document: pairings from both sides, points, counts, teams.

Severity: what makes the games unreliable (a pairing named differently by the two players, a
player twice in a round, an unknown opponent, a team listing an unknown player) is an error;
what is odd but leaves the games clear (points column, declared counts, asymmetric results) is a
warning. Whether the tournament is finished is ``finished.py``'s to say.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping

from zdb.formats.trf.codes import FEDERATIONS
from zdb.formats.trf.games import ASYMMETRIC, RESULT_PAIRS, bye_kind, white_and_black
from zdb.formats.trf.model import ByeKind, TrfDocument, TrfPlayer, TrfRoundCell, TrfTeam
from zdb.formats.trf.players import is_int
from zdb.formats.trf.problems import Problems
from zdb.messages import Message

__all__ = ["check_document", "scoring"]

_BYE_CODES = frozenset("HFUZ")
_GAME_CODES = frozenset("10=WDL")
_DECIMAL = re.compile(r"-?[0-9]{0,4}[.,][0-9]{1,4}")
_SCORE = re.compile(r"([WDLAPX])\s*(-?[0-9]+(?:[.,][0-9]*)?)")
_SCORE_OF_BYE = {
    ByeKind.HALF_POINT: "D",
    ByeKind.FULL_POINT: "W",
    ByeKind.PAIRING_ALLOCATED: "P",
    ByeKind.PAIRING_PLUS: "P",
    ByeKind.ZERO_POINT: "A",
    ByeKind.NOT_PAIRED: "A",
    ByeKind.ABSENT: "A",
}
_SCORE_OF_RESULT = {"1": "W", "+": "W", "W": "W", "=": "D", "D": "D", "0": "L", "L": "L", "-": "A"}
_BYE_RECORD_KINDS = {
    "H": {ByeKind.HALF_POINT},
    "F": {ByeKind.FULL_POINT},
    "Z": {ByeKind.ZERO_POINT, ByeKind.ABSENT},
}


def scoring(text: str | None) -> dict[str, float]:
    """Points per TRF26 162 symbol (W win or FPB, D draw or HPB, L loss, A absence, P PAB, X unknown)."""
    points = {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0}
    given = {m[1]: float(m[2].replace(",", ".")) for m in _SCORE.finditer(text or "")}
    points.update(given)
    points.setdefault("P", points["W"])
    points.setdefault("X", points["D"])
    return points


def _cell_points(cell: TrfRoundCell, points: dict[str, float]) -> float:
    if cell.opponent is not None:
        return points[_SCORE_OF_RESULT[cell.result]] if cell.result in _SCORE_OF_RESULT else 0.0
    kind = bye_kind(cell)
    return points[_SCORE_OF_BYE[kind]] if kind is not None else 0.0


def check_document(
    doc: TrfDocument,
    teams_013: list[TrfTeam],
    unreadable: set[tuple[int, int]],
    counts: Mapping[str, tuple[int, int | None]],
    problems: Problems,
    *,
    unfinished: frozenset[int] = frozenset(),
) -> None:
    """``unfinished``: rounds already reported as not finished (``finished.py``), whose pairings
    without a result get no warning of their own."""
    by_no = {p.start_no: p for p in doc.players}
    for round_no in range(1, doc.rounds + 1):
        _check_round(doc.players, by_no, round_no, unreadable, problems, quiet=round_no in unfinished)
    _check_points(doc, problems)
    _check_federations(doc, problems)
    _check_counts(doc, counts, problems)
    _check_round_dates(doc, problems)
    _check_bye_records(doc, by_no, problems)
    _check_teams(doc, by_no, teams_013, problems)


def _check_round(
    players: tuple[TrfPlayer, ...],
    by_no: dict[int, TrfPlayer],
    round_no: int,
    unreadable: set[tuple[int, int]],
    problems: Problems,
    *,
    quiet: bool = False,
) -> None:
    where = f"round {round_no}"
    highest = max(by_no, default=0)
    claims: dict[int, list[TrfPlayer]] = defaultdict(list)
    for player in players:
        cell = player.cell(round_no)
        if cell is None or not cell.readable:
            continue
        if cell.opponent is None:
            _check_bye_cell(player, cell, problems)
            continue
        opponent = cell.opponent
        if opponent == player.start_no:
            problems.error(
                player.line, Message("player {opponent} is paired with himself", opponent=opponent), field=where
            )
            continue
        if opponent not in by_no:
            if opponent > highest:
                absent = Message(
                    "opponent {opponent} does not exist (only {count} players)", opponent=opponent, count=len(by_no)
                )
            else:
                absent = Message(
                    "opponent {opponent} does not exist (no player has that start number)", opponent=opponent
                )
            problems.error(player.line, absent, field=where)
            continue
        if cell.result in _BYE_CODES:
            problems.error(
                player.line,
                Message(
                    "result {result!r} is a bye code, but the cell names opponent {opponent}",
                    result=cell.result,
                    opponent=opponent,
                ),
                field=where,
            )
        claims[opponent].append(player)
    twice = {no for no, claimers in claims.items() if len(claimers) > 1}
    for no in sorted(twice):
        claimers = claims[no]
        names = Message("{number} (line {line})", number=claimers[0].start_no, line=claimers[0].line)
        for p in claimers[1:]:
            later = Message("{number} (line {line})", number=p.start_no, line=p.line)
            names = Message("{earlier} and {later}", earlier=names, later=later)
        problems.error(
            claimers[1].line,
            Message("player {no} is paired twice in this round, by {names}", no=no, names=names),
            field=where,
        )
    for opponent_no, claimers in claims.items():
        for player in claimers:
            if opponent_no in twice or {(player.start_no, round_no), (opponent_no, round_no)} & unreadable:
                continue
            _check_pair(player, by_no[opponent_no], round_no, problems, quiet=quiet)


def _check_bye_cell(player: TrfPlayer, cell: TrfRoundCell, problems: Problems) -> None:
    where = f"round {cell.round}"
    kind = bye_kind(cell)
    if cell.result in _GAME_CODES and kind is not None:
        problems.warning(
            player.line,
            Message(
                "result {result!r} without an opponent; read as {kind} bye",
                result=cell.result,
                kind=kind.name.lower().replace("_", "-"),
            ),
            field=where,
        )
    if cell.colour in ("w", "b"):
        problems.warning(
            player.line, Message("colour {colour!r} without an opponent; ignored", colour=cell.colour), field=where
        )


def _check_pair(player: TrfPlayer, opponent: TrfPlayer, round_no: int, problems: Problems, *, quiet: bool) -> None:
    where = f"round {round_no}"
    cell = player.cell(round_no)
    other = opponent.cell(round_no)
    if cell is None or other is None:
        return
    a, b = player.start_no, opponent.start_no
    if other.opponent != a:
        if other.opponent is not None:
            what = Message(
                "player {a} has opponent {b}, but player {b}'s cell names {other}", a=a, b=b, other=other.opponent
            )
        elif other.blank:
            what = Message("player {a} has opponent {b}, but player {b}'s cell is blank", a=a, b=b)
        else:
            what = Message(
                "player {a} has opponent {b}, but player {b}'s cell has no opponent ({text!r})",
                a=a,
                b=b,
                text=other.text.strip(),
            )
        problems.error(player.line, what, field=where)
        return
    if a > b:
        return  # the pair is checked once, from the lower start number
    colours = white_and_black(player, cell, other)
    if colours is None:
        colour = Message("white") if cell.colour == "w" else Message("black")
        problems.error(
            player.line,
            Message("players {a} and {b} both have {colour} against each other", a=a, b=b, colour=colour),
            field=where,
        )
    elif not colours[1]:
        problems.warning(
            player.line,
            Message("no colour for the game {a}-{b}; the lower start number is taken as white", a=a, b=b),
            field=where,
        )
    elif cell.colour not in ("w", "b") or other.colour not in ("w", "b"):
        missing = a if cell.colour not in ("w", "b") else b
        problems.warning(
            player.line,
            Message("player {missing} gives no colour for the game {a}-{b}", missing=missing, a=a, b=b),
            field=where,
        )
    mine, theirs = cell.result, other.result
    if mine in _BYE_CODES or theirs in _BYE_CODES:
        return  # already reported
    if mine is None and theirs is None:
        if not quiet:  # else the round is reported as not finished
            problems.warning(player.line, Message("the game {a}-{b} has no result", a=a, b=b), field=where)
    elif mine is None or theirs is None:
        given, blank = (b, a) if mine is None else (a, b)
        problems.error(
            player.line,
            Message("player {given} has a result against {blank}, but {blank} has none", given=given, blank=blank),
            field=where,
        )
    elif (mine, theirs) not in RESULT_PAIRS:
        problems.error(
            player.line,
            Message(
                "results do not match: {a} has {mine!r} against {b}, but {b} has {theirs!r} against {a}",
                a=a,
                b=b,
                mine=mine,
                theirs=theirs,
            ),
            field=where,
        )
    elif (mine, theirs) in ASYMMETRIC:
        problems.warning(
            player.line,
            Message(
                "asymmetric result {mine!r}/{theirs!r} between {a} and {b}; not rated",
                mine=mine,
                theirs=theirs,
                a=a,
                b=b,
            ),
            field=where,
        )


def _abnormal_points(doc: TrfDocument) -> tuple[dict[int, float], set[int]]:
    """TRF26 ``299`` records of an individual event: bonus points (blank type) per player, and the
    players whose points another abnormal assignment changes (their points are not checked).

    The two known writers disagree on the columns (FIDE sample ``299 +  2.0  2.5   1    1``, bbp
    ``299           2.0    1    4``), so the record is read by tokens: decimal numbers are points
    (one for individuals, match and game points for teams), then the round (0: all), then ids.
    """
    bonus: dict[int, float] = defaultdict(float)
    changed: set[int] = set()
    if doc.teams:
        return bonus, changed
    for record in doc.records:
        if record.code != "299":
            continue
        kind = record.text[4:5].strip()
        tokens = record.text[5:].split()
        values = [t for t in tokens if _DECIMAL.fullmatch(t)]
        ids = [int(t) for t in tokens[len(values) + 1 :] if is_int(t)]
        if not values:
            continue
        for no in ids:
            if kind:
                changed.add(no)
            else:
                bonus[no] += float(values[-1].replace(",", "."))
    return bonus, changed


def _check_points(doc: TrfDocument, problems: Problems) -> None:
    points = scoring(doc.header.get("162", ("",))[0])
    bonus, changed = _abnormal_points(doc)
    for player in doc.players:
        if player.points is None or player.start_no in changed or not all(c.readable for c in player.cells):
            continue
        total = sum(_cell_points(c, points) for c in player.cells) + bonus.get(player.start_no, 0.0)
        if abs(total - player.points) > 1e-6:
            if any(c.opponent is None and c.result is None and not c.blank for c in player.cells):
                message = Message(
                    "the points column says {points:g} but the results add up to {total:g} "
                    "(cells with colour '-' and no result code count as zero-point byes)",
                    points=player.points,
                    total=total,
                )
            else:
                message = Message(
                    "the points column says {points:g} but the results add up to {total:g}",
                    points=player.points,
                    total=total,
                )
            problems.warning(player.line, message, field="points")


def _check_federations(doc: TrfDocument, problems: Problems) -> None:
    """One warning for the whole file when the federation column holds other codes (club codes)."""
    odd = [p for p in doc.players if p.federation and p.federation not in FEDERATIONS]
    if odd:
        values = sorted({p.federation or "" for p in odd})
        shown = ", ".join(values[:6]) + (", ..." if len(values) > 6 else "")
        problems.warning(
            odd[0].line,
            Message(
                "the federation column of {count} players holds codes that are not FIDE federations "
                "({shown}); kept as written",
                count=len(odd),
                shown=shown,
            ),
            field="federation",
        )


def _check_counts(doc: TrfDocument, counts: Mapping[str, tuple[int, int | None]], problems: Problems) -> None:
    if "062" in counts:
        line, value = counts["062"]
        if value is not None and value != len(doc.players):
            problems.warning(
                line,
                Message("062 says {value} players but there are {count}", value=value, count=len(doc.players)),
                field="062",
            )
    if "082" in counts:
        line, value = counts["082"]
        if value is not None and value != len(doc.teams) and (value or doc.teams):
            problems.warning(
                line,
                Message("082 says {value} teams but there are {count}", value=value, count=len(doc.teams)),
                field="082",
            )
    # More rounds declared than played is an error of finished.py: the tournament is not finished.
    if doc.declared_rounds is not None and doc.declared_rounds < doc.rounds:
        source = "142" if "142" in doc.header else "XXR"
        problems.warning(
            None,
            Message(
                "{source} declares {declared} rounds but the player lines hold {rounds}",
                source=source,
                declared=doc.declared_rounds,
                rounds=doc.rounds,
            ),
            field=source,
        )
    if doc.round_dates and len(doc.round_dates) < doc.rounds:
        problems.warning(
            None,
            Message(
                "132 gives dates for {count} rounds, the player lines hold {rounds}",
                count=len(doc.round_dates),
                rounds=doc.rounds,
            ),
            field="132",
        )


def _check_round_dates(doc: TrfDocument, problems: Problems) -> None:
    if doc.start_date and doc.end_date and doc.end_date_source == "052" and doc.start_date > doc.end_date:
        problems.warning(
            None,
            Message("the start date {start} is after the end date {end}", start=doc.start_date, end=doc.end_date),
            field="042",
        )
    previous = None
    for round_no, value in enumerate(doc.round_dates, start=1):
        if value is None:
            continue
        where = f"132 round {round_no}"
        if doc.start_date and value < doc.start_date:
            problems.warning(
                None,
                Message("round date {value} is before the start date {start}", value=value, start=doc.start_date),
                field=where,
            )
        if doc.end_date and doc.end_date_source == "052" and value > doc.end_date:
            problems.warning(
                None,
                Message("round date {value} is after the end date {end}", value=value, end=doc.end_date),
                field=where,
            )
        if previous and value < previous:
            problems.warning(
                None,
                Message("round date {value} is before the previous round's {previous}", value=value, previous=previous),
                field=where,
            )
        previous = value


def _check_bye_records(doc: TrfDocument, by_no: dict[int, TrfPlayer], problems: Problems) -> None:
    team_numbers = {t.number for t in doc.teams}
    for record in doc.bye_records:
        for no in record.ids:
            if doc.teams:
                if no not in team_numbers:
                    problems.warning(
                        record.line, Message("bye for team {no}, but there is no such team", no=no), field="240"
                    )
                continue
            player = by_no.get(no)
            if player is None:
                problems.warning(
                    record.line, Message("bye for player {no}, but there is no such player", no=no), field="240"
                )
                continue
            cell = player.cell(record.round)
            if cell is None or not cell.readable:
                continue  # a bye announced for a round not yet in the player lines
            if bye_kind(cell) not in _BYE_RECORD_KINDS[record.kind]:
                problems.warning(
                    record.line,
                    Message(
                        "{kind} bye for player {no} in round {round}, but the player line has {cell!r}",
                        kind=record.kind,
                        no=no,
                        round=record.round,
                        cell=cell.text.strip() or Message("a blank cell"),
                    ),
                    field="240",
                )


def _check_teams(doc: TrfDocument, by_no: dict[int, TrfPlayer], teams_013: list[TrfTeam], problems: Problems) -> None:
    numbers: dict[int, TrfTeam] = {}
    member_of: dict[int, TrfTeam] = {}
    for team in doc.teams:
        if team.number in numbers:
            problems.error(
                team.line,
                Message(
                    "team number {number} is used twice (first on line {first})",
                    number=team.number,
                    first=numbers[team.number].line,
                ),
            )
        numbers.setdefault(team.number, team)
        for member in team.members:
            if member not in by_no:
                problems.error(
                    team.line,
                    Message(
                        "team {team!r} lists start number {member}, but there is no such player",
                        team=team.name,
                        member=member,
                    ),
                    field=team.source,
                )
            elif member in member_of and member_of[member] is not team:
                problems.error(
                    team.line,
                    Message(
                        "player {member} is in team {team!r} and in team {other!r}",
                        member=member,
                        team=team.name,
                        other=member_of[member].name,
                    ),
                    field=team.source,
                )
            member_of.setdefault(member, team)
    if teams_013 and doc.teams and doc.teams[0].source == "310":
        _compare_013(doc.teams, teams_013, problems)
    for forfeit in doc.team_forfeits:
        for no in (forfeit.white_team, forfeit.black_team):
            if no not in numbers:
                problems.error(forfeit.line, Message("team {no} does not exist", no=no), field="330")
    for bye in doc.team_byes:
        if bye.team not in numbers:
            problems.warning(
                bye.line,
                Message("round {round}: team {team} does not exist", round=bye.round, team=bye.team),
                field="320",
            )


def _compare_013(teams_310: tuple[TrfTeam, ...], teams_013: list[TrfTeam], problems: Problems) -> None:
    """Files with both records: 013 lines are in team-number order and must list the same players."""
    if len(teams_013) != len(teams_310):
        problems.warning(
            teams_013[0].line,
            Message(
                "{count_013} 013 teams but {count_310} 310 teams; 310 is used",
                count_013=len(teams_013),
                count_310=len(teams_310),
            ),
            field="013",
        )
        return
    by_number = {t.number: t for t in teams_310}
    for team in teams_013:
        other = by_number.get(team.number)
        if other is None or other.name != team.name or other.members != team.members:
            problems.warning(
                team.line,
                Message(
                    "013 team {number} {name!r} differs from its 310 line; 310 is used",
                    number=team.number,
                    name=team.name,
                ),
                field="013",
            )
