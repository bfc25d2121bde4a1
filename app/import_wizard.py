"""The import wizard for annotators' spreadsheets (.xlsx, .csv, .tsv).

Three pages over :mod:`core.io.annotator`:

1. the sheet and a preview of its first rows, with the detected header row;
2. the column mapping (one combo per field, per-annotator grade columns for a
   wide sheet), the rubric, the consensus rule and the rounding;
3. the import report (rows read, imported, rejected with row and column,
   duplicates, grades outside the scale, fractional grades, unmapped labels,
   formulas refused, notes), shown before the user accepts.

Reading and importing run off the UI thread (:func:`app.workers.run_task`);
a failure is one message box with the :class:`~core.errors.InputError` text.
Everything the wizard computes comes from ``core``; this module only adapts
it to Qt. After :meth:`ImportWizard.exec` returns ``Accepted``,
:attr:`ImportWizard.result_value` holds the :class:`ImportResult`.
"""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from app.workers import Task, error_text, run_task, show_error
from core.errors import ConventionError, InputError
from core.io.annotator import (
    ColumnMapping,
    ImportReport,
    ImportResult,
    Issue,
    SheetPreview,
    import_annotations,
    preview,
)
from core.io.load import TEXT_SHEET_SUFFIXES, WORKBOOK_SUFFIXES, is_annotator_sheet
from core.io.safety import column_letters
from core.model.conventions import ConsensusRule, Conventions, Rounding, Rubric
from core.model.document import Document

__all__ = [
    "MAPPED_FIELDS",
    "GradeColumnsModel",
    "ImportReportDialog",
    "ImportReportView",
    "ImportWizard",
    "IssueColumn",
    "IssuesModel",
    "PreviewModel",
    "load_unless_foreign",
    "rubric_text_for",
]

Index = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
EDIT = Qt.ItemDataRole.EditRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
CHECK = Qt.ItemDataRole.CheckStateRole

#: Fields of a :class:`ColumnMapping` that take one column, with their labels.
MAPPED_FIELDS: dict[str, str] = {
    "query": "Query",
    "source_id": "Source id",
    "score": "Score",
    "rank": "Rank",
    "grade": "Grade (long layout)",
    "annotator": "Annotator (long layout)",
    "version": "Version",
    "note": "Note",
    "reason": "Unrateable reason",
}
LONG, WIDE = "long", "wide"


def _column_name(col: int, header: list[str]) -> str:
    letter = column_letters(col + 1)
    label = header[col] if col < len(header) else ""
    return f"{letter}: {label}" if label else letter


# -- models -----------------------------------------------------------------------------
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
        if orientation == Qt.Orientation.Vertical:
            return None if role == TOOLTIP else str(section + 1)
        if not 0 <= section < self._width:
            return None
        name = _column_name(section, self._preview.header)
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
        self._checked: list[bool] = []
        self._names: list[str] = []

    def set_columns(self, header: list[str], grades: tuple[tuple[int, str], ...]) -> None:
        self.beginResetModel()
        self._header = list(header)
        chosen = dict(grades)
        self._checked = [c in chosen for c in range(len(header))]
        self._names = [chosen.get(c, h) for c, h in enumerate(header)]
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
                return _column_name(r, self._header)
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


class IssueColumn(IntEnum):
    KIND = 0
    ROW = 1
    COLUMN = 2
    PROBLEM = 3
    VALUE = 4


ISSUE_TITLES = {IssueColumn.KIND: "Kind", IssueColumn.ROW: "Row", IssueColumn.COLUMN: "Column",
                IssueColumn.PROBLEM: "Problem", IssueColumn.VALUE: "Value"}


