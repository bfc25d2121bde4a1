"""The workbook's layout: sheet names, column headers, the formats, and how
user text and cached results are written into cells."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from core.analysis.aggregate import UNJUDGED
from core.engine.columns import COLUMNS as ALL_CANDIDATE_COLUMNS
from core.engine.results import STATUS_BY_CODE
from core.io.workbook.formulas import LIFTED_FORMAT
from core.model.audit import OUTSIDE_ORIGIN as OUTSIDE_ORIGIN  # declared with the audit entry
from core.model.convention_log import CONVENTION_ENTRY as CONVENTION_ENTRY  # one declaration
from core.model.conventions import FIELDS

FloatArray = npt.NDArray[np.float64]

METADATA_FORMAT = "ndcg-worksheet workbook 1"
SHEETS = {
    "report": "Report",
    "conventions": "Conventions",
    "candidates": "Candidates",
    "queries": "Queries",
    "summary": "Summary",
    "audit": "Audit",
    #: Written only for a document that keeps each annotator's grades
    #: (:mod:`core.io.workbook.annotators_sheet`).
    "annotators": "Annotators",
    "metadata": "ndcg_metadata",
}
#: The sheets :func:`export_comparison_workbook` adds to those of :data:`SHEETS`.
COMPARISON_SHEETS = {
    "comparison": "Comparison",
    "candidates_b": "Candidates B",
    "queries_b": "Queries B",
    "summary_b": "Summary B",
}
#: Characters per metadata cell (Excel allows 32,767).
CHUNK = 32_000
#: What an "all" cutoff becomes inside formulas.
ALL_K = 1_000_000_000
#: Empty rows kept in the gain table so that entries can be added in Excel.
GAIN_TABLE_SPARE = 10
OUTSIDE_WHO = "spreadsheet edit"

#: The Conventions sheet's named cells people read, by name: their labels
#: (each convention's from :data:`core.model.conventions.FIELDS`; the
#: cutoffs' are "cutoff j (k)", the gain table's "gain table"), then the
#: document's version and name.
CONVENTION_LABELS = {
    **{f.cell: f.label for f in FIELDS if f.cell and f.kind != "cutoffs"},
    "judgment_version": "judgment version",
    "document_name": "ranked list",
}

#: The app's colours (app/models/looks.py, app/review/compare_view.py,
#: app/models/candidates.py): a status's font, an outcome's background, a
#: grade state's font.
STATUS_COLOURS = {"ok": "#1B7F3B", "undefined": "#7A5C00", "negative": "#8A3B12",
                  "unresolved": "#B3261E", "unranked": "#1F5C99"}
OUTCOME_COLOURS = {"win": "#DFF3DF", "loss": "#F9DEDE"}
STATE_COLOURS = {"unknown": "#6B6B6B", "unrateable": "#7A3E9D"}
#: The background of a row whose annotators disagree (the Annotators sheet):
#: the app's for a conflict, a disagreement (looks.py's "open").
DISAGREEMENT_COLOUR = "#FFE3B3"

# Candidates sheet: (letter, header). The first fifteen are for people: the
# candidate columns the workbook shows, declared with the grid's
# (core.engine.columns), at their letters; the rest are helper columns the
# formulas need (grouped and collapsed).
_READABLE = tuple(sorted((c.sheet for c in ALL_CANDIDATE_COLUMNS if c.sheet is not None),
                         key=lambda lh: (len(lh[0]), lh[0])))
CANDIDATE_COLUMNS: tuple[tuple[str, str], ...] = (
    *_READABLE,
    ("P", "tie group"),
    ("Q", "ranked (1/0)"),
    ("R", "ranked so far"),
    ("S", "position discount"),
    ("T", "in ideal inventory (1/0)"),
    ("U", "judged (1/0)"),
    ("V", "gain known (1/0)"),
    ("W", "inventory gain"),
    ("X", "tie-averaged gain"),
    ("Y", "tie-averaged gain x position discount"),
    ("Z", "tie-averaged gain known (1/0)"),
    ("AA", "grade used"),
)
#: Column index (0-based) of each Candidates header.
COLUMN_INDEX = {header: i for i, (_, header) in enumerate(CANDIDATE_COLUMNS)}
#: The Candidates sheet's column saying why a grade is no number (an
#: unknown grade's reason: "declined by 2 annotators"; an unrateable one's:
#: "paywall"), so that the printed sheet says it: after the helper columns
#: (AB), printed after the readable ones (the hidden helpers between take no
#: room on the page), written only where some grade has a reason; a person's
#: own columns follow it. Not an input: reopening reads the reasons from the
#: metadata, never from here (:func:`core.io.workbook.candidates.reason_column`).
REASON_COLUMN = len(CANDIDATE_COLUMNS)
REASON_HEADER = "why no grade"
GRADE_COLUMN = "F"

QUERY_COLUMNS = (
    "query", "k", "cutoff no.", "DCG", "ideal DCG", "NDCG", "status", "judged", "total",
    "open (unknown in ideal inventory)", "frequency", "importance", "frequency used",
    "frequency x NDCG", "importance used", "importance x NDCG",
)
#: The Queries sheet's header of each query's text (a column only where
#: some query has one: :attr:`~core.model.document.Document.query_texts`).
QUERY_TEXT = "query text"
#: Its column (R): after the hidden helper column Q (the unresolved so
#: far), so the columns the formulas read stay put.
QUERY_TEXT_COLUMN = 17
#: The "excluded: ..." columns follow the engine's order of exclusions
#: (``core.analysis.aggregate.summarize_values``: by status, then no weight).
SUMMARY_COLUMNS = (
    "weighting", "k", "mean NDCG", "included",
    *(f"excluded: {st.value}" for st in STATUS_BY_CODE[1:]), "excluded: no weight",
    f"excluded: {UNJUDGED}", "weight total", "declared",
)
#: Why a Summary row leaves queries out, in its columns' order.
SUMMARY_EXCLUSIONS = tuple(name.removeprefix("excluded: ") for name in SUMMARY_COLUMNS
                           if name.startswith("excluded: "))


def summary_column(name: str) -> tuple[int, str]:
    """The Summary sheet's column of ``name`` (in :data:`SUMMARY_COLUMNS`):
    its 0-based index and its letter."""
    at = SUMMARY_COLUMNS.index(name)
    return at, chr(ord("A") + at)
COMPARISON_COLUMNS = (
    "query", "k", "cutoff no.", "NDCG A", "status A", "NDCG B", "status B", "delta B - A",
    "outcome (B against A)", "weight (A's, declared weighting)", "paired (1/0)",
    "weight x NDCG A", "weight x NDCG B", "weight x delta",
)
MEANS_COLUMNS = (
    "k", "cutoff no.", "paired queries", "weight total", "mean NDCG A", "mean NDCG B",
    "mean delta B - A", "B wins", "ties", "B loses", "left out: no value in A",
    "left out: no value in B", "left out: no weight", "weighting",
)
RESAMPLING_COLUMNS = (
    "k at export", "cutoff no.", "randomization p-value (two-sided, sign flips)", "method",
    "sign vectors", "seed", "bootstrap interval low", "bootstrap interval high", "confidence",
    "bootstrap resamples", "computed for: paired queries", "computed for: mean delta",
    "still current?",
)
#: Rows (0-based) of the Comparison sheet's parts.
COMPARISON_HEADER_ROW = 7
#: The Annotators sheet's columns: the Candidates columns naming the
#: candidate, each annotator's grade under their name (between the two),
#: then the grade the consensus rule gave at the import (the Candidates
#: sheet's original grade) and how far apart the annotators' grades were.
ANNOTATOR_LEAD = (CANDIDATE_COLUMNS[COLUMN_INDEX["query"]][1],
                  CANDIDATE_COLUMNS[COLUMN_INDEX["source id"]][1])
ANNOTATOR_TAIL = (f"{CANDIDATE_COLUMNS[COLUMN_INDEX['original grade']][1]} "
                  "(the consensus imported)", "spread (highest - lowest grade)")
#: The defined name of the Annotators sheet's first cell: it marks the
#: sheet whatever it is called (a rename in Excel or LibreOffice carries the
#: name along; :func:`core.io.workbook.record.record_sheet`).
RECORD_NAME = "annotators_record"


AUDIT_COLUMNS = ("who", "when", "query", "source id", "from", "to", "note", "origin",
                 "seconds")

#: How a grade of more than two decimals reads in its narrow column (a mean
#: of three annotators' grades, 1.3333333333333333: 1.33; the cell keeps
#: every digit): one or two decimals, alike in Excel, LibreOffice and
#: Gnumeric (``0.##`` printed a whole number typed over it as "2." in
#: Gnumeric and Excel; General printed 1.333333 in LibreOffice's column and
#: 1.3333 in Gnumeric's). Grades of two decimals or fewer, and those below
#: 0.01 in size, which two decimals would show as 0, keep the General
#: format: they read as entered (:func:`core.io.workbook.typed_cells.short_grades`).
SHORT_GRADE_FORMAT = "0.0#"

#: A cached formula result: a number or text.
Cell = float | str


#: The smallest positive float of the normal range (2^-1022).
SMALLEST_NORMAL = float(np.finfo(np.float64).tiny)


def number_form(x: float) -> str:
    """A number as a cell holds it: every digit (Python's shortest form that
    reads back as the same float); below the normal range (a grade 1e-320)
    17 digits: a spreadsheet that reads numbers with more precision than a
    float's (Gnumeric) takes the shortest form for another number ("1e-320"
    is not the float 9.99988671826831e-321: the NDCG of such grades moved by
    6e-8), the 17 digits for the float to 1e-16.

    >>> number_form(0.1 + 0.2), number_form(1e-320), float(number_form(1e-320)) == 1e-320
    ('0.30000000000000004', '9.9998886718268301e-321', True)
    """
    x = float(x)  # (a numpy float's repr names its type)
    return f"{x:.17g}" if 0 < abs(x) < SMALLEST_NORMAL else repr(x)


def written_back(cell: float, value: float) -> bool:
    """Whether a number read from a cell is ``value`` as :func:`number_form`
    wrote it: the same float, or ``value`` rounded to the 15 significant
    digits a spreadsheet keeps when it re-saves the workbook (LibreOffice
    7.4 saves 1.3333333333333333, a mean of three grades, as
    1.33333333333333, and rounds the digits it was given, half up:
    0.7123456789012345, a reranker's score, as 0.712345678901235, where
    ``f"{x:.15g}"`` gives ...234): no edit. Without it every fractional
    grade of a workbook re-saved in LibreOffice was read as edited there
    and logged so, and a sort of whole rows was refused as ids edited.

    >>> written_back(1.33333333333333, 4 / 3), written_back(1.3333, 4 / 3)
    (True, False)
    >>> written_back(0.712345678901235, 0.7123456789012345)
    True
    """
    if cell == value:
        return True
    if not (math.isfinite(value) and math.isfinite(cell)) or value == 0:
        return False
    half = 0.5 * 10.0 ** (math.floor(math.log10(abs(value))) - 14)  # of the 15th digit
    return abs(cell - value) <= half + 2 * math.ulp(value)


def num(x: float) -> Cell:
    """A cached formula result: the number, or "" where the engine has none."""
    return "" if math.isnan(x) else float(x)


class Formats:
    """The cell formats every sheet shares (``_q``: quote-prefixed, for text a
    spreadsheet would otherwise read as a formula)."""

    def __init__(self, wb: Any) -> None:
        #: The workbook is written for an .ods (its rows rendered as ODF:
        #: :mod:`core.io.workbook.ods_writer`), whose text is another font's.
        self.ods = getattr(wb, "rendered_rows", None) is not None
        self.header = wb.add_format({"bold": True, "text_wrap": True, "valign": "top",
                                     "bg_color": "#F2F2F2", "bottom": 1})
        #: A header over numbers (the Report's tables), over their right edge.
        self.header_right = wb.add_format({"bold": True, "text_wrap": True, "valign": "top",
                                           "bg_color": "#F2F2F2", "bottom": 1,
                                           "align": "right"})
        self.text = wb.add_format({})
        self.text_q = wb.add_format({"quote_prefix": True})
        self.wrap = wb.add_format({"text_wrap": True, "valign": "top"})
        self.wrap_q = wb.add_format({"text_wrap": True, "valign": "top", "quote_prefix": True})
        self.edit = wb.add_format({"locked": False, "bg_color": "#FFF2CC"})
        self.edit_q = wb.add_format({"locked": False, "bg_color": "#FFF2CC", "quote_prefix": True})
        #: A grade column holds numbers and words (unknown, unrateable): one
        #: alignment for both, the numbers', on screen and on paper.
        self.grade = wb.add_format({"align": "right"})
        #: Text read beside numbers (a W/T/L count), aligned as they are.
        self.right = wb.add_format({"align": "right"})
        self.edit_grade = wb.add_format({"locked": False, "bg_color": "#FFF2CC", "align": "right"})
        #: The two above for a grade of more digits than its narrow column
        #: shows (:data:`SHORT_GRADE_FORMAT`; the cell keeps every digit).
        self.grade_short = wb.add_format({"align": "right", "num_format": SHORT_GRADE_FORMAT})
        self.edit_grade_short = wb.add_format({"locked": False, "bg_color": "#FFF2CC",
                                               "align": "right",
                                               "num_format": SHORT_GRADE_FORMAT})
        #: The rubric's grades (top-aligned, as the guideline beside each).
        self.grade_top = wb.add_format({"align": "right", "valign": "top"})
        #: Full precision in the cell, four decimals on screen and paper.
        self.number = wb.add_format({"num_format": "0.0000"})
        #: A number of a query whose gains are lifted, read with the factor
        #: that brings it back (used only in a workbook that has one).
        self.lifted = wb.add_format({"num_format": LIFTED_FORMAT})
        self.signed = wb.add_format({"num_format": "+0.0000;-0.0000;0.0000"})
        self.whole = wb.add_format({"num_format": "0"})
        #: The Audit sheet's seconds, top-aligned as its wrapped texts are.
        self.seconds = wb.add_format({"num_format": "0.0", "valign": "top"})
        #: Text top-aligned beside wrapped text (the Audit sheet's who and when).
        self.top = wb.add_format({"valign": "top"})
        self.top_q = wb.add_format({"valign": "top", "quote_prefix": True})
        self.title = wb.add_format({"bold": True, "font_size": 14})
        self.section = wb.add_format({"bold": True, "font_size": 12, "bottom": 1})
        #: A section title too long for one line (:data:`SECTION_WIDER` to measure it).
        self.section_wrap = wb.add_format({"bold": True, "font_size": 12, "bottom": 1,
                                           "text_wrap": True, "valign": "top"})
        self.label = wb.add_format({"bold": True, "valign": "top"})
        conv = {"bg_color": "#DDEBF7", "valign": "top", "text_wrap": True, "align": "left"}
        self.conv = wb.add_format(conv)
        self.conv_q = wb.add_format({**conv, "quote_prefix": True})
        #: A TRUE/FALSE cell shows TRUE or FALSE whatever the reader makes of it.
        self.conv_bool = wb.add_format({**conv, "num_format": '"TRUE";"TRUE";"FALSE"'})
        self.conv_number = wb.add_format(conv)
        #: The number formulas use for k = all reads "all".
        self.k_used = wb.add_format({"num_format": f'[={ALL_K}]"all";0'})
        self.colour = {word: wb.add_format({"font_color": c}) for word, c in (
            *STATUS_COLOURS.items(), *STATE_COLOURS.items())}
        self.outcome = {word: wb.add_format({"bg_color": c}) for word, c in
                        OUTCOME_COLOURS.items()}
        self.declared = wb.add_format({"bold": True})
        #: A row whose annotators disagree: the conditional format of an
        #: .xlsx (:attr:`disagree`), the cells' own formats in an .ods
        #: (:attr:`disagree_cells`: a text, a quote-prefixed text, a grade;
        #: used only there, so that an .xlsx holds no fill of theirs; a grade
        #: read short: :data:`SHORT_GRADE_FORMAT`).
        self.disagree = wb.add_format({"bg_color": DISAGREEMENT_COLOUR})
        self.disagree_cells = tuple(wb.add_format({"bg_color": DISAGREEMENT_COLOUR, **more})
                                    for more in ({}, {"quote_prefix": True}, {"align": "right"},
                                                 {"align": "right",
                                                  "num_format": SHORT_GRADE_FORMAT}))


def sheet_ref(name: str) -> str:
    """A sheet name as formulas write it (quoted when it is not one plain word)."""
    if name.replace("_", "").isalnum() and not name[0].isdigit():
        return name
    return "'" + name.replace("'", "''") + "'"


#: What a text starting with makes a spreadsheet read it as a formula on re-entry.
RISKY = ("=", "+", "-", "@", "\t", "\r", "\n", "\0")


def put_cutoff(ws: Any, fmt: Formats, at: tuple[int, int], j: int, k: int | None) -> None:
    """Cell ``at`` (row, column; 0-based): cutoff ``j`` (0-based) as the
    Conventions sheet holds it (its number, or "all"), its value ``k``
    cached, right-aligned as a number is whichever it reads (on paper "all"
    sat left of the numbers above it)."""
    ws.write_formula(*at, f'=IF(ISNUMBER(cut_{j + 1}),cut_{j + 1},"all")', fmt.right,
                     "all" if k is None else float(k))


def put_text(ws: Any, r: int, c: int, text: str, plain: Any, quoted: Any) -> None:
    """User text always as a string; quote-prefixed when a spreadsheet would
    otherwise read it as a formula on re-entry."""
    ws.write_string(r, c, text, quoted if text.startswith(RISKY) else plain)
