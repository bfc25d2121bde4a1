"""Checks a workbook must pass before any parser sees it.

Zip bombs, encrypted or old binary workbooks, truncated files and other
hostile input are refused here with one clear message, before openpyxl or
calamine spend memory on them.
"""

from __future__ import annotations

import itertools
import posixpath
import re
import zipfile
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.errors import InputError

__all__ = [
    "EXCEL_MAX_COLUMNS",
    "EXCEL_MAX_ROWS",
    "LIMITS",
    "WorkbookCheck",
    "check_xlsx",
    "column_letters",
    "column_number",
    "find_formulas",
    "formula_rows",
    "parse_xml",
]

EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_COLUMNS = 16_384

LIMITS = {
    "file_bytes": 512 * 1024**2,
    "parts": 10_000,
    "part_bytes": 1024**3,
    "total_bytes": 2 * 1024**3,
    "ratio": 200.0,
    #: A reader allocates rows x columns cells for the used area of a sheet.
    "sheet_cells": 12_000_000,
}
_REQUIRED = ("[Content_Types].xml",)


def check_xlsx(path: str | Path) -> WorkbookCheck:
    """Raise :class:`InputError` unless ``path`` looks like a safe .xlsx.

    Checked before any parser sees the file: magic bytes (old .xls and
    encrypted workbooks are OLE files), zip directory, part count, per-part
    and total unpacked size and compression ratio (zip bombs), required
    parts, no DTD or entity declaration in any XML part (billion laughs,
    XXE), and each sheet's declared dimension and used area within Excel's
    limits (a reader allocates the whole used area). Returns what was found,
    including which sheets hold formula elements.
    """
    path = Path(path)
    name = str(path)
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            magic = fh.read(8)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=name) from exc
    if magic.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError(
            "this is an old .xls workbook or an encrypted (password-protected) one",
            file=name, hint="save it as a plain .xlsx without a password",
        )
    if not magic.startswith(b"PK"):
        raise InputError(
            "this is not an .xlsx workbook (it is not a zip file)", file=name,
            hint="save it as .xlsx, or name a CSV/TSV file",
        )
    if size > LIMITS["file_bytes"]:
        raise InputError("the workbook is larger than 512 MiB", file=name)
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise InputError(
            "the workbook is damaged or truncated (its zip directory cannot be read)",
            file=name, hint="open it in Excel or LibreOffice and save it again",
        ) from exc
    if len(infos) > LIMITS["parts"]:
        raise InputError(f"the workbook has {len(infos)} parts, too many to be real", file=name)
    total = 0
    for info in infos:
        if info.flag_bits & 0x1:
            raise InputError("the workbook is encrypted", file=name,
                             hint="save it without a password")
        total += info.file_size
        if info.file_size > LIMITS["part_bytes"]:
            raise InputError(f"part {info.filename!r} unpacks to more than 1 GiB", file=name)
        if info.compress_size and info.file_size / info.compress_size > LIMITS["ratio"] and (
            info.file_size > 50 * 1024**2
        ):
            raise InputError(
                f"part {info.filename!r} is compressed {info.file_size // info.compress_size}:1,"
                " which looks like a zip bomb", file=name,
            )
    if total > LIMITS["total_bytes"]:
        raise InputError("the workbook unpacks to more than 2 GiB", file=name)
    names = {i.filename for i in infos}
    for part in _REQUIRED:
        if part not in names:
            raise InputError(
                f"the workbook lacks its {part} part", file=name,
                hint="this is a zip file but not an .xlsx workbook",
            )
    try:
        with zipfile.ZipFile(path) as zf:
            return _check_parts(zf, infos, name)
    except InputError:
        raise
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, KeyError,
            RuntimeError, NotImplementedError) as exc:
        raise InputError(
            f"the workbook is damaged or truncated ({type(exc).__name__}: {exc})",
            file=name, hint="open it in Excel or LibreOffice and save it again",
        ) from exc


@dataclass
class WorkbookCheck:
    """What :func:`check_xlsx` found in a workbook that passed."""

    #: Sheet names in workbook order, and each sheet's part in the zip.
    sheets: list[str] = field(default_factory=list)
    parts: dict[str, str] = field(default_factory=dict)
    #: Sheets whose XML holds at least one formula element.
    with_formulas: set[str] = field(default_factory=set)
    #: Each sheet's used area (rows, columns) as found in its cells.
    used: dict[str, tuple[int, int]] = field(default_factory=dict)


