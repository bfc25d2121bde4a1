"""The candidate grid: one query's ranked candidates, and below them the
judged-but-not-retrieved ones with the ideal gain they account for: the
panel that holds the two grids, the banners above them and the split
between them, and sizes their columns and rows. The grids themselves, and
what a key does in them, are :mod:`app.panels.grading_view`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QSplitter,
    QStyle,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.accessibility import label_control, tab_order
from app.delegates import (
    GradeDelegate,
    GradeWordsDelegate,
    IdDelegate,
    NoteDelegate,
    NumberDelegate,
    RankDelegate,
    ScoreDelegate,
)
from app.models.candidates import CandidateModel, GridColumn
from app.models.roles import CHOICES_ROLE
from app.panels.column_chooser import KEY_COLUMNS
from app.panels.fit import (
    fit_columns,
    fit_rows_to_font,
    measured_rows,
    note_width,
    resized_at_once,
    text_widths,
)
from app.panels.grading_view import GradingTableView
from app.panels.kept_widths import KeptWidths
from app.panels.measured import ContentsWidths
from core.engine.columns import COLUMNS, EDITED_MARK
from core.model.conventions import IdealInventory
from core.model.document import GradeState
from core.model.numbers import counted

__all__ = ["NOT_RETRIEVED_LEAST", "SOURCE_LEAST", "GridPanel"]

#: The rows of judged but not retrieved candidates shown at least (when
#: there are as many) below a ranked list too long for both: the rest scroll.
NOT_RETRIEVED_LEAST = 4

#: The grid's column titles by key (named in the lower grid's explanation).
COLUMN_TITLES = {c.key: c.title for c in COLUMNS}


#: The least width of the source column, in average characters.
SOURCE_LEAST = 16
#: The most the source column asks the side columns to give way for, in
#: average characters, where the window holds every column
#: (:meth:`GridPanel.whole_widths`): a 40-character URL whole (271 px at
#: 9 pt); a longer id is elided in the middle, whole on hover.
SOURCE_READ = 48
#: The widest the note column gets, in characters of a note (a longer note is
#: elided at its end, whole on hover and in its editor: app.panels.fit.note_width),
#: and the least it keeps where the other columns leave less (GridPanel.note_most).
NOTE_MOST = 36
NOTE_LEAST = 12
#: At most this many rows are measured when columns are fitted.
_MEASURED_ROWS = 50


def _measure_rows_in_view(view: QTableView, height: int | None = None) -> None:
    """Fit ``view``'s columns to the rows it has room for (at least one, at
    most :data:`_MEASURED_ROWS`), from the first one on screen: what is seen
    is measured, and each measured cell costs several calls into Python.
    ``height``: the room in pixels, when not yet its viewport's."""
    height = view.viewport().height() if height is None else height
    room = height // max(1, view.verticalHeader().defaultSectionSize()) + 1
    view.horizontalHeader().setResizeContentsPrecision(max(1, min(_MEASURED_ROWS, room)))


def _contents_widths(view: QTableView, columns: Sequence[int] | None = None) -> dict[int, int]:
    """Each of ``columns``' (every shown one's) contents' width as
    ``view.sizeHintForColumn`` gives it: the columns the view's own
    :class:`NumberDelegate` shows (text alone, never edited) from the font's
    metrics (:func:`text_widths`: a grid's cell is otherwise measured
    through ~8 calls into Python), the rank's, score's and grade's (their
    delegates change the text, an editor may be open) by Qt."""
    shown = [c for c in range(view.horizontalHeader().count())
             if not view.isColumnHidden(c)] if columns is None else list(columns)
    model, rows = view.model(), measured_rows(view)
    # (their texts the model's own: no cell asked through data, hopen8)
    cells = (lambda column: model.shown(rows, column)) if isinstance(
        model, CandidateModel) else None
    widths = text_widths(view, [c for c in shown if view.itemDelegateForColumn(c) is None],
                         rows, cells=cells)
    widths.update({c: view.sizeHintForColumn(c) for c in shown if c not in widths})
    return widths


