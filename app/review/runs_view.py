"""Compare the open document with several runs at once: a dock and navigator columns.

"Compare with runs…" (menu Review) asks for one or more worksheets or TREC
runs (a TREC run graded with the open document's grades), compares them with
the open document as the baseline off the UI thread
(:func:`core.analysis.compare.many.compare_runs`) and shows each run's mean
and, per run, the mean delta to the baseline, the bootstrap interval, the
randomization and t-test p-values, the Holm-corrected p-value and the wins,
ties and losses. The query navigator can show each run's NDCG and its delta
per query; the Markdown and LaTeX tables papers print are one click away.
Every number comes from :mod:`core.analysis.compare.many`.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.accessibility import label_control
from app.actions import ActionSpec
from app.delegates import NumberDelegate, format_number
from app.file_formats import WORKSHEET_FILTER
from app.models.queries import RunColumns
from app.panels.scrolled import scrolled
from app.review.common import MadeView, RowsModel, SignedDelegate, deferred_dock, read_only_table
from app.workers import Task, run_task, show_error
from core.model.conventions import format_cutoff
from core.model.document import Document
from core.model.numbers import agreed, counted

if TYPE_CHECKING:
    from app.window_api import WindowApi
    from core.analysis.compare.many import ManyComparison

__all__ = ["PairColumn", "PairsModel", "RunsController", "RunsView", "install_runs"]

#: Sign-flip vectors and bootstrap samples, and their seed (as the two-run compare).
RESAMPLES, SEED = 10000, 0
_FILTER = (f"Worksheets and TREC runs (*);;{WORKSHEET_FILTER};;"
           "TREC runs (*.run *.trec *.test *.res *.txt)")


class PairColumn(IntEnum):
    PAIR = 0
    MEAN_A = 1
    MEAN_B = 2
    DELTA = 3
    CI_LOW = 4
    CI_HIGH = 5
    P_RANDOM = 6
    P_T_TEST = 7
    P_CORRECTED = 8
    WTL = 9
    MARKED = 10


class PairsModel(RowsModel):
    """One row per pair tested at one cutoff (core's order)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(PairColumn, {
            PairColumn.PAIR: self.tr("run - baseline"),
            PairColumn.MEAN_A: self.tr("mean baseline"),
            PairColumn.MEAN_B: self.tr("mean run"),
            PairColumn.DELTA: self.tr("delta"),
            PairColumn.CI_LOW: self.tr("CI low"),
            PairColumn.CI_HIGH: self.tr("CI high"),
            PairColumn.P_RANDOM: self.tr("p random"),
            PairColumn.P_T_TEST: self.tr("p t-test"),
            PairColumn.P_CORRECTED: self.tr("p corrected"),
            PairColumn.WTL: self.tr("wins/ties/losses"),
            PairColumn.MARKED: self.tr("significant"),
        }, parent)

    def set_pairs(self, m: ManyComparison | None, j: int) -> None:
        rows = []
        if m is not None:
            for t in m.tests[j]:
                rows.append((f"{t.b} - {t.a}", t.mean_a, t.mean_b, t.mean_delta, t.ci_low,
                             t.ci_high, t.p_value, t.p_t_test, t.p_corrected,
                             f"{t.wins}/{t.ties}/{t.losses}",
                             self.tr("yes") if m.significant(t) else self.tr("no")))
        self.set_rows(rows)


