"""What people added to a workbook of ours, read back so that the next save
keeps it (:mod:`core.io.workbook.carry` writes it).

A reviewer who opens the workbook in Excel or LibreOffice may add sheets of
their own, columns to the right of the Candidates sheet, comments on our
cells. Rewriting the workbook from the document alone would drop all of
that. :func:`read_additions` reads it from the file about to be replaced:

- each sheet the product did not write, with its values, formulas (and their
  cached results), number formats, fills, fonts, alignment and borders, column widths,
  merged cells and comments;
- the Candidates sheet's columns to the right of ours (from column AB) and
  the comments on any of its cells, each keyed by the candidate of its row
  (query and source id, never the row number: a sort or an inserted row in
  the spreadsheet does not move them to another candidate);
- what cannot be carried (charts, images and shapes, pivot tables, macros,
  conditional formats and data validation of a sheet of theirs), named in
  :attr:`Additions.not_carried` so that the user is told before saving.

openpyxl parses a copy of the workbook whose Candidates sheet lacks what
additions are never read from (:mod:`~core.io.workbook.additions_copy`):
most of its cells and rows, so that a save over a large workbook someone
annotated does not wait for every cell of ours to be built.
"""

from __future__ import annotations

import posixpath
import re
import tempfile
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.io.calamine_book import calamine_book
from core.io.safety import WorkbookCheck, check_xlsx
from core.io.stop import Stopped
from core.io.stop import check as check_stopped
from core.io.workbook.additions_copy import comments_parts, reduced_copy
from core.io.workbook.additions_ods import read_ods_additions
from core.io.workbook.additions_types import (
    FIRST_ADDED_COLUMN,
    OUR_SHEETS,
    Additions,
    CandidateAdditions,
    CarriedSheet,
    Cell,
    Comment,
    Key,
    RecordColumns,
    key_text,
    our_sheets,
    reasons_written,
)
from core.io.workbook.grade_comments import their_part
from core.io.workbook.layout import COLUMN_INDEX, GRADE_COLUMN, REASON_COLUMN, SHEETS
from core.io.workbook.record import file_headers
from core.io.workbook.record_columns import (
    header_columns,
    metadata_annotators,
    record_rows,
)
from core.io.workbook.saved_rows import read_header
from core.io.workbook.sheet_conventions import defined_names
from core.io.workbook.targets import is_ods
from core.model.grades import is_unknown_note

__all__ = [
    "Additions",
    "CandidateAdditions",
    "CarriedSheet",
    "Cell",
    "Comment",
    "additions_of_all",
    "additions_to_keep",
    "cannot_carry",
    "lost_by_replacing",
    "merge_additions",
    "read_additions",
]

#: The fill the export gives the Candidates cells people edit (current
#: grade, note); other candidate cells have none. Any other solid fill is a
#: person's.
EDIT_FILL = "FFF2CC"
#: Every cell fill colour the export writes (header grey, Conventions blue,
#: editable yellow); a workbook whose styles hold no other has no colour of
#: a person's.
OUR_FILLS = frozenset({"F2F2F2", "DDEBF7", EDIT_FILL})
_FILL_RGB = re.compile(rb'<(?:\w+:)?(?:fgColor|bgColor)\b[^>]*\brgb="([0-9A-Fa-f]{6,8})"')
#: A fill's colour from the theme or the legacy palette (the export writes none).
_FG_PALETTE = re.compile(rb'<(?:\w+:)?fgColor\b[^>]*\b(?:theme|indexed)="')
_FG_THEME = re.compile(rb'<(?:\w+:)?fgColor\b[^>]*\btheme="')
#: A cell fill, its pattern solid, and a background colour (of a pattern).
_FILL = re.compile(rb"<(?:\w+:)?fill\b.*?</(?:\w+:)?fill>", re.S)
_SOLID = re.compile(rb'<(?:\w+:)?patternFill\b[^>]*\bpatternType="solid"')
_BG_COLOR = re.compile(rb"<(?:\w+:)?bgColor\b[^>]*>")
EDITABLE_COLUMNS = (COLUMN_INDEX["current grade"], COLUMN_INDEX["note"])
#: The grade column, whose comments an export writes where an unknown grade
#: has a reason (core.io.workbook.candidates.reason_notes).
_GRADE = COLUMN_INDEX["current grade"]




