"""Evaluations and comparisons as plain-text tables (the ``--format table`` output).

Each table states the conventions first; each mean names what it left out.
Every line is written through :func:`core.reports.text.visible`: an id that
holds an escape sequence or a carriage return is shown with its control
characters escaped, never acted on by the terminal.
"""

from __future__ import annotations

import itertools
import math
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, TextIO

from core.analysis.aggregate import (
    UNJUDGED,
    CutoffSummary,
    excluded_phrase,
    summarize,
    unjudged_phrase,
)
from core.analysis.bounds import UNBOUNDED_TEXT, unresolved_bounds
from core.engine.evaluation import Evaluation, IntArray, Status
from core.model.conventions import Conventions, format_cutoff
from core.model.grades import unknown_counted
from core.model.numbers import apart_digits, counted
from core.reports.text import visible

if TYPE_CHECKING:
    from core.analysis.compare import Comparison

__all__ = ["print_comparison", "print_table", "write_aligned", "write_conventions"]


def _fmt(x: float | None, signed: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:+.4f}" if signed else f"{x:.4f}"


def _bound(x: float | None) -> str:
    """An interval's bound: an unbounded side named, never a number."""
    return UNBOUNDED_TEXT if x is not None and math.isinf(x) else _fmt(x)


def _interval(low: float | None, high: float | None) -> str:
    """An interval's bounds, ``low, high``: four digits, or the more that
    write them apart (:func:`~core.model.numbers.apart_digits`: never
    ``[1.0000, 1.0000]`` for an interval narrower than the rounding)."""
    if low is None or high is None:
        return f"{_bound(low)}, {_bound(high)}"
    d = apart_digits(low, high)
    return ", ".join(UNBOUNDED_TEXT if math.isinf(x) else f"{x:.{d}f}" for x in (low, high))


def _line(out: TextIO, text: str = "") -> None:
    """One line of a table, its control characters shown (:func:`visible`)."""
    out.write(visible(text) + "\n")


def _write_conventions(conv: Conventions, out: TextIO, *, annotated: bool = True) -> int:
    """The conventions, one a line (the consensus of annotators only when
    ``annotated``: a document holds their grades); returns the width of
    their names."""
    rows = conv.describe(annotated=annotated)
    width = max(len(a) for a, _, _ in rows)
    for name, choice, formula in rows:
        _line(out, f"  {name:<{width}}  {choice}  [{formula}]")
    return width


def _write_rows(heads: list[str], rows: list[list[str]], out: TextIO) -> None:
    """Left-aligned columns, each as wide as its widest cell.

    The cells are checked for control characters all at once, and each row
    is laid out by one format string (compare's whole table on bench_compare's
    runs, 2 x 2,000 rows of 9 cells: the main thread's CPU 0.041-0.044 ->
    0.033-0.038 s, medians of 9, 3 alternating processes a build)."""
    if not "".join(itertools.chain.from_iterable(rows)).isprintable():
        rows = [[visible(c) for c in r] for r in rows]
    columns = zip(*rows, strict=True) if rows else ((),) * len(heads)
    widths = [max(len(h), max(map(len, column), default=0))
              for h, column in zip(heads, columns, strict=True)]
    layout = "  ".join(f"{{:<{w}}}" for w in widths)
    _line(out, layout.format(*heads).rstrip())
    for r in rows:
        _line(out, layout.format(*r).rstrip())


def print_table(ev: Evaluation, out: TextIO) -> None:
    """The ``evaluate --format table`` report: conventions, NDCG per query
    and cutoff (an interval where unknown grades leave it open), the means."""
    _line(out, "Conventions")
    width = _write_conventions(ev.conventions, out, annotated=bool(ev.doc.annotators))
    if ev.doc.judgment_version:
        _line(out, f"  {'judgments':<{width}}  version {ev.doc.judgment_version}")
    _line(out)
    heads = ["query", "status", "judged"] + [f"NDCG@{format_cutoff(k)}" for k in ev.cutoffs]
    rows = []
    bounds = unresolved_bounds(ev)
    unbounded = False
    for q in range(ev.doc.n_queries):
        cells = [
            ev.doc.query_ids[q],
            ev.query_status(q).value,
            f"{int(ev.n_judged[q])}/{int(ev.n_total[q])}",
        ]
        for j in range(len(ev.cutoffs)):
            st = ev.status(q, j)
            if st is Status.OK:
                cells.append(_fmt(ev.ndcg[q, j]))
            elif st is Status.UNRESOLVED:
                b = bounds[j][q]
                approx = "" if b.exact else "~"
                cells.append(f"[{_interval(b.low, b.high)}]{approx}")
                unbounded = unbounded or b.unbounded
            else:
                cells.append(st.value)
        rows.append(cells)
    _write_rows(heads, rows, out)
    _line(out)
    for s in summarize(ev):
        _line(out, f"mean NDCG@{format_cutoff(s.k)} = {_fmt(s.mean)} over {counted(s.included)} "
                   f"({s.weighting.label}; {excluded_phrase(s.excluded)})")
    if ev.doc.unjudged_queries:
        _line(out)
        _line(out, f"{UNJUDGED}: {unjudged_phrase(ev.doc.unjudged_queries)}")
    _write_unknown_reasons(ev, out)
    if any(ev.status_code.ravel() == Status.NEGATIVE.code):
        _line(out)
        _line(out, f"negative: {Status.NEGATIVE.reason}")
    if any(ev.status_code.ravel() == Status.UNRESOLVED.code):
        _line(out)
        _line(out, "[low, high]: the interval unknown grades could still produce "
                   "(~ marks an outer interval)")
    if unbounded:
        _line(out, f"{UNBOUNDED_TEXT}: no finite outer bound on that side (a gain may be "
                   "negative and the ideal DCG just above 0)")


