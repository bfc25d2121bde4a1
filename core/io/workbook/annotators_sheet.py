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

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from core.io.safety import column_letters
from core.io.workbook.layout import (
    ANNOTATOR_LEAD,
    ANNOTATOR_TAIL,
    RECORD_NAME,
    SHEETS,
    STATE_COLOURS,
    Formats,
    sheet_ref,
)
from core.io.workbook.page import (
    colour_words,
    header_row,
    header_widths,
    print_setup,
    set_widths,
    text_width,
)
from core.io.workbook.typed_cells import (
    LABELS,
    escape_xml,
    odf_grades,
    odf_numbers,
    odf_texts,
    short_grades,
    xlsx_grades,
    xlsx_numbers,
    xlsx_texts,
)
from core.model.document import Document, GradeState
from core.model.grades import mark_text

__all__ = ["SHEET", "sheet_rows", "write_annotators"]

SHEET = SHEETS["annotators"]
#: Rows rendered at a time.
_ROWS_PER_PIECE = 10_000
#: A cell of the sheet: a number, a text, or "" (empty).
Value = float | str
#: What an annotator's grade cell says besides a number: nothing where they
#: gave none (never 0, never "unknown": the candidate may be graded by
#: others), the word where they marked it unrateable (with their mark as
#: they wrote it, when kept: a code of its own, :func:`_marked`).
_ANNOTATOR_WORDS = {**dict.fromkeys(LABELS, ""), int(GradeState.UNRATEABLE):
                    LABELS[int(GradeState.UNRATEABLE)]}
#: The most marks of an annotator's column told apart (each a code of the
#: state array, after the states'); more read ``unrateable`` alone.
_MOST_MARKS = 100


class _Columns(NamedTuple):
    """The sheet's data, column by column, in the Candidates sheet's order:
    the ids, each annotator's grade and its state (a number, unknown: none
    given, or unrateable: marked so; a mark kept as written has a code of
    its own, and ``words`` gives each annotator's codes their text), the
    original grade and its state, and the spread (NaN where fewer than two
    annotators graded)."""

    query: list[str]
    source: list[str]
    grades: npt.NDArray[np.float64]
    states: npt.NDArray[np.int8]
    original: npt.NDArray[np.float64]
    original_state: npt.NDArray[np.int8]
    spread: npt.NDArray[np.float64]
    words: list[dict[int, str]]

    def rows(self, lo: int, hi: int) -> _Columns:
        return _Columns(self.query[lo:hi], self.source[lo:hi], self.grades[lo:hi],
                        self.states[lo:hi], self.original[lo:hi], self.original_state[lo:hi],
                        self.spread[lo:hi], self.words)


def _columns(doc: Document, perm: np.ndarray) -> _Columns | None:
    """The sheet's columns of ``doc`` (None when it keeps no annotator's grades)."""
    if doc.ratings is None:
        return None
    ratings = np.asarray(doc.ratings, dtype=np.float64)[perm]
    given = ~np.isnan(ratings)
    spread = (np.where(given, ratings, -np.inf).max(axis=1, initial=-np.inf)
              - np.where(given, ratings, np.inf).min(axis=1, initial=np.inf))
    states = np.where(given, GradeState.NUMBER, GradeState.UNKNOWN).astype(np.int8)
    if doc.unrateable_ratings is not None:
        states[doc.unrateable_ratings[perm]] = GradeState.UNRATEABLE
    words = [dict(_ANNOTATOR_WORDS) for _ in doc.annotators]
    if doc.unrateable_words is not None:
        _marked(states, doc.unrateable_words[perm], words)
    return _Columns([doc.query_ids[q] for q in doc.query[perm].tolist()],
                    [str(s) for s in doc.source_id[perm].tolist()], ratings, states,
                    doc.original_grade[perm], doc.original_state[perm],
                    np.where(given.sum(axis=1) >= 2, spread, np.nan), words)


def _marked(states: npt.NDArray[np.int8], marks: npt.NDArray[np.object_],
            words: list[dict[int, str]]) -> None:
    """Each annotator's unrateable marks kept as written, a code each in
    ``states`` (after the states'), its text (:func:`mark_text`) in their
    ``words`` (the marks are few: looked at one by one)."""
    plain = _ANNOTATOR_WORDS[int(GradeState.UNRATEABLE)]
    for a, said in enumerate(words):
        at = np.flatnonzero(states[:, a] == GradeState.UNRATEABLE)
        texts = [mark_text(str(w)) for w in marks[at, a].tolist()]
        codes = {t: code for code, t in enumerate(sorted(set(texts) - {plain})[:_MOST_MARKS],
                                                  start=len(GradeState))}
        for i, text in zip(at.tolist(), texts, strict=True):
            if text in codes:
                states[i, a] = codes[text]
        said.update({code: t for t, code in codes.items()})