_REL = re.compile(r'<Relationship\b[^>]*?\bType="[^"]*/relationships/([A-Za-z]+)"[^>]*>')


def _rels_of(z: zipfile.ZipFile, part: str) -> list[str]:
    """The relationship kinds (``drawing``, ``comments``, ``pivotTable`` ...) of a part."""
    folder, base = posixpath.split(part)
    rels = posixpath.join(folder, "_rels", base + ".rels")
    try:
        text = z.read(rels).decode("utf-8", "replace")
    except KeyError:
        return []
    return _REL.findall(text)


def cannot_carry(path: str | Path, check: WorkbookCheck | None = None) -> list[str]:
    """What a rewrite of the workbook at ``path`` cannot keep, in words: charts,
    images and shapes outside the Report sheet, pivot tables, macros,
    conditional formats and dropdowns of a sheet of a person's. Reads only
    the zip's relationships and those sheets' XML (fast: the editor asks it
    before saving). [] for a file that is not there."""
    path = Path(path)
    if not path.is_file():
        return []
    check = check or check_xlsx(path)
    out: list[str] = []
    try:
        ours, _ = our_sheets(check.sheets, defined_names(path, str(path)),
                             file_headers(str(path)), str(path))
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            for sheet in check.sheets:
                kinds = _rels_of(z, check.parts[sheet])
                if "drawing" in kinds and sheet != SHEETS["report"]:
                    out.append(f"charts, images or shapes in sheet {sheet!r}")
                if "pivotTable" in kinds:
                    out.append(f"a pivot table in sheet {sheet!r}")
                if "table" in kinds:
                    out.append(f"a table (list object) in sheet {sheet!r}; its cells are kept")
                if sheet not in ours:
                    out += _sheet_features(z.read(check.parts[sheet]), sheet)
            if any(n.lower().endswith("vbaproject.bin") for n in names):
                out.append("macros (VBA)")
            if _theme_fills(z):
                out.append("cell colours from the theme's palette (choose a standard colour "
                           "to keep them)")
    except (OSError, zipfile.BadZipFile) as exc:
        raise InputError(f"the workbook cannot be read: {exc}", file=str(path)) from exc
    return out


_CONDITIONAL = re.compile(rb"<(?:\w+:)?conditionalFormatting\b")
_VALIDATION = re.compile(rb"<(?:\w+:)?dataValidation\b")


def _sheet_features(xml: bytes, sheet: str) -> list[str]:
    """What a person's sheet holds that a rewrite does not keep."""
    out = []
    if _CONDITIONAL.search(xml):
        out.append(f"conditional formats in sheet {sheet!r}")
    if _VALIDATION.search(xml):
        out.append(f"data validation (dropdowns) in sheet {sheet!r}")
    return out


#: What :func:`_colour` says of a colour from the theme's palette, which the
#: writer cannot give (it is named as not kept).
THEME = "theme"


def _colour(fill: Any) -> str:
    """RRGGBB of a solid fill (an indexed colour looked up in the legacy
    palette), :data:`THEME` for a theme colour, "" for no solid fill."""
    from openpyxl.styles.colors import COLOR_INDEX

    try:
        if fill is None or fill.fill_type != "solid":
            return ""
        colour = fill.fgColor
        kind = colour.type
    except AttributeError:
        return ""
    if kind == "rgb" and isinstance(colour.rgb, str) and len(colour.rgb) in (6, 8):
        return colour.rgb[-6:].upper()
    if kind == "indexed" and isinstance(colour.indexed, int) and colour.indexed < 64:
        return str(COLOR_INDEX[colour.indexed])[-6:].upper()
    return THEME if kind == "theme" else ""


#: openpyxl's border styles as xlsxwriter's border indices.
_BORDERS = {"thin": 1, "medium": 2, "dashed": 3, "dotted": 4, "thick": 5, "double": 6,
            "hair": 7, "mediumDashed": 8, "dashDot": 9, "mediumDashDot": 10,
            "dashDotDot": 11, "mediumDashDotDot": 12, "slantDashDot": 13}


