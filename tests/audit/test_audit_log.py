"""The audit log's one writer and one reader, called directly on both databases: every entry
has the one shape of detail (by, before, after, more), the bulk writer writes the same shape,
and the reader names the actor by the token's label."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from zdb.audit.models import AuditEntry
from zdb.audit.reader import AuditFilter, audit_page, entries_about
from zdb.audit.writer import record_entries, record_entry
from zdb.auth.service import create_token
from zdb.db import engine_for, unit_of_work


def _details(url: str, action: str) -> list[dict[str, object] | None]:
    with unit_of_work(engine_for(url)) as session:
        query = select(AuditEntry.detail).where(AuditEntry.action == action).order_by(AuditEntry.id)
        return list(session.execute(query).scalars())


def test_a_token_made_at_the_command_line_is_recorded_by_no_one_with_its_values_after(database_url: str) -> None:
    with unit_of_work(engine_for(database_url)) as session:
        create_token(session, "admin", label="Geschäftsstelle")
    assert _details(database_url, "token.create") == [
        {"by": None, "before": None, "after": {"role": "admin", "scope": None}}
    ]


def test_a_write_by_a_token_names_its_label_and_turns_dates_into_text(database_url: str) -> None:
    with unit_of_work(engine_for(database_url)) as session:
        token = create_token(session, "admin", label="Anna, Geschäftsstelle").token
        record_entry(
            session,
            token.id,
            "player.edit",
            "player 10000001",
            before={"birth_date": date(1990, 5, 17)},
            after={"birth_date": date(2010, 5, 17)},
            membership=7,
        )
    assert _details(database_url, "player.edit") == [
        {
            "by": "Anna, Geschäftsstelle",
            "before": {"birth_date": "1990-05-17"},
            "after": {"birth_date": "2010-05-17"},
            "membership": 7,
        }
    ]
    with unit_of_work(engine_for(database_url)) as session:
        [(at, action, detail)] = session.execute(entries_about("player 10000001")).all()
        page, total, newest = audit_page(session, AuditFilter(actor="Anna, Geschäftsstelle"), limit=10, offset=0)
    assert action == "player.edit" and detail["membership"] == 7 and newest == at
    # the token's own entry has no actor; the edit is the only entry by Anna
    assert total == 1 and [(entry.action, label) for entry, label in page] == [("player.edit", "Anna, Geschäftsstelle")]


def test_the_bulk_writer_writes_the_same_shape(database_url: str) -> None:
    with unit_of_work(engine_for(database_url)) as session:
        record_entries(
            session,
            None,
            [
                ("list.person", "player 1", {"surname": "Meier"}, {"surname": "Maier"}, {"list_date": "2026-01-01"}),
                ("list.link", "player 2", None, {"external_id": "4711"}, {"list_date": "2026-01-01"}),
            ],
        )
    assert _details(database_url, "list.person") == [
        {"by": None, "before": {"surname": "Meier"}, "after": {"surname": "Maier"}, "list_date": "2026-01-01"}
    ]
    assert _details(database_url, "list.link") == [
        {"by": None, "before": None, "after": {"external_id": "4711"}, "list_date": "2026-01-01"}
    ]


def test_a_more_field_never_overwrites_the_shapes_own(database_url: str) -> None:
    with unit_of_work(engine_for(database_url)) as session, pytest.raises(ValueError, match="by"):
        record_entry(session, None, "edition.publish", "edition 2026-1", by="someone")
