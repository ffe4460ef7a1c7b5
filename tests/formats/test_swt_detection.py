"""Telling an SWT from a text at its first bytes, and the refusal of a file that is no SWT of a
version read: the limits of ``zdb.formats.swt.reader.is_binary`` (eight control bytes among the
first 611, the version bytes at 0x261 included; UTF-16 text by its byte order mark or by NUL in
nine of ten high bytes of its first hundred letters) and the refusals' whole texts."""

from __future__ import annotations

import pytest

from zdb.formats.swt import read_swt
from zdb.formats.tournament_file import is_swt

#: the version bytes (general data, field 9999 of the structure description) and what follows
VERSION_AT = 0x261
HEAD = VERSION_AT + 2
ADVICE = "export the tournament from Swiss-Chess as FIDE TRF and send that file instead"


def _text_with_nul_at(*places: int, size: int = 1000) -> bytes:
    data = bytearray(b"a" * size)
    for place in places:
        data[place] = 0
    return bytes(data)


@pytest.mark.parametrize(
    ("places", "binary"),
    [
        ((300, 310, 320, 330, 340, 350, 360, 370), True),  # eight control bytes
        ((300, 310, 320, 330, 340, 350, 360), False),  # seven
        ((300, 310, 320, 330), False),  # four
        ((300, 310, 320, 330, 340, 350, VERSION_AT, VERSION_AT + 1), True),  # the version bytes count
        ((300, 310, 320, 330, 340, 350, 360, HEAD), False),  # the 612th byte does not
    ],
)
def test_eight_control_bytes_among_the_first_611_make_a_binary_file(places: tuple[int, ...], binary: bool) -> None:
    assert is_swt(_text_with_nul_at(*places)) is binary


@pytest.mark.parametrize(("bom", "codec"), [(b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")])
def test_utf16_text_with_a_byte_order_mark_is_text_in_any_script(bom: bytes, codec: str) -> None:
    # Cyrillic letters: every byte of U+0410 to U+044F is a control byte or a letter, no NUL
    text = "Кузнецов Иван Петрович " * 20
    assert not is_swt(bom + text.encode(codec))


def test_utf16_text_without_a_byte_order_mark_may_have_a_tenth_of_its_letters_beyond_latin_1() -> None:
    # the first hundred letters: ten of them U+0101 (high byte 1), ninety with a high byte NUL
    text = "ā" * 10 + "a" * 90 + "a" * 300
    assert not is_swt(text.encode("utf-16-le"))
    assert is_swt(("ā" * 11 + "a" * 389).encode("utf-16-le"))


def test_utf16_text_is_told_by_its_first_hundred_letters() -> None:
    # the 101st letter, U+0100, has a NUL as its low byte: beyond the hundred letters looked at
    text = "a" * 100 + "Ā" + "a" * 300
    assert not is_swt(text.encode("utf-16-le"))


def test_another_swiss_chess_version_is_named_even_in_a_file_ending_after_it() -> None:
    data = bytearray(b"\x00" * HEAD)
    data[VERSION_AT:HEAD] = (600).to_bytes(2, "little")
    (problem,) = read_swt(bytes(data)).problems
    assert problem.message == (
        "this Swiss-Chess file has version 6.00, which is not read: only SWT files of Swiss-Chess "
        f"7.xx and 8.xx are; {ADVICE}"
    )
    assert (problem.field, problem.record) == ("file version", "general data")


@pytest.mark.parametrize("data", [b"\x00" * 5000, b"\x00" * (HEAD - 1)])
def test_bytes_that_are_no_swt_are_refused_with_what_is_read(data: bytes) -> None:
    (problem,) = read_swt(data).problems
    assert problem.message == (
        "the file is neither a TRF text nor a Swiss-Chess SWT file: SWT files of Swiss-Chess 7.xx and 8.xx "
        f"are read; otherwise {ADVICE}"
    )
    assert (problem.field, problem.record) == ("file version", "general data")