class RunsView(QWidget):
    """Several runs compared with the open document (the baseline)."""

    def __init__(self, decimals: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._decimals = decimals
        self.setObjectName("runsView")
        self.comparison: ManyComparison | None = None
        self.cutoff = QComboBox(self)
        self.cutoff.setObjectName("runsCutoff")
        self.header = QLabel(self.tr("Compare with runs… (menu Review) compares this document "
                                     "with one or more runs of the same queries."), self)
        self.header.setObjectName("runsHeader")
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.model = PairsModel(self)
        self.table = read_only_table("runsTable", self.model, self)
        number, signed = NumberDelegate(decimals, self), SignedDelegate(decimals, self)
        for col in (PairColumn.MEAN_A, PairColumn.MEAN_B, PairColumn.P_RANDOM,
                    PairColumn.P_T_TEST, PairColumn.P_CORRECTED):
            self.table.setItemDelegateForColumn(col, number)
        for col in (PairColumn.DELTA, PairColumn.CI_LOW, PairColumn.CI_HIGH):
            self.table.setItemDelegateForColumn(col, signed)
        # A short text: a box as wide as a long one kept the dock 385 px wide
        # (a 960 px window at 2x has a 320 px side column); the rest said on hover.
        self.in_navigator = QCheckBox(self.tr("Runs in the query navigator"), self)
        self.in_navigator.setObjectName("runsInNavigator")
        explained = self.tr("Show each run's NDCG and delta in the query navigator")
        self.in_navigator.setToolTip(explained)
        self.in_navigator.setAccessibleDescription(explained)
        self.in_navigator.setChecked(True)
        self.copy_markdown = QPushButton(self.tr("Copy as Markdown"), self)
        self.copy_markdown.setObjectName("runsCopyMarkdown")
        self.copy_latex = QPushButton(self.tr("Copy as LaTeX"), self)
        self.copy_latex.setObjectName("runsCopyLatex")
        for button, fmt in ((self.copy_markdown, "markdown"), (self.copy_latex, "latex")):
            button.setEnabled(False)
            button.clicked.connect(lambda _c=False, f=fmt: self.copy(f))
        cutoff_label = QLabel(self.tr("&Cutoff:"), self)
        label_control(self.cutoff, cutoff_label)
        label_control(self.table, self.tr("Each run against the baseline"),
                      self.tr("Means, paired tests and wins, ties and losses at the cutoff"))
        top = QHBoxLayout()
        top.addWidget(cutoff_label)
        top.addWidget(self.cutoff)
        top.addStretch(1)
        # The copy buttons on a row of their own: beside the cutoff they kept
        # the dock 385 px wide (a side column at 2x scale is 320 px).
        copies = QHBoxLayout()
        copies.addStretch(1)
        copies.addWidget(self.copy_markdown)
        copies.addWidget(self.copy_latex)
        body = QWidget(self)
        body.setObjectName("runsBody")
        layout = QVBoxLayout(body)
        layout.addLayout(top)
        layout.addLayout(copies)
        layout.addWidget(self.header)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.in_navigator)
        # In a short dock the view scrolls: it asked for 247 px of height, and
        # with the explain dock's 220 made a 960x540 window (a 1920x1080
        # screen at 2x) at least 601 px tall.
        scrolled(self, body, "runsScroll").setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.cutoff.currentIndexChanged.connect(lambda _i: self._show())

    @property
    def j(self) -> int:
        return max(self.cutoff.currentIndex(), 0)

    def set_comparison(self, m: ManyComparison | None) -> None:
        self.comparison = m
        self.cutoff.blockSignals(True)
        self.cutoff.clear()
        if m is not None:
            self.cutoff.addItems([f"NDCG@{format_cutoff(k)}" for k in m.cutoffs])
        self.cutoff.blockSignals(False)
        self.copy_markdown.setEnabled(m is not None)
        self.copy_latex.setEnabled(m is not None)
        self._show()

    def _show(self) -> None:
        m = self.comparison
        self.model.set_pairs(m, self.j)
        self.header.setText(self.header_text())

    def header_text(self) -> str:
        """The runs, the queries compared and left out, each run's mean, the test
        and the pairs it counted (core's footnote of the table)."""
        m = self.comparison
        if m is None:
            return ""
        j = self.j
        at = f"NDCG@{format_cutoff(m.cutoffs[j])}"
        means = "; ".join(f"{r.run} {format_number(r.mean, self._decimals())}"
                          for r in m.means[j])
        # (loaded with a comparison only)
        from core.reports.runs import left_out_phrase, significance_line

        left = left_out_phrase(m, j)
        dropped = (f"; {counted(m.dropped)} held by some runs only "
                   f"{agreed(m.dropped, 'is')} not compared"
                   if m.dropped else "")
        conv = "; ".join(f"{name}: {choice}" for name, choice, _f in m.conventions.describe())
        return "\n".join([
            f"Baseline: {m.baseline}. Conventions applied to every run: {conv}.",
            f"{counted(int(m.included[:, j].sum()))} compared at {at} ({left}){dropped}.",
            f"Mean {at}: {means}.",
            significance_line(m),
        ])

    def copy(self, fmt: str) -> str:
        """Put the table in ``fmt`` (markdown or latex) on the clipboard; returns it."""
        if self.comparison is None:
            return ""
        from core.reports.runs import write_runs

        out = io.StringIO()
        write_runs(self.comparison, fmt, out)
        QGuiApplication.clipboard().setText(out.getvalue())
        return out.getvalue()


