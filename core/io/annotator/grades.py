"""The grade cells of an import: each grade column read (whole numbers of the
scale in bulk, every other value classified once per distinct value), whose
grade each is, and the first grade of each candidate and annotator."""

from __future__ import annotations

import math
from typing import NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from core.errors import InputError
from core.io.annotator.cells import (
    FEW_VALUES,
    Cell,
    GradeReader,
    Reject,
    blank_cell,
    codes,
    float_cells,
    number,
)
from core.io.annotator.model import ColumnMapping, cell_text
from core.io.annotator.report import CONFLICT, DUPLICATE, Issue
from core.io.annotator.rows import NO_NAME
from core.io.annotator.rowset import Candidates
from core.io.annotator.scales import header_range
from core.io.annotator.sheet import Sheet
from core.model.document import GradeState

__all__ = ["Grades", "check_header_ranges", "first_grades", "read_grades"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]
StateArray = npt.NDArray[np.int8]
_S = TypeVar("_S", bound=np.generic)


class Grades(NamedTuple):
    """Every grade read, in arrays with one entry per grade: its data row,
    grade column (index into ``sources``), candidate, annotator (index into
    ``names``), value, state, and whether its cell is blank (found as the
    cells are read: one look per distinct value).

    ``sources``: the grade columns with their annotator's name (empty in a
    long layout); ``names``: the annotators in the order their first grade
    was read; ``reason``: (grade column, data row) -> the reason an
    unrateable grade gives; ``mark``: the same -> its mark as written
    (``n/a``, ``skip``).
    """

    rows: IntArray
    column: IntArray
    candidate: IntArray
    annotator: IntArray
    value: FloatArray
    state: StateArray
    blank: BoolArray
    sources: list[tuple[int, str]]
    names: list[str]
    reason: dict[tuple[int, int], str]
    mark: dict[tuple[int, int], str]


def _joined(parts: list[npt.NDArray[_S]], empty: npt.NDArray[_S]) -> npt.NDArray[_S]:
    return np.concatenate(parts) if parts else empty


def read_grades(sheet: Sheet, reader: GradeReader, bad_cells: dict[int, set[int]],
                cands: Candidates, who_all: list[str] | None) -> Grades:
    """Read every grade column over the candidates' rows (a cell refused
    for a formula is not read)."""
    mapping = sheet.mapping
    sources = mapping.sources()
    reason_text = sheet.texts(mapping.reason) if mapping.reason is not None else None
    ev_reason: dict[tuple[int, int], str] = {}
    ev_mark: dict[tuple[int, int], str] = {}
    read: list[tuple[IntArray, IntArray, FloatArray, StateArray, BoolArray]] = []
    for p, (col, _ann) in enumerate(sources):
        rows_p, ci_p = cands.rows, cands.of_row
        bad = [i for i, cs in bad_cells.items() if col in cs]
        if bad:
            keep = ~np.isin(rows_p, bad)
            rows_p, ci_p = rows_p[keep], ci_p[keep]
        read.append(_read_column(sheet, reader, p, col, rows_p, ci_p, reason_text,
                                 (ev_reason, ev_mark)))
    ev_rows = [r[0] for r in read]
    names, ev_a = _annotators(mapping, sources, ev_rows, who_all)
    return Grades(
        rows=_joined(ev_rows, np.zeros(0, dtype=np.int64)),
        column=_joined([np.full(len(r), p, dtype=np.int64) for p, r in enumerate(ev_rows)],
                       np.zeros(0, dtype=np.int64)),
        candidate=_joined([r[1] for r in read], np.zeros(0, dtype=np.int64)),
        annotator=_joined(ev_a, np.zeros(0, dtype=np.int64)),
        value=_joined([r[2] for r in read], np.zeros(0)),
        state=_joined([r[3] for r in read], np.zeros(0, dtype=np.int8)),
        blank=_joined([r[4] for r in read], np.zeros(0, dtype=bool)),
        sources=sources, names=names, reason=ev_reason, mark=ev_mark,
    )


