"""The bulk seam (``zdb.bulk``) on both backends: COPY text lines, interleaved copies, grouped
deletes and streamed reads store and return what the ORM would; a COPY the server refuses, or
whose writer raises, stores nothing and raises its typed error, whether the caller or a thread
of its own sends the data."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest
from sqlalchemy import Float, cast, func, select, text
from sqlalchemy.exc import DataError, IntegrityError

from tests.conftest import VECTORS
from tests.db.scenario import submit
from zdb.bulk import (
    TextCopies,
    copy_rows,
    copy_text,
    escape_copy_text,
    foreign_keys_checked_at_end,
    keys_table,
    stream_rows,
)
from zdb.db import engine_for, unit_of_work
from zdb.players.models import Player
from zdb.recalculation.copy_lines import EVALUATION_COLUMNS, HISTORY_COLUMNS
from zdb.recalculation.store import delete_rows
from zdb.timeline.models import Evaluation, HistoryRow, InitialState
from zdb.tournaments.models import GameRow, Participation

REPLAY = VECTORS["replays"][0]


def _players(url: str) -> list[int]:
    submit(url, {"initial_states": {}, "events": REPLAY["events"]})
    with unit_of_work(engine_for(url)) as session:
        return sorted(session.execute(select(Player.pkz)).scalars())


def _history_line(pkz: int, ident: int, text: str = "ABC", leftover: str = "\\N", flag: str = "1") -> str:
    """A line of ``copy_lines.HISTORY_COLUMNS``: tournament ``ident`` (version 1), 1500-3 to 1510-4."""
    key = f"2026-01-0{1 + ident % 9}\t1\t{escape_copy_text(text)}\t{ident}\t{ident}\t1\t{pkz}"
    return f"{key}\t1500\t3\t\\N\t1510\t4\t{leftover}\t{flag}\n"


def test_copied_lines_read_back_as_the_orm_wrote_them(database_url: str) -> None:
    pkz = _players(database_url)[0]
    leftover = '[[7,"2025-05-04",1480,0.5,false]]'
    with (
        unit_of_work(engine_for(database_url)) as session,
        copy_text(session, HistoryRow.__tablename__, HISTORY_COLUMNS) as write,
    ):
        write(_history_line(pkz, 1, "A\tB\\C\nD", leftover, "0") + _history_line(pkz, 2, flag="\\N"))
    with unit_of_work(engine_for(database_url)) as session:
        rows = {r.event_id: r for r in session.execute(select(HistoryRow)).scalars()}
        assert rows[1].event_text == "A\tB\\C\nD"
        assert rows[1].event_date == date(2026, 1, 2)
        assert rows[1].old_leftover is None
        assert rows[1].new_leftover == [[7, "2025-05-04", 1480, 0.5, False]]
        assert rows[1].evaluated is False
        assert (rows[2].old_rating, rows[2].old_index, rows[2].new_rating, rows[2].evaluated) == (1500, 3, 1510, None)
        h = HistoryRow
        streamed = list(stream_rows(session, select(h.event_id, h.event_text, h.new_leftover, h.evaluated)))
        assert sorted(streamed) == [
            (1, "A\tB\\C\nD", [[7, "2025-05-04", 1480, 0.5, False]], False),
            (2, "ABC", None, None),
        ]


def test_interleaved_copies_deliver_every_line(database_url: str) -> None:
    players = _players(database_url)
    columns: dict[str, Sequence[str]] = {
        HistoryRow.__tablename__: HISTORY_COLUMNS,
        InitialState.__tablename__: ("player_pkz", "rating_index"),
    }
    with (
        unit_of_work(engine_for(database_url)) as session,
        TextCopies(session, columns, switch_at=100) as copies,  # switches tables every few lines
    ):
        for ident in range(60):
            copies.write(HistoryRow.__tablename__, _history_line(players[ident % len(players)], ident))
            if ident < len(players):
                copies.write(InitialState.__tablename__, f"{players[ident]}\t{ident}\n")
    with unit_of_work(engine_for(database_url)) as session:
        assert session.execute(select(func.count()).select_from(HistoryRow)).scalar() == 60
        stored = session.execute(select(InitialState.player_pkz, InitialState.rating_index))
        states = {row[0]: row[1] for row in stored}
        assert states == {pkz: k for k, pkz in enumerate(players)}


def test_a_paused_copy_frees_the_connection_and_keeps_every_line(database_url: str) -> None:
    # A from-scratch run reads its next window of tournaments between copied lines: on
    # PostgreSQL a statement on a connection in COPY fails, so the copy must end first.
    players = _players(database_url)
    columns = {HistoryRow.__tablename__: HISTORY_COLUMNS, InitialState.__tablename__: ("player_pkz", "rating_index")}
    count = select(func.count()).select_from(HistoryRow)
    lines = [_history_line(players[k % len(players)], k) for k in range(3)]
    with unit_of_work(engine_for(database_url)) as session:
        with TextCopies(session, columns, switch_at=len(lines[0]) + 1) as copies:
            copies.write(HistoryRow.__tablename__, lines[0])  # waits
            copies.write(HistoryRow.__tablename__, lines[1])  # enough to wait: the copy is now open
            copies.write(InitialState.__tablename__, f"{players[0]}\t7\n")  # waits
            copies.pause()
            assert session.execute(count).scalar() == 2
            copies.write(HistoryRow.__tablename__, lines[2])  # waits: the copy was ended
            assert session.execute(count).scalar() == 2
        assert session.execute(count).scalar() == 3
        stored = session.execute(select(InitialState.player_pkz, InitialState.rating_index))
        assert [tuple(row) for row in stored] == [(players[0], 7)]


#: good lines before a bad one: about 1.3 MB, some forty of psycopg's 32 KB blocks, more than a
#: socket's buffer holds, so that the server is still storing when the bad line is sent
_MANY = 20_000


@pytest.mark.parametrize("queued", [False, True], ids=["sent-by-caller", "queued"])
@pytest.mark.parametrize(
    ("bad", "error"),
    [("duplicate", IntegrityError), ("outsider", IntegrityError), ("value", DataError)],
)
def test_a_copy_the_server_refuses_raises_its_error_and_stores_nothing(
    postgres_url: str, queued: bool, bad: str, error: type[Exception]
) -> None:
    # The server refuses a COPY when it ends (PQgetResult after the end of the data), whatever
    # was sent after the bad line; the refusal must come back as SQLAlchemy's class for it.
    players = _players(postgres_url)
    lines = "".join(_history_line(players[k % len(players)], k) for k in range(_MANY))
    wrong = {
        "duplicate": _history_line(players[0], 0),  # the first line's key again
        "outsider": _history_line(max(players) + 1, _MANY),  # no such player: its foreign key
        "value": _history_line(players[0], _MANY).replace("\t1500\t", "\tfifteen\t", 1),
    }[bad]
    with (
        pytest.raises(error),
        unit_of_work(engine_for(postgres_url)) as session,
        copy_text(session, HistoryRow.__tablename__, HISTORY_COLUMNS, queued=queued) as write,
    ):
        write(lines)
        write(wrong)
        write(lines.replace("\t1500\t", "\t1501\t"))  # more after it: the server skips them
    with unit_of_work(engine_for(postgres_url)) as session:
        assert session.execute(select(func.count()).select_from(HistoryRow)).scalar_one() == 0


@pytest.mark.parametrize("queued", [False, True], ids=["sent-by-caller", "queued"])
def test_a_writer_that_raises_ends_its_copy_with_nothing_stored(postgres_url: str, queued: bool) -> None:
    players = _players(postgres_url)
    lines = "".join(_history_line(players[k % len(players)], k) for k in range(_MANY))
    count = select(func.count()).select_from(HistoryRow)
    with (
        pytest.raises(LookupError, match="the caller's own"),
        unit_of_work(engine_for(postgres_url)) as session,
        copy_text(session, HistoryRow.__tablename__, HISTORY_COLUMNS, queued=queued) as write,
    ):
        write(lines)
        raise LookupError("the caller's own")
    with unit_of_work(engine_for(postgres_url)) as session:
        assert session.execute(count).scalar_one() == 0
        with copy_text(session, HistoryRow.__tablename__, HISTORY_COLUMNS, queued=queued) as write:
            write(lines)  # the pool's connection copies again
        assert session.execute(count).scalar_one() == _MANY


def test_delete_rows_removes_exactly_the_given_keys(database_url: str) -> None:
    players = _players(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        with copy_text(session, HistoryRow.__tablename__, HISTORY_COLUMNS) as write:
            write("".join(_history_line(pkz, ident) for ident in range(5) for pkz in players))
            # keys that differ from doomed ones only in the case of their text
            write("".join(_history_line(pkz, 3, "abc") for pkz in players))
        doomed = [(date(2026, 1, 2), 1, "ABC", 1, players[0]), (date(2026, 1, 4), 1, "ABC", 3, players[-1])]
        doomed.append((date(2026, 1, 4), 1, "ABC", 3, players[0]))
        key = ("event_date", "event_phase", "event_text", "event_id", "player_pkz")
        delete_rows(session, HistoryRow.__table__, key, [])  # type: ignore[arg-type]
        delete_rows(session, HistoryRow.__table__, key, doomed)  # type: ignore[arg-type]
    with unit_of_work(engine_for(database_url)) as session:
        h = HistoryRow
        keys = select(h.event_date, h.event_phase, h.event_text, h.event_id, h.player_pkz)
        left = {tuple(row) for row in session.execute(keys)}
        assert len(left) == 6 * len(players) - 3
        assert not left & set(doomed)
        assert {(date(2026, 1, 4), 1, "abc", 3, pkz) for pkz in players} <= left


def test_copied_decimals_read_back_as_the_nearest_double(database_url: str) -> None:
    # SQLite's own text-to-real conversion stores "0.810363" as 0.8103629999999999.
    _players(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        p = Participation
        tid, version, pkz = session.execute(select(p.tournament_id, p.version, p.player_pkz).limit(1)).one()
        figures = [
            tid,
            version,
            pkz,
            0,
            "wo2026",
            "1",
            "established",
            "0",
            1586,
            20,
            "4.5",
            5,
            0,
            "0.810363",
            "\\N",
            "12.3",
            1452,
            "0",
            1592,
            21,
            "1",
            0,
            0,
        ]
        with copy_text(session, Evaluation.__tablename__, EVALUATION_COLUMNS) as write:
            write("\t".join(map(str, figures)) + "\n")
    with unit_of_work(engine_for(database_url)) as session:
        e = Evaluation
        stored = session.execute(select(e.we, cast(e.w, Float), cast(e.k, Float), e.e)).one()
        assert tuple(stored) == (0.810363, 4.5, 12.3, None)


def test_a_keys_table_joins_exactly_its_keys(postgres_url: str) -> None:
    players = _players(postgres_url)
    p = Participation.__table__
    with unit_of_work(engine_for(postgres_url)) as session:
        every = {tuple(row) for row in session.execute(select(p.c.tournament_id, p.c.version, p.c.player_pkz))}
        chosen = [*sorted(every)[::2], (999_999, 1, players[0])]  # and one key that matches nothing

        def joined(keys: list[tuple[int, int, int]]) -> set[tuple[int, int, int]]:
            table = keys_table([p.c.tournament_id, p.c.version, p.c.player_pkz], keys)
            on = (p.c.tournament_id == table.c.tournament_id) & (p.c.version == table.c.version)
            on &= p.c.player_pkz == table.c.player_pkz
            query = select(p.c.tournament_id, p.c.version, p.c.player_pkz).join(table, on)
            return {tuple(row) for row in session.execute(query)}  # type: ignore[misc]

        assert joined(chosen) == set(sorted(every)[::2])
        assert joined([]) == set()


def test_a_streamed_statement_of_a_known_shape_reads_its_own_values(database_url: str) -> None:
    """``stream_rows`` compiles a statement's shape once: the second statement of that shape
    must still bind its own values (a scalar, an array of keys, an IN list of another length)."""
    _players(database_url)
    p = Participation.__table__
    with unit_of_work(engine_for(database_url)) as session:
        every = sorted(tuple(row) for row in session.execute(select(p.c.tournament_id, p.c.version, p.c.player_pkz)))
        tournaments = sorted({key[0] for key in every})
        assert len(tournaments) >= 2
        for tid in tournaments[:2]:
            query = select(p.c.player_pkz).where(p.c.tournament_id == tid).order_by(p.c.player_pkz)
            for server_side in (True, False):
                assert [row[0] for row in stream_rows(session, query, server_side=server_side)] == [
                    key[2] for key in every if key[0] == tid
                ]
        for wanted in (tournaments[:1], tournaments[:2], tournaments[1:2]):
            query = select(p.c.player_pkz).where(p.c.tournament_id.in_(wanted)).order_by(p.c.player_pkz)
            assert [row[0] for row in stream_rows(session, query)] == sorted(k[2] for k in every if k[0] in wanted)
        if database_url.startswith("postgresql"):
            for keys in (every[:3], every[3:4]):
                table = keys_table([p.c.tournament_id, p.c.version, p.c.player_pkz], keys)
                on = (p.c.tournament_id == table.c.tournament_id) & (p.c.version == table.c.version)
                query = select(p.c.player_pkz).join(table, on & (p.c.player_pkz == table.c.player_pkz))
                assert sorted(row[0] for row in stream_rows(session, query)) == sorted(k[2] for k in keys)


_GAME_COLUMNS = ("tournament_id", "version", "seq", "round", "board", "white_pkz", "black_pkz", "result")
_KEYS_OF_LOADED_TABLES = text(
    "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
    "WHERE contype = 'f' AND conrelid IN ('games'::regclass, 'participants'::regclass) ORDER BY conname"
)


def _a_tournament_and_an_outsider(url: str) -> tuple[int, int, int, int]:
    """(tournament, two of its players, a player outside it)."""
    players = _players(url)
    with unit_of_work(engine_for(url)) as session:
        tid = session.execute(select(func.min(Participation.tournament_id))).scalar_one()
        inside = sorted(
            session.execute(select(Participation.player_pkz).where(Participation.tournament_id == tid)).scalars()
        )
    outsider = next(pkz for pkz in players if pkz not in inside)
    return tid, inside[0], inside[1], outsider


def test_keys_checked_at_the_end_refuse_a_game_of_an_outsider(database_url: str) -> None:
    tid, white, _, outsider = _a_tournament_and_an_outsider(database_url)
    with unit_of_work(engine_for(database_url)) as session:
        before = session.execute(select(func.count()).select_from(GameRow)).scalar_one()
    bad = (tid, 1, 999, 1, 1, white, outsider, "1-0")  # the outsider did not play in it
    tables = [Participation.__table__, GameRow.__table__]
    # refused when the block ends (PostgreSQL) or at the insert (SQLite, keys checked per row)
    with (
        pytest.raises(IntegrityError),
        unit_of_work(engine_for(database_url)) as session,
        foreign_keys_checked_at_end(session, tables),  # type: ignore[arg-type]
    ):
        copy_rows(session, GameRow.__table__, _GAME_COLUMNS, [bad])  # type: ignore[arg-type]
    with unit_of_work(engine_for(database_url)) as session:
        assert session.execute(select(func.count()).select_from(GameRow)).scalar_one() == before


def test_keys_checked_at_the_end_come_back_as_the_migrations_made_them(postgres_url: str) -> None:
    tid, white, black, _ = _a_tournament_and_an_outsider(postgres_url)
    with unit_of_work(engine_for(postgres_url)) as session:
        migrated = session.execute(_KEYS_OF_LOADED_TABLES).all()
        games = session.execute(select(func.count()).select_from(GameRow)).scalar_one()
    assert len(migrated) == 4  # participants: tournament version, player; games: white, black
    with (
        unit_of_work(engine_for(postgres_url)) as session,
        foreign_keys_checked_at_end(session, [Participation.__table__, GameRow.__table__]),  # type: ignore[list-item]
    ):
        assert session.execute(_KEYS_OF_LOADED_TABLES).all() == []  # checked at the end only
        good = (tid, 1, 999, 1, 1, white, black, "1/2-1/2")
        copy_rows(session, GameRow.__table__, _GAME_COLUMNS, [good])  # type: ignore[arg-type]
    with unit_of_work(engine_for(postgres_url)) as session:
        assert session.execute(_KEYS_OF_LOADED_TABLES).all() == migrated
        assert session.execute(select(func.count()).select_from(GameRow)).scalar_one() == games + 1


_PLANNER = text(
    "SELECT current_setting('enable_mergejoin'), current_setting('enable_nestloop'),"
    " current_setting('maintenance_work_mem')"
)


def test_the_key_checks_leave_the_planner_as_they_found_it(postgres_url: str) -> None:
    """The checks at the end force a hash join for themselves only: the rest of the transaction
    plans as configured."""
    with unit_of_work(engine_for(postgres_url)) as session:
        before = session.execute(_PLANNER).one()
        with foreign_keys_checked_at_end(session, [Participation.__table__, GameRow.__table__]):  # type: ignore[list-item]
            pass
        assert session.execute(_PLANNER).one() == before
        assert before[:2] == ("on", "on")
