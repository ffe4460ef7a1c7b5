"""What the staff's record pages share: the admin check, the reading of their form fields (a
wrong field refused naming it, before a service sees it), and the answer after a change (the
redirect that says what was done and how far back the recalculation reaches).

A field is read as the page's form sends it: an empty text is "not given"; codes are checked
against the same patterns as the API's bodies, so that the database never sees a value its
columns cannot hold.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

from fastapi import Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.endpoints.dependencies import INT64_MAX
from zdb.errors import ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.players.merged import survivor_of
from zdb.web.form_values import optional_german_date, optional_int
from zdb.web.referee_session import referee

__all__ = [
    "CLUB_CODE",
    "HOME",
    "PREFIX",
    "Name",
    "Status",
    "Text",
    "admin",
    "back_to",
    "checked_key",
    "day",
    "moved_record",
    "number",
    "optional_day",
    "recalculation_hint",
]

#: a short text field of a staff form
Text = Annotated[str, Form(max_length=100)]
#: a club's or federation's name, as long as the API takes it
Name = Annotated[str, Form(max_length=200)]
#: a membership's status
Status = Annotated[Literal["active", "passive"], Form()]

CLUB_CODE = re.compile(r"[0-9A-Za-z]{5}")
PREFIX = re.compile(r"[0-9A-Za-z]{1,4}")
#: the federation a club or federation lies in: empty for the national federation
HOME = re.compile(r"[0-9A-Za-z]{0,4}")


def admin(request: Request, session: Session) -> Principal:
    """The signed-in admin; a referee is refused (403), a stranger sent to the sign-in."""
    caller = referee(request, session)
    caller.require("admin")
    return caller


def _refuse(problems: list[ValidationProblem]) -> None:
    if problems:
        raise ValidationError(problems)


def number(field: str, text: str, *, low: int = 0, high: int = INT64_MAX) -> int | None:
    """An empty field clears the value; anything but a whole number in ``low..high`` is refused
    naming the field."""
    problems: list[ValidationProblem] = []
    value = optional_int(problems, f"form.{field}", text, low, high)
    _refuse(problems)
    return value


def optional_day(field: str, text: str) -> date | None:
    """A date as a date input sends it (YYYY-MM-DD) or as a German reader writes it (DD.MM.YYYY);
    an empty field is none."""
    problems: list[ValidationProblem] = []
    value = optional_german_date(problems, f"form.{field}", text)
    _refuse(problems)
    return value


def day(field: str, text: str) -> date:
    """A date that must be given."""
    value = optional_day(field, text)
    if value is None:
        raise ValidationError([ValidationProblem(f"form.{field}", Message("a date is needed"))])
    return value


def checked_key(field: str, text: str, pattern: re.Pattern[str]) -> str:
    """A club code or federation prefix, as the API's bodies take it."""
    value = text.strip()
    if not pattern.fullmatch(value):
        if pattern is CLUB_CODE:
            problem = Message("{text!r} is not a club code of 5 letters or digits", text=value)
        else:
            problem = Message("{text!r} is not a prefix of up to 4 letters or digits", text=value)
        raise ValidationError([ValidationProblem(f"form.{field}", problem)])
    return value


def recalculation_hint(reach: dict[str, Any] | None) -> dict[str, str]:
    """The query of a redirect that carries how far back a change reaches (``recalculation_from``)."""
    if reach is None:
        return {}
    hint = {"redo_from": reach["end_date"]}
    if reach["tournament_id"] is not None:
        hint["redo_tournament"] = str(reach["tournament_id"])
    return hint


def back_to(path: str, what: str, **more: str) -> RedirectResponse:
    """After a change: back to the page (303), which says what was done."""
    return RedirectResponse(f"{path}?{urlencode({'done': what, **more})}", status_code=303)


def moved_record(request: Request, session: Session, pkz: int) -> Response | None:
    """A record a merge absorbed answers as its survivor: its staff pages move for good to his
    (as its public page does); None for a record that is a person."""
    survivor = survivor_of(session, pkz)
    if survivor is None or survivor == pkz:
        return None
    path = request.url.path.replace(f"/staff/players/{pkz}", f"/staff/players/{survivor}", 1)
    return RedirectResponse(path, status_code=301)
