"""The federation tree and its clubs.

A federation is identified by the club-code prefix of its subtree: the DSB by the empty
prefix, a regional federation by one character (the first character of every club code in
it), a district by a longer prefix. A club's code is the 5-character VKZ/ZPS.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import CheckConstraint, Date, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["Club", "Federation"]


class Federation(Base):
    __tablename__ = "federations"
    __table_args__ = (
        CheckConstraint("level BETWEEN 0 AND 3", name="level"),
        CheckConstraint("length(prefix) <= 4", name="prefix_length"),
    )

    prefix: Mapped[str] = mapped_column(String(4), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    level: Mapped[int]  # 0 national, 1 regional, 2 district, 3 sub-district
    parent_prefix: Mapped[str | None] = mapped_column(ForeignKey("federations.prefix"), index=True)
    dissolved_on: Mapped[date | None] = mapped_column(Date)  # kept for the record; None: in being


class Club(Base):
    __tablename__ = "clubs"
    __table_args__ = (CheckConstraint("length(code) = 5", name="code_length"),)

    code: Mapped[str] = mapped_column(String(5), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    federation_prefix: Mapped[str] = mapped_column(ForeignKey("federations.prefix"), index=True)
    dissolved_on: Mapped[date | None] = mapped_column(Date)  # its memberships ended that day
