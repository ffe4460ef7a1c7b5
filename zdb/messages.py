"""Texts for users that can be shown in another language: an English template and its values.

``str()`` gives the English text (what the API and the commands answer); the pages look the
template up in their catalogue and fill in the same values (``translated``). A value may itself
be a ``Message`` (a word or phrase put into a sentence); it is translated with it.

The templates are ``str.format`` texts written as literals at the call, ``Message("...")``, so
that the pages' catalogue extraction finds them (``zdb.web.catalogue``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["Message"]


class Message:
    """``Message("player {opponent} is paired with himself", opponent=7)``."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params: Mapping[str, object] = MappingProxyType(params)

    def translated(self, gettext: Callable[[str], str]) -> str:
        """The text with the template (and every template among the values) passed through ``gettext``."""
        values = {k: v.translated(gettext) if isinstance(v, Message) else v for k, v in self.params.items()}
        return gettext(self.template).format(**values)

    def __str__(self) -> str:
        return self.translated(_english)

    def as_json(self) -> dict[str, Any]:
        """The template and its values as JSON keeps them (a refusal stored with an import); a
        value JSON has no type for (a date) is kept as its English text."""
        return {"template": self.template, "params": {k: _json_value(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, stored: Mapping[str, Any]) -> Message:
        """The message ``as_json`` stored."""
        params = {k: cls.from_json(v) if isinstance(v, Mapping) else v for k, v in stored["params"].items()}
        return cls(stored["template"], **params)

    def __repr__(self) -> str:
        return f"Message({self.template!r}, {dict(self.params)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return self.template == other.template and dict(self.params) == dict(other.params)

    def __hash__(self) -> int:
        return hash(self.template)


def _english(template: str) -> str:
    return template


def _json_value(value: object) -> object:
    if isinstance(value, Message):
        return value.as_json()
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)
