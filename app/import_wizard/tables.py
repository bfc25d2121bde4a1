"""The wizard's table models: the sheet's first rows, wide layouts' grade
columns, the labels no rule reads (with the grades the user gives them), and
an import report's issues and columns."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QWidget

from app.import_wizard.hints import in_the_wizard
from core.io.annotator import ColumnMapping, ImportReport, Issue, SheetPreview
from core.io.annotator.names import column_annotator
from core.io.annotator.positions import LINE, RecordPlaces
from core.io.annotator.scales import label_key
from core.io.safety import column_letters
from core.model.numbers import counted, number_text

__all__ = [
    "HEADER_COLUMN",
    "WHY_COLUMN",
    "ColumnsModel",
    "GradeColumnsModel",
    "IssueColumn",
    "IssuesModel",
    "LabelsModel",
    "PreviewModel",
    "column_name",
]

Index = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
EDIT = Qt.ItemDataRole.EditRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
CHECK = Qt.ItemDataRole.CheckStateRole


def column_name(col: int, header: list[str], letters: Sequence[str] = ()) -> str:
    """A sheet column as the wizard names it: its letter and header (``B: doc``).
    A reshaped sheet's column goes by its letter in the file (``letters``:
    ``I: ResponseId``, the grade by its items' ``R–W``); the query and the
    source, read from the items' headers, say so."""
    letter = letters[col] if col < len(letters) else column_letters(col + 1)
    label = header[col] if col < len(header) else ""
    if letters and not letter:
        return f"{label} (from the items' headers)"
    return f"{letter}: {label}" if label else letter


class PreviewModel(QAbstractTableModel):
    """The first rows of the sheet as read (text), under the detected header."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._preview: SheetPreview | None = None
        self._width = 0
        self._used: dict[int, str] = {}

    def set_preview(self, value: SheetPreview | None, mapping: ColumnMapping | None = None
                    ) -> None:
        self.beginResetModel()
        self._preview = value
        self._width = 0 if value is None else max(
            [len(value.header), *(len(r) for r in value.rows)])
        mapping = mapping or (value.mapping if value is not None else None)
        self._used = mapping.used_columns() if mapping is not None else {}
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self._preview is None else len(self._preview.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._width

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or self._preview is None or role not in (DISPLAY, TOOLTIP):
            return None
        row = self._preview.rows[index.row()]
        return row[index.column()] if index.column() < len(row) else ""

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if self._preview is None or role not in (DISPLAY, TOOLTIP):
            return None
        if orientation == Qt.Orientation.Vertical:  # the file's row, as the issues name it
            numbers = self._preview.row_numbers
            if role == TOOLTIP or not 0 <= section < len(numbers):
                return None
            return str(numbers[section])
        if not 0 <= section < self._width:
            return None
        name = column_name(section, self._preview.header, self._preview.letters)
        field = self._used.get(section)
        if role == TOOLTIP:
            return f"{name} — " + (f"read as {field}" if field else "not imported")
        return f"{name}\n→ {field}" if field else name


class GradeColumnsModel(QAbstractTableModel):
    """Wide layouts: which columns hold one annotator's grades, and whose."""

    class Column(IntEnum):
        COLUMN = 0
        ANNOTATOR = 1

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._header: list[str] = []
        self._letters: list[str] = []
        self._checked: list[bool] = []
        self._names: list[str] = []

    def set_columns(self, header: list[str], grades: tuple[tuple[int, str], ...],
                    letters: Sequence[str] = ()) -> None:
        self.beginResetModel()
        self._header = list(header)
        self._letters = list(letters)
        chosen = dict(grades)
        self._checked = [c in chosen for c in range(len(header))]
        self._names = [chosen.get(c) or column_annotator(self._header, c)
                       for c in range(len(header))]
        self.endResetModel()

    def grades(self) -> tuple[tuple[int, str], ...]:
        """The checked columns with their annotator names, as the mapping takes them."""
        return tuple((c, self._names[c]) for c, on in enumerate(self._checked) if on)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._header)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.Column)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == self.Column.COLUMN:
            return base | Qt.ItemFlag.ItemIsUserCheckable
        return base | Qt.ItemFlag.ItemIsEditable

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid():
            return None
        r, col = index.row(), index.column()
        if col == self.Column.COLUMN:
            if role == DISPLAY:
                return column_name(r, self._header, self._letters)
            if role == CHECK:
                return (Qt.CheckState.Checked if self._checked[r]
                        else Qt.CheckState.Unchecked)
            return None
        if role in (DISPLAY, EDIT):
            return self._names[r]
        return None

    def setData(self, index: Index, value: Any, role: int = EDIT) -> bool:
        if not index.isValid():
            return False
        r, col = index.row(), index.column()
        if col == self.Column.COLUMN and role == CHECK:
            on = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value)
            self._checked[r] = on
        elif col == self.Column.ANNOTATOR and role == EDIT and str(value).strip():
            self._names[r] = str(value).strip()
        else:
            return False
        self.dataChanged.emit(index, index, [role, DISPLAY])
        return True

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role != DISPLAY:
            return None
        if orientation == Qt.Orientation.Vertical:
            return str(section + 1) if 0 <= section < len(self._header) else None
        titles = {self.Column.COLUMN: self.tr("Grade column"),
                  self.Column.ANNOTATOR: self.tr("Annotator")}
        return titles.get(self.Column(section)) if 0 <= section < len(self.Column) else None


