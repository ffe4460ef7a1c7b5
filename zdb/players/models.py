"""Players and their club memberships.

The person number (PKZ) is ours, stable and never reused: it is the key. Club code +
membership number, FIDE id and name + birth date are ways to find a player, not keys.
``external_id`` keeps the id a player had in an imported file, so exports can name him so.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import BigInteger, CheckConstraint, Date, DateTime, ForeignKey, Index, String, false, func, text
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["Membership", "Player"]


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (
        CheckConstraint("sex IN ('M', 'F', 'D')", name="sex"),
        CheckConstraint("birth_year BETWEEN 1850 AND 2200", name="birth_year"),
    )

    pkz: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    external_id: Mapped[str | None] = mapped_column(String(64), unique=True)
    surname: Mapped[str] = mapped_column(String(100))
    given_name: Mapped[str] = mapped_column(String(100), default="")
    # Folded for search: lower case, umlauts as ue/oe/ae/ss, accents removed (zdb.common.names).
    search_name: Mapped[str] = mapped_column(String(210), index=True)
    sex: Mapped[str | None] = mapped_column(String(1))
    birth_year: Mapped[int | None]
    birth_date: Mapped[date | None] = mapped_column(Date)  # never published
    fide_id: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    nation: Mapped[str | None] = mapped_column(String(3))
    guest: Mapped[bool] = mapped_column(default=False)
    #: objected to publication: his name is withheld from public pages and lists (zdb.players.privacy)
    objects_to_publication: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: set by a merge: this number was absorbed by that one and answers with a redirect to it
    merged_into: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("players.pkz"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Membership(Base):
    __tablename__ = "memberships"
    __table_args__ = (
        CheckConstraint("status IN ('active', 'passive')", name="status"),
        CheckConstraint("valid_until IS NULL OR valid_until >= valid_from", name="period"),
        # One current holder of a membership number per club.
        Index(
            "uq_memberships_current_number",
            "club_code",
            "member_no",
            unique=True,
            postgresql_where=text("valid_until IS NULL"),
            sqlite_where=text("valid_until IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_pkz: Mapped[int] = mapped_column(ForeignKey("players.pkz", ondelete="CASCADE"), index=True)
    club_code: Mapped[str] = mapped_column(ForeignKey("clubs.code"), index=True)
    member_no: Mapped[int | None]
    status: Mapped[str] = mapped_column(String(7), default="active")
    valid_from: Mapped[date] = mapped_column(Date)
    valid_until: Mapped[date | None] = mapped_column(Date)