def _read_column(sheet: Sheet, reader: GradeReader, p: int, col: int, rows_p: IntArray,
                 ci_p: IntArray, reason_text: list[str] | None,
                 ev_words: tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]],
                 ) -> tuple[IntArray, IntArray, FloatArray, StateArray, BoolArray]:
    """One grade column over the data rows ``rows_p`` (candidates ``ci_p``):
    the rows, candidates, values and states of the grades it gives, and
    which of their cells are blank."""
    cells_g = sheet.column(col)
    values = cells_g if len(rows_p) == sheet.n_rows else [cells_g[i] for i in rows_p.tolist()]
    code, firsts = codes(values, signed_zero=not reader.zero_plain)
    if len(firsts) <= FEW_VALUES:  # grades: a handful of distinct values
        other = None
    else:  # many distinct numbers: those of the scale in bulk
        floats = float_cells(values)
        other = np.flatnonzero(~np.isin(floats, reader.plain_keys))
        code, firsts = codes([values[k] for k in other.tolist()])
    kinds = [reader(v) for v in firsts]
    k_value = np.array([c.value for c in kinds], dtype=np.float64)[code]
    k_state = np.array([c.state for c in kinds], dtype=np.int8)[code]
    k_valid = np.array([c.grade is not None for c in kinds], dtype=bool)[code]
    wordy = np.flatnonzero(np.array([c.wordy for c in kinds], dtype=bool)[code])
    k_blank = np.array([blank_cell(v) for v in firsts], dtype=bool)[code]
    if other is None:
        value, state, valid, blank = k_value, k_state, k_valid, k_blank
        wordy_rows = rows_p[wordy]
    else:
        value = floats + 0.0
        state = np.full(len(values), GradeState.NUMBER, dtype=np.int8)
        valid = np.ones(len(values), dtype=bool)
        value[other], state[other], valid[other] = k_value, k_state, k_valid
        blank = np.zeros(len(values), dtype=bool)  # (a number of the scale is no blank)
        blank[other] = k_blank
        wordy_rows = rows_p[other[wordy]]
    if len(wordy):
        _report_words(sheet, p, col, kinds, code[wordy], wordy_rows, reason_text, ev_words)
    return rows_p[valid], ci_p[valid], value[valid], state[valid], blank[valid]


def check_header_ranges(sheet: Sheet) -> None:
    """Refuse a number written in a grade column outside the range its
    header declares (a 4 under ``Relevance (0-3)``): read as it stood, it
    widened the scale to 0-4 without a word. Called only where the user
    declared no rubric (``--rubric`` declares the scale, and wins). Marks
    and labels are no numbers written; each distinct value is read once. A
    range most of the column's numbers leave is no scale of theirs
    (``Relevance (round 4-5)`` over 0..3: :func:`~core.io.annotator.evidence._declared_scale`).
    The first such cell in reading order is named, with how many more."""
    off: list[tuple[int, int, float]] = []  # (data row, grade column, value)
    refused = {(r, c) for r, c, _ in (*sheet.table.formulas, *sheet.table.errors)}
    for col, _who in sheet.mapping.sources():
        said = header_range(sheet.header[col]) if col < len(sheet.header) else None
        if said is None:
            continue
        code, firsts = codes(list(sheet.column(col)))
        written = {k: x for k, v in enumerate(firsts) if (x := _written_number(v)) is not None}
        bad = {k: x for k, x in written.items() if not said[0] <= x <= said[1]}
        if bad and 2 * len(set(bad.values())) <= len(set(written.values())):  # most on it
            at = np.flatnonzero(np.isin(code, list(bad)))
            off.extend((i, col, bad[int(code[i])]) for i in at.tolist()
                       if _judged(sheet, i, col, refused))
    if not off:
        return
    i, col, value = min(off)
    lo, hi = header_range(sheet.header[col]) or (0, 0)
    more = f" (and {len(off) - 1} more off their header's range)" if len(off) > 1 else ""
    span = range(min(lo, int(value)), max(hi, int(value)) + 1)
    levels = ",".join(map(str, span)) if float(value).is_integer() and len(span) <= 11 \
        else "G,G,..."
    raise InputError(
        f"grade {cell_text(value)} is outside the range {lo}-{hi} the column's header "
        f"declares{more}", file=sheet.file, sheet=sheet.table.sheet, line=sheet.row_number(i),
        column=sheet.name(col),
        hint=f"fix the cell, or pass {_rubric_flag(levels)} declaring the scale, which then "
        "wins over the header")


def _rubric_flag(levels: str) -> str:
    """``--rubric LEVELS`` as the command line takes it: joined by "=" when
    the levels start with a minus (``--rubric -1,0,...`` is read as an
    option, "expected one argument")."""
    return f"--rubric={levels}" if levels.startswith("-") else f"--rubric {levels}"


def _judged(sheet: Sheet, i: int, col: int, refused: set[tuple[int, int]]) -> bool:
    """Whether data row ``i``'s cell in grade column ``col`` may be a
    judgment: not a formula's or an error's (``refused``, table row and
    column: refused as such, never read, a ``Total`` row's
    ``=SUM(C4:C16)``), in a row naming its source."""
    source = sheet.mapping.source_id
    if source is not None and not sheet.texts(source)[i]:
        return False
    return (i + sheet.start, col) not in refused


def _written_number(cell: object) -> float | None:
    """The number a grade cell writes (None for a mark, a label, a blank)."""
    try:
        return number(cell)
    except Reject:
        return None


