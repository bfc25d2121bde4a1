"""Reading a sheet's raw cells: a .xlsx sheet (after the safety checks), a
.csv or a .tsv file, nothing interpreted.

Two things are done to the cells, both as people read the sheet: a cell
merged down over several rows (a query written once for its documents) is
read on every row it covers, and a text file's delimiter is the one that
splits its lines alike (a title line above the header does not count).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.io import files
from core.io.annotator.model import Table
from core.io.annotator.records import explode_list_cells, records_table
from core.io.calamine_book import calamine_book
from core.io.files import check_input, read_input
from core.io.headers import DELIMITERS
from core.io.safety import (
    WORKBOOK_SUFFIXES,
    check_workbook,
    column_letters,
    find_cells_not_data,
    parse_ref,
)
from core.io.safety.hidden import xlsx_hidden
from core.io.safety.ods import ods_sheet_cells
from core.io.stop import Stopped, waited
from core.io.suffixes import RECORD_SUFFIXES

__all__ = ["HEAD_ROWS", "READERS", "ChooseSheet",
           "decode_detected", "read_table", "sniff_delimiter"]

#: Rows of each sheet shown to a :data:`ChooseSheet`.
HEAD_ROWS = 30
#: Picks the sheet to read from each sheet's first rows (in workbook order).
ChooseSheet = Callable[[dict[str, list[list[Any]]]], str]
#: JSON and JSON Lines exports of annotation tools (:mod:`~core.io.annotator.records`).
#: Readers of other formats, by suffix: a function of the path giving the
#: raw :class:`Table` (the hook for columnar files such as Parquet, read in
#: :mod:`core.io` by their own module, which registers itself here).
READERS: dict[str, Callable[[Path], Table]] = {}
_SNIFF_LINES = 50


def decode_detected(raw: bytes, name: str) -> tuple[str, str]:
    """``raw`` as text and the encoding found in it: a byte order mark, else
    UTF-8 when every byte is, else Windows-1252 (one line naming ``name``
    for a file that is none of them)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        try:
            return raw[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as exc:
            raise InputError(f"the file starts like UTF-8 but is not ({exc.reason} at byte "
                             f"{exc.start})", file=name) from exc
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16"), "utf-16"
        except UnicodeDecodeError as exc:
            raise InputError("the file starts like UTF-16 but is not", file=name) from exc
    if b"\x00" in raw[:65536]:
        raise InputError("the file is binary, not text (it holds NUL bytes)", file=name,
                         hint="name a CSV, TSV or .xlsx file")
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        text = raw.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise InputError(
            "the file is binary, not text (neither UTF-8 nor Windows-1252)", file=name,
            hint="name a CSV, TSV or .xlsx file",
        ) from exc
    controls = sum(1 for ch in text[:65536] if ord(ch) < 32 and ch not in "\t\r\n")
    if controls > max(2, len(text[:65536]) // 100):
        raise InputError("the file is binary, not text", file=name,
                         hint="name a CSV, TSV or .xlsx file")
    return text, "cp1252"


def _read_text_table(path: Path) -> Table:
    name = str(path)
    # the limit every text reader keeps (core.io.files, looked up as it is
    # read); a FIFO or a folder is refused, never waited on
    raw = read_input(path, files.MAX_BYTES)
    if not raw.strip():
        raise InputError("the file is empty", file=name, hint="add a header line and rows")
    if raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise InputError("this is a workbook, not a text file", file=name,
                         hint="give it the .xlsx extension")
    text, encoding = decode_detected(raw, name)
    if path.suffix.lower() in RECORD_SUFFIXES:
        return records_table(text, name, encoding)
    delim = sniff_delimiter(text, path)
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delim))
    except csv.Error as exc:
        raise InputError(f"the text cannot be split into fields ({exc})", file=name) from exc
    rows = explode_list_cells(rows, 0, name)
    return Table(file=name, rows=rows, encoding=encoding, delimiter=delim)


