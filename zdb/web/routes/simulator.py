"""The rating simulator (seed 003): my rating and my opponents' ratings give my new DWZ for
every score I could make, beside FCR and, when I give my Elo, FIDE (the FIDE table starts
from the Elo, never from the DWZ). A GET form: the answer is a link to share; the date is
written the German way (TT.MM.JJJJ) or as a date input sends it."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Query, Request
from fastapi.responses import HTMLResponse

from zdb.errors import ValidationProblem
from zdb.messages import Message
from zdb.rating import InvalidInputError
from zdb.simulator import DEFAULT_SYSTEMS, Simulation, SimulationRequest, System, simulate
from zdb.web.form_values import german_day, optional_german_date, optional_int
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()

MAX_OPPONENTS = 60
_SEPARATORS = re.compile(r"[\s,;]+")

Field = Annotated[str, Query(max_length=1000)]


def _opponents(problems: list[ValidationProblem], text: str) -> tuple[int, ...]:
    numbers = []
    for part in (p for p in _SEPARATORS.split(text.strip()) if p):
        if not part.isdigit():
            problems.append(ValidationProblem("opponents", Message("{part!r} is not a rating", part=part)))
            continue
        numbers.append(int(part))
    if not numbers and not problems:
        problems.append(ValidationProblem("opponents", Message("at least one opponent is needed")))
    if len(numbers) > MAX_OPPONENTS:
        problems.append(ValidationProblem("opponents", Message("at most {count} opponents", count=MAX_OPPONENTS)))
    return tuple(numbers)


def _simulation(asked: SimulationRequest, elo: int | None) -> Simulation:
    """DWZ and FCR from the DWZ; FIDE from the Elo, only when it is given."""
    own = simulate(asked, [s for s in DEFAULT_SYSTEMS if s is not System.FIDE])
    if elo is None:
        return own
    fide = simulate(replace(asked, rating=elo), [System.FIDE])
    by_system = {r.system: r for r in own.results + fide.results}
    return Simulation(asked, tuple(by_system[s] for s in DEFAULT_SYSTEMS if s in by_system))


@router.get("/simulator", response_class=HTMLResponse)
def simulator_page(
    *,
    request: Request,
    rating: Field = "",
    index: Field = "",
    elo: Field = "",
    birth_year: Field = "",
    end_date: Field = "",
    opponents: Field = "",
) -> HTMLResponse:
    form = {
        "rating": rating,
        "index": index,
        "elo": elo,
        "birth_year": birth_year,
        "end_date": end_date,
        "opponents": opponents,
    }
    context: dict[str, Any] = {"form": form, "problems": [], "simulation": None}
    if not rating and not opponents:
        form["end_date"] = end_date or german_day(datetime.now(UTC).date())
        return render(request, "simulator.html", context)
    problems: list[ValidationProblem] = []
    own = optional_int(problems, "rating", rating, 1, 3500)
    if own is None and not problems:
        problems.append(ValidationProblem("rating", Message("your rating is needed")))
    kept_index = optional_int(problems, "index", index, 0, 999)
    own_elo = optional_int(problems, "elo", elo, 1, 3500)
    born = optional_int(problems, "birth_year", birth_year, 1900, 2200)
    day = optional_german_date(problems, "end_date", end_date) or datetime.now(UTC).date()
    listed = _opponents(problems, opponents)
    if not problems:
        assert own is not None
        try:
            asked = SimulationRequest(
                rating=own,
                opponents=listed,
                end_date=day,
                index=1 if kept_index is None else kept_index,
                birth_year=born,
            )
            context["simulation"] = _simulation(asked, own_elo)
        except InvalidInputError as error:
            problems.append(ValidationProblem(error.place, error.problem))
    context["problems"] = problems
    return render(request, "simulator.html", context, status=422 if problems else 200)
