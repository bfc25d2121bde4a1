"""Explain why the current conventions and a peer's give different NDCG.

"Explain a disagreement…" (menu Review) opens a dock with two combos: from
the current conventions or a preset, to a preset (trec_eval, sklearn,
ranx). The first conventions are changed into the second one convention at
a time (:func:`core.analysis.explain.explain`; the cutoffs and rubric stay the
current ones, so the values pair up) and each step is a
row: the convention, its choice before and after, its share of the mean
change and of the current query's change. The last row is the whole
difference; the steps add up to it. Below: core's sentence and the peer
commands that reproduce the current conventions (:func:`core.analysis.explain.peer_matches`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from app.accessibility import buddy_label, label_control
from app.actions import ActionSpec
from app.panels.scrolled import scrolled
from app.review.common import MadeView, RowsModel, SignedDelegate, deferred_dock, read_only_table
from app.shown import bounded, shown_id
from core.analysis.explain import Explanation, explain, peer_matches
from core.errors import NdcgError
from core.model.conventions import Conventions, format_cutoff
from core.model.document import Document
from core.model.presets import PRESETS, apply_preset

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["ExplainView", "StepColumn", "StepsModel", "install_explain"]

REFRESH_DELAY_MS = 150
_BOLD = QFont()
_BOLD.setBold(True)


class StepColumn(IntEnum):
    CONVENTION = 0
    FROM = 1
    TO = 2
    MEAN_CHANGE = 3
    QUERY_CHANGE = 4


class StepsModel(RowsModel):
    """One row per step, then the total row (bold)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(StepColumn, {
            StepColumn.CONVENTION: self.tr("convention changed"),
            StepColumn.FROM: self.tr("from"),
            StepColumn.TO: self.tr("to"),
            StepColumn.MEAN_CHANGE: self.tr("mean change"),
            StepColumn.QUERY_CHANGE: self.tr("this query's change"),
        }, parent)

    def set_explanation(self, x: Explanation | None, q: int, j: int) -> None:
        if x is None:
            self.set_rows([])
            return
        rows: list[tuple[Any, ...]] = []
        for s in x.steps:
            rows.append((s.field, s.before, s.after, s.mean[j], _cell(x, s.contribution, q, j)))
        rows.append((self.tr("total"), x.start.preset or self.tr("current conventions"),
                     x.end.preset or self.tr("second conventions"), x.mean_total[j],
                     _cell(x, x.total, q, j)))
        self.set_rows(rows)

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.FontRole and index.isValid() and (
                index.row() == self.rowCount() - 1):
            return _BOLD
        return super().data(index, role)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Steps keep their order (the order in which they were taken)."""


def _cell(x: Explanation, values: Any, q: int, j: int) -> float | None:
    if not 0 <= q < values.shape[0]:
        return None
    v = float(values[q, j])
    return None if math.isnan(v) else v


class ExplainView(QWidget):
    """The step-by-step account of the current conventions (or a preset's) ->
    a preset's."""

    def __init__(self, window: WindowApi, decimals: Callable[[], int],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("explainView")
        self.main = window
        self._decimals = decimals  # the window's display rounding
        self.explanation: Explanation | None = None
        self.start = QComboBox(self)
        self.start.setObjectName("explainFrom")
        self.start.addItem(self.tr("current conventions"), "")
        for name in PRESETS:
            self.start.addItem(name, name)
        self.preset = QComboBox(self)
        self.preset.setObjectName("explainPreset")
        self.preset.addItems(list(PRESETS))
        self.cutoff = QComboBox(self)
        self.cutoff.setObjectName("explainCutoff")
        self.title = QLabel(self)
        self.title.setObjectName("explainTitle")
        self.title.setWordWrap(True)
        self.model = StepsModel(self)
        self.table = read_only_table("explainSteps", self.model, self)
        label_control(self.table, self.tr("Steps from one convention to the other"))
        signed = SignedDelegate(decimals, self)
        for col in (StepColumn.MEAN_CHANGE, StepColumn.QUERY_CHANGE):
            self.table.setItemDelegateForColumn(col, signed)
        self.sentence = QLabel(self)
        self.sentence.setObjectName("explainSentence")
        self.sentence.setWordWrap(True)
        self.sentence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.peers = QLabel(self)
        self.peers.setObjectName("explainPeers")
        self.peers.setWordWrap(True)
        self.peers.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Two rows (from, to; the cutoff below): in one, the dock asked for
        # 454 px, more than a side of a 960 px window (a 1920x1080 screen at 2x).
        top = QGridLayout()
        for n, (text, box) in enumerate(((self.tr("From:"), self.start),
                                         (self.tr("to:"), self.preset),
                                         (self.tr("Cutoff:"), self.cutoff))):
            top.addWidget(buddy_label(text, box), n // 2, 2 * (n % 2))
            top.addWidget(box, n // 2, 2 * (n % 2) + 1)
        top.setColumnStretch(4, 1)
        body = QWidget(self)
        body.setObjectName("explainBody")
        layout = QVBoxLayout(body)
        # In a short dock the view scrolls (it asked for 220 px of height:
        # see app.review.runs_view).
        scrolled(self, body, "explainScroll").setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout.addLayout(top)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.sentence)
        layout.addWidget(self.peers)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(REFRESH_DELAY_MS)
        self.timer.timeout.connect(self.refresh)
        self.dirty = True
        self.start.currentIndexChanged.connect(lambda _i: self.refresh())
        self.preset.currentIndexChanged.connect(lambda _i: self.refresh())
        self.cutoff.currentIndexChanged.connect(lambda _i: self.show_query())

    @property
    def j(self) -> int:
        return max(self.cutoff.currentIndex(), 0)

    def _preset(self, name: str) -> Conventions:
        """Preset ``name`` over the current conventions (the one rule,
        :func:`core.model.presets.apply_preset`: the cutoffs stay, so the
        steps pair them in order)."""
        return apply_preset(self.main.conventions, name)

    def first_conventions(self) -> Conventions:
        """The current conventions, or the preset chosen in "From"."""
        name = self.start.currentData()
        return self._preset(name) if name else self.main.conventions

    def second_conventions(self) -> Conventions:
        """The preset chosen in "to"."""
        return self._preset(self.preset.currentText())

    def schedule(self, *_: object) -> None:
        self.dirty = True
        if self.isVisible():
            self.timer.start()

    def refresh(self) -> None:
        """Explain now (the document under both conventions and every step)."""
        self.timer.stop()
        doc: Document = self.main.document
        start = self.first_conventions()
        end = self.second_conventions()
        self.cutoff.blockSignals(True)
        keep = self.cutoff.currentIndex()
        self.cutoff.clear()
        self.cutoff.addItems([f"NDCG@{format_cutoff(k)}" for k in start.cutoffs])
        self.cutoff.setCurrentIndex(keep if 0 <= keep < len(start.cutoffs) else 0)
        self.cutoff.blockSignals(False)
        try:
            self.explanation = explain(doc, start, end)
        except NdcgError as exc:
            self.explanation = None
            self.title.setText(str(exc))
        _matches, text = peer_matches(self.main.conventions)
        self.peers.setText(self.tr("Peers for the current conventions: {0}").format(text))
        self.dirty = False
        self.show_query()

    def show_query(self, *_: object) -> None:
        """Show the steps for the window's current query and the chosen cutoff."""
        x = self.explanation
        q = self.main.current_query
        j = self.j
        self.model.set_explanation(x, q, j)
        if x is None:
            self.sentence.clear()
            return
        qid = shown_id(self.main.current_query_id or "-")
        k = format_cutoff(x.start.cutoffs[j])
        self.title.setText(self.tr(
            "From {0} to {1} (cutoffs kept), NDCG@{2}; "
            "'this query' is {3}. The steps add up to the total row.").format(
                self.start.currentText(), self.preset.currentText(), k, qid))
        self.sentence.setText(bounded(x.sentence(j, decimals=self._decimals())))


class ExplainController:
    def __init__(self, window: WindowApi) -> None:
        self.window = window
        #: The dock's view, made when first shown (dirty: it explains once shown).
        self.dock, self.deferred = deferred_dock(
            window, "explainViewDock", window.tr("&Explain a disagreement"),
            Qt.DockWidgetArea.BottomDockWidgetArea, "auditLogDock",
            lambda: ExplainView(window, window.decimals, window), self._wire)
        self.action = window.add_action(ActionSpec(
            "explain_disagreement", "&Explain a disagreement…", "review", None,
            "Why a peer's conventions (trec_eval, sklearn, ranx) give other numbers, "
            "one convention at a time"), self.open)
        self.dock.visibilityChanged.connect(self._visibility_changed)

    view = MadeView[ExplainView]()

    def _wire(self, view: ExplainView) -> None:
        window = self.window
        window.evaluation_changed.connect(view.schedule)
        window.document_replaced.connect(view.schedule)
        window.current_query_changed.connect(self._query_changed)
        window.display_changed.connect(lambda: self._query_changed(-1))  # (the decimals)

    def open(self) -> None:
        self.dock.show()
        self.dock.raise_()
        self.view.refresh()
        self.view.preset.setFocus()

    def _query_changed(self, _q: int) -> None:
        if not self.view.dirty:
            self.view.show_query()

    def _visibility_changed(self, visible: bool) -> None:
        if visible and self.deferred.made is not None and self.view.dirty:
            self.view.timer.start()


def install_explain(window: WindowApi) -> ExplainController:
    """Add the explain action and dock to ``window``."""
    return ExplainController(window)
