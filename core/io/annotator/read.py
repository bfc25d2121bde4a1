"""Reading a sheet's raw cells: a .xlsx sheet (after the safety checks), a
.csv or a .tsv file, nothing interpreted."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from core.errors import InputError
from core.io.annotator.model import Table
from core.io.headers import sniff_delimiter
from core.io.safety import check_xlsx, find_formulas

__all__ = ["MAX_TEXT_BYTES", "read_table"]

MAX_TEXT_BYTES = 2 * 1024**3


def _decode(raw: bytes, name: str) -> tuple[str, str]:
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
    try:
        if path.stat().st_size > MAX_TEXT_BYTES:
            raise InputError("the file is larger than 2 GiB", file=name)
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=name) from exc
    if not raw.strip():
        raise InputError("the file is empty", file=name, hint="add a header line and rows")
    if raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise InputError("this is a workbook, not a text file", file=name,
                         hint="give it the .xlsx extension")
    text, encoding = _decode(raw, name)
    delim = sniff_delimiter(text, path)
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delim))
    except csv.Error as exc:
        raise InputError(f"the text cannot be split into fields ({exc})", file=name) from exc
    return Table(file=name, rows=rows, encoding=encoding, delimiter=delim)


def _read_xlsx_table(path: Path, sheet: str | None) -> Table:
    name = str(path)
    check = check_xlsx(path)
    if sheet is None:
        sheet = check.sheets[0]
    elif sheet not in check.parts:
        raise InputError(f"there is no sheet {sheet!r}", file=name,
                         hint="sheets: " + ", ".join(check.sheets))
    import python_calamine

    try:
        with python_calamine.CalamineWorkbook.from_path(name) as book:
            found = book.get_sheet_by_name(sheet)
            # Rows must keep their sheet positions; when the used area starts
            # at A1 (the usual case) nothing is skipped and the faster
            # default gives the very same rows.
            rows = found.to_python(skip_empty_area=found.start not in ((0, 0), None))
    except Exception as exc:  # calamine's own error classes vary by version
        raise InputError(
            f"the sheet cannot be read ({type(exc).__name__}: {exc})", file=name, sheet=sheet,
            hint="open it in Excel or LibreOffice and save it again",
        ) from exc
    formulas: list[tuple[int, int, str]] = []
    if sheet in check.with_formulas:
        for ref, text in find_formulas(path, check.parts[sheet]):
            m = re.match(r"([A-Z]+)(\d+)$", ref)
            if m:
                col = 0
                for ch in m.group(1):
                    col = col * 26 + ord(ch) - 64
                formulas.append((int(m.group(2)) - 1, col - 1, text))
    if type(rows) is not list or (rows and type(rows[0]) is not list):
        rows = [list(r) for r in rows]  # calamine gives lists of lists; nothing to copy
    return Table(file=name, rows=rows, sheet=sheet, sheets=check.sheets,
                 formulas=formulas, rectangular=True)


def read_table(path: str | Path, *, sheet: str | None = None) -> Table:
    """Read the raw cells of a .xlsx sheet (first by default), .csv or .tsv.

    A workbook passes :func:`core.io.safety.check_xlsx` first; its formula
    cells are listed, never evaluated. Text files: UTF-8 (with or without
    BOM), UTF-16 with BOM, or Windows-1252; delimiter detected.
    """
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", file=str(path), hint="check the path")
    if path.is_dir():
        raise InputError("this is a folder, not a file", file=str(path))
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return _read_xlsx_table(path, sheet)
    if suffix == ".xls":
        raise InputError("old .xls workbooks are not supported", file=str(path),
                         hint="save it as .xlsx in Excel or LibreOffice")
    return _read_text_table(path)

