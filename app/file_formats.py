"""What the editor can save to and how: the file dialogs' filters, the
formats by suffix, where Save As proposes to keep a worksheet, and the copy
of a document a save on another thread writes.

How a document was read (its :class:`Origin`, declared by
:func:`origin_of` when it is read) decides what Save may do with its file: a
source (a TREC run with its qrels, an annotators' sheet or form export, a
Parquet table) is never replaced; the first Save asks where to keep the
worksheet (:func:`proposed_save_path`). A file keeps its format: a workbook
read from ``.ods`` is saved as ``.ods`` (:func:`workbook_suffix`), and
core's writer picks the format by the suffix alone
(:mod:`core.io.workbook.targets`): never ``.xlsx`` bytes under an ``.ods``
name.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from pathlib import Path

from PySide6.QtCore import QEventLoop

from app.workers import Task
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.suffixes import (
    ANNOTATOR_SHEET_SUFFIXES,
    RECORD_SUFFIXES,
    TEXT_SHEET_SUFFIXES,
    WORKBOOK_SUFFIXES,
)
from core.io.workbook.targets import WRITTEN_WORKBOOKS
from core.model.document import Document

__all__ = [
    "CSV_FILTER",
    "ENCODINGS",
    "IMPORT_FILTER",
    "ODS_FILTER",
    "OPEN_FILTER",
    "QRELS_FILTER",
    "QRELS_OPEN_FILTER",
    "TEXT_SUFFIXES",
    "TSV_FILTER",
    "WORKSHEET_FILTER",
    "XLSX_FILTER",
    "Origin",
    "can_write",
    "origin_of",
    "patterns",
    "proposed_export_path",
    "proposed_save_path",
    "save_filters",
    "snapshot",
    "wait_for",
    "with_suffix",
    "workbook_suffix",
    "write_document",
    "written_origin",
]

CSV_FILTER = "Worksheet CSV (*.csv)"
TSV_FILTER = "Worksheet TSV (*.tsv)"
XLSX_FILTER = "Excel workbook (*.xlsx)"
ODS_FILTER = "OpenDocument spreadsheet (*.ods)"
QRELS_FILTER = "TREC qrels (*.qrels *.txt);;All files (*)"
TEXT_SUFFIXES = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": "\t"}


def patterns(*suffixes: str) -> str:
    """A file dialog's patterns for ``suffixes``: ``*.csv *.xlsx``."""
    return " ".join(f"*{s}" for s in suffixes)


#: What Open reads: worksheets as text, workbooks (core's one list), Parquet and
#: annotators' records (the import wizard takes those).
_READ = patterns(*TEXT_SUFFIXES, *WORKBOOK_SUFFIXES, ".parquet", *RECORD_SUFFIXES, ".gz", ".bz2",
                 ".xz")
OPEN_FILTER = f"Worksheets, runs and annotators' sheets ({_READ});;All files (*)"
#: What Open reads beside a run as its qrels (app.open_run): what --qrels reads.
QRELS_OPEN_FILTER = f"Qrels ({patterns('.qrels')} {_READ});;All files (*)"
#: What the import wizard reads: core's one list (Excel's UTF-16 text a .txt).
IMPORT_FILTER = f"Annotators' sheets ({patterns(*ANNOTATOR_SHEET_SUFFIXES)});;All files (*)"
#: What the runs and comparison views read as a worksheet.
WORKSHEET_FILTER = f"Worksheets ({patterns(*TEXT_SHEET_SUFFIXES, *WORKBOOK_SUFFIXES)})"
#: The workbook formats, by suffix, with the Save As filter of each.
#: The Save As dialog's workbook filters, one per format the export writes
#: (:data:`core.io.workbook.targets.WRITTEN_WORKBOOKS`).
WORKBOOK_FILTERS = {".xlsx": XLSX_FILTER, ".ods": ODS_FILTER}
#: The encodings offered, by codec name, with the words shown.
ENCODINGS = {
    "utf-8": "UTF-8",
    "utf-8-sig": "UTF-8 with BOM",
    "utf-16": "UTF-16",
    "cp1252": "Windows-1252",
    "latin-1": "Latin-1 (ISO 8859-1)",
    "mac-roman": "Mac Roman",
}


class Origin(Enum):
    """How the window's document was read from its file, declared once when
    it is read (:func:`origin_of`): what Save may do with that file."""

    WORKSHEET = "worksheet"  #: a worksheet CSV/TSV of ours: saved in place
    WORKBOOK = "workbook"  #: an audited workbook of ours: saved in place
    RUN = "run"  #: a run read with its qrels (TREC or Parquet): a source
    ANNOTATORS = "annotators"  #: an annotators' sheet or form export, imported: a source
    TABLE = "table"  #: a Parquet worksheet: a source
    ARCHIVE = "archive"  #: a compressed worksheet (``.csv.gz``), read decompressed: a source

    @property
    def is_source(self) -> bool:
        """A file the user brought (never replaced by Save), not one of ours."""
        return self in (Origin.RUN, Origin.ANNOTATORS, Origin.TABLE, Origin.ARCHIVE)

    @property
    def words(self) -> str:
        """What the file is, for a sentence."""
        return {Origin.RUN: "the run", Origin.ANNOTATORS: "the annotators' sheet",
                Origin.TABLE: "the Parquet table",
                Origin.ARCHIVE: "the compressed file"}.get(self, "the worksheet")


