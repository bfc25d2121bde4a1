"""The work of evaluating, bounding and reporting grows linearly with the
number of queries.

Work is counted, not timed: the calls made (Python functions, and C
functions called from Python) and the array elements that numpy functions
called by the engine, the bounds and the reports take and give (every
``np.*`` function those modules call is counted through a stand-in for
their ``np``). A document of 2Q queries is the document of Q queries twice
over (new query ids), so every query's own work is the same: a step that
does per query what the whole document costs (e.g. bounds that scan every
row for each query) doubles its work per query and quadruples its total,
where a linear one doubles it.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from types import FrameType, ModuleType
from typing import Any
from unittest import mock

import numpy as np
import pytest

import core.analysis.aggregate
import core.analysis.bounds
import core.engine.evaluation
import core.engine.ideal
import core.engine.order
import core.model.document
import core.model.ids
import core.reports.json
import core.reports.table
from core.analysis.bounds import best_next_judgment, ndcg_bounds, unresolved_bounds
from core.engine.evaluation import Evaluation, evaluate
from core.model.conventions import Conventions, Rubric, TieRule
from core.model.document import Document
from core.model.ids import IdBytes
from core.model.presets import preset
from core.reports.json import evaluation_json
from core.reports.table import print_table

COUNTED: tuple[ModuleType, ...] = (
    core.engine.evaluation, core.engine.order, core.engine.ideal, core.analysis.bounds,
    core.analysis.aggregate, core.model.ids, core.model.document, core.reports.json,
    core.reports.table,
)


def _size(x: Any) -> int:
    if isinstance(x, np.ndarray):
        return int(x.size)
    if isinstance(x, (list, tuple)):
        return sum(int(v.size) for v in x if isinstance(v, np.ndarray))
    return 0


class _Counted:
    """A numpy function (or ufunc) that adds the sizes of the arrays it takes
    and gives to ``counter``; its attributes (``np.add.at``) are counted too."""

    def __init__(self, fn: Any, counter: list[int]) -> None:
        self._fn, self._counter = fn, counter

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        out = self._fn(*args, **kwargs)
        # A binary search reads a few entries of the sorted array, not all.
        counted = args[1:] if self._fn is np.searchsorted else args
        self._counter[0] += (sum(map(_size, counted)) + sum(map(_size, kwargs.values()))
                             + _size(out))
        return out

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._fn, name)
        return _Counted(attr, self._counter) if callable(attr) else attr


class _CountingNumpy:
    """``numpy`` whose functions are :class:`_Counted`."""

    def __init__(self, counter: list[int]) -> None:
        self._counter = counter

    def __getattr__(self, name: str) -> Any:
        attr = getattr(np, name)
        if callable(attr) and not isinstance(attr, type):
            return _Counted(attr, self._counter)
        return attr


@contextmanager
def counting() -> Iterator[list[int]]:
    """[calls, numpy elements] counted while the block runs."""
    counts = [0, 0]
    elements = [0]

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            counts[0] += 1

    with ExitStack() as stack:
        for module in COUNTED:
            if not hasattr(module, "np"):
                continue
            stack.enter_context(mock.patch.object(module, "np", _CountingNumpy(elements)))
        sys.setprofile(hook)
        try:
            yield counts
        finally:
            sys.setprofile(None)
    counts[1] = elements[0]


def work(step: Callable[[], Any]) -> tuple[int, int]:
    """(calls, numpy elements) of ``step``."""
    with counting() as counts:
        step()
    return counts[0], counts[1]


QUERIES, CANDIDATES = 40, 30


def document(copies: int, *, id_bytes: bool) -> Document:
    """``copies`` times the same queries: tied scores, unknown grades (many
    per query: outer bounds; few: exact ones) and judged rows not retrieved."""
    rng = np.random.default_rng(3)
    query, source, score, grade = [], [], [], []
    for q in range(QUERIES):
        n = CANDIDATES
        scores = np.round(rng.gamma(2.0, 1.0, n), 1).tolist() + [None] * 3
        unknown = 0.6 if q % 2 else 0.04
        grades = [None if rng.random() < unknown else float(rng.integers(0, 4))
                  for _ in range(n + 3)]
        for i in range(n + 3):
            query.append(q)
            source.append(f"q{q}_doc{i:04d}")
            score.append(scores[i])
            grade.append(grades[i])
    n_rows = len(query)
    codes = np.concatenate([np.asarray(query) + c * QUERIES for c in range(copies)])
    sources = [f"c{c}-{s}" for c in range(copies) for s in source]
    return Document.from_columns(
        query=[f"c{c}q{q}" for c in range(copies) for q in range(QUERIES)],
        query_codes=codes,
        source_id=IdBytes.from_texts(sources) if id_bytes else sources,
        score=score * copies, grade=grade * copies, check=False,
    ) if n_rows else Document.from_columns(query=[], source_id=[])


CONVENTIONS = {
    "default": Conventions(cutoffs=(5, 20, None), rubric=Rubric.parse("0,1,2,3")),
    "trec_eval": preset("trec_eval", cutoffs=(5, 20, None)),
    "pessimistic": Conventions(cutoffs=(5, None), ties=TieRule.PESSIMISTIC,
                               rubric=Rubric.parse("0,1,2,3")),
}


def every_query_bounded(ev: Evaluation) -> None:
    """What the editor does query by query: the bounds of each."""
    for q in range(ev.doc.n_queries):
        for j in range(len(ev.cutoffs)):
            ndcg_bounds(ev, q, j)


STEPS: dict[str, Callable[[Document, Conventions], Any]] = {
    "evaluate": lambda doc, conv: evaluate(doc, conv),
    "unresolved_bounds": lambda doc, conv: unresolved_bounds(evaluate(doc, conv)),
    "ndcg_bounds per query": lambda doc, conv: every_query_bounded(evaluate(doc, conv)),
    "json report": lambda doc, conv: evaluation_json(evaluate(doc, conv)),
    "table report": lambda doc, conv: print_table(evaluate(doc, conv), io.StringIO()),
}


@pytest.mark.parametrize("conventions", sorted(CONVENTIONS))
@pytest.mark.parametrize("step", sorted(STEPS))
@pytest.mark.parametrize("id_bytes", [False, True])
def test_twice_the_queries_twice_the_work(step, conventions, id_bytes):
    conv, run = CONVENTIONS[conventions], STEPS[step]
    single, double = document(1, id_bytes=id_bytes), document(2, id_bytes=id_bytes)
    run(single, conv)  # first calls (imports, tables, what a document keeps)
    run(double, conv)
    calls_1, elements_1 = work(lambda: run(single, conv))
    calls_2, elements_2 = work(lambda: run(double, conv))
    # Linear: about 2x (what does not depend on the queries makes it less);
    # per query work that grows with the document: about 4x.
    assert calls_2 <= 2.2 * calls_1, (calls_1, calls_2)
    assert 1.5 * elements_1 <= elements_2 <= 2.2 * elements_1, (elements_1, elements_2)


def test_the_counts_see_quadratic_work():
    """The measure itself: a step that scans the whole document for each
    query is caught."""
    def per_query_scan(doc: Document) -> None:
        counted = core.engine.evaluation.np  # what the engine calls
        for q in range(doc.n_queries):
            counted.flatnonzero(doc.query == q)

    single, double = document(1, id_bytes=False), document(2, id_bytes=False)
    with mock.patch.object(core.engine.evaluation, "evaluate", per_query_scan):
        _, elements_1 = work(lambda: core.engine.evaluation.evaluate(single))
        _, elements_2 = work(lambda: core.engine.evaluation.evaluate(double))
    assert elements_2 > 3.5 * elements_1


def test_one_query_costs_its_own_size():
    """ndcg_bounds and best_next_judgment of one query do the same work next
    to one copy of the queries as next to two (once what an evaluation works
    out for all its queries is there)."""
    for conv in CONVENTIONS.values():
        sizes = []
        for copies in (1, 2):
            ev = evaluate(document(copies, id_bytes=True), conv)
            every_query_bounded(ev)  # what is worked out once per document
            best_next_judgment(ev, 3)
            sizes.append(work(lambda ev=ev: (ndcg_bounds(ev, 1, 0), best_next_judgment(ev, 1))))
        assert sizes[1] == sizes[0], sizes
