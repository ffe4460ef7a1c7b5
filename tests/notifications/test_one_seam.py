"""One after-commit mechanism: the outbox. ``zdb.db.after_commit`` has one caller, the outbox's
seam (``zdb.outbox.seam``), and no door queues background work of its own; the import contracts
(``make lint``) keep domains and doors away from Celery."""

from __future__ import annotations

import re

from tests.conftest import ROOT


def _sources() -> list[tuple[str, str]]:
    return [
        (str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
        for folder in ("zdb", "workers")
        for path in sorted((ROOT / folder).rglob("*.py"))
    ]


def test_only_the_outbox_registers_work_after_a_commit() -> None:
    callers = {name for name, text in _sources() if re.search(r"\bafter_commit\(", text)}
    assert callers == {"zdb/db.py", "zdb/outbox/seam.py"}  # the definition and its one caller


def test_no_door_queues_background_work_of_its_own() -> None:
    found = {name for name, text in _sources() if "BackgroundTasks" in text or ".add_task(" in text}
    assert found == set()
