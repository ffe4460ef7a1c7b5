"""Seeded fuzzing of every uploaded file the service reads: random bytes and mutated rating-list
ZIPs, FIDE lists (text, XML, ZIP of either) and Swiss-Chess files. Every outcome is either
read (with its problems, each a sentence naming its place) or a typed refusal whose words are
meant for people; no other exception escapes and no text shows a Python exception.

A few hundred cases, each reproducible from its seed (named in the failure); no time limits."""

from __future__ import annotations

import io
import random
import re
import zipfile
from collections.abc import Callable
from functools import partial

import pytest

from tests.formats.swt_files import SAMPLES
from zdb.errors import ValidationError
from zdb.formats.list_model import Problem
from zdb.formats.list_reader import read_rating_list
from zdb.formats.read_limits import ReadLimits, ReadRefusedError
from zdb.formats.tournament_file import read_tournament_file
from zdb.lists.fide_import import read_fide_file
from zdb.lists.fide_upload import fide_lines
from zdb.lists.upload_refusals import refusal_message
from zdb.synthetic.fide_lists import fide_players, write_fide_txt, write_fide_xml
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

#: what a raw exception looks like in a text: ``TypeError: …``, ``BadZipFile``, a traceback
PYTHON = re.compile(r"\b[A-Z][A-Za-z]*(Error|Exception|ZipFile)\b|Traceback|itemgetter|object at 0x")
#: small bounds, so that a mutation that inflates a file is refused quickly
LIMITS = ReadLimits(max_unpacked_bytes=4 * 1024 * 1024, max_lines=50_000, max_line_bytes=64 * 1024)
CASES = 120


def _zip(**members: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name.replace("_", "."), data)
    return out.getvalue()


def _mutated(base: bytes, rng: random.Random) -> bytes:
    """``base`` with one of the damages a file suffers: bytes flipped, cut short, bytes inserted
    or deleted, a stretch repeated, or nothing of it left but random bytes."""
    data = bytearray(base)
    kind = rng.randrange(6)
    if kind == 0:
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == 1:
        del data[rng.randrange(len(data)) :]
    elif kind == 2:
        at = rng.randrange(len(data))
        data[at:at] = rng.randbytes(rng.randint(1, 64))
    elif kind == 3:
        at = rng.randrange(len(data))
        del data[at : at + rng.randint(1, 64)]
    elif kind == 4:
        at = rng.randrange(len(data))
        data[at:at] = data[at : at + rng.randint(1, 200)] * rng.randint(2, 50)
    else:
        data = bytearray(rng.randbytes(rng.randint(0, 4000)))
    return bytes(data)


def _human(text: str, seed: int) -> None:
    assert text.strip(), f"seed {seed}: an empty message"
    assert not PYTHON.search(text), f"seed {seed}: {text}"


def _refused_in_words(read: Callable[[], object], seed: int) -> None:
    try:
        read()
    except ReadRefusedError as error:
        text = str(refusal_message(error))
        assert text != f"{error.file} cannot be read", f"seed {seed}: refusal of kind {error.kind} has no words"
        _human(text, seed)
    except ValidationError as error:
        for problem in error.problems:
            _human(problem.message, seed)


def _rating_list(data: bytes, seed: int) -> None:
    read = read_rating_list(data, name="liste.zip", limits=LIMITS)
    for problem in read.problems:
        _human(problem.message, seed)


def test_mutated_rating_list_zips() -> None:
    base = list_zip_bytes(synthetic_list(11, 25))
    with zipfile.ZipFile(io.BytesIO(list_zip_bytes(synthetic_list(11, 25), "portal"))) as archive:
        files = {info.filename.replace(".", "_"): archive.read(info) for info in archive.infolist()}
    for seed in range(CASES):
        rng = random.Random(seed)
        if seed % 2 == 1:  # the archive sound, its spieler.csv damaged
            data = _zip(**{**files, "spieler_csv": _mutated(files["spieler_csv"], rng)})
        else:
            data = _mutated(base, rng)
        _refused_in_words(partial(_rating_list, data, seed), seed)


def _fide(data: bytes, name: str, seed: int) -> None:
    with fide_lines(data, name, LIMITS) as (lines, member):
        for item in read_fide_file(lines, member, LIMITS):
            if isinstance(item, Problem):
                _human(item.message, seed)


@pytest.mark.parametrize("xml", [False, True], ids=["text", "xml"])
def test_mutated_fide_lists(xml: bool) -> None:
    out = io.BytesIO()
    (write_fide_xml if xml else write_fide_txt)(fide_players(5, 40), out)
    name = "players_list_xml_foa.xml" if xml else "players_list_foa.txt"
    plain = out.getvalue()
    zipped = _zip(**{name.replace(".", "_"): plain})
    for seed in range(CASES):
        rng = random.Random(1000 + seed)
        zip_upload = seed % 2 == 1
        data = _mutated(zipped if zip_upload else plain, rng)
        upload = "players_list.zip" if zip_upload else name
        _refused_in_words(partial(_fide, data, upload, seed), seed)


def test_mutated_swiss_chess_files() -> None:
    samples = [path.read_bytes() for path in sorted(SAMPLES.glob("*.SWT"))]
    assert len(samples) == 2
    for seed in range(CASES):
        rng = random.Random(2000 + seed)
        document = read_tournament_file(_mutated(samples[seed % len(samples)], rng))  # never raises
        for problem in document.problems:
            _human(problem.message, seed)
