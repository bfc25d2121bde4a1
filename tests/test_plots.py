"""Plots: the series follow the engine, render offscreen, and save."""

from __future__ import annotations

import math

import pytest

from app.plots import PlotPanel
from core.analysis.plotdata import contribution_series, ndcg_by_k, ndcg_distribution, sorted_deltas
from core.engine.evaluation import evaluate
from core.model.conventions import Gain, GainRule
from core.model.examples import seed_document

L = math.log2(3)


@pytest.fixture
def ev():
    return evaluate(seed_document())


def test_contribution_series_case_a(ev):
    q = ev.doc.query_index("case-A")
    actual, ideal = contribution_series(ev, q, ev.cutoffs.index(None))
    assert actual.x == (1.0, 2.0, 3.0)
    assert actual.y == pytest.approx((1.0, 3 / L, 0.0), abs=1e-15)
    assert ideal.y == pytest.approx((3.0, 1 / L, 0.0), abs=1e-15)
    a1, i1 = contribution_series(ev, q, ev.cutoffs.index(1))
    assert (a1.y, i1.y) == ((1.0,), (3.0,))


def test_ndcg_by_k_matches_the_cutoffs(ev):
    q = ev.doc.query_index("case-A")
    curve = ndcg_by_k(ev, q)
    assert curve.x == (1.0, 2.0, 3.0)
    assert curve.y == pytest.approx((1 / 3, (1 + 3 / L) / (3 + 1 / L), (1 + 3 / L) / (3 + 1 / L)))
    undefined = ndcg_by_k(ev, ev.doc.query_index("case-F-zero"))
    assert all(math.isnan(v) for v in undefined.y)


def test_distribution_leaves_out_undefined_and_unresolved(ev):
    hist, left_out = ndcg_distribution(ev, ev.cutoffs.index(1))
    assert left_out == 2
    assert sum(hist.y) == 6
    # NDCG@1 values: A, C, D-doubled 1/3; B 0; D-plus-one 1/2; E 2/3
    assert hist.y == (1.0, 0.0, 0.0, 3.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0)


def test_sorted_deltas_drop_undetermined():
    s, names = sorted_deltas(["a", "b", "c", "d"], [0.2, float("nan"), -0.1, 0.0])
    assert names == ("c", "d", "a")
    assert s.y == (-0.1, 0.0, 0.2)


def test_panel_draws_the_series_values(qtbot, ev, tmp_path):
    panel = PlotPanel()
    qtbot.addWidget(panel)
    q = ev.doc.query_index("case-B")
    panel.show_query(ev, q, ev.cutoffs.index(None))
    ax = panel.query_canvas.figure_.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert heights[:3] == pytest.approx([0.0, 3 / L, 0.5], abs=1e-15)
    assert heights[3:] == pytest.approx([3.0, 1 / L, 0.0], abs=1e-15)
    line = panel.query_canvas.figure_.axes[1].lines[0]
    assert list(line.get_ydata())[-1] == pytest.approx((3 / L + 0.5) / (3 + 1 / L))
    # the plots follow the conventions: exponential gain changes the bars
    ev2 = evaluate(ev.doc, ev.conventions.replace(gain=Gain(GainRule.EXPONENTIAL)))
    panel.show_query(ev2, q, ev2.cutoffs.index(None))
    heights = [p.get_height() for p in panel.query_canvas.figure_.axes[0].patches]
    assert heights[1] == pytest.approx(7 / L, abs=1e-15)
    panel.show_distribution(ev, 0)
    panel.show_deltas(["a", "b"], [0.1, -0.3], "delta NDCG@10")
    bars = [p.get_height() for p in panel.compare_canvas.figure_.axes[0].patches]
    assert bars == pytest.approx([-0.3, 0.1])
    panel.save(tmp_path / "plot.png")
    assert (tmp_path / "plot.png").read_bytes().startswith(b"\x89PNG")
    panel.save(tmp_path / "plot.svg")
    assert b"<svg" in (tmp_path / "plot.svg").read_bytes()[:2000]


def test_plots_dock_follows_the_window(qtbot):
    from app.main import build_window

    window = build_window(None)
    qtbot.addWidget(window)
    window.show()
    plots = window.plots
    plots.dock.raise_()
    q = window.document.query_index("case-B")
    window.set_query(q)
    plots.redraw()
    bars = [p.get_height() for p in plots.panel.query_canvas.figure_.axes[0].patches]
    # first cutoff of the example is k = 1: actual C (grade 0), ideal A (grade 3)
    assert bars == pytest.approx([0.0, 3.0])
    assert window.findChild(type(plots.dock), "plotsDock") is plots.dock
