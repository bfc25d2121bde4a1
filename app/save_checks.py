"""What the editor asks before it writes a file, and when.

Saving respects the file: a file whose write permission is off, or that
LibreOffice or Excel holds open (its lock file beside it), is not replaced
(Save As is offered instead); a file changed on disk since it was
read (a colleague appended a row) is not overwritten without asking; and a
format that keeps less than the worksheet (CSV, TSV: no conventions, no audit
log, no original grades) says exactly what it will not keep, once per file
and session. A workbook of ours that people added charts, images, pivot
tables or macros to (which a save cannot write again; their sheets, columns
and comments it keeps) is not replaced before the user chose "Save a copy"
or "Save anyway". A source the worksheet was read from (a run, its qrels, an
annotators' sheet: :attr:`app.file_formats.Origin.is_source`) is never
replaced, by whatever path, link or hard link it is named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from app.file_formats import ENCODINGS, TEXT_SUFFIXES
from app.shown import boxed, shown_id
from app.workers import show_error
from core.errors import InputError, StaleLock
from core.io.atomic import check_writable, remove_stale_lock
from core.io.delimited import KEPT, cannot_encode, not_kept, text_encoding
from core.io.identity import FileState, real_path
from core.model.document import Document

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["SaveChecks", "stale_lock_removed", "stale_locks_cleared"]

Button = QMessageBox.StandardButton


class SaveChecks(QObject):
    """The questions before a save, for one window."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.window = window
        #: Files whose lossy format the user accepted in this session.
        self._lossy_ok: set[Path] = set()
        #: Workbooks whose charts (and the like) the user let a save drop.
        self._drop_ok: set[Path] = set()

    def allow(self, path: Path, read_as: FileState | None, doc: Document, *,
              save_as: Callable[[], object]) -> bool:
        """Whether to go on writing ``path`` with ``doc``.

        ``read_as`` is the file as the document was read from it (None when
        ``path`` is another file); ``save_as`` is offered for a read-only file.
        """
        return (self._writable(path, save_as) and self._unchanged(path, read_as)
                and self._lossy_accepted(path, doc) and self._drop_accepted(path, save_as))

    def not_a_source(self, path: Path, sources: Sequence[Path]) -> bool:
        """False, after one message, when ``path`` is one of ``sources`` (the
        files the worksheet was read from as sources): nothing is written."""
        from app.cli.export import refuse_writing_over_inputs  # (the command line's rule)

        try:
            refuse_writing_over_inputs(path, *sources)
        except InputError:
            show_error(self.window, self.tr("Not saved"), InputError(
                "this is a file the worksheet was read from (a run, its qrels or an "
                "annotators' sheet); it is never replaced, nothing was written",
                file=str(path), hint="choose another name"))
            return False
        return True

    def encoding(self, path: Path, doc: Document) -> str | None:
        """The encoding to write a worksheet CSV/TSV in: the one ``doc`` was
        read in, so the file stays as Excel or a colleague saved it. When that
        encoding cannot hold a character of ``doc``, "UTF-8 with BOM" is
        offered instead (None: the user cancelled). UTF-8 for a workbook or
        a document not read from a text file."""
        codec = text_encoding(doc) if path.suffix.lower() in TEXT_SUFFIXES else None
        if codec is None or codec.startswith(("utf-8", "utf-16", "utf-32")):
            return codec or "utf-8"
        trouble = cannot_encode(doc, codec, path)
        if trouble is None:
            return codec
        answer = QMessageBox.question(
            self.window, self.tr("Save as UTF-8?"),
            boxed(self.tr("{0} was read as {1}, which cannot hold every character of the "
                          "worksheet:\n\n{2}\n\nSave it as UTF-8 with BOM instead (Excel reads "
                          "that)?").format(path.name, ENCODINGS.get(codec, codec), trouble)),
            Button.Save | Button.Cancel, Button.Save)
        if answer != Button.Save:
            self.window.show_message(self.tr("Not saved: {0}").format(trouble.problem))
            return None
        return "utf-8-sig"

    def _writable(self, path: Path, save_as: Callable[[], object]) -> bool:
        try:
            check_writable(path)
        except StaleLock as exc:
            return (stale_lock_removed(self.window, path, Path(exc.lock), "save",
                                       save_as=save_as)
                    and self._writable(path, save_as))  # (and nothing else holds it)
        except InputError as exc:
            answer = QMessageBox.warning(
                self.window, self.tr("File not replaced"),
                boxed(self.tr("{0}\n\nSave a copy under another name?").format(exc)),
                Button.Save | Button.Cancel, Button.Save)
            if answer == Button.Save:
                save_as()
            return False
        return True

    def locks_cleared(self, paths: Sequence[str | Path], action: str) -> bool:
        """:func:`stale_locks_cleared` for a writer of this window (Export,
        Export TREC qrels)."""
        return stale_locks_cleared(self.window, paths, action)

    def _unchanged(self, path: Path, read_as: FileState | None) -> bool:
        if read_as is None or not path.exists() or read_as.matches(path):
            return True
        answer = QMessageBox.question(
            self.window, self.tr("File changed on disk"),
            boxed(self.tr("{0} changed on disk since it was opened (another program or a "
                          "colleague wrote to it). Replace it with this worksheet, losing those "
                          "changes?").format(path.name)),
            Button.Yes | Button.Cancel, Button.Cancel)
        if answer == Button.Yes:
            return True
        self.window.show_message(self.tr(
            "Not saved: {0} changed on disk. Use Save As to keep both.").format(path))
        return False

    def _lossy_accepted(self, path: Path, doc: Document) -> bool:
        if path.suffix.lower() not in TEXT_SUFFIXES or real_path(path) in self._lossy_ok:
            return True
        lost = not_kept(doc)
        if not lost:
            return True
        kind = path.suffix.lstrip(".").upper()
        answer = QMessageBox.question(
            self.window, self.tr("Save as {0}?").format(kind),
            boxed(self.tr("{0} keeps {3}, but not:\n\n{1}\n\nAn audited workbook (.xlsx) "
                          "keeps everything. Save as {2} anyway?").format(
                path.name, "\n".join(f"• {item}" for item in lost), kind, KEPT)),
            Button.Save | Button.Cancel, Button.Cancel)
        if answer != Button.Save:
            return False
        self._lossy_ok.add(real_path(path))
        return True

    def _drop_accepted(self, path: Path, save_as: Callable[[], object]) -> bool:
        """Whether to replace a workbook whose charts, images, pivot tables or
        macros a save cannot write again: "Save a copy" (Save As, leaving the
        file as it is), "Save anyway" or Cancel."""
        if path.suffix.lower() != ".xlsx" or real_path(path) in self._drop_ok:
            return True
        # (The workbook checker's modules are imported when a workbook is
        # replaced, not at the editor's start.)
        from core.io.workbook.additions import lost_by_replacing

        try:
            lost = lost_by_replacing(path)
        except InputError:
            return True  # the save itself says what is wrong with the file
        if not lost:
            return True
        box = QMessageBox(QMessageBox.Icon.Warning,
                          self.tr("Save over {0}?").format(shown_id(path.name)),
                          boxed(self.tr("{0} holds what this app cannot write again:\n\n{1}"
                                        "\n\nSaving keeps the sheets, columns and comments "
                                        "added to it, but not these. Save a copy under another "
                                        "name to leave the file as it is.").format(
                              path.name, "\n".join(f"• {item}" for item in lost))),
                          Button.Cancel, self.window)
        copy = box.addButton(self.tr("Save a copy…"), QMessageBox.ButtonRole.AcceptRole)
        anyway = box.addButton(self.tr("Save anyway"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(copy)
        box.exec()
        clicked = box.clickedButton()
        if clicked is anyway:
            self._drop_ok.add(real_path(path))
            return True
        if clicked is copy:
            save_as()
        return False


def stale_locks_cleared(parent: QWidget, paths: Sequence[str | Path], action: str) -> bool:
    """Before a writer (Export, Hand out, Merge) writes ``paths``: each one
    refused only for a LibreOffice lock file left behind
    (:class:`core.errors.StaleLock`) gets the offer Save makes, "Delete the
    lock file and ``action``" (:func:`stale_lock_removed`). False when the
    user kept a lock (nothing is to be written); True otherwise, the other
    refusals (read-only, open in LibreOffice) left to the writer's own
    message. Before, Export and the round dialogs only said which file to
    delete."""
    for path in paths:
        try:
            check_writable(path)
        except StaleLock as exc:
            if not stale_lock_removed(parent, Path(path), Path(exc.lock), action):
                return False
        except InputError:
            continue  # (the writer says it, naming the file)
    return True


def stale_lock_removed(parent: QWidget, path: Path, lock: Path, action: str, *,
                       save_as: Callable[[], object] | None = None) -> bool:
    """A LibreOffice lock file left behind beside ``path``
    (:func:`core.io.atomic.stale_lock`), the one box every writer of the
    editor shows: "Delete the lock file and ``action``" (True: the lock
    deleted, go on), "Save a copy…" where ``save_as`` is given, or Cancel."""
    tr = parent.tr
    box = QMessageBox(QMessageBox.Icon.Warning, tr("Lock file left behind"),
                      boxed(tr(
                          "{0} has a lock file beside it ({1}) that LibreOffice left "
                          "behind when it crashed or was stopped: it names you on this "
                          "machine, and no LibreOffice is running here, so nobody holds "
                          "the file open.\n\nDelete the lock file and {2}?").format(
                              path.name, lock.name, action)),
                      Button.Cancel, parent)
    remove = box.addButton(tr("Delete the lock file and {0}").format(action),
                           QMessageBox.ButtonRole.AcceptRole)
    copy = box.addButton(tr("Save a copy…"), QMessageBox.ButtonRole.ActionRole) if (
        save_as is not None) else None
    box.setDefaultButton(remove)
    box.exec()
    clicked = box.clickedButton()
    if save_as is not None and clicked is copy:
        save_as()
    if clicked is not remove:
        return False
    try:
        remove_stale_lock(lock, path)
    except InputError as exc:  # LibreOffice started meanwhile
        show_error(parent, tr("Not written"), exc)
        return False
    return True
