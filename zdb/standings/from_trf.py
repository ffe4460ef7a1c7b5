"""An individual tournament read from a FIDE Tournament Report File, as the standings' input.

Why: referees submit finished tournaments as TRF, and ``zdb standings FILE.trf`` publishes their
crosstable. ``zdb.formats.trf`` reads the file (bytes in, values and problems out); this module is
the one typed conversion from its ``TrfDocument`` to an ``IndividualRequest``. It reads no file and
refuses, with ``InvalidInputError``, whatever the standings could not compute honestly.

Players: the id is the start number as text (``"7"``), since start numbers are what the file uses
to name opponents and they are unique where names need not be; the starting order is the order of
start numbers. Names stay in the document (``TrfDocument.player(n).name``) for the caller to show.

Byes, the reader's ``ByeKind`` (TRF26 result codes) to the standings' ``ByeKind``, following the
categories of unplayed rounds of FIDE C.07 (effective 1 March 2026) art. 16.1 and 16.2:

=====================  =====================  =================  =============================================
TRF cell               reader                 standings          why
=====================  =====================  =================  =============================================
``H``                  ``HALF_POINT``         ``HALF_POINT``     art. 16.1.1: a requested half-point bye
``F``                  ``FULL_POINT``         ``FULL_POINT``     art. 16.2.1: a full-point bye
``U``                  ``PAIRING_ALLOCATED``  ``PAIRING_ALLOC.`` art. 16.2.1: the pairing-allocated bye
``0000 - +``           ``PAIRING_PLUS``       ``PAIRING_ALLOC.`` art. 16.2.1: older tools' pairing bye (only
                                                                 team files use it otherwise: ``from_trf_team``)
``Z``, ``-`` + blank   ``ZERO_POINT``         ``ZERO_POINT``     art. 16.1.1: a requested zero-point bye
``0000 - -``, ``  -``  ``NOT_PAIRED``         ``ZERO_POINT``     art. 16.1.1: not paired, withdrawn; no
                                                                 scheduled opponent, so not a forfeit loss
                                                                 (art. 16.4.1 caps a forfeit by that opponent)
blank cell             ``ABSENT``             ``ZERO_POINT``     art. 16.1.1: every round after a withdrawal
=====================  =====================  =================  =============================================

The zero-point bye is a voluntarily unplayed round (art. 16.1.2): it is cut first (art. 16.5) and,
when only such rounds follow, counts as a draw in the opponents' tie-breaks (art. 16.2.5, 16.3.2).
Games come from ``iter_games`` with the engine's result codes: ``+``/``-`` (and the TRF ``W``/``L``
of a game shorter than one move) are forfeits, art. 16.2.2 and 16.2.4.

Pairing system: round robin (pre-determined pairings, art. 15.2) when the TRF26 ``192`` code is one
of FIDE's round-robin, Scheveningen or Schiller codes, or, without a ``192`` line, when the free text
of ``092`` says round robin (also "all-play-all", "Rundenturnier", Scheveningen, Schiller); Swiss
(art. 15.3, 16) when they name a Swiss system ("Swiss", "Schweizer", FIDE's Dutch, Dubov and Burstein
codes). When neither names one (no ``092``, or "Team League"), the pairings decide
(``detect``): every pair met once, or twice, is a round robin; anything else Swiss, as most
submitted files are. JaVaFo's ``XX`` records name no system.

Rounds: trailing rounds without a single game result are the round being paired (the JaVaFo and
bbpPairings convention: such a column lists only the announced byes and absences) and are left out,
so the standings are those after the last round played; byes announced for it do not count yet.

Refused: a document with errors (all of them in one ``TrfInputError``, the first one named; the
reader's "not finished" errors excepted, since standings after the last round played are what an
unfinished file is read for, and a half-played round is refused below all the same), a team
tournament (``013``/``310`` teams, ``320``/``330`` records or a team ``192`` code: its standings are a
team season, ``from_trf_team.standings_document_from_trf`` reads either kind), scoring other
than 1, 1/2, 0 in ``162`` or JaVaFo's ``XXS``, abnormal points (``299``), and a game without a result in a round that
is kept.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from zdb.formats.trf import ByeKind as TrfByeKind
from zdb.formats.trf import TrfDocument, TrfProblem, iter_byes, iter_games
from zdb.formats.trf.checks import scoring
from zdb.formats.trf.finished import is_unfinished
from zdb.rating import InvalidInputError
from zdb.standings.detect import detected_pairing_system
from zdb.standings.documents import IndividualRequest
from zdb.standings.model import Bye, ByeKind, IndividualTournament, Pairing, PairingSystem, Round

__all__ = ["BYE_KINDS", "TrfInputError", "refuse_other_scoring", "standings_input_from_trf"]

#: The bye mapping of the module docstring (FIDE C.07 art. 16.1, 16.2).
BYE_KINDS: dict[TrfByeKind, ByeKind] = {
    TrfByeKind.HALF_POINT: ByeKind.HALF_POINT,
    TrfByeKind.FULL_POINT: ByeKind.FULL_POINT,
    TrfByeKind.PAIRING_ALLOCATED: ByeKind.PAIRING_ALLOCATED,
    TrfByeKind.PAIRING_PLUS: ByeKind.PAIRING_ALLOCATED,
    TrfByeKind.ZERO_POINT: ByeKind.ZERO_POINT,
    TrfByeKind.NOT_PAIRED: ByeKind.ZERO_POINT,
    TrfByeKind.ABSENT: ByeKind.ZERO_POINT,
}

#: TRF26 ``162`` symbols and the points the standings count for them (C.07 art. 16.2.1: a
#: pairing-allocated bye scores a win's points); the reader's ``scoring`` fills in the defaults.
_STANDARD_SCORING = {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0, "P": 1.0}
#: The same for JaVaFo's ``XXS`` codes (JaVaFo Advanced User Manual, "XXS"): wins, forfeit wins,
#: full-point and pairing-allocated byes 1; draws and half-point byes 1/2; the rest 0.
_STANDARD_XXS = {
    **dict.fromkeys(("W", "WW", "BW", "FW", "FPB", "PAB"), 1.0),
    **dict.fromkeys(("D", "WD", "BD", "HPB"), 0.5),
    **dict.fromkeys(("L", "WL", "BL", "FL", "ZPB"), 0.0),
}

#: Words of FIDE's TRF26 ``192`` table (``BERGER_ROUNDROBIN_Gn``, ``FIDE_ROUNDROBIN``,
#: ``FIDE_SCHEVENINGEN_Gn``, ``FIDE_SCHILLER_TxP``, ``CUSTOM_...``) and of ``092`` free texts that
#: name pre-determined pairings; compared after dropping case, blanks and punctuation.
_PREDETERMINED = ("roundrobin", "scheveningen", "schiller", "allplayall", "rundenturnier")
#: ... and the words that name a Swiss system (FIDE C.04: Dutch, Dubov, Burstein).
_SWISS = ("swiss", "schweizer", "dutch", "dubov", "burstein")

_MAX_LINES_NAMED = 10


class TrfInputError(InvalidInputError):
    """A TRF document with errors: the first one is the place, the others are counted and located."""

    def __init__(self, errors: tuple[TrfProblem, ...]) -> None:
        first, others = errors[0], errors[1:]
        problem = first.message
        if others:
            lines = sorted({p.line for p in others if p.line is not None})
            shown = ", ".join(str(line) for line in lines[:_MAX_LINES_NAMED])
            if len(lines) > _MAX_LINES_NAMED:
                shown += ", ..."
            where = f" on line{'s' if len(lines) > 1 else ''} {shown}" if lines else ""
            problem += f" (and {len(others)} more error{'s' if len(others) > 1 else ''}{where})"
        super().__init__(_place(first), problem)
        self.errors = errors


def standings_input_from_trf(doc: TrfDocument) -> IndividualRequest:
    """The standings' input of a parsed individual tournament; ``InvalidInputError`` when refused.

    Every player's points are his games' and byes' points (art. 16.2.1: byes with the points
    awarded), so for a finished individual tournament they equal the points column of his ``001``
    line wherever the reader found that column consistent.
    """
    errors = tuple(p for p in doc.errors if not is_unfinished(p))
    if errors:
        raise TrfInputError(errors)
    _refuse_team_event(doc)
    refuse_other_scoring(doc)
    games = tuple(iter_games(doc))
    played = max((game.round for game in games), default=0)
    pairings: dict[int, list[Pairing]] = defaultdict(list)
    in_game: set[tuple[int, int]] = set()
    for game in games:
        pairings[game.round].append(Pairing(str(game.white), str(game.black), game.result))
        in_game.update(((game.round, game.white), (game.round, game.black)))
    _refuse_games_without_result(doc, played, in_game)
    byes: dict[int, list[Bye]] = defaultdict(list)
    for bye in iter_byes(doc):
        if bye.round <= played:
            byes[bye.round].append(Bye(str(bye.start_no), BYE_KINDS[bye.kind]))
    players = tuple(str(player.start_no) for player in sorted(doc.players, key=lambda p: p.start_no))
    named = _pairing_system(doc)
    tournament = IndividualTournament(
        players=players,
        rounds=tuple(
            Round(tuple(pairings.get(number, ())), tuple(byes.get(number, ()))) for number in range(1, played + 1)
        ),
        pairing_system=named or detected_pairing_system(players, (p for ps in pairings.values() for p in ps)),
    )
    return IndividualRequest(tournament)


def _place(problem: TrfProblem) -> str:
    """Where a reader's problem is, as ``TrfProblem`` writes it: "line 12, column 4, round 3"."""
    parts = []
    if problem.line is not None:
        parts.append(f"line {problem.line}")
    if problem.column is not None:
        parts.append(f"column {problem.column}")
    if problem.field:
        parts.append(problem.field)
    return ", ".join(parts) if parts else "file"


