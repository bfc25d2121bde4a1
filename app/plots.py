"""Plots beside the grid: contribution per rank, NDCG against k, the
distribution of NDCG over queries, and sorted deltas of a comparison.

The numbers come from :mod:`core.analysis.plotdata`; this module only draws them,
in the window's colours: the figure, the axes and their text from the palette,
the marks from the ``plot_`` tones of :mod:`app.models.looks`; a change of
scheme draws them again.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from matplotlib.typing import RcKeyType
from PySide6.QtCore import QEvent, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from app.delegates import signed_text
from app.models.looks import colour
from app.shown import shown_id
from core.analysis.plotdata import (
    Series,
    contribution_series,
    ndcg_by_k,
    ndcg_distribution,
    sorted_deltas,
)
from core.engine.evaluation import Evaluation
from core.model.numbers import counted

__all__ = ["DeltaStats", "PlotPanel", "ground", "integer_axis"]

#: A query's plots show its first this many ranks (a bar per rank: tens of
#: thousands of bars took matplotlib minutes and cannot be read).
PLOT_RANKS = 200

#: The mean delta and its interval: (mean, low, high, confidence), low and high None
#: when there is no interval.
DeltaStats = tuple[float, float | None, float | None, float]


def integer_axis(ax: Axes, which: str = "x") -> None:
    """Ticks on whole numbers only (ranks, cutoffs, counts are never 2.5)."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    # min_n_ticks=1: integers even when the view holds only one (a single rank)
    # nbins="auto": as many as the axis's length holds (10, the default, ran the
    # labels of 1,000 ranks together on a 240 px axis)
    axis.set_major_locator(MaxNLocator(nbins="auto", integer=True, min_n_ticks=1))


def ground(palette: QPalette) -> dict[RcKeyType, str]:
    """matplotlib's settings for a figure drawn in ``palette``: the figure on
    the window's colour, the axes on the base (where tables draw), lines,
    ticks and text in the window's text colour."""
    role = QPalette.ColorRole
    text, base = palette.color(role.WindowText).name(), palette.color(role.Base).name()
    return {"figure.facecolor": palette.color(role.Window).name(), "axes.facecolor": base,
            "axes.edgecolor": text, "axes.labelcolor": text, "text.color": text,
            "xtick.color": text, "ytick.color": text, "legend.facecolor": base,
            "legend.edgecolor": palette.color(role.Mid).name()}


Painter = Callable[[Figure], None]
#: Bars up to which the deltas' legend is placed where the bars are not.
_LEGEND_SEARCH = 1000


class _Canvas(FigureCanvasQTAgg):
    def __init__(self) -> None:
        self.figure_ = Figure(figsize=(5, 3.2), layout="constrained")
        super().__init__(self.figure_)

    def draw(self) -> None:
        """Draw; while the dock is too small for the axes and their labels
        (at start-up, or squeezed by the user) the constrained layout cannot
        place them and matplotlib warns on stderr at every draw. The figure is
        then drawn as it is, and laid out again at the next resize.

        An idle draw can reach a canvas whose window was deleted meanwhile
        (a closed window collected while the figure renders): matplotlib's
        closing ``update()`` then meets a deleted C++ object and printed a
        traceback on stderr. Nothing is left to draw on: it is passed over."""
        if not isValid(self):
            return
        with warnings.catch_warnings():
            warnings.filterwarnings(
                "ignore", message="constrained_layout not applied", category=UserWarning)
            try:
                super().draw()
            except RuntimeError:
                if isValid(self):
                    raise


