"""The rank and batch readings: a column's whole numbers grouped by query
(:func:`counted`), read as a rank counting each query's sources 1..n
(:meth:`Counted.rank_like`, :meth:`Counted.counts_ranks`) or as a batch's
or a group's number, one value over each query's sources (:func:`batched`);
and the signs that a numeric column left out is no ranking (:func:`falls`,
:func:`tied`). A rank is never read as the grade, nor taken for the
ranking from its values alone (:mod:`~core.io.annotator.roles`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from itertools import pairwise
from typing import NamedTuple

from core.io.annotator.profile import Profile, determines, grouped, items, span

__all__ = ["GROUPS", "QUERIES", "ROWS", "Counted", "batch_reading", "batch_reason", "batched",
           "counted", "counts_ranks", "falls", "listing", "numbers_rows", "rank_like", "tied"]


def numbers_rows(p: Profile, query: Profile) -> bool:
    """Whole numbers 1..n (or 0..n-1) down each query's n rows, in any order."""
    by_query: dict[str, list[str]] = {}
    for q, v in zip(query.texts, p.texts, strict=True):
        if q and v:
            by_query.setdefault(q, []).append(v)
    lists = [vs for vs in by_query.values() if len(vs) > 1]
    try:
        return bool(lists) and all(_exact(sorted(int(float(v)) for v in vs)) for vs in lists)
    except ValueError:
        return False



def _exact(got: list[int]) -> bool:
    """1..n or 0..n-1, sorted."""
    return got in (list(range(1, len(got) + 1)), list(range(len(got))))


def _nearly(got: list[int]) -> bool:
    """1..n, or in a query of 6 rows or more distinct values counting from
    0, 1 or 2 with at most one gap: 1..n but for one value (a headerless
    run's first row read as its header takes one of the first query's
    ranks); 6 distinct values over 7 levels are no grades either."""
    return _exact(got) or (len(got) >= _RANK_ROWS and len(set(got)) == len(got)
                           and got[0] in (0, 1, 2) and got[-1] - got[0] <= len(got))


class Counted(NamedTuple):
    """A column's whole numbers grouped by query once, for both readings
    of a rank (:meth:`rank_like`, :meth:`counts_ranks`): how many queries
    of several sources the sheet holds, and the values (sorted) of each
    of those where the column says one per source."""

    several: int
    per_query: list[list[int]]

    def _sizes(self, counts: Callable[[list[int]], bool]) -> list[int] | None:
        """The sizes of the queries ``counts`` accepts; None when under 90%."""
        sizes = [len(got) for got in self.per_query if counts(got)]
        return sizes if self.several and len(sizes) >= 0.9 * self.several else None

    def rank_like(self) -> bool:
        """Whole numbers counting each query's sources: 1..n (or 0..n-1)
        within every query of several sources, one per source."""
        return self._sizes(_exact) is not None

    def counts_ranks(self) -> bool:
        """A column that counts each query's sources beyond chance: a rank,
        never read as grades, even as the only column that could be grades.
        Small queries graded 1, 2 (, 3) stay grades: a 2- or 3-row query
        counts 1..n by chance as often as not; the evidence is the whole
        column's, a long query or several of 4 rows or more all counting
        (nearly: a query of 6 rows or more may miss one rank)."""
        sizes = self._sizes(_nearly)
        return sizes is not None and (
            max(sizes) >= _RANK_ROWS or sum(1 for n in sizes if n >= 4) >= _RANK_QUERIES)

    def ranks(self) -> bool:
        """Either reading: a rank's values."""
        return self.rank_like() or self.counts_ranks()


def counted(p: Profile, query: Profile, source: Profile,
            listed: dict[str, set[str]] | None = None) -> Counted:
    """``p``'s values within each query of several sources, grouped once
    (``listed``: :func:`listing`, when worked out already)."""
    if p.numeric < 0.95 or p.whole < 0.95 or determines(items(query, source), p) < 0.95:
        return Counted(0, [])
    by_query = grouped(query.texts, p.texts)
    several = listing(query, source) if listed is None else listed
    per_query = []
    for q, sources in several.items():
        try:
            got = sorted(int(float(v)) for v in by_query.get(q, ()))
        except ValueError:
            return Counted(0, [])
        if len(got) == len(sources):
            per_query.append(got)
    return Counted(len(several), per_query)


def listing(query: Profile, source: Profile) -> dict[str, set[str]]:
    """The queries listing several sources, each with its sources (a query
    of one source says nothing of how a column varies within a query)."""
    return {q: ss for q, ss in grouped(query.texts, source.texts).items() if len(ss) > 1}


def rank_like(p: Profile, query: Profile, source: Profile) -> bool:
    """See :meth:`Counted.rank_like`."""
    return counted(p, query, source).rank_like()


