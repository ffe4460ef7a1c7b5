"""The outbox's relay: a message is written with its change or not at all, handed on once per
pass, taken by one of two relays at once, tried again after a growing pause when its handler
fails, and let go by a relay that died once its lease has passed."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.db import engine_for, unit_of_work
from zdb.outbox.models import OutboxMessage
from zdb.outbox.relay import LEASE, relay_due
from zdb.outbox.seam import clear_waker, enqueue, set_waker


def _messages(url: str) -> list[OutboxMessage]:
    with unit_of_work(engine_for(url)) as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def test_a_message_exists_exactly_when_its_change_is_committed(database_url: str) -> None:
    engine = engine_for(database_url)
    woken: list[int] = []
    set_waker(engine, lambda: woken.append(len(_messages(database_url))))
    try:
        with pytest.raises(RuntimeError), unit_of_work(engine) as session:
            enqueue(session, "test.kind", {"n": 1})
            raise RuntimeError("the change fails")
        assert _messages(database_url) == [] and woken == []  # rolled back with it, nobody woken
        with unit_of_work(engine) as session:
            enqueue(session, "test.kind", {"n": 2})
            enqueue(session, "test.kind", {"n": 3})
        assert woken == [2]  # woken once, after the commit: both were there to read
    finally:
        clear_waker(engine)


def test_two_relays_at_once_hand_each_message_on_once(postgres_url: str) -> None:
    engine = engine_for(postgres_url)
    with unit_of_work(engine) as session:
        for n in range(40):
            enqueue(session, "test.kind", {"n": n})
    handled: Counter[int] = Counter()
    lock = threading.Lock()

    def handle(_session: Session, message: OutboxMessage) -> None:
        with lock:
            handled[int(message.payload["n"])] += 1

    relays = [
        threading.Thread(target=relay_due, args=(engine, {"test.kind": handle}), kwargs={"limit": 7}) for _ in range(2)
    ]
    while sum(handled.values()) < 40:
        for relay in relays:
            relay.start()
        for relay in relays:
            relay.join()
        relays = [
            threading.Thread(target=relay_due, args=(engine, {"test.kind": handle}), kwargs={"limit": 7})
            for _ in range(2)
        ]
    assert handled == Counter(range(40))  # every one once: the relays took different rows
    assert all(m.done_at is not None for m in _messages(postgres_url))


def test_a_failing_handler_is_tried_again_after_a_growing_pause(database_url: str) -> None:
    engine = engine_for(database_url)
    with unit_of_work(engine) as session:
        enqueue(session, "test.kind", {"n": 1})
    calls: list[int] = []

    def flaky(_session: Session, message: OutboxMessage) -> None:
        calls.append(message.attempts)
        if len(calls) < 3:
            raise ConnectionError("the broker is down")

    start = datetime.now(UTC)
    assert relay_due(engine, {"test.kind": flaky}, now=start).failed == 1
    [message] = _messages(database_url)
    assert message.done_at is None and "the broker is down" in (message.last_error or "")
    assert relay_due(engine, {"test.kind": flaky}, now=start + timedelta(seconds=4)).failed == 0  # 5 s pause
    assert relay_due(engine, {"test.kind": flaky}, now=start + timedelta(seconds=6)).failed == 1
    assert relay_due(engine, {"test.kind": flaky}, now=start + timedelta(seconds=15)).failed == 0  # then 10 s
    assert relay_due(engine, {"test.kind": flaky}, now=start + timedelta(seconds=17)).done == 1
    assert calls == [1, 2, 3]
    # an unknown kind waits for a relay that knows it, with the same pauses
    with unit_of_work(engine) as session:
        enqueue(session, "later.kind", {})
    assert relay_due(engine, {"test.kind": flaky}).failed == 1
    assert "later.kind" in (_messages(database_url)[-1].last_error or "")


def test_a_dead_relays_message_is_let_go_when_its_lease_passes(database_url: str) -> None:
    engine = engine_for(database_url)
    with unit_of_work(engine) as session:
        enqueue(session, "test.kind", {"n": 1})
    start = datetime.now(UTC)
    with unit_of_work(engine) as session:  # a relay took it and died: its lease runs
        [message] = session.scalars(select(OutboxMessage)).all()
        message.taken_until, message.attempts = start + LEASE, 1
    seen: list[int] = []
    handlers = {"test.kind": lambda _s, m: seen.append(m.id)}
    assert relay_due(engine, handlers, now=start + LEASE - timedelta(seconds=1)).done == 0
    assert relay_due(engine, handlers, now=start + LEASE + timedelta(seconds=1)).done == 1
    assert len(seen) == 1
