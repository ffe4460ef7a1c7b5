"""A person's objection to publication (as German federations handle it): his name is withheld
on public pages and lists, while his rating still counts and is listed; his club and the staff
still see him (on the card and in the club's list, as they see his non-public fields)."""

from __future__ import annotations

from sqlalchemy import ColumnElement, case, literal

from zdb.players.models import Player

__all__ = ["WITHHELD", "public_name_column"]

#: what a public list shows instead of the name of a person who objected
WITHHELD = "***"


def public_name_column(column: ColumnElement[str] | object, *, given: bool = False) -> ColumnElement[str]:
    """The name column as the public sees it: withheld for a person who objected."""
    return case(
        (Player.objects_to_publication.is_(True), literal("" if given else WITHHELD)),
        else_=column,
    )
