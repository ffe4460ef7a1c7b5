"""Every table, imported in one place so that Alembic sees the whole metadata."""

from zdb.api.idempotency_models import IdempotencyKey
from zdb.auth.models import ApiToken, AuditEntry
from zdb.federations.models import Club, Federation
from zdb.lists.models import FideRatingRow, ListBaseline, ListImport
from zdb.orm import Base
from zdb.players.models import Membership, Player
from zdb.ratings.models import Evaluation, HistoryRow, InitialState, PlayerRating, RecalcState, StartRatingRow
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion

__all__ = [
    "ApiToken",
    "AuditEntry",
    "Base",
    "Club",
    "Evaluation",
    "Federation",
    "FideRatingRow",
    "GameRow",
    "HistoryRow",
    "IdempotencyKey",
    "InitialState",
    "ListBaseline",
    "ListImport",
    "Membership",
    "Participation",
    "Player",
    "PlayerRating",
    "RecalcState",
    "StartRatingRow",
    "TournamentRecord",
    "TournamentVersion",
]
