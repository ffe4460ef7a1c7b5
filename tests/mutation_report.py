"""The mutation report: mutmut's verdicts counted per area, with the mutants written down as
equivalent in docs/mutation.md taken out of the score.

Why a script: mutmut prints one line per mutant; the project's question is per area (the
engine, the recalculation's dirty and stale marks, the player matching, the file readers):
how many non-equivalent mutants the tests kill. Run by ``make mutation`` after the run and by
``make mutation-report`` alone. What is mutated is ``[tool.mutmut]`` in pyproject.toml; the
areas below only group the mutant names (module prefixes, the first match wins).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: area -> prefixes of mutant names (module, or module.function as mutmut mangles it)
AREAS: dict[str, tuple[str, ...]] = {
    "engine": ("zdb.rating.",),
    "recalculation: dirty and stale marks": (
        "zdb.timeline.dirty.",
        "zdb.timeline.state.",
        "zdb.recalculation.recalculate.x__mark_evaluated__",
        "zdb.recalculation.recalculate.x__finish__",
        "zdb.recalculation.recalculate.x_recalculate__",
        "zdb.recalculation.recalculate.x_milliseconds_between__",
    ),
    "recalculation: the rest of the run": ("zdb.recalculation.",),
    "matching": ("zdb.players.matching.",),
    "format readers": ("zdb.formats.",),
}
KILLED = {"killed", "timeout", "caught by type check"}
_NAME = re.compile(r"`(zdb\.[^`\s]+__mutmut_\d+)`")


def listed(document: Path, heading: str) -> set[str]:
    """The mutant names listed under the document's ``## heading``."""
    text = document.read_text(encoding="utf-8")
    marker = f"## {heading}"
    section = text.split(marker, 1)[1].split("\n## ", 1)[0] if marker in text else ""
    return set(_NAME.findall(section))


def verdicts() -> dict[str, str]:
    """Every mutant's verdict as ``mutmut results --all true`` prints it."""
    mutmut = Path(sys.executable).with_name("mutmut")
    done = subprocess.run(
        [str(mutmut), "results", "--all", "true"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    found = {}
    for line in done.stdout.splitlines():
        name, _, status = line.strip().partition(": ")
        if name.startswith("zdb."):
            found[name] = status
    return found


def area_of(name: str) -> str:
    return next(area for area, prefixes in AREAS.items() if name.startswith(prefixes))


def main() -> int:
    document = ROOT / "docs" / "mutation.md"
    equivalent = listed(document, "Equivalent mutants")
    # Code that runs only while a module is imported runs before mutmut switches a mutant on.
    at_import = listed(document, "Mutants of code run at import")
    counts: dict[str, Counter[str]] = {area: Counter() for area in AREAS}
    left: dict[str, list[str]] = {area: [] for area in AREAS}
    for name, status in sorted(verdicts().items()):
        area = area_of(name)
        if status == "not checked":
            counts[area]["not run"] += 1
        elif status in KILLED:
            counts[area]["killed"] += 1
        elif name in equivalent:
            counts[area]["equivalent"] += 1
        elif name in at_import:
            counts[area]["at import"] += 1
        else:
            counts[area]["survived"] += 1  # survived, no tests, suspicious, segfault: not killed
            left[area].append(f"{name}: {status}")
    print("| area | run | killed | survived | equivalent | run at import | killed of non-equivalent | not run |")
    print("|---|---|---|---|---|---|---|---|")
    for area, c in counts.items():
        run = c["killed"] + c["survived"] + c["equivalent"] + c["at import"]
        if not run:
            continue
        share = c["killed"] / (c["killed"] + c["survived"]) if c["killed"] + c["survived"] else 1.0
        figures = (run, c["killed"], c["survived"], c["equivalent"], c["at import"], f"{share:.1%}", c["not run"])
        print(f"| {area} | " + " | ".join(map(str, figures)) + " |")
    for area, names in left.items():
        if names:
            print(f"\nnot killed, {area} (mutmut show NAME shows the change):")
            print("\n".join(f"  {name}" for name in names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
