"""The rating office's writes of fees, as both doors (the API and the staff pages) make them:
a schedule made or changed, and a settlement, each with its audit entry. Before a schedule
changes, everything evaluated so far is booked with the schedules as they were, so that a later
change never alters fees already computed (issue 37). Flushes, never commits."""

from __future__ import annotations

from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.fees.ledger import hold_fees, settle
from zdb.fees.schedules import find_schedule, save_schedule, schedule_out
from zdb.fees.schemas import FeeScheduleIn, FeeScheduleOut
from zdb.submissions.store import writer_name

__all__ = ["change_schedule", "create_schedule", "settle_fees"]


def create_schedule(session: Session, caller: Principal, body: FeeScheduleIn) -> FeeScheduleOut:
    """A new schedule; one overlapping another of its federation is refused."""
    settle(session)  # takes the fees' lock: what was evaluated is booked with the schedules as they were
    out = schedule_out(save_schedule(session, body, by=writer_name(caller)))
    after = out.model_dump(mode="json")
    record_entry(session, caller.token_id, "fees.schedule.create", f"fee schedule {out.id}", before=None, after=after)
    return out


def change_schedule(session: Session, caller: Principal, schedule_id: int, body: FeeScheduleIn) -> FeeScheduleOut:
    """Change a schedule; the fees computed with it before stay as they were."""
    hold_fees(session)
    before = schedule_out(find_schedule(session, schedule_id)).model_dump(mode="json")
    settle(session)
    out = schedule_out(save_schedule(session, body, by=writer_name(caller), schedule_id=schedule_id))
    after = out.model_dump(mode="json")
    record_entry(
        session, caller.token_id, "fees.schedule.change", f"fee schedule {schedule_id}", before=before, after=after
    )
    return out


def settle_fees(session: Session, caller: Principal) -> int:
    """Book every tournament evaluated and not booked yet, and credit withdrawals; how many."""
    written = settle(session)
    record_entry(session, caller.token_id, "fees.settlement", "fees", before=None, after={"booked": written})
    return written
