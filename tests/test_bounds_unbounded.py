"""An outer bound no finite number holds (a gain may be negative and the
ideal DCG just above 0) as the reports and the window name it: the word
``unbounded``, never a number and never JSON null (no NDCG)."""

from __future__ import annotations

import io
import json
import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis import bounds
from core.analysis.bounds import ndcg_bounds
from core.engine.evaluation import evaluate
from core.model.conventions import Conventions, IdealInventory, Rubric, TieRule
from core.model.document import Document
from core.reports import json as json_report
from core.reports.table import print_table

CONV = Conventions(cutoffs=(1,), ties=TieRule.SUPPLIED, ideal=IdealInventory.JUDGED,
                   rubric=Rubric.parse("-1,0,1,2"))


def _doc() -> Document:
    """b (-1) ranked first, a (unknown, on -1 to 2) second: at k = 1 the DCG
    is -1 and the ideal DCG a's grade or -1, so the outer interval (every
    completion not tried) has no finite lower bound (an ideal DCG just above
    0 is not ruled out by the four sums) and above, the DCG at most over the
    ideal DCG at most, -1 / 2 (0 before); the exact one is [-1.0, -0.5]."""
    return Document.from_columns(query=["q"] * 2, source_id=["a", "b"], score=[1.0, 3.0],
                                 grade=[None, -1.0], conventions=CONV)


