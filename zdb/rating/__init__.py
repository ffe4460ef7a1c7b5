"""The DWZ rating engine: a pure library (no I/O, no clock, no database, no framework).

It implements ``shared/spec/dwz-rules.md``: expected scores, the classic E and the WO 2026 K,
the 2026 conversion, one tournament's evaluation and the chronological replay of a time line,
full and incremental. Everything that enters or leaves it is an immutable value.
"""

from zdb.rating.expectation import expected_score, solve_rating
from zdb.rating.model import (
    EMPTY_STATE,
    Game,
    InvalidInputError,
    LeftoverGame,
    Participant,
    PlayerId,
    PlayerState,
    ReportRow,
    ResultCode,
    Stage,
    Tournament,
    TournamentEvaluation,
)
from zdb.rating.replay import (
    HistoryEntry,
    IncrementalResult,
    ReplayResult,
    Step,
    StoredStep,
    StoredTimeline,
    apply_event,
    apply_incremental,
    replay,
    replay_incremental,
)
from zdb.rating.rulesets import CONVERSIONS, RULE_SETS, Conversion, RuleSet, rule_set_for
from zdb.rating.timeline import (
    Event,
    OrderKey,
    StartRating,
    Submission,
    Withdrawal,
    build_timeline,
    event_name,
    order_key,
    timeline_changes,
)
from zdb.rating.tournament import evaluate_tournament

__all__ = [
    "CONVERSIONS",
    "EMPTY_STATE",
    "RULE_SETS",
    "Conversion",
    "Event",
    "Game",
    "HistoryEntry",
    "IncrementalResult",
    "InvalidInputError",
    "LeftoverGame",
    "OrderKey",
    "Participant",
    "PlayerId",
    "PlayerState",
    "ReplayResult",
    "ReportRow",
    "ResultCode",
    "RuleSet",
    "Stage",
    "StartRating",
    "Step",
    "StoredStep",
    "StoredTimeline",
    "Submission",
    "Tournament",
    "TournamentEvaluation",
    "Withdrawal",
    "apply_event",
    "apply_incremental",
    "build_timeline",
    "evaluate_tournament",
    "event_name",
    "expected_score",
    "order_key",
    "replay",
    "replay_incremental",
    "rule_set_for",
    "solve_rating",
    "timeline_changes",
]
