"""The first steps of the README: ``make`` says what it does while it installs, the examples name
codes the synthetic federation it tells you to load (``zdb synth --scale 0.01``) has, and the
``zdb synth`` line says its real default scale."""

from __future__ import annotations

import re

from tests.conftest import ROOT
from zdb.cli.db_commands import synth_command
from zdb.exchange.synthetic import prefix_of
from zdb.synthetic import generate

README = (ROOT / "README.md").read_text(encoding="utf-8")
#: the section whose examples use the rating list ``zdb lists synth`` writes, not ``zdb synth``
_FIRST_DAY = re.search(r"## A federation's first day\n.*?(?=\n## )", README, re.DOTALL)


def _named(text: str) -> tuple[set[str], set[str]]:
    federations = set(re.findall(r"federation=([0-9A-Z]+)", text)) | set(
        re.findall(r"--role referee --scope ([0-9A-Z]+)", text)
    )
    federations |= set(re.findall(r'"federation": "([0-9A-Z]+)"', text))
    clubs = set(re.findall(r"/clubs/([0-9A-Z]{5})/", text)) | set(re.findall(r"--role club --scope ([0-9A-Z]+)", text))
    clubs |= set(re.findall(r'"club_code": "([0-9A-Z]{5})"', text))
    return federations, clubs


def test_every_code_of_the_examples_is_in_the_small_synthetic_federation() -> None:
    world = generate(seed=1, scale=0.01)
    federations = {prefix_of(f.code, f.level) for f in world.federations}
    clubs = {c.zps for c in world.clubs}
    assert _FIRST_DAY is not None
    named_federations, named_clubs = _named(README.replace(_FIRST_DAY.group(0), ""))
    assert named_federations and named_clubs
    assert named_federations <= federations, named_federations - federations
    assert named_clubs <= clubs, named_clubs - clubs


def test_every_code_of_the_first_day_is_in_the_list_zdb_lists_synth_writes() -> None:
    from zdb.lists.codes import prefix_of_code
    from zdb.synthetic.rating_lists import synthetic_list

    data = synthetic_list(1, 2000)  # zdb lists synth's defaults
    federations = {prefix_of_code(f.code) for f in data.federations}
    clubs = {c.code for c in data.clubs}
    assert _FIRST_DAY is not None
    named_federations, named_clubs = _named(_FIRST_DAY.group(0))
    assert named_federations and named_clubs
    assert named_federations <= federations, named_federations - federations
    assert named_clubs <= clubs, named_clubs - clubs


def test_the_synth_line_says_the_default_scale() -> None:
    default = next(p.default for p in synth_command.params if p.name == "scale")
    # The reference line of "The rating database" (the quick look's line names --scale 0.01).
    line = next(line for line in README.splitlines() if line.startswith("zdb synth") and "the default" in line)
    assert f"--scale {default} " in line and f"{default}, the default" in line


def test_make_says_what_it_does_while_it_installs() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("$(STAMP): pyproject.toml") :].split("\n\n")[0]
    assert "--quiet" not in recipe
    assert len(re.findall(r"^\t@echo ", recipe, re.M)) >= 3
