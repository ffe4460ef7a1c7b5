"""Every table, imported in one place so that Alembic sees the whole metadata."""

from zdb.audit.models import AuditEntry
from zdb.auth.models import ApiToken
from zdb.auth.officers import RatingOfficer
from zdb.auth.portal_models import PortalClient, PortalToken
from zdb.auth.web_sessions import WebSession
from zdb.complaints.models import Complaint, ComplaintLink, ComplaintNote
from zdb.editions.models import EditionRating, ListEdition
from zdb.endpoints.idempotency_models import IdempotencyKey
from zdb.federations.models import Club, Federation
from zdb.federations.settings import FederationSetting
from zdb.fees.models import FeeAssessment, FeeInvoice, FeeLine, FeeSchedule
from zdb.fide.models import FideRegistration
from zdb.lists.models import FideRatingRow, ListBaseline, ListImport
from zdb.notifications.models import DeliveryAttempt, NotificationDelivery, Subscription
from zdb.orm import Base
from zdb.outbox.models import OutboxMessage
from zdb.players.models import Membership, Player
from zdb.ratings.file_stamps import FileStamp
from zdb.reviews.models import OfficerMessage, Review, ReviewSetting, TrustedReferee
from zdb.service_beats import ServiceBeat
from zdb.timeline.models import Evaluation, HistoryRow, InitialState, PlayerRating, RecalcState, StartRatingRow
from zdb.timeline.run_records import RunChange, RunRecord, RunTournament
from zdb.tournaments.models import (
    Announcement,
    GameRow,
    Participation,
    TournamentFingerprint,
    TournamentRecord,
    TournamentState,
    TournamentVersion,
)

__all__ = [
    "Announcement",
    "ApiToken",
    "AuditEntry",
    "Base",
    "Club",
    "Complaint",
    "ComplaintLink",
    "ComplaintNote",
    "DeliveryAttempt",
    "EditionRating",
    "Evaluation",
    "Federation",
    "FederationSetting",
    "FeeAssessment",
    "FeeInvoice",
    "FeeLine",
    "FeeSchedule",
    "FideRatingRow",
    "FideRegistration",
    "FileStamp",
    "GameRow",
    "HistoryRow",
    "IdempotencyKey",
    "InitialState",
    "ListBaseline",
    "ListEdition",
    "ListImport",
    "Membership",
    "NotificationDelivery",
    "OfficerMessage",
    "OutboxMessage",
    "Participation",
    "Player",
    "PlayerRating",
    "PortalClient",
    "PortalToken",
    "RatingOfficer",
    "RecalcState",
    "Review",
    "ReviewSetting",
    "RunChange",
    "RunRecord",
    "RunTournament",
    "ServiceBeat",
    "StartRatingRow",
    "Subscription",
    "TournamentFingerprint",
    "TournamentRecord",
    "TournamentState",
    "TournamentVersion",
    "TrustedReferee",
    "WebSession",
]
