"""The wizard's three pages: the sheet, the column mapping
(:mod:`~app.import_wizard.mapping_page`), the report."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWizardPage,
)

from app.accessibility import label_control, tab_passes
from app.delegates import IdDelegate
from app.import_wizard.hints import HEADER_ROW, NO_HEADER
from app.import_wizard.mapping_page import LONG, MAPPED_FIELDS, WIDE, MappingPage
from app.import_wizard.report import ImportReportView
from app.import_wizard.tables import PreviewModel
from app.panels.fit import fit_columns, fit_rows_to_font
from app.scheme import tint
from core.io.annotator import ImportReport, SheetPreview
from core.io.annotator.refusal import refused_rejections
from core.model.numbers import counted

if TYPE_CHECKING:
    from app.import_wizard.steps import WizardSteps

__all__ = ["LONG", "MAPPED_FIELDS", "WIDE", "MappingPage", "ReportPage", "SheetPage"]

#: The widest a preview column grows for its cells (a long cell elided, whole
#: on hover); its header is shown whole whatever it needs.
_CELL_MOST = 240
#: The preview's cells are the sheet's texts: no number is rounded.
_DECIMALS = 6


class SheetPage(QWizardPage):
    """Page 1: the sheet, its header row and the first rows (guessed again
    whenever the sheet or the header row changes)."""

    def __init__(self, wizard: WizardSteps) -> None:
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
        self.header_row.setMinimum(0)  # 0: no header, row 1 is data
        self.header_row.setSpecialValueText(self.tr(NO_HEADER))
        self.header_row.setMaximum(1_000_000)
        self.info = QLabel(self)
        self.info.setObjectName("previewInfo")
        self.info.setWordWrap(True)
        form.addRow(self.tr("Sheet:"), self.sheet)
        form.addRow(self.tr(HEADER_ROW), self.header_row)
        layout.addLayout(form)
        layout.addWidget(self.info)
        self.model = PreviewModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("previewTable")
        label_control(self.table, self.tr("The sheet's first rows"))
        self.table.setModel(self.model)
        # A long cell cut in its middle, its end kept (whole on hover), as
        # the grid's source ids are: product pages differ at their ends, and
        # cut at the right every row read "https://shop.example.com/p/...".
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setItemDelegate(IdDelegate(lambda: _DECIMALS, self.table, ends=True))
        tab_passes(self.table)
        fit_rows_to_font(self.table)  # one-line cells: Qt's default row is two lines tall
        layout.addWidget(self.table, 1)
        # why the sheet cannot be imported as read (titled blocks), said here,
        # where it is first seen, never after its labels were mapped
        self.problem = QLabel(self)
        self.problem.setObjectName("sheetProblem")
        self.problem.setWordWrap(True)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        tint(self.problem, "color: {}", "error")
        self.problem.hide()
        layout.addWidget(self.problem)
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
        rows = (self.tr("{0}, no header (row 1 is data), layout {1}")
                if value.header_row < 0 else self.tr("{0} after the header, layout {1}"))
        if value.judgments:  # a survey's sheet said as it is: no layout of judgments
            rows = self.tr("{0} after the header, one row per respondent")
        where.append(rows.format(counted(value.n_rows, "row"), value.mapping.layout))
        if value.judgments:  # a survey's rows, one per respondent, reshaped
            where.append(self.tr("{0} after reshaping (one row per respondent and "
                                 "item)").format(counted(value.judgments, "judgment")))
        self.info.setText("; ".join(where))
        self.problem.setText(value.refusal)
        self.problem.setVisible(bool(value.refusal))
        self.show_roles(value)
        self.completeChanged.emit()

    def show_roles(self, value: SheetPreview) -> None:
        """The first rows under each column's role in ``value``'s mapping
        (the mapping page's choices read again: Back shows them, not the
        first guess's)."""
        self.model.set_preview(value)
        # Each header whole ("B: Email Address", "E: How relevant is ...?" over
        # its field): at Qt's default width a two-line header is centred and
        # cut at both ends, so that B read as 3 and E lost its letter.
        fit_columns(self.table, most=_CELL_MOST)

    def isComplete(self) -> bool:
        value = self.wiz.preview_value
        return value is not None and not value.refusal and not self.wiz.busy

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
        self.wiz.load_preview(sheet=current.sheet, header_row=self.header_row.value() - 1)


class ReportPage(QWizardPage):
    """Page 3: the import report, before the user accepts."""

    def __init__(self, wizard: WizardSteps) -> None:
        super().__init__(wizard)
        self.setObjectName("reportPage")
        self.setTitle(self.tr("Import report"))
        self.setSubTitle(self.tr("Nothing is dropped silently: every refused row or cell is "
                                 "listed with its row and column. Finish opens the result."))
        self.wiz = wizard
        layout = QVBoxLayout(self)
        self.view = ImportReportView(self)
        layout.addWidget(self.view)
        self.anyway = QCheckBox(self)
        self.anyway.setObjectName("importAnyway")
        self.anyway.setVisible(False)
        self.anyway.toggled.connect(lambda _on: self.completeChanged.emit())
        layout.addWidget(self.anyway)
        self.refusal = QLabel(self)  # every judgment rejected: nothing to import
        self.refusal.setObjectName("nothingToImport")
        self.refusal.setWordWrap(True)
        self.refusal.setVisible(False)
        layout.addWidget(self.refusal)
        self.setFinalPage(True)

    def initializePage(self) -> None:
        self.anyway.setChecked(False)
        self.anyway.setVisible(False)
        self.refusal.setVisible(False)
        self.view.set_report(None, self.tr("Importing…"))
        self.wiz.run_import()

    def show_report(self, report: ImportReport) -> None:
        """The report; with rejected judgments, Finish waits for "import
        anyway"; with every judgment rejected, there is nothing to import."""
        self.view.set_report(report)
        n = len(report.rejected_judgments)
        refused = refused_rejections(report, self.tr("each is listed under Issues"),
                                     allowed=True, outcome=self.tr("there is nothing to import"))
        self.refusal.setText(str(refused or ""))
        self.refusal.setVisible(refused is not None)
        self.anyway.setChecked(False)
        self.anyway.setVisible(n > 0 and refused is None)
        row, column, _why = report.first_rejected() or (0, "", "")
        self.anyway.setText((self.tr(  # ({2}: 'row 4', a JSON export's 'line 3', 'record 2')
            "Import anyway: 1 of the {1} judgments read is rejected and will not be "
            "imported ({2}, column '{3}'; listed under Issues)") if n == 1 else self.tr(
            "Import anyway: {0} of the {1} judgments read are rejected and will not be "
            "imported (the first on {2}, column '{3}'; each is listed under "
            "Issues)")).format(n, report.judgments_read, report.place(row), column))

    def cleanupPage(self) -> None:
        self.wiz.result_value = None

    def isComplete(self) -> bool:
        result = self.wiz.result_value
        if result is None or self.wiz.busy:
            return False
        return not result.report.rejected_judgments or (
            self.anyway.isChecked() and not self.refusal.isVisibleTo(self))
