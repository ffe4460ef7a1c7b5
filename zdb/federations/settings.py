"""A federation's rules for the tournaments in its subtree, inherited down the tree.

Why: federations differ in how they run their rating office (whether a tournament must be
announced before it starts, and how many days before). A federation states a rule or leaves
it to its parent; the rule that applies to a tournament is the one of its federation, else the
nearest ancestor that states one, else the default (no announcement needed). The tree is a few
levels deep (national, regional, district, sub-district): the ancestors are read one by one.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import CheckConstraint, ForeignKey, String
from sqlalchemy.orm import Mapped, Session, mapped_column

from zdb.errors import NotFoundError
from zdb.federations.models import Federation
from zdb.messages import Message
from zdb.orm import Base

__all__ = [
    "ANNOUNCEMENT_RULES",
    "FIDE_REGISTRATION_RULES",
    "EffectiveSettings",
    "FederationSetting",
    "effective_settings",
    "require_federation",
    "set_settings",
]

#: off: nothing asked; warn: an unannounced submission is stored with a warning; required: refused
ANNOUNCEMENT_RULES = ("off", "warn", "required")
#: a FIDE registration later than six weeks before the start: warn (stored with a warning) or refuse
FIDE_REGISTRATION_RULES = ("warn", "refuse")


class FederationSetting(Base):
    """A federation's own rules; a null value is inherited from its parent."""

    __tablename__ = "federation_settings"
    __table_args__ = (
        CheckConstraint("announcement IN ('off', 'warn', 'required')", name="announcement"),
        CheckConstraint("announcement_days BETWEEN 0 AND 365", name="announcement_days"),
        CheckConstraint("fide_registration IN ('warn', 'refuse')", name="fide_registration"),
    )

    prefix: Mapped[str] = mapped_column(ForeignKey("federations.prefix", ondelete="CASCADE"), primary_key=True)
    announcement: Mapped[str | None] = mapped_column(String(8))
    #: how many days before the start the announcement must be made
    announcement_days: Mapped[int | None]
    #: what a FIDE registration later than six weeks before the start gets (``zdb.fide``)
    fide_registration: Mapped[str | None] = mapped_column(String(8))


@dataclass(frozen=True, slots=True)
class EffectiveSettings:
    """The rules that apply in a federation, and which federation set each ("" : the default)."""

    announcement: str = "off"
    announcement_days: int = 0
    announcement_from: str | None = None
    announcement_days_from: str | None = None
    fide_registration: str = "warn"
    fide_registration_from: str | None = None


def effective_settings(session: Session, prefix: str | None) -> EffectiveSettings:
    """The rules of ``prefix``'s federation: its own, else its nearest ancestor's."""
    announcement: tuple[str, str] | None = None
    days: tuple[int, str] | None = None
    fide: tuple[str, str] | None = None
    seen: set[str] = set()
    current = prefix
    while current is not None and current not in seen and (announcement is None or days is None or fide is None):
        seen.add(current)  # a broken tree never loops
        own = session.get(FederationSetting, current)
        if own is not None:
            if announcement is None and own.announcement is not None:
                announcement = (own.announcement, current)
            if days is None and own.announcement_days is not None:
                days = (own.announcement_days, current)
            if fide is None and own.fide_registration is not None:
                fide = (own.fide_registration, current)
        federation = session.get(Federation, current)
        current = None if federation is None else federation.parent_prefix
    return EffectiveSettings(
        announcement[0] if announcement else "off",
        days[0] if days else 0,
        announcement[1] if announcement else None,
        days[1] if days else None,
        fide[0] if fide else "warn",
        fide[1] if fide else None,
    )


def set_settings(
    session: Session,
    prefix: str,
    *,
    announcement: str | None,
    announcement_days: int | None,
    fide_registration: str | None = None,
) -> tuple[dict[str, object], dict[str, object]]:
    """Replace a federation's own rules (null: inherit); the values before and after, for the
    audit log. Flushes."""
    own = session.get(FederationSetting, prefix, with_for_update=True)
    before: dict[str, object] = {
        "announcement": None if own is None else own.announcement,
        "announcement_days": None if own is None else own.announcement_days,
        "fide_registration": None if own is None else own.fide_registration,
    }
    if own is None:
        own = FederationSetting(prefix=prefix)
        session.add(own)
    own.announcement, own.announcement_days = announcement, announcement_days
    own.fide_registration = fide_registration
    session.flush()
    after: dict[str, object] = {
        "announcement": announcement,
        "announcement_days": announcement_days,
        "fide_registration": fide_registration,
    }
    return before, after


def require_federation(session: Session, prefix: str) -> None:
    """A 404 naming the prefix where no federation has it."""
    if session.get(Federation, prefix) is None:
        raise NotFoundError(Message("no federation has the prefix {prefix!r}", prefix=prefix))
