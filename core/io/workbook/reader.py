"""Reopening a workbook written by :func:`core.io.workbook.export_workbook`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import InputError, NotOwnWorkbook
from core.io.calamine_book import calamine_book
from core.io.safety import (
    ODS_SUFFIX,
    WorkbookCheck,
    check_workbook,
    column_number,
    find_cells_not_data,
    formula_rows,
)
from core.io.safety.ods import ods_formula_cells
from core.io.stop import Stopped, waited
from core.io.stop import check as check_stopped
from core.io.workbook.annotators_check import not_read
from core.io.workbook.edits import CandidateCells, CellsNeeded, apply_edits, same_id
from core.io.workbook.kept_text import same_as_written
from core.io.workbook.layout import GRADE_COLUMN, QUERY_TEXT, QUERY_TEXT_COLUMN, SHEETS
from core.io.workbook.metadata import document_from_metadata, read_metadata, stored_conventions
from core.io.workbook.metadata_check import MetadataError, metadata_error
from core.io.workbook.ods_rows import Breaks, OdsSheets, read_breaks, read_ods, with_breaks
from core.io.workbook.plain_rows import read_plain_candidates
from core.io.workbook.record import record_sheet
from core.io.workbook.reopened import Reopened, remember
from core.io.workbook.saved_rows import read_saved_candidates
from core.io.workbook.sheet_conventions import (
    check_grades,
    defined_names,
    read_sheet_conventions,
)
from core.model.conventions import Conventions
from core.model.document import Document


def read_workbook(path: str | Path) -> Document:
    """Reopen a workbook written by :func:`core.io.workbook.export_workbook`
    (an .xlsx, or the .ods LibreOffice saved it as).

    Everything is restored from the hidden metadata sheet (checked field by
    field). The conventions are those the Conventions sheet holds: each one
    edited in the spreadsheet is taken and logged as an :class:`AuditEntry`
    (query and source ``—``; :mod:`~core.io.workbook.sheet_conventions`),
    unless a cell holds a value the app cannot take, when the conventions the
    workbook was written with stay and the cell is reported. Current grades
    and notes edited in the spreadsheet are taken from the Candidates sheet;
    each changed grade is logged as an :class:`AuditEntry` with origin
    ``"outside the app"`` and who ``"spreadsheet edit"``. What was taken or
    refused is :func:`core.io.workbook.reopened` of the document; so is a
    cell edited in the Annotators sheet (known by its defined name when
    renamed; rows matched by candidate, so a sort is no edit), which is
    never read as a grade (:mod:`~core.io.workbook.annotators_check`); so is
    a query's text edited in the Queries sheet's column of them, taken
    (:func:`taken_query_texts`). The sheets
    are read with python-calamine, the Candidates sheet up to its note
    column only (:mod:`~core.io.workbook.plain_rows` for our own export,
    :mod:`~core.io.workbook.saved_rows` for a sheet a spreadsheet program
    saved, calamine when neither reads it); a grade cell holding a formula
    is found by its row (calamine gives values only).

    Raises
    ------
    NotOwnWorkbook
        If it is not one of our workbooks (its metadata is missing or does
        not match): read it as an annotators' sheet instead.
    InputError
        If the file is unsafe or damaged, or an edited grade cell holds
        something that is not a grade (naming sheet, row and column).
    """
    path = Path(path)
    name = str(path)
    sheet = SHEETS["metadata"]
    with _reading(name, lambda: sheet), _open(path, candidates=True) as book:
        check = book.check
        meta = read_metadata(book.rows(sheet), name)
        doc = document_from_metadata(meta, name)
        stored = _stored(meta, name)
        sheet = SHEETS["conventions"]
        names = check.names if check.kind == "ods" else defined_names(path, name)
        found = read_sheet_conventions(
            book.rows(sheet) if sheet in check.parts else None, names, stored, doc, name)
        doc.conventions = found.conventions  # the rubric reads grade labels
        sheet = SHEETS["candidates"]
        if sheet not in check.parts:
            raise InputError(f"the workbook has no {sheet!r} sheet", file=name,
                             hint="the sheet was renamed or deleted; restore it")
        cells, formulas = book.candidates()
        start = len(doc.audit)
        try:
            notes = apply_edits(cells, formulas, doc, meta, name)
        except CellsNeeded:  # rows moved in a sheet of the simple form: read it whole
            cells, formulas = book.saved_cells()
            notes = apply_edits(cells, formulas, doc, meta, name)
        grades = tuple(doc.audit[start:])
        edited = _record_not_read(book, names, doc, meta, name)
        # (the column is written only where some query has a text: none, nothing read)
        texts = taken_query_texts(book.rows(SHEETS["queries"]), doc) if doc.query_texts else 0
    found = check_grades(found, doc, names, stored, name)
    doc.conventions = found.conventions
    doc.audit[start:start] = found.entries  # the conventions first, then the grades
    doc.judgment_version, doc.name = found.judgment_version, found.name
    remember(doc, Reopened(name, tuple(found.entries), grades, notes, tuple(found.refused),
                           edited, texts))
    return doc


def taken_query_texts(rows: list[list[Any]], doc: Document) -> int:
    """The queries' texts a reviewer edited in the Queries sheet's column
    of them (``rows``: the sheet's cells from A1; the column found by its
    header), taken into ``doc``; how many changed. Rows are matched by the
    query id in column A (a sort is no edit); of a query's rows (one per
    cutoff) the first whose text differs from the stored one is taken, an
    emptied cell taking the text away. A cell is compared with the stored
    text as every free-text cell read back is
    (:func:`~core.io.workbook.kept_text.same_as_written`). In an .ods the
    sheet is read by :func:`~core.io.workbook.ods_rows.read_ods` where its
    header holds the column (its ``headed``), a row's cells up to its last
    value: a row ending before the column holds an empty cell."""
    if not rows or len(rows[0]) <= QUERY_TEXT_COLUMN or rows[0][QUERY_TEXT_COLUMN] != QUERY_TEXT:
        return 0
    stored, known = dict(doc.query_texts), set(doc.query_ids)
    for row in rows[1:]:
        qid = row[0] if row and isinstance(row[0], str) else None
        if qid not in known:
            continue
        # (a row ending before the column: its cell empty, as the fast .ods reader gives it)
        cell = row[QUERY_TEXT_COLUMN] if len(row) > QUERY_TEXT_COLUMN else None
        text = (str(int(cell)) if isinstance(cell, float) and cell.is_integer()
                else "" if cell is None else str(cell)).strip()
        before = stored.get(qid, "")
        if not same_as_written(text, before) and doc.query_texts.get(qid, "") == before:
            if text:
                doc.query_texts[qid] = text
            else:
                doc.query_texts.pop(qid, None)
    return sum(doc.query_texts.get(q, "") != stored.get(q, "") for q in known)


def _record_not_read(book: _Book, names: dict[str, str], doc: Document, meta: dict[str, Any],
                     name: str) -> tuple[InputError, ...]:
    """Where the Annotators record was edited (:func:`not_read`); the
    record found by its header when no defined name marks it, and two
    sheets that could each be it said as such (neither is read)."""
    sheet = SHEETS["annotators"]
    if doc.ratings is None:
        return ()  # (no record written: nothing to compare)
    try:
        sheet = record_sheet(book.check.sheets, names,
                             lambda s: next(iter(book.rows(s)), []), name) or sheet
    except InputError as two:
        return (two,)
    perm = np.asarray(meta["sheet_rows"], dtype=np.int64)
    return not_read(book.rows(sheet), doc, perm, name, sheet)


def candidate_row(path: str | Path, query: str, source: str) -> int | None:
    """The Candidates sheet's row (1-based) holding ``source`` of ``query``
    in one of our workbooks (the first), for a refusal found after reading
    (:mod:`core.io.locate`); None when no row does or the sheet cannot be
    read."""
    path = Path(path)
    sheet = SHEETS["candidates"]
    try:
        with _reading(str(path), lambda: sheet), _open(path, candidates=True) as book:
            if sheet not in book.check.parts:
                return None
            cells, _ = book.candidates()
    except InputError:
        return None
    for j, (q, s) in enumerate(zip(cells.query, cells.source, strict=True)):
        if same_id(q, query) and same_id(s, source):
            return j + 2  # (row 1 is the header)
    return None


def _stored(meta: dict[str, Any], name: str) -> Conventions:
    """The conventions the workbook's sheets were written with."""
    try:
        return stored_conventions(meta, "workbook_conventions")
    except MetadataError as bad:
        raise metadata_error(bad, name) from None


