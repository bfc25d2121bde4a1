"""Compare several runs at once: a baseline against each other run, or every pair.

The way research teams report a table of systems: each run's mean NDCG per
cutoff over one set of queries, and per pair of runs the mean difference, the
paired randomization test, the bootstrap interval, the paired t-test, the
p-value corrected for testing the pairs together (Holm by default) and the
wins, ties and losses over queries.

Every run is evaluated under one set of conventions. The queries compared are
the same for every run: those every run holds (the others are named per run
that lacks them), and at each cutoff those with NDCG defined in every run and
a weight (the baseline's, under the declared weighting); the queries left out
are counted by the first run (baseline first) that has no value for them.
With two runs the numbers are those of :func:`core.analysis.compare.compare`:
the same queries, the same draws (:func:`~core.analysis.compare.statistics.resampling`
semantics: cutoffs with the same queries share them).

Only each run's values per query are kept (:class:`RunValues`), so many
large runs can be read one after another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from core.analysis.compare.changes import LeftOut
from core.analysis.compare.statistics import (
    CORRECTIONS,
    adjust_p_values,
    paired_bootstrap,
    paired_t_test,
    randomization_columns,
    sign,
)
from core.engine.evaluation import Evaluation
from core.engine.results import Status
from core.errors import InputError
from core.model.conventions import Conventions, Weighting
from core.model.document import has_weight

__all__ = [
    "PAIRS",
    "TESTS",
    "ManyComparison",
    "PairTest",
    "RunMean",
    "RunValues",
    "compare_runs",
    "run_letter",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Which pairs are tested: the baseline against each other run, or every pair.
PAIRS = ("baseline", "all")
#: The test whose p-values are corrected and marked.
TESTS = ("randomization", "t-test")


def run_letter(i: int) -> str:
    """The letter the reports give the ``i``-th run in report order (``a`` the
    baseline, ``b``, ...; ``r27`` and on past ``z``)."""
    return chr(ord("a") + i) if i < 26 else f"r{i + 1}"


@dataclass(frozen=True)
class RunValues:
    """What a comparison of many runs keeps of one evaluated run: its name,
    query ids, NDCG and status codes (queries x cutoffs), query weights
    under the conventions' weighting, and whether its document holds
    annotators' grades (their consensus is then one of its conventions)."""

    name: str
    query_ids: list[str]
    ndcg: FloatArray
    status_code: npt.NDArray[np.int8]
    weights: FloatArray
    conventions: Conventions
    annotated: bool = False

    @classmethod
    def of(cls, ev: Evaluation, name: str = "") -> RunValues:
        conv = ev.conventions
        return cls(name or ev.doc.name or "run", list(ev.doc.query_ids), ev.ndcg,
                   ev.status_code, ev.doc.query_weights(conv.weighting), conv,
                   bool(ev.doc.annotators))


@dataclass(frozen=True)
class RunMean:
    """One run's weighted mean NDCG at one cutoff over the compared queries."""

    run: str
    k: int | None
    mean: float | None
    included: int
    #: Queries left out at this cutoff (the same for every run), by reason.
    excluded: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PairTest:
    """Run ``b`` against run ``a`` at one cutoff (delta = b - a).

    ``p_value`` is the two-sided paired sign-flip randomization test
    (``method`` exact or monte carlo, ``sign_vectors`` used); ``p_t_test``
    the two-sided paired Student t-test of the deltas (None unless queries
    are weighted equally); ``p_corrected`` the p-value of ``test`` corrected
    with ``correction`` over the pairs tested at this cutoff.
    """

    a: str
    b: str
    k: int | None
    n: int
    mean_a: float | None
    mean_b: float | None
    mean_delta: float | None
    wins: int
    ties: int
    losses: int
    p_value: float | None
    method: str
    sign_vectors: int
    ci_low: float | None
    ci_high: float | None
    p_t_test: float | None
    p_corrected: float | None
    test: str
    correction: str

    @property
    def p_tested(self) -> float | None:
        """The uncorrected p-value of the chosen test."""
        return self.p_value if self.test == "randomization" else self.p_t_test


