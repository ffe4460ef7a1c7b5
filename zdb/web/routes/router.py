"""The router every page module builds on: the page route class, out of the OpenAPI document."""

from __future__ import annotations

from fastapi import APIRouter

from zdb.web.page_route import PageRoute

__all__ = ["page_router"]


def page_router() -> APIRouter:
    return APIRouter(route_class=PageRoute, include_in_schema=False)
