"""The distractors' makers of tests/sheetgen.py: the cells of each column
kind beside the judgments that is no judgment (timestamps, durations,
prices, counts, row numbers and record ids, confidences, booleans, status
and quality columns, free text, times since 1970, a tally of a few values,
batches' numbers, ranks, each row's grade in words), each drawn with the
sheet's ``random.Random`` in the order tests/sheetgen.py calls them (the
sheets drawn stay the same for the same seed), and what makes a sheet
ambiguous to read (values that pass for grades, or for a query).

A maker takes the sheet's rows as ``per_row`` (query, item, who) or their
count, and returns one cell per row.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise
from random import Random
from typing import Any

STAMPS = ["%m/%d/%Y %H:%M:%S", "%Y-%m-%dT%H:%M:%SZ", "%d.%m.%Y %H:%M", "%b %d, %Y %I:%M %p",
          "%a %b %d %H:%M:%S PST %Y"]


def distractor(kind: str, rnd: Random, n: int,
                start: datetime) -> tuple[list[Any], list[str], bool]:
    """A distractor's cells (one per row), its realistic headers and
    whether its values could pass for grades."""
    if kind in ("epoch", "epoch_ms"):  # seconds (or milliseconds) since 1970
        return epoch(rnd, n, 1000 if kind == "epoch_ms" else 1), \
            ["created_at", "submitted_ts", "timestamp", "_created_at", "time"], False
    if kind == "timestamp":
        fmt = rnd.choice(STAMPS)
        return [(start + timedelta(minutes=3 * i)).strftime(fmt) for i in range(n)], \
            ["Timestamp", "SubmitTime", "created_at"], False
    if kind == "duration":
        return [rnd.randint(5, 300) for _ in range(n)], ["WorkTimeInSeconds", "duration",
                                                         "lead_time"], False
    if kind == "price":
        return [round(rnd.uniform(10.34, 239.91), 2) for _ in range(n)], \
            ["Price", "price_usd", "cost"], False
    if kind == "count":
        small = rnd.random() < 0.5
        return [rnd.randint(0, 3) if small else rnd.randint(10, 900) for _ in range(n)], \
            ["NumberOfSimilarHITs", "clicks", "view_count", "num_scores"], small
    if kind == "row_number":
        return list(range(1, n + 1)), ["row", "#", "Unnamed: 0"], False
    if kind == "record_id":
        base = rnd.choice([1, 101, 5500000001])
        return [base + i for i in range(n)], ["id", "_unit_id", "annotation_id", "_id"], False
    if kind == "confidence":
        ints = rnd.random() < 0.5
        return [rnd.randint(1, 5) if ints else round(rnd.uniform(0.5, 1.0), 3)
                for _ in range(n)], ["confidence", "Confidence (1-5)", "_trust",
                                                       "confidence_score"], ints
    if kind == "boolean":
        return [rnd.choice(["true", "false"]) for _ in range(n)], ["is_mobile", "in_stock",
                                                                  "has_image"], False
    if kind == "status":
        return ["Approved"] * n, ["AssignmentStatus", "status"], False
    if kind == "quality":
        return [round(rnd.uniform(0.7, 1.0), 2) for _ in range(n)], ["_trust", "worker_quality",
                                                                     "accuracy", "quality_score",
                                                                     "trust score"], False
    if kind == "text":
        words = ["page did not load", "paywalled", "", "", "", "good match"]
        return [rnd.choice(words) for _ in range(n)], ["comment", "notes", "feedback"], False
    raise ValueError(kind)


def reads_as_grades(cells: list[Any]) -> bool:
    """Whether a distractor's drawn values happen to read as grades: a
    dozen whole numbers at most, nearly all within 0-100 as a percentage's
    (durations drawn as 5, 6, 5, 5 seconds; counts as 45, 55, 34, 837)."""
    nums = [c for c in cells if isinstance(c, int | float) and not isinstance(c, bool)]
    small = [c for c in nums if float(c).is_integer() and 0 <= c <= 100]
    return len(nums) == len(cells) and len(set(nums)) <= 12 and len(small) >= 0.8 * len(cells)


def tally(rnd: Random, per_row: list[tuple[int, int, Any]]) -> list[Any]:
    """A count of each item of a few values, its query's own (101-103 for
    the first, 104-106 for the next, ...): several items share each value,
    so it fixes the query and has more values than it, as a source id does."""
    base = rnd.choice([101, 240, 1200])  # above any scale: never grades
    count = {(q, d): base + 3 * q + rnd.randint(0, 2) for q, d, _ in per_row}
    for q in {q for q, _, _ in per_row}:  # two values at least (one would be a query
        # id), one shared (each its own would be an item's id)
        last = max(d for q2, d, _ in per_row if q2 == q)
        count[(q, 0)] = count[(q, 1)] = base + 3 * q
        count[(q, last)] = base + 3 * q + 2
    return [count[(q, d)] for q, d, _ in per_row]


def batches(rnd: Random, per_row: list[tuple[int, int, Any]]) -> list[int]:
    """A batch's number (1, 2 or 7, 8, ...): a few values, each over whole
    queries (the queries, in their order, cut in 2 or more pieces). Never
    a grade: a grade judges one document, and varies within a query across
    its documents."""
    base, n_q = rnd.choice([1, 7]), len({q for q, _, _ in per_row})
    cuts = sorted(rnd.sample(range(1, n_q), rnd.randint(1, n_q - 1)))
    return [base + sum(1 for c in cuts if q >= c) for q, _, _ in per_row]


def row_batches(rnd: Random, per_row: list[tuple[int, int, Any]]) -> list[int]:
    """A batch's number over runs of rows (a HIT's batch of so many rows),
    counting up down the sheet (1, 1, 1, 2, 2, ...), the runs of 2 rows or
    more cutting through a query's rows at least once: the queries say
    nothing of where a batch ends."""
    base, n = rnd.choice([1, 7, 12]), len(per_row)
    starts = {i for i in range(1, n) if per_row[i][0] == per_row[i - 1][0]}
    inside = rnd.choice(sorted(starts - {1, n - 1}))  # one cut within a query
    cuts = {inside} | {i for i in range(2, n - 1) if rnd.random() < 0.2}
    kept: list[int] = []
    for c in sorted(cuts):  # every run of 2 rows or more
        if c == inside or (c - (kept[-1] if kept else 0) >= 2 and n - c >= 2
                           and abs(c - inside) >= 2):
            kept.append(c)
    return [base + sum(1 for c in kept if i >= c) for i in range(n)]


def within_queries(cells: list[Any], per_row: list[tuple[int, int, Any]]) -> bool:
    """Whether each value's rows lie within one query."""
    queries: dict[Any, set[int]] = {}
    for c, (q, _, _) in zip(cells, per_row, strict=True):
        queries.setdefault(c, set()).add(q)
    return all(len(qs) == 1 for qs in queries.values())