class RunsController(QObject):
    """Wires the "Compare with runs…" action, its dock and the navigator's columns."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.window = window
        self.task: Task | None = None
        #: The dock's view, made when first shown (a comparison shows it).
        self.dock, self.deferred = deferred_dock(
            window, "runsViewDock", window.tr("R&uns compared"),
            Qt.DockWidgetArea.RightDockWidgetArea, "compareViewDock",
            lambda: RunsView(window.decimals, window), self._wire)
        self.action = window.add_action(ActionSpec(
            "compare_many", "Compare with &runs…", "review", None,
            "Compare this document's ranking with one or more runs: means, paired tests and "
            "corrected p-values"), self.ask)

    view = MadeView[RunsView]()

    def _wire(self, view: RunsView) -> None:
        view.in_navigator.toggled.connect(lambda _on: self.navigator_columns())
        view.cutoff.currentIndexChanged.connect(lambda _i: self.navigator_columns())

    def ask(self) -> Task | None:
        start = str(self.window.path.parent) if self.window.path is not None else ""
        paths, _ = QFileDialog.getOpenFileNames(
            self.window, self.window.tr("Compare with runs"), start, self.window.tr(_FILTER))
        return self.compare_with(paths) if paths else None

    def compare_with(self, paths: list[str]) -> Task:
        """Compare the open document (the baseline) with ``paths`` off the UI thread."""
        w = self.window
        doc = w.document
        # A snapshot: grading may go on while the comparison runs.
        base: Document = dataclasses.replace(doc, grade=doc.grade.copy(),
                                             state=doc.state.copy(), audit=[])
        conv = w.conventions
        name = doc.run_title() or w.tr("this document")  # (its run's tag too)

        def work(_progress: Any, _cancelled: Any) -> ManyComparison:
            # Imported when first used: they need not load with the window.
            from core.analysis.compare.many import RunValues, compare_runs
            from core.engine.evaluation import evaluate
            from core.io.pairs import load_against

            values = [RunValues.of(evaluate(base, conv), name)]
            for p in paths:
                other = load_against(p, base)
                values.append(RunValues.of(evaluate(other, conv), other.run_title(Path(p).name)))
            return compare_runs(values, conv, resamples=RESAMPLES, seed=SEED)

        self.task = run_task(
            w, w.tr("Comparing with {0} runs…").format(len(paths)), work, on_done=self.show,
            on_error=lambda exc: show_error(w, w.tr("Could not compare"), exc))
        return self.task

    def show(self, m: ManyComparison) -> None:
        self.view.set_comparison(m)
        self.dock.show()
        self.dock.raise_()
        self.window.workplace.make_room(self.dock.objectName())
        self.navigator_columns()

    def navigator_columns(self) -> None:
        """Each run's NDCG and delta at the view's cutoff in the navigator, or none."""
        m = self.view.comparison
        navigator = self.window.navigator
        if m is None or not self.view.in_navigator.isChecked():
            navigator.show_runs(None)
            return
        from core.analysis.compare.many import run_letter  # loaded by the comparison shown

        doc = self.window.document
        j = self.view.j
        rows = np.array([doc.query_index(q) if q in doc.query_ids else -1 for q in m.common],
                        dtype=np.int64)
        keep = rows >= 0
        ndcg = np.full((len(m.runs) - 1, doc.n_queries), math.nan)
        delta = ndcg.copy()
        ndcg[:, rows[keep]] = m.ndcg[1:, keep, j]
        delta[:, rows[keep]] = m.deltas(j)[1:, keep]
        labels = [run_letter(r).upper() for r in range(1, len(m.runs))]
        navigator.show_runs(RunColumns(labels, m.runs[1:], m.cutoffs[j], ndcg, delta))


def install_runs(window: WindowApi) -> RunsController:
    """Add the "Compare with runs…" action and its dock to ``window`` (after
    the comparison's dock, which this one is tabbed with)."""
    return RunsController(window)
