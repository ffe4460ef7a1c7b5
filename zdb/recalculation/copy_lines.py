"""The recalculation's results as COPY text-format lines (see ``zdb.bulk.copy_text``).

Formatting a row as one f-string costs a fraction of handing a tuple to the driver, and a
player's state is formatted once: his state after one event is, as the same object, his state
before the next, so the text of his last state is kept and reused.

Numbers, dates and the engine's fixed names (rule sets, stages) never contain a tab, a
newline, a backslash or the word ``None``: ``None`` left by an f-string is replaced by ``\\N``
(NULL) chunk-wise. The one free text, the event text of the history, is escaped.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Final

from zdb.bulk import escape_copy_text
from zdb.rating import EMPTY_STATE, PlayerId, PlayerState, Stage, Step, Tournament

__all__ = ["EVALUATION_COLUMNS", "HISTORY_COLUMNS", "HistoryLines", "evaluation_lines", "leftover_json"]

HISTORY_COLUMNS: Final = (
    "event_date",
    "event_phase",
    "event_text",
    "event_id",
    "tournament_id",
    "tournament_version",
    "player_pkz",
    "old_rating",
    "old_index",
    "old_leftover",
    "new_rating",
    "new_index",
    "new_leftover",
    "evaluated",
)

EVALUATION_COLUMNS: Final = (
    "tournament_id",
    "version",
    "player_pkz",
    "position",
    "rule_set",
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

_NULL = "\\N"
_BOOL = {True: "1", False: "0", None: _NULL}
_EMPTY_TEXT = f"{_NULL}\t0\t{_NULL}"
_STAGE_TEXT = {stage: stage.value for stage in Stage}


def leftover_json(state: PlayerState) -> str | None:
    """The leftover games as the JSON the column holds (``repository.encode_leftover``)."""
    if not state.leftover:
        return None
    games = [[g.tournament, g.end_date.isoformat(), g.opp_rating, g.points, g.opp_fide] for g in state.leftover]
    return json.dumps(games, separators=(",", ":"))


def _state_text(state: PlayerState) -> str:
    """rating, index, leftover of one state."""
    if state == EMPTY_STATE:
        return _EMPTY_TEXT
    rating = _NULL if state.rating is None else str(state.rating)
    leftover = leftover_json(state)
    return f"{rating}\t{state.index}\t{_NULL if leftover is None else escape_copy_text(leftover)}"


class HistoryLines:
    """History lines of steps in time-line order; remembers each player's last state text."""

    def __init__(self) -> None:
        self._last: dict[PlayerId, tuple[PlayerState, str]] = {}

    def _text(self, pid: PlayerId, state: PlayerState) -> str:
        hit = self._last.get(pid)
        if hit is not None and hit[0] is state:
            return hit[1]
        text = _state_text(state)
        self._last[pid] = (state, text)
        return text

    def of(self, step: Step, version: int | None, only: set[PlayerId] | None = None) -> Iterator[str]:
        """One line per participant of ``step`` (or per one of ``only``); ``version`` is a
        tournament's version."""
        day, phase, name, ident = step.key
        is_tournament = isinstance(step.event, Tournament)
        tournament = f"{ident}\t{version}" if is_tournament else f"{_NULL}\t{_NULL}"
        prefix = f"{day.isoformat()}\t{phase}\t{escape_copy_text(name)}\t{ident}\t{tournament}\t"
        stored = {row.pid: row.stored for row in step.evaluation.rows} if step.evaluation is not None else {}
        outputs = step.outputs
        text = self._text
        inputs = step.inputs
        # The players named, where they are few: a conversion's states are made when read.
        chosen = inputs.items() if only is None else ((pid, inputs[pid]) for pid in only if pid in inputs)
        for pid, old in chosen:
            before = text(pid, old)
            after = text(pid, outputs[pid])
            flag = _BOOL[stored.get(pid)] if is_tournament else _NULL
            yield f"{prefix}{pid}\t{before}\t{after}\t{flag}\n"


def evaluation_lines(tournament_id: int, version: int, step: Step, only: set[PlayerId] | None = None) -> str:
    """The report of a tournament step, one line per participant (or per one of ``only``)."""
    assert step.evaluation is not None
    head = f"{tournament_id}\t{version}\t"
    rule_set = step.evaluation.rule_set
    b, stages = _BOOL, _STAGE_TEXT
    # The rows unpacked into locals: one line per participant of every tournament.
    lines = [
        f"{head}{pid}\t{position}\t{rule_set}\t{b[member]}\t{stages[stage]}\t{b[fide_start]}\t{r0}\t{i0}\t{w}\t"
        f"{n}\t{unrated}\t{we}\t{e}\t{k}\t{rh}\t{b[sonder]}\t{rn}\t{i_new}\t{b[stored]}\t{used}\t{kept}\n"
        for position, (
            pid,
            member,
            stage,
            fide_start,
            r0,
            i0,
            w,
            n,
            unrated,
            we,
            e,
            k,
            rh,
            sonder,
            rn,
            i_new,
            stored,
            used,
            kept,
        ) in enumerate(step.evaluation.rows)
        if only is None or pid in only
    ]
    return "".join(lines).replace("None", _NULL)