def _choices_width(view: QTableView) -> int:
    """The width of the widest grade the editor offers (``2 - substantial
    support``), as the view draws a cell of an edited grade (after
    :data:`~core.engine.columns.EDITED_MARK`: setting a grade never cuts
    its label)."""
    model = view.model()
    if model is None or not model.rowCount():
        return 0
    choices = model.index(0, GridColumn.GRADE).data(CHOICES_ROLE) or []
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.features |= QStyleOptionViewItem.ViewItemFeature.HasDisplay
    widest = 0
    for text, _grade, _state in choices:
        option.text = f"{EDITED_MARK} {text}"
        size = view.style().sizeFromContents(QStyle.ContentsType.CT_ItemViewItem, option,
                                             QSize(), view)
        widest = max(widest, size.width())
    return widest + (1 if view.showGrid() else 0)


def _rows_height(view: QTableView, rows: int) -> int:
    """The height ``view`` needs to show its first ``rows`` rows whole: its
    header, the rows, its frame and a horizontal scroll bar where its
    columns are wider than it."""
    header = view.verticalHeader()
    # (every row: the header's length, not a call per row of a long list)
    height = (header.length() if rows >= header.count()
              else sum(header.sectionSize(header.logicalIndex(r)) for r in range(rows)))
    columns = view.horizontalHeader()
    if columns.length() > view.viewport().width():
        height += view.horizontalScrollBar().sizeHint().height()
    return height + columns.sizeHint().height() + 2 * view.frameWidth()