def _rgb(colour: Any) -> str:
    """``#RRGGBB`` of an RGB colour, "" for none or a theme colour."""
    rgb = getattr(colour, "rgb", None) if getattr(colour, "type", None) == "rgb" else None
    return "#" + rgb[-6:] if isinstance(rgb, str) and len(rgb) in (6, 8) else ""


def _look(c: Any) -> tuple[tuple[str, Any], ...]:
    """A cell's font, alignment and borders as xlsxwriter format properties
    (the defaults left out)."""
    out: list[tuple[str, Any]] = []
    font = c.font
    if font is not None:
        out += [(k, True) for k, on in (("bold", font.b), ("italic", font.i),
                                         ("font_strikeout", font.strike)) if on]
        if font.u:
            out.append(("underline", 1))
        if font.sz and float(font.sz) != 11.0:
            out.append(("font_size", float(font.sz)))
        if _rgb(font.color) not in ("", "#000000"):
            out.append(("font_color", _rgb(font.color)))
    align = c.alignment
    if align is not None:
        if align.horizontal and align.horizontal != "general":
            out.append(("align", align.horizontal))
        if align.vertical and align.vertical != "bottom":
            out.append(("valign", "vcenter" if align.vertical == "center" else align.vertical))
        if align.wrap_text:
            out.append(("text_wrap", True))
    border = c.border
    if border is not None:
        for side in ("left", "right", "top", "bottom"):
            edge: Any = getattr(border, side, None)
            style = _BORDERS.get(getattr(edge, "style", None) or "")
            if style:
                out.append((side, style))
                if _rgb(edge.color):
                    out.append((f"{side}_color", _rgb(edge.color)))
    return tuple(out)


def _cell(c: Any, cached: Any, row: int | None = None, reasons: bool = False) -> Cell | None:
    """An openpyxl cell as a :class:`Cell` (None for an empty one); ``reasons``:
    its workbook's Candidates sheet holds the export's reason column
    (:attr:`Cell.reasons`)."""
    import datetime

    from openpyxl.utils.datetime import to_excel

    value = c.value
    if value is None:
        return None
    kind = c.data_type
    if kind == "f" or (isinstance(value, str) and kind != "s" and value.startswith("=")):
        text = getattr(value, "text", value)  # an array formula
        value, kind = str(text or "").removeprefix("="), "f"
    elif isinstance(value, bool):
        kind = "b"
    elif isinstance(value, datetime.datetime | datetime.date | datetime.time):
        value, kind = float(to_excel(value)), "n"
    elif isinstance(value, datetime.timedelta):
        value, kind = value.total_seconds() / 86400.0, "n"
    elif isinstance(value, int | float):
        value, kind = float(value), "n"
    else:
        value, kind = str(value), "s"
    fill = _colour(c.fill)
    return Cell(c.row - 1 if row is None else row, c.column - 1, kind, value,
                cached if kind == "f" else None, c.number_format or "General",
                "" if fill == THEME else fill, _look(c), reasons and kind == "f")


def _comment(c: Any, row: int | None = None) -> Comment | None:
    got = c.comment
    if got is None or not got.text:
        return None
    return Comment(c.row - 1 if row is None else row, c.column - 1, str(got.text),
                   str(got.author or "").strip())


def _cached_values(book: Any, sheet: str, first_col: int = 0) -> dict[tuple[int, int], Any]:
    """The last results of a sheet's cells (0-based positions, from column
    ``first_col`` on), by calamine."""
    try:
        found = book.get_sheet_by_name(sheet)
    except Exception:  # a sheet calamine cannot read: formulas keep no result
        return {}
    out = {}
    for i, row in enumerate(found.to_python(skip_empty_area=False)):  # from A1
        for j in range(first_col, len(row)):
            v = row[j]
            if v != "" and v is not None:
                out[(i, j)] = v
    return out


