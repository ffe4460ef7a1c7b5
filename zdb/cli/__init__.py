"""The ``zdb`` command: one click group; each area registers its commands from its own module."""

from __future__ import annotations

import click

import zdb.models  # noqa: F401 - every table known: a flush orders tables by foreign keys whose targets must be known
from zdb import __version__
from zdb.cli import (
    api_commands,
    db_commands,
    list_commands,
    portal_commands,
    rating_commands,
    service_commands,
    simulator_commands,
    standings_commands,
    token_commands,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="zdb")
def main() -> None:
    """ZDB: the central rating database of a chess federation (DWZ)."""


for _module in (
    rating_commands,
    standings_commands,
    simulator_commands,
    db_commands,
    list_commands,
    service_commands,
    api_commands,
    token_commands,
    portal_commands,
):
    _module.register(main)
