"""Delegates: rounding for display, the grade editor, tie brackets.

Delegates are dumb: they format what the model returns and hand edits back
to the model (which asks the window for an undo command). Only camelCase Qt
overrides are used; Qt never calls snake_case ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QLocale,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor, QFontMetrics, QFontMetricsF, QHelpEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolTip,
    QWidget,
)

from app.models.roles import (
    CHOICES_ROLE,
    DIGITS_ROLE,
    EDITED_ROLE,
    LABEL_ROLE,
    TIE_ROLE,
    WHOLE_ROLE,
)
from app.shown import CELL_SHOWN, QUERY_APART, id_pieces, marked, shown_id
from core.analysis.bounds import UNBOUNDED_TEXT
from core.engine.columns import EDITED_MARK
from core.model.numbers import apart_digits, fixed_text, shown_text

__all__ = ["GradeDelegate", "GradeWordsDelegate", "IdDelegate", "NumberDelegate", "RankDelegate",
           "ScoreDelegate", "bound_text", "bounds_texts", "end_elided", "format_number",
           "grade_text", "grade_words", "signed_text"]

Index = QModelIndex | QPersistentModelIndex

_BRACKET = {"first": "┌", "middle": "│", "last": "└"}


def format_number(value: Any, decimals: int) -> str:
    """A model value as display text: floats rounded, other values as they are."""
    if value is None:
        return "—"
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        return fixed_text(value, decimals)
    return str(value)


def bound_text(value: float, decimals: int) -> str:
    """An interval's bound as display text: a side with no finite bound
    (:data:`core.analysis.bounds.UNBOUNDED`) named, never a number."""
    return UNBOUNDED_TEXT if math.isinf(value) else format_number(value, decimals)


def bounds_texts(low: float, high: float, decimals: int) -> tuple[str, str]:
    """An interval's two bounds as display text (:func:`bound_text`), with
    the digits that write them apart where ``decimals`` would not
    (:func:`core.model.numbers.apart_digits`: "between 0.99996 and 1.00000",
    never "between 1.0000 and 1.0000")."""
    d = apart_digits(low, high, decimals)
    return bound_text(low, d), bound_text(high, d)


def grade_text(value: float, decimals: int) -> str:
    """A grade as display text: a whole grade as it is typed, a fraction (a
    consensus of several annotators) at the display precision like every
    other number (``1.3333333333333333`` -> ``1.3333`` at 4 decimals): core's
    one rule for a declared number shown (:func:`core.model.numbers.shown_text`)."""
    return shown_text(value, decimals)


def grade_words(text: str, decimals: int) -> str:
    """A grade as written for people (``2``, ``unknown``, ``1.3333333333333333``:
    :attr:`core.model.edits.GradeValue.text`) with a fraction at the display
    rounding (:func:`grade_text`); anything else as it is."""
    try:
        number = float(text)
    except ValueError:
        return text
    if math.isfinite(number) and not number.is_integer():
        return grade_text(number, decimals)
    return text


def signed_text(value: Any, decimals: int) -> str:
    """:func:`format_number` with an explicit sign on a number not below 0 (a delta)."""
    text = format_number(value, decimals)
    if isinstance(value, float) and not math.isnan(value) and value >= 0:
        return "+" + text
    return text


class NumberDelegate(QStyledItemDelegate):
    """Rounds floats for display only; the model keeps full precision."""

    def __init__(self, decimals: Callable[[], int], parent: Any = None) -> None:
        super().__init__(parent)
        self._decimals = decimals

    def displayText(self, value: Any, locale: QLocale | QLocale.Language) -> str:
        return format_number(value, self._decimals())

    def helpEvent(self, event: QHelpEvent, view: QAbstractItemView,
                  option: QStyleOptionViewItem,
                  index: QModelIndex | QPersistentModelIndex) -> bool:
        """A cell whose text is elided (a long source id in a capped column)
        and that has no tooltip of its own shows its whole text on hover
        (asked only on a tooltip event: painting never comes here)."""
        if (event is not None and event.type() == QEvent.Type.ToolTip and index.isValid()
                and not index.data(Qt.ItemDataRole.ToolTipRole)):
            text = index.data(Qt.ItemDataRole.DisplayRole)
            if isinstance(text, str) and option.fontMetrics.horizontalAdvance(
                    text) + 8 > option.rect.width():
                QToolTip.showText(event.globalPos(), text, view.viewport(), option.rect)
                return True
        return super().helpEvent(event, view, option, index)


#: The share of an elided source id's room its start keeps (the rest its
#: end's): ids differ most at their ends.
ID_START = 1 / 4


def end_elided(text: str, metrics: QFontMetrics | QFontMetricsF, room: float) -> str:
    """``text`` cut to ``room`` pixels in the middle, its end keeping three
    times the room of its start: a RAG team's passage ids differ at their ends
    (``https://docs.acme.io/security/api-keys#rotating-keys`` and
    ``...#revoking-keys``, ``handbook.pdf#chunk-12``, as
    ``clueweb09-en0000-12-34567`` does), which Qt's middle elision cut to
    the same ``https:…g-keys`` in a 15-character column (now ``htt…ting-keys``
    and ``htt…king-keys``; a third of the room to the start kept too little of
    the end: ``http…ing-keys`` twice)."""
    if metrics.horizontalAdvance(text) <= room:
        return text
    left = room - metrics.horizontalAdvance("…")
    if left <= 0:
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, int(room))
    head = _fitting(text, metrics, left * ID_START, start=True)
    tail = _fitting(text[len(head):], metrics, left - metrics.horizontalAdvance(head),
                    start=False)
    return f"{head}…{tail}"


def _fitting(text: str, metrics: QFontMetrics | QFontMetricsF, room: float, *,
             start: bool) -> str:
    """The longest start (or end) of ``text`` at most ``room`` pixels wide."""
    lo, hi = 0, len(text)
    while lo < hi:  # (bisected: an id cell is cut at up to CELL_SHOWN characters)
        mid = (lo + hi + 1) // 2
        piece = text[:mid] if start else text[len(text) - mid:]
        if metrics.horizontalAdvance(piece) <= room:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] if start else text[len(text) - lo:]


class IdDelegate(NumberDelegate):
    """An id's cell (a source's, a query's): the marks that stand for its
    line breaks and tabs (:func:`app.shown.id_pieces`) drawn half-way between the
    text's colour and the cell's, as an editor draws its white-space marks,
    so that an id holding a line break and one holding the mark ``⏎``
    itself look apart without hovering. The id's text is unchanged; an id
    with no line break or tab is painted as any cell (one more model call),
    cut in the middle where it does not fit, with ``ends`` (the grid's
    source ids) its end keeping three times its start's room
    (:func:`end_elided`)."""

    def __init__(self, decimals: Callable[[], int], parent: Any = None, *,
                 ends: bool = False) -> None:
        super().__init__(decimals, parent)
        self._ends = ends

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        # a query shown with its text ("q017 · how do I renew…"): cut at its
        # end, the id and the text's start kept (app.shown.shown_query). The
        # id is asked only of a text that can be one: a painted id's cell
        # asked it twice (here and in paint; the navigator's 20 query cells
        # filled in 0.44 -> 0.35 ms at 1280x800, hopen15)
        text = option.text
        if QUERY_APART in text:
            whole = index.data(WHOLE_ROLE)
            if isinstance(whole, str) and text.startswith(
                    shown_id(whole, CELL_SHOWN) + QUERY_APART):
                option.textElideMode = Qt.TextElideMode.ElideRight

    def shown(self, opt: QStyleOptionViewItem) -> str:
        """The text of ``opt`` (initialised) as an ``ends`` cell draws it:
        cut by :func:`end_elided` to the room the style lays it out in,
        measured in fractional pixels as the style measures it (measured
        in whole ones, 'handbook.pdf#chunk-12' was 76 px, laid out 76.23:
        the style cut 'ha…hunk-12' once more, 'ha…f#…nk-12')."""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        return end_elided(opt.text, QFontMetricsF(opt.font), rect.width() - 2 * margin)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        whole = index.data(WHOLE_ROLE)
        if not isinstance(whole, str) or not marked(whole):
            if not self._ends:
                super().paint(painter, option, index)
                return
            opt = QStyleOptionViewItem(option)
            self.initStyleOption(opt, index)
            opt.text = self.shown(opt)
            widget = opt.widget
            style = widget.style() if widget is not None else QApplication.style()
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        opt.text = ""  # the background, the selection and the focus, no text
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        rect = rect.adjusted(margin, 0, -margin, 0)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole
        text = opt.palette.color(role.HighlightedText if selected else role.Text)
        mark = _between(text, opt.palette.color(role.Highlight if selected else role.Base))
        metrics, x, end = opt.fontMetrics, rect.left(), rect.left() + rect.width()
        painter.save()
        painter.setFont(opt.font)
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        for piece, is_mark in id_pieces(whole, CELL_SHOWN):
            room = end - x
            if room <= 0:
                break
            width = metrics.horizontalAdvance(piece)
            if width > room:  # the rest cut at the cell's end
                piece = metrics.elidedText(piece, Qt.TextElideMode.ElideRight, room)
            painter.setPen(mark if is_mark else text)
            painter.drawText(x, rect.top(), room, rect.height(), align, piece)
            x += width
        painter.restore()


def _between(a: QColor, b: QColor) -> QColor:
    """The colour half-way between ``a`` and ``b``."""
    return QColor((a.red() + b.red()) // 2, (a.green() + b.green()) // 2,
                  (a.blue() + b.blue()) // 2)


class GradeWordsDelegate(NumberDelegate):
    """A grade written as text (the audit log's before and after: ``2``,
    ``unknown``, ``1.3333333333333333``) or as a number (a level of the scale,
    a gain table's entry) shown as the grid shows it: a fraction at the
    display rounding (:func:`grade_text`), a whole number as it is typed,
    words as they are."""

    def displayText(self, value: Any, locale: QLocale | QLocale.Language) -> str:
        if isinstance(value, str):
            return grade_words(value, self._decimals())
        if isinstance(value, float) and math.isfinite(value):
            return grade_text(value, self._decimals())
        return super().displayText(value, locale)


class NoteDelegate(NumberDelegate):
    """The reviewer's note: elided at its end (a note reads from its start;
    the whole on hover, the model's tooltip), edited in place in a line
    editor (``noteEditor``) that keeps the note's line breaks as typed in a
    spreadsheet; Enter keeps the text, Escape cancels. F2 and a double click
    add to the note (the cursor at its end); a text key starts a new one."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: Index) -> QWidget:
        editor = super().createEditor(parent, option, index)
        editor.setObjectName("noteEditor")
        if isinstance(editor, QLineEdit):
            # F2 or a double click adds to the note, as in a spreadsheet: the
            # cursor at its end, once the view has selected it all (a key
            # that opened the editor has replaced it already: typing starts
            # a new note)
            QTimer.singleShot(0, editor, lambda: _to_the_end(editor))
        return editor

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: Index) -> None:
        """The editor over its cell, and as wide as the note it holds up to
        the view's right edge (over the cells beside it, as a spreadsheet's).
        Qt's line editor widens so when it opens and as one types, but the
        view's layout of its editors (a resize, a scroll, the window shown)
        put it back over its cell alone: a note in a column 12 characters
        wide was then edited through a slit showing its last words."""
        super().updateEditorGeometry(editor, option, index)
        port = editor.parentWidget()
        if not isinstance(editor, QLineEdit) or port is None:
            return
        box = editor.geometry()
        wanted = editor.fontMetrics().horizontalAdvance(editor.text()) + 16
        room = port.width() - box.left()
        if wanted > box.width() and room > box.width():
            editor.resize(min(wanted, room), box.height())


