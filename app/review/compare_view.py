"""Compare the open document with a second ranking: the dock's view.

"Compare with another run…" (menu Review; :mod:`app.review.compare_dock`
asks, compares and keeps the comparison in step with the document) shows the
per-query table (largest |delta| first; click a header to sort), the means, the paired
test with its resamples and seed, the bootstrap interval, the tie-rule
sensitivity and the "what changed" sentence. Selecting a query shows its
candidate changes and makes it the window's current query; the plots dock
draws the sorted deltas. Every number comes from :mod:`core.analysis.compare`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QEvent,
    QItemSelection,
    QObject,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.accessibility import buddy_label, label_control
from app.banner import UnjudgedBanner
from app.delegates import IdDelegate, NumberDelegate, format_number
from app.file_formats import WORKSHEET_FILTER
from app.models.looks import LOOK_OF_LABEL, STATUS_LOOK, StatusLook
from app.models.roles import WHOLE_ROLE
from app.panels.fit import (
    fit_columns,
    fit_rows_to_font,
    header_widths,
    text_margins,
    text_width,
)
from app.panels.scrolled import scrolled
from app.panels.status_cell import StatusFitsDelegate
from app.panels.wheel import guard_wheel
from app.review.common import (
    Index,
    RowsModel,
    SignedDelegate,
    read_only_table,
)
from app.review.compare_stats import ComparisonStats
from app.scheme import tint
from app.shown import id_tip
from core.analysis.aggregate import excluded_phrase, unjudged_candidates
from core.model.conventions import UnknownRule, format_cutoff
from core.model.numbers import agreed, counted

if TYPE_CHECKING:
    from core.analysis.compare import CandidateChange, Comparison

__all__ = [
    "COMPARE_FILTER",
    "COUNT_LABEL",
    "ChangeColumn",
    "ChangesModel",
    "CompareColumn",
    "CompareView",
    "ComparisonModel",
]

#: A TREC run may have any name (``results.test``, ``input.uogTrA``): the first
#: filter, the one the dialog opens with, shows every file.
COMPARE_FILTER = (
    f"Worksheets and TREC runs (*);;{WORKSHEET_FILTER};;"
    "TREC runs (*.run *.trec *.test *.res *.txt)"
)
_WIN, _LOSS = "win", "loss"  # tones of app.models.looks
#: The banner's choice the dock offers when every query is unresolved.
_, COUNT_LABEL, _, COUNT_TIP = next(
    c for c in UnjudgedBanner.CHOICES if c[2] is UnknownRule.ZERO)


class CompareColumn(IntEnum):
    QUERY = 0
    NDCG_A = 1
    NDCG_B = 2
    DELTA = 3
    OUTCOME = 4


#: The least characters of a query id the per-query table shows (cut in the middle).
ID_LEAST = 8
#: The columns of numbers (a status in their place too: right-aligned).
_NUMBERS = frozenset({CompareColumn.NDCG_A, CompareColumn.NDCG_B, CompareColumn.DELTA})
#: core's outcome of a query without both NDCG values (shown "—").
NOT_COMPARABLE = "not comparable"


class ComparisonModel(RowsModel):
    """One row per query at one cutoff: the shared queries in core's order
    (largest |delta| first), then the queries only in A and only in B."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(CompareColumn, {
            CompareColumn.QUERY: self.tr("query"),
            # (short, as the delta's: "NDCG A" left no room for the outcome
            # at 1280x800 or 1920x1080; the header's tooltip says NDCG)
            CompareColumn.NDCG_A: self.tr("A"),
            CompareColumn.NDCG_B: self.tr("B"),
            # (short: "delta (B - A)" did not fit a side dock at 1280x800;
            # the header's tooltip and the statistics above say "delta")
            CompareColumn.DELTA: self.tr("B − A"),
            CompareColumn.OUTCOME: self.tr("B vs A"),
        }, parent)
        self.comparison: Comparison | None = None

    def set_comparison(self, c: Comparison | None, j: int = 0) -> None:
        self.comparison = c
        rows: list[tuple[Any, ...]] = []
        brushes: list[str | None] = []
        if c is not None:
            for qd in c.query_deltas(j):
                # a status with the navigator's mark ("∅ undefined", "? unresolved"),
                # shown in the longest form its cell holds (StatusFitsDelegate)
                a = qd.ndcg_a if qd.ndcg_a is not None else STATUS_LOOK[qd.status_a].label
                b = qd.ndcg_b if qd.ndcg_b is not None else STATUS_LOOK[qd.status_b].label
                rows.append((qd.query, a, b, qd.delta, qd.outcome))
                brushes.append(_WIN if qd.outcome == "win" else
                               _LOSS if qd.outcome == "loss" else None)
            for name, doc, ev, side in ((c.only_a, c.doc_a, c.ev_a, "A"),
                                        (c.only_b, c.doc_b, c.ev_b, "B")):
                for q in name:
                    qi = doc.query_index(q)
                    value = ev.ndcg[qi, j]
                    shown: Any = float(value) if not math.isnan(value) else (
                        STATUS_LOOK[ev.status(qi, j)].label)
                    cells = (shown, None) if side == "A" else (None, shown)
                    rows.append((q, *cells, None, self.tr("only in {0}").format(side)))
                    brushes.append(None)
        self.set_rows(rows, brushes)

    def query_of(self, row: int) -> str:
        return str(self.row(row)[CompareColumn.QUERY])

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            tips = {CompareColumn.NDCG_A: self.tr("NDCG of A (this document) at the cutoff"),
                    CompareColumn.NDCG_B: self.tr("NDCG of B (the run compared) at the cutoff"),
                    CompareColumn.DELTA: self.tr("delta: NDCG B − NDCG A (+: B better)"),
                    CompareColumn.OUTCOME: self.tr(
                        "B against A: win, tie or loss; — not comparable (an NDCG "
                        "undefined or unresolved)")}
            if section in tips:
                return tips[CompareColumn(section)]
        return super().headerData(section, orientation, role)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == CompareColumn.QUERY:
            # the id whole, where its column elides it (its line breaks marked)
            value = super().data(index, WHOLE_ROLE)
            return id_tip(value) if isinstance(value, str) else None
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in _NUMBERS:
            # A status in a number's column right-aligned as the numbers
            # ("undef.", "unres."): the column is scanned down its right edge.
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if index.column() == CompareColumn.OUTCOME and role in (
                Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            outcome = super().data(index, WHOLE_ROLE)
            if outcome == NOT_COMPARABLE:  # (narrow: the NDCG cells say why)
                return "—" if role == Qt.ItemDataRole.DisplayRole else self.tr(
                    "not comparable: an NDCG is undefined or unresolved")
        return super().data(index, role)


class ChangeColumn(IntEnum):
    SOURCE = 0
    KIND = 1
    RANK_A = 2
    RANK_B = 3
    CONTRIBUTION_A = 4
    CONTRIBUTION_B = 5
    GAINED = 6


class ChangesModel(RowsModel):
    """The candidate changes of one query (core's order: largest change first)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(ChangeColumn, {
            ChangeColumn.SOURCE: self.tr("source"),
            ChangeColumn.KIND: self.tr("change"),
            ChangeColumn.RANK_A: self.tr("rank A"),
            ChangeColumn.RANK_B: self.tr("rank B"),
            ChangeColumn.CONTRIBUTION_A: self.tr("contribution A"),
            ChangeColumn.CONTRIBUTION_B: self.tr("contribution B"),
            ChangeColumn.GAINED: self.tr("gained (+) / lost (-)"),
        }, parent)

    def set_changes(self, changes: Sequence[CandidateChange]) -> None:
        self.set_rows(
            [(ch.source_id, ch.kind, ch.rank_a, ch.rank_b, ch.contribution_a,
              ch.contribution_b, ch.delta) for ch in changes],
            [_WIN if ch.delta > 0 else _LOSS if ch.delta < 0 else None for ch in changes],
        )


class CompareView(QWidget):
    """The comparison of the open document (A) with a second ranking (B)."""

    #: A query row was selected: carries its id.
    query_selected = Signal(str)
    #: "Count as not relevant" was pressed (no query compared: every one unresolved).
    count_as_not_relevant = Signal()

    def __init__(self, decimals: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._decimals = decimals
        self.setObjectName("compareView")
        self.comparison: Comparison | None = None
        self.cutoff = QComboBox(self)
        self.cutoff.setObjectName("compareCutoff")
        # (filled after its first show: sized to its items then, "NDCG@all"
        # read "NDCG@a" at 1280x800)
        self.cutoff.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.recompute_button = QPushButton(self)  # (offered when stale: _offer_again)
        self.recompute_button.setObjectName("compareAgain")
        self._offer_again(False)
        self.stale = QLabel(self)
        self.stale.setObjectName("compareStale")
        self.stale.setWordWrap(True)
        # No query compared because unjudged candidates leave every one
        # unresolved: said, with the banner's way out (as the CLI's note).
        self.unresolved_note = QLabel(self)
        self.unresolved_note.setObjectName("compareUnresolvedNote")
        self.unresolved_note.setWordWrap(True)
        self.count_button = QPushButton(self.tr(COUNT_LABEL), self)
        self.count_button.setObjectName("compareCountNotRelevant")
        self.count_button.setToolTip(self.tr(COUNT_TIP))
        self.count_button.clicked.connect(self.count_as_not_relevant)
        self.header = QLabel(self.tr("Compare with another run… (menu Review) loads a second "
                                     "ranking of the same queries."), self)
        self.header.setObjectName("compareHeader")
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.model = ComparisonModel(self)
        self.table = read_only_table("compareTable", self.model, self)
        label_control(self.table, self.tr("NDCG of A and B per query"))
        self.table.setSortingEnabled(False)
        header = self.table.horizontalHeader()
        header.setSortIndicatorShown(True)
        header.setSectionsClickable(True)
        header.sortIndicatorChanged.connect(self.model.sort)
        # Fitted here, not by ResizeToContents: that gave every header the
        # sort arrow's room, and at 1280x800 the delta and the outcome
        # were out of the dock's view (_fit_table).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)  # (a stretched column is room _fit_width has)
        # One line a row, as the other docks' tables: an id that has not the
        # room is cut in the middle, both ends kept (cut at the end, four of
        # the example's ids read "case-…" alike at 1280x800), whole on hover.
        # It went on two lines (the rows two lines tall): "case-D-" over
        # "doubled" read as two rows beside the numbers' one line.
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        fit_rows_to_font(self.table)
        header.sortIndicatorChanged.connect(lambda *_: self._fit_table())
        self._fitted: dict[int, int] = {}
        #: The statuses each NDCG column shows (their short words' room: _least).
        self._statuses: dict[int, set[StatusLook]] = {}
        self.table.viewport().installEventFilter(self)  # (a scroll bar coming narrows it)
        self.changes_title = QLabel(self)
        self.changes_title.setObjectName("compareChangesTitle")
        self.changes_title.setWordWrap(True)
        self.changes_model = ChangesModel(self)
        self.changes = read_only_table("compareChanges", self.changes_model, self)
        label_control(self.changes, self.tr("Candidates behind the selected query's change"))
        number = NumberDelegate(decimals, self)
        signed = SignedDelegate(decimals, self)
        for col in (CompareColumn.NDCG_A, CompareColumn.NDCG_B):
            self.table.setItemDelegateForColumn(col, StatusFitsDelegate(decimals, self))
        self.table.setItemDelegateForColumn(CompareColumn.QUERY, IdDelegate(decimals, self))
        self.table.setItemDelegateForColumn(CompareColumn.DELTA, signed)
        for change_col in (ChangeColumn.CONTRIBUTION_A, ChangeColumn.CONTRIBUTION_B):
            self.changes.setItemDelegateForColumn(change_col, number)
        self.changes.setItemDelegateForColumn(ChangeColumn.GAINED, signed)

        # The statistics one looks for first, each on its own line, always in view.
        self.stats = ComparisonStats(decimals, self)
        self._lay_out()
        guard_wheel(self)
        self.cutoff.currentIndexChanged.connect(lambda _i: self._show())
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)

    def _lay_out(self) -> None:
        """The cutoff and Compare again on top, the statistics, then the
        tables and what the comparison found in a splitter."""
        top = QHBoxLayout()
        top.addWidget(buddy_label(self.tr("Cutoff:"), self.cutoff))
        top.addWidget(self.cutoff)
        top.addStretch(1)
        top.addWidget(self.recompute_button)
        lower = QWidget(self)
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.changes_title)
        lower_layout.addWidget(self.changes)
        # The header can be long (the paired test, what changed): it scrolls
        # in its own pane so the tables keep their room.
        scroll = QScrollArea(self)
        scroll.setObjectName("compareHeaderArea")
        label_control(scroll, self.tr("What the comparison found"))
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.header)
        self.header.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        split.addWidget(lower)
        split.addWidget(scroll)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 1)
        split.setStretchFactor(2, 1)
        body = QWidget(self)
        body.setObjectName("compareBody")
        layout = QVBoxLayout(body)
        layout.addLayout(top)
        layout.addWidget(self.stale)
        layout.addWidget(self.unresolved_note)  # (the dock is narrow: the button below)
        count = QHBoxLayout()
        count.addWidget(self.count_button)
        count.addStretch(1)
        layout.addLayout(count)
        layout.addWidget(self.stats)
        layout.addWidget(split, 1)
        # In a short dock (a 1920x1080 screen at 2x) the view scrolls, rather
        # than asking the window for ~500 px of height it does not have.
        self._area = scrolled(self, body, "compareScroll")
        self._area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._split = split
        self._area.viewport().installEventFilter(self)  # (the fold moves: _title_whole)

    @property
    def j(self) -> int:
        return max(self.cutoff.currentIndex(), 0)

    def set_comparison(self, c: Comparison | None) -> None:
        """Show ``c``, current (the cutoff shown kept when ``c`` has the
        same cutoffs: a comparison worked out again)."""
        before = self.comparison
        j = self.j if before is not None and c is not None and (
            before.cutoffs == c.cutoffs) else 0
        self.comparison = c
        self.mark_current()
        self.cutoff.blockSignals(True)
        self.cutoff.clear()
        if c is not None:
            self.cutoff.addItems([f"NDCG@{format_cutoff(k)}" for k in c.cutoffs])
            self.cutoff.setCurrentIndex(j)
        self.cutoff.blockSignals(False)
        self._show()

    def _show(self) -> None:
        c = self.comparison
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.model.set_comparison(c, self.j)
        self._fit_table()
        self.changes_model.set_changes([])
        self.changes_title.setText(self.tr("Select a query to see its candidate changes."))
        self._say_unresolved()
        self.show_numbers()
        QTimer.singleShot(0, self._title_whole)  # (the statistics' height may change)

    def _fit_table(self) -> None:
        """The per-query table's columns fitted to their contents and their
        headers (the sort arrow's room in the sorted column only), then to
        the table's width (:meth:`_fit_width`)."""
        table = self.table
        table.setColumnHidden(CompareColumn.OUTCOME, False)  # (measured shown)
        fit_columns(table, most=10_000)
        self._fitted = {c: table.columnWidth(c) for c in CompareColumn}
        rows = self.model.rows()
        self._statuses = {c: {LOOK_OF_LABEL[r[c]] for r in rows if isinstance(r[c], str)}
                          for c in (CompareColumn.NDCG_A, CompareColumn.NDCG_B)}
        self._fit_width()

    def _fit_width(self) -> None:
        """Where the table lacks the room (a side dock at 1280x800 and at
        1920x1080): the NDCG columns' statuses (``∅ undefined``, ``?
        unresolved``, whole on hover) give way first, shown shorter, down to
        their numbers' width or their short words'
        (:class:`~app.delegates.StatusFitsDelegate`), then
        the query ids, whole on hover, down to their header's width; the
        outcome gives way (hidden: the row's colour and the delta's sign
        still say it) only where even then it has no room. The numbers and
        the headers stay whole. Where the table has more room than its
        columns ask, every column shares it (at 1920x1080 ~40 px stood
        blank at the table's right)."""
        table = self.table
        if not self._fitted:
            return
        widths, least = dict(self._fitted), self._least()
        over = sum(widths.values()) - table.viewport().width()
        for shrunk in ((CompareColumn.NDCG_A, CompareColumn.NDCG_B), (CompareColumn.QUERY,)):
            if over <= 0:
                break
            share = -(-over // len(shrunk))  # (each its share: both NDCG columns alike)
            for c in shrunk:
                widths[c] -= max(min(widths[c] - least[c], share), 0)
                if c in self._statuses:
                    widths[c] = self._one_form(c, widths[c], least[c])
            over = sum(widths.values()) - table.viewport().width()
        outcome = CompareColumn.OUTCOME
        if over < 0:  # room to spare: shared by every column, the table filled
            spare, shown = -over, list(CompareColumn)
            for n, c in enumerate(shown):
                widths[c] += spare // len(shown) + (1 if n < spare % len(shown) else 0)
        table.setColumnHidden(outcome, over > 0)
        if over > 0:  # its room back to the ids
            widths[CompareColumn.QUERY] = min(self._fitted[CompareColumn.QUERY],
                                              widths[CompareColumn.QUERY] + widths[outcome])
        for col, width in widths.items():
            if col != outcome or over <= 0:
                table.setColumnWidth(col, width)

    def _one_form(self, column: int, width: int, least: int) -> int:
        """``width`` for an NDCG column, narrowed to where each status it
        shows takes the same form (:meth:`StatusLook.fitting`): at 1920x1080
        one column read "undefined" above "unres.", a reviewer scanning it
        for the same word in two forms."""
        table, font = self.table, self.table.font()
        margins = text_margins(table)
        looks = self._statuses.get(column, set())
        tiers = [self._fitted[column], least]
        if looks:  # each in its label ("∅ undefined"), each in its word ("undefined")
            tiers += [max(least, *(text_width(font, form) + margins for form in forms))
                      for forms in ([look.label for look in looks],
                                    [look.text for look in looks])]
        return max((t for t in tiers if t <= width), default=least)

    def _least(self) -> dict[int, int]:
        """The narrowest each column may be: its header whole and, for the
        NDCG columns, a number at the decimals setting and the short word of
        each status they show ("undef.", "unres."); for the ids, :data:`ID_LEAST`
        characters."""
        table = self.table
        least = {CompareColumn(c): w for c, w in enumerate(header_widths(table))}
        font, margins = table.font(), text_margins(table)
        number = text_width(font, format_number(0.0, self._decimals())) + margins
        for c in (CompareColumn.NDCG_A, CompareColumn.NDCG_B):
            words = [text_width(font, look.short) + margins
                     for look in self._statuses.get(c, ())]
            least[c] = min(self._fitted[c], max(least[c], number, *words))
        # An id keeps ID_LEAST characters' room, both its ends readable;
        # at its header's width it read "ca…ed".
        # (measured on digits: the font's average character is narrower than
        # an id's, and 8 of them kept 5 of 'case-F-unknown')
        least[CompareColumn.QUERY] = max(least[CompareColumn.QUERY],
                                         text_width(font, "0" * ID_LEAST) + margins)
        return {c: min(least[c], self._fitted[c]) for c in CompareColumn}

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_width()
        elif watched is self._area.viewport() and event.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self._title_whole)  # (once the body is laid out)
        return super().eventFilter(watched, event)

    def _title_whole(self) -> None:
        """The changes' title whole when the view's fold would cut it: the
        view scrolls (the per-query table keeps its rows), and at 1920x1080
        its last line in view, "Select a query to see its candidate
        changes.", showed 8 of its 14 px. The per-query table gives the
        title the pixels it lacks (down to the table's least height; else
        the title goes below the fold whole)."""
        area, title, split = self._area, self.changes_title, self._split
        fold = area.viewport().height()
        top = title.mapTo(area.viewport(), QPoint(0, 0)).y()
        bottom = top + max(title.height(), title.heightForWidth(title.width()))
        if not top < fold < bottom:
            return
        sizes = split.sizes()
        move = bottom - fold  # the table gives it up
        if sizes[0] - move < self.table.minimumSizeHint().height():
            move = top - fold  # (negative: the table takes the title's pixels in view)
        split.setSizes([sizes[0] - move, sizes[1] + move, *sizes[2:]])

    def show_numbers(self) -> None:
        """The header and the statistics again, at the decimals setting now
        (the tables' delegates read it as they paint)."""
        c = self.comparison
        self.header.setText(self.header_text() if c is not None else "")
        if c is None:
            self.stats.show_test(None)
        else:
            self.stats.show_test(c.tests[self.j], c.left_out)
        self.table.viewport().update()
        self.changes.viewport().update()

    def header_text(self) -> str:
        """The header: both runs, conventions, means, paired test, ties, what changed."""
        c = self.comparison
        if c is None:
            return ""
        j = self.j
        at = f"NDCG@{format_cutoff(c.cutoffs[j])}"
        sa, sb, test, ties = c.summary_a[j], c.summary_b[j], c.tests[j], c.ties[j]
        d = self._decimals()

        def mean(s: Any) -> str:
            value = format_number(s.mean, d)
            excl = excluded_phrase(s.excluded, empty=None)
            return f"{value} over {counted(s.included)}" + (f" ({excl})" if excl else "")

        conv = "; ".join(f"{name}: {choice}" for name, choice, _f in c.conventions.describe())
        lines = [
            f"A: {c.doc_a.run_title() or 'this document'} — "
            f"B: {c.doc_b.run_title() or 'second run'}",
            f"Conventions applied to both: {conv}.",
            f"Mean {at}: A {mean(sa)}; B {mean(sb)}.",
            test.sentence(decimals=d),
            f"{ties.sentence()}.",
            f"What changed: {c.changes.sentence()}",
        ]
        if c.only_a or c.only_b:
            lines.append(
                f"Queries only in A ({len(c.only_a)}): {', '.join(c.only_a) or 'none'}; "
                f"only in B ({len(c.only_b)}): {', '.join(c.only_b) or 'none'} "
                "(listed in the table, not averaged in).")
        if c.left_out:
            lines.append(f"Not compared: {c.left_out.phrase()} (not in the table).")
        return "\n".join(lines)

    def _selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or self.comparison is None:
            return
        self.show_changes(self.model.query_of(rows[0].row()))

    def show_changes(self, query: str) -> None:
        """Show the candidate changes of ``query`` and announce it."""
        c = self.comparison
        if c is None:
            return
        if query in c.common:
            changes = c.candidate_changes(query, self.j)
            self.changes_model.set_changes(changes)
            self.changes_title.setText(self.tr(
                "{0}: {1} moved, entered, left or {2} regraded at {3}").format(
                    query, counted(len(changes), "candidate"), agreed(len(changes), "was"),
                    f"NDCG@{format_cutoff(c.cutoffs[self.j])}"))
        else:
            self.changes_model.set_changes([])
            self.changes_title.setText(self.tr("{0} is in one run only.").format(query))
        self.query_selected.emit(query)

    def _say_unresolved(self) -> None:
        """When no query has an NDCG in both runs because unjudged candidates
        leave them unresolved, say so (each run's count, as the banner and
        the command line's note say it) and offer the banner's way out."""
        c = self.comparison
        found: list[str] = []
        if c is not None and c.tests[self.j].n == 0:
            for side, ev in (("A", c.ev_a), ("B", c.ev_b)):
                f = unjudged_candidates(ev)
                if f is not None and f.unresolved:
                    found.append(self.tr("{0} of {1}'s {2:,}").format(
                        f"{f.unknown:,}", side, f.retrieved))
        if found:
            self.unresolved_note.setText(self.tr(
                "No query has an NDCG in both runs: the candidates not in the qrels "
                "(unjudged; {0} retrieved) leave them unresolved. {1}, here or in the "
                "banner above the grid, counts them as not relevant, as trec_eval does; "
                "the comparison follows.").format(", ".join(found), self.tr(COUNT_LABEL)))
        else:
            self.unresolved_note.clear()
        self.unresolved_note.setVisible(bool(found))
        self.count_button.setVisible(bool(found))

    def _offer_again(self, stale: bool) -> None:
        """The button says whether the numbers are current: "Up to date",
        disabled, while nothing compared has changed; "Compare again",
        enabled, once a grade or a convention (or the document) has (it read
        "Compare again", enabled, over a comparison nothing had changed since)."""
        button = self.recompute_button
        button.setText(self.tr("Compare again") if stale else self.tr("Up to date"))
        button.setToolTip(self.tr(
            "Compare the same two runs again, with the grades and conventions now") if stale
            else self.tr("Nothing has changed since these numbers were worked out: a grade "
                         "or convention changed offers to compare again"))
        button.setEnabled(stale)

    def mark_stale(self, why: str) -> None:
        """The numbers shown are no longer current (``why``): faded, and
        Compare again offered."""
        if self.comparison is not None:
            self.stale.setText(self.tr("{0}: compare again to update these numbers.").format(why))
            self._fade(True)
            self._offer_again(True)

    def mark_failed(self, error: str) -> None:
        """Working the comparison out again failed (``error``): the numbers
        shown stay faded, Compare again offered."""
        if self.comparison is not None:
            self.stale.setText(self.tr("These numbers are no longer current; comparing "
                                       "again failed: {0}").format(error))
            self._fade(True)
            self._offer_again(True)

    def mark_working(self, why: str) -> None:
        """The comparison is being worked out again (``why``): the numbers
        shown faded meanwhile."""
        if self.comparison is not None:
            self.stale.setText(self.tr("{0}: comparing again…").format(why))
            self._fade(True)
            self.recompute_button.setText(self.tr("Comparing…"))
            self.recompute_button.setEnabled(False)
            self.unresolved_note.hide()  # (its way out is being taken)
            self.count_button.hide()

    def mark_current(self) -> None:
        """The numbers shown are current (again): nothing to compare again."""
        self.stale.clear()
        self._fade(False)
        self._offer_again(False)

    def _fade(self, faded: bool) -> None:
        self.model.set_faded(faded)
        self.changes_model.set_faded(faded)
        self.stats.set_faded(faded)
        for label in (self.header, self.unresolved_note):
            tint(label, "color: {}" if faded else "", *(("muted",) if faded else ()))
