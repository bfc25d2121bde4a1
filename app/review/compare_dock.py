"""The comparison dock's controller: "Compare with another run…" (menu
Review) asks for a worksheet (CSV/TSV, workbook) or a TREC run (graded with
the open document's grades), compares off the UI thread
(:func:`core.analysis.compare.compare`), shows the result in the dock's view
(:mod:`app.review.compare_view`) and its deltas in the plots dock, and keeps
it in step with the document (:class:`CompareController`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QFileDialog

from app.actions import ActionSpec
from app.banner import choose_unknown_rule
from app.opening import memory_said
from app.review.common import MadeView, deferred_dock
from app.review.compare_view import COMPARE_FILTER, CompareView
from app.workers import Task, error_text, run_task, show_error
from core.model.conventions import Conventions, UnknownRule, format_cutoff
from core.model.document import Document

if TYPE_CHECKING:
    from app.window_api import WindowApi
    from core.analysis.compare import Comparison

__all__ = ["RESAMPLES", "SEED", "CompareController", "install_compare"]

#: Sign-flip vectors and bootstrap samples of the paired statistics.
RESAMPLES = 10000
#: The seed of both; stated in the header with the resamples.
SEED = 0


@dataclasses.dataclass(frozen=True)
class _Basis:
    """What a comparison was worked out from: the document (A), its grades
    then and the conventions."""

    document: Document
    grade: Any
    state: Any
    conventions: Conventions

    def same_grades(self, doc: Document) -> bool:
        return (doc.grade.shape == self.grade.shape
                and bool(np.array_equal(doc.grade, self.grade, equal_nan=True))
                and bool(np.array_equal(doc.state, self.state)))


class CompareController(QObject):
    """Wires the compare action and the dock to one main window.

    The comparison shown follows the document: conventions changed (the
    banner's "Count as not relevant" too) compare the same two runs again
    off the UI thread, the old numbers faded meanwhile; grades changed fade
    them and offer Compare again (grading goes on, and a comparison of a
    large document takes a second or more each time); an undo back to the
    grades and conventions compared shows them current again.
    """

    #: A comparison's deltas to plot: (queries, deltas, axis label, the mean
    #: delta with its interval as (mean, low, high, confidence) or None).
    deltas_shown = Signal(list, list, str, object)

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.window = window
        self.path: Path | None = None
        self.task: Task | None = None
        #: What the comparison shown was worked out from (None: another
        #: document is open since, or none is shown).
        self._basis: _Basis | None = None
        self._busy = False
        #: The dock's view, made when first shown (a comparison shows it).
        self.dock, self.deferred = deferred_dock(
            window, "compareViewDock", window.tr("C&omparison"),
            Qt.DockWidgetArea.RightDockWidgetArea, "summaryPanelDock",
            lambda: CompareView(window.decimals, window), self._wire)
        self.action = window.add_action(ActionSpec(
            "compare_runs", "&Compare with another run…", "review", None,
            "Compare this document's ranking with a second worksheet or TREC run"), self.ask)

    view = MadeView[CompareView]()

    def _wire(self, view: CompareView) -> None:
        window = self.window
        view.recompute_button.clicked.connect(self.again)
        view.query_selected.connect(self._query_selected)
        view.count_as_not_relevant.connect(
            lambda: choose_unknown_rule(window, UnknownRule.ZERO))
        view.cutoff.currentIndexChanged.connect(lambda _i: self.plot())
        window.document_replaced.connect(lambda _doc: self._document_replaced(view))
        window.evaluation_changed.connect(lambda _ev: self._follow())
        window.display_changed.connect(view.show_numbers)  # (the decimals)

    def ask(self) -> Task | None:
        """Ask for the second ranking and compare."""
        start = str(self.path.parent) if self.path is not None else (
            str(self.window.path.parent) if self.window.path is not None else "")
        path, _ = QFileDialog.getOpenFileName(
            self.window, self.window.tr("Compare with another run"), start,
            self.window.tr(COMPARE_FILTER))
        if not path:
            return None
        return self.compare_with(path)

    def again(self) -> Task | None:
        return self.compare_with(self.path) if self.path is not None else None

    def compare_with(self, path: str | Path, *, following: bool = False) -> Task:
        """Compare the open document (A) with ``path`` (B) off the UI thread
        (``following``: again, as the document's conventions changed; a
        failure is then said in the dock, not in a message box)."""
        path = Path(path)
        self.path = path
        w = self.window
        # A snapshot: grading may go on while the comparison runs.
        doc = w.document
        doc_a: Document = dataclasses.replace(doc, grade=doc.grade.copy(),
                                              state=doc.state.copy(), audit=[])
        conv = w.conventions
        basis = _Basis(doc, doc_a.grade, doc_a.state, conv)

        def work(_progress: Any, _cancelled: Any) -> Comparison:
            # Imported when first used: the comparison's modules need not load
            # with the window.
            from core.analysis.compare import compare
            from core.io.pairs import load_against_counted

            doc_b, left_out = load_against_counted(path, doc_a)
            return compare(doc_a, doc_b, conv, resamples=RESAMPLES, seed=SEED,
                           left_out=left_out)

        def failed(exc: BaseException) -> None:
            self._busy = False
            if following:
                self.view.mark_failed(error_text(exc))
                return
            show_error(w, w.tr("Could not compare"), memory_said(
                exc, path, to="compare it with the worksheet", again="compare it"))

        self._busy = True
        self.task = run_task(
            w, w.tr("Comparing with {0}…").format(path.name), work,
            on_done=lambda c: self._done(c, basis, following), on_error=failed)
        return self.task

    def _done(self, c: Comparison, basis: _Basis, following: bool) -> None:
        self._busy = False
        self._basis = basis if self.window.document is basis.document else None
        self.show(c, raise_dock=not following)
        if self._basis is None:
            self.view.mark_stale(self.window.tr("Another document is open"))
        else:
            self._follow()  # (changed while it was worked out?)

    def show(self, c: Comparison, *, raise_dock: bool = True) -> None:
        """Show ``c`` in the dock (shown and raised, unless ``raise_dock`` is
        False: worked out again, the dock stays where the user left it) and
        its deltas in the plots dock."""
        self.view.set_comparison(c)  # (current: "Up to date", nothing offered)
        if raise_dock:
            self.dock.show()
            self.dock.raise_()
            self.window.workplace.make_room(self.dock.objectName())
        self.plot()

    def plot(self) -> None:
        c = self.view.comparison
        if c is None:
            return
        j = self.view.j
        test = c.tests[j]
        stats = None if test.mean_delta is None else (
            test.mean_delta, test.ci_low, test.ci_high, test.confidence)
        self.deltas_shown.emit(list(c.common), [float(x) for x in c.delta[:, j]],
                               f"delta NDCG@{format_cutoff(c.cutoffs[j])} (B - A)", stats)

    def _document_replaced(self, view: CompareView) -> None:
        """The comparison shown is the previous document's: said so, and the
        new document's evaluation, announced next, does not say it otherwise
        (it said "Grades or conventions changed" over an annotators' sheet
        imported after comparing two runs)."""
        self._basis = None
        view.mark_stale(self.window.tr("Another document is open"))

    def _follow(self) -> None:
        """The document's grades or conventions may have changed: the
        comparison shown current, worked out again, or faded (the class's
        description)."""
        basis, w = self._basis, self.window
        if basis is None or self._busy or self.path is None:
            return
        if w.conventions != basis.conventions:
            self.view.mark_working(w.tr("Conventions changed"))
            self.compare_with(self.path, following=True)
        elif basis.same_grades(w.document):
            self.view.mark_current()
        else:
            self.view.mark_stale(w.tr("Grades changed"))

    def _query_selected(self, query: str) -> None:
        doc = self.window.document
        if query in doc.query_ids:
            self.window.set_query(doc.query_index(query))


def install_compare(window: WindowApi) -> CompareController:
    """Add the compare action and dock to ``window``."""
    return CompareController(window)

