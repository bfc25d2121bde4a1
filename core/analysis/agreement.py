"""How far the annotators (judges) agree on their grades.

Ratings are an (n candidates x a annotators) array with NaN where an
annotator gave no grade (``Document.ratings``). Per candidate: the individual
grades and whether any two given grades differ. Per pair of annotators:
Cohen's kappa (unweighted, or with linear or quadratic weights) over the
candidates both graded. Over all annotators: Krippendorff's alpha (nominal,
ordinal, interval or ratio) over the candidates with two or more grades.
Every coefficient carries the number of items it is based on; a coefficient
that is not defined (no items, or no variation to agree about) is None, not 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from core.model.document import Document
from core.model.numbers import DECIMALS, agreed, counted, fixed_text

__all__ = [
    "AgreementReport",
    "Alpha",
    "AlphaMetric",
    "Kappa",
    "KappaWeights",
    "agreement",
    "cohen_kappa",
    "disagreements",
    "krippendorff_alpha",
    "pairwise_kappa",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class KappaWeights(StrEnum):
    """Disagreement weights of Cohen's kappa, on the categories' order.

    The categories are the grades either annotator of the pair used, in
    ascending order, at positions 0..m-1 (as scikit-learn's
    ``cohen_kappa_score`` does).
    """

    NONE = "none"
    LINEAR = "linear"
    QUADRATIC = "quadratic"

    @property
    def formula(self) -> str:
        return {
            "none": "w(i, j) = 0 if i = j else 1",
            "linear": "w(i, j) = |i - j| / (m - 1)",
            "quadratic": "w(i, j) = (i - j)^2 / (m - 1)^2",
        }[self.value]


class AlphaMetric(StrEnum):
    """Krippendorff's difference functions (levels of measurement)."""

    NOMINAL = "nominal"
    ORDINAL = "ordinal"
    INTERVAL = "interval"
    RATIO = "ratio"

    @property
    def formula(self) -> str:
        return {
            "nominal": "delta^2(c, k) = 0 if c = k else 1",
            "ordinal": "delta^2(c, k) = (sum of n_g for g from c to k - (n_c + n_k) / 2)^2",
            "interval": "delta^2(c, k) = (c - k)^2",
            "ratio": "delta^2(c, k) = ((c - k) / (c + k))^2",
        }[self.value]


@dataclass(frozen=True)
class Kappa:
    """Cohen's kappa of two annotators over the ``items`` both graded.

    ``observed`` and ``expected`` are the (weighted) agreement proportions
    (unweighted: p_o and p_e; weighted: 1 - the weighted disagreements).
    ``kappa`` is None when there is nothing to agree about (no items, or
    chance agreement is already 1).
    """

    annotator_a: str
    annotator_b: str
    kappa: float | None
    items: int
    weights: KappaWeights
    observed: float | None
    expected: float | None


@dataclass(frozen=True)
class Alpha:
    """Krippendorff's alpha over the ``units`` with two or more grades
    (``values`` grades in all); None when there is no variation."""

    metric: AlphaMetric
    alpha: float | None
    units: int
    values: int
    observed_disagreement: float | None
    expected_disagreement: float | None


def _as_ratings(ratings: npt.ArrayLike) -> FloatArray:
    r = np.asarray(ratings, dtype=np.float64)
    if r.ndim != 2:
        raise ValueError("ratings must be a 2-D array (candidates x annotators)")
    if np.isinf(r).any():
        raise ValueError("ratings must be finite numbers or NaN (not graded)")
    return r


def disagreements(ratings: npt.ArrayLike) -> BoolArray:
    """Per candidate: do any two of its given grades differ?

    >>> disagreements([[1, 1, np.nan], [0, 2, 2], [3, np.nan, np.nan]]).tolist()
    [False, True, False]
    """
    r = _as_ratings(ratings)
    out = np.zeros(r.shape[0], dtype=bool)
    graded = ~np.isnan(r)
    rows = graded.sum(axis=1) >= 2
    if rows.any():
        sub = r[rows]
        out[rows] = np.nanmax(sub, axis=1) != np.nanmin(sub, axis=1)
    return out


