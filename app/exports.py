"""File > Export of one window: a copy of the worksheet (a workbook with
formulas, or CSV) and its grades as TREC qrels, written off the UI thread
without changing the open file or its state, and never over a source (a run,
its qrels, an annotators' sheet: :class:`app.save_checks.SaveChecks`); a
LibreOffice lock file left behind gets Save's offer to delete it.

The export half of :class:`app.fileops.FileOps`, whose methods of the same
names call these with itself (:class:`Exporting`: the file the window has
open, its sources and the task running are the file operations').
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.file_formats import (
    QRELS_FILTER,
    proposed_export_path,
    proposed_qrels_path,
    save_filters,
    snapshot,
    with_suffix,
    write_document,
)
from app.settings import Settings
from app.workers import Task, run_task, show_error
from core.model.numbers import counted

if TYPE_CHECKING:
    from app.save_checks import SaveChecks
    from app.window_api import WindowApi

__all__ = ["Exporting", "export", "export_dialog", "export_qrels", "export_qrels_dialog"]


class Exporting(Protocol):
    """What an export reads of the window's file operations
    (:class:`app.fileops.FileOps`)."""

    window: WindowApi
    checks: SaveChecks
    task: Task | None
    #: The files the document was read from (never written over).
    sources: list[Path]
    #: The qrels the run was read with (the qrels export proposes beside them).
    qrels: Path | None

    @property
    def path(self) -> Path | None: ...

    def tr(self, text: str) -> str: ...


def export_dialog(ops: Exporting) -> Task | None:
    filters, first = save_filters(ops.path)
    start = proposed_export_path(ops.path, Path(Settings().last_directory or Path.home()))
    name, chosen = QFileDialog.getSaveFileName(ops.window, ops.tr("Export"), str(start),
                                               ";;".join(filters), first)
    return export(ops, with_suffix(Path(name), chosen)) if name else None


def export_qrels_dialog(ops: Exporting) -> Task | None:
    """File > Export TREC qrels…: what qrels cannot hold is named first
    (Cancel writes nothing), then where (beside the qrels the run was
    read with: ``<qrels>-graded``, in their own format)."""
    from core.io.delimited import qrels_not_kept

    lost = qrels_not_kept(ops.window.document)
    if lost:
        answer = QMessageBox.question(
            ops.window, ops.tr("Export TREC qrels"),
            ops.tr("TREC qrels hold a query, a source id and a grade per graded "
                   "candidate, but not:\n\n{0}\n\nThe worksheet keeps everything. "
                   "Export the qrels?").format("\n".join(f"• {item}" for item in lost)),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)
        if answer != QMessageBox.StandardButton.Save:
            return None
    start = proposed_qrels_path(ops.qrels, ops.path,
                                Path(Settings().last_directory or Path.home()))
    name, chosen = QFileDialog.getSaveFileName(
        ops.window, ops.tr("Export TREC qrels"), str(start), QRELS_FILTER)
    return export_qrels(ops, with_suffix(Path(name), chosen)) if name else None


def export_qrels(ops: Exporting, path: Path) -> Task | None:
    """Write the current grades as TREC qrels to ``path`` (never over a
    source; the open file and its state are untouched)."""
    from core.engine.readback import check_computable
    from core.io.trec.write import write_qrels

    path = Path(path)
    if not (ops.checks.not_a_source(path, ops.sources)
            and ops.checks.locks_cleared([path], ops.tr("export"))):
        return None
    doc = snapshot(ops.window.document)

    def work(progress: Any, cancelled: Any) -> int:
        check_computable(doc, path)  # what we write, we read
        return write_qrels(doc, path)

    ops.task = run_task(
        ops.window, ops.tr("Exporting {0}…").format(path.name), work,
        on_done=lambda n: ops.window.show_message(
            ops.tr("Exported {0}: {1}").format(path, counted(n, "judgment")), 10000),
        on_error=lambda exc: show_error(ops.window, ops.tr("Could not export"), exc),
        show_after_ms=0,
    )
    return ops.task


def export(ops: Exporting, path: Path) -> Task | None:
    """Write a copy to ``path`` (the open file and its state are untouched;
    never over a source)."""
    if not (ops.checks.not_a_source(Path(path), ops.sources)
            and ops.checks.locks_cleared([path], ops.tr("export"))):
        return None
    doc, source = snapshot(ops.window.document), ops.path
    ops.task = run_task(
        ops.window, ops.tr("Exporting {0}…").format(Path(path).name),
        lambda progress, cancelled: write_document(doc, Path(path), source),
        on_done=lambda _r: ops.window.show_message(
            ops.tr("Exported {0}").format(path), 10000),
        on_error=lambda exc: show_error(ops.window, ops.tr("Could not export"), exc),
        show_after_ms=0,
    )
    return ops.task
