"""The named choices every NDCG convention picks from.

Each choice is a string enum (its value is what files, the command line and
the JSON say) with a label and a formula text for people; see
``docs/conventions.md``. The gain rules, which also carry arithmetic, are
:mod:`core.model.gain_rules`. :mod:`core.model.conventions` builds the
conventions from them (and re-exports them).
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

__all__ = [
    "ConsensusRule",
    "DiscountRule",
    "IdealInventory",
    "Rounding",
    "TieRule",
    "UnknownRule",
    "UnrankedRule",
    "Weighting",
    "ZeroIdealRule",
]


class _Choice(StrEnum):
    """A named choice with a label and formula text for people."""

    _TEXT: ClassVar[dict[str, tuple[str, str]]]

    @property
    def label(self) -> str:
        return type(self)._TEXT[str(self)][0]

    @property
    def formula(self) -> str:
        return type(self)._TEXT[str(self)][1]


class DiscountRule(_Choice):
    LOG2 = "log2"


DiscountRule._TEXT = {"log2": ("log2 discount", "discount(r) = 1 / log2(r + 1), r = 1-based rank")}


class IdealInventory(_Choice):
    RANKED = "ranked"
    JUDGED = "judged"


IdealInventory._TEXT = {
    "ranked": (
        "ranked candidates only",
        "ideal list = the ranked candidates' gains, highest first",
    ),
    "judged": (
        "every judged candidate",
        "ideal list = every judged candidate of the query, retrieved or not, highest gain first",
    ),
}


class TieRule(_Choice):
    SUPPLIED = "supplied"
    AVERAGE = "average"
    PESSIMISTIC = "pessimistic"
    OPTIMISTIC = "optimistic"
    ID_DESC = "id-desc"


TieRule._TEXT = {
    "supplied": ("supplied order", "equal scores keep the given row order"),
    "average": (
        "averaged over tie orders",
        "each member of a tie group gets the mean discount of the group's positions",
    ),
    "pessimistic": ("pessimistic", "equal scores ordered lowest gain first"),
    "optimistic": ("optimistic", "equal scores ordered highest gain first"),
    "id-desc": (
        "source id descending",
        "equal scores ordered by source id, descending (trec_eval)",
    ),
}


class UnknownRule(_Choice):
    UNRESOLVED = "unresolved"
    ZERO = "zero"
    CONDENSED = "condensed"


UnknownRule._TEXT = {
    "unresolved": (
        "unknown grades leave NDCG unresolved",
        "a query with an unknown grade gets no NDCG, only bounds",
    ),
    "zero": ("unknown grades count as 0", "gain(unknown) = 0, by declared choice"),
    "condensed": (
        "unknown grades removed (condensed list)",
        "candidates without a grade are removed before ranking",
    ),
}


class ZeroIdealRule(_Choice):
    UNDEFINED = "undefined"
    ZERO = "zero"


ZeroIdealRule._TEXT = {
    "undefined": ("ideal DCG 0 is undefined", "IDCG = 0: NDCG undefined, excluded from means"),
    "zero": ("ideal DCG 0 counts as NDCG 0", "IDCG = 0: NDCG = 0, averaged in"),
}


class UnrankedRule(_Choice):
    UNDEFINED = "undefined"
    ZERO = "zero"


UnrankedRule._TEXT = {
    "undefined": (
        "a query with no ranking has no NDCG",
        "no ranked candidate (judgments only, or no run for the query): status unranked, "
        "excluded from means and counted",
    ),
    "zero": (
        "a query with no ranking is an empty list",
        "no ranked candidate: DCG = 0, NDCG = 0 / ideal DCG, averaged in (trec_eval -c)",
    ),
}


class Weighting(_Choice):
    EQUAL = "equal"
    FREQUENCY = "frequency"
    IMPORTANCE = "importance"


Weighting._TEXT = {
    "equal": ("equal-query mean", "mean = sum(NDCG_q) / n"),
    "frequency": ("frequency-weighted mean", "mean = sum(f_q * NDCG_q) / sum(f_q)"),
    "importance": ("importance-weighted mean", "mean = sum(w_q * NDCG_q) / sum(w_q)"),
}


class ConsensusRule(_Choice):
    MEAN = "mean"
    MEDIAN = "median"
    MAJORITY = "majority"
    MINIMUM = "minimum"
    MAXIMUM = "maximum"


ConsensusRule._TEXT = {
    "mean": ("mean of the annotators' grades", "grade = mean(annotator grades)"),
    "median": ("median of the annotators' grades", "grade = median(annotator grades)"),
    "majority": (
        "majority grade",
        "grade = the most frequent annotator grade; a tie between grades goes to the lower",
    ),
    "minimum": ("lowest annotator grade", "grade = min(annotator grades)"),
    "maximum": ("highest annotator grade", "grade = max(annotator grades)"),
}


class Rounding(_Choice):
    NONE = "none"
    HALF_UP = "half-up"
    HALF_EVEN = "half-even"
    FLOOR = "floor"
    CEILING = "ceiling"


Rounding._TEXT = {
    "none": ("no rounding", "the consensus keeps full precision"),
    "half-up": ("round half up", "grade = floor(x + 0.5)"),
    "half-even": ("round half to even", "grade = round(x), .5 to the even neighbour"),
    "floor": ("round down", "grade = floor(x) (trec_eval truncates fractional grades)"),
    "ceiling": ("round up", "grade = ceil(x)"),
}
