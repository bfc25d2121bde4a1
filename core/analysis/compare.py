"""Compare two rankings of the same queries under the same judgments.

Both documents are evaluated under one set of conventions. The query sets are
aligned by query id (queries in only one document are named, never averaged
in); candidates are aligned by source id within each query. Per query and
cutoff: both NDCG values, the delta (B - A) and the outcome for B against A,
and the candidates that moved, entered or left the cut with the contribution
each gained or lost. Over the queries defined in both: the mean delta, a
paired sign-flip randomization test and a bootstrap percentile interval (both
with their resamples and seed stated), and how many deltas change sign or
vanish under another tie rule. Finally, what differs between the two
documents (declared conventions, candidate inventory, grades, order, weights)
in one plain sentence that does not single out one cause when several changed.

Everything per candidate is computed with array operations; candidate lists
for one query are built only when asked for.
"""

from __future__ import annotations

import argparse
import itertools
import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np
import numpy.typing as npt

from core.analysis.aggregate import CutoffSummary, summarize
from core.engine.evaluation import Evaluation, Status, evaluate, source_order_keys
from core.errors import InputError
from core.model.conventions import Conventions, TieRule, Weighting, format_cutoff
from core.model.document import Document, GradeState

if TYPE_CHECKING:
    from core.io.trec import QrelsColumns, Run