@pytest.fixture
def outer(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(bounds, "MAX_COMBINATIONS", 0)  # no completion is tried


@pytest.mark.usefixtures("outer")
def test_an_outer_bound_with_no_finite_value_is_infinite_in_the_core() -> None:
    b = ndcg_bounds(evaluate(_doc()), 0, 0)
    assert (b.low, b.high, b.exact, b.unbounded) == (-math.inf, -0.5, False, True)
    assert bounds.unresolved_bounds(evaluate(_doc()))[0][0] == b


@pytest.mark.usefixtures("outer")
def test_the_table_names_an_unbounded_side() -> None:
    out = io.StringIO()
    print_table(evaluate(_doc()), out)
    text = out.getvalue()
    assert "[unbounded, -0.5000]~" in text
    assert ("unbounded: no finite outer bound on that side (a gain may be negative and the "
            "ideal DCG just above 0)") in text
    assert "inf" not in text


@pytest.mark.usefixtures("outer")
@pytest.mark.parametrize("compact", [False, True])
def test_the_json_names_an_unbounded_side_as_text_not_null(compact: bool, monkeypatch) -> None:
    """In both the indented JSON and the compact one written query by query
    (many queries: its text made from columns)."""
    if compact:
        monkeypatch.setattr(json_report, "_INDENTED_ROWS", 0)
    ev = evaluate(_doc())
    whole, streamed = io.StringIO(), io.StringIO()
    json_report.dump_json(json_report.evaluation_json(ev), whole, rows=1)
    json_report.dump_evaluation_json(ev, streamed)
    assert streamed.getvalue() == whole.getvalue()
    parsed = json.loads(streamed.getvalue(), parse_constant=lambda c: pytest.fail(c))
    assert parsed["queries"][0]["cutoffs"][0]["bounds"] == {
        "low": "unbounded", "high": -0.5, "exact": False}


def test_an_exact_interval_is_numbers() -> None:
    b = ndcg_bounds(evaluate(_doc()), 0, 0)
    assert (b.low, b.high, b.exact, b.unbounded) == (-1.0, -0.5, True, False)
    parsed = json_report.evaluation_json(evaluate(_doc()))
    assert parsed["queries"][0]["cutoffs"][0]["bounds"] == {
        "low": -1.0, "high": -0.5, "exact": True}


@pytest.mark.usefixtures("outer")
def test_the_window_names_an_unbounded_side(qtbot) -> None:  # type: ignore[no-untyped-def]
    from app.main import build_window
    from app.settings import Settings

    Settings().reviewer = "tester"
    w = build_window(None)
    qtbot.addWidget(w)
    w.set_document(_doc())
    w.show()
    label = w.summary_panel.bounds_label
    qtbot.waitUntil(lambda: "between" in label.text(), timeout=60_000)
    assert label.text() == (
        "1 unknown grade of 2: NDCG@1 between unbounded and -0.5000 (outer bounds; unbounded: "
        "no finite bound on that side, a gain may be negative and the ideal DCG just above 0)")
    # a at -1 or 0 leaves it unbounded: no width to say ('inf wide' before),
    # and why a is named (core.analysis.bounds.NextJudgment.why)
    assert w.summary_panel.next_label.text() == (
        "Judge 'a' next for the NDCG@1 interval: it is the best-ranked unknown candidate "
        "(rank 2); no single judgment surely narrows the interval, since each unknown "
        "candidate tried has a grade that would leave it unbounded (a gain may be negative "
        "and the ideal DCG just above 0).")
    w.summary_panel.details_job.wait()


@pytest.mark.usefixtures("outer")
def test_the_json_of_a_clusters_rows_names_an_unbounded_side_as_evaluate_does() -> None:
    """The per-query table's -inf (what a cluster's workers hand back) in
    the JSON made from it (:func:`core.reports.per_query.rows_json`): the
    same "unbounded" as evaluate's, where it was -inf (not JSON at all)."""
    from core.analysis.per_query import per_query_rows
    from core.reports.per_query import rows_json

    ev = evaluate(_doc())
    rows = per_query_rows(ev)
    assert (rows["low"].tolist(), rows["high"].tolist()) == ([-math.inf], [-0.5])
    made = rows_json(rows, CONV)["queries"][0]["cutoffs"][0]["bounds"]
    assert made == json_report.evaluation_json(ev)["queries"][0]["cutoffs"][0]["bounds"] == {
        "low": "unbounded", "high": -0.5, "exact": False}
    json_report.dump_json(rows_json(rows, CONV), io.StringIO(), rows=1)


@pytest.mark.usefixtures("outer")
def test_the_judging_queue_names_an_unbounded_mean(qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Query q unbounded below (and -0.5 above) beside r ([0.5, 1.0]): the mean's low is
    unbounded, q's judgment narrows by an amount not known (NaN, after r's
    0.25), and the queue's message says 'unbounded', not '-inf'."""
    import warnings

    from app.review.queue_view import QueueView
    from core.analysis import queue as queue_module

    monkeypatch.setattr(queue_module, "MAX_COMBINATIONS", 0)
    doc = Document.from_columns(query=["q", "q", "r", "r"], source_id=["a", "b", "a", "b"],
                                score=[1.0, 3.0, 1.0, 2.0], grade=[None, -1.0, None, 1.0],
                                conventions=CONV)
    ev = evaluate(doc)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        queue = queue_module.judging_queue(ev)
    assert (queue.low, queue.high, queue.exact) == (-math.inf, 0.25, False)
    assert queue.rows.tolist() == [2, 0]
    assert queue.narrowing[0] == 0.25
    assert math.isnan(queue.narrowing[1])
    view = QueueView(lambda: 4)
    qtbot.addWidget(view)
    view.show_queue(doc, ev, queue)
    assert view.message.text() == (
        "Mean NDCG@1 between unbounded and 0.2500 (outer bounds); 2 unknown grades. Judging "
        "the first narrows it by at least 0.2500.")


def _completions(ev, j: int = 0):  # type: ignore[no-untyped-def]
    """Query 0's outer interval and every completion's NDCG (those it has)."""
    query = bounds.OpenQuery(ev, 0, j)
    values, undefined = query.ndcg(query.grid())
    return query.outer(), values[~undefined]


_MOST = 2 + 2 / math.log2(3) + 1 / 2  # (the ideal DCG at most: 2, 2, 1)


@pytest.mark.parametrize(("zero_ideal", "expected"), [("undefined", 1 / _MOST), ("zero", 0.0)])
def test_the_side_the_dcg_cannot_cross_0_on_is_its_ratio_over_the_most_ideal(
        zero_ideal: str, expected: float) -> None:
    """a (1) ranked alone; b and c judged-not-retrieved, unknown on -1 to 2
    (the judged inventory): the DCG is 1 whatever b and c are, the ideal DCG
    from 1 - 1/log2(3) - 1/2 (below 0) to 2 + 2/log2(3) + 1/2. Above, no
    finite bound (an ideal DCG just above 0 is not ruled out); below, every
    completion with an NDCG has it at least 1 over that (b and c 2), where the
    outer interval said 0. Under the zero rule an ideal DCG of 0 reads 0, so
    0 is the bound there."""
    doc = Document.from_columns(query=["q"] * 3, source_id=list("abc"),
                                score=[1.0, None, None], grade=[1.0, None, None],
                                conventions=CONV)
    ev = evaluate(doc, replace(CONV, cutoffs=(None,), zero_ideal=zero_ideal))  # type: ignore[arg-type]
    (low, high), ndcg = _completions(ev)
    assert (low, high) == (pytest.approx(expected, rel=1e-15), math.inf)
    assert ndcg.min() >= low
    assert ndcg.min() == pytest.approx(1 / _MOST, rel=1e-15)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([1.0, 2.0, 3.0, None]),
                          st.sampled_from([-1.0, 0.0, 1.0, 2.0, None])), min_size=1, max_size=5),
       st.sampled_from([1, 2, None]), st.sampled_from(["undefined", "zero"]))
