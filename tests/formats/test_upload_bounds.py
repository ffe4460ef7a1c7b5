"""Hostile and malformed list uploads refused at a bound or as what they are, before they cost
the worker its memory or time: ZIP bombs (checked from the directory and while unpacking),
endless lines, too many lines or files, nested XML, entity declarations, a deadline passed;
not a ZIP, a damaged or encrypted archive, a UTF-16 file. Each bomb is built here, streaming,
with the bounds made small so that the test stays quick."""

from __future__ import annotations

import io
import itertools
import struct
import zipfile
import zlib
from collections.abc import Callable

import pytest

from zdb.formats.fide_txt import read_fide_txt
from zdb.formats.fide_xml import read_fide_xml
from zdb.formats.list_model import Problem
from zdb.formats.list_reader import read_rating_list
from zdb.formats.read_limits import ReadLimits, ReadRefusedError, bounded_lines
from zdb.lists.fide_upload import fide_lines
from zdb.lists.upload_refusals import refusal_message
from zdb.synthetic.fide_lists import fide_players, write_fide_txt
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

MB = 1024 * 1024
HEADER = b"ID,ZPS,Mgl-Nr,Status,Spielername,Geschlecht,Spielberechtigung,Geburtsjahr,Letzte-Auswertung,DWZ\r\n"


def _bomb(name: str, head: bytes, newlines: int, *, others: bool = True) -> bytes:
    """A ZIP of ``head`` and ``newlines`` line ends, written in chunks at the highest level."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open(name, "w", force_zip64=True) as member:
            member.write(head)
            chunk = b"\n" * MB
            for _ in range(newlines // MB):
                member.write(chunk)
        if others:
            archive.writestr("vereine.csv", "ZPS-Nummer,Landesverband,UebergeordneterVerband,Vereinsname\r\n")
            archive.writestr("verbaende.csv", "Verbandnummer,Landesverband,UebergeordneterVerband,Verbandname\r\n")
    return buffer.getvalue()


def _refused(read: Callable[[], object]) -> ReadRefusedError:
    with pytest.raises(ReadRefusedError) as refused:
        read()
    return refused.value


def test_a_zip_bomb_is_refused_from_its_directory_before_a_byte_is_unpacked() -> None:
    bomb = _bomb("spieler.csv", HEADER, 64 * MB)
    assert len(bomb) < MB // 4  # 64 MB of line ends pack to some 64 KB
    limits = ReadLimits(max_unpacked_bytes=8 * MB)
    error = _refused(lambda: read_rating_list(bomb, name="LV-0-csv.zip", limits=limits))
    assert (error.kind, error.file, error.values["bound"]) == ("unpacked_too_large", "spieler.csv", 8 * MB)
    message = str(refusal_message(error))
    assert message.startswith("the unpacked file spieler.csv would be larger than 8 MB")
    assert "ZDB_MAX_UNPACKED_BYTES" in message


def test_a_directory_that_understates_a_file_is_caught_while_unpacking() -> None:
    """The directory says 1 KB; the member unpacks to 4 MB: reading stops at the declared size
    and the archive is refused as damaged (its checksum cannot match)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("spieler.csv", HEADER + b"\n" * (4 * MB))
    size = struct.pack("<I", 4 * MB + len(HEADER))
    assert buffer.getvalue().count(size) == 2  # the sizes of the local header and of the directory
    lying = buffer.getvalue().replace(size, struct.pack("<I", 1024))
    limits = ReadLimits(max_unpacked_bytes=2 * MB)
    error = _refused(lambda: read_rating_list(lying, name="LV-0-csv.zip", limits=limits))
    assert (error.kind, error.file) == ("damaged", "spieler.csv")


def test_too_many_lines_are_refused_while_reading() -> None:
    data = _bomb("spieler.csv", HEADER, 2 * MB)
    error = _refused(lambda: read_rating_list(data, limits=ReadLimits(max_lines=100_000)))
    assert (error.kind, error.values["bound"]) == ("too_many_lines", 100_000)
    assert str(refusal_message(error)) == (
        "spieler.csv has more than 100000 lines (the bound for the lines of one file)"
    )


