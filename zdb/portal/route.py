"""The route class of the portal door: errors answered in the portal's shape
(``{"error", "error_description"}``), never as the API's problem documents.

The API's handlers answer errors for the whole application; a route of this door catches its
errors before they reach them. A malformed parameter is a 400 naming it, an unknown id a 404.
The portal's own shape of these answers was not confirmed; the token endpoint's shape (the one
the interface describes) is used for all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from zdb.errors import NotFoundError

__all__ = ["PortalError", "PortalRoute", "bad_parameter", "portal_error"]


class PortalError(Exception):
    """A refusal of the portal door: status, error code, description."""

    def __init__(self, status: int, error: str, description: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(description)
        self.status, self.error, self.description = status, error, description
        self.headers = headers or {}


def bad_parameter(name: str, what: str) -> PortalError:
    return PortalError(400, "bad_request", f"{name}: {what}")


def portal_error(status: int, error: str, description: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": error, "error_description": description}, status_code=status, headers=headers)


def _validation(error: RequestValidationError) -> JSONResponse:
    places = []
    for item in error.errors():
        location = [str(part) for part in item.get("loc", ()) if part not in ("query", "path", "body")]
        places.append(f"{'.'.join(location) or 'request'}: {item.get('msg', '')}")
    return portal_error(400, "bad_request", "; ".join(places))


class PortalRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def answer(request: Request) -> Response:
            try:
                return await handle(request)
            except PortalError as error:
                return portal_error(error.status, error.error, error.description, error.headers)
            except NotFoundError as error:
                return portal_error(404, "not_found", str(error))
            except RequestValidationError as error:
                return _validation(error)

        return answer
