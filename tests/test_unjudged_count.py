"""The unjudged candidates a run's open counts (the editor's banner, the
command line's note: :func:`core.analysis.aggregate.unjudged_candidates`)
are counted on their mask: the indices of a run's ~70 % unknown rows are
made only where the document sets reasons, which are counted from them."""

from __future__ import annotations

import tracemalloc

import numpy as np

from core.analysis.aggregate import Unjudged, unjudged_candidates
from core.engine.evaluation import Status, evaluate
from core.model.document import Document


def _run(n_queries: int, per_query: int, reason: list[str] | None = None) -> Document:
    """A run joined with qrels that judge every third candidate it ranks
    (grades 0-2), the others unknown."""
    n = n_queries * per_query
    grade = np.full(n, np.nan)
    grade[::3] = np.arange(grade[::3].size) % 3
    return Document.from_columns(
        query=[f"q{q}" for q in range(n_queries)],
        query_codes=np.repeat(np.arange(n_queries), per_query),
        source_id=[f"d{i}" for i in range(n)], score=-np.arange(n, dtype=np.float64),
        grade=grade, reason=reason)


def test_a_run_s_unknown_candidates_are_counted_without_their_indices():
    # 1M rows, 666,666 of them unknown: their indices were 5.1 MiB (int64)
    ev = evaluate(_run(1000, 1000))
    ev.status_table()  # (asked by the window before the banner, as n_retrieved)
    _ = ev.n_retrieved
    tracemalloc.start()
    try:
        found = unjudged_candidates(ev)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert found == Unjudged(666_666, 1_000_000, 1000, 1000, {})
    # (the mask and its one temporary: 1 MiB each)
    assert peak < 2 * 1_000_000 + (1 << 18), f"{peak / 2**20:.1f} MiB"


def test_the_reasons_are_counted_of_the_retrieved_unknown_rows():
    # 3 queries of 6; the second row of each declined, the third gone (a
    # reason of another kind), the first row of q2 (judged) with a reason
    reason = ["", "declined by 2 annotators", "page gone", "", "", ""] * 3
    reason[12] = "declined by 1 annotator"
    doc = _run(3, 6, reason)
    found = unjudged_candidates(evaluate(doc))
    unknown = np.flatnonzero(np.isnan(doc.grade))
    assert found == Unjudged(unknown.size, 18, 3, 3, doc.unknown_reasons(unknown))
    assert found.reasons == {"declined": 3, "": 3}
    assert evaluate(doc).status_table()[1] == [Status.UNRESOLVED] * 3
