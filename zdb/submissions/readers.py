"""What a referee sends, read into one shape whatever its format: a JSON tournament (the API's
submission format) or a tournament file (a FIDE TRF text, or a Swiss-Chess SWT told apart by its
bytes: ``zdb.formats.tournament_file``) with what the file does not say (``TrfMeta``).

Why one shape: the doors choose the reader by what was sent (the API by its route's content
type, the referee pages by the uploaded file) and then do one and the same thing with either
format: authorise the caller for its ``federation``, and make its ``intake``. So a submission,
a preview and a correction each have one handler, whatever the format.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.errors import ValidationError, ValidationProblem
from zdb.submissions.intake import Intake, TrfMeta, intake_json, intake_trf
from zdb.submissions.json_reading import JsonTournament, read_tournament_json

__all__ = ["Submitted", "read_file", "read_json"]


@dataclass(frozen=True, slots=True)
class Submitted:
    """A read submission: the federation it is for (to authorise the caller before its intake),
    the JSON tournament or the file with its ``meta``, and the bytes sent."""

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
        """The checked and matched submission (``zdb.submissions.intake``)."""
        if self.body is not None:
            return intake_json(
                session, self.body, create=create, caller=caller, tournament_id=tournament_id, learn=learn
            )
        assert self.meta is not None
        if not self.data.strip():
            raise ValidationError([ValidationProblem("body", "the TRF file is empty")])
        return intake_trf(
            session, self.data, self.meta, create=create, caller=caller, tournament_id=tournament_id, learn=learn
        )


def read_json(raw: Any, data: bytes = b"") -> Submitted:
    """A JSON tournament (already parsed) read by ``read_tournament_json``; one whose federation
    cannot be read is refused with the schema's problems alone (there is nobody to authorise
    for), every other problem is answered by its intake together with the rules'."""
    read = read_tournament_json(raw)
    if read.federation is None:
        raise ValidationError(read.problems)
    return Submitted(read.federation, read, None, data)


def read_file(data: bytes, meta: TrfMeta) -> Submitted:
    """A TRF or SWT file: read by its intake, where its problems are answered with their lines."""
    return Submitted(meta.federation, None, meta, data)
