"""The audit log view: every grade change, append-only (undo appends too)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QFontMetricsF, QPainter, QPaintEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

from app.accessibility import label_control, tab_passes
from app.delegates import GradeWordsDelegate, IdDelegate, NumberDelegate
from app.models.audit import AuditColumn, AuditModel
from app.panels.fit import fit_columns, header_widths, measured_rows, text_margins, text_width
from app.panels.grid import SOURCE_LEAST, SOURCE_READ
from core.model.audit import OUTSIDE_ORIGIN, AuditEntry

__all__ = ["TALL_LINES", "AuditLogView"]

#: The id columns: whole up to SOURCE_READ characters where the log has the
#: room, giving way first, down to SOURCE_LEAST characters (cut in their
#: middle, whole on hover), as the grid's source does (:meth:`AuditLogView._fit_ids`).
_IDS = (AuditColumn.QUERY, AuditColumn.SOURCE)

#: The most lines a row of a convention's change or of an edit made outside
#: the app takes, its texts wrapped at their words (a longer text is cut at
#: the last line's end, whole on hover): a grade's row keeps one line.
TALL_LINES = 4


def _tall(entry: AuditEntry) -> bool:
    """Whether ``entry``'s row wraps its texts: a convention's change
    (``<convention> = <value>`` before and after), of a note (the
    reviewer's text, ``note: <text>``) or an edit made outside the app
    ("seen on reopening, <time>", "spreadsheet edit", "outside the app")."""
    return (entry.convention or entry.about_note or entry.about_text
            or entry.origin == OUTSIDE_ORIGIN)


class _TimeKept(QStyledItemDelegate):
    """A When cell cut at its left, so the time stays whole when the column
    gives way ("…ening, 16:05:08"; the whole stamp on hover)."""

    def initStyleOption(self, option: QStyleOptionViewItem,
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideLeft


class _BothEnds(GradeWordsDelegate):
    """A Before or After cell cut in its middle when the column gives way, so
    a convention's change keeps which convention and its value ("query
    with…= undefined"; the whole on hover)."""

    def initStyleOption(self, option: QStyleOptionViewItem,
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


class _IdKept(IdDelegate):
    """A Query or Source cell: the id on its line, cut in its middle (a
    source's end kept: ``ends``) where its column has not the room (whole
    on hover), never wrapped: the log
    wraps a tall row's texts at their words (:data:`TALL_LINES`), and a
    40-character URL wrapped at its slashes onto two lines in a grade's
    row a line high ("https://docs.example.com/queries/" over "q-00000",
    its second line cut by the row's bottom: seen under Xvfb at 1366x768
    and 1920x1080)."""

    def initStyleOption(self, option: QStyleOptionViewItem,
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.features &= ~QStyleOptionViewItem.ViewItemFeature.WrapText
        option.textElideMode = Qt.TextElideMode.ElideMiddle


class AuditLogView(QTableView):
    """The document's audit log (objectName ``auditLog``); while it is empty
    it says what will appear in it."""

    def __init__(self, parent: Any = None, decimals: Callable[[], int] = lambda: 4) -> None:
        super().__init__(parent)
        self.setObjectName("auditLog")
        label_control(self, self.tr("Audit log"), self.tr("Every grade change, with who and when"))
        self.audit_model = AuditModel(self)
        self.setModel(self.audit_model)
        # The time a typed grade took, to a tenth of a second (full precision kept).
        self.setItemDelegateForColumn(AuditColumn.SECONDS, NumberDelegate(lambda: 1, self))
        self.setItemDelegateForColumn(AuditColumn.WHEN, _TimeKept(self))
        # (a source's end kept as the grid keeps it: "http…govdocs/pa-0002")
        self.setItemDelegateForColumn(AuditColumn.QUERY, _IdKept(decimals, self))
        self.setItemDelegateForColumn(AuditColumn.SOURCE, _IdKept(decimals, self, ends=True))
        #: The When column's width as fitted to its contents (it gives way to
        #: the note from there: :meth:`_fit_when`).
        self._when_width = 0
        #: The id columns' widths as their ids ask, up to SOURCE_READ characters
        #: (they give way to the note from there: :meth:`_fit_ids`).
        self._ids_width: dict[int, int] = {}
        # A consensus grade (4/3) at the display rounding, as the grid shows it.
        for column in (AuditColumn.BEFORE, AuditColumn.AFTER):
            self.setItemDelegateForColumn(column, _BothEnds(decimals, self))
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        tab_passes(self)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().setVisible(False)
        # Only the tall rows (_tall) are taller than a line: there the texts
        # wrap at their words; elsewhere a line is cut as each column says.
        self.setWordWrap(True)
        #: The rows of entries whose texts wrap (:func:`_tall`), in order.
        self._tall_rows: list[int] = []
        #: How many of them :meth:`_fit_rows` fitted, and at which widths.
        self._rows_fitted = 0
        self._rows_widths: tuple[object, ...] = ()
        #: The widest word of each column's tall rows, by column and font:
        #: how many tall rows it covers, and its width (:meth:`_widest_word`).
        self._tall_words: dict[tuple[int, str], tuple[int, int]] = {}
        # Fitted to the rows in view whenever entries come (one per edit) or
        # the view is shown; the note takes what is left.
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(AuditColumn.NOTE, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        # Only the rows in view are measured (Qt's default also measures up to
        # 1000 more: far too slow once per edit on a long log).
        header.setResizeContentsPrecision(0)
        self.audit_model.rowsInserted.connect(self._entries_added)
        self.audit_model.modelReset.connect(self._entries_reset)
        self.placeholder = self.tr(
            "No grade changes yet. Every grade you set, paste or undo, and every note you "
            "write, is listed here with your name and the time, and saved with the workbook.")

    def _entries_reset(self) -> None:
        model = self.audit_model
        self._tall_rows = [r for r in range(model.rowCount()) if _tall(model.entry(r))]
        self._rows_fitted, self._rows_widths = 0, ()  # (a reset's rows are a line each)
        self._tall_words.clear()
        self.fit_columns()

    def fit_columns(self) -> None:
        fit_columns(self, most=self._widest(), skip=(AuditColumn.NOTE, *_IDS))
        fit_columns(self, most=self._ids_most(), skip=tuple(
            c for c in range(self.audit_model.columnCount()) if c not in _IDS))
        self._ids_width = {c: self.columnWidth(c) for c in _IDS}
        # (a tall row out of view still has its words whole: _fit_rows wraps them)
        header = self.horizontalHeader()
        for c in (AuditColumn.WHEN, AuditColumn.WHO, AuditColumn.BEFORE, AuditColumn.AFTER,
                  AuditColumn.ORIGIN):
            word = self._widest_word(c)
            if word > header.sectionSize(c):
                header.resizeSection(c, word)
        self._when_width = self.horizontalHeader().sectionSize(AuditColumn.WHEN)
        self._fit_note()

    def _ids_most(self) -> int:
        """The widest an id column asks for: :data:`~app.panels.grid.SOURCE_READ`
        characters (a 40-character URL whole), the others' cap at least."""
        return max(self._widest(), self.fontMetrics().averageCharWidth() * SOURCE_READ + 8)

    def _fit_ids(self) -> None:
        """The Query and Source columns as wide as their ids ask (up to
        :meth:`_ids_most`) where the other columns leave the room for them
        and the note's want; else that room shared alike by them and the
        note (one wanting less keeps its want), the ids down to
        :data:`~app.panels.grid.SOURCE_LEAST` characters (cut in their
        middle, whole on hover), before the When and the changes give way:
        at 1366x768 a 40-character URL capped at 260 px left the note
        35 px and the log scrolled sideways; at 1920x1080 the ids stayed
        cut at 260 px with the room to spare."""
        header, ids = self.horizontalHeader(), [c for c in _IDS if not self.isColumnHidden(c)]
        if not ids or not self._ids_width:
            return
        least = header_widths(self)
        floor = self.fontMetrics().averageCharWidth() * SOURCE_LEAST + 8
        wants = {c: self._ids_width.get(c, header.sectionSize(c)) for c in ids}
        wants[AuditColumn.NOTE] = self._note_wanted()
        left = self.viewport().width() - self._others(*ids)
        for n, c in enumerate(sorted(wants, key=wants.__getitem__)):
            share = min(wants[c], left // (len(wants) - n))
            width = share if c == AuditColumn.NOTE else max(least[c], min(wants[c], floor), share)
            left -= width
            if c != AuditColumn.NOTE and width != header.sectionSize(c):
                header.resizeSection(c, width)

    def _fit_when(self) -> None:
        """A stamp seen on reopening ("seen on reopening, 16:05:08": 181 px
        at 9 pt) gives way to the note before the note is cut, down to the
        time itself of the rows in view ("…16:05:08": cut at its left,
        whole on hover). At 1280x800 the note of a grade edited in the
        spreadsheet read "ch…" beside the whole stamp; a log of the app's
        own entries (their time alone) is as it was. Then Before and After
        give way (:meth:`_fit_changes`)."""
        header = self.horizontalHeader()
        when = AuditColumn.WHEN
        fitted = max(self._when_width, header.sectionSize(when))
        least = header_widths(self)
        model, metrics = self.audit_model, QFontMetricsF(self.font())
        times = [str(model.index(r, when).data()).rsplit(", ", 1)[-1] for r in measured_rows(self)]
        time = max((text_width(metrics, "\u2026" + t) for t in times), default=0)
        floor = min(fitted, max(least[when], time + text_margins(self), self._widest_word(when)))
        if floor < fitted:
            room = self.viewport().width() - self._others(when) - self._note_wanted()
            width = max(floor, min(fitted, room))
            if width != header.sectionSize(when):
                header.resizeSection(when, width)
        self._fit_changes()

    def _fit_changes(self) -> None:
        """Before and After give way, the room left shared alike by them and
        the note (one wanting less keeps its want), down to their widest
        word (the note: its first word), a convention's change wrapped at
        its words in its row (:data:`TALL_LINES`); then Who and Origin, down
        to theirs. A convention's change (``query with no ranking =
        undefined``: 215 px at 9 pt) filled both with its whole text, and at
        1280x800 the note read "ed…", Origin "outs…", and the log scrolled
        sideways; cut in its middle then, it read "q…d" in ~45 px (whole only
        on hover). A grade's change (``2``, ``unknown``) is as it was."""
        header = self.horizontalHeader()
        changes = (AuditColumn.BEFORE, AuditColumn.AFTER)
        wants = {c: header.sectionSize(c) for c in changes}
        wants[AuditColumn.NOTE] = self._note_wanted()
        room = self.viewport().width() - self._others(*changes)
        if sum(wants.values()) <= room:
            return
        least = header_widths(self)
        for c in (*changes, AuditColumn.WHO, AuditColumn.ORIGIN):
            least[c] = max(least[c], self._widest_word(c))
        least[AuditColumn.NOTE] = max(least[AuditColumn.NOTE],
                                      self._widest_word(AuditColumn.NOTE, first=True))
        # Shared alike, a column wanting less than its share keeping its want.
        left, given = room, {}
        for n, c in enumerate(sorted(wants, key=wants.__getitem__)):
            given[c] = max(least[c], min(wants[c], left // (len(wants) - n)))
            left -= given[c]
        for c in changes:
            if given[c] != header.sectionSize(c):
                header.resizeSection(c, given[c])
        for c in (AuditColumn.WHO, AuditColumn.ORIGIN):  # then they wrap too
            over = -left
            if over <= 0:
                return
            width = header.sectionSize(c)
            narrower = max(least[c], width - over)
            header.resizeSection(c, narrower)
            left += width - narrower

    def _widest_word(self, column: int, *, first: bool = False) -> int:
        """The width of the widest word of ``column``'s texts in the rows in
        view and in the tall rows (:func:`_tall`: their heights change which
        rows are in view; ``first``: of each text's first word, with an
        ellipsis after it, in the rows in view), with the cell's margins; 0
        for none."""
        widest = self._words_width(column, measured_rows(self), first=first)
        if first:
            return widest
        # The tall rows' words measured once each (the log only grows), per font.
        key = (column, self.font().key())
        done, width = self._tall_words.get(key, (0, 0))
        if done < len(self._tall_rows):
            width = max(width, self._words_width(column, self._tall_rows[done:]))
            self._tall_words[key] = (len(self._tall_rows), width)
        return max(widest, width)

    def _words_width(self, column: int, rows: Sequence[int], *, first: bool = False) -> int:
        model, metrics = self.audit_model, QFontMetricsF(self.font())
        words: set[str] = set()
        for r in rows:
            text = str(model.index(r, column).data() or "")
            words.update([text.split(" ", 1)[0] + "\u2026"] if first and text else text.split())
        return max((text_width(metrics, w) + text_margins(self) for w in words),
                   default=0)

    def _fit_rows(self) -> None:
        """The tall rows (:func:`_tall`) as high as their texts wrapped in
        their columns, up to :data:`TALL_LINES` lines; the others a line.
        The rows of the same texts are measured once (a spreadsheet's edits
        repeat theirs: "spreadsheet edit", "outside the app"), and while the
        widths stay, only the rows not fitted yet (an edit's entry); ids are
        not measured (a long one wraps within the lines the others take)."""
        header = self.verticalHeader()
        line, metrics = header.defaultSectionSize(), self.fontMetrics()
        spacing, margins, model = metrics.lineSpacing(), text_margins(self), self.audit_model
        columns = [(c, self.columnWidth(c) - margins) for c in (
            AuditColumn.WHEN, AuditColumn.WHO, AuditColumn.BEFORE, AuditColumn.AFTER,
            AuditColumn.NOTE, AuditColumn.ORIGIN)]
        # Only the rows not fitted yet while the widths stay (an edit's one entry).
        done = self._rows_fitted if self._rows_widths == (columns, line, spacing) else 0
        self._rows_widths, self._rows_fitted = (columns, line, spacing), len(self._tall_rows)
        flags = int(Qt.TextFlag.TextWordWrap)
        heights: dict[tuple[object, ...], int] = {}  # by the texts measured
        for row in self._tall_rows[done:]:
            e = model.entry(row)
            key = (e.when, e.who, e.before, e.after, e.note, e.origin, e.convention,
                   e.about_note, e.about_text)
            height = heights.get(key, 0)
            if not height:
                most = 1
                for c, room in columns:
                    text = str(model.index(row, c).data() or "")
                    box = metrics.boundingRect(0, 0, max(1, room), 1 << 20, flags, text)
                    most = max(most, -(-box.height() // spacing))
                height = heights[key] = max(line, min(most, TALL_LINES) * spacing + 6)
            if height != header.sectionSize(row):
                header.resizeSection(row, height)

    def _others(self, *columns: int) -> int:
        """The width of the shown columns but the note and ``columns``."""
        header = self.horizontalHeader()
        return sum(header.sectionSize(c) for c in range(header.count())
                   if c not in (*columns, AuditColumn.NOTE) and not self.isColumnHidden(c))

    def _note_wanted(self) -> int:
        """The note's width as it asks: its text up to :meth:`_widest`, its
        header's at least."""
        note = AuditColumn.NOTE
        return max(header_widths(self)[note], min(self._widest(), self.sizeHintForColumn(note)))

    def _fit_note(self) -> None:
        """The note takes what the other columns leave (a longer one elided,
        whole on hover), but never less than its header asks: in a view too
        narrow for that (a 2x screen) it keeps its header's width and the view
        scrolls, instead of being squeezed to a cut header. (It kept 200 px
        for its text: at 16 pt on a 1280x800 screen Seconds was then cut at
        the log's edge.)"""
        self._fit_ids()
        self._fit_when()
        header = self.horizontalHeader()
        note = AuditColumn.NOTE
        others = sum(header.sectionSize(c) for c in range(header.count())
                     if c != note and not self.isColumnHidden(c))
        least = header_widths(self)[note]
        room = self.viewport().width() - others
        stretch = QHeaderView.ResizeMode.Stretch
        if room >= least:
            if header.sectionResizeMode(note) != stretch:
                header.setSectionResizeMode(note, stretch)
        else:
            if header.sectionResizeMode(note) == stretch:
                header.setSectionResizeMode(note, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(note, least)
        self._fit_rows()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_note()

    def _widest(self) -> int:
        """No column wider than this unless its header needs it: 260 px, or a
        date and time in a larger font."""
        return max(260, self.fontMetrics().horizontalAdvance("0000-00-00 00:00") + 16)

    def _entries_added(self, _parent: QModelIndex, first: int, last: int) -> None:
        """Scroll to the new entry and widen the columns it does not fit
        (only its own cells are measured: one entry per edit)."""
        model = self.audit_model
        self._tall_rows += [r for r in range(first, last + 1) if _tall(model.entry(r))]
        self.scrollToBottom()  # (the rows in view are the ones measured)
        row = self.audit_model.rowCount() - 1
        header = self.horizontalHeader()
        for col in range(self.audit_model.columnCount()):
            if col == AuditColumn.NOTE or row < 0:
                continue
            needed = self.sizeHintForIndex(self.audit_model.index(row, col)).width()
            most = self._ids_most() if col in _IDS else self._widest()
            wanted = min(most, needed + (1 if self.showGrid() else 0))
            if col in _IDS:  # (given its room by _fit_ids)
                self._ids_width[col] = max(self._ids_width.get(col, 0), wanted)
                continue
            if wanted > header.sectionSize(col):
                header.resizeSection(col, wanted)
                if col == AuditColumn.WHEN:
                    self._when_width = max(self._when_width, wanted)
        self._fit_note()
        # Once the tall rows have their heights, and the scroll bar its new range
        # (laid out later otherwise: an undo's last entries were cut at the foot).
        self.updateGeometries()
        self.scrollToBottom()

    def show_origin(self, origin: str) -> int:
        """Select the entries recorded from ``origin`` (a workbook's edits
        made outside the app) and bring them into view, the first at the top
        where they all fit; how many there are."""
        model = self.audit_model
        rows = [r for r in range(model.rowCount()) if model.entry(r).origin == origin]
        selection = QItemSelection()
        last = model.columnCount() - 1
        for r in rows:
            selection.select(model.index(r, 0), model.index(r, last))
        flags = QItemSelectionModel.SelectionFlag
        self.selectionModel().select(selection, flags.ClearAndSelect | flags.Rows)
        if rows:
            self.scrollTo(model.index(rows[-1], 0))
            self.scrollTo(model.index(rows[0], 0))
        return len(rows)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self.fit_columns)  # once laid out: the rows in view count

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.audit_model.rowCount():
            return
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().placeholderText().color())
        painter.drawText(self.viewport().rect().adjusted(12, 8, -12, -8),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
                             | Qt.TextFlag.TextWordWrap), self.placeholder)
