"""What the editor can save to and how: the file dialogs' filters, the
formats by suffix, and the copy of a document a save on another thread
writes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QEventLoop

from app.workers import Task
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.annotator.read import RECORD_SUFFIXES
from core.io.load import TEXT_SHEET_SUFFIXES, WORKBOOK_SUFFIXES
from core.model.document import Document

__all__ = [
    "CSV_FILTER",
    "ENCODINGS",
    "IMPORT_FILTER",
    "OPEN_FILTER",
    "TEXT_SUFFIXES",
    "TSV_FILTER",
    "WORKSHEET_FILTER",
    "XLSX_FILTER",
    "can_write",
    "patterns",
    "snapshot",
    "wait_for",
    "with_suffix",
    "write_document",
]

CSV_FILTER = "Worksheet CSV (*.csv)"
TSV_FILTER = "Worksheet TSV (*.tsv)"
XLSX_FILTER = "Excel workbook (*.xlsx)"
TEXT_SUFFIXES = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": "\t"}


def patterns(*suffixes: str) -> str:
    """A file dialog's patterns for ``suffixes``: ``*.csv *.xlsx``."""
    return " ".join(f"*{s}" for s in suffixes)


#: What Open reads: worksheets as text, workbooks (core's one list) and Parquet.
OPEN_FILTER = (f"Worksheets ({patterns(*TEXT_SUFFIXES, *WORKBOOK_SUFFIXES, '.parquet')});;"
               "All files (*)")
_ANNOTATORS = patterns(*WORKBOOK_SUFFIXES, *TEXT_SHEET_SUFFIXES, *RECORD_SUFFIXES)
IMPORT_FILTER = f"Annotators' sheets ({_ANNOTATORS});;All files (*)"
#: What the runs and comparison views read as a worksheet.
WORKSHEET_FILTER = f"Worksheets ({patterns(*TEXT_SHEET_SUFFIXES, *WORKBOOK_SUFFIXES)})"
#: The encodings offered, by codec name, with the words shown.
ENCODINGS = {
    "utf-8": "UTF-8",
    "utf-8-sig": "UTF-8 with BOM",
    "utf-16": "UTF-16",
    "cp1252": "Windows-1252",
    "latin-1": "Latin-1 (ISO 8859-1)",
    "mac-roman": "Mac Roman",
}


def can_write(path: Path) -> bool:
    """Whether :func:`write_document` knows the format of ``path``."""
    suffix = path.suffix.lower()
    return suffix in TEXT_SUFFIXES or suffix == ".xlsx"


def write_document(doc: Document, path: Path, keep_from: Path | None = None, *,
                   encoding: str = "utf-8") -> None:
    """Write ``doc`` to ``path`` in the format its suffix names (atomically;
    a worksheet CSV/TSV in ``encoding``).

    A workbook keeps what people added to the workbook it replaces, or else
    to ``keep_from`` (the workbook the document was read from): their
    sheets, Candidates columns and comments
    (:func:`core.io.workbook.additions.additions_to_keep`)."""
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        from core.engine.readback import check_computable
        from core.io.delimited import write_delimited

        check_computable(doc, path)  # what we write, we read
        write_delimited(doc, path, delimiter=TEXT_SUFFIXES[suffix], encoding=encoding)
        return
    if suffix == ".xlsx":
        from core.io.workbook import check_fits, export_workbook
        from core.io.workbook.additions import additions_to_keep

        check_fits(doc, doc.conventions, path)  # before anything is computed
        keep = additions_to_keep(path, keep_from)
        export_workbook(evaluate(doc), path, keep=keep)
        return
    raise InputError(f"cannot save as {suffix or 'a file without a suffix'}", file=str(path),
                     hint="use .csv, .tsv or .xlsx")


def snapshot(doc: Document) -> Document:
    """A copy of the editable columns, so a save on another thread sees one moment."""
    return replace(
        doc, grade=doc.grade.copy(), state=doc.state.copy(), note=doc.note.copy(),
        reason=doc.reason.copy(), audit=list(doc.audit), _members=None,
    )


def with_suffix(path: Path, chosen_filter: str) -> Path:
    """``path``, with the suffix of the dialog's chosen filter when it has none."""
    if path.suffix:
        return path
    if "xlsx" in chosen_filter:
        return path.with_suffix(".xlsx")
    if "tsv" in chosen_filter:
        return path.with_suffix(".tsv")
    return path.with_suffix(".csv")


def wait_for(task: Task, outcome: dict[str, bool]) -> None:
    """Run the event loop until ``task`` ends (``outcome`` gets ``ok`` then)."""
    if "ok" in outcome:
        return
    loop = QEventLoop()
    task.finished.connect(loop.quit)
    task.failed.connect(loop.quit)
    task.cancelled.connect(loop.quit)
    if "ok" not in outcome:
        loop.exec()
