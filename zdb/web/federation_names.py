"""The name of a federation for the pages: a reader meets "Bezirk Musterland", not "C03"."""

from __future__ import annotations

from sqlalchemy.orm import Session

from zdb.federations.models import Federation

__all__ = ["federation_name"]


def federation_name(session: Session, prefix: str | None) -> str | None:
    """The name of the federation with ``prefix``; None when there is none."""
    if prefix is None:
        return None
    found = session.get(Federation, prefix)
    return found.name if found is not None else None
