"""The import wizard itself: three pages over :mod:`core.io.annotator`, the
reading and importing off the UI thread; and what opening a file decides
(our own file, or an annotators' sheet for the wizard)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget, QWizard

from app.accessibility import mnemonic, underline_letters
from app.import_wizard.hints import in_the_wizard
from app.import_wizard.pages import MappingPage, ReportPage, SheetPage
from app.import_wizard.steps import WizardSteps
from app.workers import Task, error_text, run_task, show_error
from core.errors import InputError, NotOwnWorkbook
from core.io.annotator import (
    ColumnMapping,
    ImportReport,
    ImportResult,
    SheetPreview,
    import_annotations,
    preview,
)
from core.io.annotator.evidence import NotConsensus
from core.io.annotator.guidelines import offer_guidelines
from core.io.annotator.rows import SplitRanking
from core.io.load import WORKBOOK_SUFFIXES, is_annotator_sheet
from core.model.conventions import ConsensusRule, Conventions, Rounding
from core.model.document import Document

__all__ = ["ImportWizard", "load_unless_foreign", "wizard_size"]


def wizard_size(parent: QWidget | None) -> QSize:
    """The wizard's size on the screen of ``parent`` (the primary one without):
    860x640 at the least (the pages' fields and the sheet's first rows), up to
    1100 px wide and 90 % of the screen's height, so that the report's tables
    show as many rows as the screen allows (at 1280x800: 1024x720); never
    larger than the screen."""
    screen = parent.screen() if parent is not None else QGuiApplication.primaryScreen()
    room = screen.availableGeometry().size()
    width = max(860, min(1100, round(0.8 * room.width())))
    height = max(640, round(0.9 * room.height()))
    return QSize(min(width, room.width()), min(height, room.height()))


class ImportWizard(WizardSteps):
    """Import an annotators' spreadsheet: sheet, mapping, report, then Finish.

    Parameters
    ----------
    path
        The .xlsx, .csv or .tsv file (only read, never changed).
    conventions
        The conventions the imported document starts from (the open
        document's); the page's rubric, consensus and rounding replace theirs.
        The rubric proposed comes from the file (its labels' scale, its
        numbers' range), never from the open document.
    """

    #: The wizard's background work finished (preview or import); tests wait on it.
    work_finished = Signal()

    SHEET, MAPPING, REPORT = 0, 1, 2

    def __init__(self, path: str | Path, conventions: Conventions | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importWizard")
        self.path = Path(path)
        self.conventions = conventions or Conventions()
        self.setWindowTitle(self.tr("Import annotators' sheet — {0}").format(self.path.name))
        self.preview_value: SheetPreview | None = None
        self.result_value: ImportResult | None = None
        self.error: str = ""
        self.busy = False
        self.task: Task | None = None
        #: Work started so far: only the last one's result is taken (:meth:`_run`).
        self._runs = 0
        #: A read of the sheet again for the pages' choices runs (:meth:`_run`'s
        #: ``again``), and the one asked for meanwhile, waiting for its end.
        self._reading = False
        self._pending: tuple[str, Any, Any] | None = None
        self.sheet_page = SheetPage(self)
        self.mapping_page = MappingPage(self, self.conventions)
        self.report_page = ReportPage(self)
        self.setPage(self.SHEET, self.sheet_page)
        self.setPage(self.MAPPING, self.mapping_page)
        self.setPage(self.REPORT, self.report_page)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        # Alt and a letter reaches every field and box of a page (none of
        # Next's, Back's or Finish's letters: they would take it).
        wizard_letters = [letter for button in (
            QWizard.WizardButton.NextButton, QWizard.WizardButton.BackButton,
            QWizard.WizardButton.FinishButton, QWizard.WizardButton.CancelButton)
            if (letter := mnemonic(self.buttonText(button)))]
        for page in (self.sheet_page, self.mapping_page, self.report_page):
            underline_letters(page, taken=wizard_letters)
        self.resize(wizard_size(parent))
        self.load_preview()

    # -- background work ------------------------------------------------------------
    def _run(self, label: str, work: Any, done: Any, *, again: bool = False) -> None:
        """``work`` off the UI thread, then ``done`` with its value; work
        started again before it ends supersedes it (its result dropped:
        the grade column chosen twice in a row proposes the second's scale).
        ``again``: a read of the sheet again for the choices the pages show;
        while one runs, the one asked for last waits for its end (one
        pending read, the latest choices win), and the running one's
        result, or failure, is dropped for it."""
        if again and self._reading and self.busy:
            self._pending = (label, work, done)
            return
        self._pending = None
        self._reading = again
        self.busy = True
        self._pages_changed()
        self._runs += 1
        this = self._runs

        def finished(value: Any) -> None:
            if this != self._runs or self._read_pending():
                return
            self.busy = self._reading = False
            done(value)
            self._pages_changed()
            self.work_finished.emit()

        def failed(exc: BaseException) -> None:
            if this != self._runs or self._read_pending():
                return
            self.busy = self._reading = False
            if isinstance(exc, NotConsensus | SplitRanking):  # the way out in the page's words
                exc = replace(exc, hint=self.mapping_page.way_out(exc))
            elif isinstance(exc, InputError) and exc.hint:  # the flags it names, as controls
                exc = replace(exc, hint=in_the_wizard(exc.hint))
            self.error = error_text(exc)
            if self.currentId() == self.REPORT:
                self.report_page.view.set_report(None, self.error)
            self._pages_changed()
            self.work_finished.emit()
            show_error(self, self.tr("Import"), exc)

        def cancelled() -> None:
            if this != self._runs:
                return
            self._pending = None  # (the user stopped the reading)
            self.busy = self._reading = False
            self._pages_changed()
            self.work_finished.emit()

        self.error = ""
        self.task = run_task(self, label, work, on_done=finished, on_error=failed,
                             on_cancel=cancelled)

    def _read_pending(self) -> bool:
        """The read asked for while one ran started (True), if any."""
        pending, self._pending = self._pending, None
        if pending is None:
            return False
        self._reading = False
        self._run(*pending, again=True)
        return True

    def _pages_changed(self) -> None:
        """The current page's buttons follow the work's start and end (a page
        shown later is asked then). Not the mapping page's, complete
        whatever runs: the signal closes an open list of columns (a read
        ending closed the one the user had opened meanwhile)."""
        page = self.currentPage()
        if page is not None and page is not self.mapping_page:
            page.completeChanged.emit()

    def load_preview(self, *, sheet: str | None = None, mapping: ColumnMapping | None = None,
                     header_row: int | None = None) -> None:
        """Read the sheet and guess again: the sheet (unless given), the
        header row (unless given, 0-based), the mapping and the labels."""
        path = self.path

        def done(value: SheetPreview) -> None:
            self.preview_value = value
            self.sheet_page.show_preview(value)

        self._run(self.tr("Reading {0}…").format(path.name),
                  lambda progress, cancelled: preview(path, sheet=sheet, mapping=mapping,
                                                      header_row=header_row), done)

    def propose_scale(self, mapping: ColumnMapping) -> None:
        """The labels and the rubric proposed for the grade columns of
        ``mapping`` (chosen on the mapping page), read again from the sheet."""
        path = self.path
        sheet = self.preview_value.sheet if self.preview_value is not None else None
        def done(value: SheetPreview) -> None:
            self.sheet_page.show_roles(value)
            self.mapping_page.show_scale(value)

        self._run(self.tr("Reading {0}…").format(path.name),
                  lambda progress, cancelled: preview(path, sheet=sheet, mapping=mapping),
                  done, again=True)

    def guess_around(self, chosen: Mapping[str, int | None], keep: tuple[str, ...] = ()) -> None:
        """The sheet read again around the columns the user ``chosen`` on the
        mapping page (the annotator's: the people counted by it, the
        columns naming them said so, the rows each kind of mark counts;
        the query's, the source's, the grade's: its scale proposed) and
        the kinds of marked rows they ``keep`` (counted with the people):
        the page's guesses follow the choice at once, as ``--map`` and
        ``--keep`` read the sheet. One read waits while another runs, the
        latest choices (:meth:`_run`)."""
        path, value = self.path, self.preview_value
        sheet = value.sheet if value is not None else None
        header_row = value.header_row if value is not None else None
        fields, kept = dict(chosen), tuple(keep)

        def done(again: SheetPreview) -> None:
            self.preview_value = again
            self.sheet_page.show_roles(again)
            self.mapping_page.show_guess(again)

        self._run(self.tr("Reading {0}…").format(path.name),
                  lambda progress, cancelled: preview(path, sheet=sheet, header_row=header_row,
                                                      chosen=fields, keep=kept), done,
                  again=True)

    def preview_width(self) -> int:
        return self.sheet_page.model.columnCount()

    def import_conventions(self) -> Conventions:
        """The open conventions with the page's rubric, consensus and rounding
        (no rubric declared when the page holds the one proposed from the
        sheet's labels: the import reads them as proposed)."""
        page = self.mapping_page
        return self.conventions.replace(
            rubric=page.declared_rubric(), consensus=ConsensusRule(page.consensus.currentData()),
            rounding=Rounding(page.rounding.currentData()))

    def run_import(self) -> None:
        """Import with the page's mapping and the grades given to the labels;
        the report page shows the result."""
        self.result_value = None
        path = self.path
        mapping = self.mapping_page.mapping()
        sheet = self.preview_value.sheet if self.preview_value is not None else None
        conventions = self.import_conventions()
        labels = self.mapping_page.labels_model.answers()

        def done(result: ImportResult) -> None:
            self.result_value = result
            self.report_page.show_report(result.report)

        self._run(self.tr("Importing {0}…").format(path.name),
                  lambda progress, cancelled: offer_guidelines(import_annotations(
                      path, mapping, sheet=sheet, conventions=conventions, labels=labels,
                      empty_ok=True), path), done)  # (every judgment rejected: listed)

    def done(self, result: int) -> None:
        # Closing while reading or importing abandons that work: its result is dropped.
        if self.task is not None and not self.task.done:
            self.task.cancel()
        super().done(result)

    @property
    def report(self) -> ImportReport | None:
        return self.result_value.report if self.result_value is not None else None


def load_unless_foreign(path: Path, conventions: Conventions | None,
                        encoding: str | None = None) -> Document | None:
    """Open ``path`` as :func:`core.io.load.load_document` does; None for an
    annotators' sheet (see :func:`core.io.load.is_annotator_sheet`), which the wizard imports.

    Our own workbooks are read once (no separate check). A worksheet CSV/TSV
    is decoded in ``encoding``, by default the one its bytes show, as the
    annotators' importer finds it (:data:`core.io.textfile.DETECT`).
    """
    from core.io.load import load_document
    from core.io.textfile import DETECT

    suffix = path.suffix.lower()
    if suffix in WORKBOOK_SUFFIXES and path.is_file():
        from core.io.workbook import read_workbook

        try:
            doc: Document = read_workbook(path)
        except NotOwnWorkbook:
            return None
        return doc
    if is_annotator_sheet(path):  # CSV, TSV, JSON (Lines), text: any format the import reads
        return None
    return load_document(path, conventions=conventions, encoding=encoding or DETECT)
