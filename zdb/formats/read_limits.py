"""The bounds every uploaded list is read within, and the refusal when one is exceeded.

A rating-list ZIP or FIDE's list comes from staff, but one corrupt or hostile file must not
take the worker's memory or time: a megabyte of ZIP can unpack to gigabytes, a line can be the
whole file, an XML document can nest a million elements. The readers take a ``ReadLimits`` from
their caller (who reads it from the settings) and stop with ``ReadRefusedError`` at the first
bound exceeded, naming it. The limits also carry the import's deadline: a clock handed in from
outside (this library reads no clock itself) and the time on that clock by which reading must
be done, checked between chunks of lines.

``ReadRefusedError`` also stands for an upload that is malformed as a whole (not a ZIP, a damaged
or encrypted archive, a UTF-16 or binary file): ``kind`` says which, ``values`` what to name;
the caller words it for people (``zdb.lists.upload_refusals``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

__all__ = ["ReadLimits", "ReadRefusedError", "bounded_lines"]

#: bytes read from a stream at a time
_CHUNK = 256 * 1024


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """Bounds of one upload's reading. The defaults are generous for FIDE's full XML list
    (about 860 MB and 40 M lines unpacked); the service's come from its settings."""

    #: bytes unpacked from an archive, all members together (and any one file read)
    max_unpacked_bytes: int = 1536 * 1024 * 1024
    #: files in an archive
    max_members: int = 64
    #: lines of one file
    max_lines: int = 80_000_000
    #: bytes of one line
    max_line_bytes: int = 1024 * 1024
    #: nesting of XML elements (FIDE's list nests three deep)
    max_xml_depth: int = 16
    #: XML elements of one document
    max_xml_elements: int = 80_000_000
    #: the time source of the deadline (``None``: no deadline)
    clock: Callable[[], float] | None = None
    #: the time on ``clock`` by which the reading must end
    deadline: float | None = None
    #: the run time the deadline stands for, in seconds (named in the refusal)
    seconds: float | None = None

    def check_deadline(self, file: str) -> None:
        if self.clock is not None and self.deadline is not None and self.clock() > self.deadline:
            raise ReadRefusedError("too_slow", file, seconds=self.seconds or 0)


class ReadRefusedError(ValueError):
    """An upload refused as a whole: ``kind`` is what is wrong, ``file`` where, ``values`` the
    figures to name (a line, a size, the bound)."""

    def __init__(self, kind: str, file: str, **values: object) -> None:
        super().__init__(f"{file}: {kind} {values}")
        self.kind = kind
        self.file = file
        self.values = values


def bounded_lines(
    stream: IO[bytes],
    file: str,
    limits: ReadLimits,
    *,
    max_bytes: int | None = None,
    damaged: tuple[type[BaseException], ...] = (),
) -> Iterator[bytes]:
    """The lines of ``stream`` (each with its end), never more than the limits allow: a line
    longer than ``max_line_bytes``, more than ``max_lines`` lines or more than ``max_bytes``
    bytes (default: ``max_unpacked_bytes``) refuse the file. An error of ``damaged`` while
    reading (a ZIP member's bad CRC, a broken deflate stream) refuses it as a damaged archive.

    The stream is read in chunks and split here (a ZIP member's own ``readline`` is a Python
    loop, several times slower); what is held is one chunk and the unfinished line before it,
    which the line bound keeps small."""
    budget = limits.max_unpacked_bytes if max_bytes is None else max_bytes
    read = count = 0
    pending = b""
    while True:
        try:
            chunk = stream.read(_CHUNK)
        except damaged as error:
            raise ReadRefusedError("damaged", file, line=count + 1, reason=type(error).__name__) from None
        read += len(chunk)
        if read > budget:
            raise ReadRefusedError("unpacked_too_large", file, bound=budget)
        if not chunk:
            if pending:
                yield from _checked([pending], count, file, limits)
            return
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        if len(pending) > limits.max_line_bytes:
            raise ReadRefusedError("line_too_long", file, line=count + len(lines) + 1, bound=limits.max_line_bytes)
        yield from _checked([line + b"\n" for line in lines], count, file, limits)
        count += len(lines)


def _checked(lines: list[bytes], before: int, file: str, limits: ReadLimits) -> list[bytes]:
    """``lines``, the lines after line ``before``, checked against the line bounds and the
    deadline: once for all of them (a check per line would cost more than the line)."""
    if lines and max(map(len, lines)) > limits.max_line_bytes:
        long = next(k for k, line in enumerate(lines) if len(line) > limits.max_line_bytes)
        raise ReadRefusedError("line_too_long", file, line=before + long + 1, bound=limits.max_line_bytes)
    if before + len(lines) > limits.max_lines:
        raise ReadRefusedError("too_many_lines", file, bound=limits.max_lines)
    limits.check_deadline(file)
    return lines