def steps_up(cells: list[Any]) -> bool:
    """Numbers in runs down the rows, each run one more than the last (0,
    0, 1, 1, 2, 2): a batch's number as much as grades constant within
    each query, under a header that says nothing."""
    if not all(isinstance(c, int) for c in cells):
        return False
    runs = [c for i, c in enumerate(cells) if i == 0 or c != cells[i - 1]]
    return len(runs) == len(set(runs)) and all(b - a == 1 for a, b in pairwise(runs))


def ranks(rnd: Random, per_row: list[tuple[int, int, Any]]) -> list[int]:
    """A rank of each item within its query, 1..n (one per item, said again
    on each of its rows), in the rows' order or shuffled."""
    rank: dict[tuple[int, int], int] = {}
    for q in sorted({q for q, _, _ in per_row}):
        items = list(dict.fromkeys((q2, d) for q2, d, _ in per_row if q2 == q))
        if rnd.random() < 0.5:
            rnd.shuffle(items)
        rank.update({it: r for r, it in enumerate(items, start=1)})
    return [rank[(q, d)] for q, d, _ in per_row]


def epoch(rnd: Random, n: int, per_second: int) -> list[int]:
    """Submission times as crowd platforms export them, whole seconds (or
    milliseconds) since 1970: in the order the rows were submitted, a few
    seconds to minutes apart, a neighbouring pair out of order here and
    there (several workers at once), now and then two in the same second."""
    t = 1733480000 * per_second + rnd.randint(0, 86400 * per_second)
    out = []
    for _ in range(n):
        out.append(t)
        t += rnd.randint(2, 300) * per_second + rnd.randint(0, per_second - 1)
    for _ in range(n // 20):  # out of order
        i = rnd.randrange(n - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    for _ in range(n // 25):  # the same time twice
        i = rnd.randrange(1, n)
        out[i] = out[i - 1]
    return out


DISTRACTORS = ["timestamp", "epoch", "epoch_ms", "duration", "price", "count", "row_number",
               "record_id", "confidence", "boolean", "status", "quality", "text"]


#: Kinds drawn only when asked for (``sheets(among=...)``), so that the
#: sheets the main property test draws stay the same: a count of few
#: values (100-102), shared by several items of a query; a rank counting
#: each query's items 1..n, under a header that names no ranking; a
#: batch's number over whole queries, or over runs of rows cutting
#: through the queries (``row_batch``); each row's grade said again in
#: words of its own (``worded``: the grades again, no judgment of its own);
#: each query's text, the same on each of its rows (``query_text``: the
#: truth kept in ``Drawn.query_texts``).
ASKED = ["tally", "rank", "batch", "row_batch", "worded", "query_text"]


#: Words a column saying each grade again comes in (``worded``), one per grade.
WORDED = ["nope", "meh", "ok", "good", "great"]
