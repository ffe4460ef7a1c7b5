"""The recalculation's compiled kernel is on unless the environment switches it off."""

from __future__ import annotations

import pytest

from zdb.config import Settings


def test_the_compiled_kernel_is_on_by_default() -> None:
    assert Settings.from_environment({}).compiled_kernel


@pytest.mark.parametrize("value", ["off", "0", "false", "No"])
def test_the_environment_switches_the_compiled_kernel_off(value: str) -> None:
    assert not Settings.from_environment({"ZDB_COMPILED_KERNEL": value}).compiled_kernel
