"""The pass's loops, interpreted or compiled to machine code by numba.

numba is optional (as for the engine's kernel, ``zdb.rating.kernel``): without it ``compiled()``
answers ``None`` and a caller replays with the engine (``zdb.rating.replay``), several times
slower. The loops call one another; numba compiles a function only if the functions it calls
are compiled too, so each is compiled with the compiled versions of those it calls in place of
the plain ones (a copy of the function over a copy of its module's names). The machine code is
cached beside the modules, so only the first process after an install compiles it. numba's
cache knows only each function's own source: a function whose callee changed would be loaded
stale, so each copy's name carries a digest of all the pass's sources, and any change to them
compiles everything anew.
"""

from __future__ import annotations

import hashlib
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from zdb.compiled_replay import loop, normal, solvers

__all__ = ["INTERPRETED", "Machine", "compiled"]


@dataclass(frozen=True, slots=True)
class Machine:
    """``loop.timeline_loop`` as it runs, plain Python or machine code, and the functions it
    calls in the same form (by name, for the tests)."""

    timeline_loop: Callable[..., None]
    parts: Mapping[str, Callable[..., Any]] = field(default_factory=dict)


# Functions in the order they must be compiled: each after those it calls.
_ORDER: tuple[tuple[Any, str], ...] = (
    (normal, "_horner"),
    (normal, "inv_cdf"),
    (solvers, "denoised"),
    (solvers, "round_float"),
    (solvers, "round_to"),
    (solvers, "expired"),
    (solvers, "convert"),
    (solvers, "solve_rating"),
    (solvers, "performance_search"),
    (solvers, "joint_solve"),
    (solvers, "classic_e"),
    (solvers, "wo2026_k"),
    (loop, "_fallback"),
    (loop, "_joint_iteration"),
    (loop, "_first_ratings"),
    (loop, "_performances"),
    (loop, "_tournament"),
    (loop, "timeline_loop"),
)


#: the loops as plain Python (slow): what the tests hold the compiled pass to, line for line
INTERPRETED = Machine(loop.timeline_loop, {name: getattr(module, name) for module, name in _ORDER})


@cache  # two threads asking at once may both compile: numba serialises it, same result
def compiled() -> Machine | None:
    """The loops compiled by numba, or ``None`` when numba is not installed."""
    try:
        import numba  # noqa: PLC0415 - imported at first use: the import alone takes half a second
    except ImportError:  # pragma: no cover - numba is a dependency; the engine's path is tested
        return None
    digest = hashlib.sha256(b"".join(Path(str(m.__file__)).read_bytes() for m in (normal, solvers, loop))).hexdigest()
    done: dict[str, Any] = {}
    # No fastmath: the compiled arithmetic must round as Python's does, step for step.
    for module, name in _ORDER:
        function = getattr(module, name)
        if name in done:
            continue
        names = dict(function.__globals__)
        names.update(done)
        copy = types.FunctionType(function.__code__, names, function.__name__, function.__defaults__)
        copy.__qualname__, copy.__module__ = f"{function.__qualname__}_{digest[:12]}", function.__module__
        try:
            done[name] = numba.njit(cache=True, nogil=True, error_model="numpy")(copy)
        except RuntimeError:  # pragma: no cover - no place to write the cache: compiled in each process
            done[name] = numba.njit(nogil=True, error_model="numpy")(copy)
    return Machine(done["timeline_loop"], done)