def origin_of(path: str | Path, doc: Document, *, qrels: str | Path | None = None) -> Origin:
    """How ``doc`` was read from ``path`` (with ``qrels`` for a run): every
    reader of the editor (launch, Open, a drop, the import wizard) declares
    its document's origin through this one function."""
    if qrels is not None:
        return Origin.RUN
    if doc.import_report is not None:  # the import (wizard or strict) read it
        return Origin.ANNOTATORS
    from core.io.columnar import is_parquet

    if is_parquet(path):  # told by its bytes, as the reader tells it
        return Origin.TABLE
    if _compressed(Path(path)):  # (the reader decompressed it)
        return Origin.ARCHIVE
    return written_origin(Path(path))


def _compressed(path: Path) -> bool:
    from core.io.files import sniff

    try:
        return sniff(path).compression is not None
    except InputError:  # gone since it was read: the save's checks say so
        return False


def written_origin(path: Path) -> Origin:
    """The origin of a file the editor wrote: our workbook or our worksheet."""
    from core.io.load import WORKBOOK_SUFFIXES

    suffix = path.suffix.lower()
    return Origin.WORKBOOK if suffix in (*WORKBOOK_SUFFIXES, ".ods") else Origin.WORKSHEET


def workbook_suffix(path: Path | None) -> str:
    """The workbook format a document read from ``path`` is saved in: its
    own (``.ods`` stays ``.ods``), else ``.xlsx``."""
    if path is not None and path.suffix.lower() == ".ods":
        return ".ods"
    return ".xlsx"


def save_filters(path: Path | None) -> tuple[list[str], str]:
    """The Save As dialog's filters and the one selected: the workbook format
    of ``path`` (:func:`workbook_suffix`) first."""
    first = WORKBOOK_FILTERS[workbook_suffix(path)]
    books = [f for f in WORKBOOK_FILTERS.values() if f != first]
    return [first, *books, CSV_FILTER, TSV_FILTER], first


def proposed_save_path(path: Path | None, origin: Origin | None, folder: Path) -> Path:
    """Where Save As proposes to keep the worksheet.

    Beside a source (:attr:`Origin.is_source`), ``<name>.xlsx`` (``.ods``
    for an ``.ods`` source), never the source itself (``<name>-graded.xlsx``
    then); beside our own file, in its workbook format (a worksheet CSV: the
    audited workbook); ``folder/worksheet.xlsx`` for an untitled one.
    """
    if path is None:
        return folder / "worksheet.xlsx"
    from core.io.files import stem

    proposed = path.with_name(stem(path) + workbook_suffix(path))  # w.csv.gz: w.xlsx
    if origin is not None and origin.is_source and proposed.name.lower() == path.name.lower():
        proposed = path.with_name(f"{path.stem}-graded{proposed.suffix}")
    return proposed


def proposed_export_path(path: Path | None, folder: Path) -> Path:
    """Where File > Export proposes the audited workbook: beside the file
    open, ``<name>-export`` in its workbook format (:func:`workbook_suffix`);
    ``folder/worksheet-export.xlsx`` for an untitled worksheet."""
    if path is None:
        return folder / "worksheet-export.xlsx"
    from core.io.files import stem

    return path.with_name(f"{stem(path)}-export{workbook_suffix(path)}")


def proposed_qrels_path(qrels: Path | None, path: Path | None, folder: Path) -> Path:
    """Where File > Export TREC qrels proposes them: beside the qrels the
    run was read with, ``<qrels>-graded`` in their own format (``.qrels``
    unless theirs is ``.txt``); else beside the file open, or
    ``folder/worksheet``, as ``.qrels``."""
    if qrels is not None:
        suffix = qrels.suffix if qrels.suffix.lower() in (".qrels", ".txt") else ".qrels"
        return qrels.with_name(f"{qrels.stem}-graded{suffix}")
    return (path or folder / "worksheet").with_suffix(".qrels")


def can_write(path: Path) -> bool:
    """Whether :func:`write_document` knows the format of ``path``."""
    suffix = path.suffix.lower()
    return suffix in TEXT_SUFFIXES or suffix in WRITTEN_WORKBOOKS


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
    if suffix in WRITTEN_WORKBOOKS:
        from core.io.workbook import check_fits, export_workbook
        from core.io.workbook.additions import additions_to_keep

        check_fits(doc, doc.conventions, path)  # before anything is computed
        keep = additions_to_keep(path, keep_from)
        export_workbook(evaluate(doc), path, keep=keep)
        return
    raise InputError(f"cannot save as {suffix or 'a file without a suffix'}", file=str(path),
                     hint="use .xlsx, .ods, .csv or .tsv")


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
    if "ods" in chosen_filter:
        return path.with_suffix(".ods")
    if "qrels" in chosen_filter:
        return path.with_suffix(".qrels")
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
