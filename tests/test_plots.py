"""Plots: the series follow the engine, render offscreen, and save."""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pytest

from app.plots import PLOT_RANKS, PlotPanel
from core.analysis.plotdata import contribution_series, ndcg_by_k, ndcg_distribution, sorted_deltas
from core.engine.evaluation import evaluate
from core.model.conventions import Gain, GainRule
from core.model.document import Document
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


def test_integer_axes_get_whole_number_ticks(qtbot, ev):
    panel = PlotPanel()
    qtbot.addWidget(panel)
    # One rank at k = 1 (case-A): a view around 1 must not tick 0.6, 0.7, ...
    panel.show_query(ev, ev.doc.query_index("case-A"), ev.cutoffs.index(1))
    panel.show_distribution(ev, 0)
    panel.query_canvas.draw()
    panel.all_canvas.draw()
    rank_axis, k_axis = panel.query_canvas.figure_.axes
    counts = panel.all_canvas.figure_.axes[0]
    for ticks in (rank_axis.get_xticks(), k_axis.get_xticks(), counts.get_yticks()):
        assert len(ticks) >= 1
        assert all(float(t).is_integer() for t in ticks), list(ticks)
    assert 1.0 in list(rank_axis.get_xticks())
    # The title counts the queries drawn, the noun as many as they are.
    assert counts.get_title() == "6 queries; 2 without NDCG left out"
    panel.show_distribution(evaluate(Document.from_columns(
        query=["q"], source_id=["a"], score=[1.0], grade=[1.0])), 0)
    panel.all_canvas.draw()
    assert panel.all_canvas.figure_.axes[0].get_title() == "1 query; 0 without NDCG left out"


def test_delta_plot_draws_the_mean_and_its_interval(qtbot):
    panel = PlotPanel()
    qtbot.addWidget(panel)
    panel.show_deltas(["a", "b", "c"], [0.1, -0.3, 0.4], "delta NDCG@10",
                      (0.0667, -0.2, 0.3, 0.95))
    ax = panel.compare_canvas.figure_.axes[0]
    assert [p.get_height() for p in ax.patches] == pytest.approx([-0.3, 0.1, 0.4])
    means = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert len(means) == 1
    assert list(means[0].get_ydata()) == pytest.approx([0.0667, 0.0667])
    (band,) = ax.collections
    ys = band.get_paths()[0].vertices[:, 1]
    assert (ys.min(), ys.max()) == pytest.approx((-0.2, 0.3))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["mean delta +0.0667", "95% interval [-0.2000, +0.3000]"]
    # Without statistics: the bars and the zero line only.
    panel.show_deltas(["a", "b"], [0.1, -0.3], "delta NDCG@10")
    ax = panel.compare_canvas.figure_.axes[0]
    assert not ax.collections
    assert ax.get_legend() is None


def test_showing_the_plots_gives_them_room(qtbot):
    from app.main import build_window
    from app.plot_dock import LEAST_HEIGHT

    window = build_window(None)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    dock = window.plots.dock
    assert window.docks["auditLogDock"].height() < LEAST_HEIGHT  # the bottom starts small
    dock.raise_()
    qtbot.waitUntil(lambda: dock.height() >= min(LEAST_HEIGHT, window.height() * 0.45 - 1))


_LAZY = r"""
import sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from app.main import build_window
w = build_window(None)
w.show()
app.processEvents()
print("before", "matplotlib" in sys.modules, w.plots.loaded)
w.set_query(1)  # the plots behind the audit log's tab: not drawn unseen
w.set_query(0)
app.processEvents()
print("behind", w.plots.timer.isActive(), w.plots.loaded, w.plots.dirty)
w.docks["plotsDock"].show()
w.docks["plotsDock"].raise_()
for _ in range(50):
    app.processEvents()
    if w.plots.loaded and not w.plots.dirty:
        break
    import time; time.sleep(0.05)
print("after", "matplotlib" in sys.modules, w.plots.loaded, w.plots.dirty,
      *[p.get_height() for p in w.plots.panel.query_canvas.figure_.axes[0].patches])
w.close()
"""


