"""The older DeWIS files on the federation's website, still hard-coded in club websites, apps
and scripts (``client-interfaces.md`` §2): ``/php/dewis/verein.php?zps=…``,
``verband.php?zps=…&limit=N`` and ``spieler.php?pkz=…``, each with
``format=csv|json|xml|array`` (``zdb.formats.dewis_files``).

An error is a plain text starting with ``Fehler: `` (clients test exactly that prefix). It is
answered with status 200, as the PHP scripts answered it: not confirmed, but a PHP client that
reads the file with ``file_get_contents`` gets nothing at all from a 4xx and could not show the
text. Nothing here writes.

``spieler.php``'s ranks (``rang``) are the player's ranks by DWZ in each club he is a member of
(``auswerter``, the rating officer of the organisation, is not kept here and is empty); its
tournaments are his evaluated tournaments, oldest first (clients take the last line as
current), with the coefficient E (K under the 2026 rules) and the performance where the
evaluation has them.
"""

from __future__ import annotations

from typing import Any, cast

from fastapi import APIRouter, Request
from fastapi.responses import Response

from zdb.auth.principal import PUBLIC
from zdb.editions.sources import list_source
from zdb.endpoints.dependencies import RequestSession
from zdb.errors import NotFoundError
from zdb.formats import dewis_files
from zdb.formats.dsb_files import club_member_values
from zdb.ratings import dewis_queries, list_queries, player_queries

__all__ = ["router"]

router = APIRouter(prefix="/php/dewis", include_in_schema=False)

_MEDIA = {
    "csv": "text/plain; charset=utf-8",
    "json": "application/json; charset=utf-8",
    "xml": "application/xml; charset=utf-8",
    "array": "text/plain; charset=utf-8",
}
_STATUS = {"active": "A", "passive": "P"}
#: ``verband.php``'s list: 100 by default (the published scripts' default), at most 1000
DEFAULT_LIMIT, MAX_LIMIT = 100, 1000


class _RefusalError(Exception):
    pass


def _error(text: str) -> Response:
    return Response(dewis_files.error_text(text), media_type="text/plain; charset=utf-8")


def _format(request: Request) -> dewis_files.DewisFormat:
    form = request.query_params.get("format", "csv")
    if form not in _MEDIA:
        raise _RefusalError(f"unbekanntes Format {form!r} (csv, json, xml, array)")
    return cast("dewis_files.DewisFormat", form)  # one of the four, checked above


def _answer(request: Request, write: Any) -> Response:
    try:
        form = _format(request)
        return Response(write(form), media_type=_MEDIA[form])
    except _RefusalError as refusal:
        return _error(str(refusal))


@router.get("/verein.php")
def club(request: Request, session: RequestSession) -> Response:
    def write(form: dewis_files.DewisFormat) -> str:
        code = request.query_params.get("zps", "")
        if not code:
            raise _RefusalError("keine ZPS angegeben")
        try:
            members, _ = list_queries.club_members(session, code, list_source(session, at=None, edition=None))
        except NotFoundError:
            raise _RefusalError(f"Verein {code} nicht gefunden") from None
        return dewis_files.members_file([club_member_values(row) for row in members], form)

    return _answer(request, write)


@router.get("/verband.php")
def federation(request: Request, session: RequestSession) -> Response:
    def write(form: dewis_files.DewisFormat) -> str:
        prefix = request.query_params.get("zps", "")
        text = request.query_params.get("limit", str(DEFAULT_LIMIT))
        if not text.isdigit() or not 1 <= int(text) <= MAX_LIMIT:
            raise _RefusalError(f"limit muss eine Zahl von 1 bis {MAX_LIMIT} sein, nicht {text!r}")
        # a federation's three-character code (C00, 000) names its prefix (C, the whole DSB)
        prefix = prefix.rstrip("0") if len(prefix) == 3 else prefix
        if prefix:
            try:
                list_queries.require_federation(session, prefix)
            except NotFoundError:
                raise _RefusalError(f"Verband {request.query_params.get('zps')} nicht gefunden") from None
        members, _ = list_queries.federation_members(session, prefix, list_source(session, at=None, edition=None))
        best = dewis_queries.best_of_federation(members, int(text))
        return dewis_files.members_file([club_member_values(row) for row in best], form)

    return _answer(request, write)


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _number(value: float | None, places: int) -> str:
    return "" if value is None else f"{value:.{places}f}"


@router.get("/spieler.php")
def player(request: Request, session: RequestSession) -> Response:
    def write(form: dewis_files.DewisFormat) -> str:
        text = request.query_params.get("pkz", "")
        if not text.isdigit() or len(text) > 18:
            raise _RefusalError(f"ungültige PKZ {text!r}")
        try:
            pkz = dewis_queries.survivor_of(session, int(text))
        except NotFoundError:
            raise _RefusalError(f"Spieler {text} nicht gefunden") from None
        card = player_queries.player_card(session, pkz, PUBLIC)
        fide = card.fide
        person = (
            str(card.pkz),
            card.surname,
            card.given_name,
            "",  # titel: not kept here
            _text(card.rating),
            _text(card.rating_index),
            _text(card.fide_id),
            "" if fide is None else _text(fide.standard),
            "" if fide is None else _text(fide.title),
            _text(card.nation),
        )
        current = [m for m in card.memberships if m.valid_until is None]
        ranks = dewis_queries.club_ranks(session, pkz)
        rank_rows = [(m.club_code, m.club_name, _text(ranks.get(m.club_code)), "") for m in current]
        membership_rows = [
            (m.club_code, m.club_name, "" if m.member_no is None else f"{m.member_no:03d}", _STATUS.get(m.status, ""))
            for m in current
        ]
        opponents = dewis_queries.opponents_average(session, pkz)
        tournament_rows = []
        for entry in card.history:  # in the time line's order: oldest first
            figures = entry.evaluation
            if entry.kind != "tournament" or figures is None or entry.tournament_id is None:
                continue
            coefficient = figures.e if figures.e is not None else figures.k
            tournament_rows.append(
                (
                    str(entry.tournament_id),
                    entry.tournament_name or entry.event,
                    _text(figures.r0),
                    "" if figures.r0 is None else _text(figures.i0),
                    _number(figures.w, 1),
                    _text(figures.n),
                    _text(figures.unrated_games),
                    _number(figures.we, 3),
                    _text(opponents.get((entry.tournament_id, entry.tournament_version or 0))),
                    "" if coefficient is None else f"{coefficient:g}",
                    _text(figures.rn),
                    "" if figures.rn is None else _text(figures.i_new),
                    _text(figures.rh),
                )
            )
        return dewis_files.person_file(
            person,
            dewis_files.Table(dewis_files.RANK_HEADER, rank_rows),
            dewis_files.Table(dewis_files.MEMBERSHIP_HEADER, membership_rows),
            dewis_files.Table(dewis_files.TOURNAMENT_HEADER, tournament_rows),
            form,
        )

    return _answer(request, write)
