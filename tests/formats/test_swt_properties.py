"""Robustness: random bytes, cut-off samples and samples with bytes changed never make the SWT
reader raise; what is not a whole SWT always comes back with an error."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.formats.swt_files import SAMPLES, build, two_rounds
from zdb.formats.swt import read_swt_document
from zdb.formats.tournament_file import read_tournament_file

INDIVIDUAL = (SAMPLES / "SwissIndividual.SWT").read_bytes()
TEAM = (SAMPLES / "SwissTeam.SWT").read_bytes()
SMALL_700 = build(two_rounds(700))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(min_size=0, max_size=4000))
def test_random_bytes_never_raise_and_are_refused(data: bytes) -> None:
    document = read_swt_document(data)
    assert document.errors
    assert document.file_format == "SWT"
    read_tournament_file(data)  # TRF or SWT: never raises


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([INDIVIDUAL, TEAM, SMALL_700]), st.data())
def test_every_cut_off_sample_is_refused(whole: bytes, data: st.DataObject) -> None:
    size = data.draw(st.integers(min_value=0, max_value=len(whole) - 1))
    document = read_swt_document(whole[:size])
    assert document.errors
    assert document.players == ()


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([INDIVIDUAL, TEAM, SMALL_700]),
    st.lists(st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=255)), min_size=1, max_size=40),
)
def test_changed_bytes_never_raise(whole: bytes, changes: list[tuple[int, int]]) -> None:
    data = bytearray(whole)
    for position, value in changes:
        data[position % len(data)] = value
    document = read_swt_document(bytes(data))
    for problem in document.problems:
        assert problem.line is None and problem.place != "file" and str(problem)
    assert document.errors or document.players
