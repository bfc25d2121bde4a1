"""The paired statistics of a comparison: sign-flip randomization and bootstrap.

Pure numpy: the functions take the per-query deltas (and weights) and know
nothing of documents or conventions. Draws are made in blocks to bound memory;
every result states its method, resamples and seed.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = [
    "TIE_TOLERANCE",
    "paired_bootstrap",
    "paired_randomization",
    "resampling",
    "sign",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Two NDCG values closer than this are a tie (floating-point noise, not a change).
TIE_TOLERANCE = 1e-12
#: Sign-flip vectors (or bootstrap samples) drawn per block, to bound memory.
_BLOCK = 1024


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