class GridPanel(QWidget):
    """The ranked grid (``candidateGrid``) over the not-retrieved one
    (``notRetrievedGrid``)."""

    def __init__(self, decimals: Callable[[], int], parent: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("gridPanel")
        self.model = CandidateModel("ranked", self)
        self.not_retrieved_model = CandidateModel("not_retrieved", self)
        self.grid = self._make_view("candidateGrid", self.model, decimals)
        self.not_retrieved = self._make_view("notRetrievedGrid", self.not_retrieved_model,
                                             decimals)
        keys = self.tr("Digits grade the current row; U marks it unknown, X unrateable; "
                       "F2 edits the grade")
        label_control(self.grid, self.tr("Candidates"), keys)
        label_control(self.not_retrieved, self.tr("Not retrieved candidates"), keys)
        for n, col in enumerate(self.not_retrieved_model.columns):
            self.not_retrieved.setColumnHidden(n, col.ranked_only)
        self.not_retrieved_label = QLabel(self)
        self.not_retrieved_label.setObjectName("notRetrievedLabel")
        self.not_retrieved_label.setWordWrap(True)
        self.not_retrieved_label.setMinimumWidth(40)  # a one-line text never widens the grid
        self._lower = lower = QWidget(self)
        box = QVBoxLayout(lower)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.not_retrieved_label)
        box.addWidget(self.not_retrieved)
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.split.setObjectName("gridSplitter")
        self.split.addWidget(self.grid)
        self.split.addWidget(lower)
        self.split.setStretchFactor(0, 4)
        self.split.setStretchFactor(1, 1)
        self.split.setCollapsible(0, False)
        # The heights follow the rows until the reviewer drags the handle.
        self._dragged = False
        self.split.splitterMoved.connect(self._handle_dragged)
        self.split.installEventFilter(self)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addWidget(self.split)
        self._shown_ideal: IdealInventory | None = None
        #: The widths a reviewer gave columns, dragging (or double-clicking)
        #: a header's edge, by view and column: every fit keeps them, and the
        #: next session, until View > Reset column widths or Reset layout
        #: (:meth:`forget_widths`). A Source dragged wider to read its ids
        #: went back to its cap at the next query.
        self.kept = KeptWidths((self.grid, self.not_retrieved), self)
        #: The width each view's source ids asked when last measured: the
        #: source follows the viewport's width up to it (_follow_width).
        self._source_wants: dict[QTableView, int] = {}
        #: The views' contents' widths, measured once while they hold.
        self._contents = ContentsWidths((self.grid, self.not_retrieved), _contents_widths,
                                        decimals, self)
        self._ports = {view.viewport(): view for view in (self.grid, self.not_retrieved)}
        for view in (self.grid, self.not_retrieved):
            view.viewport().installEventFilter(self)
        self.not_retrieved_model.modelReset.connect(self._update_label)
        self.not_retrieved_model.dataChanged.connect(self._follow_ideal)
        self.model.modelReset.connect(self._update_label)

    def add_banner(self, banner: QWidget) -> None:
        """Show ``banner`` above the grids (e.g. what to do about unjudged
        candidates), its buttons in the Tab order as the window reads: after
        what came before the grid (the query list), the banners top down,
        then the grid. Made after the window's order, they came after the
        audit log and the status bar's reviewer button."""
        self._layout.insertWidget(0, banner)
        controls = self._banner_controls()
        before = self.grid.previousInFocusChain()
        while before is not None and before is not self.grid and (before in controls or not (
                before.focusPolicy() & Qt.FocusPolicy.TabFocus)):
            before = before.previousInFocusChain()
        tab_order(*([before] if before is not None else []), *controls, self.grid)

    def _banner_controls(self) -> list[QWidget]:
        """The controls Tab reaches in the banners, top down."""
        items = (self._layout.itemAt(i) for i in range(self._layout.count()))
        banners = [item.widget() for item in items if item is not None]
        return [control for banner in banners if banner is not None and banner is not self.split
                for control in banner.findChildren(QWidget)
                if control.focusPolicy() & Qt.FocusPolicy.TabFocus]

    def fit_columns(self) -> None:
        """Columns sized to their contents and headers (a long source id
        capped, see :meth:`source_most`, its full text on hover), those a
        reviewer sized kept; the grid shown from its first column."""
        with resized_at_once(self.grid, self.not_retrieved):
            for view in (self.grid, self.not_retrieved):
                _measure_rows_in_view(view, self._room(view))
                kept = self.kept.of(view)
                measured = self._contents.of(view)
                fit_columns(view, most=max(160, view.viewport().width()),
                            measured=measured, skip=tuple(kept))
                self._source_wants[view] = measured.get(GridColumn.SOURCE, 0)
                for col, width in kept.items():
                    view.horizontalHeader().resizeSection(col, width)
            self._widen(measured=True)
        self.grid.horizontalScrollBar().setValue(0)

    def _follow_width(self, view: QTableView) -> None:
        """The source column as wide as the viewport leaves it now (up to
        what its ids asked, down to :data:`SOURCE_LEAST` characters), once
        the columns were fitted: a vertical scroll bar coming after the fit
        (the rows arrived), or the side columns giving the grid room, left
        the columns fitted to the width before: at 1920x1080 the last
        column was cut by the bar's 14 px, a note's column narrowed left
        the source cut 14 px short. A width the reviewer gave it is kept."""
        source = GridColumn.SOURCE
        wants = self._source_wants.get(view)
        if wants is None or source in self.kept.of(view) or view.isColumnHidden(source):
            return
        header = view.horizontalHeader()
        width = min(self.source_most(view), max(wants, header.sectionSizeHint(source)))
        if width != header.sectionSize(source):
            header.resizeSection(source, width)

    def forget_widths(self) -> None:
        """The columns a reviewer sized follow their contents again, in this
        session and the next ones (View > Reset column widths, View > Reset
        layout)."""
        self.kept.forget()

    def _room(self, view: QTableView) -> int:
        """The height ``view``'s rows have: its viewport's, or for the judged
        grid of a query nothing ranks (the ranked grid hidden in the same
        model reset, :meth:`_update_label`) the splitter's, which it takes
        once laid out (its viewport was 0 px tall when the columns were
        fitted, so one row was measured and a longer id shown elided)."""
        if view is self.not_retrieved and self.grid.isHidden():
            return max(view.viewport().height(), self.split.height())
        return view.viewport().height()

    def widen_columns(self) -> None:
        """Widen (never narrow) the text columns for the query now shown (a
        longer source id), and the grade column for every grade of the rubric
        (any row may be given any of them): columns do not jump back and forth
        from query to query, nor when a grade is set."""
        self._widen(measured=False)

    def widen_note(self) -> None:
        """Widen (never narrow) the note column to the notes of the rows in
        view, up to :meth:`note_most`: after a note is written, the other
        columns are not measured again (they were 20 ms of a note's 34 ms
        at 200,000 candidates)."""
        note = GridColumn.NOTE
        for view in (self.grid, self.not_retrieved):
            if view.isColumnHidden(note) or note in self.kept.of(view):
                continue
            header = view.horizontalHeader()
            wanted = min(self.note_most(view),
                         max(view.sizeHintForColumn(note), header.sectionSizeHint(note)))
            if wanted > header.sectionSize(note):
                header.resizeSection(note, wanted)

    def source_most(self, view: QTableView) -> int:
        """The widest ``view``'s source column gets: what leaves room for
        every other shown column, or where that is too little (less than
        :data:`SOURCE_LEAST` characters), for the other key columns
        (:data:`~app.panels.column_chooser.KEY_COLUMNS`: rank, grade, gain,
        discount, contribution, cumulative DCG) and the original grade once
        an edit shows it beside the grade (it pushed the cumulative DCG out
        of view at 1280x800, the source keeping its room); never less than
        :data:`SOURCE_LEAST` characters. A longer id is elided in the middle
        (where ids like ``clueweb09-en0000-12-34567`` differ least), whole
        on hover."""
        header = view.horizontalHeader()
        port = view.viewport().width()
        least = view.fontMetrics().averageCharWidth() * SOURCE_LEAST + 8
        shown = [n for n in range(header.count())
                 if n != GridColumn.SOURCE and not view.isColumnHidden(n)]
        keys = [n for n in shown if self.model.columns[n].key in KEY_COLUMNS
                or self.model.columns[n].edits_only]
        room = port - sum(header.sectionSize(n) for n in shown)
        if room < least:
            room = port - sum(header.sectionSize(n) for n in keys)
        return max(least, room)

    def note_most(self, view: QTableView) -> int:
        """The widest ``view``'s note column gets: what the other shown
        columns leave of the view, between :data:`NOTE_LEAST` and
        :data:`NOTE_MOST` characters (at 1920x1080 a note 36 characters wide
        pushed the ideal contribution out of view; at 1280x800 the grid
        scrolls to it). A longer note is elided at its end, whole on hover."""
        header = view.horizontalHeader()
        room = view.viewport().width() - sum(
            header.sectionSize(n) for n in range(header.count())
            if n != GridColumn.NOTE and not view.isColumnHidden(n))
        return max(note_width(view, NOTE_LEAST), min(note_width(view, NOTE_MOST), room))

    def key_width(self, *, every: bool = False) -> int:
        """The width (pixels) the ranked grid needs to show its key columns
        (:data:`~app.panels.column_chooser.KEY_COLUMNS`, rank to cumulative
        DCG) whole in this font, the source at most :data:`SOURCE_LEAST`
        characters, with its frame and its vertical scroll bar where its rows
        overflow it: what the side columns give way to
        (:class:`app.layout.Workplace`). It grows with
        the font (933 px of columns at 16 pt, where 640 px was assumed), and
        the original grade beside the grade while it shows: once an edit
        shows it, or the Columns menu's entry is ticked (counted only
        then: room kept for it before hid the navigator's status column).
        ``every``: every shown column's (the source as capped), what the
        side columns give way to where the window can hold it (at 1920x1080
        a navigator asking for its queries' texts cut Its ideal
        contribution)."""
        return self._key_widths(every=every)[0]

    def whole_widths(self) -> tuple[int, int]:
        """The width every shown column needs (:meth:`key_width` with
        ``every``), and the same with the source's ids as wide as they ask
        up to :data:`SOURCE_READ` characters, measured once: what the side
        columns give way to, down to where their views still read, once the
        grid holds every column (at 1920x1080 beside 40-character URLs the
        source was cut to its least, 104 px, 'htt…rs/pa-0100', the navigator
        and the summary keeping 146 px past their floors; at 1440x900 the
        ids read whole, the last columns scrolled to)."""
        return self._key_widths(every=True)

    def _key_widths(self, *, every: bool) -> tuple[int, int]:
        """:meth:`key_width`, and the same with the source as wide as its ids
        ask up to :data:`SOURCE_READ` characters."""
        view, header = self.grid, self.grid.horizontalHeader()
        average = view.fontMetrics().averageCharWidth()
        least, read = average * SOURCE_LEAST + 8, average * SOURCE_READ + 8
        keys = [n for n, col in enumerate(self.model.columns)
                if (every or col.key in KEY_COLUMNS or col.edits_only)
                and not view.isColumnHidden(n)]
        contents = self._contents.of(view, keys)
        width = source = 0
        for n in keys:
            wanted = max(header.sectionSizeHint(n), contents[n])
            if n == GridColumn.SOURCE:  # a longer id is elided (source_most)
                source = wanted
                continue
            width += max(wanted, _choices_width(view)) if n == GridColumn.GRADE else wanted
        bar = view.verticalScrollBar()
        extent = view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, view)
        width += 2 * view.frameWidth() + (extent if bar.maximum() > bar.minimum() else 0)
        return width + min(least, source), width + min(read, source)

    def _widen(self, *, measured: bool) -> None:
        """:meth:`widen_columns`; ``measured``: the columns were just fitted to
        the rows now shown, so only the grade column's choices are measured
        (and a long source id capped). The note and version columns, where
        the query shown has none, narrow to their headers first (a note
        written on another query kept the column up to 36 characters wide,
        empty, beside a source id cut to its cap): the source takes that
        room. A column the reviewer sized keeps its width."""
        most = max(160, self.grid.viewport().width() // 3)
        for view in (self.grid, self.not_retrieved):
            header = view.horizontalHeader()
            kept = self.kept.of(view)
            model = view.model()
            assert isinstance(model, CandidateModel)
            if not measured:
                _measure_rows_in_view(view, self._room(view))
                for empty in (GridColumn.VERSION, GridColumn.NOTE):
                    if empty not in kept and model.blank(empty):
                        header.resizeSection(empty, header.sectionSizeHint(empty))
            # (a number column widens for the grade state's word it shows:
            # "unknown" read "u…n" in the gain column fitted to numbers)
            words = [n for n, c in enumerate(self.model.columns)
                     if c.state_words and n != GridColumn.GRADE]
            for col in (GridColumn.VERSION, GridColumn.GRADE, *words, GridColumn.SOURCE,
                        GridColumn.NOTE):
                if col in kept:
                    continue
                wanted = 0 if measured else max(view.sizeHintForColumn(col),
                                                header.sectionSizeHint(col))
                if col is GridColumn.GRADE:
                    wanted = max(wanted, _choices_width(view))
                if col is GridColumn.NOTE:  # last: what is left (a long note elided)
                    cap = self.note_most(view)
                    if header.sectionSize(col) > cap:
                        header.resizeSection(col, cap)
                    wanted = min(cap, wanted)
                if col is GridColumn.SOURCE:  # the others' widths are known
                    wants = self._source_wants
                    wants[view] = max(wants.get(view, 0), wanted)
                    cap = self.source_most(view)
                    if header.sectionSize(col) > cap:
                        header.resizeSection(col, cap)
                    wanted = min(cap, wanted)
                else:
                    wanted = min(most, wanted)
                if wanted > header.sectionSize(col):
                    header.resizeSection(col, wanted)
        self._share_height()  # (a scroll bar below columns now wider than the view)

    def grade_row(self, view: GradingTableView, row: int, grade: float | None,
                  state: GradeState, apply: Callable[[int, float | None, GradeState], bool],
                  *, advance: bool, at_end: Callable[[], None] | None = None) -> None:
        """Grade ``view``'s ``row`` through ``apply`` (the window's undoable
        set_grade); when it is applied and ``advance``, the next row's cell in
        the same column becomes current, and after the query's last row
        ``at_end`` is called (the window moves on to the next query)."""
        model = self.model if view is self.grid else self.not_retrieved_model
        if not 0 <= row < model.rowCount():
            return
        column = view.currentIndex().column()
        following = model.candidate(row + 1) if row + 1 < model.rowCount() else None
        if not apply(model.candidate(row), grade, state) or not advance:
            return
        if following is None:
            if at_end is not None:
                at_end()
            return
        target = model.row_of(following)  # the rows may have moved (ties by gain)
        if target is not None:
            view.selectionModel().setCurrentIndex(
                model.index(target, column), QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def grade_current(self, grade: float | None, state: GradeState,
                      apply: Callable[[int, float | None, GradeState], bool],
                      *, advance: bool, at_end: Callable[[], None] | None = None) -> None:
        """Grade the current row of the focused grid (else of the ranked one)."""
        for view in (self.grid, self.not_retrieved):
            if view.hasFocus() and view.currentIndex().isValid():
                self.grade_row(view, view.currentIndex().row(), grade, state, apply,
                               advance=advance, at_end=at_end)
                return
        if self.grid.currentIndex().isValid():
            self.grade_row(self.grid, self.grid.currentIndex().row(), grade, state, apply,
                           advance=advance, at_end=at_end)

    def _make_view(self, name: str, model: CandidateModel,
                   decimals: Callable[[], int]) -> GradingTableView:
        view = GradingTableView(self)
        view.setObjectName(name)
        view.setModel(model)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        view.setAlternatingRowColors(False)
        fit_rows_to_font(view)
        view.verticalHeader().setVisible(False)  # the rank column says where a row is
        header = view.horizontalHeader()
        # Fitted to the contents when a document is shown (fit_columns): the
        # widths here only hold until then.
        header.setDefaultSectionSize(80)
        # The rows in view are measured (_measure_rows_in_view; Qt's default,
        # 1000 rows, would cost a query switch tens of milliseconds on a long
        # list, and a grid's cell is measured through Python several times).
        header.setResizeContentsPrecision(_MEASURED_ROWS)
        view.setWordWrap(False)
        # Long ids (clueweb09-en0000-12-34567, URLs) differ at their ends (the
        # source column's delegate keeps more of the end: delegates.end_elided).
        view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        number = NumberDelegate(decimals, view)
        view.setItemDelegate(number)
        view.setItemDelegateForColumn(GridColumn.SOURCE, IdDelegate(decimals, view, ends=True))
        view.setItemDelegateForColumn(GridColumn.RANK, RankDelegate(decimals, view))
        view.setItemDelegateForColumn(GridColumn.SCORE, ScoreDelegate(decimals, view))
        view.setItemDelegateForColumn(GridColumn.GRADE, GradeDelegate(decimals, view))
        view.setItemDelegateForColumn(GridColumn.ORIGINAL, GradeWordsDelegate(decimals, view))
        view.setItemDelegateForColumn(GridColumn.NOTE, NoteDelegate(decimals, view))
        return view

    def _ideal(self) -> IdealInventory | None:
        ev = self.not_retrieved_model.evaluation
        return ev.conventions.ideal if ev is not None else None

    def _not_retrieved_text(self, n: int) -> str:
        """What the judged but not retrieved candidates are to the NDCG: in
        the ideal list only where the ideal inventory takes every judged
        candidate, nowhere where it takes the ranked ones only."""
        self._shown_ideal = ideal = self._ideal()
        if not n:
            return self.tr("Judged but not retrieved: none for this query.")
        if ideal is IdealInventory.RANKED:
            return self.tr("Judged but not retrieved: {0}, no rank; not in the "
                           "ideal list (ideal inventory: {1}).").format(
                               counted(n, "candidate"), ideal.label)
        return self.tr("Judged but not retrieved: {0}, no rank; they count in the "
                       "ideal list only.").format(counted(n, "candidate"))

    def _follow_ideal(self) -> None:
        """The line again when the ideal inventory changed (a convention
        edit refreshes the rows' cells, it does not reset the model)."""
        if self._ideal() is not self._shown_ideal:
            self._update_label()

    def _update_label(self) -> None:
        n = self.not_retrieved_model.rowCount()
        # A query nothing ranks (judgments only): its judged candidates are
        # the whole list to grade, in their file's order; the empty ranked
        # grid gives them its room instead of squeezing them below it.
        unranked = n > 0 and self.model.rowCount() == 0
        if unranked and self.grid.hasFocus():
            self.not_retrieved.setFocus()
        self.grid.setVisible(not unranked)
        if unranked:
            self.not_retrieved_label.setText(self.tr(
                "No ranking for this query: {0} in the order of the file, "
                "to grade here; no NDCG is claimed for that order.").format(
                    counted(n, "judged candidate")))
        else:
            self.not_retrieved_label.setText(self._not_retrieved_text(n))
        self.not_retrieved_label.setToolTip(self.tr(
            "Candidates the qrels or the sheet judge but the ranking does not list. The "
            "'{0}' and '{1}' columns show what they add to the ideal list; they "
            "count there only when the ideal inventory is 'every judged candidate'.").format(
                COLUMN_TITLES["ideal_gain"], COLUMN_TITLES["ideal_contribution"]))
        # An empty table is no use: the line above says there is nothing, and
        # the ranked grid gets the room.
        self.not_retrieved.setVisible(n > 0)
        self.not_retrieved_label.setWordWrap(n > 0)
        most = self.not_retrieved_label.sizeHint().height()
        self._lower.setMaximumHeight(16777215 if n else most)  # (16777215: Qt's no limit)
        self._share_height()

    def _handle_dragged(self) -> None:
        self._dragged = True

    def follow_rows(self) -> None:
        """The splitter's heights follow the rows again (View > Reset layout),
        a handle dragged before forgotten."""
        self._dragged = False
        self._share_height()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # (shown too: a split hidden while the launch read a run was shared
        # only then, each share returning, and shown at its size: Qt's own
        # split left, 1.5 of 50 judged but not retrieved rows at 1366x768)
        if watched is self.split and event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self._share_height()
        elif watched in self._ports and isinstance(event, QResizeEvent) and (
                event.size().width() != event.oldSize().width()):
            self._follow_width(self._ports[watched])
        return super().eventFilter(watched, event)

    def _share_height(self) -> None:
        """The splitter's height shared by the rows: where both lists fit,
        the judged but not retrieved one as tall as its rows and the ranked
        one the rest; where they do not, the not retrieved one as tall as
        the ranked one leaves it, but :data:`NOT_RETRIEVED_LEAST` rows (up
        to half the height), the rest scrolled. Its stretch factor alone
        gave it a fifth of the height: at 10 pt and 1280x800 it showed one
        of 6 rows below a ranked list of 10 with 200 px to spare. Once the
        reviewer drags the handle, the heights are theirs."""
        n = self.not_retrieved_model.rowCount()
        if self._dragged or not n or self.grid.isHidden() or not self.split.isVisible():
            return
        total = self.split.height() - self.split.handleWidth()
        label = self.not_retrieved_label
        box = self._lower.layout()
        spacing = max(box.spacing(), 0) if box is not None else 0
        above = label.heightForWidth(self._lower.width()) if label.wordWrap() else -1
        above = (above if above > 0 else label.sizeHint().height()) + spacing
        lower_all = above + _rows_height(self.not_retrieved, n)
        lower_least = above + _rows_height(self.not_retrieved, min(n, NOT_RETRIEVED_LEAST))
        ranked = _rows_height(self.grid, self.model.rowCount())
        lower = min(lower_all, max(total - ranked, min(lower_least, total // 2)))
        if self.split.sizes() != [total - lower, lower]:
            self.split.setSizes([total - lower, lower])
