"""An interval narrower than the display's rounding (hpol4, item 4): its
bounds are written with the digits that tell them apart, in every sentence
and cell that writes a pair of bounds (the summary's bounds, the judging
queue's mean, the command line's table), never "between 1.0000 and 1.0000"."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from app.delegates import bounds_texts
from core.analysis.bounds import Bounds, NextJudgment
from core.analysis.queue import judging_queue
from core.engine.evaluation import evaluate
from core.model.conventions import Conventions
from core.model.document import Document
from core.model.numbers import apart_digits
from core.reports.table import _interval


def _doc() -> Document:
    return Document.from_columns(query=["q"] * 3, source_id=["a", "b", "c"],
                                 score=[3.0, 2.0, 1.0], grade=[2.0, None, 1.0],
                                 conventions=Conventions(cutoffs=(2,)))


def test_the_digits_that_tell_two_bounds_apart() -> None:
    assert apart_digits(0.99996, 1.0, 4) == 5
    assert apart_digits(0.4, 0.6, 4) == 4
    assert apart_digits(0.123456789, 0.123456781, 2) == 8
    assert bounds_texts(0.99996, 1.0, 4) == ("0.99996", "1.00000")
    assert bounds_texts(0.25, 0.5, 4) == ("0.2500", "0.5000")
    assert bounds_texts(-math.inf, 0.5, 4) == ("unbounded", "0.5000")


def test_the_table_writes_a_narrow_interval_apart() -> None:
    assert _interval(0.99996, 1.0) == "0.99996, 1.00000"
    assert _interval(0.25, 0.5) == "0.2500, 0.5000"
    assert _interval(-math.inf, -0.5) == "unbounded, -0.5000"
    assert _interval(None, None) == "-, -"


def _summary_of_q0(qtbot):  # type: ignore[no-untyped-def]
    """The window, its summary panel on ``_doc()``'s first query, and its evaluation."""
    from app.main import build_window

    w = build_window(None)
    qtbot.addWidget(w)
    w.set_document(_doc())
    panel = w.summary_panel
    ev = evaluate(_doc())
    panel._ev, panel._q = ev, 0
    return w, panel, ev


def test_the_summary_says_a_narrow_interval_with_its_digits(qtbot) -> None:  # type: ignore[no-untyped-def]
    w, panel, ev = _summary_of_q0(qtbot)
    narrow = Bounds(2, 0.99996, 1.0, True, 1)
    best = NextJudgment(index=1, source_id="b", rank=2, widths={0.0: 0.00003},
                        worst_width=0.00003)
    panel._show_details((ev, 0), ([narrow], best))
    assert "NDCG@2 between 0.99996 and 1.00000" in panel.bounds_label.text()
    assert panel.next_label.text().endswith("narrows to at most 0.00003 wide.")
    panel.details_job.wait()
    w.session.mark_saved()


def _queue_shown(qtbot, *, low: float, high: float, narrowing: float):  # type: ignore[no-untyped-def]
    """The judging queue's view showing ``_doc()``'s queue with its mean
    between ``low`` and ``high``, unsettled, the first judgment narrowing it
    by ``narrowing``; and what it shows (document, evaluation, queue)."""
    from app.review.queue_view import QueueView

    doc = _doc()
    ev = evaluate(doc)
    queue = replace(judging_queue(ev), low=low, high=high, settled=False,
                    narrowing=np.array([narrowing]))
    view = QueueView(lambda: 4)
    qtbot.addWidget(view)
    view.show_queue(doc, ev, queue)
    return view, (doc, ev, queue)


def test_the_judging_queue_says_a_narrow_mean_with_its_digits(qtbot) -> None:  # type: ignore[no-untyped-def]
    view, _shown = _queue_shown(qtbot, low=0.99996, high=1.0, narrowing=0.00004)
    assert view.message.text().startswith("Mean NDCG@2 between 0.99996 and 1.00000")
    assert view.message.text().endswith("narrows it by at least 0.00004.")


def test_an_interval_of_one_value_is_said_as_that_value(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The example's case-F-unknown: B unknown below A (3, the rubric's
    top) gives NDCG 1 whatever B's grade, at every cutoff; the summary said
    "NDCG@1 between 1.0000 and 1.0000" and "narrows to at most 0.0000 wide"."""
    from app.main import build_window

    w = build_window(None)
    qtbot.addWidget(w)
    w.show()
    panel = w.summary_panel
    w.set_query(w.document.query_index("case-F-unknown"))
    qtbot.waitUntil(lambda: "whatever" in panel.bounds_label.text(), timeout=60_000)
    assert panel.bounds_label.text() == (
        "1 unknown grade of 3: NDCG@1, NDCG@2 and NDCG@all are 1.0000 whatever the unknown "
        "grades are")  # (it said "NDCG@k is 1.0000 whatever the unknown grades are" per k)
    assert panel.next_label.text() == (
        "Judge 'B' next: no grade changes the NDCG@1, but the query stays unresolved until "
        "its unknown grades are judged.")
    panel.details_job.wait()
    w.session.mark_saved()


def test_the_judging_queue_says_a_small_narrowing_with_its_digits(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A mean whose bounds are far apart, the first judgment narrowing it
    by less than the rounding (a mean over many queries): it said "narrows
    it by at least 0.0000", as the summary no longer says of one query's
    interval (its width written with the digits that tell it from 0)."""
    view, (doc, ev, queue) = _queue_shown(qtbot, low=0.25, high=0.75, narrowing=0.00003)
    assert view.message.text().startswith("Mean NDCG@2 between 0.2500 and 0.7500")
    assert view.message.text().endswith("narrows it by at least 0.00003.")
    queue = replace(queue, narrowing=np.array([0.125]))  # (four digits where they do)
    view.show_queue(doc, ev, queue)
    assert view.message.text().endswith("narrows it by at least 0.1250.")