def sheet_rows(doc: Document, perm: np.ndarray) -> list[list[Value]]:
    """The sheet's rows, the header first, the candidates in the Candidates
    sheet's order (``perm``): query, source id, each annotator's grade (""
    where they gave none, the word unrateable where they marked it so),
    the original grade (a number, or the grade state's word as the
    Candidates sheet writes it) and the spread of the grades given
    (highest - lowest; "" where fewer than two annotators graded). [] when
    ``doc`` keeps no annotator's grades."""
    cols = _columns(doc, perm)
    if cols is None:
        return []

    def shown(grades: np.ndarray, states: np.ndarray, words: dict[int, str]) -> list[Value]:
        return [g if s == GradeState.NUMBER else words[s]
                for g, s in zip(grades.tolist(), states.tolist(), strict=True)]

    m = cols.grades.shape[1]
    each = [shown(cols.grades[:, a], cols.states[:, a], cols.words[a]) for a in range(m)]
    original = shown(cols.original, cols.original_state, dict(LABELS))
    spread = ["" if v != v else v for v in cols.spread.tolist()]
    rows: list[list[Value]] = [[*ANNOTATOR_LEAD, *doc.annotators, *ANNOTATOR_TAIL]]
    rows += [list(row) for row in zip(cols.query, cols.source, *each, original, spread,
                                      strict=True)]
    return rows


def write_annotators(wb: Any, fmt: Formats, doc: Document, perm: np.ndarray,
                     name: str = SHEET) -> None:
    """The Annotators sheet of ``doc`` (rows as :func:`sheet_rows`), called
    ``name`` (the name a reviewer gave it, kept), with :data:`RECORD_NAME`;
    nothing when ``doc`` keeps no annotator's grades."""
    cols = _columns(doc, perm)
    if cols is None:
        return
    ws = wb.add_worksheet(name)
    wb.define_name(RECORD_NAME, f"={sheet_ref(name)}!$A$1")
    header = [*ANNOTATOR_LEAD, *doc.annotators, *ANNOTATOR_TAIL]
    m, n = len(doc.annotators), len(cols.query)
    widths = header_widths(header, [
        text_width(doc.query_ids, 8, 40), text_width(doc.source_id.tolist(), 9, 40),
        *[min(max(8.0, *(len(said[s]) + 1.0 for s in np.unique(cols.states[:, a]).tolist())),
              30.0) for a, said in enumerate(cols.words)], 16.0, 12.0])
    # (the grade columns' default format: an .ods export's cells take it)
    set_widths(ws, widths, formats=dict.fromkeys(range(2, len(header)), fmt.grade))
    header_row(ws, fmt, 0, header, widths)
    ws.freeze_panes(1, 2)
    last = len(header) - 1  # the spread's column
    if n:
        marks = (_marks(fmt) if wb.rendered_rows is not None else None)  # (an .ods export)
        ws.put_rows(n, last, _rendered(cols, fmt),
                    as_odf=lambda: _rendered(cols, fmt, marks=marks or {}, odf=True))
        spread = column_letters(last + 1)
        ws.conditional_format(1, 0, n, last, {
            "type": "formula", "criteria": f"=AND(ISNUMBER(${spread}2),${spread}2>0)",
            "format": fmt.disagree})
    for c in range(2, 3 + m):  # (an annotator's unrateable mark too)
        colour_words(ws, fmt, 1, n, c, tuple(STATE_COLOURS))
    unrateable = GradeState.UNRATEABLE
    for a, said in enumerate(cols.words):  # (their marks as written: the same colour)
        for text in (w for code, w in said.items() if code > unrateable):
            ws.conditional_format(1, 2 + a, n, 2 + a, {
                "type": "cell", "criteria": "==", "value": '"{}"'.format(text.replace('"', '""')),
                "format": fmt.colour[unrateable.label]})
    print_setup(ws, doc.judgment_version, header_rows=(0, 0), query_column=True)