def _widths(ws: Any, first: int = 0) -> dict[int, float]:
    from openpyxl.utils import column_index_from_string

    out = {}
    for letter, dim in ws.column_dimensions.items():
        if dim.width and dim.customWidth:
            lo = (dim.min or column_index_from_string(letter)) - 1
            hi = (dim.max or lo + 1) - 1
            for c in range(max(lo, first), min(hi, 16_383) + 1):
                if c < lo + 256:  # a style over every column is no width of theirs
                    out[c] = float(dim.width)
    return out


def _foreign_sheet(ws: Any, cached: dict[tuple[int, int], Any], hidden: bool,
                   reasons: bool = False) -> CarriedSheet:
    """A person's sheet as it will be written again (what it loses,
    :func:`cannot_carry` says); ``reasons``: the workbook's Candidates sheet
    holds the export's reason column, which its formulas' references to that
    sheet are read beside (:attr:`Cell.reasons`)."""
    out = CarriedSheet(ws.title, hidden=hidden)
    for row in ws.iter_rows():
        for c in row:
            got = _cell(c, cached.get((c.row - 1, c.column - 1)), reasons=reasons)
            if got is not None:
                out.cells.append(got)
            note = _comment(c)
            if note is not None:
                out.comments.append(note)
    out.widths = _widths(ws)
    out.merged = [(m.min_row - 1, m.min_col - 1, m.max_row - 1, m.max_col - 1)
                  for m in ws.merged_cells.ranges]
    return out


def _candidate_additions(ws: Any, cached: dict[tuple[int, int], Any],
                         ) -> tuple[CandidateAdditions, list[str]]:
    """The added columns' cells and the comments of the Candidates sheet, by candidate."""
    out = CandidateAdditions()
    stray: list[str] = []
    stored = _stored_rows(ws)
    ours = _holds_reasons(ws)  # (the export's: not read)
    for r, row in stored:
        key: Key | None = None
        first, second = row.get(1), row.get(2)
        if r > 0 and first is not None and first.value is not None and second is not None \
                and second.value is not None:
            key = (key_text(first.value), key_text(second.value))
        for c in row.values():
            col = c.column - 1
            if ours and col >= REASON_COLUMN:  # read as though the reason column were not there
                if col == REASON_COLUMN:
                    if _reason_comment(out, c, r, key):
                        stray.append(c.coordinate)
                    continue
                c = _Moved(c, col - 1)
                col -= 1
            got = _cell(c, cached.get((c.row - 1, col + ours)), 0, ours) \
                if col >= FIRST_ADDED_COLUMN else None
            if got is not None and got.kind == "f" and r > 0:
                got = replace(got, origin_row=r)  # (written at its candidate's row)
            if key is not None and col < FIRST_ADDED_COLUMN:
                _take_fill(out, key, col, _colour(c.fill))
            note = _comment(c, 0)
            if note is not None and col == _GRADE:
                note = _theirs_on_grade(note)
            if got is None and note is None:
                continue
            if r == 0:
                if got is not None:
                    out.header.append(got)
                if note is not None:
                    out.header_comments.append(note)
            elif key is None:
                stray.append(c.coordinate)
            else:
                if got is not None:
                    out.cells.setdefault(key, []).append(got)
                if note is not None:
                    out.comments.setdefault(key, []).append(note)
    out.widths = _widths(ws, FIRST_ADDED_COLUMN + ours)
    if ours:
        out.widths = {c - 1: w for c, w in out.widths.items()}
    lost = []
    if stray:
        more = f" and {len(stray) - 3} more" if len(stray) > 3 else ""
        lost.append(f"Candidates cells on rows of no candidate: {', '.join(stray[:3])}{more}")
    return out, lost


def _theirs_on_grade(note: Comment) -> Comment | None:
    """A grade cell's comment less the export's own note on it (why an
    unknown grade is unknown, written again from the document at each save:
    :func:`~core.io.workbook.grade_comments.their_part`); None where it is
    the export's alone."""
    theirs = their_part(note.text)
    if not theirs.strip():
        return None
    return note if theirs == note.text else replace(note, text=theirs)


def _reason_comment(out: CandidateAdditions, c: Any, r: int, key: Key | None) -> bool:
    """Keep a person's comment on the export's reason column (its cell is
    the export's, written again), apart from their own columns' comments
    (:attr:`CandidateAdditions.reason_comments`); True where it is on a
    row of no candidate (not kept: said with the other such cells)."""
    note = _comment(c, 0)
    if note is None:
        return False
    if r == 0:
        out.reason_header_comments.append(note)
    elif key is not None:
        out.reason_comments.setdefault(key, []).append(note)
    return r > 0 and key is None


