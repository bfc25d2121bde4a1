"""The judging queue: a dock listing the unknown candidates of the whole
document, the one whose judgment narrows the mean NDCG's interval most first
(:func:`core.analysis.queue.judging_queue`), with a Next button that shows
the first candidate still unknown; and, when the document belongs to a review
round, each reviewer's progress (graded / assigned).

Review > Judging queue opens it. The queue is worked out off the UI thread
(:class:`app.workers.LatestJob`), a moment after the last edit, and only
while the dock is shown; the queries an edit did not touch are not worked
out again.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QObject, Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.accessibility import label_control
from app.actions import ActionSpec
from app.delegates import NumberDelegate, bound_text, bounds_texts, format_number
from app.review.common import MadeView, RowsModel, deferred_dock, read_only_table
from app.workers import LatestJob
from core.analysis.pace import CAP_SECONDS, IDLE_SECONDS
from core.analysis.queue import JudgingQueue, QueryJudgments, judging_queue, reviewer_progress
from core.engine.evaluation import Evaluation
from core.model.conventions import format_cutoff
from core.model.document import Document, GradeState
from core.model.numbers import apart_digits, counted, one_value
from core.session import Changes

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["ProgressColumn", "QueueColumn", "QueueController", "QueueView", "install_queue"]

REFRESH_DELAY_MS = 150


class QueueColumn(IntEnum):
    POSITION = 0
    QUERY = 1
    SOURCE = 2
    RANK = 3
    NARROWING = 4
    WORST = 5


class QueueModel(RowsModel):
    """The queue's entries in order (never re-sorted: the order is the point)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(QueueColumn, {
            QueueColumn.POSITION: self.tr("#"),
            QueueColumn.QUERY: self.tr("query"),
            QueueColumn.SOURCE: self.tr("source"),
            QueueColumn.RANK: self.tr("rank"),
            QueueColumn.NARROWING: self.tr("narrows the mean by"),
            QueueColumn.WORST: self.tr("query's interval left"),
        }, parent)
        self.candidates: list[int] = []

    def set_queue(self, doc: Document, ev: Evaluation, queue: JudgingQueue | None) -> None:
        rows: list[tuple[Any, ...]] = []
        self.candidates = [] if queue is None else queue.rows.tolist()
        if queue is not None:
            for n, (i, narrow, worst) in enumerate(zip(
                    self.candidates, queue.narrowing.tolist(), queue.worst.tolist(),
                    strict=True), start=1):
                rank = int(ev.rank[i])
                rows.append((n, doc.query_ids[int(doc.query[i])], doc.source_text(i),
                             rank if rank else None, None if narrow != narrow else narrow,
                             None if worst != worst else worst))
        self.set_rows(rows)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The queue keeps its order."""


class ProgressColumn(IntEnum):
    REVIEWER = 0
    GRADED = 1
    ASSIGNED = 2
    MEDIAN = 3
    PACE = 4
    LEFT = 5


class ProgressModel(RowsModel):
    """Per reviewer of the round: graded of assigned unknown grades, the
    median seconds per timed judgment, judgments per hour and the time left."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(ProgressColumn, {
            ProgressColumn.REVIEWER: self.tr("reviewer"),
            ProgressColumn.GRADED: self.tr("graded"),
            ProgressColumn.ASSIGNED: self.tr("assigned"),
            ProgressColumn.MEDIAN: self.tr("median s / judgment"),
            ProgressColumn.PACE: self.tr("judgments / hour"),
            ProgressColumn.LEFT: self.tr("minutes left"),
        }, parent)

    def set_document(self, doc: Document) -> None:
        self.set_rows([(p.reviewer, p.graded, p.assigned, p.pace.median_seconds,
                        p.pace.per_hour, p.minutes_left) for p in reviewer_progress(doc)])