def _refuse_team_event(doc: TrfDocument) -> None:
    advice = "its standings are a team season (zdb.standings.standings_document_from_trf reads either kind)"
    if doc.teams:
        team = doc.teams[0]
        raise InvalidInputError(
            f"line {team.line}, {team.source}",
            f"a team tournament ({len(doc.teams)} team{'s' if len(doc.teams) > 1 else ''} in {team.source} "
            f"records); {advice}",
        )
    records = [(record.line, "320") for record in doc.team_byes] + [(f.line, "330") for f in doc.team_forfeits]
    if records:
        line, record_code = min(records)
        raise InvalidInputError(f"line {line}, {record_code}", f"a team record; {advice}")
    type_code = _first(doc.header.get("192", ()))
    if type_code is not None and "TEAM" in type_code.upper():
        raise InvalidInputError("192", f"{type_code!r} is a team tournament; {advice}")


def refuse_other_scoring(doc: TrfDocument) -> None:
    """The standings count 1, 1/2 and 0 (C.07 art. 16.2.1: byes with the points awarded)."""
    text = _first(doc.header.get("162", ()))
    if text is not None:
        scores = scoring(text)
        if any(scores[symbol] != value for symbol, value in _STANDARD_SCORING.items()):
            raise InvalidInputError(
                "162",
                f"scoring {text!r}: the standings count a win and a pairing-allocated bye 1, a draw 1/2, "
                "a loss and an absence 0",
            )
    for line in doc.extensions.get("XXS", ()):
        for token in line.split():
            code, _, value = token.partition("=")
            expected, given = _STANDARD_XXS.get(code.upper()), _number(value)
            if expected is not None and given is not None and given != expected:
                raise InvalidInputError(
                    "XXS", f"{token!r}: the standings count the standard scoring (1, 1/2, 0; byes as awarded)"
                )
    for record in doc.records:
        if record.code == "299":
            raise InvalidInputError(
                f"line {record.line}, 299", "abnormal points assignments are not applied by the standings"
            )


