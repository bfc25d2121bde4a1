"""The Candidates rows of an ``.ods`` export, rendered straight as
OpenDocument (``<table:table-row>`` elements), as
:mod:`core.io.workbook.candidates` renders them for ``.xlsx``: one template
per query block, the formulas of :data:`core.io.workbook.formulas.FORMULAS`
translated to OpenFormula once per export (:func:`formula_templates`), the
engine's results stored as the cells' values. The rest of the workbook goes
through :func:`core.io.workbook.ods_writer.xlsx_to_ods`; converting these rows cell by
cell took four times the whole ``.xlsx`` export at 100,000 candidates."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from html import escape
from typing import Any

import numpy as np

from core.engine.evaluation import Evaluation
from core.io.workbook.candidates import (
    DECIMAL_COLUMNS,
    GRADE_LIST,
    REASON_AUTHOR,
    Styles,
    block_batches,
    formula_results,
    reason_column,
    reason_notes,
)
from core.io.workbook.formulas import (
    FIRST_SO_FAR,
    LIFTED_COLUMNS,
    SO_FAR_COL,
    block_fields,
    formulas,
)
from core.io.workbook.layout import CANDIDATE_COLUMNS, REASON_COLUMN
from core.io.workbook.ods_ranges import condition_set
from core.io.workbook.openformula import translate
from core.io.workbook.typed_cells import number_text, odf_grades, odf_numbers, odf_texts
from core.io.workbook.values import candidate_values
from core.model.document import Document

__all__ = ["formula_templates", "ods_candidate_rows"]

#: Stand-in rows: a formula is instantiated at these, translated, and the
#: numbers turned back into fields ({r} the row, {prev} the row above,
#: {first} {last} the block's rows).
_ROW, _PREV, _FIRST, _LAST = 987_653, 987_652, 876_541, 876_542


def formula_templates(lift: bool = False) -> dict[int, str]:
    """Each formula column's OpenFormula (XML-escaped, for ``table:formula``)
    with the fields {r} {prev} {first} {last}; column R's first-row formula
    under key ``-1``; those of a lifted query's block (``lift``)."""
    fields = block_fields(_FIRST, _LAST, lift)
    out = {}
    for c, template in [*formulas(), (-1, FIRST_SO_FAR)]:
        text = escape(translate(template.format(r=_ROW, prev=_PREV, **fields)))
        for number, name in ((_ROW, "r"), (_PREV, "prev"), (_FIRST, "first"),
                             (_LAST, "last")):
            text = text.replace(str(number), "{" + name + "}")
        out[c] = text
    return out


def _row_template(formula: dict[int, str], first_row: bool, decimal: int,
                  lifted: int | None = None, sheet: str = "", reasons: bool = False,
                  ) -> tuple[str, list[str]]:
    """A row's template with positional fields, and the fields' names
    (``lifted``: the style of a lifted query's lifted cells, in its block of
    ``sheet``, with the condition that reads them as any block's once it is
    lifted no more; ``reasons``: the row ends with its
    :data:`~core.io.workbook.layout.REASON_COLUMN` cell)."""
    names: list[str] = []

    def field(name: str) -> str:
        if name not in names:
            names.append(name)
        return "{" + str(names.index(name)) + "}"

    cells = ["<table:table-row>"]
    for c in range(len(CANDIDATE_COLUMNS)):
        if c in (0, 1, 2, 3, 4, 5, 7, 12, 15):
            cells.append(field(f"c{c}"))
            continue
        text = formula[-1 if c == SO_FAR_COL and first_row else c]
        text = text.replace("{r}", field("r")).replace("{prev}", field("prev"))
        style = f' table:style-name="ce{decimal}"' if c in DECIMAL_COLUMNS else ""
        if lifted is not None and c in LIFTED_COLUMNS:
            style = f' table:style-name="ce{lifted}k{condition_set("{first}", sheet)}"'
        cells.append(f'<table:table-cell{style} table:formula="{text}"{field(f"v{c}")}')
    if reasons:
        cells.append(field(f"c{REASON_COLUMN}"))
    cells.append("</table:table-row>")
    return "".join(cells), names


def _results(values: Any, empty: Any = None) -> list[str]:
    """A formula column's stored results: a number, or "" (an empty text)."""
    return [f' office:value-type="float" office:value="{v}"/>' if v
            else ' office:value-type="string" office:string-value=""/>'
            for v in number_text(values, empty)]


