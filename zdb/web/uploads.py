"""What a referee uploads, to the intake of ``zdb.submissions.intake``: a JSON tournament (the
API's submission format) or a TRF file with the form's fields for what it does not say.

Every problem, the JSON's field paths and the TRF's lines included, is raised as one
``ValidationError``, as the API does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.errors import ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.submissions.intake import Intake, TrfMeta, intake_json, intake_trf
from zdb.submissions.json_reading import JsonTournament, read_tournament_json
from zdb.web.form_values import optional_date

__all__ = ["Upload", "UploadForm", "read_upload"]


@dataclass(frozen=True, slots=True)
class UploadForm:
    """The upload form's fields besides the file (they apply to a TRF file only)."""

    acronym: str = ""
    federation: str = ""
    name: str = ""
    end_date: str = ""
    time_control: str = ""
    youth_u12: bool = False


@dataclass(frozen=True, slots=True)
class Upload:
    """A read upload: the federation it is for (to authorise before the intake) and how to make
    its intake."""

    federation: str | None
    body: JsonTournament | None
    meta: TrfMeta | None
    data: bytes

    def intake(
        self,
        session: Session,
        *,
        create: bool,
        caller: Principal,
        tournament_id: int | None = None,
        learn: bool = True,
    ) -> Intake:
        if self.body is not None:
            return intake_json(
                session, self.body, create=create, caller=caller, tournament_id=tournament_id, learn=learn
            )
        assert self.meta is not None
        return intake_trf(
            session, self.data, self.meta, create=create, caller=caller, tournament_id=tournament_id, learn=learn
        )


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


def read_upload(filename: str, data: bytes, form: UploadForm) -> Upload:
    if not data.strip():
        raise ValidationError([ValidationProblem("file", Message("the file is empty (or none was chosen)"))])
    if _is_json(filename, data):
        try:
            raw = json.loads(data)
        except (ValueError, UnicodeDecodeError) as error:
            raise ValidationError([ValidationProblem("body", f"the file is not JSON: {error}")]) from None
        body = read_tournament_json(raw)
        if body.federation is None:
            raise ValidationError(body.problems)
        return Upload(body.federation, body, None, data)
    meta = _trf_meta(form)
    return Upload(meta.federation, None, meta, data)
