"""A team tournament read from a FIDE Tournament Report File, as a team season.

Why: team leagues are reported in TRF too (TRF16 ``013`` team lines, TRF26 ``310`` records),
and ``zdb standings FILE.trf`` must publish them as a league table (match points, board points,
Berliner Wertung), not refuse them. The reader ``zdb.formats.trf`` gives the teams, the games and
the cells without an opponent; ``team_games.season_from_games`` finds the matches in them.

- Rounds: as for individual files (``from_trf``), trailing rounds without a game result are the
  round being paired and are left out.
- Board defaults: ``0000 - +`` is a board won without an opponent ("kampflos"); ``0000 - -`` is
  a player who did not play (FIDE's team sample writes it for every reserve of every round, 1328
  times), not a board.
- ``330`` (a whole match forfeited, TRF26): the match is scheduled and decided by the record; the
  winners' ``+`` cells are its boards, each against a loser's zero-point cell (``Z``, ``-``).
- ``362`` (TRF26: points of a team win, draw and loss, "TW 2.0 TD 1.0 TL 0.0") gives the match
  points; without it 2-1-0.
- ``320`` team byes: the team has no match ("spielfrei") and gets the match and game points the
  record gives (without them a win's match points and no board points); ``240 F`` and ``240 H``
  (team numbers in a team file) a won or drawn match with all or half of the boards.

Refused (``InvalidInputError``): documents with errors, scoring other than 1, ½, 0 (``162``,
``XXS``, ``299``, as for individual files), a player in no team or in two, teammates paired.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from zdb.formats.trf import ByeKind as TrfByeKind
from zdb.formats.trf import TrfDocument, iter_byes, iter_games
from zdb.formats.trf.finished import is_unfinished
from zdb.rating import InvalidInputError, ResultCode
from zdb.standings.documents import IndividualRequest
from zdb.standings.from_trf import TrfInputError, refuse_other_scoring, standings_input_from_trf
from zdb.standings.model import Pairing
from zdb.standings.team import MatchPoints, TeamBye, TeamMatch, TeamSeason
from zdb.standings.team_games import BoardDefault, Roster, season_from_games

__all__ = ["is_team_tournament", "standings_document_from_trf", "team_season_from_trf"]

#: TRF26 ``330`` kinds: the white team wins, the black team wins, both lose
_FORFEITS = {"+-": ResultCode.WHITE_WINS_FORFEIT, "-+": ResultCode.BLACK_WINS_FORFEIT, "--": ResultCode.DOUBLE_FORFEIT}
#: TRF26 ``240`` in a team file (its numbers are teams): a full-point bye scores a won match with
#: every board, a half-point bye a drawn one with half of them (FIDE's team sample, 801 and 310)
_REQUESTED: dict[str, Callable[[MatchPoints, int], tuple[int, Fraction]]] = {
    "F": lambda system, boards: (system.win, Fraction(boards)),
    "H": lambda system, boards: (system.draw, Fraction(boards, 2)),
}
#: TRF26 ``362`` keys: team win, draw, loss
_MATCH_POINT_KEYS = {"TW": "win", "TD": "draw", "TL": "loss"}


def is_team_tournament(doc: TrfDocument) -> bool:
    """Teams (``013``/``310``), team records (``320``/``330``) or a team ``192`` code."""
    code = " ".join(doc.header.get("192", ())).upper()
    return bool(doc.teams or doc.team_byes or doc.team_forfeits or "TEAM" in code)


def standings_document_from_trf(doc: TrfDocument) -> IndividualRequest | TeamSeason:
    """The team season of a team tournament, else the individual tournament's input."""
    if is_team_tournament(doc):
        return team_season_from_trf(doc)
    return standings_input_from_trf(doc)


def team_season_from_trf(doc: TrfDocument) -> TeamSeason:
    errors = tuple(p for p in doc.errors if not is_unfinished(p))  # as from_trf: standings so far
    if errors:
        raise TrfInputError(errors)
    if not doc.teams:
        raise InvalidInputError("013", "a team tournament without team lines (013 or 310): the teams are unknown")
    refuse_other_scoring(doc)
    games = tuple(iter_games(doc))
    played = max((game.round for game in games), default=0)
    rounds: list[list[Pairing]] = [[] for _ in range(played)]
    for game in games:
        rounds[game.round - 1].append(Pairing(str(game.white), str(game.black), game.result))
    whole = {(record.round, team) for record in doc.team_forfeits for team in (record.white_team, record.black_team)}
    number_of = {team.number: team for team in doc.teams}
    defaults = []
    for bye in iter_byes(doc):
        if bye.round > played:
            continue
        team = doc.team_of(bye.start_no)
        whole_match = team is not None and (bye.round, team.number) in whole
        if bye.kind is TrfByeKind.PAIRING_PLUS:
            defaults.append(BoardDefault(bye.round, str(bye.start_no), won=True))
        elif whole_match and bye.kind in (TrfByeKind.ZERO_POINT, TrfByeKind.NOT_PAIRED):
            defaults.append(BoardDefault(bye.round, str(bye.start_no), won=False))
    forfeited = tuple(
        TeamMatch(
            record.round,
            number_of[record.white_team].name,
            number_of[record.black_team].name,
            (),
            forfeited=_FORFEITS[record.kind],
        )
        for record in doc.team_forfeits
        if record.round <= played
        and record.kind in _FORFEITS
        and record.white_team in number_of
        and record.black_team in number_of
    )
    system = _match_points(doc)
    byes = tuple(
        TeamBye(
            bye.round,
            number_of[bye.team].name,
            system.win if bye.match_points is None else int(bye.match_points),
            Fraction(0) if bye.game_points is None else Fraction(bye.game_points),
        )
        for bye in doc.team_byes
        if bye.round <= played and bye.team in number_of
    )
    rosters = tuple(Roster(team.name, tuple(str(member) for member in team.members)) for team in doc.teams)
    season = season_from_games(
        rosters, rounds, defaults=tuple(defaults), match_points=system, forfeited=forfeited, byes=byes
    )
    boards = Counter(len(match.boards) for match in season.matches).most_common(1)[0][0] if season.matches else 0
    requested = tuple(
        TeamBye(record.round, number_of[team].name, *_REQUESTED[record.kind](system, boards))
        for record in doc.bye_records
        if record.round <= played and record.kind in _REQUESTED
        for team in record.ids
        if team in number_of
    )
    return replace(season, byes=season.byes + requested)


def _match_points(doc: TrfDocument) -> MatchPoints:
    text = " ".join(doc.header.get("362", ()))
    tokens = text.split()
    values: dict[str, int] = {}
    for k, key in enumerate(tokens[:-1]):
        value = tokens[k + 1]
        if key.upper() in _MATCH_POINT_KEYS:
            try:
                number = float(value)
            except ValueError:
                raise InvalidInputError("362", f"{key} {value!r} is not a number") from None
            if number != int(number) or number < 0:
                raise InvalidInputError("362", f"{key} {value}: match points are whole numbers")
            values[_MATCH_POINT_KEYS[key.upper()]] = int(number)
    return MatchPoints(**values)