__all__ = [
    "TIE_TOLERANCE",
    "CandidateChange",
    "Comparison",
    "InventoryChange",
    "PairedTest",
    "QueryDelta",
    "TieSensitivity",
    "WhatChanged",
    "compare",
    "compare_json",
    "load_against",
    "load_pair",
    "paired_bootstrap",
    "paired_randomization",
    "print_comparison",
    "run_compare_command",
    "run_with_judgments",
    "subset_document",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Two NDCG values closer than this are a tie (floating-point noise, not a change).
TIE_TOLERANCE = 1e-12
#: Sign-flip vectors (or bootstrap samples) drawn per block, to bound memory.
_BLOCK = 1024


# ---------------------------------------------------------------------------------------------
# result values


@dataclass(frozen=True)
class CandidateChange:
    """One candidate whose place in the cut at ``k`` differs between A and B.

    ``kind`` is ``moved`` (in both cuts, at another rank, or at the same rank
    in another tie group), ``entered`` (in B's cut only), ``left`` (in A's cut
    only) or ``regraded`` (same rank, another gain). Ranks are None where the
    candidate is not ranked; contributions are to DCG@k (0 outside the cut,
    NaN when the gain is unknown).
    """

    source_id: str
    kind: str
    rank_a: int | None
    rank_b: int | None
    contribution_a: float
    contribution_b: float

    @property
    def delta(self) -> float:
        """Contribution gained (positive) or lost (negative) from A to B."""
        return self.contribution_b - self.contribution_a


@dataclass(frozen=True)
class QueryDelta:
    """One query at one cutoff: both NDCG values, the delta and the outcome.

    ``outcome`` is for B against A: ``win`` (B higher), ``loss`` (B lower),
    ``tie`` (within :data:`TIE_TOLERANCE`) or ``not comparable`` (a value is
    undefined or unresolved; the statuses say which).
    """

    query: str
    k: int | None
    ndcg_a: float | None
    ndcg_b: float | None
    status_a: Status
    status_b: Status
    delta: float | None
    outcome: str


@dataclass(frozen=True)
class PairedTest:
    """The paired statistics at one cutoff over the queries defined in both.

    ``mean_a``/``mean_b``/``mean_delta`` are weighted means over those
    ``n`` queries (weights of A under ``weighting``). The p-value is two-sided
    for "the mean delta is 0", by flipping the sign of each query's delta:
    ``method`` is ``exact`` (every one of the ``2**n`` sign vectors) or
    ``monte carlo`` (``resamples`` random sign vectors, p = (1 + hits) /
    (1 + resamples)). The interval is the bootstrap percentile interval of the
    mean delta (queries resampled with replacement).
    """

    k: int | None
    n: int
    weighting: Weighting
    mean_a: float | None
    mean_b: float | None
    mean_delta: float | None
    wins: int
    ties: int
    losses: int
    p_value: float | None
    method: str
    resamples: int
    seed: int
    ci_low: float | None
    ci_high: float | None
    confidence: float
    bootstrap_resamples: int
    #: Shared queries left out, by reason.
    excluded: dict[str, int] = field(default_factory=dict)

    def sentence(self) -> str:
        at = f"NDCG@{format_cutoff(self.k)}"
        if self.n == 0 or self.mean_delta is None:
            return (
                f"No query has {at} defined (and weighted) in both runs, so no paired "
                "statistics."
            )
        if self.method == "exact":
            how = f"exact over all {self.resamples} sign vectors"
        else:
            how = f"{self.resamples} random sign vectors, seed {self.seed}"
        ci = (
            f"{self.confidence:.0%} bootstrap percentile interval [{self.ci_low:+.4f}, "
            f"{self.ci_high:+.4f}] ({self.bootstrap_resamples} resamples, seed {self.seed})"
        )
        excl = ", ".join(f"{v} {why}" for why, v in self.excluded.items())
        left_out = f", left out: {excl}" if excl else ""
        return (
            f"Over the {self.n} queries with {at} defined in both ({self.weighting.label}"
            f"{left_out}): "
            f"A {self.mean_a:.4f}, B {self.mean_b:.4f}, mean delta B - A {self.mean_delta:+.4f}; "
            f"B wins {self.wins}, ties {self.ties}, loses {self.losses}; paired randomization "
            f"test (two-sided, sign flips, {how}) p = {self.p_value:.4g}; {ci}."
        )


@dataclass(frozen=True)
class TieSensitivity:
    """Queries whose delta changes sign or vanishes under another tie rule.

    ``per_rule`` maps each other tie rule to the number of queries (of those
    defined in both) whose delta has another sign under it (+ to -, to 0, or
    0 to +/-); ``queries`` names them, over every rule.
    """

    k: int | None
    rule: TieRule
    per_rule: dict[str, int]
    queries: tuple[str, ...]
    with_ties: int

    @property
    def count(self) -> int:
        return len(self.queries)


@dataclass(frozen=True)
class InventoryChange:
    """Sources of one query present in only one of the two documents."""

    query: str
    added: tuple[str, ...]
    removed: tuple[str, ...]


@dataclass(frozen=True)
class WhatChanged:
    """What differs between the two documents, condition by condition."""

    conventions: tuple[tuple[str, Any, Any], ...]
    queries_only_a: tuple[str, ...]
    queries_only_b: tuple[str, ...]
    inventory_queries: int
    sources_added: int
    sources_removed: int
    judgment_version_a: str
    judgment_version_b: str
    grade_differences: int
    grade_difference_queries: int
    order_queries: int
    weight_queries: int

    @property
    def changed(self) -> list[str]:
        """Names of the conditions that differ, in a fixed order."""
        out = []
        if self.conventions:
            out.append("declared conventions")
        if self.queries_only_a or self.queries_only_b:
            out.append("query set")
        if self.inventory_queries:
            out.append("candidate inventory")
        if self.judgment_version_a != self.judgment_version_b or self.grade_differences:
            out.append("grades")
        if self.order_queries:
            out.append("ranking order")
        if self.weight_queries:
            out.append("query weights")
        return out

    @property
    def fixed(self) -> list[str]:
        every = [
            "declared conventions", "query set", "candidate inventory", "grades",
            "ranking order", "query weights",
        ]
        changed = self.changed
        return [c for c in every if c not in changed]

    def details(self) -> list[str]:
        """One line per condition, changed or not."""
        lines = []
        if self.conventions:
            diffs = "; ".join(f"{name}: {a} -> {b}" for name, a, b in self.conventions)
            lines.append(f"declared conventions differ: {diffs}")
        else:
            lines.append("declared conventions: the same")
        if self.queries_only_a or self.queries_only_b:
            lines.append(
                f"query set: {len(self.queries_only_a)} only in A"
                f"{_few(self.queries_only_a)}, {len(self.queries_only_b)} only in B"
                f"{_few(self.queries_only_b)}"
            )
        else:
            lines.append("query set: the same")
        if self.inventory_queries:
            lines.append(
                f"candidate inventory: {self.sources_added} sources added and "
                f"{self.sources_removed} removed, in {self.inventory_queries} queries"
            )
        else:
            lines.append("candidate inventory: the same in every shared query")
        va = self.judgment_version_a or "not declared"
        vb = self.judgment_version_b or "not declared"
        version = (
            f"judgment version {va}" if va == vb else f"judgment version {va} -> {vb}"
        )
        lines.append(
            f"grades: {version}; {self.grade_differences} grades differ"
            + (f" in {self.grade_difference_queries} queries" if self.grade_differences else "")
        )
        lines.append(
            f"ranking order: differs in {self.order_queries} queries"
            if self.order_queries else "ranking order: the same in every shared query"
        )
        lines.append(
            f"query weights: differ in {self.weight_queries} queries"
            if self.weight_queries else "query weights: the same"
        )
        return lines

    def sentence(self) -> str:
        """One plain sentence; several changes are named together, not ranked."""
        changed = self.changed
        fixed = self.fixed
        if not changed:
            return (
                "Nothing differs between the two documents: conventions, queries, inventory, "
                "grades, order and weights are the same."
            )
        stayed = f" ({_join(fixed)} stayed fixed)" if fixed else ""
        if len(changed) == 1:
            return f"Only the {changed[0]} differs between the two documents{stayed}."
        return (
            f"The {_join(changed)} changed together{stayed}, so this comparison does not "
            "isolate one cause of the difference."
        )


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _few(items: Sequence[str], n: int = 5) -> str:
    """`` (a, b, ...)`` naming the first ``n`` items, or nothing."""
    if not items:
        return ""
    shown = ", ".join(items[:n])
    return f" ({shown}{', ...' if len(items) > n else ''})"


# ---------------------------------------------------------------------------------------------
# statistics


def _hits(totals: FloatArray, observed: float) -> int:
    """How many resampled statistics are at least as extreme as the observed."""
    target = abs(observed)
    return int(np.count_nonzero(np.abs(totals) >= target - 1e-12 * max(1.0, target)))


def paired_randomization(
    values: FloatArray,
    *,
    resamples: int = 10000,
    seed: int = 0,
) -> tuple[float, str, int]:
    """Two-sided paired sign-flip test of "the sum of ``values`` is 0".

    Parameters
    ----------
    values : ndarray of shape (n,) or (n, m)
        Weighted deltas, one row per query (columns: independent statistics
        that share the sign vectors).
    resamples : int
        Random sign vectors; when ``2**n <= resamples`` every sign vector is
        enumerated instead.
    seed : int
        Seed of ``numpy.random.default_rng([seed, 0])``.

    Returns
    -------
    p : float
        The p-value of the first column: the share of sign vectors whose
        |sum| is at least the observed |sum| (exact), or ``(1 + hits) / (1 +
        resamples)`` (monte carlo).
    method : str
        ``exact`` or ``monte carlo``.
    used : int
        The number of sign vectors used.

    Examples
    --------
    >>> p, method, used = paired_randomization(np.array([0.1, 0.2, 0.3]))
    >>> p, method, used  # only all + and all - are as extreme: 2 of 8
    (0.25, 'exact', 8)
    """
    v = np.asarray(values, dtype=np.float64)
    p, method, used = _randomization_columns(v.reshape(v.shape[0], -1), resamples, seed)
    return float(p[0]), method, used


def _randomization_columns(
    v: FloatArray, resamples: int, seed: int
) -> tuple[FloatArray, str, int]:
    n, m = v.shape
    observed = v.sum(axis=0)
    if n == 0:
        return np.ones(m), "exact", 1
    if n < 63 and 2**n <= resamples:
        total = 2**n
        hits = np.zeros(m, dtype=np.int64)
        bits = np.arange(n, dtype=np.int64)
        for start in range(0, total, _BLOCK * 8):
            codes = np.arange(start, min(total, start + _BLOCK * 8), dtype=np.int64)
            flip = ((codes[:, None] >> bits[None, :]) & 1).astype(np.float64)
            sums = observed[None, :] - 2.0 * (flip @ v)
            for c in range(m):
                hits[c] += _hits(sums[:, c], float(observed[c]))
        return hits / total, "exact", total
    rng = np.random.default_rng([seed, 0])
    hits = np.zeros(m, dtype=np.int64)
    done = 0
    # Each random byte flips 8 queries at once: the sum of the flipped values
    # for every byte value is tabulated once, so a sign vector costs n/8
    # look-ups instead of n multiplications (same draws as unpacking bits).
    nb = (n + 7) // 8
    padded = np.zeros((nb * 8, m))
    padded[:n] = v
    # table[b, x, c]: the sum of column c over the queries of byte b whose bit
    # is set in x (built bit by bit: no BLAS threads for so small a product).
    bit_of = ((np.arange(256)[:, None] >> (7 - np.arange(8))[None, :]) & 1).astype(bool)
    grouped = padded.reshape(nb, 8, m)
    table = np.zeros((nb, 256, m))
    for bit in range(8):
        table[:, bit_of[:, bit], :] += grouped[:, bit, None, :]
    offsets = (np.arange(nb) * 256)[None, :]
    columns = [np.ascontiguousarray(table[:, :, c]).ravel() for c in range(m)]
    while done < resamples:
        block = min(_BLOCK, resamples - done)
        raw = rng.integers(0, 256, size=(block, nb), dtype=np.uint8)
        where = raw.astype(np.intp)
        where += offsets
        flipped = np.empty((block, m))
        for c, column in enumerate(columns):
            flipped[:, c] = np.take(column, where).sum(axis=1)
        sums = observed[None, :] - 2.0 * flipped
        for c in range(m):
            hits[c] += _hits(sums[:, c], float(observed[c]))
        done += block
    p = np.asarray((hits + 1.0) / (resamples + 1.0), dtype=np.float64)
    return p, "monte carlo", resamples


def paired_bootstrap(
    deltas: FloatArray,
    weights: FloatArray,
    *,
    resamples: int = 10000,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[FloatArray, FloatArray]:
    """Bootstrap percentile interval of the weighted mean of ``deltas``.

    Queries are drawn with replacement (``numpy.random.default_rng([seed,
    1])``); the interval is the ``(1 - confidence) / 2`` and ``(1 +
    confidence) / 2`` quantiles (linear interpolation) of the resampled means.
    ``deltas`` may have several columns (cutoffs) sharing the draws.

    Returns
    -------
    low, high : ndarray of shape (m,)
    """
    d = np.asarray(deltas, dtype=np.float64)
    d = d.reshape(d.shape[0], -1)
    w = np.asarray(weights, dtype=np.float64)
    n, m = d.shape
    if n == 0:
        return np.full(m, np.nan), np.full(m, np.nan)
    wd = d * w[:, None]
    rng = np.random.default_rng([seed, 1])
    equal = bool(np.all(w == w[0]))
    # Two columns ride in one complex number (real and imaginary parts add
    # apart), so one gather serves both.
    pairs = [wd[:, c] + 1j * wd[:, c + 1] for c in range(0, m - 1, 2)]
    single = np.ascontiguousarray(wd[:, m - 1]) if m % 2 else None
    means = np.empty((resamples, m))
    done = 0
    while done < resamples:
        block = min(_BLOCK, resamples - done)
        idx = rng.integers(0, n, size=(block, n))
        den = n * float(w[0]) if equal else np.take(w, idx).sum(axis=1)
        rows = slice(done, done + block)
        for c, pair in enumerate(pairs):
            sums = np.take(pair, idx).sum(axis=1)
            means[rows, 2 * c] = sums.real / den
            means[rows, 2 * c + 1] = sums.imag / den
        if single is not None:
            means[rows, m - 1] = np.take(single, idx).sum(axis=1) / den
        done += block
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha], axis=0)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


# ---------------------------------------------------------------------------------------------
# helpers on documents


