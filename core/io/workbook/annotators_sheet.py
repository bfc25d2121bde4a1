"""The Annotators sheet: each annotator's grade of each candidate, as the
annotators' sheet was imported (``Document.annotators`` and
``Document.ratings``), beside the grade the consensus rule gave and how far
apart the annotators were; written only for a document that keeps them.

The sheet is the record of the import, not an input: reopening compares it
with what the export wrote and says where it was edited
(:mod:`core.io.workbook.annotators_check`; the grade to change is the
Candidates sheet's current grade). A defined name
(:data:`RECORD_NAME`) marks it, so that a sheet the reviewer renamed is
still known as the record.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from core.io.safety import column_letters
from core.io.workbook.candidates import text_columns
from core.io.workbook.layout import (
    ANNOTATOR_LEAD,
    ANNOTATOR_TAIL,
    RECORD_NAME,
    SHEETS,
    STATE_COLOURS,
    Formats,
    number_form,
    sheet_ref,
)
from core.io.workbook.ods_writer import text_paragraphs
from core.io.workbook.page import (
    colour_words,
    header_row,
    header_widths,
    print_setup,
    set_widths,
    text_width,
)
from core.model.document import Document, GradeState

__all__ = ["SHEET", "sheet_rows", "write_annotators"]

SHEET = SHEETS["annotators"]
#: Rows rendered at a time.
_ROWS_PER_PIECE = 10_000
#: A cell of the sheet: a number, a text, or "" (empty).
Value = float | str


def sheet_rows(doc: Document, perm: np.ndarray) -> list[list[Value]]:
    """The sheet's rows, the header first, the candidates in the Candidates
    sheet's order (``perm``): query, source id, each annotator's grade (""
    where they gave none, the word unrateable where they marked it so),
    the original grade (a number, or the grade state's word as the
    Candidates sheet writes it) and the spread of the grades given
    (highest - lowest; "" where fewer than two annotators graded). [] when
    ``doc`` keeps no annotator's grades."""
    if doc.ratings is None:
        return []
    ratings = np.asarray(doc.ratings, dtype=np.float64)[perm]
    given = ~np.isnan(ratings)
    spread = (np.where(given, ratings, -np.inf).max(axis=1, initial=-np.inf)
              - np.where(given, ratings, np.inf).min(axis=1, initial=np.inf))
    spread_cells: list[Value] = np.where(given.sum(axis=1) >= 2, spread, np.nan).tolist()
    words = {int(s): GradeState(int(s)).label for s in GradeState}
    original = [g if s == GradeState.NUMBER else words[s] for g, s in zip(
        doc.original_grade[perm].tolist(), doc.original_state[perm].tolist(), strict=True)]
    grades: list[list[Value]] = ratings.tolist()
    if doc.unrateable_ratings is not None:
        word = GradeState.UNRATEABLE.label
        for i, a in np.argwhere(doc.unrateable_ratings[perm]).tolist():
            grades[i][a] = word
    rows: list[list[Value]] = [[*ANNOTATOR_LEAD, *doc.annotators, *ANNOTATOR_TAIL]]
    for i, (q, src) in enumerate(zip(doc.query[perm].tolist(), doc.source_id[perm].tolist(),
                                     strict=True)):
        rows.append([doc.query_ids[q], str(src), *grades[i], original[i], spread_cells[i]])
    return [[_blank_nan(v) for v in row] for row in rows]


def _blank_nan(v: Value) -> Value:
    return "" if isinstance(v, float) and v != v else v


def write_annotators(wb: Any, fmt: Formats, doc: Document, perm: np.ndarray,
                     name: str = SHEET) -> None:
    """The Annotators sheet of ``doc`` (rows as :func:`sheet_rows`), called
    ``name`` (the name a reviewer gave it, kept), with :data:`RECORD_NAME`;
    nothing when ``doc`` keeps no annotator's grades."""
    rows = sheet_rows(doc, perm)
    if not rows:
        return
    ws = wb.add_worksheet(name)
    wb.define_name(RECORD_NAME, f"={sheet_ref(name)}!$A$1")
    header = [str(h) for h in rows[0]]
    m = len(doc.annotators)
    widths = header_widths(header, [
        text_width(doc.query_ids, 8, 40), text_width(doc.source_id.tolist(), 9, 40),
        *[8.0] * m, 16.0, 12.0])
    # (the grade columns' default format: an .ods export's cells take it)
    set_widths(ws, widths, formats=dict.fromkeys(range(2, len(header)), fmt.grade))
    header_row(ws, fmt, 0, header, widths)
    ws.freeze_panes(1, 2)
    last = len(header) - 1  # the spread's column
    if len(rows) > 1:
        marks = (_marks(fmt) if wb.rendered_rows is not None else None)  # (an .ods export)
        ws.put_rows(len(rows) - 1, last, _rendered(rows, fmt),
                    as_odf=lambda: _rendered(rows, fmt, odf=True, marks=marks))
        spread = column_letters(last + 1)
        ws.conditional_format(1, 0, len(rows) - 1, last, {
            "type": "formula", "criteria": f"=AND(ISNUMBER(${spread}2),${spread}2>0)",
            "format": fmt.disagree})
    for c in range(2, 3 + m):  # (an annotator's unrateable mark too)
        colour_words(ws, fmt, 1, len(rows) - 1, c, tuple(STATE_COLOURS))
    print_setup(ws, doc.judgment_version, header_rows=(0, 0), query_column=True)


