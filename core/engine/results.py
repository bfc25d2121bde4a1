"""What the engine says of each query: DCG, ideal DCG and NDCG at each
cutoff, and why a query has (or has not) an NDCG, as one immutable record.

A query's numbers follow from its own rows only, so after a grade edit the
record of the whole document is the old one with the edited queries' rows
taken from theirs (:meth:`QueryResults.spliced`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from core.model.conventions import UnrankedRule, ZeroIdealRule

__all__ = ["STATUS_BY_CODE", "QueryCutoff", "QueryResults", "Status"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
CodeArray = npt.NDArray[np.int8]
BoolArray = npt.NDArray[np.bool_]


class Status(StrEnum):
    """Why a query has, or has not, an NDCG value."""

    OK = "ok"
    UNDEFINED = "undefined"
    NEGATIVE = "negative"
    UNRESOLVED = "unresolved"
    UNRANKED = "unranked"

    @property
    def reason(self) -> str:
        return {
            "ok": "NDCG is defined",
            "undefined": "the ideal DCG is 0 (no positive gain to rank), so NDCG is 0/0",
            "negative": "the ideal DCG is below 0 (its negative gains outweigh the positive "
                        "ones), so DCG / ideal DCG is no NDCG: it could pass 1",
            "unresolved": "some grades are unknown, so NDCG is not determined",
            "unranked": "no candidate is ranked (judgments only, or no run for the query), "
                        "so there is no ranking to score",
        }[self.value]

    @property
    def code(self) -> int:
        """Its code in :attr:`QueryResults.status_code`."""
        return STATUS_BY_CODE.index(self)


#: Each status by its code in :attr:`QueryResults.status_code` (a worse status
#: has a higher code, so a query's worst status is its highest code: a query
#: with no ranking is unranked whatever its grades).
STATUS_BY_CODE = (Status.OK, Status.UNDEFINED, Status.NEGATIVE, Status.UNRESOLVED,
                  Status.UNRANKED)


@dataclass(frozen=True)
class QueryCutoff:
    """One query's numbers at one cutoff (``None`` where not determined)."""

    k: int | None
    dcg: float | None
    idcg: float | None
    ndcg: float | None
    status: Status


@dataclass(frozen=True)
class QueryResults:
    """Every query's numbers: rows are queries, columns the cutoffs.

    ``dcg``, ``idcg`` and ``ndcg`` (NaN where not determined), ``status_code``
    (see :meth:`status`) and, per query, ``n_open``: the candidates whose grade
    is not known but counts (only under the ``unresolved`` rule; such a query
    has no ideal DCG and no NDCG).
    """

    dcg: FloatArray
    idcg: FloatArray
    ndcg: FloatArray
    status_code: CodeArray
    n_open: IntArray

    @classmethod
    def from_sums(cls, dcg: FloatArray, idcg: FloatArray, n_open: IntArray,
                  zero_ideal: ZeroIdealRule, unranked: BoolArray | None = None,
                  unranked_rule: UnrankedRule = UnrankedRule.UNDEFINED) -> QueryResults:
        """NDCG = DCG / ideal DCG and each one's status, from the sums (``idcg``
        is changed: NaN for a query with open grades). ``unranked`` marks the
        queries with no ranked candidate: under :attr:`UnrankedRule.UNDEFINED`
        they get no NDCG and the status ``unranked``; under ``zero`` they are
        empty lists (DCG 0), as trec_eval ``-c`` scores a query missing from
        the run."""
        unresolved = n_open > 0
        idcg[unresolved, :] = np.nan
        # (a ratio past the largest float: core.engine.gains.check_totals says so)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            ndcg = dcg / idcg
        zero = idcg == 0
        ndcg[zero] = 0.0 if zero_ideal is ZeroIdealRule.ZERO else np.nan
        ndcg[unresolved, :] = np.nan
        status = np.zeros(ndcg.shape, dtype=np.int8)
        if zero_ideal is ZeroIdealRule.UNDEFINED:
            status[zero] = Status.UNDEFINED.code
        negative = idcg < 0
        ndcg[negative] = np.nan
        status[negative] = Status.NEGATIVE.code
        status[unresolved, :] = Status.UNRESOLVED.code
        if unranked is not None and unranked_rule is UnrankedRule.UNDEFINED:
            ndcg[unranked, :] = np.nan
            status[unranked, :] = Status.UNRANKED.code
        return cls(dcg, idcg, ndcg, status, n_open)

    def spliced(self, queries: IntArray, part: QueryResults) -> QueryResults:
        """These results with the rows of ``queries`` (ascending) taken from
        ``part``, the results of those queries alone, in that order."""
        def put(name: str) -> Any:
            values = getattr(self, name).copy()
            values[queries] = getattr(part, name)
            return values

        return QueryResults(**{f.name: put(f.name) for f in fields(self)})

    def status(self, q: int, j: int = 0) -> Status:
        """Query ``q``'s status at the ``j``-th cutoff."""
        return STATUS_BY_CODE[int(self.status_code[q, j])]

    def query_status(self, q: int) -> Status:
        """The query's worst status over the cutoffs."""
        return STATUS_BY_CODE[int(self.status_code[q].max())]

    def status_table(self) -> tuple[list[list[Status]], list[Status]]:
        """Every query's status at each cutoff, and its worst one (as
        :meth:`status` and :meth:`query_status`, all at once)."""
        codes = self.status_code
        at_cutoffs = [[STATUS_BY_CODE[c] for c in row] for row in codes.tolist()]
        worst = [STATUS_BY_CODE[c] for c in codes.max(axis=1, initial=0).tolist()]
        return at_cutoffs, worst

    def cutoff_results(self, q: int, cutoffs: tuple[int | None, ...]) -> list[QueryCutoff]:
        """Query ``q``'s numbers at each of ``cutoffs`` (those of the columns)."""
        def val(x: float) -> float | None:
            return None if np.isnan(x) else float(x)

        return [QueryCutoff(k, val(self.dcg[q, j]), val(self.idcg[q, j]), val(self.ndcg[q, j]),
                            self.status(q, j)) for j, k in enumerate(cutoffs)]
