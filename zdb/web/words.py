"""The words the pages show for the codes the rating data keeps (rule sets, stages, the basis
of an opponent's rating, the rule of the E cap, why a game is not rated): a German page never
shows a slug such as ``wo2026`` or ``first_rating`` where a word is meant.

Each word is an English message id marked for the catalogue; the ``word`` filter translates it
into the page's language. A code without a word is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from zdb.web.i18n import mark

__all__ = ["WORDS", "word"]

WORDS: dict[str, str] = {
    # rule sets of the DWZ and of the simulator's other systems
    "classic": mark("classic rules (coefficient E)"),
    "wo2026": mark("Rating Regulations 2026 (factor K)"),
    "fide-2024": mark("FIDE rules of March 2024"),
    "fide-2025-10": mark("FIDE rules of October 2025"),
    "fcr-seed003": mark("FCR: the Freechess rating of the online server Freechess"),
    "ingo-seed002": mark("Ingo rules"),
    # the conversion of every rating to the 2026 rules (zdb.rating.rulesets.CONVERSIONS)
    "conversion-2026": mark("every rating converted to the Rating Regulations 2026"),
    # stages of a player before a tournament
    "established": mark("rated player (Auswahl I)"),
    "stage1": mark("newcomer, stage 1 (enough games against rated players)"),
    "stage2": mark("newcomer, stage 2 (with games against newcomers of stage 1)"),
    "unrated": mark("not rated (outside Auswahl II)"),
    # the rating an opponent counts with
    "r0": mark("rating before the tournament"),
    "rh": mark("performance Rh"),
    "first_rating": mark("first rating of a newcomer"),
    # the rule that bounds E
    "index": mark("cap by the index"),
    "sbr": mark("cap by the braking term SBr"),
    # why a game is not rated
    "not played": mark("not played"),
    "player not rated": mark("player not rated"),
    "opponent not rated": mark("opponent not rated"),
}


def word(code: str | None, gettext: Callable[[str], str]) -> str:
    """The word for ``code`` in the language of ``gettext``; an unknown code as it is."""
    if code is None:
        return "–"
    known = WORDS.get(code)
    return gettext(known) if known is not None else code