def test_an_endless_line_is_refused_at_the_line_bound() -> None:
    lines = bounded_lines(io.BytesIO(b"a,b\n" + b"x" * (3 * MB)), "spieler.csv", ReadLimits(max_line_bytes=MB))
    error = _refused(lambda: list(lines))
    assert (error.kind, error.values["line"], error.values["bound"]) == ("line_too_long", 2, MB)
    assert str(refusal_message(error)).startswith("line 2 of spieler.csv is longer than 1 MB")


def test_too_many_files_are_refused_from_the_directory() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for k in range(10):
            archive.writestr(f"f{k}.csv", "")
    error = _refused(lambda: read_rating_list(buffer.getvalue(), limits=ReadLimits(max_members=5)))
    assert (error.kind, error.values["count"], error.values["bound"]) == ("too_many_members", 10, 5)


def test_the_deadline_ends_the_reading_between_chunks() -> None:
    ticks = itertools.count()
    limits = ReadLimits(clock=lambda: next(ticks), deadline=0.5, seconds=60)
    data = list_zip_bytes(synthetic_list(5, 5000))
    error = _refused(lambda: read_rating_list(data, limits=limits))
    assert error.kind == "too_slow"
    assert str(refusal_message(error)) == (
        "reading spieler.csv took longer than 60 seconds (the bound for an import's run time, ZDB_LIST_IMPORT_SECONDS)"
    )


def test_a_deadline_not_passed_reads_the_whole_list() -> None:
    data = list_zip_bytes(synthetic_list(5, 300))
    read = read_rating_list(data, limits=ReadLimits(clock=lambda: 0.0, deadline=1.0, seconds=1))
    assert len(read.members) == 300 and not read.problems


# malformed as a whole -------------------------------------------------------------------------


def _patched(data: bytes, signature: bytes, offset: int, value: int) -> bytes:
    """``data`` with the 16-bit field at ``offset`` of every header ``signature`` starts set to ``value``."""
    out = bytearray(data)
    start = out.find(signature)
    while start >= 0:
        out[start + offset : start + offset + 2] = struct.pack("<H", value)
        start = out.find(signature, start + 4)
    return bytes(out)


def test_not_a_zip_is_refused_as_such() -> None:
    error = _refused(lambda: read_rating_list(b"ID,Name\r\n1,x\r\n", name="liste.zip"))
    assert error.kind == "not_zip"
    assert str(refusal_message(error)) == (
        "liste.zip is not a ZIP archive: upload the list as the ZIP it is published in"
    )


def test_an_encrypted_file_is_refused_as_encrypted() -> None:
    data = list_zip_bytes(synthetic_list(5, 10))
    encrypted = _patched(_patched(data, b"PK\x01\x02", 8, 1), b"PK\x03\x04", 6, 1)  # the flag "encrypted"
    error = _refused(lambda: read_rating_list(encrypted))
    assert error.kind == "encrypted" and error.file == "spieler.csv"
    assert "password" in str(refusal_message(error))


def test_a_bad_checksum_is_refused_as_a_damaged_archive() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("spieler.csv", HEADER + b'NU1,C0327,1,A,"Weber,Jana",W,D,1990,202511,1650\r\n')
    data = buffer.getvalue().replace(b"Weber", b"Wiber")  # stored: the bytes change, the CRC does not
    error = _refused(lambda: read_rating_list(data))
    assert (error.kind, error.file) == ("damaged", "spieler.csv")
    assert str(refusal_message(error)).startswith("the archive is damaged: spieler.csv cannot be unpacked")


def test_another_compression_method_is_refused_naming_it() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_BZIP2) as archive:
        archive.writestr("spieler.csv", HEADER)
    error = _refused(lambda: read_rating_list(buffer.getvalue()))
    assert (error.kind, error.values["method"]) == ("compression", zipfile.ZIP_BZIP2)


def test_a_utf16_file_is_refused_naming_the_encoding() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("spieler.csv", HEADER.decode().encode("utf-16"))
        archive.writestr("vereine.csv", "")
        archive.writestr("verbaende.csv", "")
    error = _refused(lambda: read_rating_list(buffer.getvalue()))
    assert (error.kind, error.file) == ("utf16", "spieler.csv")
    assert "UTF-16" in str(refusal_message(error))


# FIDE's list ----------------------------------------------------------------------------------