#: A query whose rows count 1..n with n this large holds more distinct
#: values than a grade scale has levels (0-3, 0-4, 1-5: grades repeat
#: within a query), so it ranks.
_RANK_ROWS = 6
#: Or this many queries of 4 rows or more, each counting 1..n once: grades
#: on a 4-level scale do so by chance in 4!/4^4 = 9% of such queries, all
#: three in under 0.1% of sheets.
_RANK_QUERIES = 3


def counts_ranks(p: Profile, query: Profile, source: Profile) -> bool:
    """See :meth:`Counted.counts_ranks`."""
    return counted(p, query, source).counts_ranks()


def falls(p: Profile, query: Profile | None) -> bool:
    """Numbers that fall down each query's rows (but for a tenth of the
    steps), as a ranker's scores do in the order it ranked."""
    keys = query.texts if query is not None else [""] * len(p.texts)
    by_query: dict[str, list[float]] = {}
    for key, t in zip(keys, p.texts, strict=True):
        with suppress(ValueError):
            by_query.setdefault(key, []).append(float(t))
    steps = [b - a for nums in by_query.values() for a, b in pairwise(nums)]
    falling = sum(1 for d in steps if d <= 0)
    return bool(steps) and falling >= 0.9 * len(steps) and min(steps) < 0


#: How a column reads as a batch's or a group's number (:func:`batch_reading`).
ROWS, QUERIES, GROUPS = "rows", "queries", "groups"


def batch_reading(p: Profile, query: Profile, source: Profile,
                  listed: dict[str, set[str]] | None = None) -> str:
    """How a column reads as a batch's or a group's number, in two queries
    listing several sources at least ("" when it does not): :data:`ROWS`,
    whole numbers counting up down the rows in runs (each batch's rows
    together, each batch one more than the last) that cut through a
    query's rows, a batch of so many rows (a HIT's): never grades;
    :data:`QUERIES`, one value over each query's sources, counting up so:
    a batch of whole queries, or grades the same for all of a query's
    documents; :data:`GROUPS`, one value over each query's sources in any
    order. A grade judges one document: beside grades that vary within a
    query, each of these is a batch's or a group's number; alone, a
    column of groups holds grades constant within each query (tiny
    sheets), and one counting up could be either. ``listed`` as for
    :func:`counted`."""
    listed = listing(query, source) if listed is None else listed
    if len(listed) < 2 or p.distinct < 2 or p.fill < 0.9 or determines(p, source) >= 0.95:
        return ""  # (a value naming one item each is its id: 1, 1, 2, 2 over two judges)
    values = grouped(query.texts, p.texts)
    up = _counts_up(p)
    if all(len(values.get(q, ())) == 1 for q in listed):
        return QUERIES if up else GROUPS
    return ROWS if up and sum(1 for q in listed if q in values) >= 2 else ""


def batched(p: Profile, query: Profile, source: Profile,
            listed: dict[str, set[str]] | None = None) -> bool:
    """A batch's or a group's number beside grades (any :func:`batch_reading`)."""
    return bool(batch_reading(p, query, source, listed))


def _counts_up(p: Profile) -> bool:
    """Whole numbers in runs down the rows, each run one more than the last
    (1, 1, 1, 2, 2, 3, 3, 3), every run but the first and the last of two
    rows or more: a batch's number as a platform writes it."""
    full = [t for t in p.texts if t]
    try:
        nums = [float(t) for t in full]
    except ValueError:
        return False
    runs: list[list[float]] = []
    for x in nums:
        if runs and runs[-1][0] == x:
            runs[-1].append(x)
        else:
            runs.append([x])
    return (len(runs) >= 2 and all(x.is_integer() for x in nums)
            and all(b[0] - a[0] == 1 for a, b in pairwise(runs))
            and all(len(r) >= 2 for r in runs[1:-1]))


def batch_reason(p: Profile, reading: str) -> str:
    """Why a batch's number (:func:`batch_reading`) is left out."""
    how = ("counting up down the rows in runs that cut through a query's rows"
           if reading == ROWS else "one value over each query's sources")
    return (f"{p.shown()}: {span(p)}, {how} (a batch's or a group's number: grades vary "
            "within a query); not imported")


def tied(p: Profile, query: Profile, source: Profile) -> bool:
    """Values that most items share with another item of their query (101,
    101, 102 / 104, 104): a count of a few values, a group; a ranker's
    scores tell a query's items apart, a rank is one per item."""
    by_query: dict[str, dict[str, str]] = {}
    for q, s, v in zip(query.texts, source.texts, p.texts, strict=True):
        if q and s and v:
            by_query.setdefault(q, {})[s] = v
    lists = [Counter(items.values()) for items in by_query.values() if len(items) > 1]
    items = sum(c.total() for c in lists)
    return items > 0 and sum(n for c in lists for n in c.values() if n > 1) >= 0.5 * items
