"""Subscriptions to signed notifications (``zdb.notifications``): a club token for its members, a
staff token for a federation subtree. Thin: the service checks, the relay delivers."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import JSONResponse

from zdb.api.openapi import problems
from zdb.endpoints.dependencies import Caller, Paging, RequestSession
from zdb.endpoints.pagination import Page
from zdb.notifications import service
from zdb.notifications.relaying import delivery_policy
from zdb.notifications.schemas import DeliveryOut, SubscriptionIn, SubscriptionOut, delivery_out, subscription_out

__all__ = ["router"]

router = APIRouter(prefix="/subscriptions", tags=["notifications"])

SubscriptionId = Annotated[int, Path(ge=1, le=2**31 - 1, description="the subscription's id")]
DeliveryId = Annotated[int, Path(ge=1, le=2**31 - 1, description="the delivery's id")]

_ROLES = ("club", "referee", "admin")


@router.post(
    "",
    status_code=201,
    response_model=SubscriptionOut,
    summary="Subscribe an address to events (club, referee, admin)",
    description="A club token subscribes for its members, a referee for his subtree, an admin for the tree or "
    "the subtree in `federation`. The address must be HTTPS and public (no loopback, link-local or private "
    "address). The answer carries the signing secret: every event is signed the Standard Webhooks way.",
    responses=problems(401, 403, 409, 422),
)
def create(*, request: Request, session: RequestSession, caller: Caller, body: SubscriptionIn) -> Response:
    caller.require(*_ROLES)
    made = service.create_subscription(
        session,
        caller,
        url=body.url,
        events=body.events,
        federation=body.federation,
        description=body.description,
        policy=delivery_policy(request.app.state.settings).target,
    )
    out = subscription_out(made, with_secret=True)
    return JSONResponse(
        out.model_dump(mode="json"), status_code=201, headers={"Location": f"/api/v1/subscriptions/{made.id}"}
    )


@router.get(
    "", response_model=list[SubscriptionOut], summary="The caller's subscriptions", responses=problems(401, 403)
)
def listing(*, session: RequestSession, caller: Caller) -> list[SubscriptionOut]:
    caller.require(*_ROLES)
    return [subscription_out(s) for s in service.subscriptions_of(session, caller)]


@router.get(
    "/{subscription_id}", response_model=SubscriptionOut, summary="One subscription", responses=problems(401, 403, 404)
)
def one(*, session: RequestSession, caller: Caller, subscription_id: SubscriptionId) -> SubscriptionOut:
    caller.require(*_ROLES)
    return subscription_out(service.owned_subscription(session, caller, subscription_id))


@router.delete("/{subscription_id}", status_code=204, summary="End a subscription", responses=problems(401, 403, 404))
def delete(*, session: RequestSession, caller: Caller, subscription_id: SubscriptionId) -> Response:
    caller.require(*_ROLES)
    service.delete_subscription(session, caller, subscription_id)
    return Response(status_code=204)


@router.post(
    "/{subscription_id}/resume",
    response_model=SubscriptionOut,
    summary="Resume a paused subscription: its waiting events go out",
    responses=problems(401, 403, 404, 409),
)
def resume(*, session: RequestSession, caller: Caller, subscription_id: SubscriptionId) -> SubscriptionOut:
    caller.require(*_ROLES)
    return subscription_out(service.resume_subscription(session, caller, subscription_id))


@router.post(
    "/{subscription_id}/secret",
    response_model=SubscriptionOut,
    summary="Rotate the signing secret; the old one signs too for a while",
    responses=problems(401, 403, 404),
)
def rotate(
    *, request: Request, session: RequestSession, caller: Caller, subscription_id: SubscriptionId
) -> SubscriptionOut:
    caller.require(*_ROLES)
    overlap = timedelta(hours=request.app.state.settings.notification_secret_overlap_hours)
    return subscription_out(service.rotate_secret(session, caller, subscription_id, overlap), with_secret=True)


@router.get(
    "/{subscription_id}/deliveries",
    response_model=Page[DeliveryOut],
    summary="The delivery log: each event with its attempts (time, answer code, latency), the newest first",
    responses=problems(401, 403, 404),
)
def deliveries(
    *, session: RequestSession, caller: Caller, paging: Paging, subscription_id: SubscriptionId
) -> Page[DeliveryOut]:
    caller.require(*_ROLES)
    lines, total = service.delivery_log(session, caller, subscription_id, limit=paging.limit, offset=paging.offset)
    return paging.page([delivery_out(line) for line in lines], total)


@router.post(
    "/{subscription_id}/deliveries/{delivery_id}/redeliver",
    status_code=202,
    response_model=DeliveryOut,
    summary="Send one event again",
    responses=problems(401, 403, 404, 409),
)
def redeliver(
    *, session: RequestSession, caller: Caller, subscription_id: SubscriptionId, delivery_id: DeliveryId
) -> Response:
    caller.require(*_ROLES)
    delivery = service.redeliver(session, caller, subscription_id, delivery_id)
    out = delivery_out(service.DeliveryLine(delivery, []))
    return JSONResponse(out.model_dump(mode="json"), status_code=202)
