"""The event types a subscription may ask for: an open list.

Each type is named ``thing.what_happened``. A domain that gains events (a tournament's review, a
complaint) adds its type here with ``register_event_type`` and writes its events into the outbox
as the kind ``event`` (``zdb.notifications.fanout.on_event``), naming the clubs concerned.
"""

from __future__ import annotations

__all__ = [
    "EDITION_PUBLISHED",
    "EVENT_TYPES",
    "RATINGS_RECALCULATED",
    "RATING_CHANGED",
    "TOURNAMENT_STATE_CHANGED",
    "register_event_type",
]

#: a member's DWZ or index changed: the person, old and new, the tournament and the run that moved it
RATING_CHANGED = "rating.changed"
#: a run moved more members than one event each is worth (a from-scratch run): how many, and a link
RATINGS_RECALCULATED = "ratings.recalculated"
#: a tournament was submitted, corrected, withdrawn or evaluated (and the review's states where they exist)
TOURNAMENT_STATE_CHANGED = "tournament.state_changed"
#: an edition of the rating list was published
EDITION_PUBLISHED = "list.edition_published"

EVENT_TYPES: set[str] = {RATING_CHANGED, RATINGS_RECALCULATED, TOURNAMENT_STATE_CHANGED, EDITION_PUBLISHED}


def register_event_type(name: str) -> None:
    EVENT_TYPES.add(name)
