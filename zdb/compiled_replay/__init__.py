"""The time line in one compiled pass: the engine's full replay, with every evaluation inside
one loop over arrays (``loop``), the engine itself kept as the reference.

The engine (``zdb.rating``) evaluates tournaments as batches of array operations, which pays
Python's fixed costs once per batch of a few tournaments; over millions of games those costs,
not the arithmetic, set the pace. Here players' states are arrays indexed by a dense player
number and the time line is offsets into participant and game arrays (``arrays``); the loop
applies every event in order (tournaments with every rule of spec §9, conversions, start
ratings) and stops only where the engine must decide a figure exactly (``driver``). The loops
run compiled by numba when it is installed (``machine``), else interpreted.

A pure library like the engine: no I/O, no clock, no database.
"""

from zdb.compiled_replay.driver import CompiledReplay, compiled_replay

__all__ = ["CompiledReplay", "compiled_replay"]