def _marks(fmt: Formats) -> dict[int, int]:
    """The style index of a cell of a row whose annotators disagree, by the
    style it has in other rows (text, quote-prefixed text, grade)."""
    plain = (fmt.text, fmt.text_q, fmt.grade)
    return {a._get_xf_index(): b._get_xf_index()
            for a, b in zip(plain, fmt.disagree_cells, strict=True)}


def _rendered(rows: list[list[Value]], fmt: Formats, *, odf: bool = False,
              marks: dict[int, int] | None = None) -> Iterator[str]:
    """The data rows (``rows`` after the header) as xlsx XML, or as ODF
    (``odf``: for an ``.ods`` export, which would otherwise convert them
    cell by cell), in batches: the ids as text (quote-prefixed when a
    spreadsheet would read them as a formula), the grades and the spread
    with every digit, a grade state's word as text; the grade cells
    right-aligned (in ODF by their column's default, which also gives the
    states their colours). In ODF, a row whose annotators disagree (its
    spread above 0) takes the styles ``marks`` maps its cells' to (the
    .xlsx's conditional format; a word keeps its column's, and its colour).
    xlsxwriter's cell by cell took 10 s for 100,000 candidates x 3
    annotators."""
    grade = fmt.grade._get_xf_index()
    texts = [text_columns([str(row[c]) for row in rows[1:]], fmt.text._get_xf_index(),
                          fmt.text_q._get_xf_index()) for c in (0, 1)]
    letters = [column_letters(c + 1) for c in range(len(rows[0]))]
    marks = marks or {}
    piece: list[str] = []
    for i, row in enumerate(rows[1:]):
        r = i + 2
        if odf:
            spread = row[-1]
            marked = isinstance(spread, float) and spread > 0 and bool(marks)
            cells = ["<table:table-row>", *[_odf_text(
                marks[styles[i]] if marked else styles[i], words[i]) for styles, _, words in texts]]
            style = f' table:style-name="ce{marks[grade]}"' if marked else ""
            cells += [_odf_grade(v, style) for v in row[2:]]
            cells.append("</table:table-row>")
        else:
            cells = [f'<row r="{r}">', *[
                f'<c r="{letters[c]}{r}" s="{styles[i]}" t="inlineStr">'
                f"<is><t{attrs[i]}>{words[i]}</t></is></c>"
                for c, (styles, attrs, words) in enumerate(texts)]]
            cells += [_xlsx_grade(v, f"{letters[c]}{r}", grade)
                      for c, v in enumerate(row[2:], start=2)]
            cells.append("</row>")
        piece.append("".join(cells))
        if len(piece) == _ROWS_PER_PIECE:
            yield "".join(piece)
            piece = []
    yield "".join(piece)


def _odf_text(style: int, text: str) -> str:
    if not text:
        return f'<table:table-cell table:style-name="ce{style}"/>'
    return (f'<table:table-cell table:style-name="ce{style}" office:value-type="string">'
            f"<text:p>{text_paragraphs(text)}</text:p></table:table-cell>")


def _odf_grade(v: Value, style: str) -> str:
    """A grade or spread cell (``style``: its attribute, "" for its column's)."""
    if isinstance(v, float):
        return (f'<table:table-cell{style} office:value-type="float" '
                f'office:value="{number_form(v)}"/>')
    if v:  # a word: its column's style (its colour)
        return (f'<table:table-cell office:value-type="string"><text:p>{v}</text:p>'
                "</table:table-cell>")
    return f"<table:table-cell{style}/>"


def _xlsx_grade(v: Value, ref: str, style: int) -> str:
    if isinstance(v, float):
        return f'<c r="{ref}" s="{style}"><v>{number_form(v)}</v></c>'
    if v:
        return f'<c r="{ref}" s="{style}" t="inlineStr"><is><t>{v}</t></is></c>'
    return ""