def cohen_kappa(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    weights: KappaWeights | str = KappaWeights.NONE,
    *,
    names: tuple[str, str] = ("a", "b"),
) -> Kappa:
    """Cohen's kappa of two annotators' grades (NaN = not graded).

    Only items both graded count. Unweighted: ``(p_o - p_e) / (1 - p_e)``;
    weighted: ``1 - sum(w * O) / sum(w * E)`` with ``O`` the observed and
    ``E`` the chance table (product of the margins).

    Examples
    --------
    >>> round(cohen_kappa([0, 1, 1, 2], [0, 1, 2, 2]).kappa, 6)
    0.636364
    """
    weights = KappaWeights(weights)
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("the two annotators' grades must be 1-D arrays of equal length")
    both = ~np.isnan(x) & ~np.isnan(y)
    x, y = x[both], y[both]
    n = int(x.size)
    if n == 0:
        return Kappa(names[0], names[1], None, 0, weights, None, None)
    cats, codes = np.unique(np.concatenate([x, y]), return_inverse=True)
    m = int(cats.size)
    cx, cy = codes[:n], codes[n:]
    table = np.bincount(cx * m + cy, minlength=m * m).reshape(m, m) / n
    chance = np.outer(table.sum(axis=1), table.sum(axis=0))
    i, j = np.indices((m, m))
    if weights is KappaWeights.NONE:
        w = (i != j).astype(np.float64)
    elif weights is KappaWeights.LINEAR:
        w = np.abs(i - j) / max(m - 1, 1)
    else:
        w = (i - j) ** 2 / max(m - 1, 1) ** 2
    disagree_o = float((w * table).sum())
    disagree_e = float((w * chance).sum())
    observed, expected = 1.0 - disagree_o, 1.0 - disagree_e
    kappa = None if disagree_e <= 0.0 else 1.0 - disagree_o / disagree_e
    return Kappa(names[0], names[1], kappa, n, weights, observed, expected)


def pairwise_kappa(
    ratings: npt.ArrayLike,
    annotators: Sequence[str] | None = None,
    weights: KappaWeights | str = KappaWeights.NONE,
) -> list[Kappa]:
    """Cohen's kappa for every pair of annotators (columns), in column order."""
    r = _as_ratings(ratings)
    names = list(annotators) if annotators is not None else [str(i + 1) for i in range(r.shape[1])]
    if len(names) != r.shape[1]:
        raise ValueError("one annotator name per column of the ratings")
    out = []
    for p in range(r.shape[1]):
        for q in range(p + 1, r.shape[1]):
            out.append(cohen_kappa(r[:, p], r[:, q], weights, names=(names[p], names[q])))
    return out


def krippendorff_alpha(
    ratings: npt.ArrayLike, metric: AlphaMetric | str = AlphaMetric.ORDINAL
) -> Alpha:
    """Krippendorff's alpha of (units x annotators) ratings, NaN = not graded.

    Built from the coincidence matrix of the pairable units (two or more
    grades): ``alpha = 1 - D_o / D_e`` with ``D_o = sum o_ck delta^2(c, k) /
    n`` and ``D_e = sum n_c n_k delta^2(c, k) / (n (n - 1))``.

    Examples
    --------
    >>> round(krippendorff_alpha([[1, 1], [2, 2], [1, 2]], "nominal").alpha, 6)
    0.444444
    """
    metric = AlphaMetric(metric)
    r = _as_ratings(ratings)
    graded = ~np.isnan(r)
    m_u = graded.sum(axis=1)
    keep = m_u >= 2
    r, graded, m_u = r[keep], graded[keep], m_u[keep]
    units = int(r.shape[0])
    values = int(m_u.sum())
    if units == 0:
        return Alpha(metric, None, 0, 0, None, None)
    cats, codes = np.unique(r[graded], return_inverse=True)
    v = int(cats.size)
    unit_of = np.broadcast_to(np.arange(units)[:, None], r.shape)[graded]
    counts = np.bincount(unit_of * v + codes, minlength=units * v).reshape(units, v)
    counts = counts.astype(np.float64)
    scaled = counts / (m_u - 1.0)[:, None]
    coincidence = counts.T @ scaled - np.diag(scaled.sum(axis=0))
    n_c = coincidence.sum(axis=1)
    n = float(n_c.sum())
    i, j = np.indices((v, v))
    if metric is AlphaMetric.NOMINAL:
        delta2 = (i != j).astype(np.float64)
    elif metric is AlphaMetric.INTERVAL:
        delta2 = (cats[i] - cats[j]) ** 2
    elif metric is AlphaMetric.RATIO:
        total = cats[i] + cats[j]
        with np.errstate(divide="ignore", invalid="ignore"):
            delta2 = np.where(total != 0, ((cats[i] - cats[j]) / total) ** 2, 0.0)
    else:
        cum = np.concatenate([[0.0], np.cumsum(n_c)])
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        between = cum[hi + 1] - cum[lo]  # n_g summed for g from lo to hi
        delta2 = (between - (n_c[i] + n_c[j]) / 2.0) ** 2
    d_o = float((coincidence * delta2).sum()) / n
    d_e = float((np.outer(n_c, n_c) * delta2).sum()) / (n * (n - 1.0))
    alpha = None if d_e <= 0.0 else 1.0 - d_o / d_e
    return Alpha(metric, alpha, units, values, d_o, d_e)


