"""What the API answers about ratings: evaluation figures, top lists, the club software's member
list and change feed, the recalculation's status, and the explanation of one rating change.

Absent values are null, never left out and never 0. Fields carry the examples that the OpenAPI
document shows.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from zdb.common.utc import UtcDateTime
from zdb.players.schemas import CurrentClub
from zdb.tournaments.schemas import EvaluationFigures, ProvisionalOut

__all__ = [
    "ClassicTermsOut",
    "ClubMemberRating",
    "DirtyPosition",
    "ExplainedGame",
    "ExplanationOut",
    "LastRun",
    "RatingChange",
    "RatingChangeFeed",
    "RecalcProgress",
    "RecalcStatus",
    "StandardTopListEntry",
    "TopListEntry",
    "Wo2026TermsOut",
]

Stage = Literal["established", "stage1", "stage2", "unrated"]

_PROVISIONAL = (
    "why the rating shown rests on a provisional evaluation (its last evaluation in review, inside its complaint "
    "period, or with an open complaint); null where it is definitive or the person was never evaluated"
)


class TopListEntry(BaseModel):
    rank: int = Field(description="equal ratings share a rank", examples=[1])
    pkz: int = Field(examples=[10000042])
    surname: str = Field(examples=["Müller"])
    given_name: str = Field(examples=["Anna"])
    sex: str | None = Field(examples=["F"])
    birth_year: int | None = Field(examples=[2008])
    fide_id: int | None = Field(examples=[24612345])
    nation: str | None = Field(examples=["GER"])
    rating: int = Field(examples=[2143])
    rating_index: int = Field(examples=[57])
    clubs: list[CurrentClub] = Field(description="current memberships")
    provisional: ProvisionalOut | None = Field(default=None, description=_PROVISIONAL)


class ClubMemberRating(BaseModel):
    """One member in the club software's list: everything it mirrors, in one call per club."""

    pkz: int = Field(examples=[10000042])
    member_no: int | None = Field(examples=[17])
    status: Literal["active", "passive"]
    surname: str = Field(examples=["Müller"])
    given_name: str = Field(examples=["Anna"])
    sex: str | None = Field(examples=["F"])
    birth_year: int | None = Field(examples=[2008])
    birth_date: date | None = Field(
        description="non-public: only for the club's own token, a referee of its region, or an admin",
        examples=[None],
    )
    private_fields_visible: bool = Field(description="whether non-public fields are shown (null then means unknown)")
    fide_id: int | None = Field(examples=[24612345])
    nation: str | None = Field(examples=["GER"])
    rating: int | None = Field(examples=[1729])
    rating_index: int | None = Field(examples=[14])
    last_evaluation: str | None = Field(
        description="ISO year-week of the end date of the last tournament that changed the rating",
        examples=["2026-W38"],
    )
    last_evaluation_end_date: date | None = Field(examples=["2026-09-20"])
    rating_changed_at: UtcDateTime | None = Field(examples=["2026-09-21T08:15:00Z"])
    provisional: ProvisionalOut | None = Field(default=None, description=_PROVISIONAL)


class RatingChange(BaseModel):
    pkz: int = Field(examples=[10000042])
    surname: str = Field(examples=["Müller"])
    given_name: str = Field(examples=["Anna"])
    fide_id: int | None = Field(examples=[24612345])
    rating: int | None = Field(examples=[1729])
    rating_index: int | None = Field(examples=[14])
    changed_at: UtcDateTime = Field(examples=["2026-09-21T08:15:00Z"])
    old_rating: int | None = Field(
        default=None, description="before the change (null: unrated before, or no run recorded it)", examples=[1712]
    )
    old_index: int | None = Field(default=None, examples=[13])


class RatingChangeFeed(BaseModel):
    items: list[RatingChange]
    total: int = Field(examples=[1])
    limit: int = Field(examples=[1000])
    offset: int = Field(examples=[0])
    next_changed_since: UtcDateTime = Field(
        description="send this as changed_since next time: no change can fall between two polls",
        examples=["2026-09-21T08:20:00Z"],
    )


class DirtyPosition(BaseModel):
    """The earliest place of the time line that waits for a recalculation (spec §2 order key).
    0001-01-01 (phase 0, no text, id 0): the beginning, the whole time line (initial states
    changed)."""

    date: date
    phase: int = Field(description="0 start rating, 1 tournament, 2 conversion")
    text: str = Field(examples=["BLZ"])
    id: int = Field(examples=[4])


class RecalcProgress(BaseModel):
    done: int = Field(examples=[120])
    total: int = Field(examples=[480])


class LastRun(BaseModel):
    started_at: UtcDateTime | None
    finished_at: UtcDateTime | None
    generation: int | None
    evaluated: int | None = Field(description="tournaments evaluated")
    changed_players: int | None
    duration_ms: int | None
    error: str | None


class RecalcStatus(BaseModel):
    state: Literal["idle", "running", "pending"]
    generation: int = Field(description="rises with every change to the time line", examples=[17])
    dirty_position: DirtyPosition | None
    dirty_since: UtcDateTime | None = Field(
        default=None, description="when the oldest change still waiting for a recalculation was made"
    )
    running_since: UtcDateTime | None
    progress: RecalcProgress | None = Field(description="while a run is in progress")
    last_run: LastRun | None


