"""The rank and batch readings: a column's whole numbers grouped by query
(:func:`counted`), read as a rank counting each query's sources 1..n
(:meth:`Counted.rank_like`, :meth:`Counted.counts_ranks`) or as a batch's
or a group's number, one value over each query's sources (:func:`batched`);
and the signs that a numeric column left out is no ranking (:func:`falls`,
:func:`tied`). A rank is never read as the grade, nor taken for the
ranking from its values alone (:mod:`~core.io.annotator.roles`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from itertools import pairwise
from typing import NamedTuple

from core.io.annotator.profile import Profile, determines, grouped, items, span

__all__ = [
    "BY_CHANCE",
    "GROUPS",
    "QUERIES",
    "ROWS",
    "Counted",
    "batch_reading",
    "batch_reason",
    "batched",
    "counted",
    "counting_chance",
    "counts_ranks",
    "falls",
    "listing",
    "numbers_rows",
    "rank_like",
    "runs_chance",
    "shares",
    "tied",
]


#: Below this chance that grades (:func:`shares`) count each query's
#: sources 1..n (:meth:`Counted.chance`), or count up down the rows in runs
#: (:func:`runs_chance`), as a column does, the column is a rank's values
#: or a batch's number; above it, it may be an annotator's grades (grades
#: 0-3 used alike count 1, 2 in a 2-row query one time in eight).
BY_CHANCE = 1e-4


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
    of those where the column says one per source (and which of those go
    up or down the rows in order: ``rising``); ``odd``: the queries
    of one source whose value is no rank of it (neither 1 nor 0: ``2``
    beside a query's 1, 2, 3 is a grade, no rank), each a query that does
    not count."""

    several: int
    per_query: list[list[int]]
    odd: int = 0
    #: The queries of ``per_query`` (their places) whose values go up (or
    #: down) the rows: 1, 2, 3 as typed in a ranking's order.
    rising: frozenset[int] = frozenset()

    def _sizes(self, counts: Callable[[list[int]], bool]) -> list[int] | None:
        """The sizes of the queries ``counts`` accepts; None when under 90%."""
        sizes = [len(got) for got in self.per_query if counts(got)]
        of = self.several + self.odd
        return sizes if self.several and len(sizes) >= 0.9 * of else None

    def chance(self, grades: list[Profile]) -> float:
        """How likely the annotators' ``grades`` (:func:`shares`), drawn at
        random, count each query's sources as this column does (in the
        rows' order where it goes up or down them, as a rank typed in the
        ranking's order does; else in any order): the evidence of a rank's
        values alone. 2-row queries count 1, 2 about one time in eight
        beside grades 0-3: a small hand-typed sheet's grades often do."""
        share = shares(grades, [v for got in self.per_query for v in got])
        p = 1.0
        for at, got in enumerate(self.per_query):
            if _exact(got):  # in any order, or up down the rows as typed
                orders = 1 if at in self.rising else math.factorial(len(got))
                p *= orders * math.prod(map(share, got))
        return p

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
    per_query: list[list[int]] = []
    rising: list[int] = []
    odd = sum(1 for q, ss in grouped(query.texts, source.texts).items()
              if len(ss) == 1 and not _first(by_query.get(q, set())))
    down: dict[str, list[str]] = {}  # each query's values down the rows, an item's once
    for q, _, v in dict.fromkeys(zip(query.texts, source.texts, p.texts, strict=True)):
        if q in several and v:
            down.setdefault(q, []).append(v)
    for q, sources in several.items():
        try:
            got = sorted(int(float(v)) for v in by_query.get(q, ()))
            rows = [float(v) for v in down.get(q, ())]
        except ValueError:
            return Counted(0, [])
        if len(got) == len(sources):
            if rows in (sorted(rows), sorted(rows, reverse=True)):
                rising.append(len(per_query))
            per_query.append(got)
    return Counted(len(several), per_query, odd, frozenset(rising))


def shares(grades: list[Profile], values: list[int]) -> Callable[[int], float]:
    """Each whole number's share of the annotators' ``grades``, on the
    scale from the lowest to the highest of theirs and of ``values``, each
    level seen once more (a level they did not use is rare, not
    impossible); none when they hold no whole numbers."""
    seen = Counter(int(float(t)) for g in grades for t in g.texts if _whole(t))
    if not seen:
        return lambda v: 0.0
    levels = [*seen, *values]
    total = seen.total() + max(levels) - min(levels) + 1
    return lambda v: (seen[v] + 1) / total


def _whole(text: str) -> bool:
    """A cell holding a whole number."""
    try:
        return float(text).is_integer()
    except ValueError:
        return False


def _first(values: set[str]) -> bool:
    """A one-source query's values a rank gives it: 1 (or 0)."""
    try:
        return all(float(v) in (0.0, 1.0) for v in values)
    except ValueError:
        return False


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


def runs_chance(p: Profile, grades: list[Profile]) -> float:
    """How likely the annotators' ``grades`` (:func:`shares`), drawn at
    random, count up down the rows in runs as ``p`` does
    (:data:`ROWS`): as likely as its values, times the ways of cutting
    the rows into as many runs (each but the first and the last of two
    rows or more) and of starting on the scale. A few rows of grades do
    so often (0, 1, 1, 1, 1, 2: one time in two hundred beside grades 0-3)."""
    nums = [int(float(t)) for t in p.texts if t]
    scale = [*nums, *(int(float(t)) for g in grades for t in g.texts if _whole(t))]
    runs = len({*nums})
    starts = max(1, max(scale) - min(scale) + 2 - runs)
    return min(1.0, math.prod(map(shares(grades, nums), nums)) * _cuts(len(nums), runs) * starts)


def counting_chance(p: Profile, grades: list[Profile]) -> float:
    """How likely the annotators' ``grades`` (:func:`shares`), drawn at
    random, count the rows one by one as ``p`` does (0, 1, 2, 3: read as a
    row number): as likely as its values, times the places the count may
    start on the scale. Four rows of grades 0-3 do so about one time in
    three hundred; ten rows counting 1..10 beside grades 1-5 never do."""
    nums = [int(float(t)) for t in p.texts if t]
    scale = [*nums, *(int(float(t)) for g in grades for t in g.texts if _whole(t))]
    starts = max(1, max(scale) - min(scale) + 2 - len(nums))
    return min(1.0, math.prod(map(shares(grades, nums), nums)) * starts)


def _cuts(n: int, runs: int) -> int:
    """The ways of cutting ``n`` rows into ``runs`` runs, each but the
    first and the last of two rows or more."""
    if runs == 1:
        return 1
    inner = n - 2 - 2 * (runs - 2)  # rows left over the least each run takes
    return math.comb(inner + runs - 1, runs - 1) if inner >= 0 else 0


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
