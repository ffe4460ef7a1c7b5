"""The club's page of its notifications (``/club/notifications``): its subscriptions, whether one
is paused and why, the log of each (time, event, answer code, latency), and forms to subscribe an
address, rotate a secret, resume, end a subscription and send one event again.

A club signs in with its club token (``/club/sign-in``: the referees' sign-in takes no club
token); the browser keeps only the session's cookie (``zdb.web.referee_session``). Every change
goes through ``zdb.notifications.service`` (audited) and is posted from this site only.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from fastapi import Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.responses import Response

from zdb.auth.errors import AuthenticationError
from zdb.auth.principal import Principal
from zdb.auth.service import authenticate
from zdb.endpoints.dependencies import RequestSession, mark_refused
from zdb.notifications import service
from zdb.notifications.events import EVENT_TYPES
from zdb.notifications.relaying import delivery_policy
from zdb.web.i18n import mark
from zdb.web.referee_session import require_same_origin, signed_in, start
from zdb.web.rendering import render, translate
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()

PAGE = "/club/notifications"
SubscriptionId = Annotated[int, Path(ge=1, le=2**31 - 1)]
DeliveryId = Annotated[int, Path(ge=1, le=2**31 - 1)]

#: what each event type is called on the page
EVENT_WORDS = {
    "rating.changed": mark("a member's rating changed"),
    "ratings.recalculated": mark("a recalculation moved many members (one summary)"),
    "tournament.state_changed": mark("a tournament was submitted, corrected, withdrawn or evaluated"),
    "list.edition_published": mark("an edition of the rating list was published"),
}
STATUS_WORDS = {
    "active": mark("active"),
    "paused": mark("paused"),
    "pending": mark("waiting"),
    "delivered": mark("delivered"),
    "failed": mark("failed"),
}


def _club(request: Request, session: RequestSession) -> Principal | None:
    caller = signed_in(request, session)
    return caller if caller is not None and caller.role == "club" else None


def _page(request: Request, session: RequestSession, caller: Principal, **context: Any) -> HTMLResponse:
    subscriptions = service.subscriptions_of(session, caller)
    logs = {s.id: service.delivery_log(session, caller, s.id, limit=20, offset=0)[0] for s in subscriptions}
    events = sorted(EVENT_TYPES, key=lambda name: (name not in EVENT_WORDS, name))
    return render(
        request,
        "club_notifications.html",
        {
            "club": caller.scope,
            "subscriptions": subscriptions,
            "logs": logs,
            "events": events,
            "event_words": EVENT_WORDS,
            "status_words": STATUS_WORDS,
            **context,
        },
    )


@router.get("/club/sign-in", response_class=HTMLResponse)
def sign_in_page(request: Request) -> HTMLResponse:
    return render(request, "club_sign_in.html", {"message": None})


@router.post("/club/sign-in", response_class=HTMLResponse)
def sign_in(request: Request, session: RequestSession, token: Annotated[str, Form(max_length=500)]) -> Response:
    require_same_origin(request)
    response = RedirectResponse(PAGE, status_code=303)
    try:
        caller = authenticate(session, token.strip())
    except AuthenticationError:
        mark_refused(request)
        message = translate(request, "This token is not known or was revoked.")
        return render(request, "club_sign_in.html", {"message": message}, status=401)
    if caller.role != "club":
        mark_refused(request)
        message = translate(request, "This token is not a club's token.")
        return render(request, "club_sign_in.html", {"message": message}, status=403)
    start(request, response, session, caller)
    return response


@router.get(PAGE, response_class=HTMLResponse)
def notifications_page(request: Request, session: RequestSession) -> Response:
    caller = _club(request, session)
    if caller is None:
        return RedirectResponse("/club/sign-in", status_code=303)
    return _page(request, session, caller)


def _signed_in_club(request: Request, session: RequestSession) -> Principal:
    require_same_origin(request)
    caller = _club(request, session)
    if caller is None:
        raise AuthenticationError("please sign in with your club token")
    return caller


@router.post(PAGE, response_class=HTMLResponse)
def subscribe(
    request: Request,
    session: RequestSession,
    *,
    url: Annotated[str, Form(max_length=2000)],
    events: Annotated[list[str] | None, Form()] = None,
    description: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    caller = _signed_in_club(request, session)
    made = service.create_subscription(
        session,
        caller,
        url=url.strip(),
        events=events or [],
        federation=None,
        description=description.strip(),
        policy=delivery_policy(request.app.state.settings).target,
    )
    # the secret on this answer (no redirect that would carry it in an address); again by rotation only
    return _page(request, session, caller, secret_of=made.id, secret=made.secret)


@router.post(PAGE + "/{subscription_id}/secret", response_class=HTMLResponse)
def rotate(request: Request, session: RequestSession, subscription_id: SubscriptionId) -> Response:
    caller = _signed_in_club(request, session)
    overlap = timedelta(hours=request.app.state.settings.notification_secret_overlap_hours)
    rotated = service.rotate_secret(session, caller, subscription_id, overlap)
    return _page(request, session, caller, secret_of=rotated.id, secret=rotated.secret)


@router.post(PAGE + "/{subscription_id}/resume")
def resume(request: Request, session: RequestSession, subscription_id: SubscriptionId) -> Response:
    service.resume_subscription(session, _signed_in_club(request, session), subscription_id)
    return RedirectResponse(PAGE, status_code=303)


@router.post(PAGE + "/{subscription_id}/deletion")
def delete(request: Request, session: RequestSession, subscription_id: SubscriptionId) -> Response:
    service.delete_subscription(session, _signed_in_club(request, session), subscription_id)
    return RedirectResponse(PAGE, status_code=303)


@router.post(PAGE + "/{subscription_id}/deliveries/{delivery_id}/redeliver")
def redeliver(
    request: Request, session: RequestSession, subscription_id: SubscriptionId, delivery_id: DeliveryId
) -> Response:
    service.redeliver(session, _signed_in_club(request, session), subscription_id, delivery_id)
    return RedirectResponse(PAGE, status_code=303)