def sniff_delimiter(text: str, path: Path) -> str:
    """The delimiter of an annotators' text sheet: a tab for .tsv/.tab;
    else, of comma, tab, semicolon and bar, the one that splits most of the
    first 50 non-blank lines into the same number (two or more) of fields,
    the one giving more fields on a tie (so that a decimal comma in a
    semicolon file does not win, nor a comma in a title line above the
    header, nor semicolons inside a comma file's notes); a comma when none
    splits. Where most lines quote their fields, the delimiter the quotes
    stand beside most often wins: one unclosed quote (a worker's comment cut short)
    spoils a few lines for it, not the file (Mechanical Turk's
    ``"BatchId:5123456;OriginalHitTemplateId:928390909;"`` on every line
    otherwise made it semicolons, the header one column).

    >>> sniff_delimiter("Batch 7, sent by X\\n\\nq;d;s;g\\nq;d;0,5;2\\nq;e;0,25;1\\n",
    ...                 Path("a.csv"))
    ';'
    """
    if path.suffix.lower() in (".tsv", ".tab"):
        return "\t"
    lines = list(islice((ln for ln in text.splitlines() if ln.strip()), _SNIFF_LINES))
    best, best_score = ",", (0, 0, 0)
    for delim in DELIMITERS:
        if not any(delim in ln for ln in lines):
            continue
        try:
            widths = [len(r) for r in csv.reader(lines, delimiter=delim)]
        except csv.Error:
            continue
        counts: dict[int, int] = {}
        for w in widths:
            if w > 1:
                counts[w] = counts.get(w, 0) + 1
        if not counts:
            continue
        width = max(counts, key=lambda w: (counts[w], w))
        beside = [ln.count(f'{delim}"') + ln.count(f'"{delim}') for ln in lines]
        quoted = sum(beside) if 2 * sum(map(bool, beside)) >= len(lines) else 0
        score = (quoted, counts[width], width)
        if score > best_score:
            best, best_score = delim, score
    return best


def _fill_merged(rows: list[list[Any]], merged: list[Any] | None) -> list[str]:
    """Read a cell merged down over several rows on every row it covers
    (its top cell holds the value; calamine leaves the others empty).
    Returns what was filled, for the report's notes."""
    filled = []
    for (r0, c0), (r1, _c1) in merged or ():
        if r1 <= r0 or r0 >= len(rows) or c0 >= len(rows[r0]):
            continue
        value = rows[r0][c0]
        for r in range(r0 + 1, min(r1, len(rows) - 1) + 1):
            if c0 < len(rows[r]):
                rows[r][c0] = value
        ref = f"{column_letters(c0 + 1)}{r0 + 1}:{column_letters(c0 + 1)}{r1 + 1}"
        filled.append(f"merged cells {ref} read as {value!r} on each of their rows")
    return filled


def _heads(book: Any, sheets: list[str]) -> dict[str, list[list[Any]]]:
    """Each sheet's first rows (empty for a sheet calamine cannot read)."""
    heads: dict[str, list[list[Any]]] = {}
    for name in sheets:
        try:
            heads[name] = [list(r) for r in islice(book.get_sheet_by_name(name).iter_rows(),
                                                   HEAD_ROWS)]
        except Exception:  # calamine's own error classes vary; the read says why
            heads[name] = []
    return heads