def _write_unknown_reasons(ev: Evaluation, out: TextIO) -> None:
    """Why the unknown grades are unknown, where some carry a reason (an
    import's declined items): ``unknown grades: 3 unknown, 2 of them
    declined``, with the queries they are in; nothing where none does, so
    that a report without reasons (every TREC run) is as it was."""
    why = ev.doc.unknown_reasons_by_query()
    if not why:
        return
    kinds: dict[str, int] = {}
    for q_kinds in why.values():
        for kind, n in q_kinds.items():
            kinds[kind] = kinds.get(kind, 0) + n
    ids = [ev.doc.query_ids[q] for q in sorted(why)]
    shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
    _line(out)
    _line(out, f"unknown grades: {unknown_counted(int(ev.n_unknown.sum()), kinds)} "
               f"(in {counted(len(ids))}: {shown})")


def _summary_text(s: CutoffSummary) -> str:
    return f"{_fmt(s.mean)} over {counted(s.included)} ({excluded_phrase(s.excluded)})"


def print_comparison(c: Comparison, out: TextIO, *, name_a: str = "", name_b: str = "") -> None:
    """The ``compare --format table`` report: the conventions, what changed,
    then per cutoff the queries' deltas, the means and the paired statistics."""
    # Each cutoff's movement counts (numpy: they let go of the interpreter
    # lock) on a second thread while the lines before them are written.
    with ThreadPoolExecutor(max_workers=1) as pool:
        counts = [pool.submit(c.movement_counts, j) for j in range(len(c.cutoffs))]
        _write_head(c, out, name_a, name_b)
        for j, k in enumerate(c.cutoffs):
            _write_cutoff(c, j, k, out, counts[j].result())


def _write_head(c: Comparison, out: TextIO, name_a: str, name_b: str) -> None:
    """:func:`print_comparison`'s lines before the cutoffs: the inputs, the
    conventions, the queries and what changed."""
    # Imported here: the comparison package loads only when a comparison is
    # reported, so ``evaluate`` starts without it.
    from core.analysis.compare.changes import few

    _line(out, f"A: {name_a or c.doc_a.name or 'first run'}")
    _line(out, f"B: {name_b or c.doc_b.name or 'second run'}")
    _line(out)
    _line(out, "Conventions (applied to both)")
    _write_conventions(c.conventions, out,
                       annotated=bool(c.doc_a.annotators or c.doc_b.annotators))
    _line(out)
    _line(out, f"Queries: {len(c.common)} in both, {len(c.only_a)} only in A{few(c.only_a)}, "
               f"{len(c.only_b)} only in B{few(c.only_b)}")
    if c.left_out:
        _line(out, f"Not compared: {c.left_out.phrase()}")
    _line(out, "What changed: " + c.changes.sentence())
    for line in c.changes.details():
        _line(out, f"  {line}")
        if line.startswith("candidate inventory:") and c.changes.inventory_queries:
            inventory = c.inventory(limit=5)
            for item in inventory:
                _line(out, f"    {item.query}: added {len(item.added)}{few(item.added, 3)}, "
                           f"removed {len(item.removed)}{few(item.removed, 3)}")
            more = c.changes.inventory_queries - len(inventory)
            if more > 0:
                _line(out, f"    ... and {counted(more, 'more query', 'more queries')} "
                           "(all in --format json)")


def _write_cutoff(c: Comparison, j: int, k: int | None, out: TextIO,
                  counts: dict[str, IntArray]) -> None:
    """One cutoff of :func:`print_comparison` (``counts``: its
    :meth:`~core.analysis.compare.Comparison.movement_counts`)."""
    at = f"NDCG@{format_cutoff(k)}"
    _line(out)
    _line(out, f"{at} per query (delta = B - A, largest |delta| first; candidates that moved, "
               f"entered or left the cut at k = {format_cutoff(k)})")
    index = {q: i for i, q in enumerate(c.common)}
    kinds = ["moved", "entered", "left"]
    if counts["regraded"].any():
        kinds.insert(1, "regraded")
    heads = ["query", "A", "B", "delta", "outcome", *kinds]
    rows = []
    columns = [counts[kind].tolist() for kind in kinds]
    for qd in c.query_deltas(j):
        i = index[qd.query]
        a = _fmt(qd.ndcg_a) if qd.ndcg_a is not None else qd.status_a.value
        b = _fmt(qd.ndcg_b) if qd.ndcg_b is not None else qd.status_b.value
        rows.append([
            qd.query, a, b, _fmt(qd.delta, signed=True), qd.outcome,
            *(str(column[i]) for column in columns),
        ])
    _write_rows(heads, rows, out)
    _line(out, f"mean {at} of A = {_summary_text(c.summary_a[j])}")
    _line(out, f"mean {at} of B = {_summary_text(c.summary_b[j])}")
    _line(out, c.tests[j].sentence())
    _line(out, c.ties[j].sentence())


#: The conventions one a line, and left-aligned columns, for the other
#: reports' tables (:mod:`core.reports.runs`).
write_conventions = _write_conventions
write_aligned = _write_rows