#: An NDCG of 1 whatever the unknown grades (d5, the only grade, tops the
#: rubric; the tied unknowns below it ordered best first), its two bounds
#: summed in two orders: 1 - 1.1e-16 and 1 + 2.2e-16.
NOISE = (0.9999999999999999, 1.0000000000000002)


def test_bounds_apart_by_the_floats_rounding_alone_are_one_value() -> None:
    """Bounds apart past :data:`~core.model.numbers.APART_MOST` digits are
    one number written twice (its sums' rounding): written at the display's
    digits, said as one value; they were written
    "[0.9999999999999999, 1.0000000000000002]"."""
    from core.model.numbers import one_value

    assert apart_digits(*NOISE) == 4
    assert apart_digits(*NOISE, 2) == 2
    assert apart_digits(0.999999999, 1.0, 4) == 9  # (a narrow interval: apart)
    assert [one_value(*NOISE), one_value(0.5, 0.5)] == [True, True]
    assert [one_value(0.999999999, 1.0), one_value(0.25, 0.5)] == [False, False]
    assert _interval(*NOISE) == "1.0000, 1.0000"
    assert bounds_texts(*NOISE, 4) == ("1.0000", "1.0000")


def test_the_table_writes_bounds_apart_by_rounding_at_four_digits(tmp_path) -> None:
    import io

    from app.cli.main import main

    run, qrels = tmp_path / "r.run", tmp_path / "q.qrels"
    run.write_text("q0 Q0 d5 1 1.0 r\nq0 Q0 d22 2 0.5 r\nq0 Q0 d30 3 0.5 r\nq0 Q0 d34 4 0.5 r\n")
    qrels.write_text("q0 0 d25 -1\nq0 0 d5 3\nq0 0 d16 2\n")
    args = ["evaluate", str(run), "--qrels", str(qrels), "--ties", "optimistic", "--k", "3"]
    out = io.StringIO()
    assert main([*args, "--format", "json"], out=out) == 0
    assert '"low": 0.9999999999999999' in out.getvalue()  # (the JSON keeps full precision)
    assert '"high": 1.0000000000000002' in out.getvalue()
    out = io.StringIO()
    assert main(args, out=out) == 0
    row = next(line for line in out.getvalue().splitlines() if line.startswith("q0 "))
    assert row.split() == ["q0", "unresolved", "3/6", "[1.0000,", "1.0000]"]


def test_the_summary_says_bounds_apart_by_rounding_as_one_value(qtbot) -> None:  # type: ignore[no-untyped-def]
    w, panel, ev = _summary_of_q0(qtbot)
    best = NextJudgment(index=1, source_id="b", rank=2, widths={0.0: 2.2e-16},
                        worst_width=2.2e-16)
    panel._show_details((ev, 0), ([Bounds(2, *NOISE, True, 1)], best))
    assert panel.bounds_label.text() == (
        "1 unknown grade of 3: NDCG@2 is 1.0000 whatever the unknown grades are")
    assert panel.next_label.text() == (
        "Judge 'b' next: no grade changes the NDCG@2, but the query stays unresolved until "
        "its unknown grades are judged.")
    panel.details_job.wait()
    w.session.mark_saved()


def test_the_judging_queue_says_a_mean_apart_by_rounding_as_one_value(qtbot) -> None:  # type: ignore[no-untyped-def]
    from app.review.queue_view import QueueView

    doc = _doc()
    ev = evaluate(doc)
    queue = replace(judging_queue(ev), low=NOISE[0], high=NOISE[1], settled=False,
                    narrowing=np.array([3.3e-16]))
    view = QueueView(lambda: 4)
    qtbot.addWidget(view)
    view.show_queue(doc, ev, queue)
    assert view.message.text() == "Mean NDCG@2 1.0000: the 1 unknown grade cannot change it."


def test_the_summary_says_each_interval_once_with_the_cutoffs_it_holds_for() -> None:
    """The one-value intervals in one clause, "whatever the unknown grades
    are" said once; the other intervals each once, naming their cutoffs
    (before: one clause per cutoff, the same words repeated)."""
    from app.panels.summary import _spans

    fixed, undefined = Bounds(1, 1.0, 1.0, True, 1), Bounds(5, None, None, True, 1)
    outer = Bounds(10, 0.4, 0.9, False, 1)
    maybe = Bounds(3, 1.0, 1.0, True, 1, may_be_undefined=True)
    assert _spans((1, 3, 5, 10, None, 20),
                  [fixed, maybe, undefined, outer, outer, Bounds(20, *NOISE, True, 1)], 4) == (
        "NDCG@1 and NDCG@20 are 1.0000 and NDCG@5 is undefined, whatever the unknown grades "
        "are; NDCG@3 is 1.0000 whatever the unknown grades are, or undefined; NDCG@10 and "
        "NDCG@all between 0.4000 and 0.9000 (outer bounds)")
    assert _spans((2,), [outer], 4) == "NDCG@2 between 0.4000 and 0.9000 (outer bounds)"
    assert _spans((2, 4), [maybe, maybe], 4) == (
        "NDCG@2 and NDCG@4 are 1.0000 whatever the unknown grades are, or undefined")
