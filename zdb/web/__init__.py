"""Server-rendered pages for federation staff, referees and players, served by the API's
application beside ``/api/v1``."""

from __future__ import annotations

from fastapi import FastAPI

__all__ = ["install_web"]


def install_web(app: FastAPI) -> None:
    """Mount the pages on ``app``."""
