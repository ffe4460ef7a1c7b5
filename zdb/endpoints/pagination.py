"""Pagination: every list takes ``limit`` and ``offset`` and answers with the total count."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Generic, TypeVar

from fastapi import Query
from pydantic import BaseModel, Field

__all__ = ["MAX_LIMIT", "Page", "PageParams", "page_params"]

MAX_LIMIT = 1000

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int = Field(description="how many items match, over all pages", examples=[1])
    limit: int = Field(examples=[50])
    offset: int = Field(examples=[0])


@dataclass(frozen=True, slots=True)
class PageParams:
    limit: int
    offset: int

    def page(self, items: list[T], total: int) -> Page[T]:
        return Page[T](items=items, total=total, limit=self.limit, offset=self.offset)


def page_params(
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT, description="at most this many items")] = 50,
    offset: Annotated[int, Query(ge=0, le=2**62, description="skip this many items")] = 0,
) -> PageParams:
    return PageParams(limit, offset)
