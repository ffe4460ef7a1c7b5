"""A long command's progress (``zdb.cli.progress``): one line rewritten in place on a terminal;
piped, whole lines only, few of them, and ``zdb synth``'s output without a carriage return."""

from __future__ import annotations

from click.testing import CliRunner

from zdb.cli import main
from zdb.cli.progress import Progress


def _printed(runner: CliRunner, *calls: tuple[int, int, str | None], clock: list[float] | None = None) -> str:
    moments = clock if clock is not None else [0.0]

    @main.command("progress-probe", hidden=True)
    def probe() -> None:
        report = Progress("work", "items", terminal=False, every=30.0, clock=lambda: moments[0])
        for done, total, phase in calls:
            report(done, total, phase)
            if clock is not None:
                moments[0] += 1.0
        report.end()

    try:
        result = runner.invoke(main, ["progress-probe"])
    finally:
        main.commands.pop("progress-probe")
    assert result.exit_code == 0, result.output
    return result.stderr


def test_piped_progress_is_whole_lines_one_per_tenth_and_per_phase() -> None:
    calls = [(done, 10_000, "counting") for done in range(10_001)]
    text = _printed(CliRunner(), (0, 2, "reading"), *calls)
    assert "\r" not in text
    lines = text.splitlines()
    assert lines[0] == "work: reading 0/2 items (0 %)"
    assert lines[1] == "work: counting 0/10,000 items (0 %)"
    assert lines[2:] == [f"work: counting {n:,}/10,000 items ({n // 100} %)" for n in range(1_000, 10_001, 1_000)]


def test_piped_progress_without_a_total_prints_at_most_one_line_per_interval() -> None:
    # a clock advancing one second a call: a line every 30 calls, and the last state at the end
    text = _printed(CliRunner(), *[(done, 0, None) for done in range(1, 101)], clock=[0.0])
    assert "\r" not in text
    assert text.splitlines() == [f"work: {n} items" for n in (1, 31, 61, 91, 100)]