def test_an_outer_interval_holds_every_completion(rows, k, zero_ideal) -> None:  # type: ignore[no-untyped-def]
    """Random lists on -1 to 2 (scores None: judged, not retrieved): every
    completion's NDCG lies in the outer interval, its finite sides too."""
    doc = Document.from_columns(query=["q"] * len(rows),
                                source_id=[f"s{i}" for i in range(len(rows))],
                                score=[s for s, _ in rows], grade=[g for _, g in rows],
                                conventions=CONV)
    ev = evaluate(doc, replace(CONV, cutoffs=(k,), zero_ideal=zero_ideal))  # type: ignore[arg-type]
    if not ev.n_open[0] or not ev.n_ranked[0]:
        return
    (low, high), ndcg = _completions(ev)
    if ndcg.size:
        least, most = float(ndcg.min()), float(ndcg.max())
        assert low <= least + 1e-12 * max(1.0, abs(least))
        assert most <= high + 1e-12 * max(1.0, abs(most))


@pytest.mark.usefixtures("outer")
def test_judge_next_by_rank_names_the_best_ranked_and_says_why() -> None:
    """Three unknowns on -1..2 (c judged, not retrieved, listed first; a
    ranked 3rd; b ranked 2nd) under a known -1 ranked first, k = 1: each has
    a grade that leaves the interval unbounded, so the best ranked, b, is
    named by rank, and says so. With more than 200 unknowns the 200 tried
    are the best ranked (the first 200 listed before), so the one named is
    the best ranked of all."""
    from core.analysis.bounds import best_next_judgment

    doc = Document.from_columns(query=["q"] * 4, source_id=list("cabd"),
                                score=[None, 1.0, 2.0, 3.0], grade=[None, None, None, -1.0],
                                conventions=CONV)
    best = best_next_judgment(evaluate(doc), 0, 0)
    assert best is not None
    assert (best.source_id, best.rank, best.by_rank) == ("b", 2, True)
    assert best.why.startswith("it is the best-ranked unknown candidate (rank 2); no single")
    n = 230  # 229 unknowns listed before the best ranked one (rank 2)
    doc = Document.from_columns(query=["q"] * n, source_id=[f"s{i}" for i in range(n)],
                                score=[float(i) for i in range(n - 2)] + [1000.0, 2000.0],
                                grade=[None] * (n - 1) + [-1.0], conventions=CONV)
    best = best_next_judgment(evaluate(doc), 0, 0)
    assert best is not None
    assert (best.source_id, best.rank, best.by_rank) == (f"s{n - 2}", 2, True)


@pytest.mark.parametrize(("grade", "score", "k"), [
    ([5e-324, -5e-324, 5e-324, None], [2.0, 3.0, 0.0, None], 2),
    ([1e-323, 5e-324, None, -5e-324, None], [None, 1.0, None, 2.0, 0.0], 2),
    ([-5e-324, -1e-321, 5e-324, None, None], [1.0, 0.0, 4.0, None, None], 2),
])
def test_a_dcg_of_gains_below_the_normal_range_has_no_sure_sign(
        grade: list[float | None], score: list[float | None], k: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Gains below the normal range of floats on the scale -1..2: each
    product with a discount keeps a few digits (5e-324 x 1/log2(3) is
    5e-324), so b (-5e-324) first and a (5e-324) second sum to a DCG@2 of
    0 where every completion's lifted one is below 0. The outer interval
    read [0, 0] where the completions reach -0.226 (an ideal DCG of a few
    such gains: the NDCG is not small); a loose side whose DCG sum is that
    small is unbounded now. Found on random lists of such gains: 9 of
    7,131 intervals missed a completion's NDCG, now none."""
    doc = Document.from_columns(query=["q"] * len(grade),
                                source_id=[f"s{i}" for i in range(len(grade))],
                                score=score, grade=grade, conventions=CONV)
    ev = evaluate(doc, replace(CONV, cutoffs=(k,)))
    (low, high), ndcg = _completions(ev)
    assert low <= ndcg.min()
    assert ndcg.max() <= high
    assert (low, high) == (-math.inf, math.inf)
    monkeypatch.setattr(bounds, "MAX_COMBINATIONS", 0)  # all queries at once, as one
    b = ndcg_bounds(ev, 0, 0)
    assert (b.low, b.high) == (low, high)
    assert bounds.unresolved_bounds(ev)[0][0] == b