def subset_document(doc: Document, queries: IntArray) -> Document:
    """A document holding only the queries ``queries`` (rows keep their order)."""
    queries = np.asarray(queries, dtype=np.int64)
    new_index = np.full(doc.n_queries, -1, dtype=np.int64)
    new_index[queries] = np.arange(queries.size)
    rows = np.flatnonzero(new_index[doc.query] >= 0)
    ratings = doc.ratings[rows] if doc.ratings is not None else None
    return Document(
        query_ids=[doc.query_ids[int(q)] for q in queries],
        query=new_index[doc.query[rows]],
        source_id=doc.source_id[rows],
        version=doc.version[rows],
        score=doc.score[rows],
        grade=doc.grade[rows],
        state=doc.state[rows],
        original_grade=doc.original_grade[rows],
        original_state=doc.original_state[rows],
        note=doc.note[rows],
        reason=doc.reason[rows],
        frequency=doc.frequency[queries],
        importance=doc.importance[queries],
        conventions=doc.conventions,
        judgment_version=doc.judgment_version,
        name=doc.name,
        annotators=list(doc.annotators),
        ratings=ratings,
    )


def _source_codes(a: Document, b: Document) -> tuple[IntArray, IntArray, int]:
    """Each row's source id as an integer (:meth:`Document.source_codes` of
    A); B's ids get A's integers, or -1 for ids A does not hold (those cannot
    match anyway). Only the distinct ids are looked up."""
    ca, ids_a = a.source_codes()
    codes_b, ids_b = b.source_codes()
    index = dict(zip(ids_a.tolist(), range(ids_a.size), strict=True))
    b_to_a = np.fromiter(map(index.get, ids_b.tolist(), itertools.repeat(-1)), np.int64,
                         ids_b.size)
    return ca, b_to_a[codes_b], max(ids_a.size, 1)


def _partners(key_a: IntArray, key_b: IntArray, size: int) -> tuple[IntArray, IntArray]:
    """For each key of A the row of B with the same key (-1: none), and back.

    Keys are unique within each side; negative keys never match.
    """
    na, nb = key_a.size, key_b.size
    out_b = np.full(nb, -1, dtype=np.int64)
    # Rows without a key are few or none: the usual case skips their index.
    va = None if key_a.min(initial=0) >= 0 else np.flatnonzero(key_a >= 0)
    vb = None if key_b.min(initial=0) >= 0 else np.flatnonzero(key_b >= 0)
    if size <= 4 * (na + nb) + 1_000_000:
        table = np.full(size, -1, dtype=np.int32 if nb < 2**31 else np.int64)
        if vb is None:
            table[key_b] = np.arange(nb, dtype=table.dtype)
        else:
            table[key_b[vb]] = vb
        if va is None:
            out_a = table[key_a].astype(np.int64)
        else:
            out_a = np.full(na, -1, dtype=np.int64)
            out_a[va] = table[key_a[va]]
    else:
        va = np.arange(na) if va is None else va
        vb = np.arange(nb) if vb is None else vb
        out_a = np.full(na, -1, dtype=np.int64)
        if va.size and vb.size:
            order = np.argsort(key_b[vb], kind="stable")
            sorted_b = key_b[vb][order]
            pos = np.searchsorted(sorted_b, key_a[va])
            pos_c = np.minimum(pos, sorted_b.size - 1)
            hit = sorted_b[pos_c] == key_a[va]
            out_a[va[hit]] = vb[order[pos_c[hit]]]
    matched = np.flatnonzero(out_a >= 0)
    out_b[out_a[matched]] = matched
    return out_a, out_b


def _keys(row_common: IntArray, source: IntArray, ns: int) -> IntArray:
    """One integer per (shared query, source) pair; -1 where either is missing."""
    key = row_common * ns
    key += source
    if row_common.min(initial=0) < 0 or source.min(initial=0) < 0:
        key[(row_common < 0) | (source < 0)] = -1
    return key


def _weights(doc: Document, weighting: Weighting) -> FloatArray:
    if weighting is Weighting.EQUAL:
        return np.ones(doc.n_queries)
    w = doc.frequency if weighting is Weighting.FREQUENCY else doc.importance
    return np.asarray(w, dtype=np.float64)


def _sign(x: FloatArray) -> npt.NDArray[np.int8]:
    out = np.zeros(x.shape, dtype=np.int8)
    out[x > TIE_TOLERANCE] = 1
    out[x < -TIE_TOLERANCE] = -1
    return out


def _conv_diff(a: Conventions, b: Conventions) -> tuple[tuple[str, Any, Any], ...]:
    da, db = a.to_dict(), b.to_dict()
    out = []
    for key in da:
        if da[key] != db.get(key):
            va, vb = da[key], db.get(key)
            if isinstance(va, list):
                va = ",".join(map(str, va))
            if isinstance(vb, list):
                vb = ",".join(map(str, vb))
            out.append((key, va, vb))
    return tuple(out)


