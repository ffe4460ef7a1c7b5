"""Streams FIDE's combined rating list in XML (``players_list_xml_foa.xml``, about 860 MB).

The file is never loaded whole: an ``xml.etree`` pull parser is fed one line at a time and each
``<player>`` is read at its end tag and then dropped from the tree, so memory stays flat. Feeding
line by line is what gives each problem its line (the line where the element ends), which
``iterparse`` cannot tell. Elements: ``fideid``, ``name``, ``country``, ``sex``, ``title``,
``w_title``, ``o_title``, ``foa_title``, ``rating``/``games``/``k``, ``rapid_rating``/
``rapid_games``/``rapid_k``, ``blitz_rating``/``blitz_games``/``blitz_k``, ``birthday``,
``flag``; a missing element is an empty value, unknown ones are ignored.

Hostile documents are refused (``ReadRefusedError``): a document type or entity declaration
(``defusedxml``'s parser forbids them: FIDE's list has none, and entities are how an XML bomb
grows), elements nested deeper than ``ReadLimits.max_xml_depth`` (the open elements are what
the parser keeps in memory) and more elements than ``max_xml_elements``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import cast
from xml.etree.ElementTree import Element, ParseError, TreeBuilder, XMLPullParser

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from zdb.formats.fide_list import FidePlayer, FideRating, FideReadError, number, sex, titles
from zdb.formats.list_model import Problem
from zdb.formats.read_limits import ReadLimits, ReadRefusedError

__all__ = ["read_fide_xml"]

_PIECE = 16 * 1024
_RATINGS = (
    ("rating", "games", "k"),
    ("rapid_rating", "rapid_games", "rapid_k"),
    ("blitz_rating", "blitz_games", "blitz_k"),
)


def _player(values: dict[str, str], line: int) -> FidePlayer:
    column = "fideid"
    try:
        fide_id = number(values.get("fideid", ""))
        if not fide_id:
            raise FideReadError("no FIDE id")
        column = "name"
        name = values.get("name", "")
        if not name:
            raise FideReadError("empty")
        column = "sex"
        player_sex = sex(values.get("sex", ""))
        column = "o_title"
        other = titles(values.get("o_title", ""))
        ratings = []
        for rating_tag, games_tag, k_tag in _RATINGS:
            column = rating_tag
            rated = number(values.get(rating_tag, "")) or None
            column = games_tag
            games = number(values.get(games_tag, ""))
            column = k_tag
            ratings.append(FideRating(rated, games, number(values.get(k_tag, "")) or None))
        column = "birthday"
        born = number(values.get("birthday", "")) or None
    except FideReadError as error:
        raise error.in_column(column) from None
    return FidePlayer(
        fide_id,
        name,
        values.get("country", ""),
        player_sex,
        values.get("title") or None,
        values.get("w_title") or None,
        other,
        values.get("foa_title") or None,
        ratings[0],
        ratings[1],
        ratings[2],
        born,
        values.get("flag", ""),
        line,
    )


def read_fide_xml(
    lines: Iterable[bytes], file: str = "players_list_xml_foa.xml", limits: ReadLimits | None = None
) -> Iterator[FidePlayer | Problem]:
    """The players of the list, one at a time, and a ``Problem`` for each player that cannot be
    read. ``lines`` is the file opened in binary mode; a malformed document ends the reading
    with a problem at the line where it broke. Over a bound of ``limits``: ``ReadRefusedError``."""
    bounds = limits or ReadLimits()
    # the pull parser over defusedxml's parser, as defusedxml's own iterparse builds it
    safe = DefusedXMLParser(target=TreeBuilder(), forbid_dtd=True)
    parser: XMLPullParser[Element] = XMLPullParser(events=("start", "end"), _parser=safe)
    elements = 0
    root: Element | None = None
    depth = 0
    values: dict[str, str] = {}
    lines_of: dict[str, int] = {}
    line = 0
    try:
        for line, raw in enumerate(lines, start=1):
            # fed in pieces, so that one long line cannot nest (or hold) more than a piece's elements unchecked
            for start in range(0, len(raw), _PIECE):
                try:
                    parser.feed(raw[start : start + _PIECE])
                except DefusedXmlException:
                    raise ReadRefusedError("xml_dtd", file, line=line) from None
                for event, element in cast(Iterator[tuple[str, Element]], parser.read_events()):
                    if event == "start":
                        depth += 1
                        elements += 1
                        if depth > bounds.max_xml_depth:
                            raise ReadRefusedError("xml_too_deep", file, line=line, bound=bounds.max_xml_depth)
                        if elements > bounds.max_xml_elements:
                            raise ReadRefusedError("xml_too_many_elements", file, bound=bounds.max_xml_elements)
                        if root is None:
                            root = element
                        continue
                    depth -= 1
                    if depth == 2:
                        values[element.tag] = (element.text or "").strip()
                        lines_of[element.tag] = line
                    elif depth == 1:  # any other element under the root is dropped as well: memory stays flat
                        if element.tag == "player":
                            try:
                                yield _player(values, line)
                            except FideReadError as error:
                                yield error.problem(file, lines_of.get(error.column, line))
                        values, lines_of = {}, {}
                        assert root is not None
                        root.clear()
        parser.close()
    except ParseError as error:
        at = error.position[0] if error.position else line
        yield Problem.of(file, at, "", "not well-formed XML: {reason}", reason=str(error))