class ExplainedGame(BaseModel):
    game: int = Field(description="position of the game in the tournament's games", examples=[3])
    round: int | None = Field(examples=[4])
    opponent_pkz: int = Field(examples=[10000007])
    opponent_name: str = Field(examples=["Hans Schmidt"])
    color: Literal["white", "black"]
    result: str = Field(examples=["1/2-1/2"])
    points: float = Field(examples=[0.5])
    rated: bool
    unrated_reason: str | None = Field(
        description='"not played" (forfeit, asymmetric result), "player not rated", "opponent not rated"',
        examples=[None],
    )
    opponent_rating: float | None = Field(
        description="the rating the expected score uses: R0, an Ausnahmespieler's Rh, a newcomer's first rating",
        examples=[1812.0],
    )
    opponent_basis: Literal["r0", "rh", "first_rating"] | None
    difference: float | None = Field(description="own R0 minus the opponent's rating", examples=[-79.0])
    expected: float | None = Field(description="P(D) = ½ · (1 + erf(D / 400)), spec §4", examples=[0.38932])


class ClassicTermsOut(BaseModel):
    """spec §6: E = round(E0 · fB + SBr), bounded; Rn = R0 + 800 · (W − We) / (E + n)."""

    j: int = Field(examples=[15])
    e0: float = Field(description="(R0 / 1000)^4 + J", examples=[23.6])
    fb: float = Field(examples=[1.0])
    sbr: float = Field(examples=[0.0])
    e_unbounded: int = Field(description="round(E0 · fB + SBr)", examples=[24])
    e_min: int = Field(examples=[5])
    cap: int = Field(examples=[30])
    cap_rule: Literal["index", "sbr"]
    e: int = Field(examples=[24])
    rn_exact: float = Field(description="before rounding", examples=[1514.62])
    rn: int = Field(examples=[1515])


class Wo2026TermsOut(BaseModel):
    """spec §7: K = min(80, round₁(K0 · b + a)); Rn = max(1100, round(R0 + K · (W − We)))."""

    row: int = Field(description="row of the K0 table", examples=[2])
    k0: int = Field(examples=[30])
    a: float = Field(description="Erfolgsaufschlag", examples=[0.0])
    b: float = Field(description="Bremsfaktor", examples=[1.0])
    k_exact: float = Field(description="K0 · b + a", examples=[30.0])
    k_rounded: float = Field(description="to one decimal, half up", examples=[30.0])
    k_max: int = Field(examples=[80])
    k: float = Field(examples=[30.0])
    rn_exact: float = Field(description="before rounding and the floor", examples=[1729.65])
    floor: int = Field(examples=[1100])
    rn: int = Field(examples=[1730])


class ExplanationOut(BaseModel):
    """Every term of one player's evaluation in one tournament, recomputed by the rating engine
    from the stored inputs, beside the stored figures."""

    tournament_id: int = Field(examples=[4])
    tournament_version: int = Field(examples=[1])
    acronym: str = Field(examples=["BLZ"])
    end_date: date
    pkz: int = Field(examples=[10000042])
    name: str = Field(examples=["Anna Müller"])
    rule_set: str = Field(examples=["wo2026"])
    stage: Stage
    age: int = Field(description="year of the end date minus birth year; 99 when unknown", examples=[46])
    age_known: bool
    r0: int | None = Field(examples=[1729])
    i0: int | None = Field(examples=[14])
    index_used: int | None = Field(description="the index the E cap or the K0 column uses", examples=[14])
    w: float = Field(examples=[2.5])
    n: int = Field(examples=[4])
    we_exact: float | None = Field(description="Σ expected, before rounding", examples=[2.3784512])
    we: float | None = Field(description="as reported: 6 decimals", examples=[2.378451])
    at_least_expected: bool | None = Field(description="W ≥ We (We to 9 decimals, spec §13.1)")
    games: list[ExplainedGame]
    classic: ClassicTermsOut | None
    wo2026: Wo2026TermsOut | None
    rh: int | None = Field(examples=[None])
    rn: int | None = Field(examples=[1733])
    i_new: int | None = Field(examples=[15])
    stored: bool
    figures: EvaluationFigures = Field(description="the stored evaluation row")
    matches_stored: bool = Field(description="the recomputation gives exactly the stored figures")


class StandardTopListEntry(BaseModel):
    """One line of a standard top list (``zdb.ratings.top_lists``)."""

    rank: int = Field(description="equal ratings share a rank (1, 2, 2, 4)", examples=[1])
    pkz: int = Field(examples=[10000042])
    surname: str = Field(examples=["Müller"])
    given_name: str = Field(examples=["Anna"])
    birth_year: int | None = Field(examples=[1958])
    rating: int = Field(examples=[2143])
    rating_index: int = Field(examples=[57])
    club_code: str = Field(description="his first current club in the federation asked for", examples=["C0327"])
    club_name: str = Field(examples=["SK Musterstadt 1920"])
    provisional: ProvisionalOut | None = Field(default=None, description=_PROVISIONAL)
