"""A complaint as its complainant reads it (private link) and as the staff read it; the
provisional mark as the API answers it. Shared by the API and the pages."""

from __future__ import annotations

from sqlalchemy.orm import Session

from zdb.complaints.models import Complaint
from zdb.complaints.periods import Provisional
from zdb.complaints.schemas import ComplaintFollowed, ComplaintOut, LinkOut, NoteOut, ProvisionalOut
from zdb.complaints.service import links_of, notes_of
from zdb.editions.models import ListEdition

__all__ = ["followed_out", "provisional_out", "staff_out"]


def _common(session: Session, found: Complaint, *, staff: bool) -> dict[str, object]:
    return {
        "id": found.id,
        "subject": found.subject,
        "tournament": found.tournament_id,
        "person": found.person_pkz,
        "filed_at": found.filed_at,
        "state": found.state,
        "routed_to": found.routed_to,
        "text": found.text,
        "notes": [
            NoteOut(at=n.at, state=n.state, text=n.text, by=n.by if staff else None)  # type: ignore[arg-type]
            for n in notes_of(session, found.id)
        ],
        "links": [LinkOut(kind=k.kind, target=k.target, at=k.at) for k in links_of(session, found.id)],  # type: ignore[arg-type]
    }


def followed_out(session: Session, found: Complaint) -> ComplaintFollowed:
    return ComplaintFollowed.model_validate(_common(session, found, staff=False))


def staff_out(session: Session, found: Complaint) -> ComplaintOut:
    edition = None if found.edition_id is None else session.get(ListEdition, found.edition_id)
    return ComplaintOut.model_validate(
        {
            **_common(session, found, staff=True),
            "filer": found.filer_kind,
            "filer_pkz": found.filer_pkz,
            "email": found.email,
            "filer_club": found.filer_club,
            "filed_by": found.filed_by,
            "routed_scope": found.routed_scope,
            "late": found.late,
            "edition": None if edition is None else edition.name,
            "revision": found.revision,
            "changed_at": found.changed_at,
        }
    )


def provisional_out(mark: Provisional | None) -> ProvisionalOut | None:
    if mark is None:
        return None
    return ProvisionalOut(reasons=list(mark.reasons), edition=mark.edition, until=mark.until)  # type: ignore[arg-type]
