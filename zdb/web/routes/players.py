"""The player card: rating and index, FIDE data, memberships, the rating chart and the history,
each evaluation linking to its tournament and to the explanation of the change. The card names
the last evaluation that set the rating (tournament and end date), not the time a
recalculation wrote it."""

from __future__ import annotations

from fastapi import Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from sqlalchemy import select

from zdb.auth.principal import PUBLIC
from zdb.endpoints.dependencies import PersonNumber, RequestSession
from zdb.players.models import Player
from zdb.ratings.player_queries import player_card
from zdb.web.chart import rating_chart
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()


@router.get("/players/{pkz}", response_class=HTMLResponse)
def player_page(request: Request, session: RequestSession, pkz: PersonNumber) -> Response:
    survivor = session.execute(select(Player.merged_into).where(Player.pkz == pkz)).scalar()
    if survivor is not None:
        # A merged record's page moved for good to the surviving person number.
        return RedirectResponse(str(request.url_for("player_page", pkz=str(survivor))), status_code=301)
    card = player_card(session, pkz, PUBLIC, complaint_days=request.app.state.settings.complaint_days)
    history = list(reversed(card.history))  # the latest first, as a reader looks for it
    last = next((e for e in history if e.kind == "tournament" and e.stored and e.new_rating is not None), None)
    return render(
        request,
        "player.html",
        {"card": card, "chart": rating_chart(card.history), "history": history, "last_evaluation": last},
    )