def _holds_reasons(ws: Any) -> bool:
    """Whether the Candidates sheet ``ws`` holds the export's reason column
    (its header at AB: :func:`reasons_written`)."""
    head = ws._cells.get((1, REASON_COLUMN + 1))  # (openpyxl's store: no cell made)
    return reasons_written(None if head is None else head.value)


class _Moved:
    """An openpyxl cell read as though it stood at column ``col`` (0-based):
    a person's cell right of the export's reason column."""

    def __init__(self, cell: Any, col: int) -> None:
        self._cell = cell
        self.column = col + 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cell, name)


def _stored_rows(ws: Any) -> list[tuple[int, dict[int, Any]]]:
    """The sheet's cells as stored, by row (0-based) and column (1-based),
    in order. ``iter_rows`` would make every missing cell of the used area
    (27 of ours a row, most of them dropped by
    :func:`~core.io.workbook.additions_copy.reduced_copy`); a cell never
    stored holds nothing a person added."""
    rows: dict[int, dict[int, Any]] = {}
    for (r, c), cell in sorted(ws._cells.items()):  # openpyxl's store of the cells read
        rows.setdefault(r - 1, {})[c] = cell
    return sorted(rows.items())


def _take_fill(out: CandidateAdditions, key: Key, col: int, colour: str) -> None:
    """Keep a person's fill of our cell (not the one the export gives it; a
    theme colour cannot be written again: :func:`cannot_carry` names it)."""
    ours = EDIT_FILL if col in EDITABLE_COLUMNS else ""
    if colour and colour not in (ours, THEME):
        out.fills.setdefault(key, []).append((col, colour))


def _needs_reading(path: Path, check: WorkbookCheck, ours: frozenset[str]) -> bool:
    """Whether the workbook may hold additions (foreign sheets, Candidates
    cells right of ours, comments, colours of a person's): an export as
    written, or re-saved without such edits, has none and is not parsed
    again (parsing a large sheet takes openpyxl a while)."""
    if any(s not in ours for s in check.sheets):
        return True
    sheet = SHEETS["candidates"]
    if sheet not in check.parts:
        return False
    used = check.used.get(sheet, (0, 0))[1]
    if used > FIRST_ADDED_COLUMN + 1:
        return True
    if used == FIRST_ADDED_COLUMN + 1:  # a person's column, or the export's reasons
        header = read_header(path, check, sheet, str(path))
        if header is None:  # (Gnumeric's XML, indented: calamine's values)
            header = list(file_headers(str(path))(sheet))
        if len(header) <= REASON_COLUMN or not reasons_written(header[REASON_COLUMN]):
            return True
    with zipfile.ZipFile(path) as z:
        part = check.parts[sheet]
        if "comments" in _rels_of(z, part) and not _only_reason_notes(z, part, str(path)):
            return True
        return _other_fills(z)


_NOTE = re.compile(r'<comment\b[^>]*?\bref="([A-Z]+)[0-9]+"[^>]*>(.*?)</comment>', re.S)
_RUN_TEXT = re.compile(r"<t(?:\s[^>]*)?>([^<]*)</t>")


def _only_reason_notes(z: zipfile.ZipFile, part: str, name: str) -> bool:
    """Whether the sheet's every comment is one an export wrote on a grade
    cell (why an unknown grade is unknown: :func:`is_unknown_note`), which
    no save needs to read back: a workbook of many declined items is saved
    again without parsing (100,000 candidates, 200 such comments: reading
    what people added 6.4 s, 1.1 s without comments). False where in doubt
    (:func:`~core.io.workbook.additions_copy.comments_parts`)."""
    from html import unescape

    parts = comments_parts(z, part, name)
    if parts is None:
        return False
    for data in parts:
        text = data.decode("utf-8", "replace")
        notes = _NOTE.findall(text)
        if len(notes) != text.count("<comment ") or any(
                col != GRADE_COLUMN or not is_unknown_note(unescape(
                    "".join(_RUN_TEXT.findall(body)))) for col, body in notes):
            return False
    return True


