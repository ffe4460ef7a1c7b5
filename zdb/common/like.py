"""LIKE patterns that match a user's text literally: ``%``, ``_`` and ``\\`` in a search are
characters, not wildcards (the statements name ``\\`` as the escape character)."""

from __future__ import annotations

__all__ = ["like_pattern"]


def like_pattern(text: str, *, prefix_only: bool = False) -> str:
    """A LIKE pattern matching ``text`` literally (``\\`` is the escape character)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"{escaped}%" if prefix_only else f"%{escaped}%"
