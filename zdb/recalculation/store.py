"""All SQL of the stored ratings: reading the snapshot the engine needs, writing its results.

Player ids in the engine are person numbers as text; the history's primary key is the order
key of spec §2, so the stored steps from a position on are one ordered range scan.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Float,
    Table,
    and_,
    cast,
    delete,
    func,
    literal_column,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.orm import Session

from zdb.bulk import TextCopies, copy_rows, keys_table, stream_rows
from zdb.db import is_postgres
from zdb.rating import (
    CONVERSIONS,
    EMPTY_STATE,
    Event,
    OrderKey,
    PlayerId,
    PlayerState,
    ReportRow,
    StartRating,
    Step,
    Tournament,
    order_key,
)
from zdb.recalculation.batch_rows import BatchRows
from zdb.recalculation.copy_lines import EVALUATION_COLUMNS, HISTORY_COLUMNS, HistoryLines, evaluation_lines
from zdb.timeline.models import Evaluation, HistoryRow, PlayerRating, StartRatingRow
from zdb.timeline.stored_state import encode_leftover, state_from_columns

__all__ = [
    "EVALUATION_VALUES",
    "STEP_LINES",
    "STEP_SWITCH_AT",
    "STORED_ROW",
    "DbStep",
    "delete_all_results",
    "delete_evaluations",
    "delete_history_at",
    "delete_rows",
    "evaluation_rows",
    "history_rows",
    "iter_stored_steps",
    "replace_current_ratings",
    "row_holds",
    "step_copies",
    "stored_evaluations",
    "stored_rows",
    "write_current_ratings",
    "write_steps",
]

_CONVERSIONS = {conversion.name: conversion for conversion in CONVERSIONS}
_KEY = (HistoryRow.event_date, HistoryRow.event_phase, HistoryRow.event_text, HistoryRow.event_id)


class _StoredStates(Mapping[PlayerId, PlayerState]):
    """Players' states of a stored step, decoded from their history rows only when asked for:
    the replay reads most stored steps' players but none of their states (and their rows are
    read from the database only for the steps it applies again, ``DbStep.row``)."""

    __slots__ = ("_at", "_step")

    def __init__(self, step: DbStep, at: int) -> None:
        self._step = step
        self._at = at  # the rating column; index and leftover follow

    def __getitem__(self, pid: PlayerId) -> PlayerState:
        row, at = self._step.row(pid), self._at
        return state_from_columns(row[at], row[at + 1], row[at + 2])

    def __contains__(self, pid: object) -> bool:
        return pid in self._step.players

    def __iter__(self) -> Iterator[PlayerId]:
        return iter(self._step.players)

    def __len__(self) -> int:
        return len(self._step.players)


# Columns of a history row as ``_history_steps`` reads it.
_OLD_AT, _NEW_AT, _FLAG_AT = 6, 9, 12


def row_holds(row: tuple[Any, ...], before: PlayerState, after: PlayerState, flag: bool | None) -> bool:
    """Whether a stored history row (``STORED_ROW``'s columns) holds these states and
    ``evaluated`` flag. Compared column by column: no stored state is decoded (an incremental
    run compares every row of every step it applies again, most of which stand)."""
    return (
        row[_OLD_AT] == before.rating
        and row[_OLD_AT + 1] == before.index
        and row[_NEW_AT] == after.rating
        and row[_NEW_AT + 1] == after.index
        and row[_FLAG_AT] == flag
        and (row[_OLD_AT + 2] or None) == encode_leftover(before.leftover)
        and (row[_NEW_AT + 2] or None) == encode_leftover(after.leftover)
    )


@dataclass(slots=True)
class DbStep:
    """A stored step read back from the history: its players, and their states before and
    after. The step is read as its key and players only; a player's history row is read when
    first asked for (``row``: the replay applies the step again, or mending compares it), and
    the event itself only if the incremental replay asks for it (re-evaluation)."""

    key: OrderKey
    #: the players of the stored step (its history rows' players), in no particular order
    players: dict[PlayerId, None] = field(default_factory=dict)
    tournament_version: int | None = None
    loader: Callable[[int, int], Tournament] | None = None
    #: reads the history rows of this step (at least ``pid``'s) into it (``add_rows``)
    fetch: Callable[[DbStep, PlayerId], None] | None = None
    #: told once, when the event is first asked for (the replay applies this step again)
    on_load: Callable[[DbStep], None] | None = None
    _rows: dict[PlayerId, tuple[Any, ...]] = field(default_factory=dict)  # history rows read so far
    _event: Event | None = None

    @property
    def inputs(self) -> Mapping[PlayerId, PlayerState]:
        return _StoredStates(self, _OLD_AT)

    @property
    def outputs(self) -> Mapping[PlayerId, PlayerState]:
        return _StoredStates(self, _NEW_AT)

    @property
    def rows_read(self) -> bool:
        """Whether every player's history row has been read."""
        return len(self._rows) == len(self.players)

    def add_rows(self, rows: Mapping[PlayerId, tuple[Any, ...]]) -> None:
        self._rows.update(rows)

    def row(self, pid: PlayerId) -> tuple[Any, ...]:
        """``pid``'s stored history row at this step (a player of the step)."""
        row = self._rows.get(pid)
        if row is None:
            if pid not in self.players or self.fetch is None:
                raise KeyError(pid)
            self.fetch(self, pid)
            row = self._rows[pid]
        return row

    def holds(self, pid: PlayerId, before: PlayerState, after: PlayerState, flag: bool | None) -> bool:
        """Whether ``pid``'s stored row holds these states and ``evaluated`` flag."""
        return row_holds(self.row(pid), before, after, flag)

    @property
    def loaded(self) -> bool:
        """Whether the event was asked for (the replay applies this step again)."""
        return self._event is not None

    @property
    def event(self) -> Event:
        if self._event is None:
            day, phase, name, ident = self.key
            if phase == 1:
                assert self.loader is not None and self.tournament_version is not None
                self._event = self.loader(ident, self.tournament_version)
            elif phase == 2:
                self._event = _CONVERSIONS[name]
            else:
                (after,) = self.outputs.values()
                assert after.rating is not None
                self._event = StartRating(name, day, after.rating, after.index)
            if self.on_load is not None:
                self.on_load(self)
        return self._event


def iter_stored_steps(
    session: Session,
    start: OrderKey,
    loader: Callable[[int, int], Tournament],
    fetch: Callable[[DbStep, PlayerId], None],
    batch: int = 1000,
) -> Iterator[DbStep]:
    """The stored steps from ``start`` on, in order, streamed from the history as their keys
    and players (``fetch`` reads a step's rows when they are asked for, ``stored_rows``). A
    conversion is a step even where it converted nobody (it has no history rows then)."""
    conversions = sorted(order_key(c) for c in CONVERSIONS if order_key(c) >= start)
    for step in _history_steps(session, start, loader, fetch, batch):
        while conversions and conversions[0] < step.key:
            yield DbStep(conversions.pop(0))
        if conversions and conversions[0] == step.key:
            conversions.pop(0)
        yield step
    for key in conversions:
        yield DbStep(key)


def _history_steps(
    session: Session,
    start: OrderKey,
    loader: Callable[[int, int], Tournament],
    fetch: Callable[[DbStep, PlayerId], None],
    batch: int,
) -> Iterator[DbStep]:
    # One row per step, its players aggregated by the server: a late weekend open's walk over a
    # year of the time line reads a few thousand steps instead of every history row of them,
    # and the rows of the few hundred it applies again later (``stored_rows``).
    h = HistoryRow
    postgres = is_postgres(session)
    players = func.array_agg(h.player_pkz) if postgres else func.group_concat(h.player_pkz)
    query = (
        select(*_KEY, func.max(h.tournament_version), players)
        .where(tuple_(*_KEY) >= start)
        .group_by(*_KEY)
        .order_by(*_KEY)
    )
    for day, phase, name, ident, version, pkzs in stream_rows(session, query, batch):
        pids = map(str, pkzs) if postgres else str(pkzs).split(",")
        yield DbStep((day, phase, name, ident), dict.fromkeys(pids), version, loader, fetch)


#: the history columns of a stored row, as ``DbStep`` holds them (``_OLD_AT`` …) and the stored
#: tail reads them (``stored_tail``)
STORED_ROW = (
    *_KEY,
    HistoryRow.player_pkz,
    HistoryRow.tournament_version,
    HistoryRow.old_rating,
    HistoryRow.old_index,
    HistoryRow.old_leftover,
    HistoryRow.new_rating,
    HistoryRow.new_index,
    HistoryRow.new_leftover,
    HistoryRow.evaluated,
)


def stored_rows(
    session: Session, steps: Sequence[OrderKey], players: Sequence[tuple[OrderKey, PlayerId]] = ()
) -> dict[OrderKey, dict[PlayerId, tuple[Any, ...]]]:
    """The stored history rows of whole ``steps`` and of single ``players`` at a step, per
    step and player (the rows of ``DbStep``)."""
    found: dict[OrderKey, dict[PlayerId, tuple[Any, ...]]] = {}
    h = HistoryRow.__table__
    queries = []
    if is_postgres(session):
        # One statement per kind, the keys sent as arrays and joined to the primary key.
        key_columns = [h.c.event_date, h.c.event_phase, h.c.event_text, h.c.event_id]
        if steps:
            chosen = keys_table(key_columns, steps)
            queries.append(select(*STORED_ROW).join(chosen, and_(*(c == chosen.c[c.key] for c in key_columns))))
        if players:
            chosen = keys_table([*key_columns, h.c.player_pkz], [(*key, int(pid)) for key, pid in players])
            on = and_(*(c == chosen.c[c.key] for c in [*key_columns, h.c.player_pkz]))
            queries.append(select(*STORED_ROW).join(chosen, on))
    else:
        wanted = list(steps)
        queries += [
            select(*STORED_ROW).where(tuple_(*_KEY).in_(wanted[k : k + 500])) for k in range(0, len(wanted), 500)
        ]
        pairs = [(*key, int(pid)) for key, pid in players]
        with_player = tuple_(*_KEY, HistoryRow.player_pkz)
        queries += [select(*STORED_ROW).where(with_player.in_(pairs[k : k + 500])) for k in range(0, len(pairs), 500)]
    for query in queries:
        for row in stream_rows(session, query, server_side=False):
            found.setdefault((row[0], row[1], row[2], row[3]), {})[str(row[4])] = row
    return found


def history_rows(step: Step, version: int | None) -> Iterator[tuple[Any, ...]]:
    day, phase, name, ident = step.key
    stored = {row.pid: row.stored for row in step.evaluation.rows} if step.evaluation is not None else {}
    tournament_id = ident if isinstance(step.event, Tournament) else None
    for pid, old in step.inputs.items():
        new = step.outputs[pid]
        yield (
            day,
            phase,
            name,
            ident,
            int(pid),
            tournament_id,
            version,
            old.rating,
            old.index,
            encode_leftover(old.leftover),
            new.rating,
            new.index,
            encode_leftover(new.leftover),
            stored.get(pid) if tournament_id is not None else None,
        )


def evaluation_rows(
    tournament_id: int, version: int, rule_set: str, rows: Sequence[ReportRow]
) -> Iterator[tuple[Any, ...]]:
    for position, r in enumerate(rows):
        yield (
            tournament_id,
            version,
            int(r.pid),
            position,
            rule_set,
            r.member,
            r.stage.value,
            r.fide_start,
            r.r0,
            r.i0,
            r.w,
            r.n,
            r.unrated_games,
            r.we,
            r.e,
            r.k,
            r.rh,
            r.sonder,
            r.rn,
            r.i_new,
            r.stored,
            r.leftover_used,
            r.leftover_stored,
        )


#: history lines gathered before they go to the copies
STEP_LINES = 8192
#: participants of whole tournament steps encoded together (``BatchRows``)
BATCH_ROWS = 32768
#: characters of one table's lines that wait while another table is being copied (``TextCopies``)
STEP_SWITCH_AT = 8 << 20


def step_copies(session: Session, *, into: Callable[[str], str] = str) -> TextCopies:
    """The copies ``write_steps`` writes into (history and evaluation rows; ``into`` as there),
    for a caller that reads between steps: it pauses them first (``TextCopies.pause``)."""
    tables: dict[str, Sequence[str]] = {
        into(HistoryRow.__tablename__): HISTORY_COLUMNS,
        into(Evaluation.__tablename__): EVALUATION_COLUMNS,
    }
    # Sent from a thread of their own (``zdb.bulk._copy_in``): the engine computes the next steps
    # while the last are sent. Measured at scale 0.3 (``benchmarks/full_run_phases.py``, five
    # warm rounds beside main): the run's time handing rows over 0.73-1.47 s -> 0.27-0.46 s.
    return TextCopies(session, tables, STEP_SWITCH_AT, queued=True)


def write_steps(
    session: Session,
    steps: Iterable[tuple[Step, int | None]],
    only: Mapping[OrderKey, tuple[set[PlayerId] | None, set[PlayerId] | None]] | None = None,
    *,
    into: Callable[[str], str] = str,
    copies: TextCopies | None = None,
) -> None:
    """Insert the history rows and evaluation rows of ``steps`` (with each tournament's
    version); for a step in ``only``, just the rows of the players named there (history,
    evaluation; None: all of them). Rows are copied while ``steps`` is consumed, so a replay feeding it overlaps
    with the server storing them. ``into`` names the table that takes a table's rows (a copy
    being rebuilt, ``shadow_tables``). ``copies`` (from ``step_copies`` with the same
    ``into``, entered by the caller) carries the rows instead of copies of its own."""
    if copies is None:
        with step_copies(session, into=into) as own:
            _write_steps(own, steps, only or {}, into)
    else:
        _write_steps(copies, steps, only or {}, into)


def _write_steps(
    copies: TextCopies,
    steps: Iterable[tuple[Step, int | None]],
    chosen: Mapping[OrderKey, tuple[set[PlayerId] | None, set[PlayerId] | None]],
    into: Callable[[str], str],
) -> None:
    history = HistoryLines()
    history_table, evaluation_table = into(HistoryRow.__tablename__), into(Evaluation.__tablename__)
    lines: list[str] = []
    reports: list[str] = []
    # Whole tournament steps go as binary rows from their batches' columns where the server
    # takes them (PostgreSQL); the rest as text lines.
    batches = BatchRows() if copies.binary else None
    for step, version in steps:
        players, reported = chosen.get(step.key, (None, None))
        if batches is not None and players is None and reported is None and batches.add(step, version):
            if batches.rows >= BATCH_ROWS:
                _write_batches(copies, batches, history_table, evaluation_table)
                batches = BatchRows()
            continue
        lines += history.of(step, version, players)
        if step.evaluation is not None:
            assert version is not None
            reports.append(evaluation_lines(step.key[3], version, step, reported))
        if len(lines) >= STEP_LINES:
            copies.write(history_table, "".join(lines))
            copies.write(evaluation_table, "".join(reports))
            lines, reports = [], []
    if batches is not None:
        _write_batches(copies, batches, history_table, evaluation_table)
    copies.write(history_table, "".join(lines))
    copies.write(evaluation_table, "".join(reports))


def _write_batches(copies: TextCopies, batches: BatchRows, history_table: str, evaluation_table: str) -> None:
    history, evaluations = batches.encode()
    if history:
        copies.write(history_table, history)
        copies.write(evaluation_table, evaluations)


#: the stored report columns in the order of ``evaluation_rows`` (exact decimals as floats)
EVALUATION_VALUES = (
    Evaluation.tournament_id,
    Evaluation.version,
    Evaluation.player_pkz,
    Evaluation.position,
    Evaluation.rule_set,
    Evaluation.member,
    Evaluation.stage,
    Evaluation.fide_start,
    Evaluation.r0,
    Evaluation.i0,
    cast(Evaluation.w, Float),
    Evaluation.n,
    Evaluation.unrated_games,
    Evaluation.we,
    Evaluation.e,
    cast(Evaluation.k, Float),
    Evaluation.rh,
    Evaluation.sonder,
    Evaluation.rn,
    Evaluation.i_new,
    Evaluation.stored,
    Evaluation.leftover_used,
    Evaluation.leftover_stored,
)


def stored_evaluations(
    session: Session, versions: Iterable[tuple[int, int]], *, places: bool = False
) -> dict[tuple[int, int], dict[int, tuple[Any, ...]]]:
    """The stored report rows of the given (tournament id, version) pairs, per person number,
    as the tuples of ``evaluation_rows`` without the key; with ``places`` (PostgreSQL), each
    row's place (its ``ctid``) as its last value."""
    wanted = sorted(set(versions))
    found: dict[tuple[int, int], dict[int, tuple[Any, ...]]] = {key: {} for key in wanted}
    if not wanted:
        return found
    e = Evaluation
    if is_postgres(session):
        # One statement, the pairs joined as arrays: on a late weekend open's 750 tournaments,
        # under half the time of IN lists of pairs.
        chosen = keys_table([e.__table__.c.tournament_id, e.__table__.c.version], wanted)
        matching = and_(e.tournament_id == chosen.c.tournament_id, e.version == chosen.c.version)
        place: tuple[Any, ...] = (literal_column("evaluations.ctid::text"),) if places else ()
        queries = [select(*EVALUATION_VALUES, *place).join(chosen, matching)]
    else:  # IN lists of pairs: index ranges even without statistics
        key = tuple_(e.tournament_id, e.version)
        queries = [select(*EVALUATION_VALUES).where(key.in_(wanted[k : k + 500])) for k in range(0, len(wanted), 500)]
    for query in queries:
        for row in stream_rows(session, query, server_side=False):
            found[(row[0], row[1])][row[2]] = tuple(row[3:])
    return found


def delete_rows(session: Session, table: Table, columns: Sequence[str], keys: Sequence[tuple[Any, ...]]) -> None:
    """Delete the rows of ``table`` whose ``columns`` (a primary key) equal one of ``keys``.

    PostgreSQL: one statement, the keys sent as one array per column and joined to the primary
    key (an index look-up per key; on a late weekend open's 13,000 stale rows a fifth of the
    time of the grouped lists below). SQLite: keys grouped by all but their last column, each
    group one index range with an IN list (a long list of whole-key tuples would be planned as
    a sequential scan)."""
    if not keys:
        return
    if is_postgres(session):
        _delete_joined(session, table, columns, keys)
        return
    *prefix, last = (table.c[column] for column in columns)
    groups: dict[tuple[Any, ...], list[Any]] = {}
    for key in keys:
        groups.setdefault(key[:-1], []).append(key[-1])
    conditions = [
        and_(*(c == v for c, v in zip(prefix, group, strict=True)), last.in_(values))
        for group, values in groups.items()
    ]
    for start in range(0, len(conditions), 50):
        session.execute(delete(table).where(or_(*conditions[start : start + 50])))


def _delete_joined(session: Session, table: Table, columns: Sequence[str], keys: Sequence[tuple[Any, ...]]) -> None:
    chosen = keys_table([table.c[column] for column in columns], keys)
    session.execute(delete(table).where(and_(*(table.c[column] == chosen.c[column] for column in columns))))


def delete_history_at(session: Session, keys: Iterable[OrderKey]) -> None:
    """Delete the history rows of whole steps."""
    wanted = list(keys)
    for start in range(0, len(wanted), 1000):
        session.execute(delete(HistoryRow).where(tuple_(*_KEY).in_(wanted[start : start + 1000])))


def delete_evaluations(session: Session, tournament_ids: Iterable[int]) -> None:
    ids = list(set(tournament_ids))
    for start in range(0, len(ids), 5000):
        session.execute(delete(Evaluation).where(Evaluation.tournament_id.in_(ids[start : start + 5000])))


def delete_all_results(session: Session, *, rebuilt: bool = False) -> None:
    """The history and the evaluations, unless ``rebuilt`` (their tables are replaced whole,
    ``shadow_tables``). Current ratings stay: ``replace_current_ratings`` rewrites only those
    that differ."""
    for model in () if rebuilt else (HistoryRow, Evaluation):
        session.execute(delete(model))
    session.execute(update(StartRatingRow).values(evaluated=False))


_RATING_COLUMNS = ("player_pkz", "rating", "rating_index", "leftover")


def replace_current_ratings(session: Session, states: Mapping[PlayerId, PlayerState]) -> int:
    """Make the stored current ratings those of ``states`` (every player's final state of a
    from-scratch run), rewriting only the rows that differ: a row that stands keeps its
    ``changed_at``, so the change feed (``/ratings/changes``) names only players whose rating
    did change. The number of players whose current state changed."""
    p = PlayerRating
    stored = {
        str(pkz): (rating, index, leftover or None)
        for pkz, rating, index, leftover in stream_rows(
            session, select(p.player_pkz, p.rating, p.rating_index, p.leftover)
        )
    }
    changed: dict[PlayerId, PlayerState] = {}
    for pid, state in states.items():
        had = stored.pop(pid, None)
        now = None if state == EMPTY_STATE else (state.rating, state.index, encode_leftover(state.leftover))
        if had != now:
            changed[pid] = state
    gone = [int(pid) for pid in stored]  # stored, but no longer anyone's state
    _delete_current_ratings(session, gone)
    write_current_ratings(session, changed)
    return len(changed) + len(gone)


def _delete_current_ratings(session: Session, pkzs: Sequence[int]) -> None:
    for start in range(0, len(pkzs), 5000):
        session.execute(delete(PlayerRating).where(PlayerRating.player_pkz.in_(pkzs[start : start + 5000])))


def write_current_ratings(session: Session, states: Mapping[PlayerId, PlayerState]) -> None:
    """Store the current state of the given players (their final states of the time line),
    replacing what is stored for them; a player without a state has no row."""
    _delete_current_ratings(session, [int(pid) for pid in states])
    rows = ((int(pid), s.rating, s.index, encode_leftover(s.leftover)) for pid, s in states.items() if s != EMPTY_STATE)
    copy_rows(session, PlayerRating.__table__, _RATING_COLUMNS, rows)  # type: ignore[arg-type]
