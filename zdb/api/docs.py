"""The API's documentation page (Swagger UI) with its scripts and styles served by the service
itself, from the ``swagger-ui-bundle-v2`` package: the page works without a connection to the
internet (a CDN's copy left it blank offline) and under the strict Content-Security-Policy of
``zdb.api.security_headers``.

The page's one inline script (which starts Swagger UI on the OpenAPI document) is allowed by
its hash, computed here from the page itself.
"""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request
from starlette.responses import HTMLResponse
from swagger_ui_bundle import swagger_ui_path

__all__ = ["docs_policy", "install_docs"]

_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def _page(openapi_url: str, assets: str, title: str) -> HTMLResponse:
    return get_swagger_ui_html(
        openapi_url=openapi_url,
        title=title,
        swagger_js_url=f"{assets}/swagger-ui-bundle.js",
        swagger_css_url=f"{assets}/swagger-ui.css",
        swagger_favicon_url=f"{assets}/favicon-32x32.png",
    )


def docs_policy(html: str) -> str:
    """The Content-Security-Policy of the page ``html``: its own scripts and the inline ones
    by hash; Swagger UI sets inline styles and draws its icons as data: images."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(html)
    )
    return (
        f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"
    )


def install_docs(app: FastAPI, docs_url: str, openapi_url: str) -> None:
    """The page at ``docs_url``, its assets under ``docs_url``/assets."""
    assets = f"{docs_url}/assets"
    page = _page(openapi_url, assets, f"{app.title} – API")
    policy = docs_policy(bytes(page.body).decode())

    async def docs(request: Request) -> HTMLResponse:
        answer = _page(openapi_url, assets, f"{app.title} – API")
        answer.headers["Content-Security-Policy"] = policy
        return answer

    app.add_route(docs_url, docs, include_in_schema=False)
    app.mount(assets, StaticFiles(directory=swagger_ui_path), name="docs-assets")