class PlotPanel(QWidget):
    """Tabs of plots that follow the current evaluation and query."""

    saved = Signal(str)

    def __init__(self, parent: QWidget | None = None,
                 decimals: Callable[[], int] = lambda: 4) -> None:
        super().__init__(parent)
        self.setObjectName("plotPanel")
        self._decimals = decimals  # the window's display rounding
        self.tabs = QTabWidget(self)
        self.query_canvas = _Canvas()
        self.all_canvas = _Canvas()
        self.compare_canvas = _Canvas()
        self.tabs.addTab(self.query_canvas, self.tr("This query"))
        self.tabs.addTab(self.all_canvas, self.tr("All queries"))
        self.tabs.addTab(self.compare_canvas, self.tr("Comparison"))
        save = QPushButton(self.tr("Save plot…"), self)
        save.setObjectName("savePlotButton")
        save.clicked.connect(self._ask_and_save)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(save)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)
        layout.addLayout(row)
        #: The series last drawn, by plot, for tests and tooltips.
        self.series: dict[str, list[Series]] = {}
        #: How each canvas was last drawn (drawn again in a new palette).
        self._painters: dict[_Canvas, Painter] = {}
        self._message(self.compare_canvas, self.tr("Load a second ranking to compare."))

    # -- drawing ------------------------------------------------------------------------
    def _draw(self, canvas: _Canvas, paint: Painter) -> None:
        """Draw on ``canvas`` with ``paint`` in the colours of the palette in
        use (and again with it when the palette changes)."""
        self._painters[canvas] = paint
        settings = ground(self.palette())
        fig = canvas.figure_
        with rc_context(settings):
            fig.clear()
            fig.set_facecolor(settings["figure.facecolor"])
            paint(fig)
        canvas.draw_idle()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # a light or dark scheme
            for canvas, paint in list(self._painters.items()):
                self._draw(canvas, paint)

    def show_query(self, ev: Evaluation, q: int, j: int = 0) -> None:
        actual, ideal = contribution_series(ev, q, j, max_rank=PLOT_RANKS)
        curve = ndcg_by_k(ev, q, max_k=PLOT_RANKS)
        self.series["contribution"] = [actual, ideal]
        self.series["ndcg_by_k"] = [curve]
        if not ev.n_ranked[q]:  # (two empty plots said nothing of why)
            self._message(self.query_canvas, self.tr(
                "{0}: no ranking, so no contribution per rank and no NDCG@k to plot").format(
                    shown_id(ev.doc.query_ids[q])))
            return
        self._draw(self.query_canvas, partial(self._paint_query, ev, q, actual, ideal, curve))

    def _paint_query(self, ev: Evaluation, q: int, actual: Series, ideal: Series,
                     curve: Series, fig: Figure) -> None:
        left, right = fig.subplots(1, 2)
        width = 0.4
        left.bar([x - width / 2 for x in actual.x], _finite(actual.y), width, label=actual.name,
                 color=colour("plot_actual"))
        left.bar([x + width / 2 for x in ideal.x], _finite(ideal.y), width, label=ideal.name,
                 color=colour("plot_ideal"))
        unknown = [x for x, y in zip(actual.x, actual.y, strict=True) if math.isnan(y)]
        if unknown:
            left.plot(unknown, [0.0] * len(unknown), "x", color=colour("unresolved"),
                      label=self.tr("unknown grade"))
        # The ranks drawn: the cutoff's (NDCG@10: 10), at most PLOT_RANKS.
        ranked, drawn = int(ev.n_ranked[q]), max(len(actual.x), len(ideal.x))
        left.set_xlabel(self.tr("rank") if drawn >= ranked else
                        self.tr("rank (the first {0} of {1})").format(drawn, ranked))
        integer_axis(left)
        left.set_ylabel(self.tr("gain × discount"))
        left.set_title(shown_id(ev.doc.query_ids[q]))
        left.legend(fontsize="small")
        right.plot(curve.x, curve.y, marker=".", color=colour("plot_actual"))
        right.set_ylim(0.0, 1.05)
        right.set_xlabel("k")
        right.set_ylabel("NDCG@k")
        integer_axis(right)
        if curve.y and all(math.isnan(v) for v in curve.y):
            right.text(0.5, 0.5, ev.query_status(q).value, ha="center", transform=right.transAxes)
            # (no finite point to fit: the axis spans the query's k, not 0)
            right.set_xlim(min(curve.x) - 0.5, max(curve.x) + 0.5)

    def show_distribution(self, ev: Evaluation, j: int = 0) -> None:
        hist, left_out = ndcg_distribution(ev, j)
        self.series["distribution"] = [hist]

        def paint(fig: Figure) -> None:
            ax = fig.subplots()
            ax.bar(hist.x, hist.y, width=0.1, align="edge", color=colour("plot_actual"),
                   edgecolor=ax.get_facecolor())  # a gap of the ground between bars
            ax.set_xlim(0.0, 1.0)
            ax.set_xlabel(hist.name)
            ax.set_ylabel(self.tr("queries"))
            integer_axis(ax, "y")
            ax.set_title(self.tr("{0}; {1} without NDCG left out").format(
                counted(int(sum(hist.y))), left_out))

        self._draw(self.all_canvas, paint)

    def show_deltas(self, queries: Sequence[str], deltas: Sequence[float], label: str,
                    stats: DeltaStats | None = None) -> None:
        """The per-query deltas sorted, with the mean delta as a line and its
        interval as a band when ``stats`` are given."""
        series, names = sorted_deltas(queries, deltas)
        self.series["deltas"] = [series]
        self._draw(self.compare_canvas, partial(self._paint_deltas, series, names, label, stats))

    def _paint_deltas(self, series: Series, names: Sequence[str], label: str,
                      stats: DeltaStats | None, fig: Figure) -> None:
        ax = fig.subplots()
        colors = [colour("plot_loss") if y < 0 else colour("plot_win") if y > 0
                  else colour("plot_ideal") for y in series.y]
        ax.bar(series.x, series.y, color=colors)
        ax.axhline(0.0, color=ground(self.palette())["axes.edgecolor"], linewidth=0.8)
        if stats is not None:
            mean, low, high, confidence = stats
            d = self._decimals()
            ax.axhline(mean, color=colour("plot_mean"), linewidth=1.5, linestyle="--",
                       label=self.tr("mean delta {0}").format(signed_text(mean, d)))
            if low is not None and high is not None:
                # A band across the bars (a collection: ax.patches stay the bars).
                edges = [min(series.x, default=0.0) - 0.5, max(series.x, default=0.0) + 0.5]
                band = self.tr("{0:.0%} interval [{1}, {2}]").format(
                    confidence, signed_text(low, d), signed_text(high, d))
                ax.fill_between(edges, low, high, color=colour("plot_mean"), alpha=0.15,
                                linewidth=0, label=band)
            # Where the bars are not (at the upper left it covered the largest
            # losses when every delta was one); matplotlib's search costs ~60 %
            # more drawing past a thousand bars, where the corner is kept.
            ax.legend(fontsize="small",
                      loc="best" if len(series.x) <= _LEGEND_SEARCH else "upper left")
        ax.set_xlabel(self.tr("queries, sorted by delta"))
        # On two lines ("delta NDCG@1" over "(B - A)"): on one it ran past the
        # top of the plot the Plots dock has room for at 1280x800.
        ax.set_ylabel(label.replace(" (", "\n(", 1))
        if len(names) <= 30:
            ax.set_xticks(series.x, names, rotation=90, fontsize="x-small")
        else:
            integer_axis(ax)

    def _message(self, canvas: _Canvas, text: str) -> None:
        def paint(fig: Figure) -> None:
            fig.text(0.5, 0.5, text, ha="center", va="center")

        self._draw(canvas, paint)

    # -- saving ---------------------------------------------------------------------------
    def current_figure(self) -> Figure:
        canvas = self.tabs.currentWidget()
        assert isinstance(canvas, _Canvas)
        return canvas.figure_

    def save(self, path: str | Path) -> None:
        """Save the visible plot; the suffix (.png or .svg) picks the format."""
        path = Path(path)
        if path.suffix.lower() not in (".png", ".svg"):
            path = path.with_suffix(".png")
        self.current_figure().savefig(path)
        self.saved.emit(str(path))

    def _ask_and_save(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Save plot"), "plot.png", self.tr("PNG image (*.png);;SVG image (*.svg)")
        )
        if path:
            self.save(path)


def _finite(values: Sequence[float]) -> list[float]:
    return [0.0 if math.isnan(v) else v for v in values]
