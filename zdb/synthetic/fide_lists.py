"""Made-up FIDE rating lists in FIDE's text and XML layouts, with their quirks.

The FIDE readers (``zdb.formats.fide_txt``, ``zdb.formats.fide_xml``) are tested and
benchmarked on these files: ``fide_players`` draws players (names from ``zdb.synthetic.names``),
``write_fide_txt`` and ``write_fide_xml`` write them to a binary stream line by line, so that a
list of two million players costs no memory. The quirks:

- the current text layout (162 characters, with ``FOA``) and the older one without ``FOA``,
  whose later columns sit four characters further left;
- a few players with more other titles than the ``OTit`` column holds (longer lines);
- unrated ratings written ``0`` (and some left empty), birth year ``0``, empty K factors;
- flags ``i``, ``w``, ``wi``; titles, women's titles and FOA titles.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from random import Random
from typing import Protocol
from xml.sax.saxutils import escape

from zdb.formats.fide_list import FidePlayer, FideRating
from zdb.synthetic.names import NATIONS, NameSampler

__all__ = ["FOA_HEADER", "OLD_HEADER", "fide_players", "write_fide_txt", "write_fide_xml"]

FOA_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  WTit OTit           "
    "FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
OLD_HEADER = FOA_HEADER.replace("FOA ", "")
_OTHER = ("FA", "IA", "FI", "FST", "DI", "NA", "IO", "FT", "LSI", "NI")
_TITLES = ("GM", "IM", "FM", "CM")
_WOMEN = ("WGM", "WIM", "WFM", "WCM")
_FOA = ("AGM", "AIM", "AFM", "ACM")
_FEDERATIONS = ("GER", *(nation for nation, _ in NATIONS), "ENG", "USA", "IND", "ITA", "HUN")


class _Sink(Protocol):
    def write(self, data: bytes, /) -> object: ...


def _rating(rng: Random, active: float, low: int) -> FideRating:
    if rng.random() >= active:
        return FideRating(None, 0, None)
    return FideRating(rng.randrange(low, 2800), rng.randrange(0, 12), rng.choice((10, 20, 40)))


def fide_players(seed: int, count: int, first_id: int = 100_000) -> Iterator[FidePlayer]:
    """``count`` players with rising ids; every 500th has an overflowing list of other titles."""
    rng = Random(seed)
    names = NameSampler(rng)
    fide_id = first_id
    for number in range(count):
        fide_id += rng.randrange(1, 40)
        sex = "F" if rng.random() < 0.15 else "M"
        federation = rng.choice(_FEDERATIONS)
        given, surname = names.person(sex, federation)
        other: tuple[str, ...] = ()
        if number % 500 == 499:
            other = tuple(rng.sample(_OTHER, 6))  # 17 characters or more: beyond the OTit column
        elif rng.random() < 0.02:
            other = tuple(rng.sample(_OTHER, rng.randrange(1, 3)))
        strong = rng.random() < 0.05
        yield FidePlayer(
            fide_id=fide_id,
            name=f"{surname}, {given}",
            federation=federation,
            sex=sex,
            title=rng.choice(_TITLES) if strong else None,
            women_title=rng.choice(_WOMEN) if strong and sex == "F" else None,
            other_titles=other,
            online_title=rng.choice(_FOA) if rng.random() < 0.01 else None,
            standard=_rating(rng, 0.7, 1400),
            rapid=_rating(rng, 0.4, 1000),
            blitz=_rating(rng, 0.35, 1000),
            birth_year=None if rng.random() < 0.05 else rng.randrange(1930, 2020),
            flags=rng.choice(("", "", "", "i", "w", "wi")) if sex == "F" else rng.choice(("", "", "i")),
        )


def _spans(header: str) -> list[int]:
    starts = [match.start() for match in re.finditer(r"ID Number|\S+", header)]
    return [end - start for start, end in zip(starts, [*starts[1:], len(header)], strict=True)]


def _number(value: int | None, zero: bool) -> str:
    return str(value) if value is not None else "0" if zero else ""


def _txt_values(player: FidePlayer, with_foa: bool, zero: bool) -> list[str]:
    ratings: list[str] = []
    for rating in (player.standard, player.rapid, player.blitz):
        ratings += [_number(rating.rating, zero), str(rating.games), _number(rating.k, False)]
    foa = [player.online_title or ""] if with_foa else []
    return [
        str(player.fide_id),
        player.name,
        player.federation,
        player.sex or "",
        player.title or "",
        player.women_title or "",
        ",".join(player.other_titles),
        *foa,
        *ratings,
        str(player.birth_year or 0),
        player.flags,
    ]


def write_fide_txt(players: Iterable[FidePlayer], out: _Sink, old: bool = False, codec: str = "utf-8") -> None:
    """The list in the text layout (``old``: without ``FOA``). Values start at their header
    name; a value longer than its column pushes the rest of its line right. Unrated ratings are
    ``0`` on every other line and empty on the others."""
    header = OLD_HEADER if old else FOA_HEADER
    widths = _spans(header)
    out.write((header + "\n").encode(codec))
    for number, player in enumerate(players):
        values = _txt_values(player, not old, number % 2 == 0)
        line = "".join(value.ljust(width) for value, width in zip(values, widths, strict=True))
        out.write((line + "\n").encode(codec))


def _element(tag: str, value: str) -> str:
    return f"<{tag}>{escape(value)}</{tag}>\n" if value else f"<{tag}></{tag}>\n"


def write_fide_xml(players: Iterable[FidePlayer], out: _Sink) -> None:
    """The list in FIDE's XML layout, one element a line, unrated ratings ``0``."""
    out.write(b'<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n')
    for player in players:
        parts = [
            "<player>\n",
            _element("fideid", str(player.fide_id)),
            _element("name", player.name),
            _element("country", player.federation),
            _element("sex", player.sex or ""),
            _element("title", player.title or ""),
            _element("w_title", player.women_title or ""),
            _element("o_title", ",".join(player.other_titles)),
            _element("foa_title", player.online_title or ""),
        ]
        for prefix, rating in (("", player.standard), ("rapid_", player.rapid), ("blitz_", player.blitz)):
            parts += [
                _element(f"{prefix}rating", _number(rating.rating, True)),
                _element(f"{prefix}games", str(rating.games)),
                _element(f"{prefix}k", _number(rating.k, False)),
            ]
        parts += [_element("birthday", str(player.birth_year or 0)), _element("flag", player.flags), "</player>\n"]
        out.write("".join(parts).encode("utf-8"))
    out.write(b"</playerslist>\n")
