"""requirements.lock, the versions the Docker image installs: every dependency of pyproject.toml
is pinned there at a version it allows, and every pin carries its hashes (the image installs
with ``--require-hashes``). Regenerated with ``make lock``; tests/packaging/test_wheel.py
installs the wheel with it and checks that nothing is missing."""

from __future__ import annotations

import re
import tomllib

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.conftest import ROOT

LOCK = (ROOT / "requirements.lock").read_text(encoding="utf-8")
#: one entry per pin: name, version, marker (or ""), and the hash lines that follow
ENTRY = re.compile(
    r"^([A-Za-z0-9._-]+)==(\S+?)(?: ; ([^\\\n]+?))? \\\n((?:    --hash=sha256:[0-9a-f]{64}(?: \\)?\n)+)", re.M
)


def _pins() -> dict[str, list[tuple[Version, str]]]:
    pins: dict[str, list[tuple[Version, str]]] = {}
    for name, version, marker, _hashes in ENTRY.findall(LOCK):
        pins.setdefault(canonicalize_name(name), []).append((Version(version), marker))
    return pins


def test_every_pin_carries_its_hashes() -> None:
    pinned = re.findall(r"^[A-Za-z0-9._-]+==", LOCK, flags=re.M)
    assert pinned and len(ENTRY.findall(LOCK)) == len(pinned)


def test_every_dependency_is_pinned_at_a_version_it_allows() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    pins = _pins()
    for line in dependencies:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        versions = [version for version, marker in pins.get(name, []) if not marker or Marker(marker).evaluate()]
        assert len(versions) == 1, f"{requirement.name}: pinned for this Python as {versions}; run `make lock`"
        assert requirement.specifier.contains(versions[0], prereleases=True), f"{line} != {versions[0]}: `make lock`"
    assert "psycopg-binary" in pins  # the extra of psycopg[binary] came along