def _marks(fmt: Formats) -> dict[int, int]:
    """The style index of a cell of a row whose annotators disagree, by the
    style it has in other rows (text, quote-prefixed text, grade)."""
    plain = (fmt.text, fmt.text_q, fmt.grade, fmt.grade_short)
    return {a._get_xf_index(): b._get_xf_index()
            for a, b in zip(plain, fmt.disagree_cells, strict=True)}


def _rendered(cols: _Columns, fmt: Formats, *, odf: bool = False,
              marks: dict[int, int] | None = None) -> Iterator[str]:
    """The data rows as xlsx XML, or as ODF (``odf``: for an ``.ods``
    export, which would otherwise convert them cell by cell), in pieces,
    each column's cells from :mod:`core.io.workbook.typed_cells` (the
    Candidates rows' renderer): the ids as text (quote-prefixed when a
    spreadsheet would read them as a formula), the grades and the spread
    with every digit, a grade state's word as text; the grade cells
    right-aligned (in ODF by their column's default, which also gives the
    states their colours). In ODF, a row whose annotators disagree (its
    spread above 0) takes the styles ``marks`` maps its cells' to (the
    .xlsx's conditional format; a word keeps its column's, and its colour).
    xlsxwriter's cell by cell took 10 s for 100,000 candidates x 3
    annotators."""
    text, text_q, grade = (f._get_xf_index() for f in (fmt.text, fmt.text_q, fmt.grade))
    # the consensus (a mean: 1.3333333333333333) read short (typed_cells.short_grades)
    short = (fmt.grade_short._get_xf_index()
             if short_grades(cols.original, cols.original_state).any() else grade)
    letters = [column_letters(c + 1) for c in range(cols.grades.shape[1] + 4)]
    for lo in range(0, len(cols.query), _ROWS_PER_PIECE):
        part = cols.rows(lo, lo + _ROWS_PER_PIECE)
        if odf:
            columns = _odf_columns(part, text, text_q, (grade, short), marks or {})
            start, end = ["<table:table-row>"] * len(part.query), "</table:table-row>"
        else:
            rows = range(lo + 2, lo + 2 + len(part.query))
            columns = _xlsx_columns(part, text, text_q, (grade, short), letters, rows)
            start, end = [f'<row r="{r}">' for r in rows], "</row>"
        yield "".join(f"{s}{''.join(cells)}{end}"
                      for s, cells in zip(start, zip(*columns, strict=True), strict=True))


def _xlsx_columns(part: _Columns, text: int, text_q: int, grades: tuple[int, int],
                  letters: list[str], rows: Sequence[int]) -> list[list[str]]:
    """(``grades``: the style of a grade, and of one read short.)"""
    grade, short = grades
    style = f' s="{grade}"'
    m = part.grades.shape[1]
    return [xlsx_texts(part.query, text, text_q, letters[0], rows),
            xlsx_texts(part.source, text, text_q, letters[1], rows),
            *[xlsx_grades(part.grades[:, a], part.states[:, a], letters[2 + a], rows, style,
                          _escaped(part.words[a])) for a in range(m)],
            xlsx_grades(part.original, part.original_state, letters[2 + m], rows, style,
                        short=f' s="{short}"'),
            xlsx_numbers(part.spread, letters[3 + m], rows, style=style)]


def _odf_columns(part: _Columns, text: int, text_q: int, grades: tuple[int, int],
                 marks: dict[int, int]) -> list[list[str]]:
    """(``grades``: the style of a grade, and of one read short.)"""
    grade, short = grades
    with np.errstate(invalid="ignore"):
        marked = (part.spread > 0).tolist() if marks else [False] * len(part.query)
    marked_style = f' table:style-name="ce{marks.get(grade, grade)}"'
    style = [marked_style if x else "" for x in marked]
    is_short = short_grades(part.original, part.original_state).tolist()
    consensus = [f' table:style-name="ce{marks.get(short, short) if x else short}"' if s else st
                 for x, s, st in zip(marked, is_short, style, strict=True)]
    m = part.grades.shape[1]
    return [odf_texts(part.query, text, text_q, marks, marked),
            odf_texts(part.source, text, text_q, marks, marked),
            *[odf_grades(part.grades[:, a], part.states[:, a], style, _escaped(part.words[a]), "")
              for a in range(m)],
            odf_grades(part.original, part.original_state, consensus, word_style=""),
            odf_numbers(part.spread, None, style)]


def _escaped(words: dict[int, str]) -> dict[int, str]:
    """An annotator's cell texts as XML text (a mark as written may hold ``&`` or ``<``)."""
    return {code: escape_xml(w) for code, w in words.items()}
