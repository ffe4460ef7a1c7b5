"""The words the fee and FIDE registration pages show for their codes (a line's kind, a
tournament's system, FIDE's rating category, a registration's state), marked for the catalogue."""

from __future__ import annotations

from zdb.web.i18n import mark

__all__ = ["FEE_WORDS"]

FEE_WORDS: dict[str, str] = {
    "dwz_tournament": mark("DWZ fee per tournament"),
    "dwz_game": mark("DWZ fee per game"),
    "dwz_non_member": mark("DWZ fee per non-member"),
    "fide_player": mark("FIDE fee per player"),
    "fide_round_robin": mark("FIDE fee per player (round robin, by average Elo)"),
    "fide_late": mark("late report fee (FIDE)"),
    "swiss": mark("Swiss system"),
    "round_robin": mark("round robin"),
    "team": mark("team tournament"),
    "standard": mark("standard"),
    "rapid": mark("rapid"),
    "blitz": mark("blitz"),
    "registered": mark("registered"),
    "results_received": mark("results received"),
    "evaluated": mark("evaluated"),
    "withdrawn": mark("withdrawn"),
    "evaluation": mark("evaluation"),
    "withdrawal": mark("withdrawal"),
}
