"""What a person added to a workbook of ours that LibreOffice saved as .ods,
read back as :func:`core.io.workbook.additions.read_additions` reads an
.xlsx's, so that the next save keeps it.

Read in one pass of the check's scan (:func:`core.io.safety.check_ods`):
each sheet the product did not write, with its values and formulas (a
formula in OpenFormula's references, ``[.B2]``, ``[$Notes.A1:.B4]``, ``;``
between arguments, is written in Excel's, with its stored result; one this
reader cannot write in Excel's is kept as its result and named) and its
merged cells; the Candidates sheet's columns right of ours (from column AB),
each cell keyed by the candidate of its row (query and source id). The
Candidates rows are parsed only when they do not end as LibreOffice ends a
row with nothing right of ours (empty cells repeated from AB to the sheet's
edge). Comments are named in
:attr:`~core.io.workbook.additions.Additions.not_carried`, as are charts and
images in the cells of a person's sheet; the cells' looks and column widths
are not kept from an .ods.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from core.io.safety import EXCEL_MAX_COLUMNS, ODS_SUFFIX, check_ods
from core.io.safety.ods import ods_sheet_cells
from core.io.workbook.additions import (
    FIRST_ADDED_COLUMN,
    OUR_SHEETS,
    READERS,
    Additions,
    CarriedSheet,
    Cell,
    Key,
    _key_text,
)
from core.io.workbook.layout import SHEETS
from core.io.workbook.ods_rows import cell_values

__all__ = ["read_ods_additions"]

#: A Candidates row's last cell when nothing follows our columns: LibreOffice's
#: empty cells repeated from column AB to the sheet's edge.
_NOTHING_AFTER = re.compile(
    rb'<table:table-cell(?: table:style-name="[^"]*")? table:number-columns-repeated="%d"'
    rb'(?: table:style-name="[^"]*")?/>\Z' % (EXCEL_MAX_COLUMNS - FIRST_ADDED_COLUMN))
_REFERENCE = re.compile(r"\[\$?('(?:[^']|'')+'|[^.\[\]':]*)?\.(\$?[A-Z]+\$?\d+)"
                        r"(?::\$?(?:'(?:[^']|'')+'|[^.\[\]':]*)?\.(\$?[A-Z]+\$?\d+))?\]")


class _Reader:
    """Takes the rows of the person's sheets whole, and the Candidates rows
    that hold something right of ours."""

    def __init__(self, theirs: list[str]) -> None:
        self.theirs = theirs
        self.tables = frozenset([*theirs, SHEETS["candidates"]])
        self.rows: dict[str, dict[int, list[Any]]] = {t: {} for t in self.tables}
        self.drawings: set[str] = set()  # their sheets with a chart or image in a cell

    def row(self, table: str, number: int, repeat: int, buf: bytes, start: int,
            end: int) -> None:
        if table == SHEETS["candidates"]:
            last = buf.rfind(b"<table:table-cell", start, end)
            if last >= 0 and _NOTHING_AFTER.match(buf, last, end):
                return  # nothing right of ours
        elif buf.find(b"<draw:", start, end) >= 0:
            self.drawings.add(table)
        cells = cell_values(buf, start, end)
        if any(c != "" for c in cells):
            for n in range(number, number + min(repeat, 1 << 16)):
                self.rows[table][n] = cells


def read_ods_additions(path: Path) -> Additions:
    """What a person added to the .ods workbook of ours at ``path`` (see the
    module's text), for :func:`~core.io.workbook.additions.read_additions`,
    which raises :class:`InputError` when the file is unsafe."""
    name = str(path)
    theirs = [s for s in check_ods(path).sheets if s not in OUR_SHEETS]
    reader = _Reader(theirs)
    check_ods(path, reader=reader)
    out = Additions(name)
    for sheet in theirs:
        out.sheets.append(_their_sheet(path, sheet, reader.rows[sheet], out.not_carried))
    _candidate_additions(out, reader.rows[SHEETS["candidates"]])
    if b"<office:annotation" in _holds(path, (b"<office:annotation",)):
        out.not_carried.append("comments (an .ods file's comments are not kept)")
    out.not_carried += [f"sheet {s!r}: charts, images and shapes" for s in sorted(reader.drawings)]
    return out


def _their_sheet(path: Path, sheet: str, rows: dict[int, list[Any]],
                 lost: list[str]) -> CarriedSheet:
    """A person's sheet: its values, its formulas in Excel's syntax, its merged cells."""
    formulas, merged = ods_sheet_cells(path, sheet, str(path))
    written = {ref: text for ref, text in formulas}
    out = CarriedSheet(sheet, merged=[(a[0], a[1], b[0], b[1]) for a, b in merged])
    kept_as_value = 0
    for number, cells in sorted(rows.items()):
        for col, value in enumerate(cells):
            ref = f"{_letters(col + 1)}{number}"
            formula = written.get(ref)
            excel = _excel_formula(formula, sheet) if formula is not None else None
            if formula is not None and excel is None:
                kept_as_value += 1
            if excel is not None:
                out.cells.append(Cell(number - 1, col, "f", excel, value))
            elif value != "":
                out.cells.append(_value_cell(number - 1, col, value))
    if kept_as_value:
        lost.append(f"sheet {sheet!r}: {kept_as_value} formula(s) kept as their last"
                    " result (written in LibreOffice's syntax only)")
    return out


def _candidate_additions(out: Additions, rows: dict[int, list[Any]]) -> None:
    """The Candidates cells right of ours, by the candidate of their row."""
    c = out.candidates
    stray = []
    for number, cells in sorted(rows.items()):
        added = [(col, v) for col, v in enumerate(cells)
                 if col >= FIRST_ADDED_COLUMN and v != ""]
        if number == 1:
            c.header.extend(_value_cell(0, col, v) for col, v in added)
            continue
        if len(cells) < 2 or cells[0] == "" or cells[1] == "":
            stray += [f"{_letters(col + 1)}{number}" for col, _ in added]
            continue
        key: Key = (_key_text(cells[0]), _key_text(cells[1]))
        c.cells.setdefault(key, []).extend(_value_cell(0, col, v) for col, v in added)
    if stray:
        more = f" and {len(stray) - 3} more" if len(stray) > 3 else ""
        out.not_carried.append(
            f"Candidates cells on rows of no candidate: {', '.join(stray[:3])}{more}")


def _value_cell(row: int, col: int, value: Any) -> Cell:
    if isinstance(value, bool):
        return Cell(row, col, "b", value)
    if isinstance(value, float):
        return Cell(row, col, "n", value)
    return Cell(row, col, "s", str(value))


def _excel_formula(formula: str, sheet: str) -> str | None:
    """An OpenFormula formula (``=[.B2]*2``, as the scan gives it) in Excel's
    syntax (``B2*2``, without ``=``); None when it holds what this cannot write."""
    text = formula.removeprefix("=")
    if '"' in text:
        return None  # a ';' inside a string would be taken for a separator

    def reference(m: re.Match[str]) -> str:
        where = m.group(1) or ""
        ref = m.group(2) + (f":{m.group(3)}" if m.group(3) else "")
        if not where or where.strip("'").replace("''", "'") == sheet:
            return ref
        quoted = where if where.startswith("'") else (
            where if re.fullmatch(r"\w+", where) else "'" + where.replace("'", "''") + "'")
        return f"{quoted}!{ref}"

    text = _REFERENCE.sub(reference, text).replace(";", ",")
    return None if "[" in text or "]" in text else text


def _letters(number: int) -> str:
    from core.io.safety import column_letters

    return column_letters(number)


def _holds(path: Path, needles: tuple[bytes, ...]) -> set[bytes]:
    """Which of ``needles`` content.xml holds (one streaming pass)."""
    import zipfile

    from core.io.safety.ods import CONTENT
    from core.io.safety.parts import stream_part

    found: set[bytes] = set()
    carry = b""
    with zipfile.ZipFile(path) as zf:
        for chunk in stream_part(zf, zf.getinfo(CONTENT), str(path)):
            buf = carry + chunk
            found.update(n for n in needles if n in buf)
            carry = buf[-64:]
    return found


READERS[ODS_SUFFIX] = read_ods_additions