def _read_xlsx_table(path: Path, sheet: str | None,
                     choose: ChooseSheet | None = None) -> Table:
    name = str(path)
    check = check_workbook(path)
    if sheet is not None and sheet not in check.parts:
        raise InputError(f"there is no sheet {sheet!r}", file=name,
                         hint="sheets: " + ", ".join(check.sheets))
    try:  # (the parse beside a thread that looks at the stop, one at a time: waited)
        with waited(calamine_book, name) as book:
            if sheet is None:
                sheet = check.sheets[0]
                if choose is not None and len(check.sheets) > 1:
                    sheet = choose(_heads(book, check.sheets))
            found = book.get_sheet_by_name(sheet)
            # Rows must keep their sheet positions: when the used area starts
            # at A1 (the usual case) the faster default gives the very same
            # rows; otherwise the empty rows and columns before it are kept.
            rows = found.to_python(skip_empty_area=found.start in ((0, 0), None))
            merged = found.merged_cell_ranges
    except Stopped:
        raise
    except Exception as exc:  # calamine's own error classes vary by version
        raise InputError(
            f"the sheet cannot be read ({type(exc).__name__}: {exc})", file=name, sheet=sheet,
            hint="open it in Excel or LibreOffice and save it again",
        ) from exc
    formulas: list[tuple[int, int, str]] = []
    errors: list[tuple[int, int, str]] = []
    if check.kind == "ods":  # calamine gives an .ods sheet's merged cells as none
        broken: list[tuple[int, int, bytes]] = []  # (and drops a paragraph's tabs and breaks)
        found_formulas, merged, hidden = ods_sheet_cells(path, sheet, name, broken=broken)
        formulas = _cells(found_formulas)  # error values are formulas' results there
        rows = _with_breaks(rows, broken)
    else:
        hidden = xlsx_hidden(path, check.parts[sheet], name)
    if check.kind != "ods" and sheet in check.with_formulas:
        found_formulas, found_errors = find_cells_not_data(path, check.parts[sheet])
        formulas, errors = _cells(found_formulas), _cells(found_errors)
    if type(rows) is not list or (rows and type(rows[0]) is not list):
        rows = [list(r) for r in rows]  # calamine gives lists of lists; nothing to copy
    notes = _fill_merged(rows, merged) if merged else []
    return Table(file=name, rows=rows, sheet=sheet, sheets=check.sheets,
                 formulas=formulas, errors=errors, rectangular=True, notes=notes,
                 hidden=hidden.within(len(rows), len(rows[0]) if rows else 0))


def _with_breaks(rows: Any, broken: list[tuple[int, int, bytes]]) -> Any:
    """calamine's rows of an .ods sheet with the texts of the cells holding a
    tab or a line break inside a paragraph as they are (calamine drops them:
    an annotator's note ``two<text:line-break/>lines`` read ``twolines``)."""
    if not broken:
        return rows
    from core.io.workbook.ods_rows import row_breaks, with_breaks

    found: dict[tuple[int, int], str] = {}
    for row, repeat, body in broken:
        row_breaks(found, row, repeat, body, 0, len(body))
    return with_breaks(list(rows), found)


def _cells(found: list[tuple[str, str]]) -> list[tuple[int, int, str]]:
    """(reference, text) as (0-based row, 0-based column, text)."""
    places = [(parse_ref(ref), text) for ref, text in found]
    return [(at[0] - 1, at[1] - 1, text) for at, text in places if at is not None]


def read_table(path: str | Path, *, sheet: str | None = None,
               choose: ChooseSheet | None = None) -> Table:
    """Read the raw cells of a workbook's sheet (.xlsx, .ods), .csv or .tsv
    (the formats declared in :data:`core.io.suffixes.ANNOTATOR_SHEET_SUFFIXES`).

    The sheet read is ``sheet``; else, in a workbook of several sheets, the
    one ``choose`` picks from their first rows; else the first. A workbook
    passes :func:`core.io.safety.check_xlsx` first; its formula cells are
    listed, never evaluated. Text files: UTF-8 (with or without BOM), UTF-16
    with BOM, or Windows-1252; delimiter detected; cells holding lists of
    ratings and their users spread one per row. ``.json``/``.jsonl``: a
    tool's records (:mod:`~core.io.annotator.records`). Other suffixes
    registered in :data:`READERS` are read by their reader.
    """
    path = Path(path)
    check_input(path)  # a missing file, a folder, a FIFO or a device: refused, not waited on
    suffix = path.suffix.lower()
    if suffix in READERS:
        return READERS[suffix](path)
    if suffix == ".parquet":
        raise InputError("Parquet annotation files are not read here yet", file=str(path),
                         hint="export it as CSV or JSON Lines")
    if suffix in WORKBOOK_SUFFIXES:
        return _read_xlsx_table(path, sheet, choose)
    if suffix == ".xls":
        raise InputError("old .xls workbooks are not supported", file=str(path),
                         hint="save it as .xlsx or .ods in Excel or LibreOffice")
    return _read_text_table(path)

