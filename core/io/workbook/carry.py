"""Writing what people added (:mod:`core.io.workbook.additions`) into the
workbook the export writes: their sheets after ours, their Candidates
columns and comments on the rows of the candidates they belong to."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np

from core.io.workbook.additions import Additions, CandidateAdditions, CarriedSheet, Cell
from core.io.workbook.additions_types import moved
from core.io.workbook.candidates import GRADE_COL, reason_notes
from core.io.workbook.grade_comments import with_ours
from core.model.document import Document

__all__ = ["CandidateExtras", "write_carried_sheets"]


class _Styles:
    """xlsxwriter formats for carried cells, one per distinct look."""

    def __init__(self, wb: Any, *, locked: bool = True) -> None:
        self.wb = wb
        self.locked = locked
        self.made: dict[tuple[str, str, tuple[tuple[str, Any], ...]], Any] = {}

    def __call__(self, cell: Cell) -> Any:
        key = (cell.number_format, cell.fill, cell.look)
        if key not in self.made:
            props: dict[str, Any] = {}
            if cell.number_format and cell.number_format != "General":
                props["num_format"] = cell.number_format
            if cell.fill:
                props["bg_color"] = "#" + cell.fill
                props["pattern"] = 1
            props.update(cell.look)
            if not self.locked:
                props["locked"] = False
            self.made[key] = self.wb.add_format(props) if props else None
        return self.made[key]


def _write_cell(ws: Any, row: int, cell: Cell, style: Any) -> None:
    col = cell.col
    if cell.kind == "f":
        cached = cell.cached
        if isinstance(cached, float) and not math.isfinite(cached):
            cached = None
        ws.write_formula(row, col, "=" + str(cell.value), style,
                         "" if cached is None else cached)
    elif cell.kind == "b":
        ws.write_boolean(row, col, bool(cell.value), style)
    elif cell.kind == "n":
        ws.write_number(row, col, float(cell.value), style)
    else:
        ws.write_string(row, col, str(cell.value), style)


def write_carried_sheets(wb: Any, additions: Additions | None, reasons: bool = False) -> None:
    """Each sheet of the person's own, after ours (in the order they had);
    ``reasons``: the Candidates sheet written holds the export's reason
    column, their formulas' references to it moved where they were written
    the other way (:func:`~core.io.workbook.additions_types.moved`)."""
    if not additions or not additions.sheets:
        return
    styles = _Styles(wb)
    constant = wb.constant_memory
    wb.constant_memory = False  # their cells come in any order; their sheets are small
    try:
        for sheet in additions.sheets:
            ws = wb.add_worksheet(sheet.name)
            ws.row_data_fh_closed = True  # it has no constant-memory file to close
            _write_sheet(ws, replace(sheet, cells=[moved(c, reasons, on_sheet=False)
                                                   for c in sheet.cells]), styles)
    finally:
        wb.constant_memory = constant


def _write_sheet(ws: Any, sheet: CarriedSheet, styles: _Styles) -> None:
    for col, width in sorted(sheet.widths.items()):
        ws.set_column_pixels(col, col, _pixels(width))
    merged = {(r0, c0): (r1, c1) for r0, c0, r1, c1 in sheet.merged}
    cells = {(c.row, c.col): c for c in sheet.cells}
    for (r0, c0), (r1, c1) in merged.items():
        top = cells.pop((r0, c0), None)
        ws.merge_range(r0, c0, r1, c1, "", None if top is None else styles(top))
        if top is not None:  # the merged range's value, as it was
            _write_cell(ws, r0, top, styles(top))
    for cell in cells.values():
        _write_cell(ws, cell.row, cell, styles(cell))
    for note in sheet.comments:
        ws.write_comment(note.row, note.col, note.text,
                         {"author": note.author} if note.author else None)
    if sheet.hidden:
        ws.hide()


class CandidateExtras:
    """The Candidates sheet's carried cells, by the sheet row of each
    candidate (the export's row order), as XML to append to its row, and its
    comments: given to the worksheet that writes the rows."""

    def __init__(self, wb: Any, add: CandidateAdditions, doc: Document,
                 perm: np.ndarray) -> None:
        self.add = add
        self.styles = _Styles(wb, locked=False)  # their columns stay editable
        qids = doc.query_ids
        keys = zip([qids[q] for q in doc.query[perm].tolist()],
                   doc.source_id[perm].tolist(), strict=True)
        #: Sheet row (0-based) of each candidate that has additions.
        self.rows = {key: k + 1 for k, key in enumerate(keys)
                     if key in add.cells or key in add.comments or key in add.fills}
        self.wb = wb
        self.doc, self.perm = doc, perm
        self._filled: dict[tuple[int, str], int] = {}
        #: What had no candidate to go with (deleted since), in words.
        self.lost = sorted({f"{q!r}/{s!r}" for q, s in [*add.cells, *add.comments, *add.fills]
                            if (q, s) not in self.rows})

    def before_rows(self, ws: Any) -> None:
        """Headers, widths and comments (xlsxwriter needs them before the rows)."""
        for col, width in sorted(self.add.widths.items()):
            ws.set_column_pixels(col, col, _pixels(width), self.styles(Cell(0, col, "s", "")))
        for cell in self.add.header:
            _write_cell(ws, 0, cell, self.styles(cell))
        for note in self.add.header_comments:
            ws.write_comment(0, note.col, note.text,
                             {"author": note.author} if note.author else None)
        ours = dict(reason_notes(self.doc, self.perm)) if self.add.comments else {}
        for key, row in self.rows.items():
            for note in self.add.comments.get(key, ()):
                text = note.text
                if note.col == GRADE_COL and row - 1 in ours:  # one comment: theirs, then ours
                    text = with_ours(text, ours[row - 1])  # (over the one write_candidates put)
                ws.write_comment(row, note.col, text,
                                 {"author": note.author} if note.author else None)

    def last_column(self) -> int:
        cols = [c.col for c in self.add.header] + [
            c.col for cells in self.add.cells.values() for c in cells]
        return max(cols, default=0)

    def rows_xml(self, rows: Iterable[str]) -> Iterator[str]:
        """The rendered rows (batches of ``<row>`` elements) with the carried
        cells appended to their candidates' rows."""
        by_row = self.cells_by_row()
        fills = {row + 1: self.add.fills[key] for key, row in self.rows.items()
                 if key in self.add.fills}
        if not by_row and not fills:
            yield from rows
            return
        for batch in rows:
            pieces = batch.split("</row>")
            for i, piece in enumerate(pieces[:-1]):
                start = piece.find('<row r="') + 8
                r = int(piece[start:piece.index('"', start)])
                if r in fills:
                    piece = self._coloured(piece, r, fills[r])
                pieces[i] = piece + by_row.get(r, "")
            yield "</row>".join(pieces)

    def cells_by_row(self) -> dict[int, str]:
        """The carried cells' XML (``<c>`` elements) by sheet row (1-based)."""
        return {row + 1: self._xml(row, self.add.cells[key])
                for key, row in self.rows.items() if key in self.add.cells}

    def _coloured(self, row: str, r: int, fills: list[tuple[int, str]]) -> str:
        """Row ``r``'s XML with its cells of ``fills`` in their colours (each
        keeps the rest of its look: its format copied with the fill)."""
        from xlsxwriter.utility import xl_col_to_name

        for col, colour in fills:
            at = row.find(f'<c r="{xl_col_to_name(col)}{r}"')
            if at < 0:
                continue  # an empty cell (no score): nothing to colour
            end = row.index(">", at)
            tag = row[at:end]
            s_at = tag.find(' s="')
            style = int(tag[s_at + 4:tag.index('"', s_at + 4)]) if s_at >= 0 else 0
            new = f' s="{self._fill_style(style, colour)}"'
            if s_at >= 0:
                tag = tag[:s_at] + new + tag[tag.index('"', s_at + 4) + 1:]
            else:  # after the reference
                ref_end = tag.index('"', tag.index('r="') + 3) + 1
                tag = tag[:ref_end] + new + tag[ref_end:]
            row = row[:at] + tag + row[end:]
        return row

    def _fill_style(self, style: int, colour: str) -> int:
        """The index of format ``style`` with a solid ``colour`` fill."""
        import copy

        key = (style, colour)
        if key not in self._filled:
            base = next((f for f in self.wb.formats if f.xf_index == style), None)
            if base is None or style == 0:
                made = self.wb.add_format({"bg_color": "#" + colour, "pattern": 1})
            else:
                made = copy.copy(base)
                made.set_bg_color("#" + colour)
                made.set_pattern(1)
                made.xf_index = None
                made._format_key = None  # xlsxwriter caches it
                self.wb.formats.append(made)
            self._filled[key] = made._get_xf_index()
        return self._filled[key]

    def _xml(self, row: int, cells: list[Cell]) -> str:
        from xml.sax.saxutils import escape

        from xlsxwriter.utility import xl_rowcol_to_cell

        out = []
        for cell in sorted(cells, key=lambda c: c.col):
            ref = xl_rowcol_to_cell(row, cell.col)
            fmt = self.styles(cell)
            s = f' s="{fmt._get_xf_index()}"' if fmt is not None else ""
            if cell.kind == "n":
                out.append(f'<c r="{ref}"{s}><v>{float(cell.value)!r}</v></c>')
            elif cell.kind == "b":
                out.append(f'<c r="{ref}"{s} t="b"><v>{int(bool(cell.value))}</v></c>')
            elif cell.kind == "f":
                cached = cell.cached
                body = f"<f>{escape(_at_row(cell, row))}</f>"
                if isinstance(cached, bool):
                    out.append(f'<c r="{ref}"{s} t="b">{body}<v>{int(cached)}</v></c>')
                elif isinstance(cached, int | float) and math.isfinite(cached):
                    out.append(f'<c r="{ref}"{s}>{body}<v>{float(cached)!r}</v></c>')
                else:
                    text = "" if cached is None else escape(str(cached))
                    out.append(f'<c r="{ref}"{s} t="str">{body}<v>{text}</v></c>')
            else:
                text = _clean(str(cell.value))
                space = ' xml:space="preserve"' if text != text.strip() else ""
                out.append(f'<c r="{ref}"{s} t="inlineStr"><is><t{space}>{escape(text)}'
                           f"</t></is></c>")
        return "".join(out)


def _at_row(cell: Cell, row: int) -> str:
    """A person's formula on a candidate's row written at sheet row ``row``
    (0-based): read at another (the rows sorted in a spreadsheet, written
    back in the export's order), its relative references moved along, as
    the sort moved them (openpyxl's translator; ``$`` rows stay)."""
    text = str(cell.value)
    if cell.origin_row is None or cell.origin_row == row:
        return text
    from openpyxl.formula.translate import Translator, TranslatorError
    from xlsxwriter.utility import xl_rowcol_to_cell

    try:
        moved = Translator("=" + text, xl_rowcol_to_cell(cell.origin_row, cell.col)
                           ).translate_formula(xl_rowcol_to_cell(row, cell.col))
    except (TranslatorError, ValueError):
        return text  # not ours to read: as written
    return str(moved).removeprefix("=")


def _pixels(width: float) -> int:
    """A stored column width in pixels (7 a character at the default font), so
    that xlsxwriter stores the same width again (its ``set_column`` adds the
    cell padding to a width in characters)."""
    return max(0, round(width * 7))


def _clean(text: str) -> str:
    """Text as a cell holds it: control characters as Excel's ``_xHHHH_``."""
    from xlsxwriter.xmlwriter import XMLwriter

    return str(XMLwriter._escape_control_characters(text))
