"""Security headers on every answer, pages and API alike.

* ``Content-Security-Policy``: the pages load their styles and scripts from ``/static`` only
  (``zdb/web/templates``: no inline script or style), fetch from their own origin, and are
  framed by nobody (``frame-ancestors 'none'``); an answer that sets its own policy (the API
  documentation, ``zdb.api.docs``; the embeddable views for club websites, ``/embed/…``, which
  name who may frame them) keeps it;
* ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` (for browsers without CSP;
  left out where the answer's own policy lets others frame it),
  ``Referrer-Policy: same-origin``;
* ``Strict-Transport-Security`` only when the service is reached over TLS
  (``Settings.behind_tls``: a reverse proxy terminates it): over plain HTTP it would lock
  browsers out.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["PAGE_POLICY", "SecurityHeaders"]

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"
)
_HSTS = "max-age=31536000; includeSubDomains"


def _framable(policy: str) -> bool:
    """Whether a policy lets someone frame the answer (its own ``frame-ancestors``, not 'none')."""
    for directive in policy.split(";"):
        name, _, sources = directive.strip().partition(" ")
        if name == "frame-ancestors":
            return sources.strip() != "'none'"
    return False


class SecurityHeaders:
    """The middleware; ``hsts`` adds Strict-Transport-Security."""

    def __init__(self, app: ASGIApp, *, hsts: bool) -> None:
        self.app = app
        self.fixed = {
            "X-Content-Type-Options": "nosniff",
            "X-Frame-Options": "DENY",
            "Referrer-Policy": "same-origin",
        } | ({"Strict-Transport-Security": _HSTS} if hsts else {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                own = headers.get("content-security-policy")
                if own is None:
                    headers["Content-Security-Policy"] = PAGE_POLICY
                for name, value in self.fixed.items():
                    headers[name] = value
                if own is not None and _framable(own):
                    # an embeddable view names who may frame it: X-Frame-Options cannot say so
                    del headers["X-Frame-Options"]
            await send(message)

        await self.app(scope, receive, with_headers)