def _report_words(sheet: Sheet, p: int, col: int, kinds: list[Cell], w_code: IntArray,
                  wordy_rows: IntArray, reason_text: list[str] | None,
                  ev_words: tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]],
                  ) -> None:
    """The findings, reasons and marks (``ev_words``) of the cells that
    need words: one distinct value at a time (a handful), its rows in bulk;
    the findings are put in reading order when the report is written."""
    ev_reason, ev_mark = ev_words
    cname = sheet.name(col)
    row_base = sheet.start + 1
    for k in np.unique(w_code).tolist():
        kind = kinds[k]
        rows_k = wordy_rows[w_code == k].tolist()
        for seq, (what, problem, shown) in enumerate(kind.issues):
            sheet.found.extend([((i, 3, p, seq), Issue(what, i + row_base, cname, problem,
                                                       shown)) for i in rows_k])
        if kind.unmapped is not None:
            sheet.unmapped.extend([((i, 3, p, 0), kind.unmapped) for i in rows_k])
        if kind.grade is not None and kind.grade.state is GradeState.UNRATEABLE:
            for i in rows_k:
                given = reason_text[i] if reason_text is not None else ""
                ev_reason[(p, i)] = given or kind.grade.reason
                ev_mark[(p, i)] = kind.grade.reason  # (the mark as written: _text)


def _annotators(mapping: ColumnMapping, sources: list[tuple[int, str]], ev_rows: list[IntArray],
                who_all: list[str] | None) -> tuple[list[str], list[IntArray]]:
    """The annotators in the order their first grade was read, and each
    grade column's grades' annotators."""
    annotators: dict[str, int] = {}
    if mapping.layout == "long":
        rows_0 = ev_rows[0] if ev_rows else np.zeros(0, dtype=np.int64)
        who_ev = ([who_all[i] for i in rows_0.tolist()] if who_all is not None
                  else [""] * len(rows_0))
        for w in who_ev:
            annotators.setdefault(w, len(annotators))
        ev_a = [np.array([annotators[w] for w in who_ev], dtype=np.int64)]
    else:
        started = sorted((int(r[0]), p) for p, r in enumerate(ev_rows) if len(r))
        for _, p in started:
            annotators.setdefault(sources[p][1], len(annotators))
        ev_a = [np.full(len(r), annotators.get(sources[p][1], 0), dtype=np.int64)
                for p, r in enumerate(ev_rows)]
    return list(annotators), ev_a


def first_grades(sheet: Sheet, g: Grades, cands: Candidates) -> tuple[IntArray, list[int]]:
    """One grade per candidate and annotator: the first read. Returns the
    grades kept and those read again (reported as duplicates or conflicts)."""
    m = len(g.names)
    sources = g.sources
    if len(cands.of_row) == cands.n and (sheet.mapping.layout == "long"
                                          or len({who for _, who in sources}) == len(sources)):
        return np.arange(len(g.rows)), []  # one row per candidate: no repeats possible
    order = np.lexsort((g.column, g.rows))
    pair = (g.candidate * max(m, 1) + g.annotator)[order]
    _, first_pos = np.unique(pair, return_index=True)
    taken = np.zeros(len(order), dtype=bool)
    taken[first_pos] = True
    again: list[int] = order[~taken].tolist()
    if again:
        first_of = dict(zip(pair[first_pos].tolist(), order[first_pos].tolist(), strict=True))
        for e in again:
            f = first_of[int(g.candidate[e]) * max(m, 1) + int(g.annotator[e])]
            _report_again(sheet, g, cands, e, f)
    return order[taken], again


def _report_again(sheet: Sheet, g: Grades, cands: Candidates, e: int, f: int) -> None:
    """Grade ``e`` repeats grade ``f`` (the same candidate and annotator)."""
    i, p, ci = int(g.rows[e]), int(g.column[e]), int(g.candidate[e])
    ann = g.names[int(g.annotator[e])]
    if ann == NO_NAME and g.blank[e] and g.blank[f]:
        # rows naming no one and grading nothing (a Label Studio task's
        # model predictions, a row each): no one's judgments, never repeated
        return
    same = g.state[f] == g.state[e] and (g.value[f] == g.value[e] or (
        math.isnan(g.value[f]) and math.isnan(g.value[e])))
    sheet.found.append(((i, 3, p, 1 << 20), Issue(
        DUPLICATE if same else CONFLICT, sheet.row_number(i), sheet.name(g.sources[p][0]),
        (f"{ann + ' ' if ann else ''}graded {cands.source[ci]!r} for {cands.query[ci]!r} again"
         f" (first on {sheet.place(int(g.rows[f]))})"
         + ("; the same grade, kept once" if same else
            "; a different grade, the first is kept")))))