class LabelsModel(QAbstractTableModel):
    """The labels no rule reads: each with the cells holding it and the grade
    the user gives it (empty: its cells are rejected)."""

    class Column(IntEnum):
        LABEL = 0
        CELLS = 1
        GRADE = 2

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._labels: list[tuple[str, int]] = []
        self._grades: dict[str, float] = {}

    def set_labels(self, labels: dict[str, int]) -> None:
        self.beginResetModel()
        self._labels = list(labels.items())
        self._grades = {}
        self.endResetModel()

    def answers(self) -> dict[str, float]:
        """Label -> the grade the user gave it."""
        return dict(self._grades)

    def unanswered(self) -> list[str]:
        return [t for t, _ in self._labels if t not in self._grades]

    def give(self, grades: Mapping[str, float]) -> None:
        """Give each listed label the grade ``grades`` holds for its
        compared form (:func:`~core.io.annotator.scales.label_key`)."""
        for row, (text, _) in enumerate(self._labels):
            grade = grades.get(label_key(text))
            if grade is not None:
                self._grades[text] = grade
                at = self.index(row, self.Column.GRADE)
                self.dataChanged.emit(at, at, [DISPLAY, EDIT])

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._labels)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.Column)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return base | Qt.ItemFlag.ItemIsEditable if index.column() == self.Column.GRADE else base

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or role not in (DISPLAY, EDIT, TOOLTIP):
            return None
        text, cells = self._labels[index.row()]
        col = self.Column(index.column())
        if role == TOOLTIP:
            return (f"{text!r}: give it a grade, or leave it empty to reject its "
                    f"{counted(cells, 'cell')}")
        if col is self.Column.LABEL:
            return text
        if col is self.Column.CELLS:
            return cells
        grade = self._grades.get(text)
        return "" if grade is None else number_text(grade)

    def setData(self, index: Index, value: Any, role: int = EDIT) -> bool:
        if not index.isValid() or index.column() != self.Column.GRADE or role != EDIT:
            return False
        text = self._labels[index.row()][0]
        raw = str(value).strip().replace(",", ".")
        if not raw:
            self._grades.pop(text, None)
        else:
            try:
                grade = float(raw)
            except ValueError:
                return False
            if not math.isfinite(grade):
                return False
            self._grades[text] = grade
        self.dataChanged.emit(index, index, [DISPLAY, EDIT])
        return True

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role != DISPLAY or orientation != Qt.Orientation.Horizontal:
            return None
        titles = {self.Column.LABEL: self.tr("Label"), self.Column.CELLS: self.tr("Cells"),
                  self.Column.GRADE: self.tr("Grade")}
        return titles.get(self.Column(section)) if 0 <= section < len(self.Column) else None


class IssueColumn(IntEnum):
    KIND = 0
    ROW = 1
    COLUMN = 2
    PROBLEM = 3
    VALUE = 4


ISSUE_TITLES = {IssueColumn.KIND: "Kind", IssueColumn.ROW: "Row", IssueColumn.COLUMN: "Column",
                IssueColumn.PROBLEM: "Problem", IssueColumn.VALUE: "Value"}


class IssuesModel(QAbstractTableModel):
    """Every finding of an import report to look at, one per row, in
    reading order (:meth:`ImportReport.to_review`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._issues: list[Issue] = []
        self._records: RecordPlaces | None = None  # (a JSON export's: lines or records)

    def set_report(self, report: ImportReport | None) -> None:
        self.beginResetModel()
        self._issues = report.to_review() if report is not None else []
        self._records = report.records if report is not None else None
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, IssueColumn.ROW, IssueColumn.ROW)

    def issue(self, row: int) -> Issue:
        return self._issues[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._issues)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(IssueColumn)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or role not in (DISPLAY, TOOLTIP):
            return None
        issue = self._issues[index.row()]
        col = IssueColumn(index.column())
        if role == TOOLTIP:
            return issue.said(self._records)
        if col is IssueColumn.ROW:  # the file's own row (a JSON export's line or record)
            return issue.row
        return {IssueColumn.KIND: issue.kind, IssueColumn.COLUMN: issue.column,
                IssueColumn.PROBLEM: issue.problem, IssueColumn.VALUE: issue.value}[col]

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role != DISPLAY or orientation != Qt.Orientation.Horizontal:
            return None
        if not 0 <= section < len(IssueColumn):
            return None
        if section == IssueColumn.ROW and self._records is not None:
            return self.tr("Line") if self._records.unit == LINE else self.tr("Record")
        return self.tr(ISSUE_TITLES[IssueColumn(section)])


#: The columns table's titles, one per field of a column record.
COLUMN_TITLES = ("Column", "Header", "Role", "Why", "To use it")
#: The columns of the file's headers and of why a column has its role.
HEADER_COLUMN, WHY_COLUMN = COLUMN_TITLES.index("Header"), COLUMN_TITLES.index("Why")


class ColumnsModel(QAbstractTableModel):
    """Every column of the imported file: its role, or why it was left out
    and what would use it (the report's :class:`ColumnRecord` values)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, str, str, str, str]] = []

    def set_report(self, report: ImportReport | None) -> None:
        self.beginResetModel()
        self._rows = [(c.letter, c.header, c.role or self.tr("not imported"),
                       in_the_wizard(c.reason), in_the_wizard(c.flag))  # (flags as controls)
                      for c in (report.columns if report is not None else ())]
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMN_TITLES)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or role not in (DISPLAY, TOOLTIP):
            return None
        return self._rows[index.row()][index.column()]

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role != DISPLAY or orientation != Qt.Orientation.Horizontal:
            return None
        return self.tr(COLUMN_TITLES[section]) if 0 <= section < len(COLUMN_TITLES) else None
