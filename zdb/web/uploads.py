"""What a referee uploads, read by the reader its file asks for (``zdb.submissions.readers``): a
JSON tournament (the API's submission format) or a TRF or SWT file with the form's fields for
what it does not say.

Every problem, the JSON's field paths and the TRF's lines included, is raised as one
``ValidationError``, as the API does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from zdb.errors import ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.submissions.intake import TrfMeta
from zdb.submissions.readers import Submitted, read_file, read_json
from zdb.web.form_values import optional_date

__all__ = ["UploadForm", "read_upload"]


@dataclass(frozen=True, slots=True)
class UploadForm:
    """The upload form's fields besides the file (they apply to a TRF file only)."""

    acronym: str = ""
    federation: str = ""
    name: str = ""
    end_date: str = ""
    time_control: str = ""
    youth_u12: bool = False


def _is_json(filename: str, data: bytes) -> bool:
    return filename.lower().endswith(".json") or data.lstrip()[:1] in (b"{", b"[")


def _trf_meta(form: UploadForm) -> TrfMeta:
    problems = []
    acronym, federation = form.acronym.strip(), form.federation.strip()
    if not acronym:
        problems.append(
            ValidationProblem("acronym", Message("a TRF file needs the tournament's acronym (3 characters)"))
        )
    elif len(acronym) > 3:
        problems.append(
            ValidationProblem("acronym", Message("must have 3 characters, got {acronym!r}", acronym=acronym))
        )
    if not federation:
        problems.append(ValidationProblem("federation", Message("a TRF file needs the organising federation")))
    end: date | None = optional_date(problems, "end_date", form.end_date)
    if problems:
        raise ValidationError(problems)
    return TrfMeta(
        acronym=acronym,
        federation=federation,
        youth_u12=form.youth_u12,
        name=form.name.strip() or None,
        end_date=end,
        time_control=form.time_control.strip() or None,
    )


def read_upload(filename: str, data: bytes, form: UploadForm) -> Submitted:
    """The upload read as JSON (by its name or its first character) or as a TRF or SWT file."""
    if not data.strip():
        raise ValidationError([ValidationProblem("file", Message("the file is empty (or none was chosen)"))])
    if _is_json(filename, data):
        try:
            raw = json.loads(data)
        except (ValueError, UnicodeDecodeError) as error:
            raise ValidationError([ValidationProblem("body", f"the file is not JSON: {error}")]) from None
        return read_json(raw, data)
    return read_file(data, _trf_meta(form))