class QueueView(QWidget):
    """The queue, its Next button and the reviewers' progress (objectName
    ``judgingQueueView``)."""

    def __init__(self, decimals: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("judgingQueueView")
        self._decimals = decimals
        self.message = QLabel(self)
        self.message.setObjectName("queueMessage")
        self.message.setWordWrap(True)
        self.next_button = QPushButton(self.tr("&Next"), self)
        self.next_button.setObjectName("queueNextButton")
        self.next_button.setToolTip(self.tr(
            "Show the first candidate of the queue whose grade is still unknown"))
        self.model = QueueModel(self)
        self.table = read_only_table("queueTable", self.model, self)
        label_control(self.table, self.tr("Judging queue"))
        number = NumberDelegate(decimals, self)
        for column in (QueueColumn.NARROWING, QueueColumn.WORST):
            self.table.setItemDelegateForColumn(column, number)
        self.progress_title = QLabel(self.tr("Progress of the round's reviewers"), self)
        self.progress_model = ProgressModel(self)
        self.progress_table = read_only_table("queueProgress", self.progress_model, self)
        tenths = NumberDelegate(lambda: 1, self)
        for timed in (ProgressColumn.MEDIAN, ProgressColumn.PACE, ProgressColumn.LEFT):
            self.progress_table.setItemDelegateForColumn(timed, tenths)
        self.progress_table.setToolTip(self.tr(
            "Timed judgments only: the active seconds from one grade to the next in the "
            "editor, a pause counted for at most {0} s, a judgment for at most {1} s").format(
            int(IDLE_SECONDS), int(CAP_SECONDS)))
        label_control(self.progress_table, self.progress_title)
        top = QHBoxLayout()
        top.addWidget(self.message, 1)
        top.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.progress_title)
        layout.addWidget(self.progress_table)
        # Shown once a round's reviewers have progress (show_progress): shown
        # from the start, they made the dock ask for 228 px of a 540 px window
        # when it opened, leaving the grid 7 rows.
        self.progress_title.hide()
        self.progress_table.hide()

    def show_queue(self, doc: Document, ev: Evaluation, queue: JudgingQueue) -> None:
        self.model.set_queue(doc, ev, queue)
        d = self._decimals()
        k = format_cutoff(queue.k)
        unknown = counted(len(queue), "unknown grade")  # (it said "1 unknown grades")
        if not len(queue):
            text = self.tr("No unknown grade is left to judge.")
        elif queue.low is None or queue.high is None:
            text = self.tr("{0}; no query has an NDCG@{1} to average.").format(unknown, k)
        elif queue.settled or one_value(queue.low, queue.high):  # (outer bounds alike:
            # the exact too; or one value summed in two orders, 1 - 1e-16 and 1 + 2e-16)
            # (it said "between 0.4524 and 0.4524 ... narrows it by at least 0.0000")
            text = self.tr("Mean NDCG@{0} {1}: the {2} cannot change it.").format(
                k, bound_text(queue.low, d), unknown)
        else:
            first = float(queue.narrowing[0])
            # (an interval narrower than the rounding: the digits that tell
            # its bounds apart; what a judgment takes off, at those digits or
            # the more that tell it from 0, as the summary says a width: it
            # read "by at least 0.0000" of a mean over many queries)
            low, high = bounds_texts(queue.low, queue.high, d)
            apart = apart_digits(0.0, first, apart_digits(queue.low, queue.high, d))
            text = self.tr("Mean NDCG@{0} between {1} and {2}{3}; {4}. Judging "
                           "the first narrows it by at least {5}.").format(
                k, low, high, "" if queue.exact else self.tr(" (outer bounds)"), unknown,
                format_number(first, apart) if first == first
                else self.tr("(not worked out)"))
        self.message.setText(text)
        self.next_button.setEnabled(bool(len(queue)))

    def show_progress(self, doc: Document) -> None:
        self.progress_model.set_document(doc)
        shown = self.progress_model.rowCount() > 0
        self.progress_title.setVisible(shown)
        self.progress_table.setVisible(shown)