@dataclass
class AgreementReport:
    """Agreement of a document's annotators.

    ``grades`` is the ratings array (candidates x annotators, NaN = not
    graded), ``graded`` the number of grades per candidate, ``disagree``
    whether any two of them differ.
    """

    annotators: list[str]
    grades: FloatArray
    graded: IntArray
    disagree: BoolArray
    kappas: list[Kappa]
    alphas: dict[AlphaMetric, Alpha] = field(default_factory=dict)

    @property
    def n_disagreements(self) -> int:
        return int(np.count_nonzero(self.disagree))

    def sentences(self, *, decimals: int = DECIMALS) -> list[str]:
        """One line per coefficient, each with the items it is based on (at
        ``decimals`` digits: the editor's decimals setting)."""
        n, graded = self.n_disagreements, int(np.count_nonzero(self.graded >= 2))
        out = [f"{n} of {counted(graded, 'candidate')} with two or more grades "
               f"{agreed(n, 'has')} annotators who disagree."]
        for k in self.kappas:
            value = "not defined" if k.kappa is None else fixed_text(k.kappa, decimals)
            w = "" if k.weights is KappaWeights.NONE else f" ({k.weights.value} weights)"
            out.append(
                f"Cohen's kappa{w} of {k.annotator_a} and {k.annotator_b}: {value} over "
                f"{counted(k.items, 'candidate')} both graded."
            )
        for metric, a in self.alphas.items():
            value = "not defined" if a.alpha is None else fixed_text(a.alpha, decimals)
            out.append(
                f"Krippendorff's alpha ({metric.value}): {value} over "
                f"{counted(a.units, 'candidate')} with two or more grades "
                f"({counted(a.values, 'grade')})."
            )
        return out


def agreement(
    source: Document | npt.ArrayLike,
    annotators: Sequence[str] | None = None,
    *,
    weights: KappaWeights | str = KappaWeights.NONE,
    metrics: Sequence[AlphaMetric | str] = (
        AlphaMetric.ORDINAL, AlphaMetric.INTERVAL, AlphaMetric.NOMINAL,
    ),
) -> AgreementReport:
    """Per-candidate disagreement, pairwise kappa and alpha in one report.

    ``source`` is a document (its ``ratings`` and ``annotators``) or a
    ratings array.
    """
    if isinstance(source, Document):
        if source.ratings is None:
            raise ValueError("the document keeps no individual annotator grades")
        ratings = _as_ratings(source.ratings)
        names = list(annotators) if annotators is not None else list(source.annotators)
    else:
        ratings = _as_ratings(source)
        names = list(annotators) if annotators is not None else []
    if not names:
        names = [str(i + 1) for i in range(ratings.shape[1])]
    return AgreementReport(
        annotators=names,
        grades=ratings,
        graded=(~np.isnan(ratings)).sum(axis=1).astype(np.int64),
        disagree=disagreements(ratings),
        kappas=pairwise_kappa(ratings, names, weights),
        alphas={AlphaMetric(m): krippendorff_alpha(ratings, m) for m in metrics},
    )