@dataclass
class ManyComparison:
    """Several runs compared under one set of conventions (:func:`compare_runs`).

    ``runs`` are in report order, the baseline first; ``common`` names the
    queries every run holds (the baseline's order) and ``ndcg`` is (runs x
    common queries x cutoffs); ``included`` (common x cutoffs) marks those
    compared at each cutoff; ``missing`` names, per run, the queries of the
    other runs it lacks.
    """

    runs: list[str]
    conventions: Conventions
    common: list[str]
    ndcg: FloatArray
    status_code: npt.NDArray[np.int8]
    weights: FloatArray
    included: BoolArray
    missing: dict[str, list[str]]
    means: list[list[RunMean]]
    tests: list[list[PairTest]]
    pairs: str
    correction: str
    test: str
    resamples: int
    bootstrap_resamples: int
    seed: int
    confidence: float
    alpha: float
    #: The queries the files named that no run's document holds (the reader's).
    left_out: LeftOut = field(default_factory=LeftOut)
    #: Whether a run's document holds annotators' grades: the reports name
    #: the consensus of annotators among the conventions only then (TREC
    #: runs judged by qrels have none), as a comparison of two does.
    annotated: bool = False

    @property
    def cutoffs(self) -> tuple[int | None, ...]:
        return self.conventions.cutoffs

    @property
    def baseline(self) -> str:
        return self.runs[0]

    @property
    def dropped(self) -> int:
        """Queries held by some run but not by all (never compared)."""
        every: set[str] = set(self.common)
        for qs in self.missing.values():
            every.update(qs)
        return len(every) - len(self.common)

    def excluded(self, j: int) -> dict[str, int]:
        """The common queries left out at cutoff index ``j``, by reason."""
        return self.means[j][0].excluded if self.means[j] else {}

    def deltas(self, j: int = 0) -> FloatArray:
        """(runs x common queries): each run's NDCG minus the baseline's at
        cutoff index ``j``; NaN where the query is not compared there."""
        d = self.ndcg[:, :, j] - self.ndcg[0, :, j]
        d[:, ~self.included[:, j]] = np.nan
        return np.asarray(d, dtype=np.float64)

    def significant(self, t: PairTest) -> bool:
        """Whether ``t``'s corrected p-value is at most :attr:`alpha`."""
        return t.p_corrected is not None and t.p_corrected <= self.alpha


def compare_runs(
    runs: Sequence[RunValues | Evaluation],
    conventions: Conventions | None = None,
    *,
    baseline: int = 0,
    pairs: str = "baseline",
    correction: str = "holm",
    test: str = "randomization",
    resamples: int = 10000,
    seed: int = 0,
    confidence: float = 0.95,
    bootstrap_resamples: int | None = None,
    alpha: float = 0.05,
    left_out: LeftOut | None = None,
) -> ManyComparison:
    """Compare two or more evaluated runs of the same queries.

    Parameters
    ----------
    runs : sequence of RunValues or Evaluation
        Each run evaluated under ``conventions`` (named by :attr:`RunValues.name`).
    conventions : Conventions, optional
        What the runs were evaluated under; defaults to the baseline's.
    baseline : int
        Index in ``runs`` of the baseline (reported first).
    pairs : {"baseline", "all"}
        The baseline against each other run, or every pair (earlier in report
        order against later: delta = later - earlier).
    correction : {"holm", "bonferroni", "none"}
        Over the pairs tested at each cutoff.
    test : {"randomization", "t-test"}
        Whose p-values are corrected.
    resamples, seed, confidence, bootstrap_resamples
        As :func:`core.analysis.compare.compare`.
    alpha : float
        The corrected p-value at or under which a difference is marked.
    left_out : LeftOut, optional
        The queries the files named that no run's document holds (the
        reader tells them: :func:`core.io.pairs.read_judged_runs`).

    Raises
    ------
    InputError
        Fewer than two runs, an unknown choice, runs evaluated under other
        conventions, or no query every run holds.
    """
    values = [r if isinstance(r, RunValues) else RunValues.of(r) for r in runs]
    _check(values, baseline, pairs, correction, test, resamples, confidence, alpha)
    values = [values[baseline], *(v for i, v in enumerate(values) if i != baseline)]
    conv = conventions or values[0].conventions
    if any(v.conventions != conv for v in values):
        raise ValueError("every run must be evaluated under the same conventions")
    names = _unique_names([v.name for v in values])
    common, rows, missing = _align(values, names)
    ndcg = np.stack([v.ndcg[r] for v, r in zip(values, rows, strict=True)])
    status = np.stack([v.status_code[r] for v, r in zip(values, rows, strict=True)])
    weights = values[0].weights[rows[0]]
    included = ~np.isnan(ndcg).any(axis=0) & has_weight(weights)[:, None]
    means = [_means(names, ndcg, status, weights, included, j, k)
             for j, k in enumerate(conv.cutoffs)]
    tested = _pairs(len(names), pairs)
    boot_n = bootstrap_resamples or resamples
    tests = _tests(names, tested, ndcg, weights, included, conv, test, correction,
                   (resamples, seed, boot_n, confidence))
    return ManyComparison(
        runs=names, conventions=conv, common=common, ndcg=ndcg, status_code=status,
        weights=weights, included=included, missing=missing, means=means, tests=tests,
        pairs=pairs, correction=correction, test=test, resamples=resamples,
        bootstrap_resamples=boot_n, seed=seed, confidence=confidence, alpha=alpha,
        left_out=left_out or LeftOut(), annotated=any(v.annotated for v in values),
    )


