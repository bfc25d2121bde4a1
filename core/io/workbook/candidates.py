"""The Candidates sheet: one row per candidate, grades and notes editable,
every derived column a live formula with the engine's result cached."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from xlsxwriter.utility import xl_col_to_name

from core.engine.evaluation import Evaluation
from core.engine.gains import lifted_queries
from core.errors import InputError
from core.io.stop import check as check_stopped
from core.io.workbook.formulas import (
    FIRST_SO_FAR,
    FORMULAS,
    LIFTED_COLUMNS,
    SO_FAR_COL,
    block_fields,
    formulas,
    lift_off,
)
from core.io.workbook.layout import (
    CANDIDATE_COLUMNS,
    COLUMN_INDEX,
    REASON_COLUMN,
    REASON_HEADER,
    SHEETS,
    FloatArray,
    Formats,
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
    escape_xml,
    number_text,
    short_grades,
    text_columns,
    xlsx_grades,
    xlsx_numbers,
    xlsx_texts,
)
from core.io.workbook.values import candidate_values
from core.model.document import Document, GradeState
from core.model.grades import unknown_note

#: The Conventions sheet's name for the rubric's grades, the current grade
#: cells' list of choices (an .ods names their validation after it:
#: :mod:`core.io.workbook.ods_candidates`).
GRADE_LIST = "grade_list"
#: The author of the comment an export puts on the current grade cell of a
#: candidate whose unknown grade has a reason (:func:`reason_notes`). Such a
#: comment on the grade column is the export's own, written again from the
#: document at each save, never read back as a person's
#: (:mod:`core.io.workbook.additions`): known by its text
#: (:func:`core.model.grades.is_unknown_note`), since LibreOffice saves an
#: .xlsx's comments without their author.
REASON_AUTHOR = "NDCG Worksheet"
#: The current grade's column (0-based), which carries those comments.
GRADE_COL = COLUMN_INDEX["current grade"]
#: The grade state's width, room for its longest word (unrateable).
STATE_WIDTH = 10.5
#: Columns shown with four decimals (full precision in the cell): gain,
#: discount, contribution, ideal gain and ideal contribution.
DECIMAL_COLUMNS = (9, 10, 11, 13, 14)
#: The ideal contribution's width in a workbook with a lifted query: room
#: for a number as :data:`~core.io.workbook.formulas.LIFTED_FORMAT` shows
#: it ("-8.8818E-16 x 2^-1023").
LIFTED_WIDTH = 22.0


def write_candidates(
    wb: Any, fmt: Formats, doc: Document, ev: Evaluation, perm: np.ndarray,
    blocks: list[tuple[int, int]], sheet: str = SHEETS["candidates"],
) -> None:
    """The Candidates sheet (or run B's, ``sheet``) of ``doc`` laid out as
    ``perm`` and ``blocks`` (:func:`core.io.workbook.values.row_layout`)."""
    ws = wb.add_worksheet(sheet)
    ws.freeze_panes(1, 2)
    headers = [h for _, h in CANDIDATE_COLUMNS]
    widths = _widths(doc)
    if lifted_queries(ev).any():  # a lifted ideal contribution reads with its factor
        widths[14] = LIFTED_WIDTH
    shown = header_widths(headers[:15], widths)
    set_widths(ws, shown, formats=dict.fromkeys(DECIMAL_COLUMNS, fmt.number))
    ws.set_column(15, len(CANDIDATE_COLUMNS) - 1, 12, None, {"level": 1, "hidden": True})
    header_row(ws, fmt, 0, headers[:15], shown)
    for c in range(15, len(headers)):  # the helper columns' headers, hidden
        ws.write_string(0, c, headers[c], fmt.header)
    n = perm.size
    if np.isinf(doc.score).any():
        raise InputError("a predicted score is infinite, which a workbook cannot hold",
                         hint="give the candidate a finite score or none")
    why = reason_column(doc, perm)
    if why is not None:  # the reasons printed after the readable columns
        ws.set_column(REASON_COLUMN, REASON_COLUMN, text_width([*why, REASON_HEADER], 12, 60))
        ws.write_string(0, REASON_COLUMN, REASON_HEADER, fmt.header)
    if n:
        for at, text in reason_notes(doc, perm):  # (before the rows: constant memory)
            ws.write_comment(at + 1, GRADE_COL, text, {"author": REASON_AUTHOR})
        _put_candidate_rows(ws, fmt, doc, ev, perm, blocks)
        ws.data_validation(1, 5, n, 5, {
            "validate": "list", "source": f"={GRADE_LIST}", "error_type": "warning",
            "error_title": "Not a rubric grade",
            "error_message": "Enter a rubric grade, unknown or unrateable.",
        })
    colour_words(ws, fmt, 1, n, 6, ("unknown", "unrateable"))
    _unlift_labels(ws, fmt, doc, ev, perm, blocks)
    print_setup(ws, doc.judgment_version, header_rows=(0, 0), query_column=True)
    # the columns people read, not the helpers (hidden: LibreOffice gives them no room)
    ws.print_area(0, 0, max(n, 1), 14 if why is None else REASON_COLUMN)
    ws.protect("", {"autofilter": True, "format_columns": True})


def reason_notes(doc: Document, perm: np.ndarray) -> list[tuple[int, str]]:
    """Why each unknown grade is unknown, where it has a reason (an item
    the annotators declined): the candidate's place in ``perm`` (its sheet
    row less one) and the text (:func:`core.model.grades.unknown_note`:
    ``unknown: declined by 2 annotators, no judgment (not 0)``), in the
    sheet's order. The grade cell keeps its word, which the formulas read;
    the reason is its comment."""
    rows = doc.reasoned_rows()
    rows = rows[doc.state[rows] == GradeState.UNKNOWN]
    if not rows.size:
        return []
    at = np.flatnonzero(np.isin(perm, rows))  # (``perm`` may be a batch's part)
    reason = doc.reason
    return [(int(k), unknown_note(str(reason[i])))
            for k, i in zip(at.tolist(), perm[at].tolist(), strict=True)]


def holds_reasons(doc: Document) -> bool:
    """Whether the Candidates sheet of ``doc`` holds the
    :data:`~core.io.workbook.layout.REASON_COLUMN`: some grade of it is no
    number and has a reason (:func:`reason_column`)."""
    return bool(doc.reasoned_rows().size)


def reason_column(doc: Document, perm: np.ndarray) -> list[str] | None:
    """The Candidates sheet's :data:`~core.io.workbook.layout.REASON_COLUMN`
    in the sheet's order (``perm``): each grade's reason where it is no
    number and has one (why an unknown grade is unknown: "declined by 2
    annotators"; an unrateable one's: "paywall"), else ""; None where no
    candidate of the document has one (the column is not written:
    :func:`holds_reasons`)."""
    if not holds_reasons(doc):
        return None
    rows = doc.reasoned_rows()
    out = np.full(len(doc), "", dtype=object)
    out[rows] = doc.reason[rows]
    return [str(t) for t in out[perm].tolist()]


def _unlift_labels(ws: Any, fmt: Formats, doc: Document, ev: Evaluation, perm: np.ndarray,
                   blocks: list[tuple[int, int]]) -> None:
    """A lifted query's lifted cells read with the factor that brings them
    back (" x 2^-1023", their number format) while the block is lifted: a
    grade of the normal range typed into it lifts it no more (its factor 1,
    :func:`~core.io.workbook.formulas.lift_factor`), and a conditional
    format (:func:`~core.io.workbook.formulas.lift_off`) then gives them the
    four decimals of any block's, so that the label follows the grades."""
    lifted = lifted_queries(ev)
    if not lifted.any():
        return
    query = doc.query[perm]
    for lo, hi in blocks:
        if hi > lo and lifted[query[lo]]:
            rule = {"type": "formula", "criteria": "=" + lift_off(lo + 2, hi + 1),
                    "format": fmt.number}
            for first, last in ((LIFTED_COLUMNS[0], LIFTED_COLUMNS[0]),
                                (LIFTED_COLUMNS[1], LIFTED_COLUMNS[-1])):
                ws.conditional_format(lo + 1, first, hi, last, dict(rule))


def _widths(doc: Document) -> list[float]:
    """Widths of the columns people read (A-O), from their contents."""
    def longest(values: Any, low: float, high: float) -> float:
        return text_width(values, low, high) if len(values) else low

    # a grade column holding the word unrateable as wide as the grade state's
    # (it printed cut, or over the original grade beside it, from an .ods)
    unrateable = GradeState.UNRATEABLE
    grade = STATE_WIDTH if (doc.state == unrateable).any() or (
        doc.original_state == unrateable).any() else 8.0
    return [longest(doc.query_ids, 8, 40), longest(doc.source_id.tolist(), 7, 40),
            longest(doc.version.tolist(), 7, 20), 9.0, grade, grade, STATE_WIDTH,
            longest(doc.note.tolist(), 12, 50), 5.0, 9.0, 9.0, 9.0, 5.0, 9.0, 9.0]


def _put_candidate_rows(ws: Any, fmt: Formats, doc: Document, ev: Evaluation,
                        perm: np.ndarray, blocks: list[tuple[int, int]]) -> None:
    """The Candidates sheet's data rows, below its header row (and what
    renders them as ODF, which an ``.ods`` export takes instead:
    :func:`core.io.workbook.ods_candidates.ods_candidate_rows`'s arguments)."""
    ws.put_rows(perm.size, len(CANDIDATE_COLUMNS) - 1,
                _candidate_rows(doc, ev, perm, blocks, fmt),
                (doc, ev, perm, blocks, _styles(fmt, doc), _looks(fmt, ev), ws.name))


def _looks(fmt: Formats, ev: Evaluation) -> tuple[int, int]:
    """The style indices of the four-decimal columns and of a lifted query's
    lifted cells (:data:`~core.io.workbook.formulas.LIFTED_COLUMNS`); the
    latter is the former when no query is lifted, so that no workbook
    without one holds its format."""
    decimal = fmt.number._get_xf_index()
    return decimal, fmt.lifted._get_xf_index() if lifted_queries(ev).any() else decimal


#: The cell formats of the rows' text and grades (:func:`_styles`).
Styles = tuple[int, int, int, int, int, int, int, int]


def _styles(fmt: Formats, doc: Document) -> Styles:
    """The cell formats of text, quoted text, editable and quoted editable
    cells, the original grades and the current (editable) grades, and those
    two for a grade of more digits than the column shows
    (:func:`~core.io.workbook.typed_cells.short_grades`; the plain ones where
    ``doc`` has none, so that a workbook without one holds no such format)."""
    grade, edit_grade = fmt.grade._get_xf_index(), fmt.edit_grade._get_xf_index()
    short = (short_grades(doc.grade, doc.state).any()
             or short_grades(doc.original_grade, doc.original_state).any())
    return (fmt.text._get_xf_index(), fmt.text_q._get_xf_index(),
            fmt.edit._get_xf_index(), fmt.edit_q._get_xf_index(), grade, edit_grade,
            fmt.grade_short._get_xf_index() if short else grade,
            fmt.edit_grade_short._get_xf_index() if short else edit_grade)


# -- the Candidates rows, rendered ---------------------------------------------------------
# A row of the Candidates sheet is 27 cells, 18 of them formulas; xlsxwriter's
# per-cell path (a tuple stored, then one method call, attribute list and
# escape pass per cell) was most of the export's time. The rows are rendered
# here instead, from one template per query block, into exactly the XML
# xlsxwriter writes for the same calls (inline strings in constant-memory
# mode; tests/test_workbook_rows.py compares the two).

class _Templates(NamedTuple):
    """The XML of a Candidates row with positional fields, by its place in a
    query's block: ``single`` (a block of one row: every formula written
    out), ``first`` (every shared formula's first cell, holding its text),
    ``second`` (and the start of column R's, which begins a row later),
    ``second_of_two`` (column R written out: a range of one cell is not
    shared), ``other`` (every formula shared); and the fields' names."""

    single: str
    first: str
    second: str
    second_of_two: str
    other: str
    names: tuple[str, ...]
    #: The styles of :data:`LIFTED_COLUMNS`' cells ({look<c>}): a block's
    #: as written, and a lifted query's block's.
    looks: tuple[dict[str, str], dict[str, str]]


def _row_templates(decimal: int, lifted: int, reasons: bool = False) -> _Templates:
    """See :class:`_Templates`. Besides the positional fields, the block's
    ranges ({J} ...), each shared formula's range ({ref<c>}) and index
    ({si<c>}) are filled in per block. ``decimal``: the style index of the
    columns shown with four decimals (:data:`DECIMAL_COLUMNS`), the style
    xlsxwriter gives a cell of a column with a default format; ``lifted``:
    that of a lifted query's lifted cells; ``reasons``: the row ends with its
    :data:`~core.io.workbook.layout.REASON_COLUMN` cell ({c27}, rendered whole)."""
    letters = [c for c, _ in CANDIDATE_COLUMNS]
    templates = dict(formulas())
    names: list[str] = ["r", "prev"]

    def field(name: str) -> str:
        if name not in names:
            names.append(name)
        return "{" + name + "}"

    def text(c: int) -> str:
        return (f'<c r="{letters[c]}{{r}}" s="{field(f"s{c}")}" t="inlineStr">'
                f'<is><t{field(f"p{c}")}>{field(f"t{c}")}</t></is></c>')

    def formula(c: int, how: str, template: str) -> str:
        t = ' t="str"' if c == 6 else ""  # the grade state is text
        if c in DECIMAL_COLUMNS:
            t = f' s="{decimal}"'
        if c in LIFTED_COLUMNS:
            t = "{look" + str(c) + "}"  # (a block's: _block_templates)
        body = escape_xml(template[1:])
        f = {"plain": f"<f>{body}</f>",
             "master": f'<f t="shared" ref="{{ref{c}}}" si="{{si{c}}}">{body}</f>',
             "shared": f'<f t="shared" si="{{si{c}}}"/>'}[how]
        return f'<c r="{letters[c]}{{r}}"{t}>{f}<v>{field(f"v{c}")}</v></c>'

    def row(how: str, so_far_how: str, so_far: str) -> str:
        cells = ['<row r="{r}">']
        for c in range(len(CANDIDATE_COLUMNS)):
            if c in (0, 1, 2, 7):
                cells.append(text(c))
            elif c in (3, 4, 5, 12, 15):
                cells.append(field(f"c{c}"))  # a number or label cell, rendered whole
            elif c == SO_FAR_COL:
                cells.append(formula(c, so_far_how, so_far))
            else:
                cells.append(formula(c, how, templates[c]))
        if reasons:
            cells.append(field(f"c{REASON_COLUMN}"))
        cells.append("</row>")
        return "".join(cells)

    later = templates[SO_FAR_COL]
    out = [row("plain", "plain", FIRST_SO_FAR), row("master", "plain", FIRST_SO_FAR),
           row("shared", "master", later), row("shared", "plain", later),
           row("shared", "shared", later)]
    for i, name in enumerate(names):  # positional fields format faster
        out = [t.replace("{" + name + "}", "{" + str(i) + "}") for t in out]
    single, first, second, second_of_two, other = out
    plain = {"{look" + str(c) + "}": f' s="{decimal}"' if c in DECIMAL_COLUMNS else ""
             for c in LIFTED_COLUMNS}
    raised = {"{look" + str(c) + "}": f' s="{lifted}"' for c in LIFTED_COLUMNS}
    return _Templates(single, first, second, second_of_two, other, tuple(names), (plain, raised))


def _block_templates(t: _Templates, first: int, last: int, si: int, lift: bool,
                     ) -> tuple[str, ...]:
    """The templates of one block (sheet rows first..last) with its ranges,
    its shared formulas numbered from ``si``, and lifted (``lift``) or not."""
    out = [t.single, t.first, t.second, t.second_of_two, t.other]
    letters = [c for c, _ in CANDIDATE_COLUMNS]
    fill = {"{" + k + "}": escape_xml(v) for k, v in block_fields(first, last, lift).items()}
    fill.update(t.looks[lift])
    for n, (c, _) in enumerate(FORMULAS):
        top = first + 1 if c == SO_FAR_COL else first
        fill["{ref" + str(c) + "}"] = f"{letters[c]}{top}:{letters[c]}{last}"
        fill["{si" + str(c) + "}"] = str(si + n)
    for key, value in fill.items():
        out = [x.replace(key, value) for x in out]
    return tuple(out)


#: Rows rendered at a time (whole query blocks): the fields of a batch are
#: lists of strings, so this bounds the export's memory.
_ROWS_PER_BATCH = 8192


def _candidate_rows(
    doc: Document, ev: Evaluation, perm: np.ndarray, blocks: list[tuple[int, int]],
    fmt: Formats,
) -> Iterator[str]:
    """The Candidates sheet's data rows as XML, a batch of whole query blocks
    at a time: user text as strings, numbers with every digit, the formulas
    of :data:`FORMULAS` with the engine's results cached."""
    score = doc.score[perm]
    vals = candidate_values(doc, ev, perm, blocks)
    styles = _styles(fmt, doc)
    why = reason_column(doc, perm)  # (once: a batch's would pass over every candidate)
    templates = _row_templates(*_looks(fmt, ev), why is not None)
    names = templates.names
    lifted = vals["lifted"]
    si = 0
    for batch in block_batches(blocks):
        check_stopped()  # an export stopped from another thread ends here (core.io.stop)
        a, b = batch[0][0], batch[-1][1]
        fields = _row_fields(doc, perm[a:b], score[a:b],
                             {key: v[a:b] for key, v in vals.items()}, a + 2, styles,
                             None if why is None else why[a:b])
        rows = zip(*(fields[name] for name in names), strict=True)
        piece: list[str] = []
        for lo_b, hi_b in batch:
            n = hi_b - lo_b
            single, first, second, second_of_two, other = _block_templates(
                templates, lo_b + 2, hi_b + 1, si, bool(lifted[lo_b]))
            if n == 1:
                piece.append(single.format(*next(rows)))
                continue
            si += len(FORMULAS)
            piece.append(first.format(*next(rows)))
            piece.append((second if n > 2 else second_of_two).format(*next(rows)))
            fill = other.format
            piece.extend(fill(*args) for args in itertools.islice(rows, n - 2))
        yield "".join(piece)


def block_batches(blocks: list[tuple[int, int]]) -> Iterator[list[tuple[int, int]]]:
    """The query blocks (their non-empty ones) in batches of whole blocks of
    about :data:`_ROWS_PER_BATCH` rows: the fields of a batch are lists of
    strings, so this bounds the export's memory."""
    batch: list[tuple[int, int]] = []
    for k, (lo, hi) in enumerate(blocks):
        if hi > lo:
            batch.append((lo, hi))
        if batch and (k == len(blocks) - 1 or hi - batch[0][0] >= _ROWS_PER_BATCH):
            yield batch
            batch = []


def _row_fields(doc: Document, perm: np.ndarray, score: FloatArray, vals: dict[str, np.ndarray],
                first_row: int, styles: Styles, why: list[str] | None,
                ) -> dict[str, Sequence[Any]]:
    """The fields of :func:`_row_templates` for consecutive sheet rows from
    ``first_row`` on, one list per field (``why``: their
    :func:`reason_column` cells, None where the sheet has none)."""
    n = perm.size
    excel_row = list(range(first_row, first_row + n))
    out: dict[str, Sequence[Any]] = {"r": excel_row, "prev": [r - 1 for r in excel_row]}
    text_fmt, text_q, edit, edit_q, grade, edit_grade, grade_short, edit_short = styles
    qids = doc.query_ids
    for c, values, plain, quoted in (
        (0, [qids[q] for q in doc.query[perm].tolist()], text_fmt, text_q),
        (1, doc.source_id[perm].tolist(), text_fmt, text_q),
        (2, doc.version[perm].tolist(), text_fmt, text_q),
        (7, doc.note[perm].tolist(), edit, edit_q),
    ):
        out[f"s{c}"], out[f"p{c}"], out[f"t{c}"] = text_columns(values, plain, quoted)

    out["c3"] = xlsx_numbers(score, "D", excel_row)
    out["c4"] = xlsx_grades(doc.original_grade[perm], doc.original_state[perm], "E", excel_row,
                            f' s="{grade}"', short=f' s="{grade_short}"')
    out["c5"] = xlsx_grades(doc.grade[perm], doc.state[perm], "F", excel_row,
                            f' s="{edit_grade}"', short=f' s="{edit_short}"')
    if why is not None:  # (locked text, as the ids)
        said = xlsx_texts(why, text_fmt, text_q, xl_col_to_name(REASON_COLUMN), excel_row)
        out[f"c{REASON_COLUMN}"] = [x if t else "" for x, t in zip(said, why, strict=True)]
    out["c12"] = xlsx_numbers(vals["ideal list k"], "M", excel_row)
    tie = vals["tie group"]
    out["c15"] = xlsx_numbers(tie, "P", excel_row, tie == 0)
    out["v6"] = np.array(["number", "unknown", "unrateable"], dtype=object)[
        doc.state[perm]].tolist()
    for c, values, empty in formula_results(vals):
        out[f"v{c}"] = number_text(values, empty)
    return out


#: The numeric formula columns and the engine's result each stores
#: (:func:`core.io.workbook.values.candidate_values`' keys).
_RESULT_KEYS = ((8, "rank"), (9, "gain"), (10, "discount"), (11, "contribution"),
                (13, "k-th ideal gain"), (14, "k-th ideal contribution"), (16, "ranked"),
                (17, "ranked so far"), (18, "position discount"), (19, "inventory"),
                (20, "judged"), (21, "gain known"), (22, "inventory gain"), (23, "avg gain"),
                (24, "avg x discount"), (25, "avg known"), (26, "grade used"))


def formula_results(vals: dict[str, np.ndarray],
                    ) -> Iterator[tuple[int, FloatArray, npt.NDArray[np.bool_] | None]]:
    """Each numeric formula column's stored results: (column, values, where
    empty): the rank is empty where the candidate is unranked (0), the other
    columns where NaN."""
    for c, key in _RESULT_KEYS:
        values = vals[key].astype(np.float64)
        yield c, values, (values == 0 if key == "rank" else None)
