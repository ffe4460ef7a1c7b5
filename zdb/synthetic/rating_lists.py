"""Made-up rating-list ZIPs of a federation moving in, with every quirk the real files have.

The readers of ``zdb.formats.list_reader`` are tested and benchmarked on these files, never on
member data: the names come from ``zdb.synthetic.names``, the numbers from a seeded ``Random``.
``synthetic_list`` draws the values (one line per membership); ``list_zip_bytes`` writes them in a
layout, encoding and column order. The quirks:

- some people have a second, passive membership in another club (an ``A`` and a ``P`` line);
- names with characters outside Windows-1252 (``Đorđević``, ``Yılmaz``), transliterated by the
  legacy encodings, and surnames with spaces (``van der Berg``), which the portal quotes;
- the federation tree in ``verbaende.csv`` (the portal's from the root ``000`` down), with one district number
  repeated as is and, on request, one repeated with another name (a problem for the reader);
- the portal's ``vereine.csv`` lists the federations too (codes ending in ``00``);
- unrated players, index 0, no birth year, no FIDE data, no member number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from random import Random

from zdb.formats.dsb_files import Codec
from zdb.formats.list_model import ListClub, ListFederation, ListMember, RatingList, YearWeek
from zdb.formats.list_writer import file_format, write_rating_list
from zdb.synthetic.clubs import REGIONS
from zdb.synthetic.names import NATIONS, NameSampler, club_name, town_name

__all__ = ["SyntheticList", "list_zip_bytes", "synthetic_list"]

STAMP = datetime(2026, 11, 30, 6, 0, 0)
_FIDE_TITLES = ("GM", "IM", "FM", "CM")
_WOMEN_TITLES = ("WGM", "WIM", "WFM", "WCM")
_ELIGIBILITY = ("D", "D", "D", "D", "D", "D", "E", "A", "G")


@dataclass(frozen=True)
class SyntheticList:
    members: tuple[ListMember, ...]
    clubs: tuple[ListClub, ...]
    federations: tuple[ListFederation, ...]


def _tree(rng: Random, clubs_wanted: int) -> tuple[list[ListFederation], list[ListClub]]:
    federations = [ListFederation("000", "0", "", "Deutscher Schachbund")]
    clubs: list[ListClub] = []
    per_region = max(1, clubs_wanted // len(REGIONS))
    for region, name, _, _ in REGIONS:
        state = f"{region}00"
        federations.append(ListFederation(state, region, "000", name))
        districts = max(1, min(9, per_region // 12))
        for d in range(1, districts + 1):
            district = f"{region}{d:02d}"
            federations.append(ListFederation(district, region, state, f"Bezirk {town_name(rng)}"))
            for c in range(1, max(1, per_region // districts) + 1):
                code = f"{district}{c:02d}"
                clubs.append(ListClub(code, region, district, club_name(rng, town_name(rng))))
    return federations, clubs[: max(1, clubs_wanted)]


def _person(rng: Random, names: NameSampler, person_id: str | None, club: ListClub, no: int) -> ListMember:
    sex = "F" if rng.random() < 0.12 else "M"
    nation = "GER" if rng.random() < 0.9 else rng.choice(NATIONS)[0]
    given, surname = names.person(sex, nation)
    rated = rng.random() < 0.85
    fide = rated and rng.random() < 0.25
    return ListMember(
        person_id=person_id,
        club_code=club.code,
        member_no=None if rng.random() < 0.02 else no,
        status="active",
        surname=surname,
        given_name=given,
        sex="D" if rng.random() < 0.003 else sex,
        eligibility=rng.choice(_ELIGIBILITY),
        birth_year=None if rng.random() < 0.03 else rng.randrange(1930, 2020),
        last_evaluation=YearWeek(rng.randrange(2000, 2027), rng.randrange(1, 53)) if rated else None,
        rating=rng.randrange(700, 2650) if rated else None,
        rating_index=(0 if rng.random() < 0.02 else rng.randrange(1, 120)) if rated else None,
        fide_rating=rng.randrange(1400, 2650) if fide and rng.random() < 0.8 else None,
        fide_title=rng.choice(_FIDE_TITLES) if fide and rng.random() < 0.1 else None,
        fide_id=rng.randrange(4_600_000, 4_800_000) * 10 + rng.randrange(10) if fide else None,
        fide_nation=nation if fide or rng.random() < 0.1 else None,
        fide_women_title=rng.choice(_WOMEN_TITLES) if fide and sex == "F" and rng.random() < 0.2 else None,
        fide_rapid=rng.randrange(1200, 2600) if fide and rng.random() < 0.5 else None,
        fide_blitz=rng.randrange(1200, 2600) if fide and rng.random() < 0.5 else None,
        title="Dr." if rng.random() < 0.01 else None,
    )


def synthetic_list(
    seed: int, memberships: int, id_style: str = "portal", conflicting_district: bool = False
) -> SyntheticList:
    """About ``memberships`` lines: people in clubs of about 40 members, 8% of them with a second,
    passive membership. ``id_style``: ``portal`` (``NU…`` ids), ``dewis`` (person numbers) or
    ``none`` (the older DeWIS layout)."""
    rng = Random(seed)
    names = NameSampler(rng)
    federations, clubs = _tree(rng, max(1, memberships // 40))
    members: list[ListMember] = []
    counters = dict.fromkeys((club.code for club in clubs), 0)
    person = 0
    while len(members) < memberships:
        person += 1
        person_id = {"portal": f"NU{1_000_000 + person * 7:08d}", "dewis": str(10_000_000 + person)}.get(id_style)
        club = clubs[rng.randrange(len(clubs))]
        counters[club.code] += 1
        member = _person(rng, names, person_id, club, counters[club.code])
        members.append(member)
        if rng.random() < 0.08 and len(members) < memberships and len(clubs) > 1:
            second = clubs[rng.randrange(len(clubs))]
            if second.code != club.code:
                counters[second.code] += 1
                passive = replace(member, club_code=second.code, member_no=counters[second.code], status="passive")
                members.insert(len(members) - 1 if rng.random() < 0.5 else len(members), passive)
    districts = [f for f in federations if not f.code.endswith("00")]
    federations.append(replace(districts[0]))
    if conflicting_district and len(districts) > 1:
        federations.append(replace(districts[-1], name=f"{districts[-1].name} (alt)"))
    return SyntheticList(tuple(members), tuple(clubs), tuple(federations))


def _with_federation_clubs(data: SyntheticList) -> tuple[ListClub, ...]:
    """The portal's club file: every federation but the root as a club with a code ending in 00."""
    listed = {f.code: f for f in data.federations if f.code != "000"}
    rows = [ListClub(f"{f.code}00", f.state, f.parent, f.name) for f in listed.values()]
    return tuple(sorted([*rows, *data.clubs], key=lambda club: club.code))


def list_zip_bytes(
    data: SyntheticList,
    layout: str = "portal",
    *,
    codec: Codec | None = None,
    bom: bool = False,
    columns: Sequence[str] | None = None,
    stamp: datetime | None = STAMP,
) -> bytes:
    """The ZIP of ``data`` in a layout (``portal``, ``dewis``, ``dewis-old``): by default in the
    layout's encoding and published columns; ``columns`` orders (or leaves out) those of
    ``spieler.csv``."""
    unit_layout = "portal" if layout == "portal" else "dewis"
    clubs = _with_federation_clubs(data) if layout == "portal" else data.clubs
    # DeWIS names the DSB only as the parent 000 of the states; the portal lists it
    federations = data.federations if layout == "portal" else tuple(f for f in data.federations if f.code != "000")
    formats = (
        file_format("spieler.csv", layout, codec, bom, columns),
        file_format("vereine.csv", unit_layout, codec, bom),
        file_format("verbaende.csv", unit_layout, codec, bom),
    )
    rating_list = RatingList(data.members, clubs, federations, (), (), formats, stamp)
    return write_rating_list(rating_list).data
