"""README's receiver example works as printed: it accepts an event signed by ZDB once, drops
its repetition, and refuses one signed with another secret."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from tests.conftest import ROOT
from zdb.notifications.signing import new_secret, signed_headers


def _example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Notifications to club software", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


def test_the_readme_receiver_verifies_and_drops_repetitions(capsys: Any) -> None:
    names: dict[str, Any] = {}
    exec(compile(_example(), "README.md", "exec"), names)
    names["SECRET"] = secret = new_secret()
    event = {"type": "rating.changed", "data": {"person": 7, "old": {"dwz": 1500}, "new": {"dwz": 1512}}}
    body = json.dumps(event).encode()
    headers = signed_headers("msg_1", body, [secret], datetime.now(UTC))
    assert names["receive"](body, headers) == 204
    assert names["receive"](body, headers) == 204  # the repetition is dropped
    assert capsys.readouterr().out == "7 1500 -> 1512\n"
    forged = signed_headers("msg_2", body, [new_secret()], datetime.now(UTC))
    assert names["receive"](body, forged) == 400