def _check(values: list[RunValues], baseline: int, pairs: str, correction: str, test: str,
           resamples: int, confidence: float, alpha: float) -> None:
    if len(values) < 2:
        raise InputError("compare needs at least two runs")
    if not 0 <= baseline < len(values):
        raise InputError(f"the baseline must be one of the {len(values)} runs")
    for what, value, choices in (("pairs", pairs, PAIRS), ("correction", correction,
                                                          CORRECTIONS), ("test", test, TESTS)):
        if value not in choices:
            raise InputError(f"unknown {what} {value!r}", hint=f"use one of {', '.join(choices)}")
    if resamples < 1:
        raise InputError("the number of resamples must be at least 1")
    if not 0.0 < confidence < 1.0:
        raise InputError("the confidence level must lie strictly between 0 and 1")
    if not 0.0 < alpha < 1.0:
        raise InputError("the significance level must lie strictly between 0 and 1")


def _unique_names(names: list[str]) -> list[str]:
    """The runs' names, a repeated one numbered (``run (2)``)."""
    out: list[str] = []
    for name in names:
        unique, n = name, 1
        while unique in out:
            n += 1
            unique = f"{name} ({n})"
        out.append(unique)
    return out


def _align(values: list[RunValues], names: list[str],
           ) -> tuple[list[str], list[IntArray], dict[str, list[str]]]:
    """The queries every run holds (the baseline's order), their index in
    each run, and per run the queries of the others it lacks."""
    held = [set(v.query_ids) for v in values]
    common = [q for q in values[0].query_ids if all(q in h for h in held[1:])]
    if not common:
        raise InputError("the runs share no query", hint="compare rankings of the same queries")
    union = list(dict.fromkeys(q for v in values for q in v.query_ids))
    missing = {name: [q for q in union if q not in h]
               for name, h in zip(names, held, strict=True)}
    rows = []
    for v in values:
        index = {q: i for i, q in enumerate(v.query_ids)}
        rows.append(np.fromiter((index[q] for q in common), np.int64, len(common)))
    return common, rows, {name: qs for name, qs in missing.items() if qs}


def _means(names: list[str], ndcg: FloatArray, status: npt.NDArray[np.int8],
           weights: FloatArray, included: BoolArray, j: int, k: int | None) -> list[RunMean]:
    """Each run's mean at cutoff index ``j`` over the included queries, and
    why the others were left out (the first run without a value names it)."""
    use = included[:, j]
    w = weights[use]
    total = float(w.sum())
    left = ~use
    excluded: dict[str, int] = {}
    statuses = tuple(Status)
    for r, name in enumerate(names):
        no_value = left & np.isnan(ndcg[r, :, j])
        for code in np.unique(status[r, no_value, j]).tolist():
            count = int(np.count_nonzero(no_value & (status[r, :, j] == code)))
            excluded[f"{statuses[code].value} in {name}"] = count
        left &= ~no_value
    if left.any():
        excluded["without a weight"] = int(np.count_nonzero(left))
    out = []
    for r, name in enumerate(names):
        mean = float(np.dot(w, ndcg[r, use, j]) / total) if total > 0 else None
        out.append(RunMean(name, k, mean, int(use.sum()), excluded))
    return out


