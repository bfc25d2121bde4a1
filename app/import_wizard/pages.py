"""The wizard's three pages: the sheet, the column mapping, the report."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWizardPage,
)

from app.import_wizard.report import ImportReportView
from app.import_wizard.tables import GradeColumnsModel, PreviewModel, column_name
from core.errors import ConventionError
from core.io.annotator import ColumnMapping, SheetPreview
from core.model.conventions import ConsensusRule, Conventions, Rounding, Rubric

if TYPE_CHECKING:
    from app.import_wizard.wizard import ImportWizard

__all__ = ["LONG", "MAPPED_FIELDS", "WIDE", "MappingPage", "ReportPage", "SheetPage"]

TOOLTIP = Qt.ItemDataRole.ToolTipRole

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
                combo.addItem(column_name(col, header), col)
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
