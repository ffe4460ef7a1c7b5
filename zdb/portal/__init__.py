"""Door: the interface club software already speaks — the rating portal's REST interface
(``/dsbwertungsportal/rs/…``, ``client-interfaces.md`` §1) with its token endpoint, and the
older DeWIS files (``/php/dewis/…``, §2).

It reads through the domains' read statements and writes nothing but tokens (and their audit
entries). Its errors are answered in the portal's shape (``zdb.portal.route``), never as the
API's problem documents.
"""

from __future__ import annotations

from fastapi import FastAPI

from zdb.portal import dewis, rating_list, token, tournaments

__all__ = ["PORTAL_PREFIX", "install_portal"]

#: the base address a client of the portal is configured with is the part before ``/rs``
PORTAL_PREFIX = "/dsbwertungsportal/rs"


def install_portal(app: FastAPI) -> None:
    """Mount the portal's paths on ``app``."""
    for module in (rating_list, tournaments, token):
        app.include_router(module.router, prefix=PORTAL_PREFIX)
    app.include_router(dewis.router)  # /php/dewis/…, where the federation's website had them