def test_the_window_opens_without_matplotlib_and_plots_draw_when_shown(tmp_path) -> None:
    """matplotlib (a second to import) is loaded when the plots are first
    shown, not while the window opens nor when the query changes behind the
    audit log's tab; then they draw the current query."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / ".config")}
    out = subprocess.run([sys.executable, "-c", _LAZY], capture_output=True, text=True,
                         env=env, timeout=120, check=True)
    lines = out.stdout.splitlines()
    assert lines[0] == "before False False"
    assert lines[1] == "behind False False True"  # (no redraw waiting behind the tab)
    # case-A at the example's first cutoff, k = 1: actual B (grade 1), ideal A (grade 3).
    assert lines[2] == "after True True False 1.0 3.0"


def test_a_long_query_plots_its_first_ranks(qtbot):
    # 5,000 candidates: the bars stop at PLOT_RANKS (each list), the axis says so.
    n = 5000
    doc = Document.from_columns(query=["long"] * n, source_id=[f"d{i}" for i in range(n)],
                                score=list(range(n, 0, -1)), grade=[i % 4 for i in range(n)])
    ev = evaluate(doc)
    actual, ideal = contribution_series(ev, 0, max_rank=PLOT_RANKS)
    assert actual.x == tuple(float(r) for r in range(1, PLOT_RANKS + 1))
    assert ideal.x == actual.x
    whole_actual, _ = contribution_series(ev, 0)
    assert actual.y == whole_actual.y[:PLOT_RANKS]
    assert ideal.y[0] == 3.0  # the best grade first
    panel = PlotPanel()
    qtbot.addWidget(panel)
    panel.show_query(ev, 0)
    left = panel.query_canvas.figure_.axes[0]
    assert len(left.patches) == 2 * PLOT_RANKS
    assert left.get_xlabel() == f"rank (the first {PLOT_RANKS} of {n})"


@pytest.fixture
def restore_palette(qapp):
    from PySide6.QtGui import QPalette

    from app.scheme import apply_palette

    before = QPalette(qapp.palette())
    yield
    apply_palette(qapp, before)
    for _ in range(3):  # the palette reaches the plots, they draw (before they are deleted)
        qapp.processEvents()


def test_the_plots_follow_the_palette_into_dark_and_back(qtbot, qapp, ev, restore_palette):
    """No white figure in a dark window: the figure, the axes and their text
    take the palette's colours, the marks their tone's dark variant; a change
    of scheme draws every plot again in the new one."""
    from matplotlib.colors import to_hex
    from PySide6.QtGui import QPalette

    from app.models.looks import TONES
    from app.scheme import apply_palette, dark_palette

    role = QPalette.ColorRole
    panel = PlotPanel()
    qtbot.addWidget(panel)
    panel.show_query(ev, ev.doc.query_index("case-A"), ev.cutoffs.index(None))
    panel.show_deltas(["a", "b"], [0.1, -0.3], "delta NDCG@10", (-0.1, -0.5, 0.3, 0.95))
    for dark in (True, False):
        apply_palette(qapp, dark_palette() if dark else qapp.style().standardPalette())
        qapp.processEvents()  # (widgets get the application's palette as a posted event)
        palette = panel.palette()
        window, base, text = (palette.color(r).name() for r in (role.Window, role.Base,
                                                                 role.WindowText))
        assert (base == "#1e1e1e") is dark
        pick = (lambda t: t.dark) if dark else (lambda t: t.light)
        fig = panel.query_canvas.figure_  # drawn again, not asked to
        left, right = fig.axes
        assert to_hex(fig.get_facecolor()) == window
        assert to_hex(left.get_facecolor()) == base
        assert to_hex(left.xaxis.label.get_color()) == text
        assert to_hex(left.title.get_color()) == text
        assert {to_hex(t.get_color()) for t in left.get_xticklabels()} == {text}
        assert to_hex(left.spines["bottom"].get_edgecolor()) == text
        assert to_hex(left.get_legend().get_frame().get_facecolor()) == base
        assert {to_hex(t.get_color()) for t in left.get_legend().get_texts()} == {text}
        bars = [to_hex(p.get_facecolor()) for p in left.patches]
        assert bars == [pick(TONES["plot_actual"])] * 3 + [pick(TONES["plot_ideal"])] * 3
        assert to_hex(right.lines[0].get_color()) == pick(TONES["plot_actual"])
        deltas = panel.compare_canvas.figure_.axes[0]
        assert [to_hex(p.get_facecolor()) for p in deltas.patches] == [
            pick(TONES["plot_loss"]), pick(TONES["plot_win"])]
        zero, mean = deltas.lines
        assert to_hex(zero.get_color()) == text
        assert to_hex(mean.get_color()) == pick(TONES["plot_mean"])
        assert [p.get_height() for p in deltas.patches] == pytest.approx([-0.3, 0.1])


def test_an_idle_draw_on_a_deleted_canvas_is_passed_over(qtbot, capsys):
    """A window collected while its figure waited for an idle draw: the draw
    met the deleted C++ canvas and printed a traceback (seen in long runs)."""
    import shiboken6

    from app.plots import _Canvas

    canvas = _Canvas()
    canvas.resize(200, 100)
    shiboken6.delete(canvas)
    canvas.draw()  # RuntimeError: Internal C++ object (_Canvas) already deleted, before
    canvas._draw_pending = True
    canvas._draw_idle()  # matplotlib's idle path (it prints what draw raises)
    assert "Traceback" not in capsys.readouterr().err


def test_a_query_without_ndcg_keeps_its_k_axis(qtbot, ev):
    """An unresolved or undefined query has no NDCG@k to plot: the curve's
    axis, with no finite point to fit, was matplotlib's -0.05 to 0.05 and
    ticked a k of 0, beside the status. It spans the query's k as for any
    query (whole-number ticks from 1, none below)."""
    panel = PlotPanel()
    qtbot.addWidget(panel)
    for query in ("case-F-unknown", "case-F-zero"):
        q = ev.doc.query_index(query)
        panel.show_query(ev, q)
        panel.query_canvas.draw()
        _, k_axis = panel.query_canvas.figure_.axes
        (curve,) = panel.series["ndcg_by_k"]
        assert curve.x
        assert all(math.isnan(v) for v in curve.y)
        low, high = k_axis.get_xlim()
        assert low < min(curve.x) <= max(curve.x) < high
        ticks = [t for t in k_axis.get_xticks() if low <= t <= high]
        assert ticks
        assert min(ticks) >= 1, ticks
        assert [t.get_text() for t in k_axis.texts] == [ev.query_status(q).value]


def test_the_plots_say_they_are_being_drawn_until_they_are(qtbot):
    """The Plots tab, clicked for the first time, stayed blank while
    matplotlib loaded and drew (a second or more on a busy machine): it
    says what is coming until the plots are there."""
    from PySide6.QtWidgets import QLabel

    from app.main import build_window

    window = build_window(None)
    qtbot.addWidget(window)
    window.show()
    plots = window.plots
    label = plots.holder.findChild(QLabel, "plotsPlaceholder")
    assert label is not None
    assert label.text() == "Drawing the plots…"
    assert not plots.loaded
    assert not label.isHidden()
    plots.dock.raise_()
    qtbot.waitUntil(lambda: plots.loaded and not plots.dirty, timeout=20_000)
    assert label.isHidden()
    assert plots.panel.isVisibleTo(plots.holder)


def test_the_deltas_axis_label_is_whole_in_a_short_plot(qtbot):
    """At 1280x800 the Plots dock gives the comparison's plot ~600x234 px,
    its axes ~100 px tall under the queries' names: the y label 'delta
    NDCG@1 (B - A)' ran past the figure's top, read 'delta NDCG@1 (B -'.
    It is set on two lines, and drawn inside the figure. The legend, always
    at the upper left, covered the three largest losses when every delta
    was a loss (the bars hang from 0 at the top): it goes where the bars
    are not."""
    panel = PlotPanel()
    qtbot.addWidget(panel)
    canvas = panel.compare_canvas
    fig = canvas.figure_
    fig.set_dpi(100)
    fig.set_size_inches(6.0, 2.34)  # (the canvas as the dock sizes it)
    names = ["case-A", "case-B", "case-C", "case-D-doubled", "case-D-plus-one", "case-E"]
    panel.show_deltas(names, [-1.0, -2 / 3, -1 / 3, -1 / 3, -0.25, 0.0],
                      "delta NDCG@1 (B - A)", (-0.4306, -0.7083, -0.1944, 0.95))
    canvas.draw()
    label = fig.axes[0].yaxis.label
    assert label.get_text() == "delta NDCG@1\n(B - A)"
    renderer = canvas.get_renderer()
    box = label.get_window_extent(renderer)
    assert box.y0 >= 0, box
    assert box.y1 <= fig.bbox.height, (box, fig.bbox)
    legend = fig.axes[0].get_legend().get_window_extent(renderer)
    bars = [b for b in fig.axes[0].patches if b.get_height() != 0]
    assert len(bars) == 5
    assert not [b for b in bars if legend.overlaps(b.get_window_extent(renderer))]


def test_the_rank_and_k_ticks_stay_apart_in_a_narrow_plot(qtbot):
    """At 1280x800 the Plots dock gives This query's two plots ~600x230 px,
    each axis ~220 px wide: on a run of 1,000 ranks both axes ticked every
    25 ranks and the labels ran together ("100125150175200", seen under Xvfb
    on the installed wheel). The ticks are as many as the axis's width holds,
    whole numbers still, at least half an em apart."""
    n = 1000
    doc = Document.from_columns(query=["q"] * n, source_id=[f"d{i}" for i in range(n)],
                                score=list(range(n, 0, -1)), grade=[i % 4 for i in range(n)])
    panel = PlotPanel()
    qtbot.addWidget(panel)
    canvas = panel.query_canvas
    fig = canvas.figure_
    fig.set_dpi(100)
    fig.set_size_inches(6.0, 2.3)  # (the canvas as the dock sizes it)
    panel.show_query(evaluate(doc), 0)
    canvas.draw()
    renderer = canvas.get_renderer()
    for ax in fig.axes:
        low, high = ax.get_xlim()
        labels = sorted((t for t in ax.xaxis.get_ticklabels()
                         if t.get_text() and low <= t.get_position()[0] <= high),
                        key=lambda t: t.get_position()[0])
        assert len(labels) >= 3, [t.get_text() for t in labels]
        assert all(float(t).is_integer() for t in ax.get_xticks())
        boxes = [t.get_window_extent(renderer) for t in labels]
        gaps = [b.x0 - a.x1 for a, b in pairwise(boxes)]
        # At least half an em apart: 0.3 px between them read as one number.
        em = labels[0].get_fontsize() * fig.dpi / 72
        assert min(gaps) >= em / 2, ([t.get_text() for t in labels], gaps)


def test_the_rank_axis_says_how_many_ranks_a_cutoff_draws(qtbot):
    """At NDCG@10 the contributions plot draws ranks 1-10 of a run of 1,000;
    its axis said "rank (the first 200 of 1000)" (seen under Xvfb, cutoffs
    set to 10, all): it says the first 10. At k = all, the first 200 as
    before; a query drawn whole says rank alone."""
    from core.model.conventions import Conventions

    n = 1000
    doc = Document.from_columns(query=["q"] * n, source_id=[f"d{i}" for i in range(n)],
                                score=list(range(n, 0, -1)), grade=[i % 4 for i in range(n)])
    ev = evaluate(doc, Conventions(cutoffs=(10, None)))
    panel = PlotPanel()
    qtbot.addWidget(panel)
    panel.show_query(ev, 0, 0)
    left = panel.query_canvas.figure_.axes[0]
    assert left.get_xlabel() == "rank (the first 10 of 1000)"
    assert max(panel.series["contribution"][0].x) == 10.0
    panel.show_query(ev, 0, 1)
    assert panel.query_canvas.figure_.axes[0].get_xlabel() == (
        f"rank (the first {PLOT_RANKS} of 1000)")
    small = evaluate(doc.subset(np.arange(5)), Conventions(cutoffs=(10,)))
    panel.show_query(small, 0, 0)
    assert panel.query_canvas.figure_.axes[0].get_xlabel() == "rank"


def test_a_query_with_no_ranking_says_so_instead_of_empty_axes(qtbot):
    """An annotators' sheet imported alone: its query has no ranking, and This
    query drew two empty plots, a gain axis from -0.05 to 0.05 and a rank
    axis ticked 0 (seen under Xvfb on the installed wheel). It says why
    there is nothing to draw, as the comparison's plot does before a run."""
    doc = Document.from_columns(query=["q1", "q1"], source_id=["a", "b"],
                                score=[None, None], grade=[2.0, 1.0])
    ev = evaluate(doc)
    assert int(ev.n_ranked[0]) == 0
    panel = PlotPanel()
    qtbot.addWidget(panel)
    panel.show_query(ev, 0)
    fig = panel.query_canvas.figure_
    assert fig.axes == []
    assert [t.get_text() for t in fig.texts] == [
        "q1: no ranking, so no contribution per rank and no NDCG@k to plot"]