def _pairs(n: int, pairs: str) -> list[tuple[int, int]]:
    if pairs == "baseline":
        return [(0, r) for r in range(1, n)]
    return [(a, b) for a in range(n) for b in range(a + 1, n)]


def _tests(names: list[str], tested: list[tuple[int, int]], ndcg: FloatArray,
           weights: FloatArray, included: BoolArray, conv: Conventions, test: str,
           correction: str, draws: tuple[int, int, int, float]) -> list[list[PairTest]]:
    """Per cutoff, every tested pair's statistics. Cutoffs with the same
    included queries share their draws, and so do all the pairs: each
    (pair, cutoff) is one column of one randomization and one bootstrap."""
    resamples, seed, boot_n, confidence = draws
    ks = conv.cutoffs
    groups: dict[bytes, list[int]] = {}
    for j in range(len(ks)):
        groups.setdefault(np.packbits(included[:, j]).tobytes(), []).append(j)
    stats: dict[tuple[int, int], tuple[float, str, int, float, float]] = {}
    for cols in groups.values():
        rows = np.flatnonzero(included[:, cols[0]])
        at = np.ix_(rows, np.asarray(cols, dtype=np.int64))
        # (queries, pairs x cutoffs): pair p at cutoff c is column p * len(cols) + c.
        d = np.concatenate([ndcg[b][at] - ndcg[a][at] for a, b in tested], axis=1)
        if rows.size:
            w = weights[rows]
            pv, method, used = randomization_columns(d * w[:, None], resamples, seed)
            lo, hi = paired_bootstrap(d, w, resamples=boot_n, seed=seed, confidence=confidence)
        else:
            pv = lo = hi = np.full(d.shape[1], np.nan)
            method, used = "none", 0
        for p in range(len(tested)):
            for c, j in enumerate(cols):
                x = p * len(cols) + c
                stats[p, j] = (float(pv[x]), method, used, float(lo[x]), float(hi[x]))
    out = []
    for j, k in enumerate(ks):
        row = [_pair_test(names, a, b, ndcg, weights, included[:, j], j, k, stats[p, j],
                          conv.weighting, test, correction)
               for p, (a, b) in enumerate(tested)]
        chosen = np.array([np.nan if t.p_tested is None else t.p_tested for t in row])
        adjusted = adjust_p_values(chosen, correction)
        out.append([_with_corrected(t, float(x)) for t, x in zip(row, adjusted, strict=True)])
    return out


def _none(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def _pair_test(names: list[str], a: int, b: int, ndcg: FloatArray, weights: FloatArray,
               use: BoolArray, j: int, k: int | None,
               stats: tuple[float, str, int, float, float], weighting: Weighting, test: str,
               correction: str) -> PairTest:
    rows = np.flatnonzero(use)
    va, vb = ndcg[a, rows, j], ndcg[b, rows, j]
    delta = vb - va
    w = weights[rows]
    p, method, used, low, high = stats
    if rows.size:
        total = float(w.sum())
        mean_a, mean_b = float(np.dot(w, va) / total), float(np.dot(w, vb) / total)
        mean_d = float(np.dot(w, delta) / total)
    else:
        mean_a = mean_b = mean_d = math.nan
    s = sign(delta)
    p_t = paired_t_test(delta) if weighting is Weighting.EQUAL else math.nan
    return PairTest(
        names[a], names[b], k, int(rows.size), _none(mean_a), _none(mean_b), _none(mean_d),
        int(np.count_nonzero(s > 0)), int(np.count_nonzero(s == 0)),
        int(np.count_nonzero(s < 0)), _none(p), method, used, _none(low), _none(high),
        _none(p_t), None, test, correction,
    )


def _with_corrected(t: PairTest, p: float) -> PairTest:
    return replace(t, p_corrected=_none(p))
