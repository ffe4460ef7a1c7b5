"""A list import's problems, warnings and first lines of each kind of difference as the staff
page shows them: in the page's language, a problem naming the file, the line and the column.

The import keeps each problem and sample line twice (``zdb.lists.problem_texts``,
``zdb.lists.difference``): the English line the API answers and the message (with its place),
which is translated here. An import stored before the
messages were kept has only the English lines; they are shown as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import Request

from zdb.messages import Message
from zdb.web.rendering import translate_message

__all__ = ["shown_samples", "shown_texts"]


def _placed(stored: dict[str, Any]) -> Message:
    file, line, column = stored["file"], stored["line"], stored["column"]
    text = Message.from_json(stored["text"])
    if line and column:
        return Message("{file}, line {line}, column {column}: {text}", file=file, line=line, column=column, text=text)
    if line:
        return Message("{file}, line {line}: {text}", file=file, line=line, text=text)
    if column:
        return Message("{file}, column {column}: {text}", file=file, column=column, text=text)
    return Message("{file}: {text}", file=file, text=text)


def shown_texts(request: Request, english: Sequence[str], stored: Sequence[dict[str, Any]] | None) -> list[str]:
    """The texts of ``english`` (a slice of an import's problems or warnings) in the page's
    language, from the messages ``stored`` beside them (the same slice); without them (an
    older import), the English lines."""
    if stored is None or len(stored) != len(english):
        return list(english)
    return [translate_message(request, _placed(item)) for item in stored]


def shown_samples(request: Request, english: Sequence[str], stored: Sequence[dict[str, Any]] | None) -> list[str]:
    """The first lines of one kind of difference in the page's language (as ``shown_texts``)."""
    if stored is None or len(stored) != len(english):
        return list(english)
    return [translate_message(request, Message.from_json(item)) for item in stored]