class IssuesModel(QAbstractTableModel):
    """Every finding of an import report, one per row, in reading order."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._issues: list[Issue] = []

    def set_report(self, report: ImportReport | None) -> None:
        self.beginResetModel()
        self._issues = list(report.issues) if report is not None else []
        self.endResetModel()

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
            return str(issue)
        if col is IssueColumn.ROW:
            return issue.row  # the file's own row number, as the report gives it
        return {IssueColumn.KIND: issue.kind, IssueColumn.COLUMN: issue.column,
                IssueColumn.PROBLEM: issue.problem, IssueColumn.VALUE: issue.value}[col]

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role != DISPLAY or orientation != Qt.Orientation.Horizontal:
            return None
        if not 0 <= section < len(IssueColumn):
            return None
        return self.tr(ISSUE_TITLES[IssueColumn(section)])


# -- the report view --------------------------------------------------------------------
#: The counts shown above the issue table: objectName suffix -> label.
COUNT_LABELS: dict[str, str] = {
    "rows_read": "Rows read",
    "rows_imported": "Rows imported",
    "rows_rejected": "Rows rejected",
    "cells_rejected": "Rows and cells refused",
    "blank_rows": "Blank rows skipped",
    "duplicates": "Duplicates",
    "outside_scale": "Grades outside the scale",
    "fractional": "Fractional grades",
    "unmapped": "Unmapped labels",
    "formulas": "Formulas refused",
    "candidates": "Candidates",
    "annotators": "Annotators",
}


def report_counts(report: ImportReport) -> dict[str, str]:
    """What each count label shows for ``report`` (texts straight from the report)."""
    return {
        "rows_read": str(report.rows_read),
        "rows_imported": str(report.rows_imported),
        "rows_rejected": str(report.rows_rejected),
        "cells_rejected": str(len(report.rejected)),
        "blank_rows": str(report.blank_rows),
        "duplicates": str(len(report.duplicates)),
        "outside_scale": str(len(report.outside_scale)),
        "fractional": str(len(report.fractional)),
        "unmapped": ", ".join(f"{k!r} ({v})" for k, v in report.unmapped_labels.items())
        or "none",
        "formulas": str(len(report.formulas)),
        "candidates": str(report.candidates),
        "annotators": ", ".join(report.annotators) or "one grade per candidate",
    }


class ImportReportView(QWidget):
    """An import report: summary sentences, counts, every issue, and notes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importReportView")
        layout = QVBoxLayout(self)
        self.summary = QLabel(self)
        self.summary.setObjectName("importSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.summary)
        grid = QGridLayout()  # three label/value pairs a line: the issue table keeps its room
        self.counts: dict[str, QLabel] = {}
        for n, (key, text) in enumerate(COUNT_LABELS.items()):
            label = QLabel(self)
            label.setObjectName(f"count_{key}")
            label.setWordWrap(True)
            line, pair = divmod(n, 3)
            grid.addWidget(QLabel(self.tr(text) + ":", self), line, 2 * pair)
            grid.addWidget(label, line, 2 * pair + 1)
            self.counts[key] = label
        layout.addLayout(grid)
        self.issues_model = IssuesModel(self)
        self.issues = QTableView(self)
        self.issues.setObjectName("importIssues")
        self.issues.setModel(self.issues_model)
        self.issues.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.issues.horizontalHeader().setSectionResizeMode(
            IssueColumn.PROBLEM, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.issues, 1)
        self.notes = QPlainTextEdit(self)
        self.notes.setObjectName("importNotes")
        self.notes.setReadOnly(True)
        self.notes.setMaximumHeight(72)
        layout.addWidget(self.notes)
        self.report: ImportReport | None = None

    def set_report(self, report: ImportReport | None, error: str = "") -> None:
        self.report = report
        self.issues_model.set_report(report)
        if report is None:
            self.summary.setText(error)
            for label in self.counts.values():
                label.setText("")
            self.notes.setPlainText("")
            return
        lines = report.summary()
        self.summary.setText(lines[0])
        for key, text in report_counts(report).items():
            self.counts[key].setText(text)
        self.notes.setPlainText("\n".join([*lines[1:]]))


class ImportReportDialog(QDialog):
    """The last import's report, viewable after the wizard closed."""

    def __init__(self, report: ImportReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importReportDialog")
        self.setWindowTitle(self.tr("Import report — {0}").format(Path(report.file).name))
        layout = QVBoxLayout(self)
        self.view = ImportReportView(self)
        self.view.set_report(report)
        layout.addWidget(self.view)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(760, 520)


# -- pages ------------------------------------------------------------------------------
class SheetPage(QWizardPage):
    """Page 1: the sheet, its detected header row and the first rows."""

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__(wizard)
        self.setObjectName("sheetPage")
        self.setTitle(self.tr("Sheet and header"))
        self.wiz = wizard
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.sheet = QComboBox(self)
        self.sheet.setObjectName("sheetCombo")
        self.header_row = QSpinBox(self)
        self.header_row.setObjectName("headerRowSpin")
        self.header_row.setMinimum(1)
        self.header_row.setMaximum(1_000_000)
        self.info = QLabel(self)
        self.info.setObjectName("previewInfo")
        self.info.setWordWrap(True)
        form.addRow(self.tr("Sheet:"), self.sheet)
        form.addRow(self.tr("Header on row:"), self.header_row)
        layout.addLayout(form)
        layout.addWidget(self.info)
        self.model = PreviewModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("previewTable")
        self.table.setModel(self.model)
        layout.addWidget(self.table, 1)
        self.sheet.activated.connect(self._sheet_chosen)
        self.header_row.editingFinished.connect(self._header_row_chosen)

    def show_preview(self, value: SheetPreview) -> None:
        self.sheet.blockSignals(True)
        self.sheet.clear()
        if value.sheets:
            self.sheet.addItems(value.sheets)
            self.sheet.setCurrentText(value.sheet or "")
        else:
            self.sheet.addItem(self.tr("(text file)"))
        self.sheet.setEnabled(len(value.sheets) > 1)
        self.sheet.blockSignals(False)
        self.header_row.blockSignals(True)
        self.header_row.setValue(value.header_row + 1)  # the file's own 1-based row number
        self.header_row.blockSignals(False)
        where = [Path(value.file).name]
        if value.encoding:
            where.append(self.tr("encoding {0}").format(value.encoding))
        if value.delimiter:
            where.append(self.tr("delimiter {0}").format(repr(value.delimiter)))
        where.append(self.tr("{0} rows after the header, layout {1}").format(
            value.n_rows, value.mapping.layout))
        self.info.setText("; ".join(where))
        self.model.set_preview(value)
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        return self.wiz.preview_value is not None and not self.wiz.busy

    def _sheet_chosen(self, _index: int) -> None:
        if self.wiz.preview_value is None or not self.wiz.preview_value.sheets:
            return
        name = self.sheet.currentText()
        if name != self.wiz.preview_value.sheet:
            self.wiz.load_preview(sheet=name)

    def _header_row_chosen(self) -> None:
        current = self.wiz.preview_value
        if current is None or self.header_row.value() == current.header_row + 1:
            return
        mapping = current.mapping.replace(header_row=self.header_row.value() - 1)
        self.wiz.load_preview(sheet=current.sheet, mapping=mapping)


class MappingPage(QWizardPage):
    """Page 2: which column holds what, the rubric, consensus and rounding."""

    def __init__(self, wizard: ImportWizard, conventions: Conventions, rubric_text: str) -> None:
        super().__init__(wizard)
        self.setObjectName("mappingPage")
        self.setTitle(self.tr("Columns and grades"))
        self.wiz = wizard
        self._shown: SheetPreview | None = None
        outer = QVBoxLayout(self)
        columns = QHBoxLayout()
        outer.addLayout(columns)
        form = QFormLayout()
        columns.addLayout(form, 1)
        layout = QVBoxLayout()
        columns.addLayout(layout, 1)
        self.layout_combo = QComboBox(self)
        self.layout_combo.setObjectName("layoutCombo")
        self.layout_combo.addItem(self.tr("long: one row per judgment"), LONG)
        self.layout_combo.addItem(self.tr("wide: one grade column per annotator"), WIDE)
        form.addRow(self.tr("Layout:"), self.layout_combo)
        self.combos: dict[str, QComboBox] = {}
        for field, text in MAPPED_FIELDS.items():
            combo = QComboBox(self)
            combo.setObjectName(f"map_{field}")
            form.addRow(self.tr(text) + ":", combo)
            self.combos[field] = combo
        self.grades_model = GradeColumnsModel(self)
        self.grades_view = QTableView(self)
        self.grades_view.setObjectName("gradeColumns")
        self.grades_view.setModel(self.grades_model)
        self.grades_view.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(QLabel(self.tr("Annotator grade columns (wide layout):"), self))
        layout.addWidget(self.grades_view, 1)
        conv_form = QFormLayout()
        self.rubric = QLineEdit(rubric_text, self)
        self.rubric.setObjectName("rubricEdit")
        self.rubric.setPlaceholderText("0=not relevant,1=partial,2=relevant,3=highly relevant")
        self.rubric.setToolTip(self.tr("Permitted grades and their labels; text labels in the "
                                       "sheet are read through it. Empty: no rubric."))
        self.consensus = QComboBox(self)
        self.consensus.setObjectName("consensusCombo")
        for rule in ConsensusRule:
            self.consensus.addItem(rule.label, rule)
            self.consensus.setItemData(self.consensus.count() - 1, rule.formula, TOOLTIP)
        self.consensus.setCurrentIndex(self.consensus.findData(conventions.consensus))
        self.rounding = QComboBox(self)
        self.rounding.setObjectName("roundingCombo")
        for r in Rounding:
            self.rounding.addItem(r.label, r)
            self.rounding.setItemData(self.rounding.count() - 1, r.formula, TOOLTIP)
        self.rounding.setCurrentIndex(self.rounding.findData(conventions.rounding))
        self.unknown_marks = QLineEdit(self)
        self.unknown_marks.setObjectName("unknownMarks")
        self.unrateable_marks = QLineEdit(self)
        self.unrateable_marks.setObjectName("unrateableMarks")
        conv_form.addRow(self.tr("Rubric:"), self.rubric)
        conv_form.addRow(self.tr("Several annotators:"), self.consensus)
        conv_form.addRow(self.tr("Rounding of the consensus:"), self.rounding)
        conv_form.addRow(self.tr("Marks read as unknown (blank always):"), self.unknown_marks)
        conv_form.addRow(self.tr("Marks read as unrateable:"), self.unrateable_marks)
        outer.addLayout(conv_form)
        self.problem = QLabel(self)
        self.problem.setObjectName("mappingProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020")
        outer.addWidget(self.problem)
        self.layout_combo.currentIndexChanged.connect(self._layout_changed)

    def initializePage(self) -> None:
        value = self.wiz.preview_value
        if value is None or value is self._shown:
            return  # back and forth keeps the user's corrections
        self._shown = value
        mapping = value.mapping
        # Rows wider than the header offer their extra columns too (by letter).
        width = self.wiz.sheet_page.model.columnCount()
        header = [*value.header, *([""] * (width - len(value.header)))]
        for field, combo in self.combos.items():
            combo.clear()
            combo.addItem(self.tr("(none)"), None)
            for col in range(len(header)):
                combo.addItem(_column_name(col, header), col)
            combo.setCurrentIndex(max(0, combo.findData(getattr(mapping, field))))
        self.grades_model.set_columns(header, mapping.grades)
        self.grades_view.resizeColumnsToContents()
        self.unknown_marks.setText(", ".join(m for m in mapping.unknown_marks if m))
        self.unrateable_marks.setText(", ".join(mapping.unrateable_marks))
        self.layout_combo.setCurrentIndex(self.layout_combo.findData(mapping.layout))
        self._layout_changed()

    def _layout_changed(self, *_args: Any) -> None:
        wide = self.layout_combo.currentData() == WIDE
        self.combos["grade"].setEnabled(not wide)
        self.combos["annotator"].setEnabled(not wide)
        self.grades_view.setEnabled(wide)

    def set_column(self, field: str, col: int | None) -> None:
        """Map ``field`` to sheet column ``col`` (0-based; None = not imported)."""
        combo = self.combos[field]
        combo.setCurrentIndex(combo.findData(col))

    def mapping(self) -> ColumnMapping:
        """The mapping as the page shows it."""
        value = self.wiz.preview_value
        base = value.mapping if value is not None else ColumnMapping()
        fields: dict[str, Any] = {f: c.currentData() for f, c in self.combos.items()}
        if self.layout_combo.currentData() == WIDE:
            fields.update(grade=None, annotator=None, grades=self.grades_model.grades())
        else:
            fields["grades"] = ()
        unknown = ("", *(m.strip() for m in self.unknown_marks.text().split(",") if m.strip()))
        unrateable = tuple(m.strip() for m in self.unrateable_marks.text().split(",")
                           if m.strip())
        return base.replace(unknown_marks=unknown, unrateable_marks=unrateable, **fields)

    def rubric_value(self) -> Rubric | None:
        """The rubric typed (None when empty); raises ConventionError when malformed."""
        text = self.rubric.text().strip()
        return Rubric.parse(text) if text else None

    def validatePage(self) -> bool:
        try:
            self.rubric_value()
        except ConventionError as exc:
            self.problem.setText(self.tr("Rubric: {0}").format(exc))
            return False
        self.problem.setText("")
        return True


class ReportPage(QWizardPage):
    """Page 3: the import report, before the user accepts."""

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__(wizard)
        self.setObjectName("reportPage")
        self.setTitle(self.tr("Import report"))
        self.setSubTitle(self.tr("Nothing is dropped silently: every refused row or cell is "
                                 "listed with its row and column. Finish opens the result."))
        self.wiz = wizard
        layout = QVBoxLayout(self)
        self.view = ImportReportView(self)
        layout.addWidget(self.view)
        self.setFinalPage(True)

    def initializePage(self) -> None:
        self.view.set_report(None, self.tr("Importing…"))
        self.wiz.run_import()

    def cleanupPage(self) -> None:
        self.wiz.result_value = None

    def isComplete(self) -> bool:
        return self.wiz.result_value is not None and not self.wiz.busy


# -- the wizard -------------------------------------------------------------------------
class ImportWizard(QWizard):
    """Import an annotators' spreadsheet: sheet, mapping, report, then Finish.

    Parameters
    ----------
    path
        The .xlsx, .csv or .tsv file (only read, never changed).
    conventions
        The conventions the imported document starts from (the open
        document's); the page's rubric, consensus and rounding replace theirs.
    rubric_text
        The rubric prefilled on the mapping page.
    """

    #: The wizard's background work finished (preview or import); tests wait on it.
    work_finished = Signal()

    SHEET, MAPPING, REPORT = 0, 1, 2

    def __init__(self, path: str | Path, conventions: Conventions | None = None,
                 rubric_text: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importWizard")
        self.path = Path(path)
        self.conventions = conventions or Conventions()
        if rubric_text is None:
            rubric_text = self.conventions.rubric.text if self.conventions.rubric else ""
        self.setWindowTitle(self.tr("Import annotators' sheet — {0}").format(self.path.name))
        self.preview_value: SheetPreview | None = None
        self.result_value: ImportResult | None = None
        self.error: str = ""
        self.busy = False
        self.task: Task | None = None
        self.sheet_page = SheetPage(self)
        self.mapping_page = MappingPage(self, self.conventions, rubric_text)
        self.report_page = ReportPage(self)
        self.setPage(self.SHEET, self.sheet_page)
        self.setPage(self.MAPPING, self.mapping_page)
        self.setPage(self.REPORT, self.report_page)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.resize(860, 640)
        self.load_preview()

    # -- background work ------------------------------------------------------------
    def _run(self, label: str, work: Any, done: Any) -> None:
        self.busy = True
        self._pages_changed()

        def finished(value: Any) -> None:
            self.busy = False
            done(value)
            self._pages_changed()
            self.work_finished.emit()

        def failed(exc: BaseException) -> None:
            self.busy = False
            self.error = error_text(exc)
            if self.currentId() == self.REPORT:
                self.report_page.view.set_report(None, self.error)
            self._pages_changed()
            self.work_finished.emit()
            show_error(self, self.tr("Import"), exc)

        def cancelled() -> None:
            self.busy = False
            self._pages_changed()
            self.work_finished.emit()

        self.error = ""
        self.task = run_task(self, label, work, on_done=finished, on_error=failed,
                             on_cancel=cancelled)

    def _pages_changed(self) -> None:
        for page in (self.sheet_page, self.mapping_page, self.report_page):
            page.completeChanged.emit()

    def load_preview(self, *, sheet: str | None = None,
                     mapping: ColumnMapping | None = None) -> None:
        """Read the sheet's first rows (and detect the mapping unless given)."""
        path = self.path

        def done(value: SheetPreview) -> None:
            self.preview_value = value
            self.sheet_page.show_preview(value)

        self._run(self.tr("Reading {0}…").format(path.name),
                  lambda progress, cancelled: preview(path, sheet=sheet, mapping=mapping), done)

    def import_conventions(self) -> Conventions:
        """The open conventions with the page's rubric, consensus and rounding."""
        page = self.mapping_page
        return self.conventions.replace(
            rubric=page.rubric_value(), consensus=ConsensusRule(page.consensus.currentData()),
            rounding=Rounding(page.rounding.currentData()))

    def run_import(self) -> None:
        """Import with the page's mapping; the report page shows the result."""
        self.result_value = None
        path = self.path
        mapping = self.mapping_page.mapping()
        sheet = self.preview_value.sheet if self.preview_value is not None else None
        conventions = self.import_conventions()

        def done(result: ImportResult) -> None:
            self.result_value = result
            self.report_page.view.set_report(result.report)

        self._run(self.tr("Importing {0}…").format(path.name),
                  lambda progress, cancelled: import_annotations(
                      path, mapping, sheet=sheet, conventions=conventions), done)

    def done(self, result: int) -> None:
        # Closing while reading or importing abandons that work: its result is dropped.
        if self.task is not None and not self.task.done:
            self.task.cancel()
        super().done(result)

    @property
    def report(self) -> ImportReport | None:
        return self.result_value.report if self.result_value is not None else None


def rubric_text_for(doc: Document | None) -> str:
    """The rubric to prefill: the document's declared one, else the one its grades imply."""
    if doc is None:
        return ""
    conventions = doc.conventions
    return conventions.rubric_for(doc.grade).text


def load_unless_foreign(path: Path, conventions: Conventions | None) -> Document | None:
    """Open ``path`` as :func:`core.io.load.load_document` does; None for an
    annotators' sheet (see :func:`core.io.load.is_annotator_sheet`), which the wizard imports.

    Our own workbooks are read once (no separate check).
    """
    from core.io.load import load_document

    suffix = path.suffix.lower()
    if suffix in WORKBOOK_SUFFIXES and path.is_file():
        from core.io.workbook import read_workbook

        try:
            doc: Document = read_workbook(path)
        except InputError as exc:
            if "not an NDCG Worksheet workbook" in str(exc):
                return None
            raise
        return doc
    if suffix in TEXT_SHEET_SUFFIXES and path.is_file() and is_annotator_sheet(path):
        return None
    return load_document(path, conventions=conventions)