class QueueController(QObject):
    """Keeps the queue dock in step with the window's document."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.setObjectName("queueController")
        self.window = window
        #: The dock's view, made when first shown (the queue is worked out then).
        self.dock, self.deferred = deferred_dock(
            window, "judgingQueueDock", window.tr("Ju&dging queue"),
            Qt.DockWidgetArea.BottomDockWidgetArea, "auditLogDock",
            lambda: QueueView(window.decimals, window), self._wire)
        self.action = window.add_action(ActionSpec(
            "show_queue", "Judging &queue", "review", None,
            "The unknown candidates of every query, the one that narrows the mean NDCG "
            "most first"), self.open)
        #: The latest queue shown (None until worked out).
        self.queue: JudgingQueue | None = None
        self.job = LatestJob(self)
        self.job.finished.connect(self._show)
        self.job.failed.connect(lambda _key, exc: self.view.message.setText(
            self.tr("The queue is not available: {0}").format(exc)))
        self._known: dict[int, QueryJudgments] = {}  # per query, while its grades stay
        self._stale = True
        self._after_refresh = False  # the keyboard's Next waits for the queue
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REFRESH_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        window.session.subscribe(self._changed)
        self.dock.visibilityChanged.connect(self._shown)
        self.next_action = window.add_action(ActionSpec(
            "queue_next", "Judge the queue's ne&xt", "review", "Ctrl+Shift+J",
            "Show the first candidate of the judging queue whose grade is still unknown"),
            self._next_from_keyboard)

    view = MadeView[QueueView]()

    def _wire(self, view: QueueView) -> None:
        view.next_button.clicked.connect(self.next)
        view.table.doubleClicked.connect(self._go_to)

    def open(self) -> None:
        self.dock.show()
        self.dock.raise_()
        self.refresh()

    def _shown(self, shown: bool) -> None:
        if shown and self._stale:
            self.refresh()

    def _changed(self, changes: Changes) -> None:
        """Forget what an edit touched, and work the queue out again soon."""
        if changes.empty:  # a save: nothing to work out again
            return
        if changes.everything or self.window.conventions.rubric is None:
            self._known.clear()  # (an implied rubric may change with any grade)
        else:
            for q in changes.queries.tolist():
                self._known.pop(int(q), None)
        self._stale = True
        self._timer.start()

    def refresh(self) -> None:
        """Work the queue out off the UI thread (only while the dock is shown)."""
        if not self.dock.isVisible():
            self._stale = True
            return
        self._stale = False
        ev = self.window.evaluation
        known = dict(self._known)
        self.view.message.setText(self.tr("Working out the judging queue…"))
        self.job.submit(ev, lambda: judging_queue(ev, 0, reuse=known))

    def _show(self, ev: Evaluation, queue: JudgingQueue) -> None:
        w = self.window
        if ev is not w.evaluation:
            return  # an edit came since: its own refresh follows
        self.queue = queue
        self._known = {p.query: p for p in queue.queries}
        self.view.show_queue(w.document, ev, queue)
        self.view.show_progress(w.document)
        if self._after_refresh:
            self._after_refresh = False
            self.next()

    def _next_from_keyboard(self) -> None:
        """The queue's Next from anywhere: the queue is worked out first when
        it is not yet (the dock opened; the candidate shown once it is)."""
        if self.queue is None or self._stale:
            self._after_refresh = True
            self.open()
            return
        self.next()

    def next(self) -> int | None:
        """Show the first candidate of the queue still unknown; its index."""
        if self.queue is None:
            return None
        doc = self.window.document
        for i in self.queue.rows.tolist():
            if i < len(doc) and doc.state[i] == GradeState.UNKNOWN:
                self.window.select_candidate(i)
                return int(i)
        self.window.show_message(self.tr("Every candidate of the queue is judged."))
        return None

    def _go_to(self, index: QModelIndex) -> None:
        candidates = self.view.model.candidates
        if 0 <= index.row() < len(candidates):
            self.window.select_candidate(candidates[index.row()])


def install_queue(window: WindowApi) -> QueueController:
    """Add the judging queue's dock and action to ``window``."""
    return QueueController(window)