def _to_the_end(editor: QLineEdit) -> None:
    editor.deselect()
    editor.end(False)


class ScoreDelegate(NumberDelegate):
    """Rounded scores, each with the digits it needs to be told apart from
    the scores above and below it that differ (``DIGITS_ROLE``; equal scores,
    a tie, show equal); the editor is read-only and shows the full precision."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        value = index.data(Qt.ItemDataRole.DisplayRole)
        needed = index.data(DIGITS_ROLE)
        if isinstance(value, float) and isinstance(needed, int) and needed > self._decimals():
            option.text = format_number(value, needed)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: Index) -> QWidget:
        editor = QLineEdit(parent)
        editor.setReadOnly(True)
        editor.setObjectName("scoreEditor")
        return editor

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if isinstance(editor, QLineEdit):
            editor.setText(str(index.data(Qt.ItemDataRole.EditRole)))
            editor.selectAll()

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:
        """Scores are the ranker's output: nothing to write back."""


class RankDelegate(NumberDelegate):
    """Draws a bracket beside the ranks of a tie group."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        place = index.data(TIE_ROLE)
        if place:
            option.text = f"{_BRACKET[str(place)]} {option.text}"


class GradeDelegate(NumberDelegate):
    """Shows a grade with its rubric label (an unrateable one with its
    reason, an unknown one with why no one judged it: ``unknown: declined
    by 2 annotators``), an edited one (``EDITED_ROLE``) after
    :data:`~core.engine.columns.EDITED_MARK`; edits through a combo box of the
    rubric's grades plus unknown and unrateable (other numbers may be typed)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        value = index.data(Qt.ItemDataRole.DisplayRole)
        label = index.data(LABEL_ROLE)
        if isinstance(value, float):
            text = grade_text(value, self._decimals())
            option.text = f"{text} - {label}" if label else text
        elif label:  # unrateable: its reason (what the editor and a paste read back); unknown: why
            option.text = f"{value}: {label}"
        if index.data(EDITED_ROLE):
            option.text = f"{EDITED_MARK} {option.text}"

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: Index) -> QWidget:
        combo = QComboBox(parent)
        combo.setObjectName("gradeEditor")
        combo.setEditable(True)
        combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for text, _grade, _state in index.data(CHOICES_ROLE) or []:
            combo.addItem(text)
        # Picking an item or pressing Return in the text commits at once.
        combo.activated.connect(lambda _row: self._commit(combo))
        line = combo.lineEdit()
        if line is not None:
            line.returnPressed.connect(lambda: self._commit(combo))
        return combo

    def _commit(self, editor: QComboBox) -> None:
        # Return in the text fires both returnPressed and activated: commit once.
        if editor.property("committed"):
            return
        editor.setProperty("committed", True)
        self.commitData.emit(editor)
        self.closeEditor.emit(editor, QStyledItemDelegate.EndEditHint.NoHint)

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if not isinstance(editor, QComboBox):
            return
        current = str(index.data(Qt.ItemDataRole.EditRole))
        for row in range(editor.count()):
            text = editor.itemText(row)
            if text == current or text.split(" - ", 1)[0] == current:
                editor.setCurrentIndex(row)
                return
        editor.setEditText(current)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)
