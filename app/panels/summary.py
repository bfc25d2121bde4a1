"""The current query's numbers at every cutoff, its status and reason, the
bounds of an unresolved query and the judgment that would narrow them most,
the result sentence (with Copy); and the footer with the mean over queries."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetricsF, QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStatusBar,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.accessibility import label_control, tab_order, tab_passes
from app.delegates import NumberDelegate, bound_text, format_number
from app.elided import ElidedLabel
from app.models.cutoffs import CutoffColumn, CutoffResultsModel
from app.models.looks import STATUS_LOOK
from app.panels.fit import (
    columns_width,
    fit_rows_to_font,
    header_widths,
    show_yielding,
    text_margins,
    text_width,
)
from app.panels.scrolled import scrolled
from app.scheme import tint
from app.shown import CELL_SHOWN, WORD_SHOWN, bounded, query_tip, shown_id, shown_query
from app.workers import LatestJob
from core.analysis.aggregate import excluded_phrase, summarize
from core.analysis.bounds import (
    Bounds,
    NextJudgment,
    best_next_judgment,
    ndcg_bounds,
)
from core.engine.evaluation import Evaluation, Status
from core.engine.results import STATUS_BY_CODE
from core.model.conventions import format_cutoff
from core.model.grades import unknown_counted
from core.model.numbers import apart_digits, counted, one_value
from core.reports.sentences import WHATEVER, interval_words, query_sentence, summary_sentence

__all__ = ["DETAILS_DELAY_MS", "AggregateFooter", "SummaryPanel"]

#: Quiet time after the last edit before bounds are recomputed.
DETAILS_DELAY_MS = 150
#: The cutoff table's columns that give way, the first first, where the
#: table has not the room for all, before the status (:meth:`SummaryPanel._fit_status`).
YIELDING = (CutoffColumn.DCG, CutoffColumn.IDCG)


class SummaryPanel(QWidget):
    """The summary of the current query (objectName ``summaryPanel``).

    Bounds and the best next judgment are computed a moment after the other
    views update (a short single-shot timer, restarted by every edit), so
    grading a run of rows on a long list never waits for them.
    """

    #: The reviewer asked to go to a candidate (the suggested judgment).
    candidate_requested = Signal(int)
    #: A query shown, the room its texts ask for whole (True): an unresolved
    #: query's bounds and next judgment, worked out a moment later, have
    #: theirs reserved meanwhile (:meth:`sizeHint`).
    shown_whole = Signal(bool)

    def __init__(self, decimals: Callable[[], int], parent: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("summaryPanel")
        self.setMinimumWidth(160)
        self._decimals = decimals
        self._ev: Evaluation | None = None
        self._q = -1
        self._next: int | None = None
        #: An unresolved query's bounds and next judgment are being worked out.
        self._pending = False
        self.title = _title(self)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("summaryStatus")
        self.status_label.setWordWrap(True)
        self.model = CutoffResultsModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("cutoffTable")
        label_control(self.table, self.tr("NDCG at each cutoff"))
        self.table.setModel(self.model)
        self.table.setItemDelegate(NumberDelegate(decimals, self.table))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        tab_passes(self.table)
        self.table.verticalHeader().setVisible(False)
        self.model.modelReset.connect(self._fit_table_height)
        # A handful of cells, fitted when another query, another status or
        # other cutoffs are shown (not at every edit: a grade changes the
        # numbers, not their width), so no header, number or status is ever
        # cut (a narrow dock scrolls the table instead).
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.installEventFilter(self)  # (its columns follow its width: eventFilter)
        self._fitted_for: object = None
        #: The fitted widths of the columns that give way where the table has
        #: not the room for all (:meth:`_fit_status`), the first first.
        self._yielding: dict[CutoffColumn, int] = {}
        fit_rows_to_font(self.table)
        self.bounds_label = _HidingLabel(self)
        self.bounds_label.setObjectName("boundsLabel")
        self.bounds_label.setWordWrap(True)
        self.next_label = _HidingLabel(self)
        self.next_label.setObjectName("nextJudgmentLabel")
        self.next_label.setWordWrap(True)
        self.next_button = QPushButton(self.tr("Go to it"), self)
        self.next_button.setObjectName("goToNextJudgment")
        self.next_button.clicked.connect(self._go_next)
        self.sentence = QLabel(self)
        self._sentence = ""  # whole (copied); the label shows it bounded (app.shown)
        self.sentence.setObjectName("resultSentence")
        self.sentence.setWordWrap(True)
        self.sentence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_button = QPushButton(self.tr("Copy sentence"), self)
        self.copy_button.setObjectName("copySentenceButton")
        self.copy_button.clicked.connect(self.copy_sentence)
        nxt = QHBoxLayout()
        nxt.addWidget(self.next_label, 1)
        nxt.addWidget(self.next_button)
        # In a scroll area: in a short dock the sentence scrolls instead of
        # being cut off.
        self._inner = inner = QWidget()
        inner.setObjectName("summaryContents")
        scroll = scrolled(self, inner, "summaryScroll")
        label_control(scroll, self.tr("Summary of the current query"))
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(inner)
        # Copy sentence beside the title, always in view; a title too long
        # for that row gets the row to itself, the button going beside the
        # status (:meth:`_place_title`).
        self._head = QGridLayout()
        self._head.setColumnStretch(0, 1)
        self._title_alone: bool | None = None
        self._place_title()
        layout.addLayout(self._head)
        layout.addWidget(self.table)
        layout.addWidget(self.bounds_label)
        layout.addLayout(nxt)
        layout.addWidget(self.sentence)
        layout.addStretch(1)
        # Tab goes as the eye does: Copy (beside the title), the table, Go to it.
        tab_order(self.copy_button, self.table, self.next_button)
        self._start_details()

    def _start_details(self) -> None:
        """The bounds and the next judgment: a moment after the last edit
        (a single-shot timer), then worked out off the UI thread."""
        self._details = QTimer(self)
        self._details.setSingleShot(True)
        self._details.setInterval(DETAILS_DELAY_MS)
        self._details.timeout.connect(self._compute_details)
        self.details_job = LatestJob(self)
        self.details_job.finished.connect(self._show_details)
        self.details_job.failed.connect(
            lambda _key, exc: self.bounds_label.setText(self.tr("Bounds not available: {0}")
                                                        .format(exc)))

    def show_query(self, ev: Evaluation, q: int) -> None:
        self._ev, self._q = ev, q
        self.model.set_query(ev, q)
        if q < 0 or q >= ev.doc.n_queries:
            # (fitted to the headers too: while a file is read at launch the
            # table kept Qt's 100 px a column and scrolled sideways)
            self._fit_for((None, tuple(ev.cutoffs)))
            self.title.setText(self.tr("No query"))
            self.title.setToolTip("")
            self._place_title()
            self._sentence = ""
            for label in (self.status_label, self.bounds_label, self.next_label, self.sentence):
                label.clear()
            self.sentence.setToolTip("")
            self.next_button.hide()
            return
        status = ev.query_status(q)
        look = STATUS_LOOK[status]
        self._fit_for((q, tuple(ev.cutoffs), tuple(ev.status_code[q].tolist())))
        # Unchanged texts and styles are not set again: a word-wrapped label
        # relayouts and a style sheet re-polishes on every set.
        title = shown_query(ev.doc.query_ids[q], ev.doc.query_text(q))
        if self.title.text() != title:
            self.title.set_mode(Qt.TextElideMode.ElideRight if ev.doc.query_text(q)
                                else Qt.TextElideMode.ElideMiddle)
            self.title.setText(title)
            self.title.setToolTip(query_tip(ev.doc.query_ids[q], ev.doc.query_text(q), WORD_SHOWN))
            self._place_title()
        # (the unknown grades an import knows the why of: "1 unknown, 1 of them declined")
        why = ev.doc.unknown_reasons(ev.doc.members(q))
        _set_text(self.status_label, f"{look.label}: {status.reason}" + (
            f" ({unknown_counted(int(ev.n_unknown[q]), why)})" if why else ""))
        tint(self.status_label, "color: {}", look.tone)
        # Shown at the decimals setting; the copy gives the conventions in
        # full (what reproduces the number), the results at the setting.
        d = self._decimals()
        self._sentence = query_sentence(ev, q, 0, decimals=d)
        displayed = query_sentence(ev, q, 0, decimals=d, conventions_decimals=d)
        _set_text(self.sentence, bounded(displayed))
        tip = bounded(self._sentence, CELL_SHOWN) if displayed != self._sentence else ""
        if self.sentence.toolTip() != tip:
            self.sentence.setToolTip(tip)
        self._pending = status is Status.UNRESOLVED
        if status is Status.UNRESOLVED:
            self.bounds_label.setText(self.tr("Computing bounds…"))
            self.next_label.setText("")
            self._details.start()
        else:
            self._details.stop()
            self.details_job.cancel()
            self.bounds_label.clear()
            self.next_label.clear()
            self._next = None
        self.next_button.setVisible(status is Status.UNRESOLVED and self._next is not None)
        # Whole as to the room it asks for: the details still worked out
        # have theirs reserved (sizeHint), so the column is split once, as
        # the window is shown, and stays when they come (a jump of 62 px at
        # 1920x1080 when the first query was unresolved).
        self.shown_whole.emit(True)

    def _fit_for(self, shown: object) -> None:
        """The columns fitted when what the table shows (the query, its
        cutoffs and statuses) is not what they were fitted for."""
        if shown != self._fitted_for:
            self._fitted_for = shown
            self._fit_columns()

    def sizeHint(self) -> QSize:
        """Wide enough for the cutoff table without a cut header or a
        sideways scroll; as tall as the current query's texts are at that
        width (or at the panel's own width once shown)."""
        hidden = sum(w for c, w in self._yielding.items() if self.table.isColumnHidden(c))
        width = max(self.minimumWidth(), columns_width(self.table) + hidden + 24)
        at = self.width() if self.isVisible() else width
        layout = self._inner.layout()
        height = layout.heightForWidth(at - 16) if layout is not None else -1
        if height > 0:
            height += self._pending_height(at - 16)
        return QSize(width, height if height > 0 else super().sizeHint().height())

    def _pending_height(self, width: int) -> int:
        """The height the bounds and the next judgment will add to the texts
        of ``width`` pixels once worked out (while they are): the bounds'
        sentence at every cutoff and a next judgment beside its button, at
        their longest, less the "Computing bounds…" line."""
        ev, q = self._ev, self._q
        if not self._pending or ev is None or not 0 <= q < ev.doc.n_queries:
            return 0
        inner = self._inner.layout()
        margins = inner.contentsMargins() if inner is not None else None
        spacing = inner.spacing() if inner is not None else 6
        room = width - (margins.left() + margins.right() if margins else 0)
        zero = format_number(0.0, self._decimals())
        unknown = counted(int(ev.n_open[q]), "unknown grade")
        bounds = (f"{unknown} of {int(ev.n_inventory[q])}: " + "; ".join(
            f"NDCG@{format_cutoff(k)} between {zero} and {zero} (outer bounds), or undefined"
            for k in ev.cutoffs))
        judge = (f"Judge {'x' * 12!r} next: whatever its grade, the NDCG@"
                 f"{format_cutoff(ev.cutoffs[0])} interval narrows to at most {zero} wide.")
        button = self.next_button.sizeHint()
        flags = int(Qt.TextFlag.TextWordWrap)

        def tall(text: str, at: int) -> int:
            metrics = self.bounds_label.fontMetrics()
            return metrics.boundingRect(0, 0, max(at, 1), 100_000, flags, text).height()

        row = max(tall(judge, room - button.width() - spacing), button.height())
        return tall(bounds, room) - tall(self.bounds_label.text(), room) + row + spacing

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # (a larger system font, at once)
            QTimer.singleShot(0, self._refit)

    def _refit(self) -> None:
        fit_rows_to_font(self.table)
        self._fit_columns()
        self._fit_table_height()

    def _fit_columns(self) -> None:
        """The columns fitted to their contents, the status column as wide as
        the widest status any query of the evaluation shows at any cutoff
        (``– no ranking``, ``? unresolved``): the table keeps its width from
        query to query, and the panel asks for it (:meth:`sizeHint`) rather
        than scrolling sideways at the query whose status is longer."""
        table = self.table
        # (Qt sizes a hidden column, and its header, at 0: measured shown;
        # the status too, which gives way last: a status measured hidden
        # was fitted to "✓ ok" and cut its header)
        for column in (*YIELDING, CutoffColumn.STATUS):
            table.setColumnHidden(column, False)
        table.resizeColumnsToContents()
        if self._ev is None:
            return
        # The codes counted, not np.unique: numpy 2.4's unique imports numpy.ma
        # (~30 ms) on first use, which was the first use while a run opens.
        counts = np.bincount(self._ev.status_code.ravel(), minlength=len(STATUS_BY_CODE))
        shown = {STATUS_BY_CODE[int(code)] for code in np.flatnonzero(counts)}
        metrics = QFontMetricsF(table.font())
        widest = text_margins(table) + max(text_width(metrics, STATUS_LOOK[s].label)
                                           for s in shown | {Status.OK})
        self._yielding = {c: table.columnWidth(c) for c in YIELDING}
        self._yielding[CutoffColumn.STATUS] = max(
            widest, header_widths(table)[CutoffColumn.STATUS],
            table.sizeHintForColumn(CutoffColumn.STATUS))
        self._fit_status()

    def _fit_status(self) -> None:
        """The columns the table has room for (at 16 pt in a 331 px side
        column it scrolled sideways): the DCG, then the ideal DCG give way
        first (the grid's cumulative DCG and ideal contribution say them),
        the status last (it hid first: a number that is not defined shows
        the status's symbol in its colour, its reason on hover, and the line
        above says the query's status; the k and the NDCG are always shown."""
        if self._yielding:
            show_yielding(self.table, list(self._yielding.items()))
        self._fit_table_height()  # (a scroll bar's room where they still do not fit)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_title()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # The table's columns follow the table's own width: in its scroll
        # area it is sized after the panel (and again when the scroll bar
        # comes or goes), and a launch at 1280x800 left every yielding column
        # hidden in a table that had the room for them.
        if watched is self.table and event.type() == QEvent.Type.Resize:
            self._fit_status()
        return super().eventFilter(watched, event)

    def title_alone(self) -> bool:
        """Whether the title is on a row of its own (too long to share it
        with Copy sentence at the panel's width)."""
        return bool(self._title_alone)

    def _place_title(self) -> None:
        inner = self._inner.layout()
        margins = inner.contentsMargins() if inner is not None else None
        room = self._inner.width() - (margins.left() + margins.right() if margins else 0)
        needed = (self.title.fontMetrics().horizontalAdvance(self.title.text())
                  + max(self._head.horizontalSpacing(), 0) + self.copy_button.sizeHint().width())
        alone = needed > room
        if alone == self._title_alone:
            return
        self._title_alone = alone
        head = self._head
        for widget in (self.title, self.copy_button, self.status_label):
            head.removeWidget(widget)
        top = Qt.AlignmentFlag.AlignTop
        if alone:
            head.addWidget(self.title, 0, 0, 1, 2)
            head.addWidget(self.status_label, 1, 0)
        else:
            head.addWidget(self.title, 0, 0)
            head.addWidget(self.status_label, 1, 0, 1, 2)
        head.addWidget(self.copy_button, 1 if alone else 0, 1, top)

    def _fit_table_height(self) -> None:
        """The cutoff table as tall as its rows (no empty band under them),
        and a horizontal scroll bar's height more only where the columns
        shown are wider than the table (a narrow dock: it hides no row).
        The scroll bar's room was kept always, an empty band under the last
        cutoff like a blank row, where the columns had given way to fit."""
        table = self.table
        rows = self.model.rowCount()
        header = table.horizontalHeader()
        height = header.sizeHint().height() + rows * table.verticalHeader().defaultSectionSize()
        shown = sum(header.sectionSize(c) for c in range(header.count())
                    if not table.isColumnHidden(c))
        if shown > table.width() - 2 * table.frameWidth():
            height += self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        height += 2 * table.frameWidth()
        if (table.minimumHeight(), table.maximumHeight()) != (height, height):
            table.setFixedHeight(height)

    def sentence_text(self) -> str:
        """The whole sentence (the label shows it with long ids cut)."""
        return self._sentence

    def copy_sentence(self) -> None:
        QGuiApplication.clipboard().setText(self._sentence)

    def _compute_details(self) -> None:
        """Start the bounds and the best next judgment off the UI thread (a
        long query takes seconds); :meth:`_show_details` shows them if the
        query and its evaluation are still the ones shown."""
        ev, q = self._ev, self._q
        if ev is None or q < 0 or ev.query_status(q) is not Status.UNRESOLVED:
            return

        def work() -> tuple[list[Bounds], NextJudgment | None]:
            return ([ndcg_bounds(ev, q, j) for j in range(len(ev.cutoffs))],
                    best_next_judgment(ev, q, 0))

        self.details_job.submit((ev, q), work)

    def _show_details(self, key: tuple[Evaluation, int],
                      found: tuple[list[Bounds], NextJudgment | None]) -> None:
        ev, q = key
        if ev is not self._ev or q != self._q:
            return  # another query or another evaluation is shown by now
        bounds, best = found
        d = self._decimals()
        self.bounds_label.setText(
            f"{counted(int(ev.n_open[q]), 'unknown grade')} of {int(ev.n_inventory[q])}: "
            + _spans(ev.cutoffs, bounds, d))
        self._next = None if best is None else best.index
        if best is None:
            self.next_label.setText(
                "Only unrateable candidates keep this query open: grade them if you can, "
                "or choose how unknown grades count in the Conventions panel."
                if int(ev.n_unrateable[q]) else "")
        else:
            self.next_label.setText(_next_text(best, format_cutoff(ev.cutoffs[0]), bounds[0], d))
        self._pending = False
        self.next_button.setVisible(best is not None)

    def _go_next(self) -> None:
        if self._next is not None:
            self.candidate_requested.emit(self._next)


class _HidingLabel(QLabel):
    """A label that takes no room while it has nothing to say."""

    def setText(self, text: str) -> None:
        super().setText(text)
        if self.isHidden() == bool(text):
            self.setVisible(bool(text))

    def clear(self) -> None:
        super().clear()
        self.hide()


def _title(parent: QWidget) -> ElidedLabel:
    """The query's id in bold: a long one (cut to 40 characters, ~520 px in
    bold at 16 pt) is elided in its middle to its room, whole in its
    tooltip, never clipped by a button (:meth:`SummaryPanel._place_title`)."""
    title = ElidedLabel(Qt.TextElideMode.ElideMiddle, parent)
    title.setObjectName("summaryTitle")
    bold = QFont()  # (only the weight: the size follows the window's font)
    bold.setBold(True)
    title.setFont(bold)
    return title


def _set_text(label: QLabel, text: str) -> None:
    if label.text() != text:
        label.setText(text)


class AggregateFooter(ElidedLabel):
    """The mean over all queries at every cutoff, with included and excluded
    counts (objectName ``aggregateFooter``); the sentences behind each mean
    on hover. Never wider than the status bar: an end that does not fit is
    elided (the whole text is :meth:`text` and the tooltip)."""

    def __init__(self, decimals: Callable[[], int], parent: Any = None) -> None:
        super().__init__(Qt.TextElideMode.ElideRight, parent)
        self.setObjectName("aggregateFooter")
        self._decimals = decimals

    def set_evaluation(self, ev: Evaluation) -> None:
        n = ev.doc.n_queries_named
        if not n:  # (an empty window, a file still read: "no mean over 0/0" said nothing)
            _set_text(self, "")
            self.setToolTip("")
            return
        d = self._decimals()
        summaries = summarize(ev)

        def means(s: Any) -> str:
            return f"NDCG@{format_cutoff(s.k)}" + (
                f" {format_number(s.mean, d)}" if s.mean is not None else ": no mean")

        def over(s: Any) -> str:  # "over 6 of 8 queries (excluded: ...)"
            excluded = excluded_phrase(s.excluded, empty=None)
            if s.mean is None:  # "NDCG@all: no mean (0 of 1 query counted; excluded: ...)"
                return f"({s.included} of {counted(n)} counted" + (
                    f"; {excluded})" if excluded else ")")
            return f"over {s.included} of {counted(n)}" + (f" ({excluded})" if excluded else "")

        counts = {(s.included, tuple(s.excluded.items())) for s in summaries}
        if len(counts) == 1:  # the usual case: one "over" for every cutoff
            text = " · ".join(means(s) for s in summaries) + " " + over(summaries[0])
        else:
            text = " · ".join(f"{means(s)} {over(s)}" for s in summaries)
        _set_text(self, f"{ev.conventions.weighting.label}: {text}")
        tip = bounded("\n\n".join(summary_sentence(ev, s, decimals=d) for s in summaries),
                      CELL_SHOWN)
        if self.toolTip() != tip:
            self.setToolTip(tip)

    def event(self, e: QEvent) -> bool:
        bar = self.parentWidget()
        if e.type() == QEvent.Type.ParentChange and isinstance(bar, QStatusBar):
            bar.messageChanged.connect(self._step_aside)
        return super().event(e)

    def _step_aside(self, message: str) -> None:
        """Hidden while the status bar shows ``message`` (a save, a refused
        grade), as a bar's normal widget is: Qt draws a message left of the
        first permanent widget, and this one, stretched over the whole bar,
        left it no room, so that no message was ever seen."""
        self.setVisible(not message)


def _spans(cutoffs: Sequence[int | None], bounds: Sequence[Bounds], d: int) -> str:
    """The cutoffs' intervals, each thing said once: the cutoffs whose
    interval is one value first, in one clause ("NDCG@1 and NDCG@2 are 1.0000
    and NDCG@all is undefined, whatever the unknown grades are"), then each
    other interval with the cutoffs it holds for ("NDCG@5 and NDCG@10
    between 0.4000 and 0.9000 (outer bounds)"). It said "NDCG@k is 1.0000
    whatever the unknown grades are" once per cutoff."""
    fixed: dict[str, list[str]] = {}
    spans: dict[str, list[str]] = {}
    for k, b in zip(cutoffs, bounds, strict=True):
        value = _one_value(b, d)
        said = fixed if value is not None else spans
        said.setdefault(value if value is not None else interval_words(b, d), []).append(
            f"NDCG@{format_cutoff(k)}")
    held = [f"{_and(names)} {'are' if len(names) > 1 else 'is'} {value}"
            for value, names in fixed.items()]
    parts = [_and(held) + ("," if len(held) > 1 else "") + f" {WHATEVER}"] if held else []
    parts += [f"{_and(names)} " + (f"are {span[3:]}" if len(names) > 1 and span.startswith("is ")
                                  else span) for span, names in spans.items()]
    return "; ".join(parts)


def _and(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _one_value(b: Bounds, d: int) -> str | None:
    """The interval's one value, as shown ("1.0000", "undefined"), where the
    unknown grades cannot change it; None where they can."""
    if b.low is None or b.high is None:
        return "undefined"
    if one_value(b.low, b.high) and not b.may_be_undefined:
        return bound_text(b.low, d)  # (or summed in two orders: 1 - 1e-16, 1 + 2e-16)
    return None


def _next_text(best: NextJudgment, k: str, first: Bounds, d: int) -> str:
    """The judgment to make next and what it does to the first cutoff's
    interval: how narrow it leaves it (a width below the rounding written
    with its digits, not 0.0000), or where the interval is one value
    already, that the judgment resolves the query (it said "narrows to at
    most 0.0000 wide")."""
    who = shown_id(best.source_id)
    if best.by_rank:  # (an unbounded side: core.analysis.outer)
        return f"Judge {who!r} next for the NDCG@{k} interval: {best.why}."
    closes = one_value(0.0, best.worst_width)  # (a width of 2e-16: the sums' rounding)
    if closes and first.low is not None and first.high is not None and one_value(
            first.low, first.high):
        return (f"Judge {who!r} next: no grade changes the NDCG@{k}, but the query stays "
                "unresolved until its unknown grades are judged.")
    if closes:
        return f"Judge {who!r} next: whatever its grade, the NDCG@{k} interval closes to one value."
    width = format_number(best.worst_width, apart_digits(0.0, best.worst_width, d))
    return (f"Judge {who!r} next: whatever its grade, the NDCG@{k} interval narrows to at "
            f"most {width} wide.")
