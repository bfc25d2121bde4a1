"""The Conventions sheet: every convention as a named cell the formulas read
(edit one and the workbook recomputes), the gain table and the rubric with
the guidelines (what each grade means, and examples)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from core.io.workbook.layout import (
    ALL_K,
    CANDIDATE_COLUMNS,
    CONVENTION_LABELS,
    GAIN_TABLE_SPARE,
    SHEETS,
    FloatArray,
    Formats,
    put_text,
    sheet_ref,
)
from core.io.workbook.page import header_row, print_setup, set_widths, wrapped_row
from core.model.conventions import FIELDS, Conventions
from core.model.document import Document, GradeState

_SHEET = SHEETS["conventions"]


#: Widths of the label, value and meaning columns (characters).
_WIDTHS = (30.0, 32.0, 72.0)
#: The Candidates sheet's predicted score and grade state columns (letters).
_SCORE, _STATE = (next(letter for letter, header in CANDIDATE_COLUMNS if header == name)
                  for name in ("predicted score", "grade state"))
#: The guidelines' examples: column E (D holds the cutoffs' numbers, hidden), its width.
EXAMPLES_COL, _EXAMPLES_WIDTH = 4, 44.0


def write_conventions(
    wb: Any, fmt: Formats, doc: Document, conv: Conventions, grades: FloatArray | None = None
) -> dict[str, str]:
    """The Conventions sheet; returns the names it defines (each convention's
    cell, the gain table's columns and the rubric's grades). ``grades``: the
    grades the rubric must cover (default the document's)."""
    ws = wb.add_worksheet(_SHEET)
    set_widths(ws, _WIDTHS)
    # The numbers formulas use for the cutoffs (k = all as a large number): hidden.
    ws.set_column(3, 3, 12, fmt.k_used, {"hidden": True})
    ws.set_column(EXAMPLES_COL, EXAMPLES_COL, _EXAMPLES_WIDTH)
    ws.write_string(0, 0, "Conventions: every NDCG number in this workbook depends on these",
                    fmt.title)
    intro = ("Edit a value in the blue cells and every sheet recomputes (TRUE or FALSE, a "
             "whole number or all, or a choice from the cell's list). NDCG Worksheet takes "
             "the edited conventions when it reopens this file, and records each change in "
             "its audit log.")
    ws.merge_range(1, 0, 1, 2, intro, fmt.wrap)
    wrapped_row(ws, 1, intro, sum(_WIDTHS))
    header_row(ws, fmt, 2, ("convention", "value (edit to recompute)", "meaning / formula"),
               _WIDTHS)
    ws.freeze_panes(3, 0)
    settings = _Settings(ws, fmt, row=3)
    _put_conventions(settings, doc, conv)
    _put_unjudged(settings, doc)
    names = settings.names
    row = _write_gain_table(ws, fmt, conv, settings.row + 1, names)
    if grades is None:
        grades = doc.grade[doc.state == GradeState.NUMBER]
    _write_rubric(ws, fmt, conv, grades, row + 1, names)
    print_setup(ws, doc.judgment_version, header_rows=(2, 2), gridlines=False)
    ws.fit_to_pages(1, 1)  # one page: the conventions are read together
    return names


class _Settings:
    """The rows of conventions, one named value cell each, from ``row`` down."""

    def __init__(self, ws: Any, fmt: Formats, row: int) -> None:
        self.ws, self.fmt, self.row = ws, fmt, row
        self.names: dict[str, str] = {}

    def put(self, name: str, label: str, value: Any, meaning: str,
            choices: Sequence[str] = ()) -> None:
        """One convention: its label, its value (named ``name``; a dropdown of
        ``choices`` when given) and what it means."""
        ws, fmt, row = self.ws, self.fmt, self.row
        ws.write_string(row, 0, label, fmt.label)
        if isinstance(value, bool):
            ws.write_boolean(row, 1, value, fmt.conv_bool)
            choices = ("TRUE", "FALSE")
        elif isinstance(value, int | float):
            ws.write_number(row, 1, value, fmt.conv_number)
        else:
            put_text(ws, row, 1, str(value), fmt.conv, fmt.conv_q)
        put_text(ws, row, 2, meaning, fmt.wrap, fmt.wrap_q)
        wrapped_row(ws, row, meaning, _WIDTHS[2],
                    (value if isinstance(value, str) else "", _WIDTHS[1]))
        if choices and not isinstance(value, bool):
            ws.data_validation(row, 1, row, 1, {"validate": "list", "source": list(choices)})
        self.names[name] = f"={_SHEET}!$B${row + 1}"
        self.row += 1


#: Words the sheet adds to a field's meaning (by named cell): what its formulas recompute.
_SHEET_WORDS = {
    "tie_rule": " (only average / not average recomputes here: the row order of the other "
                "rules was fixed at export)",
    "negative_gain_zero": "TRUE: ", "truncate_grades": "TRUE: ",
    "rubric_text": ", not dropped; the permitted grades are listed below; empty: derived "
                   "from the grades seen",
}


def _put_conventions(s: _Settings, doc: Document, conv: Conventions) -> None:
    """Every convention of :data:`FIELDS` (each cutoff with its numeric form
    ``cutn_j``, "all" as :data:`ALL_K`, beside it), then the document's name
    and version."""
    for f in FIELDS:
        value = f.get(conv)
        if f.kind == "cutoffs":
            _put_cutoffs(s, value, f.meaning(value))
            continue
        if f.kind == "guidelines":  # columns of the rubric's list (_write_rubric)
            continue
        words = _SHEET_WORDS.get(f.cell, "")
        meaning = words + f.meaning(value) if words.endswith(" ") else f.meaning(value) + words
        if f.kind == "flag":
            s.put(f.cell, f.label, bool(value), meaning)
        elif f.kind in ("choice", "gain"):  # the gain's cell holds its rule
            member = value[0] if f.kind == "gain" else value
            s.put(f.cell, f.label, member.value, member.formula + words,
                  [m.value for m in f.choices()])
        else:
            s.put(f.cell, f.label, f.write(value) or "", meaning)
    s.put("judgment_version", CONVENTION_LABELS["judgment_version"], doc.judgment_version,
          "the version of the judgments these grades come from")
    s.put("document_name", CONVENTION_LABELS["document_name"], doc.name, "the document's name")


#: The label of the count of candidates the run ranked and nobody judged.
UNJUDGED_LABEL = "ranked but never judged"


def _put_unjudged(s: _Settings, doc: Document) -> None:
    """Below the document's name and version: how many candidates have a
    score (the run ranked them) and an unknown grade, a live count over the
    Candidates sheet's score and grade state (a grade typed there lowers it);
    its cached value the document's."""
    unknown = np.count_nonzero((doc.state == GradeState.UNKNOWN) & ~np.isnan(doc.score))
    last = len(doc) + 1
    cand = sheet_ref(SHEETS["candidates"])
    score, state = (f"{cand}!${c}$2:${c}${last}" for c in (_SCORE, _STATE))
    s.ws.write_string(s.row, 0, UNJUDGED_LABEL, s.fmt.label)
    s.ws.write_formula(s.row, 1, f'=SUMPRODUCT(({state}="unknown")*({score}<>""))'
                       if len(doc) else "=0", s.fmt.whole, int(unknown))
    s.ws.write_string(s.row, 2, "candidates with a predicted score and an unknown grade (not "
                      "0: unknown is a grade state), counted on the Candidates sheet",
                      s.fmt.wrap)
    s.row += 1


def _put_cutoffs(s: _Settings, cutoffs: tuple[int | None, ...], meaning: str) -> None:
    for j, k in enumerate(cutoffs, start=1):
        s.put(f"cut_{j}", f"cutoff {j} (k)", k if k is not None else "all",
              f"a whole number, or all; {meaning}")
        s.ws.write_formula(s.row - 1, 3, f"=IF(ISNUMBER(cut_{j}),cut_{j},{ALL_K})", None,
                           k if k is not None else ALL_K)
        s.names[f"cutn_{j}"] = f"={_SHEET}!$D${s.row}"


def _write_gain_table(ws: Any, fmt: Formats, conv: Conventions, row: int,
                      names: dict[str, str]) -> int:
    """The gain table from ``row`` down, with :data:`GAIN_TABLE_SPARE` empty
    rows for entries added in the spreadsheet; returns the row after it."""
    ws.write_string(row, 0, "gain table: grade", fmt.header)
    ws.write_string(row, 1, "gain", fmt.header)
    ws.write_string(row, 2, "used when the gain rule is 'table'; other grades keep gain = grade",
                    fmt.header)
    row += 1
    first = row
    for grade, gain in conv.gain.table:
        ws.write_number(row, 0, grade, fmt.conv)
        ws.write_number(row, 1, gain, fmt.conv)
        row += 1
    row += GAIN_TABLE_SPARE
    names["gain_grades"] = f"={_SHEET}!$A${first + 1}:$A${row}"
    names["gain_values"] = f"={_SHEET}!$B${first + 1}:$B${row}"
    return row


def _write_rubric(ws: Any, fmt: Formats, conv: Conventions, grades: FloatArray, row: int,
                  names: dict[str, str]) -> None:
    """The rubric's grades with their labels and guidelines (description,
    examples one per line: edited here, read back) from ``row`` down, then
    unknown and unrateable: the list the current-grade dropdown offers
    (``grade_list``); ``guidelines``: the grades' rows, columns A to E."""
    ws.write_string(row, 0, "rubric: grade", fmt.header)
    ws.write_string(row, 1, "label (edit the rubric above)", fmt.header)
    ws.write_string(row, 2, "guideline: what the grade means (edit here)", fmt.header)
    ws.write_string(row, EXAMPLES_COL, "examples, one per line (edit here)", fmt.header)
    row += 1
    first = row
    for level in conv.levels(grades):  # top-aligned, as the guideline beside it
        ws.write_number(row, 0, level.value, fmt.grade_top)
        put_text(ws, row, 1, level.label, fmt.wrap, fmt.wrap_q)
        put_text(ws, row, 2, level.description, fmt.conv, fmt.conv_q)
        examples = "\n".join(level.examples)
        put_text(ws, row, EXAMPLES_COL, examples, fmt.conv, fmt.conv_q)
        wrapped_row(ws, row, level.description, _WIDTHS[2], (examples, _EXAMPLES_WIDTH))
        row += 1
    names["guidelines"] = f"={_SHEET}!$A${first + 1}:$E${row}"
    # Row by row: the sheet is written in constant memory, which drops a cell
    # of a row already left.
    # (right-aligned as the grades above: one alignment for the column)
    ws.write_string(row, 0, "unknown", fmt.grade)
    ws.write_string(row, 2, "the current-grade dropdown offers the grades above and "
                    "unknown, unrateable", fmt.wrap)
    ws.write_string(row + 1, 0, "unrateable", fmt.grade)
    row += 2
    names["grade_list"] = f"={_SHEET}!$A${first + 1}:$A${row}"
