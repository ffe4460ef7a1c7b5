"""The federation's published deadlines for FIDE-rated tournaments (2026): registration at least
six weeks before the start; results within 7 days after the end, late from the 8th day.

Pure date arithmetic, apart from the stores, so that the registration, the report's state and the
fees count the days alike. A day is the calendar day in UTC, as the announcements count theirs.
"""

from __future__ import annotations

from datetime import date, timedelta

__all__ = ["REGISTRATION_DAYS", "REPORT_DAYS", "days_late", "registration_deadline", "report_due"]

#: six weeks before the start: the last day a registration is on time
REGISTRATION_DAYS = 42
#: the results are due within this many days after the end
REPORT_DAYS = 7


def registration_deadline(start: date) -> date:
    """The last day a registration is on time."""
    return start - timedelta(days=REGISTRATION_DAYS)


def report_due(end: date) -> date:
    """The last day the results are on time (the end day + 7)."""
    return end + timedelta(days=REPORT_DAYS)


def days_late(end: date, sent_on: date) -> int:
    """How many days after the due day the results came (0: on time). Sent on the 8th day after
    the end: 1 day late, and the late fee is owed."""
    return max(0, (sent_on - report_due(end)).days)