def _fills_xml(z: zipfile.ZipFile) -> bytes:
    """The styles' cell fills (``<fills>``; conditional formats' are apart)."""
    styles = next((n for n in z.namelist() if n.lower().endswith("styles.xml")), None)
    if styles is None:
        return b""
    data = z.read(styles)
    start, end = data.find(b"<fills"), data.find(b"</fills>")
    if start < 0:
        start = data.find(b":fills")
        end = data.find(b"fills>", start + 6)
    return data[start:end] if start >= 0 else b""


def _theme_fills(z: zipfile.ZipFile) -> bool:
    return _FG_THEME.search(_fills_xml(z)) is not None


def _shown(fills: bytes) -> bytes:
    """The fills' XML less the background colours of solid fills, which show
    their foreground alone: LibreOffice writes one there, the Annotators
    record's disagreement colour (a conditional format's) among them."""
    return b"".join(_BG_COLOR.sub(b"", f) if _SOLID.search(f) else f
                    for f in _FILL.findall(fills))


def _other_fills(z: zipfile.ZipFile) -> bool:
    """Whether the styles' cell fills show a colour the export does not write
    (conditional formats' colours are apart, in ``dxfs``)."""
    fills = _shown(_fills_xml(z))
    colours = {m.decode()[-6:].upper() for m in _FILL_RGB.findall(fills)}
    return bool(colours - OUR_FILLS) or _FG_PALETTE.search(fills) is not None


def read_additions(path: str | Path) -> Additions:
    """What a person added to the workbook at ``path`` (see the module's
    docstring); an empty :class:`Additions` for a file that is not there.

    Raises
    ------
    InputError
        If the file is unsafe or cannot be read.
    """
    path = Path(path)
    name = str(path)
    if not path.is_file():
        return Additions(name)
    if is_ods(path):
        return read_ods_additions(path)
    check = check_xlsx(path)
    ours, out_name = our_sheets(check.sheets, defined_names(path, name), file_headers(name), name)
    out = Additions(name, not_carried=cannot_carry(path, check), annotators_name=out_name)
    out.annotator_columns = _record_columns(path, check, out_name)
    if not _needs_reading(path, check, ours):
        return out
    with tempfile.TemporaryDirectory(prefix="ndcg-additions-") as folder:
        copy = Path(folder) / "book.xlsx"  # without the cells additions never read
        _read_into(out, copy if reduced_copy(path, check, copy) else path, name, ours)
    return out


def _record_columns(path: Path, check: WorkbookCheck, renamed: str) -> RecordColumns | None:
    """The Annotators record's columns of ``path`` (calamine: values only;
    :func:`~core.io.workbook.record_columns.header_columns`): told by its
    header row, read from the sheet's XML, when that names each column of
    the sheet, else from every cell."""
    sheet = renamed or SHEETS["annotators"]
    if sheet not in check.sheets:
        return None
    name = str(path)
    try:
        book = calamine_book(name)
    except Exception as exc:  # calamine's errors vary by version
        raise InputError(f"the workbook cannot be read: {type(exc).__name__}: {exc}",
                         file=name, sheet=sheet,
                         hint="open it in Excel or LibreOffice and save it again") from exc
    width = check.used.get(sheet, (0, 0))[1]  # (its cells', from the safety check)
    return header_columns(read_header(path, check, sheet, name), width,
                          record_rows(book, sheet, name), metadata_annotators(book, name))


