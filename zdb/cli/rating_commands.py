"""``zdb rate`` and ``zdb replay``: the engine over the JSON formats of ``vectors.json``, so
that any evaluation can be checked by a script; ``--table`` is the referee's DWZ calculator."""

from __future__ import annotations

import json
from typing import Any

import click

from zdb.cli.errors import read_json, reported_input_errors
from zdb.cli.tables import evaluation_table
from zdb.formats.rating_json import dump_evaluation, dump_replay, load_evaluation_request, load_replay_request
from zdb.rating import build_timeline, evaluate_tournament, replay

__all__ = ["register"]


def _emit(document: Any) -> None:
    click.echo(json.dumps(document, ensure_ascii=False, indent=2))


@click.command()
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--table", is_flag=True, help="Print a readable evaluation table instead of JSON.")
def rate(file: Any, table: bool) -> None:
    """Evaluate one tournament, or a JSON array of them, from FILE ('-' = stdin).

    Input: {"tournament": ..., "states": {...}}. Output: {"rule_set", "rows", "states"}.
    """
    source = file.name if file.name != "<stdin>" else "stdin"
    document = read_json(file, source)
    requests = document if isinstance(document, list) else [document]
    results = []
    with reported_input_errors(source):
        for k, request in enumerate(requests):
            tournament, states = load_evaluation_request(request, f"[{k}]" if isinstance(document, list) else "")
            results.append((tournament, evaluate_tournament(tournament, states)))
    if table:
        click.echo("\n\n".join(evaluation_table(tournament, evaluation) for tournament, evaluation in results))
        return
    dumped = [dump_evaluation(evaluation) for _, evaluation in results]
    _emit(dumped if isinstance(document, list) else dumped[0])


@click.command("replay")
@click.argument("file", type=click.File("r", encoding="utf-8"))
def replay_command(file: Any) -> None:
    """Replay a time line from FILE ('-' = stdin) in the order of the rules.

    Input: {"initial_states": {...}, "events": [...]} with events in submission order (a
    tournament id seen again is a correction; {"withdraw": id} withdraws). Output: {"order",
    "final_states", "history", "reports"}.
    """
    source = file.name if file.name != "<stdin>" else "stdin"
    document = read_json(file, source)
    with reported_input_errors(source):
        states, events = load_replay_request(document)
        result = replay(states, build_timeline(events))
    _emit(dump_replay(result))


def register(group: click.Group) -> None:
    group.add_command(rate)
    group.add_command(replay_command)