def is_own_workbook(path: str | Path) -> bool:
    """Whether ``path`` carries this app's metadata as :func:`read_workbook`
    needs it (only the metadata sheet is read).

    Raises
    ------
    InputError
        If the file is unsafe or damaged.
    """
    path = Path(path)
    name = str(path)
    try:
        with _reading(name, lambda: SHEETS["metadata"]), _open(path, candidates=False) as book:
            read_metadata(book.rows(SHEETS["metadata"]), name)
    except NotOwnWorkbook:
        return False
    return True


@contextmanager
def _reading(name: str, sheet: Callable[[], str]) -> Iterator[None]:
    """Any failure of the reader becomes an InputError naming the file and
    the sheet being read."""
    try:
        yield
    except (InputError, Stopped):
        raise
    except Exception as exc:  # calamine's own error classes vary by version
        raise InputError(
            f"the workbook cannot be read: {type(exc).__name__}: {exc}", file=name,
            sheet=sheet(), hint="open it in Excel or LibreOffice and save it again",
        ) from exc


class _Book:
    """The sheets of one workbook as reopening reads them: through
    python-calamine (opened once, when first needed), or as
    :func:`~core.io.workbook.ods_rows.read_ods` read them in its check;
    ``breaks``: an .ods file's texts holding tabs or line breaks, which
    calamine drops, put back into its rows."""

    def __init__(self, path: Path, check: WorkbookCheck, ods: OdsSheets | None,
                 stack: ExitStack, breaks: Breaks | None = None) -> None:
        self.path, self.check, self.ods, self._stack = path, check, ods, stack
        self.breaks = breaks or {}
        self._book: Any = None

    def calamine(self) -> Any:
        if self._book is None:
            self._book = self._stack.enter_context(_calamine(self.path))
        return self._book

    def rows(self, sheet: str) -> list[list[Any]]:
        """A sheet's cells from A1 (rows keep their sheet positions); [] when
        the workbook has no such sheet."""
        check_stopped()  # a read stopped from another thread ends before each sheet (core.io.stop)
        if sheet not in self.check.parts:
            return []
        if self.ods is not None and sheet in self.ods.rows:
            return self.ods.rows[sheet]
        rows = self.calamine().get_sheet_by_name(sheet).to_python(skip_empty_area=False)
        return [list(r) for r in with_breaks(rows, self.breaks.get(sheet, {}))]

    def candidates(self) -> tuple[CandidateCells, set[int]]:
        """The Candidates cells reopening reads, and the rows whose grade
        cell holds a formula (:func:`read_workbook` says how)."""
        check_stopped()
        if self.ods is not None and self.ods.candidates is not None:
            return self.ods.candidates, self.ods.formulas
        if self.check.kind == "xlsx":
            cells = read_plain_candidates(self.path, self.check.parts[SHEETS["candidates"]],
                                          str(self.path))
            if cells is not None:
                return cells, set()  # the simple form has no formula in a grade cell
        return self.saved_cells()

    def saved_cells(self) -> tuple[CandidateCells, set[int]]:
        """The Candidates cells of a sheet a spreadsheet program saved, and
        the rows whose grade cell holds a formula: read up to the note
        column (:func:`~core.io.workbook.saved_rows.read_saved_candidates`),
        or, when some cell is in a form that reader leaves alone, the sheet
        parsed."""
        check_stopped()
        path, check = self.path, self.check
        found = (read_saved_candidates(path, check, str(path)) if check.kind == "xlsx"
                 else None)
        if found is not None:
            return found
        return (_candidate_cells(self.calamine(), SHEETS["candidates"],
                                 self.breaks.get(SHEETS["candidates"], {})),
                _grade_formula_rows(path, check))


