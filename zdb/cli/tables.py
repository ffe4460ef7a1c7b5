"""Plain-text tables for the terminal (the referee's view of an evaluation)."""

from __future__ import annotations

from collections.abc import Sequence

from zdb.rating import Tournament, TournamentEvaluation

__all__ = ["evaluation_table", "format_table"]


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool]) -> str:
    widths = [
        max(len(header[c]), *(len(row[c]) for row in rows)) if rows else len(header[c]) for c in range(len(header))
    ]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.rjust(w) if r else cell.ljust(w) for cell, w, r in zip(cells, widths, right, strict=True)
        ).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)])


def _opt(value: object) -> str:
    return "" if value is None else str(value)


def _rating(rating: int | None, index: int | None) -> str:
    return "" if rating is None else f"{rating}-{index}"


#: a participant's place in spec §9's selection, in the referee's words (the codes are the engine's)
STAGE_WORDS = {"established": "rated", "stage1": "newcomer 1", "stage2": "newcomer 2", "unrated": "not rated"}


def evaluation_table(tournament: Tournament, evaluation: TournamentEvaluation) -> str:
    """The evaluation as a referee reads it: R0-i, W/n, We, E or K, Rh, Rn-i, per player."""
    coefficient = "E" if evaluation.rule_set == "classic" else "K"
    header = ["Player", "Stage", "R0-i", "W", "n", "unrated", "We", coefficient, "Rh", "Rn-i", "Note"]
    rows = []
    for row in evaluation.rows:
        notes = []
        if row.fide_start:
            notes.append("FIDE start")
        if row.sonder:
            notes.append("Sonderwertung")
        if not row.member:
            notes.append("guest")
        if row.leftover_used:
            notes.append(f"{row.leftover_used} leftover used")
        if row.leftover_stored:
            notes.append(f"{row.leftover_stored} leftover stored")
        if row.rn is not None and not row.stored and row.member and row.stage.value != "established":
            notes.append("not stored")
        value = row.e if coefficient == "E" else row.k
        rows.append(
            [
                row.pid,
                STAGE_WORDS.get(row.stage.value, row.stage.value),
                _rating(row.r0, row.i0),
                f"{row.w:g}",
                str(row.n),
                str(row.unrated_games),
                "" if row.we is None else f"{row.we:.3f}",
                _opt(value),
                _opt(row.rh),
                _rating(row.rn, row.i_new),
                ", ".join(notes),
            ]
        )
    right = [False, False, True, True, True, True, True, True, True, True, False]
    title = (
        f"Tournament {tournament.id} {tournament.acronym}, ending {tournament.end_date.isoformat()}: "
        f"rule set {evaluation.rule_set}, {len(tournament.players)} players, {len(tournament.games)} games"
    )
    return title + "\n\n" + format_table(header, rows, right)
