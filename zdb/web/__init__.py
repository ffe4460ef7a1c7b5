"""Server-rendered pages for federation staff, referees and players, served by the API's
application beside ``/api/v1``.

The pages are HTML from Jinja2 templates, German by default with an English switch; every page
shows its data without JavaScript, and a few small scripts (live search, drag and drop,
following a pending tournament) only add comfort. They read through the same query functions
as the API and write through the same services; none of them is in the OpenAPI document.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from zdb.web.routes import (
    calendar,
    club_notifications,
    clubs,
    complaints,
    directory,
    embed,
    federations,
    language,
    players,
    recalculation,
    referee,
    referee_fees,
    referee_reviews,
    search,
    simulator,
    staff_clubs,
    staff_federations,
    staff_fees,
    staff_lists,
    staff_memberships,
    staff_persons,
    staff_portal_clients,
    staff_reviews,
    tournaments,
)

__all__ = ["STATIC_PATH", "install_web"]

STATIC_PATH = "/static"
_STATIC = Path(__file__).parent / "static"


def install_web(app: FastAPI) -> None:
    """Mount the pages on ``app``."""
    for module in (
        search,
        players,
        tournaments,
        clubs,
        embed,
        federations,
        recalculation,
        calendar,
        directory,
        complaints,
        simulator,
        referee,
        referee_fees,
        staff_fees,
        referee_reviews,
        staff_lists,
        staff_portal_clients,
        club_notifications,
        staff_persons,
        staff_memberships,
        staff_clubs,
        staff_federations,
        staff_reviews,
        language,
    ):
        app.include_router(module.router)
    app.mount(STATIC_PATH, StaticFiles(directory=_STATIC), name="static")
