"""The paired statistics of a comparison: sign-flip randomization and bootstrap.

Pure numpy: the functions take the per-query deltas (and weights) and know
nothing of documents or conventions. Draws are made in blocks to bound memory;
every result states its method, resamples and seed.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

__all__ = [
    "CORRECTIONS",
    "TIE_TOLERANCE",
    "adjust_p_values",
    "paired_bootstrap",
    "paired_randomization",
    "paired_t_test",
    "randomization_columns",
    "resampling",
    "sign",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Two NDCG values closer than this are a tie (floating-point noise, not a change).
TIE_TOLERANCE = 1e-12
#: Sign-flip vectors (or bootstrap samples) drawn per block, to bound memory.
#: A block of random sign vectors is a whole number of the generator's
#: 32-bit draws (a multiple of 4 vectors of bytes), so its size does not
#: change the stream (tests/test_compare.py holds it). Measured at 2,000
#: queries x 10,000 vectors (medians of 3-9 calls): 256 a block against
#: 1,024, one column 10.9 / 13.5 ms of CPU, two 17.9-18.1 / 16.5-22.4 ms
#: (by set), four 31.7 / 27.4 ms, 45 (compare's ten runs, every pair) 533 /
#: 305 ms: each column's table of sums (512 KiB) is read again each block.
_BLOCK = 1024
#: Bootstrap draws (resamples x queries) gathered at once: a block of
#: resamples whose draws (1 MiB) and gathered deltas (2 MiB) stay near a
#: core's L2 cache. Measured at 2,000 queries, 10,000 resamples (medians of
#: 5 calls, alternating sizes): 2**19 draws a block (262 resamples) 83.5 /
#: 107.3 / 119.0 / 134.8 ms of CPU for 1 / 2 / 3 / 4 columns, 2**17 (65
#: resamples) 69.2 / 78.8 / 95.8 / 105.7 ms, 2**16 73.7 / 88.8 / 97.6 /
#: 103.2 ms; h38cmp's 1,024 a block was 106-111 ms for 2. numpy draws
#: bounded integers one after the other, so the blocks' sizes do not change
#: the stream (tests/test_compare.py holds it).
_DRAWS = 1 << 17
#: Up to this many columns the bootstrap gathers each resample's deltas;
#: beyond, it multiplies the draw counts by all the columns at once.
_GATHERED_COLUMNS = 4


def sign(x: FloatArray) -> npt.NDArray[np.int8]:
    """+1, -1 or 0 per delta; deltas within :data:`TIE_TOLERANCE` of 0 are 0."""
    out = np.zeros(x.shape, dtype=np.int8)
    out[x > TIE_TOLERANCE] = 1
    out[x < -TIE_TOLERANCE] = -1
    return out


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


def randomization_columns(
    v: FloatArray, resamples: int, seed: int
) -> tuple[FloatArray, str, int]:
    """:func:`paired_randomization` of every column of ``v`` (queries x
    statistics) with the same sign vectors: the p-values, the method and the
    number of sign vectors. A column's p-value does not depend on the others."""
    return _randomization_columns(np.asarray(v, dtype=np.float64), resamples, seed)


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
    if m > _GATHERED_COLUMNS:
        means = _bootstrap_means_by_counts(wd, w, equal, rng, resamples)
        alpha = (1.0 - confidence) / 2.0
        low, high = np.quantile(means, [alpha, 1.0 - alpha], axis=0)
        return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    # Two columns ride in one complex number (real and imaginary parts add
    # apart), so one gather serves both.
    pairs = [wd[:, c] + 1j * wd[:, c + 1] for c in range(0, m - 1, 2)]
    single = np.ascontiguousarray(wd[:, m - 1]) if m % 2 else None
    means = np.empty((resamples, m))
    done = 0
    while done < resamples:
        block = min(max(1, _DRAWS // n), resamples - done)
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


def _bootstrap_means_by_counts(
    wd: FloatArray, w: FloatArray, equal: bool, rng: np.random.Generator, resamples: int
) -> FloatArray:
    """The resampled means of every column of ``wd`` (weighted deltas) when
    there are many columns: per block, how often each query was drawn (the
    same draws as the gathering path) times ``wd``, one matrix product for
    every column at once. The sums are taken in another order than by
    gathering, so the means may differ from it in the last bit or two."""
    n, m = wd.shape
    means = np.empty((resamples, m))
    done = 0
    while done < resamples:
        block = min(_BLOCK, resamples - done)
        idx = rng.integers(0, n, size=(block, n))
        idx += (np.arange(block) * n)[:, None]
        counts = np.bincount(idx.ravel(), minlength=block * n).reshape(block, n)
        counts_f = counts.astype(np.float64)
        den = n * float(w[0]) if equal else counts_f @ w
        rows = slice(done, done + block)
        means[rows] = counts_f @ wd
        means[rows] /= den if equal else np.asarray(den)[:, None]
        done += block
    return means


def paired_t_test(deltas: FloatArray) -> float:
    """Two-sided paired Student t-test of "the mean of ``deltas`` is 0".

    ``t = mean / (sd / sqrt(n))`` with the sample standard deviation (n - 1
    degrees of freedom); the p-value is the regularized incomplete beta
    function ``I_{df / (df + t^2)}(df / 2, 1 / 2)``. NaN with fewer than two
    deltas; 1 when every delta is 0; 0 when the deltas are all equal and not 0.

    Examples
    --------
    >>> round(paired_t_test(np.array([1.0, 2.0, 3.0])), 6)  # t = 2 / (1 / sqrt 3), df 2
    0.07418
    """
    d = np.asarray(deltas, dtype=np.float64)
    n = d.size
    if n < 2:
        return math.nan
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    if sd == 0.0:
        return 1.0 if mean == 0.0 else 0.0
    t = mean / (sd / math.sqrt(n))
    df = n - 1.0
    return _incomplete_beta(df / 2.0, 0.5, df / (df + t * t))


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued
    fraction (modified Lentz), on the side where it converges fast."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1.0) / (a + b + 2.0):
        return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b
    return math.exp(log_front) * _beta_fraction(a, b, x) / a


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
            last = d * c
        if abs(last - 1.0) < 1e-16:
            break
    return h


#: The multiple-testing corrections :func:`adjust_p_values` knows.
CORRECTIONS = ("holm", "bonferroni", "none")


def adjust_p_values(p: FloatArray, method: str) -> FloatArray:
    """p-values corrected for testing them together (family-wise error).

    ``bonferroni``: each times the number of tests m (at most 1). ``holm``
    (Holm 1979, step-down): sorted ascending, the i-th (from 1) times
    ``m - i + 1``, each at least the one before it, at most 1. ``none``: as
    they are. NaN p-values (no test) are left NaN and not counted in m.

    Examples
    --------
    >>> adjust_p_values(np.array([0.01, 0.04, 0.03]), "holm").round(6).tolist()
    [0.03, 0.06, 0.06]
    >>> adjust_p_values(np.array([0.01, 0.04, 0.03]), "bonferroni").round(6).tolist()
    [0.03, 0.12, 0.09]
    """
    p = np.asarray(p, dtype=np.float64)
    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r}")
    out = p.copy()
    tested = np.flatnonzero(~np.isnan(p))
    m = tested.size
    if method == "none" or m == 0:
        return out
    if method == "bonferroni":
        out[tested] = np.minimum(1.0, p[tested] * m)
        return out
    order = tested[np.argsort(p[tested], kind="stable")]
    scaled = p[order] * (m - np.arange(m))
    out[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return out


def resampling(
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
