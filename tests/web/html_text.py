"""Reading pages in tests: the visible text, and a table's rows as the texts of their cells."""

from __future__ import annotations

import re
from html import unescape


def text_of(html: str) -> str:
    """The visible text, spaces collapsed: inline tags vanish, others part words."""
    inline = re.sub(r"</?(?:span|a|abbr|strong)\b[^>]*>", "", html)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", inline))).strip()


def rows_of(html: str, table_id: str | None = None) -> list[list[str]]:
    """Each body row of the (first, or ``table_id``'s) table as the texts of its cells."""
    if table_id is not None:
        html = html[html.index(f'id="{table_id}"') :]
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return [
        [text_of(cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]
