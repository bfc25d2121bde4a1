"""An import report on screen: summary, counts, every issue, notes; and the
dialog that shows the last import's report after the wizard closed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.accessibility import label_control, tab_passes
from app.elided import ElidedLabel
from app.import_wizard.hints import in_the_wizard
from app.import_wizard.tables import (
    HEADER_COLUMN,
    WHY_COLUMN,
    ColumnsModel,
    IssueColumn,
    IssuesModel,
)
from app.panels.fit import header_widths
from core.io.annotator import NO_GRADE, ImportReport
from core.io.annotator.accounting import ABOVE_SAID, RowTally

__all__ = ["COUNT_LABELS", "HEADER_SHARE", "ImportReportDialog", "ImportReportView",
           "report_counts", "rows_line"]

#: The share of the columns table the file's headers get at the most while
#: the Why column wants the rest: a longer header is elided in its middle
#: (its start and its end, where a form's headers differ) and whole on hover.
HEADER_SHARE = 0.4

#: The counts shown above the issue table: objectName suffix -> label.
COUNT_LABELS: dict[str, str] = {
    "judgments_read": "Judgments read",
    "judgments_imported": "Judgments imported",
    "judgments_rejected": "Judgments rejected",
    "blank_grades": "Blank grade cells",
    "rows_read": "Rows read, not skipped",
    "rows_imported": "Rows imported",
    "rows_ungraded": f"Rows {NO_GRADE}",
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


#: The counts that are names, not numbers: each on a line of its own across
#: the counts' width, elided where it does not fit and whole on hover (in
#: a pair's column the annotators' names wrapped onto three lines in the
#: 760 px report dialog, pushing the issues down).
NAMED_COUNTS = ("unmapped", "annotators")


#: The counts of rows that a JSON export's lines or records are counted in
#: (its :attr:`~core.io.annotator.report.ImportReport.row_tally`, where the
#: headline counts them): key -> the count of the tally.
PLACE_COUNTS: dict[str, Callable[[RowTally], int]] = {
    "rows_read": RowTally.not_skipped,
    "rows_imported": lambda t: t.imported,
    "rows_ungraded": lambda t: t.ungraded,
    "rows_rejected": lambda t: t.rejected,
    "blank_rows": lambda t: t.blank,
}


def count_caption(key: str, report: ImportReport | None) -> str:
    """A count's label for ``report``: a JSON export's rows said as its
    ``Records`` or ``Lines`` (they read 'Rows read, not skipped: 7' of 4
    records, the table's rows, where the headline said '4 records')."""
    text = COUNT_LABELS[key]
    if report is None or report.records is None or key not in PLACE_COUNTS:
        return text
    unit = report.records.unit
    return text.replace("Rows", f"{unit.capitalize()}s").replace("rows", f"{unit}s")


def report_counts(report: ImportReport) -> dict[str, str]:
    """What each count label shows for ``report`` (texts straight from the
    report; a JSON export's rows counted as its lines or records)."""
    tally = report.row_tally if report.records is not None else None
    return {key: str(PLACE_COUNTS[key](tally)) if tally is not None and key in PLACE_COUNTS
            else text for key, text in _counts(report).items()}


def _counts(report: ImportReport) -> dict[str, str]:
    return {
        "judgments_read": str(report.judgments_read),
        "judgments_imported": str(report.judgments_imported),
        "judgments_rejected": str(len(report.rejected_judgments)),
        "blank_grades": str(report.blank_grades),
        "rows_read": str(report.rows_read),
        "rows_imported": str(report.rows_imported),
        "rows_ungraded": str(report.rows_ungraded),
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


def _above_line(report: ImportReport) -> str:
    """The rows above the header and what they held, after the tally: ``;
    rows 1-4 above the header: a title, text, the legend, blank`` ("" when there are none)."""
    if not report.above:
        return ""
    kinds = [ABOVE_SAID[a.kind] for a in report.above]
    held = [k for n, k in enumerate(kinds) if n == 0 or k != kinds[n - 1]]  # (runs once)
    first, last = report.above[0].row, report.above[-1].row
    rows = f"row {first}" if first == last else f"rows {first}-{last}"
    return f"; {rows} above the header, not imported: {', '.join(held)}"


def rows_line(report: ImportReport) -> str:
    """The rows' tally in one line: read = imported + ungraded (every grade
    cell blank: :data:`NO_GRADE`) + skipped (by reason) + rejected + blank
    (a JSON export's lines or records: ``Records: 4 read = ...``); then the
    rows above the header and what they held."""
    tally = report.row_tally
    if tally is None:
        return ""
    skipped = sum(n for _, n in tally.skipped)
    why = "; ".join(f"{kind}: {n}" for kind, n in tally.skipped)
    unit = "Rows" if report.records is None else f"{report.records.unit.capitalize()}s"
    return (f"{unit}: {tally.read} read = {tally.imported} imported"
            + (f" + {tally.ungraded} {NO_GRADE}" if tally.ungraded else "")
            + f" + {skipped} skipped"
            + (f" ({why})" if why else "") + f" + {tally.rejected} rejected + {tally.blank} "
            "blank" + _above_line(report))


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
        layout.addLayout(self._counts_grid())
        # The issues, the columns and the notes, a tab each with the whole
        # height below the counts: one under the other, the columns table
        # showed 2-4 rows in the wizard on a 1280x800 screen.
        self.lists = QTabWidget(self)
        self.lists.setObjectName("importLists")
        label_control(self.lists, self.tr("The report's lists: issues, columns, notes"))
        layout.addWidget(self.lists, 1)
        self.issues_model = IssuesModel(self)
        self.issues = QTableView(self)
        self.issues.setObjectName("importIssues")
        label_control(self.issues, self.tr("Refused rows and cells"))
        self.issues.setModel(self.issues_model)
        tab_passes(self.issues)
        self.issues.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.issues.horizontalHeader().setSectionResizeMode(
            IssueColumn.PROBLEM, QHeaderView.ResizeMode.Stretch)
        # A cell on one line, elided in its middle, whole on hover (the
        # model's tooltip): "C (Annotator A)" wrapped onto two lines.
        self.issues.setWordWrap(False)
        self.issues.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.lists.addTab(self.issues, "")
        columns_tab = QWidget(self)
        columns_layout = QVBoxLayout(columns_tab)
        self.rows_tally = QLabel(self)
        self.rows_tally.setObjectName("importRowsTally")
        self.rows_tally.setWordWrap(True)
        columns_layout.addWidget(self.rows_tally)
        self.columns_model = ColumnsModel(self)
        self.columns = QTableView(self)
        self.columns.setObjectName("importColumns")
        label_control(self.columns, self.tr("Every column: its role, or why it was left out"))
        self.columns.setModel(self.columns_model)
        tab_passes(self.columns)
        self.columns.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.columns.horizontalHeader().setSectionResizeMode(
            WHY_COLUMN, QHeaderView.ResizeMode.Stretch)
        # A cell on one line, elided in its middle, whole on hover (the
        # model's tooltip), as the issues': a form's long headers wrapped
        # onto two lines and were cut ("Rate each / result for: wo...").
        self.columns.setWordWrap(False)
        self.columns.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.columns.viewport().installEventFilter(self)  # (refitted as it is resized)
        columns_layout.addWidget(self.columns, 1)
        self.lists.addTab(columns_tab, "")
        self.notes = QPlainTextEdit(self)
        self.notes.setObjectName("importNotes")
        label_control(self.notes, self.tr("Import notes"))
        self.notes.setReadOnly(True)
        self.lists.addTab(self.notes, "")
        self.report: ImportReport | None = None
        self._name_tabs()

    def _counts_grid(self) -> QGridLayout:
        """Three label/value pairs a line (the issue table keeps its room),
        then each of :data:`NAMED_COUNTS` on a line of its own."""
        grid = QGridLayout()
        self.counts: dict[str, QLabel] = {}
        self.captions: dict[str, QLabel] = {}  # (the counts' labels: rows, a JSON's records)
        numbers = [key for key in COUNT_LABELS if key not in NAMED_COUNTS]
        for n, key in enumerate(numbers):
            label = QLabel(self)
            line, pair = divmod(n, 3)
            self.captions[key] = QLabel(self.tr(COUNT_LABELS[key]) + ":", self)
            grid.addWidget(self.captions[key], line, 2 * pair)
            grid.addWidget(label, line, 2 * pair + 1)
            self.counts[key] = label
        below = -(-len(numbers) // 3)
        for n, key in enumerate(NAMED_COUNTS):
            label = ElidedLabel(Qt.TextElideMode.ElideRight, self)
            grid.addWidget(QLabel(self.tr(COUNT_LABELS[key]) + ":", self), below + n, 0)
            grid.addWidget(label, below + n, 1, 1, 5)
            self.counts[key] = label
        for key, label in self.counts.items():
            label.setObjectName(f"count_{key}")
        return grid

    def _fit_issue_columns(self) -> None:
        """The issues' kind, row and column as wide as their cells, up to a
        quarter of the table each (a longer one elided): the problem takes
        the rest."""
        most = max(self.issues.viewport().width() // 4, 120)
        for column in (IssueColumn.KIND, IssueColumn.ROW, IssueColumn.COLUMN):
            self.issues.resizeColumnToContents(column)
            self.issues.setColumnWidth(column, min(self.issues.columnWidth(column), most))

    def _fit_column_columns(self) -> None:
        """The columns table's columns as wide as their cells and titles, up
        to a quarter of the table each, but the headers', which get what
        their text asks while the Why column keeps what its text asks, and
        up to :data:`HEADER_SHARE` of the table beyond that (a longer one
        elided): Why takes the rest."""
        table = self.columns
        room = table.viewport().width()
        titles = header_widths(table)
        wants = {c: max(titles[c], table.sizeHintForColumn(c))
                 for c in range(self.columns_model.columnCount())}
        others = 0
        for column, want in wants.items():
            if column not in (HEADER_COLUMN, WHY_COLUMN):
                table.setColumnWidth(column, min(want, max(room // 4, titles[column])))
                others += table.columnWidth(column)
        spare = room - others - wants[WHY_COLUMN]  # what Why leaves
        table.setColumnWidth(HEADER_COLUMN, max(titles[HEADER_COLUMN], min(
            wants[HEADER_COLUMN], max(int(room * HEADER_SHARE), spare))))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """(Installed on the columns table's viewport: its columns refitted
        to its width.)"""
        if event.type() == QEvent.Type.Resize and watched is self.columns.viewport():
            self._fit_column_columns()
        return False

    def _name_tabs(self) -> None:
        """Each tab named with how many rows it lists; the columns in front
        unless there are issues to read."""
        issues, columns = self.issues_model.rowCount(), self.columns_model.rowCount()
        self.lists.setTabText(0, self.tr("Issues ({0})").format(issues))
        self.lists.setTabText(1, self.tr("Columns ({0})").format(columns))
        self.lists.setTabText(2, self.tr("Notes"))
        self.lists.setCurrentIndex(0 if issues else 1)

    def set_report(self, report: ImportReport | None, error: str = "") -> None:
        self.report = report
        self.issues_model.set_report(report)
        self.columns_model.set_report(report)
        self.rows_tally.setText(rows_line(report) if report is not None else "")
        self._fit_issue_columns()
        self._fit_column_columns()
        self._name_tabs()
        if report is None:
            self.summary.setText(error)
            for label in self.counts.values():
                label.setText("")
                label.setToolTip("")
            self.notes.setPlainText("")
            return
        lines = [in_the_wizard(line) for line in report.summary()]  # (the flags as controls)
        # the headline, what the sheet hides and what its rows above the header hold
        hidden = 1 + bool(report.hidden_text()) + bool(report.above_text())
        self.summary.setText("\n".join(lines[:hidden]))
        for key, caption in self.captions.items():
            caption.setText(self.tr(count_caption(key, report)) + ":")
        for key, text in report_counts(report).items():
            self.counts[key].setText(text)
            if key in NAMED_COUNTS:  # whole on hover, where the line elides it
                self.counts[key].setToolTip(text)
        self.notes.setPlainText("\n".join([*lines[hidden:]]))


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