def _refuse_games_without_result(doc: TrfDocument, played: int, in_game: set[tuple[int, int]]) -> None:
    """A pairing in a kept round that ``iter_games`` left out has no result (the reader warned);
    every other reason for leaving it out is an error, refused before."""
    for number in range(1, played + 1):
        for player in doc.players:
            cell = player.cell(number)
            if cell is not None and cell.opponent is not None and (number, player.start_no) not in in_game:
                raise InvalidInputError(
                    f"line {player.line}, round {number}",
                    f"the game of {player.start_no} against {cell.opponent} has no result; the standings need "
                    f"every result of rounds 1 to {played}",
                )


def _pairing_system(doc: TrfDocument) -> PairingSystem | None:
    """The system the file names, or None when it names none."""
    code = _first(doc.header.get("192", ()))
    text = code if code is not None else doc.tournament_type
    if text is None:
        return None
    if any(word in _letters(text) for word in _PREDETERMINED):
        return PairingSystem.ROUND_ROBIN  # C.07 art. 15.2: pre-determined pairings
    if any(word in _letters(text) for word in _SWISS):
        return PairingSystem.SWISS  # C.07 art. 15.3, 16
    return None


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "."))
    except ValueError:
        return None


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _first(values: Iterable[str]) -> str | None:
    for value in values:
        if value.strip():
            return value.strip()
    return None
