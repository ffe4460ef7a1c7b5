"""The hot reads: the player card and the club list, the answers asked for most.

Their SQL and their shape live with the other read queries (``zdb.ratings.player_queries``,
``zdb.ratings.queries``): statements with parameters, and functions that turn their rows into
plain values in the order of the answer's model. This module runs them and answers, with as
little between the request and the database as possible:

- ``fetch`` is the one place that decides how: on the asynchronous pool
  (``zdb.api.read_pool``) in PostgreSQL, every statement of an answer on one connection,
  compiled once to SQL; otherwise (SQLite) the same statements in a unit of work in the
  threadpool. Both ways give the same rows, so the answers are the same bytes. (The statements
  run one after the other: a psycopg pipeline saves round trips on the local socket but costs
  more processor time per request than it saves, and the processor is what runs out first.)
- the answer is serialised straight from the plain values (``pydantic_core.to_json``, the
  serialiser of the models, so byte for byte what ``model_dump_json`` gives); the routes keep
  their ``response_model`` for the OpenAPI document only.
- as few statements as the answer allows: the card is three (the player, his memberships, his
  history), the club list one (its total and latest change ride on every row; only a page
  beyond the last member asks again); the recalculation's stamp (``Last-Modified``) comes with
  the first. The provisional marks (the card's tournaments, the club list's members: their last
  evaluations) follow in a unit of work of their own, a few statements for the whole answer,
  never one per row. A public caller (no Authorization header) never touches the token table
  (``zdb.endpoints.dependencies.ReadCaller``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from functools import cache
from typing import Any

from fastapi import Request, Response
from fastapi.responses import RedirectResponse
from pydantic_core import to_json
from sqlalchemy import Dialect, Engine, Select
from sqlalchemy.exc import OperationalError
from starlette.concurrency import run_in_threadpool

from zdb.api.conditional import conditional_bytes
from zdb.api.read_pool import ReadPool
from zdb.audit.reader import last_write_at
from zdb.auth.principal import Principal
from zdb.complaints.answers import provisional_out
from zdb.complaints.periods import provisional_marks
from zdb.db import is_postgres, unit_of_work
from zdb.db_routing import reading_engine, replica_failed
from zdb.editions.sources import list_source
from zdb.errors import ValidationError, ValidationProblem
from zdb.ratings.club_list_queries import (
    club_page_fields,
    club_params,
    club_ratings_from_source,
    club_statements,
    mark_provisional,
)
from zdb.ratings.player_queries import CARD_HISTORY, CARD_MEMBERSHIPS, CARD_PLAYER, card_fields
from zdb.ratings.status_queries import results_stamp, results_stamp_of
from zdb.timeline.state import RESULTS_STAMP_COLUMNS

__all__ = ["club_listed_answer", "club_ratings_answer", "fetch", "player_card_answer"]

Rows = list[Mapping[Any, Any]]
Statement = Select[*tuple[Any, ...]]

_CARD: tuple[Statement, ...] = (
    CARD_PLAYER.add_columns(*RESULTS_STAMP_COLUMNS),
    CARD_MEMBERSHIPS,
    CARD_HISTORY,
)


@cache
def _club(postgres: bool, *, changed_since: bool) -> tuple[Statement, ...]:
    rows, beyond = club_statements(postgres, changed_since=changed_since)
    return rows.add_columns(*RESULTS_STAMP_COLUMNS), beyond.add_columns(*RESULTS_STAMP_COLUMNS)


@cache
def _compiled(statement: Statement, dialect: Dialect) -> tuple[str, dict[str, Any]]:
    """The statement's SQL for psycopg and the values of the parameters it fixes itself."""
    compiled = statement.compile(dialect=dialect)
    return str(compiled), dict(compiled.params)


def _fetch_in_session(engine: Engine, statements: Sequence[Statement], params: Mapping[str, Any]) -> list[Rows]:
    with unit_of_work(engine) as session:
        return [list(session.execute(statement, params).mappings()) for statement in statements]


async def _fetch_on_pool(
    pool: ReadPool, dialect: Dialect, statements: Sequence[Statement], params: Mapping[str, Any]
) -> list[Rows]:
    rows: list[Rows] = []
    async with pool.pool.connection() as connection, connection.cursor() as cursor:
        for statement in statements:
            sql, fixed = _compiled(statement, dialect)
            await cursor.execute(sql, {**fixed, **params})
            rows.append(list(await cursor.fetchall()))
    return rows


async def fetch(request: Request, statements: Sequence[Statement], params: Mapping[str, Any]) -> list[Rows]:
    """The rows of each statement: a public read on a streaming replica when one is in use
    (``zdb.db_routing``; in a unit of work in the threadpool), else on the read pool when the
    application has one for this loop, otherwise in a unit of work in the threadpool."""
    engine = reading_engine(request)
    pool: ReadPool | None = request.app.state.read_pool
    if engine is not request.app.state.engine:  # a replica's (zdb.db_routing): its sessions
        try:
            return await run_in_threadpool(_fetch_in_session, engine, statements, params)
        except OperationalError:
            # the replica went away since its last measurement: skipped from now on, and this
            # read asked again of the primary (it is only a read)
            replica_failed(request, engine)
            engine = request.app.state.engine
    if pool is None or not pool.serves_this_loop():
        return await run_in_threadpool(_fetch_in_session, engine, statements, params)
    return await _fetch_on_pool(pool, engine.dialect, statements, params)


