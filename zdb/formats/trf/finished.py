"""Whether the tournament in a file is finished: only finished tournaments are rated.

Why a check of its own: pairing programs read and write TRF files while a tournament runs
(JaVaFo, bbpPairings and Sharly pair the next round from one), so a file can be exported with
rounds still to play or a round half played. Everything in such a file reads cleanly, and its
games would be rated as if the tournament were over. Both cases are errors:

* **Rounds announced but not played.** The rounds a file announces are the count of 142 (TRF26)
  or ``XXR`` (JaVaFo's TRF(x)), the dates in 132, and the rounds in the player lines. A round is
  played when at least one of its pairings has a result (or, in a team event, a 330 record gives
  a forfeited match of it); every announced round after the last
  played one is reported, in one error on the line of the record that announces it. Byes entered
  ahead for the round being paired (``0000 - H``, ``0000 - Z``) do not make a round played. If a
  tournament really ended early, the referee corrects the record.
* **A round half played.** In a played round, players who are paired with each other and have no
  result on either side, while other games of that round have results: one error naming the
  round and those players.

Not counted: cells without an opponent. A player who withdrew has blank cells, ``-`` or ``Z`` in
the rounds after, and in a team league members sit out rounds; a finished tournament has many
such cells, and they look no different from a round not yet entered, so a blank cell is never
taken as a missing result.

The files of ``shared/data/trf`` that come from pairing programs (the JaVaFo sample with
``XXR 9`` and 5 rounds, round 5 holding only byes; bbpPairings, CPPDubovSystem and Sharly test
inputs with ``XXR`` or 142 above the rounds played; a lichess Swiss announcing 21 rounds and
holding 20) are such files and now carry this error; they are still read completely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zdb.formats.trf.model import TrfDocument, TrfPlayer, TrfProblem
from zdb.formats.trf.problems import Problems
from zdb.messages import Message

__all__ = ["Announcement", "check_finished", "is_unfinished"]

#: how every error of this module begins (``is_unfinished``)
_MARKS = ("the tournament is not finished: ", "round {round} is not finished: ")


@dataclass(frozen=True, slots=True)
class Announcement:
    """A record that says how many rounds the tournament has: 142, ``XXR`` or 132 (its dates)."""

    record: str
    rounds: int
    line: int


def check_finished(doc: TrfDocument, announced: Sequence[Announcement], problems: Problems) -> frozenset[int]:
    """Report rounds announced but not played and rounds half played (see the module docstring);
    the rounds reported, whose pairings without a result need no warning of their own."""
    by_no = {p.start_no: p for p in doc.players}
    forfeited = {f.round for f in doc.team_forfeits}  # 330: a whole match forfeited is its result
    played = [r for r in range(1, doc.rounds + 1) if r in forfeited or any(_has_result(p, r) for p in doc.players)]
    last = max(played, default=0)
    reported = set(range(last + 1, doc.rounds + 1))
    _report_unplayed(doc, announced, last, problems)
    for round_no in played:
        waiting = [p for p in doc.players if _paired_without_result(p, round_no, by_no)]
        if waiting:
            reported.add(round_no)
            problems.error(
                waiting[0].line,
                Message(
                    "round {round} is not finished: players {players} are paired but have no result, "
                    "while other games of the round have results",
                    round=round_no,
                    players=", ".join(str(p.start_no) for p in waiting),
                ),
                field=f"round {round_no}",
            )
    return frozenset(reported)


def is_unfinished(problem: TrfProblem) -> bool:
    """An error of this module: the file is read, but the tournament is not over. A reader that
    works on unfinished tournaments too (the standings after the last round played) passes over
    these and keeps refusing every other error."""
    return problem.text is not None and problem.text.template.startswith(_MARKS)


def _report_unplayed(doc: TrfDocument, announced: Sequence[Announcement], last: int, problems: Problems) -> None:
    record = max(announced, key=lambda a: a.rounds, default=None)
    total = max(doc.rounds, record.rounds if record else 0)
    if total <= last or (last == 0 and not doc.players):
        return
    if total == last + 1:
        rounds = Message("round {round}", round=total)
    elif total == last + 2:
        rounds = Message("rounds {first} and {end}", first=last + 1, end=total)
    else:
        rounds = Message("rounds {first} to {end}", first=last + 1, end=total)
    if record is None or record.rounds < total:
        problems.error(
            None,
            Message(
                "the tournament is not finished: there are pairings or byes but no results for {rounds}",
                rounds=rounds,
            ),
            field=f"round {last + 1}",
        )
    elif last == 0:
        problems.error(
            record.line,
            Message(
                "the tournament is not finished: record {record} announces {count} rounds, but no game has a result",
                record=record.record,
                count=record.rounds,
            ),
            field=record.record,
        )
    else:
        problems.error(
            record.line,
            Message(
                "the tournament is not finished: record {record} announces {count} rounds, but there are no "
                "results for {rounds}; if it ended after round {played}, correct record {record}",
                record=record.record,
                count=record.rounds,
                rounds=rounds,
                played=last,
            ),
            field=record.record,
        )


def _has_result(player: TrfPlayer, round_no: int) -> bool:
    cell = player.cell(round_no)
    return cell is not None and cell.opponent is not None and cell.result is not None


def _paired_without_result(player: TrfPlayer, round_no: int, by_no: dict[int, TrfPlayer]) -> bool:
    """Paired with an opponent who names the player back, and neither has a result."""
    cell = player.cell(round_no)
    if cell is None or cell.opponent is None or cell.result is not None:
        return False
    opponent = by_no.get(cell.opponent)
    other = opponent.cell(round_no) if opponent else None
    return other is not None and other.opponent == player.start_no and other.result is None