def _float_or_none(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


# ---------------------------------------------------------------------------------------------
# the comparison


@dataclass
class Comparison:
    """Two documents compared under one set of conventions.

    Build it with :func:`compare`. ``common`` names the queries in both
    documents (A's order), ``qa``/``qb`` their indices in each document;
    ``ndcg_a``/``ndcg_b``/``delta`` are (queries in both x cutoffs) with NaN
    where a value is not determined.
    """

    doc_a: Document
    doc_b: Document
    conventions: Conventions
    ev_a: Evaluation
    ev_b: Evaluation
    common: list[str]
    qa: IntArray
    qb: IntArray
    only_a: list[str]
    only_b: list[str]
    ndcg_a: FloatArray
    ndcg_b: FloatArray
    delta: FloatArray
    summary_a: list[CutoffSummary]
    summary_b: list[CutoffSummary]
    tests: list[PairedTest]
    ties: list[TieSensitivity]
    changes: WhatChanged
    partner_a: IntArray = field(repr=False)
    partner_b: IntArray = field(repr=False)
    row_common_a: IntArray = field(repr=False)
    row_common_b: IntArray = field(repr=False)

    @property
    def cutoffs(self) -> tuple[int | None, ...]:
        return self.conventions.cutoffs

    def query_deltas(self, j: int = 0) -> list[QueryDelta]:
        """Every shared query at cutoff index ``j``, largest |delta| first;
        queries without a delta come last, in document order."""
        d = self.delta[:, j]
        defined = ~np.isnan(d)
        idx = np.flatnonzero(defined)
        idx = idx[np.argsort(-np.abs(d[idx]), kind="stable")]
        order = np.concatenate([idx, np.flatnonzero(~defined)])
        statuses, outcomes, k = tuple(Status), ("tie", "win", "loss"), self.cutoffs[j]

        def values(x: FloatArray) -> list[float | None]:
            return [None if v != v else v for v in x[order].tolist()]  # NaN: None

        return [
            QueryDelta(self.common[i], k, a, b, statuses[sa], statuses[sb], delta,
                       outcomes[sign] if delta is not None else "not comparable")
            for i, a, b, sa, sb, delta, sign in zip(
                order.tolist(), values(self.ndcg_a[:, j]), values(self.ndcg_b[:, j]),
                self.ev_a.status_code[self.qa[order], j].tolist(),
                self.ev_b.status_code[self.qb[order], j].tolist(),
                values(d), _sign(d)[order].tolist(), strict=True)
        ]

    @cached_property
    def _cut(self) -> list[tuple[BoolArray, BoolArray, FloatArray, FloatArray]]:
        out = []
        for k in self.cutoffs:
            ca = self.ev_a.ranked_mask & (
                True if k is None else (self.ev_a.tie_first_rank <= k)
            )
            cb = self.ev_b.ranked_mask & (
                True if k is None else (self.ev_b.tie_first_rank <= k)
            )
            xa = np.where(ca, self.ev_a.contribution_at(k), 0.0)
            xb = np.where(cb, self.ev_b.contribution_at(k), 0.0)
            out.append((np.asarray(ca), np.asarray(cb), xa, xb))
        return out

    @cached_property
    def _across(self) -> _Across:
        """:func:`_gather_across` (worked out by :func:`compare` on its second lane)."""
        return _gather_across(self.ev_a, self.ev_b, self.partner_a, self.partner_b)

    def movement_counts(self, j: int = 0) -> dict[str, IntArray]:
        """Per shared query: how many candidates moved, were regraded, entered
        or left the cut at cutoff index ``j`` (arrays aligned with ``common``;
        the kinds of :class:`CandidateChange`)."""
        k = self.cutoffs[j]
        n = len(self.common)
        across = self._across

        def cut(first: IntArray) -> BoolArray:  # ranked, and its tie group starts within k
            inside: BoolArray = first > 0
            if k is not None:
                inside &= first <= k
            return inside

        a_in = cut(self.ev_a.tie_first_rank)
        a_in &= self.row_common_a >= 0
        b_in = cut(across.first_b)  # A's rows whose partner is in B's cut
        both = a_in & b_in
        ga, gain_b = self.ev_a.gain, across.gain_b
        same_gain = (ga == gain_b) | (np.isnan(ga) & np.isnan(gain_b))
        same_rank = self.ev_a.rank == across.rank_b
        moved = both & ~same_rank
        regraded = both & same_rank & ~same_gain
        if self.conventions.ties is TieRule.AVERAGE:
            # Same rank and gain but another contribution: its tie group changed
            # (only averaged ties share contributions).
            _, _, xa, xb = self._cut[j]
            x_b = xb[across.at_b]
            shifted = (xa != x_b) & ~(np.isnan(xa) & np.isnan(x_b))
            moved |= both & same_rank & same_gain & shifted
        entered = cut(self.ev_b.tie_first_rank)
        entered &= self.row_common_b >= 0
        entered &= ~cut(across.first_a_at_b)
        common_a = self.row_common_a
        return {
            "moved": np.bincount(common_a[moved], minlength=n),
            "regraded": np.bincount(common_a[regraded], minlength=n),
            "entered": np.bincount(self.row_common_b[entered], minlength=n),
            "left": np.bincount(common_a[a_in & ~b_in], minlength=n),
        }

    def candidate_changes(
        self, query: str | int, j: int = 0, limit: int | None = None
    ) -> list[CandidateChange]:
        """The candidates of one shared query that moved, entered, left or were
        regraded at cutoff index ``j``, largest |contribution change| first
        (unknown changes last); the first ``limit`` of them when given."""
        i = self.common.index(query) if isinstance(query, str) else int(query)
        ca, cb, xa, xb = self._cut[j]
        ev_a, ev_b = self.ev_a, self.ev_b
        ma = self.doc_a.members(int(self.qa[i]))
        mb = self.doc_b.members(int(self.qb[i]))
        pa = self.partner_a[ma]
        has = pa >= 0
        pc = np.where(has, pa, 0)
        a_in = ca[ma]
        b_in = has & cb[pc]
        rank_a = np.where(ev_a.ranked_mask[ma], ev_a.rank[ma], 0)
        rank_b = np.where(has & ev_b.ranked_mask[pc], ev_b.rank[pc], 0)
        ga, gb = ev_a.gain[ma], ev_b.gain[pc]
        same_gain = (ga == gb) | (np.isnan(ga) & np.isnan(gb))
        kind = np.full(ma.size, "", dtype=object)
        kind[a_in & ~b_in] = "left"
        kind[b_in & ~a_in] = "entered"
        both = a_in & b_in
        xa_m = xa[ma]
        xb_m = np.where(has, xb[pc], 0.0)
        # Same rank and gain but another contribution: its tie group changed.
        shifted = (xa_m != xb_m) & ~(np.isnan(xa_m) & np.isnan(xb_m))
        kind[both & ((rank_a != rank_b) | (same_gain & shifted))] = "moved"
        kind[both & (rank_a == rank_b) & ~same_gain] = "regraded"
        keep = np.flatnonzero(kind != "")
        # Candidates of B without a row in A (those with one were seen above).
        new_b = mb[cb[mb] & (self.partner_b[mb] < 0)]
        sources = np.concatenate([self.doc_a.source_id[ma[keep]], self.doc_b.source_id[new_b]])
        kinds = np.concatenate([kind[keep], np.full(new_b.size, "entered", dtype=object)])
        r_a = np.concatenate([rank_a[keep], np.zeros(new_b.size, dtype=np.int64)])
        r_b = np.concatenate([rank_b[keep], ev_b.rank[new_b]])
        x_a = np.concatenate([xa_m[keep], np.zeros(new_b.size)])
        x_b = np.concatenate([xb_m[keep], xb[new_b]])
        size = np.abs(x_b - x_a)
        order = np.lexsort((np.arange(size.size), -np.nan_to_num(size, nan=-1.0)))
        if limit is not None:
            order = order[:limit]
        return [
            CandidateChange(
                str(sources[t]), str(kinds[t]),
                int(r_a[t]) or None, int(r_b[t]) or None, float(x_a[t]), float(x_b[t]),
            )
            for t in order
        ]

    def inventory(self, limit: int | None = None) -> list[InventoryChange]:
        """Per shared query with a difference (the first ``limit`` of them when
        given): sources only in B (added) and only in A (removed), in row order."""
        def by_query(row_common: IntArray, partner: IntArray) -> tuple[IntArray, IntArray]:
            rows = np.flatnonzero((row_common >= 0) & (partner < 0))
            rows = rows[np.argsort(row_common[rows], kind="stable")]
            return rows, row_common[rows]

        rows_a, q_a = by_query(self.row_common_a, self.partner_a)
        rows_b, q_b = by_query(self.row_common_b, self.partner_b)
        queries = np.union1d(q_a, q_b)[:limit]
        lo_a, hi_a = np.searchsorted(q_a, queries), np.searchsorted(q_a, queries, "right")
        lo_b, hi_b = np.searchsorted(q_b, queries), np.searchsorted(q_b, queries, "right")
        ids_a, ids_b = self.doc_a.source_id, self.doc_b.source_id
        return [
            InventoryChange(
                self.common[i],
                tuple(str(s) for s in ids_b[rows_b[b0:b1]]),
                tuple(str(s) for s in ids_a[rows_a[a0:a1]]),
            )
            for i, a0, a1, b0, b1 in zip(queries.tolist(), lo_a.tolist(), hi_a.tolist(),
                                         lo_b.tolist(), hi_b.tolist(), strict=True)
        ]


@dataclass
class _Across:
    """Each side's values at its partner rows, gathered once for every cutoff
    (:func:`_gather_across`). For A's rows: ``at_b`` the partner row (0 where
    none, see ``has_b``), B's ``rank_b``, ``first_b`` (first rank of the tie
    group) and ``gain_b`` (0, 0, NaN without a partner); for B's rows A's
    ``first_a_at_b`` (0 without a partner). Rank 0: not ranked."""

    at_b: IntArray
    has_b: BoolArray
    rank_b: IntArray
    first_b: IntArray
    gain_b: FloatArray
    first_a_at_b: IntArray


def _gather_across(ev_a: Evaluation, ev_b: Evaluation, pa: IntArray, pb: IntArray) -> _Across:
    no_a, no_b = pa < 0, pb < 0
    pc, qc = np.where(no_a, 0, pa), np.where(no_b, 0, pb)
    rank_b = ev_b.rank[pc]
    rank_b[no_a] = 0
    if ev_b.tie_first_rank is ev_b.rank:  # ties not averaged: each its own group
        first_b = rank_b
    else:
        first_b = ev_b.tie_first_rank[pc]
        first_b[no_a] = 0
    gain_b = ev_b.gain[pc]
    gain_b[no_a] = np.nan
    first_a_at_b = ev_a.tie_first_rank[qc]
    first_a_at_b[no_b] = 0
    return _Across(pc, ~no_a, rank_b, first_b, gain_b, first_a_at_b)


def compare(
    doc_a: Document,
    doc_b: Document,
    conventions: Conventions | None = None,
    *,
    resamples: int = 10000,
    seed: int = 0,
    confidence: float = 0.95,
    bootstrap_resamples: int | None = None,
    evaluation_a: Evaluation | None = None,
    evaluation_b: Evaluation | None = None,
) -> Comparison:
    """Compare the rankings of ``doc_a`` (A) and ``doc_b`` (B).

    Parameters
    ----------
    doc_a, doc_b : Document
        The two documents; queries are matched by id, candidates by source id.
    conventions : Conventions, optional
        Applied to both; defaults to A's.
    resamples : int
        Random sign vectors of the randomization test (every one of the
        ``2**n`` when that is not more).
    seed : int
        Seeds both the randomization test and the bootstrap.
    confidence : float
        Of the bootstrap percentile interval.
    bootstrap_resamples : int, optional
        Defaults to ``resamples``.
    evaluation_a, evaluation_b : Evaluation, optional
        ``evaluate(doc_a, conventions)`` (and of ``doc_b``) when the caller
        has it already (the command line evaluates each run as it is read).

    Examples
    --------
    >>> a = Document.from_columns(query=["q", "q"], source_id=["x", "y"],
    ...                           score=[2, 1], grade=[0, 1])
    >>> b = Document.from_columns(query=["q", "q"], source_id=["x", "y"],
    ...                           score=[1, 2], grade=[0, 1])
    >>> c = compare(a, b)
    >>> round(float(c.delta[0, 0]), 6), c.query_deltas()[0].outcome  # 1 - 1/log2(3)
    (0.36907, 'win')
    """
    if resamples < 1:
        raise InputError("the number of resamples must be at least 1")
    if not 0.0 < confidence < 1.0:
        raise InputError("the confidence level must lie strictly between 0 and 1")
    conv = conventions or doc_a.conventions
    boot_n = bootstrap_resamples or resamples
    # Queries.
    index_a = {q: i for i, q in enumerate(doc_a.query_ids)}
    index_b = {q: i for i, q in enumerate(doc_b.query_ids)}
    common = [q for q in doc_a.query_ids if q in index_b]
    only_a = [q for q in doc_a.query_ids if q not in index_b]
    only_b = [q for q in doc_b.query_ids if q not in index_a]
    nc = len(common)
    qa = np.fromiter((index_a[q] for q in common), np.int64, nc)
    qb = np.fromiter((index_b[q] for q in common), np.int64, nc)
    common_of_a = np.full(doc_a.n_queries, -1, dtype=np.int64)
    common_of_a[qa] = np.arange(nc)
    common_of_b = np.full(doc_b.n_queries, -1, dtype=np.int64)
    common_of_b[qb] = np.arange(nc)
    row_common_a = common_of_a[doc_a.query]
    row_common_b = common_of_b[doc_b.query]

    def align(ev_a: Evaluation, ev_b: Evaluation) -> tuple[IntArray, IntArray, WhatChanged,
                                                          _Across]:
        sa, sb, ns = _source_codes(doc_a, doc_b)
        pa, pb = _partners(_keys(row_common_a, sa, ns), _keys(row_common_b, sb, ns),
                           max(nc, 1) * ns)
        across = _gather_across(ev_a, ev_b, pa, pb)
        changes = _what_changed(
            doc_a, doc_b, ev_a, ev_b, qa, qb, only_a, only_b, pa, pb,
            row_common_a, row_common_b, nc, across,
        )
        return pa, pb, changes, across

    for given, doc in ((evaluation_a, doc_a), (evaluation_b, doc_b)):
        if given is not None and (given.doc is not doc or given.conventions != conv):
            raise ValueError("an evaluation given is not of its document under these conventions")
    others = [r for r in TieRule if r is not conv.ties]

    def side(doc: Document, ev: Evaluation | None) -> _Side:
        ev = evaluate(doc, conv) if ev is None else ev
        ev.tie_first_rank  # noqa: B018 - what the alignment reads, worked out in this lane
        return _Side(ev, *_tie_facts(ev, others))

    # Two lanes, each evaluating one side and working out its NDCG under the
    # other tie rules; then the alignment of the candidates runs on the second
    # while the resampling runs here. The array work releases the GIL, so on
    # two cores the lanes overlap; the results do not depend on it.
    with ThreadPoolExecutor(max_workers=1) as pool:
        lane = pool.submit(side, doc_b, evaluation_b)
        try:
            a = side(doc_a, evaluation_a)
        finally:
            b = lane.result()
        ev_a, ev_b = a.evaluation, b.evaluation
        aligned = pool.submit(align, ev_a, ev_b)
        try:
            ndcg_a = ev_a.ndcg[qa]
            ndcg_b = ev_b.ndcg[qb]
            delta = ndcg_b - ndcg_a
            w_all = _weights(doc_a, conv.weighting)[qa]
            has_w = ~np.isnan(w_all) & (w_all > 0)
            paired = ~np.isnan(delta) & has_w[:, None]
            stats = _resampling(delta, w_all, paired, resamples, seed, boot_n, confidence)
            ties = _tie_sensitivity(conv, a, b, qa, qb, delta, paired, common)
            summary_a, summary_b = summarize(ev_a), summarize(ev_b)
        finally:
            partner_a, partner_b, changes, across = aligned.result()

    tests: list[PairedTest] = []
    for j, k in enumerate(conv.cutoffs):
        rows = np.flatnonzero(paired[:, j])
        w = w_all[rows]
        p, method, used, low, high = stats[j]
        if rows.size:
            wsum = float(w.sum())
            mean_a = float(np.dot(w, ndcg_a[rows, j]) / wsum)
            mean_b = float(np.dot(w, ndcg_b[rows, j]) / wsum)
            mean_d = float(np.dot(w, delta[rows, j]) / wsum)
        else:
            mean_a = mean_b = mean_d = math.nan
        s = _sign(delta[rows, j])
        no_a = np.isnan(ndcg_a[:, j])
        no_b = np.isnan(ndcg_b[:, j]) & ~no_a
        reasons = {
            "without a value in A": int(np.count_nonzero(no_a)),
            "without a value in B": int(np.count_nonzero(no_b)),
            "without a weight": int(np.count_nonzero(~has_w & ~no_a & ~no_b)),
        }
        tests.append(PairedTest(
            k, int(rows.size), conv.weighting, _float_or_none(mean_a), _float_or_none(mean_b),
            _float_or_none(mean_d), int(np.count_nonzero(s > 0)), int(np.count_nonzero(s == 0)),
            int(np.count_nonzero(s < 0)), _float_or_none(p), method, used, seed,
            _float_or_none(low), _float_or_none(high), confidence, boot_n,
            {why: v for why, v in reasons.items() if v},
        ))
    result = Comparison(
        doc_a=doc_a, doc_b=doc_b, conventions=conv, ev_a=ev_a, ev_b=ev_b, common=common,
        qa=qa, qb=qb, only_a=only_a, only_b=only_b, ndcg_a=ndcg_a, ndcg_b=ndcg_b, delta=delta,
        summary_a=summary_a, summary_b=summary_b, tests=tests, ties=ties,
        changes=changes, partner_a=partner_a, partner_b=partner_b,
        row_common_a=row_common_a, row_common_b=row_common_b,
    )
    result.__dict__["_across"] = across
    return result


def _resampling(
    delta: FloatArray,
    w_all: FloatArray,
    paired: BoolArray,
    resamples: int,
    seed: int,
    boot_n: int,
    confidence: float,
) -> dict[int, tuple[float, str, int, float, float]]:
    """Per cutoff index: p-value, method, sign vectors, interval low and high.

    Cutoffs with the same paired queries share their draws.
    """
    groups: dict[bytes, list[int]] = {}
    for j in range(paired.shape[1]):
        groups.setdefault(np.packbits(paired[:, j]).tobytes(), []).append(j)
    stats: dict[int, tuple[float, str, int, float, float]] = {}
    for cols in groups.values():
        rows = np.flatnonzero(paired[:, cols[0]])
        w = w_all[rows]
        d = delta[rows][:, cols]
        if rows.size:
            pv, method, used = _randomization_columns(d * w[:, None], resamples, seed)
            lo, hi = paired_bootstrap(d, w, resamples=boot_n, seed=seed, confidence=confidence)
        else:
            pv = np.full(len(cols), np.nan)
            method, used = "none", 0
            lo = hi = np.full(len(cols), np.nan)
        for c, j in enumerate(cols):
            stats[j] = (float(pv[c]), method, used, float(lo[c]), float(hi[c]))
    return stats


def _tie_rule_ndcg(ev: Evaluation, rules: Sequence[TieRule]) -> dict[TieRule, FloatArray]:
    """NDCG (queries x cutoffs) of ``ev``'s document under other tie rules
    (see :func:`_tie_facts`)."""
    return _tie_facts(ev, rules)[0]


def _tie_facts(
    ev: Evaluation, rules: Sequence[TieRule]
) -> tuple[dict[TieRule, FloatArray], IntArray]:
    """NDCG (queries x cutoffs) of ``ev``'s document under other tie rules,
    and the queries that hold two ranked candidates of equal score.

    Only the members of tie groups (equal scores in one query) are placed
    differently by another tie rule; the ideal DCG does not depend on it. So
    each rule's DCG is the evaluated DCG minus the tied members' contributions
    as placed under the evaluated rule plus their contributions as placed
    under the other rule, with the engine's definitions: ``supplied`` row
    order, ``id-desc`` source id descending, ``optimistic``/``pessimistic``
    highest/lowest gain first, ``average`` the mean discount of the group's
    positions (each up to k). ``tests/test_compare.py`` checks this against
    :func:`core.engine.evaluate` under every rule.
    """
    doc = ev.doc
    order = ev.order
    out: dict[TieRule, FloatArray] = {}
    none = np.zeros(0, dtype=np.int64)
    if order.size < 2:
        return {r: ev.ndcg.copy() for r in rules}, none
    q = ev.sorted_query
    s = doc.score[order]
    same = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    if not same.any():
        return {r: ev.ndcg.copy() for r in rules}, none
    tied_queries = np.unique(q[1:][same])
    tied = np.zeros(order.size, dtype=bool)
    tied[1:] |= same
    tied[:-1] |= same
    pos = np.flatnonzero(tied)
    rows = order[pos]
    group = (np.cumsum(np.r_[True, ~same]) - 1)[pos]
    # renumber the (ascending) group ids 0, 1, 2, ... without sorting
    if group.size:
        group = np.cumsum(np.r_[True, group[1:] != group[:-1]]) - 1
    slot_rank = ev.rank[rows].astype(np.float64)  # ranks of the group's slots, ascending
    gains = ev.gain[rows]
    rq = doc.query[rows]
    nq = doc.n_queries

    def placed(rule: TieRule) -> FloatArray:
        if rule is TieRule.SUPPLIED:
            perm = np.lexsort((rows, group))
        elif rule is TieRule.OPTIMISTIC:
            perm = np.lexsort((rows, -gains, group))
        elif rule is TieRule.PESSIMISTIC:
            perm = np.lexsort((rows, gains, group))
        elif rule is TieRule.ID_DESC:
            code = source_order_keys(doc, rows)
            perm = np.lexsort((-code, group))
        else:
            raise ValueError(rule)
        # Members of a group are contiguous and their slots ascend, so sorting
        # by group first keeps every gain within its own group's slots.
        return np.asarray(gains[perm], dtype=np.float64)

    def tied_dcg(rule: TieRule) -> FloatArray:
        dcg = np.empty((nq, len(ev.cutoffs)))
        g = gains if rule is TieRule.AVERAGE else placed(rule)
        for j, k in enumerate(ev.cutoffs):
            d = 1.0 / np.log2(slot_rank + 1.0)
            if k is not None:
                d = np.where(slot_rank <= k, d, 0.0)
            if rule is TieRule.AVERAGE:
                size = np.bincount(group)
                d = (np.bincount(group, weights=d) / size)[group]
            contrib = np.where(d > 0, g * d, 0.0)
            dcg[:, j] = np.bincount(rq, weights=contrib, minlength=nq)
        return dcg

    base = tied_dcg(ev.conventions.ties)
    idcg = ev.idcg
    positive = idcg > 0
    for rule in rules:
        dcg = ev.dcg - base + tied_dcg(rule)
        with np.errstate(divide="ignore", invalid="ignore"):
            nd = np.where(positive, dcg / idcg, ev.ndcg)
        nd[np.isnan(ev.ndcg)] = np.nan
        out[rule] = nd
    return out, tied_queries


@dataclass
class _Side:
    """One side of a comparison: its evaluation, its NDCG under the other tie
    rules, and which of its queries hold tied scores."""

    evaluation: Evaluation
    tie_ndcg: dict[TieRule, FloatArray]
    tied: IntArray


def _tie_sensitivity(
    conv: Conventions,
    a: _Side,
    b: _Side,
    qa: IntArray,
    qb: IntArray,
    delta: FloatArray,
    paired: BoolArray,
    common: list[str],
) -> list[TieSensitivity]:
    """Count the shared queries whose delta changes sign or vanishes under
    another tie rule (elsewhere every tie rule gives the same numbers)."""
    ks = conv.cutoffs
    with_ties = np.zeros(a.evaluation.doc.n_queries, dtype=bool)
    with_ties[a.tied] = True
    with_ties_b = np.zeros(b.evaluation.doc.n_queries, dtype=bool)
    with_ties_b[b.tied] = True
    n_tied = int(np.count_nonzero(with_ties[qa] | with_ties_b[qb]))
    base = _sign(delta)
    flagged = np.zeros(delta.shape, dtype=bool)
    per_rule: list[dict[str, int]] = [{} for _ in ks]
    for rule, nd_a in a.tie_ndcg.items():
        d = b.tie_ndcg[rule][qb] - nd_a[qa]
        moved = paired & (_sign(d) != base)
        flagged |= moved
        for j in range(len(ks)):
            per_rule[j][rule.value] = int(np.count_nonzero(moved[:, j]))
    return [
        TieSensitivity(
            k, conv.ties, per_rule[j],
            tuple(common[i] for i in np.flatnonzero(flagged[:, j])), n_tied,
        )
        for j, k in enumerate(ks)
    ]


def _what_changed(
    doc_a: Document,
    doc_b: Document,
    ev_a: Evaluation,
    ev_b: Evaluation,
    qa: IntArray,
    qb: IntArray,
    only_a: list[str],
    only_b: list[str],
    partner_a: IntArray,
    partner_b: IntArray,
    row_common_a: IntArray,
    row_common_b: IntArray,
    nc: int,
    across: _Across,
) -> WhatChanged:
    in_a = row_common_a >= 0
    in_b = row_common_b >= 0
    has = across.has_b
    removed = in_a & ~has
    added = in_b & (partner_b < 0)
    inv_q = np.zeros(nc, dtype=bool)
    inv_q[row_common_a[removed]] = True
    inv_q[row_common_b[added]] = True

    pc = across.at_b
    sa, sb = doc_a.state, doc_b.state[pc]
    differ = (sa != sb) | ((sa == GradeState.NUMBER) & (doc_a.grade != doc_b.grade[pc]))
    differ &= has & in_a
    grade_q = np.bincount(row_common_a[differ], minlength=nc) > 0

    # Order: a candidate ranked in one and not the other, or at another rank
    # (rank 0: not ranked, or no partner).
    order_q = np.zeros(nc, dtype=bool)
    order_q[row_common_a[in_a & (ev_a.rank != across.rank_b)]] = True
    order_q[row_common_b[added & ev_b.ranked_mask]] = True

    def differs(x: FloatArray, y: FloatArray) -> BoolArray:
        same: BoolArray = (x == y) | (np.isnan(x) & np.isnan(y))
        return ~same

    weight_q = differs(doc_a.frequency[qa], doc_b.frequency[qb]) | differs(
        doc_a.importance[qa], doc_b.importance[qb]
    )
    return WhatChanged(
        conventions=_conv_diff(doc_a.conventions, doc_b.conventions),
        queries_only_a=tuple(only_a),
        queries_only_b=tuple(only_b),
        inventory_queries=int(inv_q.sum()),
        sources_added=int(added.sum()),
        sources_removed=int(removed.sum()),
        judgment_version_a=doc_a.judgment_version,
        judgment_version_b=doc_b.judgment_version,
        grade_differences=int(np.count_nonzero(differ)),
        grade_difference_queries=int(np.count_nonzero(grade_q)),
        order_queries=int(order_q.sum()),
        weight_queries=int(weight_q.sum()),
    )


# ---------------------------------------------------------------------------------------------
# output


def _fmt(x: float | None, signed: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:+.4f}" if signed else f"{x:.4f}"


def _summary_text(s: CutoffSummary) -> str:
    excl = ", ".join(f"{n} {why}" for why, n in s.excluded.items()) or "none"
    return f"{_fmt(s.mean)} over {s.included} queries (excluded: {excl})"


def compare_json(c: Comparison, changes_per_query: int = 10) -> dict[str, Any]:
    """The ``--format json`` object. Each query lists its ``changes_per_query``
    largest candidate changes (and the counts of all)."""
    conv = c.conventions
    cutoffs = []
    for j, k in enumerate(c.cutoffs):
        counts = c.movement_counts(j)
        index = {q: i for i, q in enumerate(c.common)}
        queries = []
        for qd in c.query_deltas(j):
            i = index[qd.query]
            changes = c.candidate_changes(i, j, changes_per_query)
            queries.append({
                "query": qd.query,
                "ndcg_a": qd.ndcg_a,
                "ndcg_b": qd.ndcg_b,
                "status_a": qd.status_a.value,
                "status_b": qd.status_b.value,
                "delta": qd.delta,
                "outcome": qd.outcome,
                "moved": int(counts["moved"][i]),
                "regraded": int(counts["regraded"][i]),
                "entered": int(counts["entered"][i]),
                "left": int(counts["left"][i]),
                "largest_changes": [
                    {
                        "source_id": ch.source_id, "kind": ch.kind,
                        "rank_a": ch.rank_a, "rank_b": ch.rank_b,
                        "contribution_a": _float_or_none(ch.contribution_a),
                        "contribution_b": _float_or_none(ch.contribution_b),
                        "delta": _float_or_none(ch.delta),
                    }
                    for ch in changes
                ],
            })
        t = c.tests[j]
        ts = c.ties[j]
        sa, sb = c.summary_a[j], c.summary_b[j]
        cutoffs.append({
            "k": k,
            "mean_a": {"mean": sa.mean, "included": sa.included, "excluded": sa.excluded},
            "mean_b": {"mean": sb.mean, "included": sb.included, "excluded": sb.excluded},
            "paired": {
                "queries": t.n,
                "excluded": t.excluded,
                "weighting": t.weighting.value,
                "mean_a": t.mean_a,
                "mean_b": t.mean_b,
                "mean_delta": t.mean_delta,
                "wins": t.wins, "ties": t.ties, "losses": t.losses,
                "tie_tolerance": TIE_TOLERANCE,
                "randomization": {
                    "p_value": t.p_value, "method": t.method, "sign_vectors": t.resamples,
                    "two_sided": True, "seed": t.seed,
                    "p_value_formula": (
                        "share of all sign vectors with |sum| >= observed" if t.method == "exact"
                        else "(1 + sign vectors with |sum| >= observed) / (1 + sign vectors)"
                    ),
                },
                "bootstrap": {
                    "low": t.ci_low, "high": t.ci_high, "confidence": t.confidence,
                    "resamples": t.bootstrap_resamples, "seed": t.seed,
                    "method": "percentile",
                },
                "sentence": t.sentence(),
            },
            "tie_rules": {
                "rule": ts.rule.value,
                "queries_with_ties": ts.with_ties,
                "sign_changes_by_rule": ts.per_rule,
                "queries": list(ts.queries),
            },
            "queries": queries,
        })
    ch = c.changes
    return {
        "a": c.doc_a.name or None,
        "b": c.doc_b.name or None,
        "conventions": {
            **conv.to_dict(),
            "described": [
                {"convention": a, "choice": b, "formula": f} for a, b, f in conv.describe()
            ],
        },
        "queries_in_both": len(c.common),
        "queries_only_in_a": c.only_a,
        "queries_only_in_b": c.only_b,
        "what_changed": {
            "changed": ch.changed,
            "fixed": ch.fixed,
            "sentence": ch.sentence(),
            "details": ch.details(),
            "conventions": [{"field": f, "a": a, "b": b} for f, a, b in ch.conventions],
            "sources_added": ch.sources_added,
            "sources_removed": ch.sources_removed,
            "inventory_queries": ch.inventory_queries,
            "judgment_version_a": ch.judgment_version_a or None,
            "judgment_version_b": ch.judgment_version_b or None,
            "grade_differences": ch.grade_differences,
            "order_queries": ch.order_queries,
            "weight_queries": ch.weight_queries,
            "inventory": [
                {"query": i.query, "added": list(i.added), "removed": list(i.removed)}
                for i in c.inventory()
            ],
        },
        "cutoffs": cutoffs,
    }


def print_comparison(c: Comparison, out: TextIO, *, name_a: str = "", name_b: str = "") -> None:
    """The ``--format table`` report."""
    conv = c.conventions
    out.write(f"A: {name_a or c.doc_a.name or 'first run'}\n")
    out.write(f"B: {name_b or c.doc_b.name or 'second run'}\n\n")
    out.write("Conventions (applied to both)\n")
    width = max(len(a) for a, _, _ in conv.describe())
    for name, choice, formula in conv.describe():
        out.write(f"  {name:<{width}}  {choice}  [{formula}]\n")
    out.write("\n")
    out.write(
        f"Queries: {len(c.common)} in both, {len(c.only_a)} only in A{_few(c.only_a)}, "
        f"{len(c.only_b)} only in B{_few(c.only_b)}\n"
    )
    out.write("What changed: " + c.changes.sentence() + "\n")
    for line in c.changes.details():
        out.write(f"  {line}\n")
        if line.startswith("candidate inventory:") and c.changes.inventory_queries:
            inventory = c.inventory(limit=5)
            for item in inventory:
                out.write(
                    f"    {item.query}: added {len(item.added)}{_few(item.added, 3)}, "
                    f"removed {len(item.removed)}{_few(item.removed, 3)}\n"
                )
            more = c.changes.inventory_queries - len(inventory)
            if more > 0:
                out.write(f"    ... and {more} more queries (all in --format json)\n")
    for j, k in enumerate(c.cutoffs):
        at = f"NDCG@{format_cutoff(k)}"
        out.write(
            f"\n{at} per query (delta = B - A, largest |delta| first; candidates that moved, "
            f"entered or left the cut at k = {format_cutoff(k)})\n"
        )
        counts = c.movement_counts(j)
        index = {q: i for i, q in enumerate(c.common)}
        kinds = ["moved", "entered", "left"]
        if counts["regraded"].any():
            kinds.insert(1, "regraded")
        heads = ["query", "A", "B", "delta", "outcome", *kinds]
        rows = []
        for qd in c.query_deltas(j):
            i = index[qd.query]
            a = _fmt(qd.ndcg_a) if qd.ndcg_a is not None else qd.status_a.value
            b = _fmt(qd.ndcg_b) if qd.ndcg_b is not None else qd.status_b.value
            rows.append([
                qd.query, a, b, _fmt(qd.delta, signed=True), qd.outcome,
                *(str(int(counts[kind][i])) for kind in kinds),
            ])
        widths = [max(len(h), *(len(r[x]) for r in rows)) if rows else len(h)
                  for x, h in enumerate(heads)]
        out.write("  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip()
                  + "\n")
        for r in rows:
            out.write("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip()
                      + "\n")
        out.write(f"mean {at} of A = {_summary_text(c.summary_a[j])}\n")
        out.write(f"mean {at} of B = {_summary_text(c.summary_b[j])}\n")
        out.write(c.tests[j].sentence() + "\n")
        ts = c.ties[j]
        per = ", ".join(f"{r} {n}" for r, n in ts.per_rule.items())
        out.write(
            f"Tie rules: {ts.count} queries' delta changes sign or vanishes under another tie "
            f"rule than {ts.rule.value} ({per}; {ts.with_ties} queries have tied scores)\n"
        )


def load_pair(
    run_a: str | Path, run_b: str | Path, qrels: str | Path | None = None
) -> tuple[Document, Document]:
    """Read the two inputs of a comparison.

    With ``qrels``, both are TREC runs joined with the same judgments;
    without, each is a worksheet (CSV/TSV or workbook) with its own grades.
    Raises :class:`InputError` naming the file for a missing or unreadable
    input, and for a run none of whose queries is judged.
    """
    _check_exist(run_a, run_b, qrels)
    if qrels is None:
        from core.io.load import load_document

        return load_document(run_a), load_document(run_b)
    from core.io.trec import QrelsColumns

    judgments = QrelsColumns(qrels)
    return _judged_run(run_a, judgments), _judged_run(run_b, judgments)


def _check_exist(*paths: str | Path | None) -> None:
    for name in paths:
        if name is not None and not Path(name).exists():
            raise InputError("no such file", file=str(name), hint="check the path")


def _judged_run(run: str | Path | Run, judgments: QrelsColumns) -> Document:
    from core.io.trec import Run, document_from_trec

    doc = document_from_trec(run, judgments)
    if doc.n_queries == 0:
        name = run.path if isinstance(run, Run) else run
        raise InputError(
            f"no query of the run {name} has judgments in this file",
            file=str(judgments.path), hint="check that run and qrels use the same query ids",
        )
    return doc


def _read_and_evaluate(
    run_a: str | Path, run_b: str | Path, qrels: str | Path, conv: Conventions
) -> tuple[Document, Document, Evaluation, Evaluation]:
    """Both runs read and evaluated, B on a second thread while A here, the
    qrels read on a third while the runs are (the reading and the array work
    release the GIL, so two cores share it; each file is read on one thread)."""
    from core.io.trec import QrelsColumns, Run

    with ThreadPoolExecutor(max_workers=2) as pool:
        judgments = pool.submit(QrelsColumns, qrels, threads=1)

        def one(path: str | Path) -> tuple[Document, Evaluation]:
            run = Run(path, threads=1)
            doc = _judged_run(run, judgments.result())
            del run
            return doc, evaluate(doc, conv)

        lane = pool.submit(one, run_b)
        doc_a, ev_a = one(run_a)
        doc_b, ev_b = lane.result()
    return doc_a, doc_b, ev_a, ev_b


def run_compare_command(args: argparse.Namespace, out: TextIO) -> int:
    """``ndcg-worksheet compare RUN_A RUN_B [--qrels QRELS] ...``."""
    from app.cli.main import conventions_from_args

    resamples = int(getattr(args, "resamples", 10000))
    if resamples < 1:
        raise InputError("--resamples must be at least 1")
    seed = int(getattr(args, "seed", 0))
    export = getattr(args, "export", None)
    if export is not None and Path(export).suffix.lower() != ".xlsx":
        raise InputError("--export writes an .xlsx workbook", file=str(export),
                         hint="name the file OUT.xlsx")
    ev_a = ev_b = None
    if args.qrels is None:
        doc_a, doc_b = load_pair(args.run_a, args.run_b)
        conv = conventions_from_args(args, doc_a.conventions)
    else:
        # A run joined with qrels has the default conventions: they are known
        # before the runs are read.
        _check_exist(args.run_a, args.run_b, args.qrels)
        conv = conventions_from_args(args, Conventions())
        doc_a, doc_b, ev_a, ev_b = _read_and_evaluate(args.run_a, args.run_b, args.qrels, conv)
    if not set(doc_a.query_ids) & set(doc_b.query_ids):
        raise InputError(
            f"{args.run_a} and {args.run_b} share no query",
            hint="compare two rankings of the same queries",
        )
    result = compare(doc_a, doc_b, conv, resamples=resamples, seed=seed,
                     evaluation_a=ev_a, evaluation_b=ev_b)
    if getattr(args, "format", "table") == "json":
        from app.cli.main import dump_json

        dump_json(compare_json(result), out, rows=len(result.common))
    else:
        print_comparison(result, out, name_a=args.run_a, name_b=args.run_b)
    if export is not None:
        from core.io.workbook import export_comparison_workbook

        export_comparison_workbook(doc_a, doc_b, export, conventions=conv, comparison=result,
                                   name_a=str(args.run_a), name_b=str(args.run_b))
        if getattr(args, "format", "table") != "json":
            out.write(f"\nwrote {export}\n")
    return 0


def run_with_judgments(run: str | Path | Run, judgments: Document) -> Document:
    """A TREC run graded with another document's current grades.

    For comparing a run against the document open in the editor: the run's
    queries that ``judgments`` holds are kept (as trec_eval keeps the queries
    in both files); a run row whose source ``judgments`` lists in that query
    takes its grade and grade state (unknown and unrateable included), other
    run rows are unknown; sources ``judgments`` lists but the run did not
    retrieve are added without a score. Conventions, judgment version and
    query weights are those of ``judgments``; the run's rank column is
    ignored.

    Parameters
    ----------
    run : str, Path or core.io.trec.Run
        The run file (or one already read).
    judgments : Document
        The document whose grades judge the run.

    Raises
    ------
    InputError
        When no query of the run is in ``judgments``, or the run lists a
        source twice for one query.
    """
    from core.io.trec import Run

    run = run if isinstance(run, Run) else Run(run)
    name = str(run.path)
    index = {q: i for i, q in enumerate(judgments.query_ids)}
    run_query, run_source = run.query, run.source
    keep = [i for i, q in enumerate(run_query) if q in index]
    if not keep:
        raise InputError(
            "no query of this run is in the open document", file=name,
            hint="check that the run and the document use the same query ids",
        )
    row_of = {
        (int(q), str(s)): r
        for r, (q, s) in enumerate(zip(judgments.query.tolist(), judgments.source_id,
                                       strict=True))
    }
    matched = np.fromiter(
        (row_of.get((index[run_query[i]], run_source[i]), -1) for i in keep), np.int64, len(keep)
    )
    queries = list(dict.fromkeys(run_query[i] for i in keep))
    seen = np.zeros(len(judgments), dtype=bool)
    seen[matched[matched >= 0]] = True
    extra_parts = [judgments.members(index[q]) for q in queries]
    extra = np.concatenate(extra_parts) if extra_parts else np.zeros(0, dtype=np.int64)
    extra = extra[~seen[extra]]
    rows = np.concatenate([matched, extra])
    has = rows >= 0
    safe = np.where(has, rows, 0)
    grade = np.where(has, judgments.grade[safe], np.nan)
    state = np.where(has, judgments.state[safe], np.int8(GradeState.UNKNOWN)).astype(np.int8)
    reason = [str(judgments.reason[r]) if r >= 0 else "" for r in rows.tolist()]
    version = [str(judgments.version[r]) if r >= 0 else "" for r in rows.tolist()]
    score = np.concatenate([run.score[keep], np.full(extra.size, np.nan)])
    query = [run_query[i] for i in keep] + [judgments.query_ids[int(q)]
                                            for q in judgments.query[extra]]
    source = [run_source[i] for i in keep] + [str(s) for s in judgments.source_id[extra]]

    def weights(values: FloatArray) -> dict[str, float]:
        return {q: float(values[index[q]]) for q in queries if not np.isnan(values[index[q]])}

    return Document.from_columns(
        query=query, source_id=source, score=score, grade=grade, state=state,
        reason=reason, version=version, query_order=queries,
        frequency=weights(judgments.frequency), importance=weights(judgments.importance),
        conventions=judgments.conventions, judgment_version=judgments.judgment_version,
        name=Path(name).stem, source=name,
    )


def load_against(path: str | Path, judgments: Document) -> Document:
    """The second document of a comparison with the open one.

    A TREC run file is graded with ``judgments`` (:func:`run_with_judgments`);
    anything else is read as a worksheet with its own grades
    (:func:`core.io.load.load_document`).
    """
    from core.io.load import WORKBOOK_SUFFIXES, load_document, looks_like_trec_run

    path = Path(path)
    if not path.exists():
        raise InputError("no such file", file=str(path), hint="check the path")
    if path.is_file() and path.suffix.lower() not in WORKBOOK_SUFFIXES and (
            looks_like_trec_run(path)):
        return run_with_judgments(path, judgments)
    return load_document(path)