_NS_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_NS_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_NS_PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_DTD = re.compile(rb"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_FORMULA = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f[\s>/]")
_DIMENSION = re.compile(rb'<(?:\w+:)?dimension\s+ref="([^"]*)"')
_CELL_WITHOUT_REF = re.compile(rb'<c(?:[>/\t\n\r]| (?!r="))')
_REF = re.compile(r"^\$?([A-Za-z]{1,7})\$?(\d{1,9})$")
#: Parts above this size are streamed through the sheet scan.
_SCAN_LATER = 1 << 20
_CHUNK = 1 << 20


def column_number(letters: str) -> int:
    """``"A"`` -> 1, ``"XFD"`` -> 16384."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def column_letters(number: int) -> str:
    """1 -> ``"A"``, 16384 -> ``"XFD"``."""
    out = ""
    while number > 0:
        number, rem = divmod(number - 1, 26)
        out = chr(65 + rem) + out
    return out


def parse_xml(data: bytes, *, file: str, part: str) -> Any:
    """Parse a small XML part with defusedxml (no DTD, no entities)."""
    from xml.etree.ElementTree import ParseError

    import defusedxml.ElementTree as det
    from defusedxml import DefusedXmlException

    try:
        return det.fromstring(data, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise InputError(
            f"part {part!r} declares XML entities or a DTD, which a workbook never needs"
            " (an entity bomb such as billion laughs, or an external entity); refused",
            file=file, hint="this file was crafted or damaged; do not open it elsewhere either",
        ) from exc
    except ParseError as exc:
        raise InputError(f"part {part!r} is not well-formed XML ({exc})", file=file) from exc


def _read_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, file: str) -> bytes:
    """Unpack one part, never past its declared size (a lying header)."""
    with zf.open(info) as fh:
        data = fh.read(info.file_size + 1)
    if len(data) > info.file_size:
        raise InputError(
            f"part {info.filename!r} unpacks to more than its declared size", file=file
        )
    return data


def _resolve(base_part: str, target: str) -> str:
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(base_part), target))


def _rels_of(part: str) -> str:
    return posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")


def _check_parts(zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo], file: str) -> WorkbookCheck:
    by_name = {i.filename: i for i in infos}
    xml_data: dict[str, bytes] = {}
    # Big parts are sheets as a rule: they are streamed through the sheet
    # scan, which also looks for declarations; any other is checked after.
    big: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        if info.filename.lower().endswith((".xml", ".rels", ".vml")):
            if info.file_size > _SCAN_LATER:
                big[info.filename] = info
                continue
            data = _read_part(zf, info, file)
            _refuse_declarations(data, file, info.filename)
            xml_data[info.filename] = data

    def load(name: str) -> bytes | None:
        if name not in xml_data and name in big:
            xml_data[name] = _read_part(zf, big[name], file)
            _refuse_declarations(xml_data[name], file, name)
        return xml_data.get(name)

    root_rels = "_rels/.rels"
    root_data = load(root_rels)
    if root_data is None:
        raise InputError(f"the workbook lacks its {root_rels} part", file=file,
                         hint="this is a zip file but not an .xlsx workbook")
    book_part = ""
    root = parse_xml(root_data, file=file, part=root_rels)
    for rel in root.iter(f"{_NS_PKG}Relationship"):
        if rel.get("Type", "").endswith("/officeDocument"):
            book_part = _resolve("", rel.get("Target", ""))
    book_data = load(book_part)
    if book_data is None:
        raise InputError("the workbook lacks its workbook part (xl/workbook.xml)", file=file,
                         hint="this is a zip file but not an .xlsx workbook")
    targets: dict[str, str] = {}
    book_rels = _rels_of(book_part)
    rels_data = load(book_rels)
    if rels_data is not None:
        for rel in parse_xml(rels_data, file=file, part=book_rels).iter(
            f"{_NS_PKG}Relationship"
        ):
            targets[rel.get("Id", "")] = _resolve(book_part, rel.get("Target", ""))
    check = WorkbookCheck()
    book = parse_xml(book_data, file=file, part=book_part)
    for sheet in book.iter(f"{_NS_MAIN}sheet"):
        sheet_name = sheet.get("name", "")
        part = targets.get(sheet.get(f"{_NS_REL}id", ""), "")
        check.sheets.append(sheet_name)
        if part not in by_name:
            raise InputError(f"sheet {sheet_name!r} has no part in the workbook", file=file,
                             hint="open it in Excel or LibreOffice and save it again")
        check.parts[sheet_name] = part
        if part in xml_data:
            found = _scan_sheet(xml_data[part], file=file, sheet=sheet_name, part=part)
        elif part in big:
            found = _scan_big_sheet(zf, big[part], file=file, sheet=sheet_name)
        else:
            continue
        rows, cols, formulas = found
        check.used[sheet_name] = (rows, cols)
        if formulas:
            check.with_formulas.add(sheet_name)
    scanned = set(check.parts.values())
    for part in big:
        if part not in scanned:
            load(part)
    if not check.sheets:
        raise InputError("the workbook has no sheets", file=file)
    return check


def _stream_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, file: str) -> Generator[bytes]:
    """Unpack one part in pieces, never past its declared size (a lying header)."""
    got = 0
    with zf.open(info) as fh:
        while chunk := fh.read(_CHUNK):
            got += len(chunk)
            if got > info.file_size:
                raise InputError(
                    f"part {info.filename!r} unpacks to more than its declared size", file=file
                )
            yield chunk


def _scan_big_sheet(zf: zipfile.ZipFile, info: zipfile.ZipInfo, *, file: str,
                    sheet: str) -> tuple[int, int, bool]:
    """:func:`_scan_sheet` on a big part, unpacked and scanned piece by piece."""
    chunks = _stream_part(zf, info, file)
    try:
        head = next(chunks, b"")
        _check_dimension(head, file=file, sheet=sheet)
        fast = (_scan_plain(itertools.chain([head], chunks), file=file, part=info.filename)
                if b"<worksheet" in head[: 1 << 12] else None)
    finally:
        chunks.close()
    if fast is None:
        return _scan_sheet(_read_part(zf, info, file), file=file, sheet=sheet,
                           part=info.filename)
    _check_area(fast[0], fast[1], file=file, sheet=sheet)
    return fast


def _refuse_declarations(data: bytes, file: str, part: str) -> None:
    """Refuse a DTD or entity declaration (billion laughs, external entities)."""
    if b"<!" in data and _DTD.search(data):
        raise InputError(
            f"part {part!r} declares XML entities or a DTD, which a workbook"
            " never needs (an entity bomb such as billion laughs, or an external"
            " entity); refused",
            file=file,
            hint="this file was crafted or damaged; do not open it elsewhere either",
        )


def _scan_sheet(data: bytes, *, file: str, sheet: str, part: str) -> tuple[int, int, bool]:
    """Refuse what a reader must not see; return the used area and whether formulas occur.

    A sheet written the usual way (no namespace prefix, every cell starting
    ``<c r="``) is scanned in one vectorised pass over its bytes; any other
    falls back to regular expressions and, when cells lack references, to
    an XML parse.
    """
    _check_dimension(data, file=file, sheet=sheet)
    plain = b"<worksheet" in data[: 1 << 12]
    fast = _scan_plain([data], file=file, part=part) if plain else None
    if fast is not None:
        max_row, max_col, formulas = fast
    else:
        _refuse_declarations(data, file, part)
        max_row, max_col = _used_area(data, file=file, sheet=sheet)
        formulas = _has_formula(data)
    _check_area(max_row, max_col, file=file, sheet=sheet)
    return max_row, max_col, formulas


_CELL_REF = re.compile(rb'([A-Za-z]+)(\d+)"')
_DIGITS = re.compile(rb"\d+")


def _letter(x: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    return (x >= 65) & (x <= 90)


def _scan_plain(chunks: Iterable[bytes], *, file: str, part: str) -> tuple[int, int, bool] | None:
    """Rows, columns and formula presence of a plain sheet, in one pass.

    The sheet comes in pieces (each scanned while it is in the cache) and
    only the bytes after each ``<`` are looked at: ``<!`` (refused when it
    is a DTD or entity declaration), ``<f`` (a formula element) and ``<c``
    (a cell). Every cell must start ``<c r="`` and its reference with a
    letter, else None (the caller then scans exactly).
    """
    max_row = max_col = 0
    formulas = False
    carry = b""
    # Pieces are scanned on two worker threads while the next ones are
    # unpacked here: zlib and the vectorised scan release the GIL. At most a
    # few pieces are in flight, so memory stays bounded; every piece is
    # scanned before this returns, so the caller still sees the whole sheet.
    with ThreadPoolExecutor(2, thread_name_prefix="xlsx-scan") as pool:
        pending: deque[Future[tuple[int, int, bool] | None]] = deque()

        def take() -> bool:
            nonlocal max_row, max_col, formulas
            found = pending.popleft().result()
            if found is None:
                return False
            max_row, max_col = max(max_row, found[0]), max(max_col, found[1])
            formulas = formulas or found[2]
            return True

        for chunk in itertools.chain(chunks, [b""]):
            if chunk:
                buf = carry + chunk
                limit = len(buf) - _LOOK_AHEAD
                if limit <= 0:
                    carry = buf
                    continue
            else:  # the end: room to look past the last tag
                buf = carry + b"\0" * _LOOK_AHEAD
                limit = len(carry)
            pending.append(pool.submit(_scan_block, buf, limit, file=file, part=part))
            while len(pending) > 3:
                if not take():
                    _cancel(pending)
                    return None
            carry = buf[limit:] if chunk else b""
        while pending:
            if not take():
                _cancel(pending)
                return None
    return max_row, max_col, formulas


def _cancel(pending: deque[Future[Any]]) -> None:
    for fut in pending:
        fut.cancel()


#: Bytes after a "<" that a block scan may read.
_LOOK_AHEAD = 32


def _scan_block(buf: bytes, limit: int, *, file: str, part: str) -> tuple[int, int, bool] | None:
    """:func:`_scan_plain` on the tags starting before ``limit``.

    Columns are read from up to three letters and rows from up to seven
    digits in bulk; longer references are beyond Excel's limits and parsed
    one by one for the message.
    """
    a = np.frombuffer(buf, dtype=np.uint8)
    lt = np.flatnonzero(a[:limit] == 60)  # "<"
    after = a[lt + 1]
    if bool((after == 33).any()):  # "<!": a comment, CDATA or a declaration
        _refuse_declarations(buf, file, part)
    f_at = lt[after == 102]  # "<f"
    formulas = bool(np.isin(a[f_at + 2], _AFTER_NAME).any())
    c_at = lt[after == 99]  # "<c"
    cells = c_at[np.isin(a[c_at + 2], _AFTER_NAME)]
    if not len(cells):
        return 0, 0, formulas
    if not bool(((a[cells + 2] == 32) & (a[cells + 3] == 114) & (a[cells + 4] == 61)
                 & (a[cells + 5] == 34)).all()):  # ' r="'
        return None
    ref = cells + 6
    l0, l1, l2, l3 = (a[ref + k] & 0xDF for k in range(4))  # upper case
    if not bool(_letter(l0).all()):
        return None
    two = _letter(l1)
    three = two & _letter(l2)
    four = three & _letter(l3)
    if bool(four.any()):  # beyond column XFD: refused; say how far exactly
        widest = 0
        for pos in ref[four].tolist():
            m = _CELL_REF.match(buf, pos)
            if m is not None:
                widest = max(widest, column_number(m.group(1).decode("ascii")))
        return 0, max(widest, EXCEL_MAX_COLUMNS + 1), formulas
    col = l0.astype(np.int64) - 64
    col = np.where(two, col * 26 + l1 - 64, col)
    col = np.where(three, col * 26 + l2 - 64, col)
    pos = ref + 1 + two + three
    row = np.zeros(len(pos), dtype=np.int64)
    going = np.ones(len(pos), dtype=bool)
    for k in range(7):
        x = a[pos + k]
        going &= (x >= 48) & (x <= 57)
        row = np.where(going, row * 10 + x - 48, row)
    x = a[pos + 7]
    longer = going & (x >= 48) & (x <= 57)
    max_row = int(row.max())
    for start in pos[longer].tolist():  # eight digits or more: far beyond the limit
        m = _DIGITS.match(buf, start)
        if m is not None:
            max_row = max(max_row, int(m.group()))
    return max_row, int(col.max()), formulas


#: Bytes that may follow an element's name: space, tab, LF, CR, ">" and "/".
_AFTER_NAME = np.array([32, 9, 10, 13, 62, 47], dtype=np.uint8)


def _has_formula(data: bytes) -> bool:
    if b"<worksheet" in data[: 1 << 12]:
        return b"<f>" in data or b"<f " in data or b"<f/" in data
    return _FORMULA.search(data) is not None


def _parse_ref(ref: str) -> tuple[int, int] | None:
    m = _REF.match(ref.strip())
    if not m:
        return None
    return int(m.group(2)), column_number(m.group(1))


def _limit_error(what: str, file: str, sheet: str) -> InputError:
    return InputError(
        what, file=file, sheet=sheet,
        hint=f"Excel's limits are {EXCEL_MAX_ROWS} rows and {EXCEL_MAX_COLUMNS} columns;"
        " copy the data into a new sheet and save it again",
    )


def _check_dimension(data: bytes, *, file: str, sheet: str) -> None:
    """Refuse a declared dimension beyond Excel's limits."""
    dim = _DIMENSION.search(data, 0, 1 << 16)
    if dim:
        for ref in dim.group(1).decode("ascii", "replace").split(":"):
            rc = _parse_ref(ref)
            if rc is None:
                raise _limit_error(f"the sheet's dimension {ref!r} is not a cell reference",
                                   file, sheet)
            if rc[1] > EXCEL_MAX_COLUMNS:
                raise _limit_error(
                    f"the sheet declares {rc[1]:,} columns (dimension {dim.group(1).decode()!r})",
                    file, sheet)
            if rc[0] > EXCEL_MAX_ROWS:
                raise _limit_error(
                    f"the sheet declares {rc[0]:,} rows (dimension {dim.group(1).decode()!r})",
                    file, sheet)


def _used_area(data: bytes, *, file: str, sheet: str) -> tuple[int, int]:
    """Rows and columns a reader would allocate (regular expressions, or a parse)."""
    head = data[: 1 << 12]
    plain = b"<worksheet" in head
    if plain and _CELL_WITHOUT_REF.search(data) is None:
        max_col = _max_col(data)
        max_row = _max_row(data, max_col)
    else:
        max_row, max_col = _used_area_slow(data, file=file, sheet=sheet)
    return max_row, max_col


def _check_area(max_row: int, max_col: int, *, file: str, sheet: str) -> None:
    """Refuse a used area that Excel could not hold or a reader should not allocate."""
    if max_col > EXCEL_MAX_COLUMNS:
        raise _limit_error(f"the sheet uses {max_col:,} columns", file, sheet)
    if max_row > EXCEL_MAX_ROWS:
        raise _limit_error(f"the sheet uses {max_row:,} rows", file, sheet)
    if max_row * max_col > LIMITS["sheet_cells"]:
        raise _limit_error(
            f"the sheet's used area is {max_row:,} rows x {max_col:,} columns"
            f" ({column_letters(max_col)}{max_row}), too large to read safely",
            file, sheet)


def _max_row(data: bytes, max_col: int) -> int:
    """The highest row of a cell, or an upper bound when that is already safe.

    Scans only for references with many digits, from the most down, and stops
    as soon as the bound times ``max_col`` is within the cell limit.
    """
    found = re.findall(rb'<c r="[A-Za-z]+(\d{8,})"', data)
    if found:
        return max(int(x) for x in found)
    for digits in range(7, 0, -1):
        if max(max_col, 1) * (10**digits - 1) <= LIMITS["sheet_cells"]:
            return int(10**digits - 1)
        found = re.findall(rb'<c r="[A-Za-z]+(\d{%d})"' % digits, data)
        if found:
            return max(int(x) for x in found)
    return 0


def _max_col(data: bytes) -> int:
    """The highest column of a cell; 26 (Z) bounds single-letter columns."""
    long = re.findall(rb'<c r="([A-Za-z]{2,})\d', data)
    if long:
        return max(column_number(x.decode()) for x in long)
    return 26 if b'<c r="' in data else 0


def _walk_cells(data: bytes, events: tuple[str, ...]) -> Iterator[tuple[str, str, Any, int, int]]:
    """Parse sheet XML (defused), yielding (event, tag, element, row, column)
    with each cell's position: from its reference, or counted on from the
    previous cell and row when the reference is missing."""
    import io

    from defusedxml.ElementTree import iterparse

    row = col = 0
    for event, elem in iterparse(io.BytesIO(data), events=events):
        tag = elem.tag.rsplit("}", 1)[-1]
        if event == "start":
            if tag == "row":
                r = elem.get("r")
                row = int(r) if r and r.isdigit() else row + 1
                col = 0
            elif tag == "c":
                rc = _parse_ref(elem.get("r") or "")
                row, col = rc if rc is not None else (row, col + 1)
        yield event, tag, elem, row, col


def _used_area_slow(data: bytes, *, file: str, sheet: str) -> tuple[int, int]:
    """Exact used area when cells lack references or the XML uses prefixes."""
    max_row = max_col = 0
    try:
        for _event, tag, _elem, row, col in _walk_cells(data, ("start",)):
            if tag == "c":
                max_row = max(max_row, row)
                max_col = max(max_col, col)
                if max_col > EXCEL_MAX_COLUMNS or max_row > EXCEL_MAX_ROWS:
                    break
    except InputError:
        raise
    except Exception as exc:
        raise InputError(f"the sheet's XML is not readable ({exc})", file=file,
                         sheet=sheet) from exc
    return max_row, max_col


#: After a cell's start tag: optional blanks, then a formula element.
_FORMULA_NEXT = re.compile(rb"\s*<(?:[A-Za-z_][\w.-]*:)?f[\s>/]")
#: Bytes a cell's start tag and its formula element's start fit in.
_TAG_ROOM = 4096


def formula_rows(path: str | Path, part: str, column: str) -> list[int] | None:
    """The 1-based rows whose cell in ``column`` (letters) holds a formula,
    found in one streaming pass over a sheet part without parsing it;
    None when some cell's start tag does not begin with its reference
    (the caller must then parse, :func:`find_formulas`).
    """
    name = str(path)
    needle = b' r="' + column.upper().encode("ascii")
    rows: list[int] = []
    with zipfile.ZipFile(path) as zf:
        carry = b""
        for chunk in itertools.chain(_stream_part(zf, zf.getinfo(part), name), [b""]):
            buf = carry + chunk
            limit = len(buf) - _TAG_ROOM if chunk else len(buf)
            odd = _CELL_WITHOUT_REF.search(buf)  # one past the limit is seen again
            if odd is not None and odd.start() < limit:
                return None
            at = buf.find(needle)
            while 0 <= at < limit:
                digits = _DIGITS.match(buf, at + len(needle))
                if (digits is not None and buf[at - 2:at] in (b"<c", b":c")
                        and buf[digits.end():digits.end() + 1] == b'"'):
                    end = buf.find(b">", digits.end())
                    if end > 0 and buf[end - 1:end] != b"/" and _FORMULA_NEXT.match(buf, end + 1):
                        rows.append(int(digits.group()))
                at = buf.find(needle, at + 1)
            carry = buf[max(limit, 0):] if chunk else b""
    return rows


def find_formulas(path: str | Path, part: str) -> list[tuple[str, str]]:
    """Every formula cell of one sheet part: (cell reference, formula text).

    Nothing is evaluated; used to refuse formulas where data belongs.
    """
    name = str(path)
    out: list[tuple[str, str]] = []
    try:
        with zipfile.ZipFile(path) as zf:
            data = _read_part(zf, zf.getinfo(part), name)
        ref = ""
        for event, tag, elem, row, col in _walk_cells(data, ("start", "end")):
            if event == "start":
                if tag == "c":
                    ref = f"{column_letters(col)}{row}"
            elif tag == "f":
                out.append((ref, "=" + (elem.text or "")))
            elif tag == "row":
                elem.clear()
    except InputError:
        raise
    except Exception as exc:
        raise InputError(f"the sheet's XML is not readable ({exc})", file=name) from exc
    return out
