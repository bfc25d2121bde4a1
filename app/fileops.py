"""Open, Save, Save As, Export (:mod:`app.exports`), recent files, and the crash journal,
for one window.

Reading and writing run off the UI thread (:mod:`app.workers`) behind a
progress dialog that can cancel. Saving goes through
:func:`core.io.atomic.atomic_write` (via the core writers), so a failed save
leaves the previous file byte-identical; the error is shown as one message
box with the :class:`~core.errors.InputError` text. Every step of the session
is journaled (:mod:`core.io.journal`, the journals a window's edits are in:
:mod:`app.journaling`); a successful save clears the journal, and opening a
file with a pending journal offers to recover it (:mod:`app.recovery`).
What is saved and where is read from, and written to, one place each: the
session's saved position (:meth:`core.session.Worksheet.mark_saved`; the
window's modified flag follows it) and the window's path
(:meth:`app.window_api.WindowApi.set_path`). How the document was read, its
:class:`~app.file_formats.Origin`, is declared when it is read
(:meth:`FileOps.opened_as`): a source (a run and its qrels, an annotators'
sheet, a Parquet table) is never replaced by Save or an export; the first
Save asks where to keep the worksheet, and the window then works on that file.

Wire it with ``install_file_ops(window)`` once the window exists. What can be
written, and how, is :mod:`app.file_formats`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox

from app import exports
from app.actions import ActionSpec
from app.file_formats import (
    IMPORT_FILTER,
    OPEN_FILTER,
    TEXT_SUFFIXES,
    Origin,
    can_write,
    origin_of,
    proposed_save_path,
    save_filters,
    snapshot,
    wait_for,
    with_suffix,
    write_document,
    written_origin,
)
from app.first_paint import after_first_paint
from app.journaling import Journaling
from app.open_progress import PaintFirst
from app.open_run import ask_for_qrels, needs_qrels
from app.opened_conventions import KEEP_TEXT, conventions_for_opening, opened_with
from app.opening import evaluated, memory_said, stat_or_none
from app.recovery import recover
from app.save_checks import SaveChecks
from app.settings import Settings
from app.shown import boxed
from app.workers import Task, run_task, show_error
from core.errors import InputError, NdcgError
from core.io.delimited import keep_text_encoding
from core.io.first_seen import keep_first_seen
from core.io.identity import DigestLater, FileState, real_path
from core.io.journal import Journal
from core.model.conventions import Conventions
from core.model.document import Document
from core.session import Changes

if TYPE_CHECKING:
    from app.window_api import WindowApi
    from core.engine.evaluation import Evaluation

#: What File > Open's worker hands the window: the document (None: an
#: annotators' sheet, for the import wizard), the file's ``os.stat`` before
#: the read, and the document's evaluation (None: the window evaluates it).
_Read = tuple[Document | None, os.stat_result | None, "Evaluation | None"]

__all__ = ["FileOps", "install_file_ops"]

MAX_RECENT = 10


class FileOps(QObject):
    """File actions, recent files and the journal of one main window.

    Parameters
    ----------
    window
        The main window whose document is read, saved and journaled.
    """

    #: The document was written to this path (Save, Save As).
    saved = Signal(str)
    #: A document was read from this path (Open, or the import wizard's Finish).
    opened = Signal(str)
    #: An annotators' sheet was imported through the wizard: carries the ImportReport.
    imported = Signal(object)
    recent_changed = Signal()

    def __init__(self, window: WindowApi, *, read_as: os.stat_result | None = None) -> None:
        super().__init__(window)
        self.setObjectName("fileOps")
        self.window = window
        self._file_state: FileState | None = None
        self._later: DigestLater | None = None
        #: The launch file's digest waits for the document (the window is
        #: shown while the file is read: :meth:`hold_digest`).
        self._digest_held = False
        if self.path and read_as is not None:
            self._later = DigestLater(self.path, read_as)
            self._digest_after_paint()
        elif self.path:
            self._file_state = FileState.of(self.path)
        #: What to ask before a file is written (read-only, changed, lossy).
        self.checks = SaveChecks(window)
        self.task: Task | None = None
        # (While the digest is taken later, the journal's base is given
        # before its first line is written: record.)
        self.journaling = Journaling(self.path, self._file_state)
        #: How the document was read from the window's path (None: the example,
        #: or a window made on a document): a source goes to Save As.
        self.origin: Origin | None = None
        #: The sources read in this window (the files themselves): never written.
        self.sources: list[Path] = []
        #: The qrels the run shown was read with (Export TREC qrels proposes beside them).
        self.qrels: Path | None = None
        #: The report of the last import (the wizard's, or a strict open's).
        self.last_import_report: Any = None
        self.import_wizard: Any = None
        #: The preset named at launch (``--preset``): files opened declaring
        #: no conventions are read under it (:mod:`app.opened_conventions`).
        self.preset: str | None = None
        self.actions: dict[str, QAction] = {}
        self._make_actions()
        self._watch()
        self._start_journal()

    # -- actions ----------------------------------------------------------------------
    def _make_actions(self) -> None:
        key = QKeySequence.StandardKey
        specs = (
            (ActionSpec("open", "&Open…", "file", key.Open,
                        "Open a worksheet (CSV, TSV or workbook); an annotators' sheet goes "
                        "to the import wizard"), self.open_dialog),
            (ActionSpec("save", "&Save", "file", key.Save,
                        "Save the worksheet; the previous file survives any failure"), self.save),
            (ActionSpec("save_as", "Save &As…", "file", key.SaveAs,
                        "Save the worksheet under a new name"), self.save_as),
            (ActionSpec("export", "&Workbook or CSV…", "file", None,
                        "Write a copy (workbook with formulas, or CSV) without changing the "
                        "open file"), self.export_dialog),
            (ActionSpec("export_qrels", "TREC &qrels…", "file", None,
                        "Write the current grades back as TREC qrels (what qrels cannot "
                        "hold is named first)"), self.export_qrels_dialog),
            (ActionSpec("import_annotations", "&Import annotators' sheet…", "file", None,
                        "Import an annotators' spreadsheet: choose the columns, read the "
                        "report, then open the result"), self.import_dialog),
            (ActionSpec("last_import_report", "Last import re&port…", "file", None,
                        "Show what the last import read, refused and flagged"),
             self.show_import_report),
        )
        for spec, slot in specs:
            self.actions[spec.id] = self.window.add_action(spec, slot, at_top=True)
        self.actions["last_import_report"].setEnabled(False)
        self.actions["keep_conventions"] = keep = self.window.add_action(ActionSpec(
            "keep_conventions", "&" + KEEP_TEXT, "file", None, "Read the files opened next under "
            "the window's conventions, not the defaults (a workbook of ours keeps its own)"),
            lambda: None, at_top=True)  # (with the file actions, not after Quit)
        keep.setCheckable(True)
        self.recent_menu = QMenu(self.tr("Open &Recent"), self.window)
        self.recent_menu.setObjectName("recentMenu")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        self.window.add_submenu("file", self.recent_menu, after=self.actions["open"])
        # File > Export > Workbook or CSV…, TREC qrels…
        self.export_menu = QMenu(self.tr("&Export"), self.window)
        self.export_menu.setObjectName("exportMenu")
        for action_id in ("export", "export_qrels"):
            self.window.menu("file").removeAction(self.actions[action_id])
            self.export_menu.addAction(self.actions[action_id])
        self.window.add_submenu("file", self.export_menu, after=self.actions["save_as"])

    @property
    def file_state(self) -> FileState | None:
        """The file as the document was read from it (or last saved): Save
        asks before writing over a file changed on disk since (waits for the
        digest when it is still being taken)."""
        self._settle_state()
        return self._file_state

    @file_state.setter
    def file_state(self, state: FileState | None) -> None:
        self._later = None
        self._file_state = state

    def _settle_state(self) -> None:
        """The digest taken later, waited for (and given to the journal)."""
        if self._later is not None:
            self._file_state, self._later = self._later.result(), None
            if self.journal.base is None:  # the journal of the file read: not written yet
                self.journal.base = self._file_state

    def _digest_after_paint(self) -> None:
        """The launch file's digest taken on its thread once the window is
        next painted (not for a file another one replaced meanwhile, nor
        while :meth:`hold_digest` holds it)."""
        later = self._later

        def start() -> None:
            if self._later is later and later is not None and not self._digest_held:
                later.start()

        after_first_paint(self.window, start)

    def hold_digest(self, held: bool) -> None:
        """While ``held``, the launch file's digest waits (the window shown
        while the file is still read: hashing the 70 MB run beside the read
        took a core it wanted); let go, it is taken after the next paint
        (the document's first)."""
        self._digest_held = held
        if not held:
            self._digest_after_paint()

    @property
    def path(self) -> Path | None:
        """The window's path (its one owner): where Save writes."""
        return self.window.path

    def opened_as(self, origin: Origin, path: Path, qrels: str | Path | None = None) -> None:
        """Declare how the document shown was read from ``path`` (with
        ``qrels`` for a run): a source and its qrels are never written."""
        self.origin = origin
        self.qrels = real_path(qrels) if qrels is not None else None
        if origin.is_source:
            self.sources += [real_path(p) for p in (path, qrels) if p is not None]

    # -- recent files -----------------------------------------------------------------
    @property
    def recent_files(self) -> list[str]:
        return Settings().recent_files

    def add_recent(self, path: Path) -> None:
        text = str(path.resolve())
        files = [text] + [p for p in Settings().recent_files if p != text]
        Settings().recent_files = files[:MAX_RECENT]
        self.recent_changed.emit()

    def forget_recent(self, path: str) -> None:
        Settings().recent_files = [p for p in Settings().recent_files if p != path]
        self.recent_changed.emit()

    @Slot()
    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files
        for n, path in enumerate(files, start=1):
            action = self.recent_menu.addAction(f"&{n % 10} {Path(path).name}")
            action.setToolTip(path)
            action.setStatusTip(path)
            action.setData(path)
            action.triggered.connect(lambda _checked=False, p=path: self.open_recent(p))
        if not files:
            empty = self.recent_menu.addAction(self.tr("(no recent files)"))
            empty.setEnabled(False)

    def open_recent(self, path: str) -> Task | None:
        if not Path(path).exists():
            self.forget_recent(path)
            show_error(self.window, self.tr("Open recent"),
                       InputError("the file is no longer there", file=path,
                                  hint="it was removed from the recent files"))
            return None
        return self.open_path(Path(path))

    # -- journal ----------------------------------------------------------------------
    def _watch(self) -> None:
        # Every step of the session (an edit, a paste, an undo) is one record:
        # one batch of journal lines, one write.
        self.window.session.subscribe(self.record)
        self.window.document_replaced.connect(lambda _doc: self._start_journal())
        # Discarded edits are not offered back.
        self.window.changes_discarded.connect(lambda: self.journaling.discard())
        # Closed, the window's journal lets its helper thread go (a window
        # closed, even unmodified after an undo, left it waiting for ever);
        # closed unmodified, a journal of edits undone or saved is removed.
        self.window.closing.connect(lambda: self.journaling.close(
            None if self.window.session.modified else self.window.document))
        self.window.save_handler = lambda: self.save(blocking=True)
        self.window.close_question = self.close_question

    @property
    def journal(self) -> Journal:
        """The crash journal the window's edits are written to now."""
        return self.journaling.journal

    def _start_journal(self) -> None:
        """The journal of the window's path (a new one when the path changed)."""
        self.journaling.follow(self.path, self._file_state)

    def record(self, changes: Changes) -> None:
        """Journal what one step changed (undo and redo included)."""
        if changes.empty or changes.document:
            return
        self._settle_state()  # the journal's first line names the file as it was read
        try:
            self.journal.record(self.window.document, changes)
        except OSError as exc:
            show_error(self.window, self.tr("Journal"), InputError(
                f"cannot write the crash journal: {exc.strerror or exc}",
                file=str(self.journal.file), hint="edits are kept in memory; save soon"))

    # -- open -------------------------------------------------------------------------
    def open_dialog(self) -> Task | None:
        if not self.maybe_save():
            return None
        start = Settings().last_directory or str(Path.home())
        name, _ = QFileDialog.getOpenFileName(self.window, self.tr("Open worksheet"), start,
                                              self.tr(OPEN_FILTER))
        return self.open_path(Path(name), ask_to_save=False) if name else None

    def open_path(self, path: Path, *, ask_to_save: bool = True,
                  encoding: str | None = None) -> Task | None:
        """Read ``path`` off the UI thread; show it when read (offering recovery).
        ``encoding``: a worksheet CSV/TSV's, when not the one its bytes show.
        A run (TREC or JSON) is read with the qrels the user then chooses."""
        if ask_to_save and not self.maybe_save():
            return None
        path, qrels = Path(path), None
        if needs_qrels(path):
            qrels = ask_for_qrels(self.window, path)
            if qrels is None:
                return None
        keep = self.actions["keep_conventions"].isChecked()
        conventions = self.conventions_for_opening()
        gate = PaintFirst(path)  # a large file's progress shows before reading starts

        def work(progress: Any, cancelled: Any) -> _Read:
            from app.import_wizard.wizard import load_unless_foreign
            from core.io.load import load_document

            # The file's size and time before the read (its digest is taken
            # once it is shown, off the read's way), to notice changes made later.
            then = stat_or_none(path)
            # None: an annotators' sheet, not a file of our own: the wizard imports it.
            # A run's ranked order under the conventions it opens with is worked
            # out beside its join (as at launch: app.opening.run_ties).
            doc = (load_document(path, qrels=qrels, conventions=conventions,
                                 ties=conventions.ties) if qrels
                   else load_unless_foreign(path, conventions, encoding))
            # Evaluated here too, as at launch (app.opening), unless a crash
            # journal may change its grades once shown (_opened recovers it).
            ev = evaluated(doc) if doc is not None and not Journal.written(path) else None
            return doc, then, ev

        def failed(exc: BaseException) -> None:
            show_error(self.window, self.tr("Could not open"), memory_said(exc, path))

        self.task = task = run_task(
            self.window, self.tr("Opening {0}…").format(path.name), gate.wrap(work),
            on_done=lambda read: self._opened_or_import(*read, path=path, qrels=qrels,
                                                        keep=keep),
            on_error=failed,
        )
        # The window closed while the file is read: Cancel (the read stops, core.io.stop).
        self.window.installEventFilter(self)
        for over in (task.finished, task.failed, task.cancelled):
            over.connect(lambda *_: self.window.removeEventFilter(self))
        gate.show(task.dialog)
        return task

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """(Installed on the window while File > Open reads: its close,
        accepted, hides it; the read is not wanted then.)"""
        if (event.type() == QEvent.Type.Hide and not event.spontaneous()
                and self.task is not None and not self.task.done):
            self.task.cancel()
        return False

    def offer_recovery(self) -> bool:
        """Offer to replay a pending journal of the document already shown.

        For a window built on a file (``build_window(path)``); :meth:`open_path`
        does this by itself. True when edits were recovered.
        """
        path = self.path
        if path is None or not any(j.is_pending() or j.is_stale()
                                   for j in Journal.written(path)):
            return False
        doc = self.window.document
        self.journal.close()
        recovery = recover(self.window, doc, path)
        # Recovered edits are not on disk yet: the window shows it modified
        # (none: the document as shown, its evaluation with it).
        self.window.set_document(doc, path, saved=not recovery.recovered, evaluation=(
            recovery.evaluation if recovery.recovered else self.window.evaluation))
        self.journaling.after(recovery)
        return recovery.recovered

    def conventions_for_opening(self) -> Conventions:
        """The conventions a file opened now is read under when it declares
        none: the defaults (under the launch's preset), or the window's when
        File > Keep Conventions for Files Opened is ticked."""
        return conventions_for_opening(
            self.window.document.conventions, preset=self.preset,
            keep=self.actions["keep_conventions"].isChecked())

    def _opened_or_import(self, doc: Document | None, then: os.stat_result | None,
                          evaluation: Evaluation | None, *, path: Path,
                          qrels: Path | None = None, keep: bool = False) -> None:
        if doc is None:
            self.run_import_wizard(path)
        elif self._opened(doc, path, then, evaluation, qrels=qrels):
            # (no default or preset declares a rubric: a run's came with its judgments)
            scale = qrels.name if qrels is not None and doc.conventions.rubric else None
            self.window.show_message(opened_with(
                path.name, origin_of(path, doc, qrels=qrels), preset=self.preset, keep=keep,
                scale_from=scale))

    def _opened(self, doc: Document, path: Path, then: os.stat_result | None = None,
                evaluation: Evaluation | None = None, *, qrels: Path | None = None) -> bool:
        """Show ``doc`` read from ``path`` (with ``qrels`` for a run; ``then``:
        the file's ``os.stat`` before the read; ``evaluation``: ``doc``'s,
        worked out on the read's worker), its crash journal's edits recovered
        when the user says so. False when it could not be shown."""
        before = self._file_state, self._later
        # (None while the document is set: the journal it starts takes the
        # digest's state once known, _settle_state.)
        self.file_state = None
        keep_first_seen(doc, path)  # a spreadsheet's edit seen on an earlier opening
        if not self.window.session.modified:  # (the document replaced: as a close)
            self.journaling.leaving(self.window.document)
        recovery = recover(self.window, doc, path)
        try:
            # Recovered edits are not on disk yet: the window shows it modified
            # (and the grades they changed evaluated).
            self.window.set_document(doc, path, saved=not recovery.recovered, evaluation=(
                recovery.evaluation if recovery.recovered else evaluation))
        except (InputError, MemoryError) as exc:  # the document shown stays
            from core.io.locate import name_the_row

            self._file_state, self._later = before
            # A grade its conventions refuse: the file and the place.
            show_error(self.window, self.tr("Could not open"), memory_said(exc, path)
                       if isinstance(exc, MemoryError) else name_the_row(exc, doc, path))
            return False
        self.journaling.after(recovery)
        if then is not None:  # its digest taken on a thread beside the window's work
            self._later = DigestLater(path, then)
            self._later.start()
        self.opened_as(origin_of(path, doc, qrels=qrels), path, qrels)
        report = doc.import_report
        if report is not None:  # a foreign file read strictly (build_window)
            self._remember_report(report)
        Settings().last_directory = str(path.parent)
        self.add_recent(path)
        self.opened.emit(str(path))
        return True

    # -- import -----------------------------------------------------------------------
    def import_dialog(self) -> bool:
        """Choose an annotators' sheet and run the import wizard on it."""
        if not self.maybe_save():
            return False
        start = Settings().last_directory or str(Path.home())
        name, _ = QFileDialog.getOpenFileName(self.window, self.tr("Import annotators' sheet"),
                                              start, self.tr(IMPORT_FILTER))
        return self.run_import_wizard(Path(name)) if name else False

    def run_import_wizard(self, path: Path) -> bool:
        """The import wizard on ``path``; Finish shows the imported document.

        True when a document was imported.
        """
        from app.import_wizard.wizard import ImportWizard

        wizard = ImportWizard(path, self.conventions_for_opening(), self.window)
        self.import_wizard = wizard
        try:
            accepted = wizard.exec() == int(ImportWizard.DialogCode.Accepted.value)
            result = wizard.result_value
        finally:
            self.import_wizard = None
            wizard.deleteLater()
        if not accepted or result is None:
            return False
        # Its report declares it imported: the window shows the sheet's name, but
        # Save never writes over the annotators' file (it asks for a new name).
        result.document.import_report = result.report
        try:
            self._opened(result.document, path)
        except NdcgError as exc:  # the document cannot be evaluated under its conventions
            show_error(self.window, self.tr("Could not open"), exc)
            return False
        self.imported.emit(result.report)
        return True

    def _remember_report(self, report: Any) -> None:
        self.last_import_report = report
        self.actions["last_import_report"].setEnabled(True)

    def show_import_report(self) -> Any:
        """A dialog with the last import's report (None when nothing was imported)."""
        if self.last_import_report is None:
            return None
        from app.import_wizard.report import ImportReportDialog

        dialog = ImportReportDialog(self.last_import_report, self.window)
        dialog.exec()
        return dialog

    # -- save -------------------------------------------------------------------------
    def _source(self) -> tuple[Path, Origin] | None:
        """The file open and how it was read, when it is a source (a run, an
        annotators' sheet: Save never overwrites it)."""
        if self.path is not None and self.origin is not None and self.origin.is_source:
            return self.path, self.origin
        return None

    def maybe_save(self) -> bool:
        """Ask to save unsaved changes; False when the user cancelled."""
        if not self.window.session.modified:
            return True
        if source := self._source():
            # Save keeps a source as it is and asks where the worksheet goes:
            # "Save the changes to run.txt?" said otherwise.
            text = self.tr("Save the changes in a worksheet? {0} ({1}) stays as it is.").format(
                source[0].name, source[1].words)
        else:
            text = self.tr("Save the changes to {0}?").format(
                self.path.name if self.path else self.tr("the untitled worksheet"))
        answer = QMessageBox.question(
            self.window, self.tr("Unsaved changes"), boxed(text),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Cancel:
            return False
        if answer == QMessageBox.StandardButton.Discard:
            self.journaling.discard()
            return True
        return self.save(blocking=True)

    def close_question(self) -> str:
        """The window's question on closing with unsaved changes: it names the
        document, and for a source file that Save keeps it as it is (as
        :meth:`maybe_save` says)."""
        if source := self._source():
            return self.tr("The changes to {0} ({1}) are not saved: Save puts them in a "
                           "worksheet, {0} stays as it is. Close anyway?").format(
                source[0].name, source[1].words)
        if self.path is not None:
            return self.tr("{0} has unsaved changes. Close anyway?").format(self.path.name)
        return self.tr("The untitled worksheet has unsaved changes. Close anyway?")

    def save(self, *, blocking: bool = False) -> bool:
        """Save to the current path (Save As when there is none, its format
        cannot be written, or it is a source: a run, an annotators' sheet)."""
        source = self.origin is not None and self.origin.is_source
        if self.path is None or not can_write(self.path) or source:
            return self.save_as(blocking=blocking)
        return self.save_to(self.path, blocking=blocking)

    def save_as(self, path: Path | None = None, *, blocking: bool = False) -> bool:
        """Ask for a file name (beside a source, ``<name>.xlsx``; an audited
        workbook in the format of the file read, unless another is chosen)
        and save there (:func:`app.file_formats.proposed_save_path`)."""
        if path is None:
            folder = Path(Settings().last_directory or Path.home())
            start = proposed_save_path(self.path, self.origin, folder)
            filters, first = save_filters(self.path)
            title = self.tr("Save worksheet as")
            if source := self._source():
                title = self.tr("Save worksheet as (the source {0} stays as it is)").format(
                    source[0].name)
            name, chosen = QFileDialog.getSaveFileName(
                self.window, title, str(start), ";;".join(filters), first)
            if not name:
                return False
            path = with_suffix(Path(name), chosen)
        return self.save_to(Path(path), blocking=blocking)

    def save_to(self, path: Path, *, blocking: bool = False) -> bool:
        """Write the document to ``path`` off the UI thread; True when it is started
        (or, with ``blocking``, finished) without error. Asks first when the
        file is read-only, changed on disk since it was read, or of a format
        that loses part of the worksheet."""
        path = Path(path)
        same = self.path is not None and real_path(path) == real_path(self.path)
        if not self.checks.not_a_source(path, self.sources):
            return False
        if not self.checks.allow(path, self.file_state if same else None,
                                 self.window.document, save_as=self.save_as):
            return False
        encoding = self.checks.encoding(path, self.window.document)
        if encoding is None:
            return False
        doc = snapshot(self.window.document)
        state = self.window.session.checkpoint  # the state the file will hold
        outcome: dict[str, bool] = {}

        def done(_result: Any) -> None:
            outcome["ok"] = True
            if path.suffix.lower() in TEXT_SUFFIXES:  # the next save keeps what this one wrote
                keep_text_encoding(self.window.document, encoding)
            self._saved(path, state)

        def failed(exc: BaseException) -> None:
            outcome["ok"] = False
            show_error(self.window, self.tr("Could not save"), exc)

        source = self.path  # what people added to it is kept
        self.task = run_task(
            self.window, self.tr("Saving {0}…").format(path.name),
            lambda progress, cancelled: write_document(doc, path, source, encoding=encoding),
            on_done=done, on_error=failed, on_cancel=lambda: outcome.update(ok=False),
            show_after_ms=0,
        )
        if blocking:
            wait_for(self.task, outcome)
            return outcome.get("ok", False)
        return True

    def _saved(self, path: Path, state: int) -> None:
        self.window.session.mark_saved(state)  # (edits made meanwhile stay modified)
        self.file_state = FileState.of(path)
        self.origin = written_origin(path)  # ours now: later Saves write it in place
        if self.path is None or real_path(path) != real_path(self.path):
            self.window.set_path(path)
            self.journaling.saved(path, self.file_state)
        else:
            self.journaling.saved(None, self.file_state)
        Settings().last_directory = str(path.parent)
        self.add_recent(path)
        # One rule, however the path was given (a file opened by a relative
        # name was said "Saved run_a-lo.ods", one chosen in the dialog by
        # its whole path): the name first, then the folder it is in.
        where = path.absolute()
        self.window.show_message(self.tr("Saved {0} in {1}").format(where.name, where.parent),
                                 10000)
        self.saved.emit(str(path))

    # -- export (app.exports) -----------------------------------------------------------
    def export_dialog(self) -> Task | None:
        return exports.export_dialog(self)

    def export_qrels_dialog(self) -> Task | None:
        return exports.export_qrels_dialog(self)

    def export_qrels(self, path: Path) -> Task | None:
        return exports.export_qrels(self, path)

    def export(self, path: Path) -> Task | None:
        return exports.export(self, path)


def install_file_ops(window: WindowApi, *, read_as: os.stat_result | None = None) -> FileOps:
    """Add Open, Save, Save As, Export and Open Recent to ``window`` and journal
    its edits; :func:`app.main.build_window` keeps it as ``window.file_ops``.
    ``read_as``: the window's file's ``os.stat`` taken before it was read
    (its digest is then taken after the window's first paint)."""
    return FileOps(window, read_as=read_as)