@contextmanager
def _open(path: Path, *, candidates: bool) -> Iterator[_Book]:
    """The workbook checked (:func:`core.io.safety.check_workbook`) and open
    for reading; an .ods file's sheets read in the same pass as its check."""
    ods, breaks = None, None
    if path.suffix.lower() == ODS_SUFFIX:
        whole = ((SHEETS["metadata"], SHEETS["conventions"], SHEETS["annotators"])
                 if candidates else (SHEETS["metadata"],))
        # (the Queries sheet read where it holds the queries' texts: calamine,
        # which would read it, parses the whole file, 6.3 s against 3.5 s to
        # reopen 50,000 candidates, and could not open an .ods Gnumeric saved)
        ods = read_ods(path, whole, candidates=candidates,
                       headed=((SHEETS["queries"], QUERY_TEXT_COLUMN, QUERY_TEXT),)
                       if candidates else ())
    if ods is not None:
        check = ods.check
    elif path.suffix.lower() == ODS_SUFFIX:  # read by calamine: its dropped breaks found
        check, breaks = read_breaks(path, frozenset(SHEETS.values()))
    else:
        check = check_workbook(path)
    with ExitStack() as stack:
        yield _Book(path, check, ods, stack, breaks)


@contextmanager
def _calamine(path: Path) -> Iterator[Any]:
    """The workbook opened once for every sheet read from it (calamine's
    parse, one call that cannot look at the stop, beside a thread that
    does: :func:`core.io.stop.waited`; an .ods Gnumeric saved given without
    its indentation: :func:`~core.io.calamine_book.calamine_book`)."""
    with waited(calamine_book, str(path)) as book:
        yield book