def test_fide_text_of_random_bytes_is_a_problem_not_a_crash() -> None:
    """It ended as ``TypeError: itemgetter expected 1 argument, got 0``."""
    found = list(read_fide_txt([b"\x8f\x13 zz\n", b"\x01\x02\n"], file="x.txt"))
    assert found == [
        Problem(
            "x.txt",
            1,
            "",
            "no recognisable header: the first line names none of FIDE's columns (ID Number, Name, Fed, ...)",
        )
    ]


def test_a_fide_zip_bomb_is_refused_from_its_directory() -> None:
    bomb = _bomb("players_list_foa.txt", b"ID Number Name\n", 32 * MB, others=False)
    with pytest.raises(Exception) as refused, fide_lines(bomb, "players_list.zip", ReadLimits(max_unpacked_bytes=MB)):
        pass
    assert "would be larger than 1 MB" in str(refused.value)


def test_nested_xml_is_refused_at_the_depth_bound() -> None:
    document = [b"<playerslist>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</playerslist>\n"]
    error = _refused(lambda: list(read_fide_xml(document, "x.xml", ReadLimits(max_xml_depth=16))))
    assert (error.kind, error.values["line"], error.values["bound"]) == ("xml_too_deep", 1, 16)


def test_too_many_xml_elements_are_refused() -> None:
    document = [b"<playerslist>\n", *([b"<a/>\n"] * 1000), b"</playerslist>\n"]
    error = _refused(lambda: list(read_fide_xml(document, "x.xml", ReadLimits(max_xml_elements=500))))
    assert (error.kind, error.values["bound"]) == ("xml_too_many_elements", 500)


def test_an_entity_declaration_is_refused() -> None:
    laughs = b'<?xml version="1.0"?>\n<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n<l>&b;</l>\n'
    error = _refused(lambda: list(read_fide_xml(laughs.splitlines(keepends=True), "x.xml")))
    assert (error.kind, error.values["line"]) == ("xml_dtd", 2)


def test_the_bounds_message_names_each_kind_in_words() -> None:
    """No refusal falls through to the general text: every kind the readers raise has its own."""
    kinds = ("not_zip", "damaged", "encrypted", "compression", "too_many_members", "unpacked_too_large")
    kinds += ("line_too_long", "too_many_lines", "xml_too_deep", "xml_too_many_elements", "xml_dtd", "too_slow")
    for kind in (*kinds, "utf16", "binary"):
        message = refusal_message(ReadRefusedError(kind, "f.csv", line=3, bound=5, count=9, method=12, seconds=1))
        assert str(message) != "f.csv cannot be read", kind
    assert zlib  # the deflate module the bombs are built with


# a control character in a value ---------------------------------------------------------------


def test_a_nul_in_a_list_name_leaves_its_line_out_naming_the_column() -> None:
    """PostgreSQL cannot store a NUL: it failed the import with the database's words."""
    data = synthetic_list(5, 3)
    written = io.BytesIO(list_zip_bytes(data, "portal"))
    buffer = io.BytesIO()
    with zipfile.ZipFile(written) as source, zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            content = source.read(info)
            if info.filename == "spieler.csv":
                lines = content.split(b"\r\n")
                lines[2] = lines[2].replace(b'"Zimmermann', b'"Zimmer\x00mann', 1)
                content = b"\r\n".join(lines)
            target.writestr(info, content)
    read = read_rating_list(buffer.getvalue())
    assert len(read.members) == 2
    assert [(p.file, p.line, p.message) for p in read.problems] == [
        ("spieler.csv", 3, "holds a control character (NUL); a value never does: the file is damaged")
    ]
    assert read.problems[0].column == "Name,Vorname"


def test_a_nul_in_a_fide_name_is_a_problem_naming_the_column() -> None:
    out = io.BytesIO()
    write_fide_txt(fide_players(3, 3), out)
    lines = out.getvalue().splitlines(keepends=True)
    lines[2] = lines[2][:20] + b"\x00" + lines[2][21:]
    found = [item for item in read_fide_txt(lines) if isinstance(item, Problem)]
    assert found == [
        Problem(
            "players_list_foa.txt",
            3,
            "Name",
            "holds a control character (NUL); a value never does: the line is damaged",
        )
    ]