async def player_card_answer(request: Request, caller: Principal, pkz: int, at: date | None) -> Response:
    player, memberships, history = await fetch(request, _CARD, {"pkz": pkz})
    first = player[0] if player else None
    if first is not None and first["merged_into"] is not None:
        # A merged record's number points at the survivor forever (RFC 9110 §15.4.9: method kept).
        path = f"{request.url.path.rsplit('/', 1)[0]}/{first['merged_into']}"
        return RedirectResponse(str(request.url.replace(path=path)), status_code=308)
    card = card_fields(pkz, first, memberships, history, viewer=caller, at=at)
    assert first is not None  # card_fields refuses a player who does not exist
    await _mark_provisional(request, card["history"])
    return conditional_bytes(request, to_json(card), card["rating_changed_at"], results_stamp_of(first))


def _provisional_in_session(engine: Engine, tournament_ids: list[int], days: int) -> dict[int, Any]:
    with unit_of_work(engine) as session:
        marks = provisional_marks(session, tournament_ids, today=datetime.now(UTC).date(), days=days)
        return {tid: None if m is None else provisional_out(m) for tid, m in marks.items()}


async def _mark_provisional(request: Request, history: list[dict[str, Any]]) -> None:
    """Each tournament of the card says whether its evaluation is still provisional, and why
    (``zdb.complaints.periods``): a few small queries beside the card's one."""
    ids = [e["tournament_id"] for e in history if e["tournament_id"] is not None]
    days = request.app.state.settings.complaint_days
    marks = await run_in_threadpool(_provisional_in_session, request.app.state.engine, ids, days) if ids else {}
    for entry in history:  # every entry has the field, null where it is no tournament's
        entry["provisional"] = None if entry["tournament_id"] is None else marks.get(entry["tournament_id"])


async def club_ratings_answer(
    request: Request, caller: Principal, code: str, *, changed_since: datetime | None, limit: int, offset: int
) -> Response:
    postgres = is_postgres(request.app.state.engine)
    params = club_params(postgres, code, changed_since=changed_since, limit=limit, offset=offset)
    rows_sql, beyond_sql = _club(postgres, changed_since=changed_since is not None)
    [rows] = await fetch(request, (rows_sql,), params)
    beyond = None if rows else (await fetch(request, (beyond_sql,), params))[0][0]
    items, total, changed = club_page_fields(code, rows, beyond, caller)
    if items:
        days = request.app.state.settings.complaint_days
        await run_in_threadpool(_club_marks_in_session, request.app.state.engine, items, days)
    stamps = rows[0] if beyond is None else beyond  # every row carries the recalculation's stamp
    page = {"items": items, "total": total, "limit": limit, "offset": offset}
    return conditional_bytes(request, to_json(page), changed, results_stamp_of(stamps))


def _club_marks_in_session(engine: Engine, items: list[dict[str, Any]], days: int) -> None:
    """Each member of the page says whether his rating rests on a provisional evaluation, and
    why (``zdb.ratings.provisional_rows``): two small queries for the page beside the list's one."""
    with unit_of_work(engine) as session:
        mark_provisional(session, items, days=days)


def _club_listed_in_session(
    engine: Engine,
    caller: Principal,
    code: str,
    *,
    at: date | None,
    edition: str | None,
    limit: int,
    offset: int,
    days: int,
) -> tuple[bytes, list[datetime | None]]:
    with unit_of_work(engine) as session:
        source = list_source(session, at=at, edition=edition)
        items, total, changed = club_ratings_from_source(
            session, code, caller, source, limit=limit, offset=offset, complaint_days=days
        )
        page = {"items": items, "total": total, "limit": limit, "offset": offset}
        # a late tournament moves the history, an office's change the memberships of the day
        return to_json(page), [changed, results_stamp(session), last_write_at(session)]


async def club_listed_answer(
    request: Request,
    caller: Principal,
    code: str,
    *,
    at: date | None,
    edition: str | None,
    changed_since: datetime | None,
    limit: int,
    offset: int,
) -> Response:
    """The club pull as of a day or as published: not a hot read, the source decides the query."""
    if changed_since is not None:
        # changed_since polls the live list; a list as of a day or as published does not move
        problem = ValidationProblem("query.changed_since", "polls the live list: not with at= or edition=")
        raise ValidationError([problem])
    body, stamps = await run_in_threadpool(
        _club_listed_in_session,
        reading_engine(request),
        caller,
        code,
        at=at,
        edition=edition,
        limit=limit,
        offset=offset,
        days=request.app.state.settings.complaint_days,
    )
    return conditional_bytes(request, body, *stamps)
