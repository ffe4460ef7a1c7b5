"""Rating lists whose lines a test needs in a particular shape, made from a generated list."""

from __future__ import annotations

from dataclasses import replace

from zdb.formats.list_model import ListMember, YearWeek
from zdb.synthetic.rating_lists import SyntheticList

__all__ = ["single_line_people", "with_lagging_lines"]


def single_line_people(data: SyntheticList) -> list[ListMember]:
    """People with one line and no FIDE id (so no FIDE id of the generator is shared)."""
    lines: dict[str | None, list[ListMember]] = {}
    for member in data.members:
        lines.setdefault(member.person_id, []).append(member)
    return [m[0] for m in lines.values() if len(m) == 1 and m[0].fide_id is None and m[0].member_no is not None]


def with_lagging_lines(data: SyntheticList) -> tuple[SyntheticList, ListMember, ListMember, ListMember]:
    """``data`` with two people whose lines disagree: one gets a passive line in another club
    whose "Letzte Auswertung" lags his active line's; another, with no active line at all, two
    passive lines of different birth years and weeks. Answers the list, the active line, the
    lagging passive line and the most recent of the passive-only person's lines."""
    first, second = single_line_people(data)[:2]
    other_club = next(c.code for c in data.clubs if c.code not in (first.club_code, second.club_code))
    week, older = YearWeek(2025, 40), YearWeek(2024, 12)
    active = replace(first, status="active", last_evaluation=week)
    lagging = replace(active, club_code=other_club, member_no=9901, status="passive", last_evaluation=older)
    year = second.birth_year or 1970
    stale = replace(second, status="passive", last_evaluation=older, birth_year=year - 1)
    recent = replace(second, club_code=other_club, member_no=9902, status="passive", last_evaluation=week)
    recent = replace(recent, birth_year=year)
    members = [active if m is first else stale if m is second else m for m in data.members]
    return replace(data, members=(*members, lagging, recent)), active, lagging, recent