def _candidate_cells(book: Any, sheet: str,
                     breaks: dict[tuple[int, int], str] | None = None) -> CandidateCells:
    """The Candidates cells reopening reads (query, source, current grade,
    note), taken row by row: the other columns never become Python objects;
    ``breaks``: the texts whose tabs and line breaks calamine drops."""
    found = book.get_sheet_by_name(sheet)
    if tuple(found.start or ()) == (0, 0):  # rows and columns from A1
        return CandidateCells.from_rows(with_breaks(found.iter_rows(), breaks or {}))
    return CandidateCells.from_rows(with_breaks(found.to_python(skip_empty_area=False),
                                                breaks or {}))


def _grade_formula_rows(path: Path, check: WorkbookCheck) -> set[int]:
    """Sheet rows whose current-grade cell holds a formula or an error value."""
    sheet = SHEETS["candidates"]
    if sheet not in check.with_formulas:
        return set()
    if check.kind == "ods":
        cells = ods_formula_cells(path, sheet, str(path), columns=column_number(GRADE_COLUMN))
        return {int(ref[len(GRADE_COLUMN):]) for ref, _ in cells
                if ref.startswith(GRADE_COLUMN) and ref[len(GRADE_COLUMN):].isdigit()}
    part = check.parts[sheet]
    rows = formula_rows(path, part, GRADE_COLUMN)
    if rows is None:  # cells without their reference first: parse the sheet
        formulas, errors = find_cells_not_data(path, part)
        rows = [int(ref[len(GRADE_COLUMN):]) for ref, _ in [*formulas, *errors]
                if ref.startswith(GRADE_COLUMN) and ref[len(GRADE_COLUMN):].isdigit()]
    return set(rows)