def _fields(doc: Document, perm: np.ndarray, vals: dict[str, np.ndarray], first_row: int,
            styles: Styles, why: list[str] | None,
            notes: list[tuple[int, str]]) -> dict[str, Sequence[Any]]:
    """The fields of the rows from sheet row ``first_row`` on (``why``:
    their :func:`~core.io.workbook.candidates.reason_column` cells, None
    where the sheet has none; ``notes``: their grades'
    :func:`~core.io.workbook.candidates.reason_notes`, placed in ``perm``)."""
    n = perm.size
    rows = list(range(first_row, first_row + n))
    text_fmt, text_q, edit, edit_q, grade, edit_grade, grade_short, edit_short = styles
    qids = doc.query_ids
    out: dict[str, Sequence[Any]] = {"r": rows, "prev": [r - 1 for r in rows]}
    out["c0"] = odf_texts([qids[q] for q in doc.query[perm].tolist()], text_fmt, text_q)
    out["c1"] = odf_texts(doc.source_id[perm].tolist(), text_fmt, text_q)
    out["c2"] = odf_texts(doc.version[perm].tolist(), text_fmt, text_q)
    out["c7"] = odf_texts(doc.note[perm].tolist(), edit, edit_q)
    out["c3"] = odf_numbers(doc.score[perm])
    listed = f' table:content-validation-name="{GRADE_LIST}"'  # the rubric's dropdown
    out["c4"] = odf_grades(doc.original_grade[perm], doc.original_state[perm],
                           f' table:style-name="ce{grade}"',
                           short=f' table:style-name="ce{grade_short}"')
    out["c5"] = _annotated(odf_grades(doc.grade[perm], doc.state[perm],
                                      f' table:style-name="ce{edit_grade}"{listed}',
                                      short=f' table:style-name="ce{edit_short}"{listed}'),
                           notes)
    if why is not None:
        out[f"c{REASON_COLUMN}"] = odf_texts(why, text_fmt, text_q)
    out["c12"] = odf_numbers(vals["ideal list k"])
    out["c15"] = odf_numbers(vals["tie group"], vals["tie group"] == 0)
    states = np.array(["number", "unknown", "unrateable"], dtype=object)[doc.state[perm]]
    out["v6"] = [f' office:value-type="string" office:string-value="{s}"><text:p>{s}</text:p>'
                 "</table:table-cell>" for s in states.tolist()]
    for c, values, empty in formula_results(vals):
        out[f"v{c}"] = _results(values, empty)
    return out


def _annotated(cells: list[str], notes: list[tuple[int, str]]) -> list[str]:
    """The grade cells with each note (:func:`~core.io.workbook.candidates.reason_notes`)
    as the cell's annotation, by :data:`~core.io.workbook.candidates.REASON_AUTHOR`,
    before the word it explains."""
    for at, text in notes:
        head, sep, tail = cells[at].partition("><text:p>")
        cells[at] = (f"{head}><office:annotation><dc:creator>{REASON_AUTHOR}</dc:creator>"
                     f"<text:p>{escape(text, quote=False)}</text:p></office:annotation>"
                     f"<text:p>{tail}") if sep else cells[at]
    return cells


def ods_candidate_rows(doc: Document, ev: Evaluation, perm: np.ndarray,
                       blocks: list[tuple[int, int]], styles: Styles,
                       looks: tuple[int, int], sheet: str = "") -> Iterator[str]:
    """The Candidates sheet's data rows as ODF, a batch of whole query blocks
    at a time (``styles``: the cell formats of text, quoted text, editable
    and quoted editable cells, original and current grades; ``looks``: that
    of the four-decimal columns and a lifted query's lifted cells'; ``sheet``:
    its name)."""
    vals = candidate_values(doc, ev, perm, blocks)
    decimal, lifted = looks
    templates = {}
    # the reasons found once, not once a batch (a pass over every candidate)
    why, notes = reason_column(doc, perm), reason_notes(doc, perm)
    noted = [at for at, _ in notes]
    reasons = why is not None
    for lift in (False, True) if vals["lifted"].any() else (False,):
        formula = formula_templates(lift)
        style = lifted if lift else None
        templates[lift] = (_row_template(formula, True, decimal, style, sheet, reasons),
                           _row_template(formula, False, decimal, style, sheet, reasons))
    for batch in block_batches(blocks):
        a, b = batch[0][0], batch[-1][1]
        fields = _fields(doc, perm[a:b], {key: v[a:b] for key, v in vals.items()}, a + 2,
                         styles, None if why is None else why[a:b],
                         [(at - a, text) for at, text in
                          notes[bisect_left(noted, a):bisect_left(noted, b)]])
        piece: list[str] = []
        for lo_b, hi_b in batch:
            span = {"{first}": str(lo_b + 2), "{last}": str(hi_b + 1)}
            (top, names), (rest, other_names) = templates[bool(vals["lifted"][lo_b])]
            for key, value in span.items():
                top, rest = top.replace(key, value), rest.replace(key, value)
            at = lo_b - a
            piece.append(top.format(*(fields[n][at] for n in names)))
            fill = rest.format
            columns = [fields[n][at + 1:hi_b - a] for n in other_names]
            piece.extend(fill(*args) for args in zip(*columns, strict=True))
        yield "".join(piece)
