"""An uploaded ZIP opened within the bounds of ``zdb.formats.read_limits``, its files read as lines.

Before a byte is unpacked, the archive's central directory is checked: a ZIP at all, not
damaged, no more files than allowed, no encrypted file, only the methods the federation's and
FIDE's ZIPs use (stored, deflate), and the sizes it declares within the bound for unpacked
data. The files are then read line by line (``bounded_lines``), never whole, and counted again
while they unpack: the directory's sizes are only what the file claims. A damaged member (a bad
CRC, a broken deflate stream, a file shorter than declared) is refused as a damaged archive.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterator

from zdb.formats.read_limits import ReadLimits, ReadRefusedError, bounded_lines

__all__ = ["files_of", "member_lines", "open_archive"]

#: stored and deflate, what every rating-list and FIDE ZIP uses; bzip2 and LZMA unpack a chunk
#: whole, beyond any bound per read, and are refused
_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})
#: what unpacking a damaged member raises
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError)


def open_archive(data: bytes, name: str, limits: ReadLimits) -> zipfile.ZipFile:
    """The ZIP of ``data``, its central directory checked against ``limits``."""
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise ReadRefusedError("not_zip", name)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError, NotImplementedError) as error:
        raise ReadRefusedError("damaged", name, line=0, reason=type(error).__name__) from None
    files = files_of(archive)
    if len(infos) > limits.max_members:
        raise ReadRefusedError("too_many_members", name, count=len(infos), bound=limits.max_members)
    total = 0
    for info in files:
        if info.flag_bits & 0x1:
            raise ReadRefusedError("encrypted", info.filename)
        if info.compress_type not in _METHODS:
            raise ReadRefusedError("compression", info.filename, method=info.compress_type)
        total += info.file_size
        if info.file_size > limits.max_unpacked_bytes or total > limits.max_unpacked_bytes:
            raise ReadRefusedError("unpacked_too_large", info.filename, bound=limits.max_unpacked_bytes)
    return archive


def files_of(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    return [info for info in archive.infolist() if not info.is_dir()]


def member_lines(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limits: ReadLimits) -> Iterator[bytes]:
    """The lines of one file of the archive, unpacked as they are read; never more bytes than
    its directory entry declares (which ``open_archive`` has bounded)."""
    try:
        stream = archive.open(info)
    except (zipfile.BadZipFile, NotImplementedError, RuntimeError, ValueError, OSError) as error:
        raise ReadRefusedError("damaged", info.filename, line=0, reason=type(error).__name__) from None
    with stream:
        yield from bounded_lines(stream, info.filename, limits, max_bytes=info.file_size, damaged=_DAMAGED)