def _read_into(out: Additions, path: Path, name: str, ours: frozenset[str]) -> None:
    """Parse the sheets of a person's and the Candidates sheet into ``out``."""
    import warnings

    import openpyxl

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "unknown extension" and the like
            book = openpyxl.load_workbook(path, rich_text=False, keep_links=False)
        reasons = SHEETS["candidates"] in book.sheetnames and _holds_reasons(
            book[SHEETS["candidates"]])
        with calamine_book(path) as values:
            for ws in book.worksheets:
                check_stopped()  # a write stopped from another thread ends here (core.io.stop)
                if ws.title == SHEETS["candidates"]:
                    out.candidates, lost = _candidate_additions(
                        ws, _cached_values(values, ws.title, FIRST_ADDED_COLUMN))
                    out.not_carried.extend(lost)
                elif ws.title not in ours:
                    out.sheets.append(_foreign_sheet(ws, _cached_values(values, ws.title),
                                                     ws.sheet_state != "visible", reasons))
    except (InputError, Stopped):
        raise
    except Exception as exc:  # openpyxl's and calamine's errors vary
        raise InputError(f"the workbook cannot be read: {type(exc).__name__}: {exc}",
                         file=name, hint="open it in Excel or LibreOffice and save it again",
                         ) from exc


def merge_additions(found: list[Additions]) -> Additions:
    """Several workbooks' additions as one (a merge of reviewers' workbooks):
    sheets of the same name get a number; a candidate's cells and comments
    from each, the first workbook's cell winning where two fill the same."""
    out = Additions(", ".join(a.source for a in found if a))
    out.annotators_name = next((a.annotators_name for a in found if a.annotators_name), "")
    out.annotator_columns = next((a.annotator_columns for a in found if a.annotator_columns),
                                 None)
    names: set[str] = set(OUR_SHEETS) | {out.annotators_name}
    c = out.candidates
    for add in found:
        for sheet in add.sheets:
            name, n = sheet.name, 2
            while name in names:
                name, n = f"{sheet.name[:27]} ({n})", n + 1
            names.add(name)
            out.sheets.append(CarriedSheet(name, sheet.cells, sheet.widths, sheet.merged,
                                           sheet.comments, sheet.hidden))
        taken = {cell.col for cell in c.header}
        c.header.extend(cell for cell in add.candidates.header if cell.col not in taken)
        c.header_comments.extend(add.candidates.header_comments)
        for col, width in add.candidates.widths.items():
            c.widths.setdefault(col, width)
        for key, cells in add.candidates.cells.items():
            have = c.cells.setdefault(key, [])
            cols = {cell.col for cell in have}
            have.extend(cell for cell in cells if cell.col not in cols)
        for key, notes in add.candidates.comments.items():
            c.comments.setdefault(key, []).extend(notes)
        c.reason_header_comments.extend(add.candidates.reason_header_comments)
        for key, notes in add.candidates.reason_comments.items():
            c.reason_comments.setdefault(key, []).extend(notes)
        out.not_carried.extend(f"{add.source}: {what}" for what in add.not_carried)
    return out


def _own_workbook(path: str | Path | None) -> Path | None:
    """``path`` when it is a workbook of ours that is there, else None (a
    file that is no workbook, or a damaged one, holds nothing to keep)."""
    from core.io.workbook.reader import is_own_workbook

    if path is None:
        return None
    path = Path(path)
    if path.suffix.lower() not in (".xlsx", ".xlsm", ".ods") or not path.is_file():
        return None
    try:
        return path if is_own_workbook(path) else None  # an .ods as an .xlsx
    except InputError:
        return None


def additions_to_keep(target: str | Path, *sources: str | Path | None) -> Additions | None:
    """What a save to ``target`` must keep: the additions of ``target`` when it
    is a workbook of ours (it is being replaced), else those of the first of
    ``sources`` that is one (the workbook the document was read from). None
    when none is."""
    for candidate in (target, *sources):
        found = _own_workbook(candidate)
        if found is not None:
            return read_additions(found)
    return None


def lost_by_replacing(target: str | Path) -> list[str]:
    """What replacing the workbook of ours at ``target`` would lose
    (:func:`cannot_carry`; for an ``.ods``, what its additions keep only as
    values); [] when it is not one of ours or not there."""
    found = _own_workbook(target)
    if found is None:
        return []
    return read_ods_additions(found).not_carried if is_ods(found) else cannot_carry(found)


def additions_of_all(paths: list[str | Path | None]) -> Additions:
    """What people added to each workbook of ours among ``paths`` (a base and
    the reviewers' returned workbooks of a merge), as one
    (:func:`merge_additions`)."""
    found = [additions_to_keep(p) for p in paths if p is not None]
    return merge_additions([a for a in found if a is not None])
