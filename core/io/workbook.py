"""The audited Excel workbook: live formulas, cached results, lossless reopen.

:func:`export_workbook` writes one workbook in which every derived number is a
live formula over the Conventions sheet (change k or the gain rule in Excel or
LibreOffice and everything recomputes) and also carries the engine's own
result as the cached value, so viewers that do not calculate still show the
numbers. A hidden sheet keeps the document as JSON, so that
:func:`read_workbook` restores it exactly and picks up grades edited in the
spreadsheet, logging each as an audit entry from outside the app.

The layout is described in ``docs/workbook.md``. Only Excel-2007 functions are
used (no ``_xlfn.`` prefix), and no array formulas, INDIRECT or OFFSET.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from core.analysis.aggregate import summarize
from core.analysis.compare import TIE_TOLERANCE, Comparison, compare
from core.engine.evaluation import Evaluation, evaluate
from core.errors import InputError
from core.io.atomic import atomic_write
from core.io.safety import (
    EXCEL_MAX_ROWS,
    WorkbookCheck,
    check_xlsx,
    find_formulas,
    formula_rows,
)
from core.model.conventions import Conventions, GainRule, Weighting
from core.model.document import AuditEntry, Document, GradeState
from core.model.grades import PastedGrade, read_grade

__all__ = [
    "CANDIDATE_COLUMNS",
    "COMPARISON_SHEETS",
    "METADATA_FORMAT",
    "SHEETS",
    "export_comparison_workbook",
    "export_workbook",
    "is_own_workbook",
    "read_workbook",
]

FloatArray = npt.NDArray[np.float64]

METADATA_FORMAT = "ndcg-worksheet workbook 1"
SHEETS = {
    "conventions": "Conventions",
    "candidates": "Candidates",
    "queries": "Queries",
    "summary": "Summary",
    "audit": "Audit",
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
OUTSIDE_ORIGIN = "outside the app"

# Candidates sheet: (letter, header). The first fifteen are for people, the
# rest are helper columns the formulas need (grouped and collapsed).
CANDIDATE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("A", "query"),
    ("B", "source id"),
    ("C", "version"),
    ("D", "predicted score"),
    ("E", "original grade"),
    ("F", "current grade"),
    ("G", "grade state"),
    ("H", "note"),
    ("I", "rank"),
    ("J", "transformed gain"),
    ("K", "discount"),
    ("L", "contribution"),
    ("M", "ideal rank"),
    ("N", "ideal gain"),
    ("O", "ideal contribution"),
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
_COL = {header: i for i, (_, header) in enumerate(CANDIDATE_COLUMNS)}
_GRADE_COL = "F"
_NOTE_COL = "H"

QUERY_COLUMNS = (
    "query", "k", "cutoff no.", "DCG", "ideal DCG", "NDCG", "status", "judged", "total",
    "open (unknown in ideal inventory)", "frequency", "importance", "frequency used",
    "frequency x NDCG", "importance used", "importance x NDCG",
)
SUMMARY_COLUMNS = (
    "weighting", "k", "mean NDCG", "included", "excluded: undefined", "excluded: unresolved",
    "excluded: no weight", "weight total", "declared",
)
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
AUDIT_COLUMNS = ("who", "when", "query", "source id", "from", "to", "note", "origin")


# -- cached values -----------------------------------------------------------------------
Cell = float | str


def _num(x: float) -> Cell:
    """A cached formula result: the number, or "" where the engine has none."""
    return "" if math.isnan(x) else float(x)


def _layout(doc: Document, ev: Evaluation) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Sheet row order (document indices) and each query's (start, stop).

    Retrieved candidates come first, in evaluated order; candidates the
    condensed rule removed stay at their score's place (after equal scores);
    judged-but-not-retrieved candidates follow.
    """
    parts: list[np.ndarray] = []
    blocks: list[tuple[int, int]] = []
    start = 0
    for q in range(doc.n_queries):
        members = doc.members(q)
        ranked = ev.ranked(q)
        retrieved = members[~np.isnan(doc.score[members])]
        removed = np.setdiff1d(retrieved, ranked, assume_unique=True)
        removed = removed[np.argsort(np.searchsorted(members, removed), kind="stable")]
        head = np.concatenate([ranked, removed]).astype(np.int64)
        head = head[np.argsort(-doc.score[head], kind="stable")]
        rows = np.concatenate([head, members[np.isnan(doc.score[members])]]).astype(np.int64)
        parts.append(rows)
        blocks.append((start, start + rows.size))
        start += rows.size
    perm = np.concatenate(parts) if parts else np.zeros(0, np.int64)
    return perm, blocks


def _candidate_values(
    doc: Document, ev: Evaluation, perm: np.ndarray, blocks: list[tuple[int, int]]
) -> dict[str, np.ndarray]:
    """The engine's result for every formula column, in sheet order."""
    n = perm.size
    score = doc.score[perm]
    retrieved = ~np.isnan(score)
    ranked = ev.ranked_mask[perm]
    known = doc.state[perm] == GradeState.NUMBER
    gain = ev.gain[perm]
    inventory = ev.inventory_mask[perm]
    tie_group = np.zeros(n, dtype=np.int64)
    so_far = np.zeros(n, dtype=np.int64)
    position = np.zeros(n, dtype=np.int64)
    ideal_gain = np.full(n, np.nan)
    group_id = 0
    for q, (lo, hi) in enumerate(blocks):
        position[lo:hi] = np.arange(1, hi - lo + 1)
        so_far[lo:hi] = np.cumsum(ranked[lo:hi])
        s = score[lo:hi]
        r = retrieved[lo:hi]
        new = np.ones(hi - lo, dtype=bool)
        if hi - lo > 1:
            new[1:] = s[1:] != s[:-1]
        ids = group_id + np.cumsum(new)
        tie_group[lo:hi] = np.where(r, ids, 0)
        group_id = int(ids[-1]) if hi > lo else group_id
        ig = ev.gain[ev.ideal(q)]
        ig = ig[~np.isnan(ig)]
        ideal_gain[lo : lo + ig.size] = ig
    with np.errstate(divide="ignore"):
        pos_discount = np.where(ranked, 1.0 / np.log2(so_far + 1.0), np.nan)
    gain_known = ~np.isnan(gain)
    if ev.conventions.ties.value == "average":
        g = np.where(ranked, tie_group, 0)
        sums = np.bincount(g, weights=np.where(ranked & gain_known, gain, 0.0))
        counts = np.bincount(g, weights=ranked.astype(np.float64))
        unknown = np.bincount(g, weights=(ranked & ~gain_known).astype(np.float64))
        with np.errstate(invalid="ignore", divide="ignore"):
            avg = np.where(unknown[g] > 0, np.nan, sums[g] / counts[g])
        avg_gain = np.where(ranked, avg, np.nan)
    else:
        avg_gain = np.where(ranked, gain, np.nan)
    ideal_contribution = ideal_gain * (1.0 / np.log2(position + 1.0))
    used = np.where(known, doc.grade[perm], np.nan)
    if ev.conventions.gain.truncate:
        used = np.trunc(used)
    return {
        "rank": np.where(ranked, so_far, 0),
        "gain": gain,
        "discount": ev.discount[perm],
        "contribution": ev.contribution[perm],
        "ideal rank": position,
        "ideal gain": ideal_gain,
        "ideal contribution": ideal_contribution,
        "tie group": tie_group,
        "ranked": ranked,
        "ranked so far": so_far,
        "position discount": pos_discount,
        "inventory": inventory,
        "judged": known,
        "gain known": gain_known,
        "inventory gain": np.where(inventory & gain_known, gain, np.nan),
        "avg gain": avg_gain,
        "avg x discount": avg_gain * pos_discount,
        "avg known": ~np.isnan(avg_gain),
        "grade used": used,
    }


# -- formulas ------------------------------------------------------------------------------
#: The gain of row {r}: the grade used (column AA) through the gain rule.
_GAIN = (
    '=IF(G{r}<>"number",IF(unknown_rule="zero",0,""),'
    "IF(negative_gain_zero,MAX(0,{t}),{t}))"
).replace("{t}", 'IF(gain_rule="exponential",POWER(2,AA{r})-1,IF(gain_rule="table",'
          "IF(COUNTIF(gain_grades,AA{r})>0,SUMIF(gain_grades,AA{r},gain_values),AA{r}),AA{r}))")

#: The formulas of a Candidates row: (column index, formula) with the fields
#: {r} (its sheet row), {prev} (the row above) and {J} {P} {Q} {S} {V} {W}:
#: those columns' ranges over the query's block of rows (column M holds the
#: row's position in the block). Column R (ranked so far) starts a block
#: with =Q{r}. Within a block each column's formula is the same but for the
#: row, so the rows share it (Excel's shared formulas).
_FORMULAS: tuple[tuple[int, str], ...] = (
    (6, '=IF(ISNUMBER(F{r}),"number",IF(F{r}="unrateable","unrateable",'
        'IF(OR(F{r}="",F{r}="unknown"),"unknown","invalid")))'),
    (8, '=IF(Q{r}=1,R{r},"")'),
    (9, _GAIN),
    (10, '=IF(Q{r}=1,IF(tie_rule="average",SUMIFS({S},{P},P{r},{Q},1)'
         '/COUNTIFS({P},P{r},{Q},1),S{r}),"")'),
    (11, '=IF(AND(ISNUMBER(J{r}),ISNUMBER(K{r})),J{r}*K{r},"")'),
    (13, '=IF(M{r}<=COUNT({W}),LARGE({W},M{r}),"")'),
    (14, '=IF(ISNUMBER(N{r}),N{r}*(1/LOG(M{r}+1,2)),"")'),
    (16, '=IF(AND(ISNUMBER(D{r}),OR(unknown_rule<>"condensed",G{r}="number")),1,0)'),
    (17, "=R{prev}+Q{r}"),
    (18, '=IF(Q{r}=1,1/LOG(R{r}+1,2),"")'),
    (19, '=IF(OR(Q{r}=1,AND(ideal_rule="judged",NOT(ISNUMBER(D{r})))),'
         'IF(AND(unknown_rule="condensed",U{r}=0),0,1),0)'),
    (20, '=IF(G{r}="number",1,0)'),
    (21, "=IF(ISNUMBER(J{r}),1,0)"),
    (22, '=IF(AND(T{r}=1,ISNUMBER(J{r})),J{r},"")'),
    (23, '=IF(Q{r}=1,IF(tie_rule="average",IF(COUNTIFS({P},P{r},{Q},1,{V},0)>0,"",'
         'SUMIFS({J},{P},P{r},{Q},1)/COUNTIFS({P},P{r},{Q},1)),J{r}),"")'),
    (24, '=IF(ISNUMBER(X{r}),X{r}*S{r},"")'),
    (25, "=IF(ISNUMBER(X{r}),1,0)"),
    (26, '=IF(G{r}="number",IF(truncate_grades,TRUNC(F{r}),F{r}),"")'),
)
_BLOCK_COLUMNS = "JPQSVW"
#: Column R (ranked so far): =Q{r} in a block's first row, shared from its second.
_SO_FAR_COL = 17
_FIRST_SO_FAR = "=Q{r}"


def _block_fields(first: int, last: int) -> dict[str, str]:
    return {c: f"${c}${first}:${c}${last}" for c in _BLOCK_COLUMNS}


def _row_formulas(r: int, first: int, last: int) -> list[tuple[int, str]]:
    """(column index, formula) for sheet row ``r`` (1-based) in block first..last."""
    fields = _block_fields(first, last)
    return [(c, (_FIRST_SO_FAR if c == _SO_FAR_COL and r == first else t).format(
        r=r, prev=r - 1, **fields)) for c, t in _FORMULAS]


# -- export --------------------------------------------------------------------------------
def export_workbook(
    doc: Document, path: str | Path, *, conventions: Conventions | None = None
) -> None:
    """Write ``doc`` as an audited workbook with live formulas.

    Parameters
    ----------
    doc : Document
        The worksheet to export (unchanged).
    path : str or Path
        The ``.xlsx`` to write; replaced atomically.
    conventions : Conventions, optional
        The conventions the formulas start from; defaults to the document's.

    Raises
    ------
    InputError
        When the document cannot be evaluated under the conventions, or the
        file cannot be written.
    """
    conv = conventions or doc.conventions
    ev = evaluate(doc, conv)
    _check_fits(doc, ev, Path(path))
    atomic_write(Path(path), lambda tmp: _write(tmp, doc, ev))


def export_comparison_workbook(
    doc_a: Document,
    doc_b: Document,
    path: str | Path,
    *,
    conventions: Conventions | None = None,
    comparison: Comparison | None = None,
    name_a: str = "",
    name_b: str = "",
    resamples: int = 10000,
    seed: int = 0,
) -> Comparison:
    """Write the audited workbook of run A, run B beside it and a Comparison sheet.

    The sheets of A are those of :func:`export_workbook` (and reopen as A
    with :func:`read_workbook`); B gets its own ``Candidates B``, ``Queries
    B`` and ``Summary B`` written by the same code, so both runs' NDCG are
    live formulas over the one Conventions sheet. The Comparison sheet holds,
    per shared query and cutoff, both NDCG values, the delta B - A and the
    outcome as formulas, then the paired means over the queries defined (and
    weighted) in both as formulas. The randomization p-value and the bootstrap
    interval are values computed at export (resampling is not expressible as
    an Excel 2007 formula), labelled with their resamples and seed, with a
    formula saying whether they still belong to the live numbers.

    Parameters
    ----------
    doc_a, doc_b : Document
        The two runs (unchanged); queries matched by id.
    path : str or Path
        The ``.xlsx`` to write; replaced atomically.
    conventions : Conventions, optional
        Applied to both runs; defaults to ``comparison``'s, else A's.
    comparison : Comparison, optional
        An existing :func:`core.analysis.compare.compare` result of the same two
        documents under the same conventions (saves computing it again).
    name_a, name_b : str
        How the sheet names the runs; default the documents' names.
    resamples, seed : int
        For the randomization test and bootstrap when ``comparison`` is not
        given.

    Returns
    -------
    Comparison
        The comparison written.

    Raises
    ------
    InputError
        When ``comparison`` is of other documents or conventions, the runs
        cannot be evaluated, or the file cannot be written.
    """
    conv = conventions or (comparison.conventions if comparison else doc_a.conventions)
    if comparison is None:
        comparison = compare(doc_a, doc_b, conv, resamples=resamples, seed=seed)
    elif comparison.doc_a is not doc_a or comparison.doc_b is not doc_b:
        raise InputError("the comparison given was computed for other documents",
                         hint="pass the comparison of these two documents, or none")
    elif comparison.conventions != conv:
        raise InputError("the comparison given was computed under other conventions",
                         hint="pass the comparison under these conventions, or none")
    done = comparison
    labels = (name_a or doc_a.name or "run A", name_b or doc_b.name or "run B")
    _check_fits(doc_a, done.ev_a, Path(path))
    _check_fits(done.doc_b, done.ev_b, Path(path))
    atomic_write(Path(path), lambda tmp: _write(tmp, doc_a, done.ev_a, done, labels))
    return done


def _write(
    path: Path, doc: Document, ev: Evaluation, comparison: Comparison | None = None,
    labels: tuple[str, str] = ("", ""),
) -> None:
    import xlsxwriter

    perm, blocks = _layout(doc, ev)
    wb = xlsxwriter.Workbook(
        str(path),
        {
            "constant_memory": True,
            "strings_to_formulas": False,
            "strings_to_numbers": False,
            "strings_to_urls": False,
        },
    )
    wb.worksheet_class = _worksheet_class()
    try:
        fmt = _Formats(wb)
        grades = None
        if comparison is not None:
            b = comparison.doc_b
            grades = np.concatenate([doc.grade[doc.state == GradeState.NUMBER],
                                     b.grade[b.state == GradeState.NUMBER]])
        names = _write_conventions(wb, fmt, doc, ev.conventions, grades)
        cs = COMPARISON_SHEETS
        compared = wb.add_worksheet(cs["comparison"]) if comparison is not None else None
        _write_candidates(wb, fmt, doc, ev, perm, blocks)
        qrows = _write_queries(wb, fmt, doc, ev, blocks)
        _write_summary(wb, fmt, ev, qrows)
        if comparison is not None:
            doc_b, ev_b = comparison.doc_b, comparison.ev_b
            perm_b, blocks_b = _layout(doc_b, ev_b)
            _write_candidates(wb, fmt, doc_b, ev_b, perm_b, blocks_b, cs["candidates_b"])
            qrows_b = _write_queries(wb, fmt, doc_b, ev_b, blocks_b, cs["queries_b"],
                                     cs["candidates_b"])
            _write_summary(wb, fmt, ev_b, qrows_b, cs["summary_b"], cs["queries_b"])
            names.update(_write_comparison(compared, fmt, comparison, labels))
        _write_audit(wb, fmt, doc)
        _write_metadata(wb, doc, ev.conventions, perm)
        for name, ref in names.items():
            wb.define_name(name, ref)
    finally:
        wb.close()


def _check_fits(doc: Document, ev: Evaluation, path: Path) -> None:
    """Refuse a document whose Candidates or Queries rows exceed a sheet."""
    rows = {"Candidates": len(doc), "Queries": doc.n_queries * len(ev.conventions.cutoffs)}
    for sheet, n in rows.items():
        if n > EXCEL_MAX_ROWS - 1:
            raise InputError(
                f"the {sheet} sheet would need {n:,} rows; a workbook sheet holds "
                f"{EXCEL_MAX_ROWS - 1:,} below its header", file=str(path),
                hint="export as CSV, TSV or TREC qrels/run instead, or split the document",
            )


def _worksheet_class() -> Any:
    """xlsxwriter's worksheet, writing numbers with every digit.

    xlsxwriter formats numbers with 16 significant digits, which loses the last
    bit of values like 0.1 + 0.2; Python's shortest round-trip form keeps it.
    """
    from xlsxwriter.worksheet import Worksheet

    class FullPrecisionWorksheet(Worksheet):  # type: ignore[misc]
        def put_rows(self, last_row: int, last_col: int, rows: Iterable[str]) -> None:
            """Rows rendered as ``<row>`` elements (by :func:`_candidate_rows`),
            following the rows written so far, up to ``last_row``."""
            if self._check_dimensions(last_row, last_col):
                raise ValueError(f"cell ({last_row}, {last_col}) is outside a worksheet")
            self._write_single_row(last_row)  # what xlsxwriter holds goes first
            write = self.fh.write
            for xml in rows:
                write(xml)

        def _xml_number_element(
            self, number: float, attributes: Sequence[tuple[str, Any]] = ()
        ) -> None:
            attr = "".join(f' {k}="{self._escape_attributes(v)}"' for k, v in attributes)
            self.fh.write(f"<c{attr}><v>{float(number)!r}</v></c>")

        def _prepare_formula(self, formula: str, expand_future_functions: bool = False) -> str:
            # Our formulas use Excel-2007 functions only, so xlsxwriter's 29
            # regular-expression passes (adding _xlfn. to newer functions) would
            # change nothing; they were 70% of the export's time.
            return formula[1:] if formula.startswith("=") else formula

    return FullPrecisionWorksheet


class _Formats:
    def __init__(self, wb: Any) -> None:
        self.header = wb.add_format({"bold": True, "text_wrap": True, "valign": "top"})
        self.text = wb.add_format({})
        self.text_q = wb.add_format({"quote_prefix": True})
        self.edit = wb.add_format({"locked": False, "bg_color": "#FFF2CC"})
        self.edit_q = wb.add_format({"locked": False, "bg_color": "#FFF2CC", "quote_prefix": True})
        self.number = wb.add_format({"num_format": "0.0000"})
        self.title = wb.add_format({"bold": True, "font_size": 13})
        self.conv = wb.add_format({"bg_color": "#DDEBF7"})
        self.conv_q = wb.add_format({"bg_color": "#DDEBF7", "quote_prefix": True})


def _sheet_ref(name: str) -> str:
    """A sheet name as formulas write it (quoted when it is not one plain word)."""
    if name.replace("_", "").isalnum() and not name[0].isdigit():
        return name
    return "'" + name.replace("'", "''") + "'"


_RISKY = ("=", "+", "-", "@", "\t", "\r", "\n", "\0")


def _put_text(ws: Any, r: int, c: int, text: str, plain: Any, quoted: Any) -> None:
    """User text always as a string; quote-prefixed when a spreadsheet would
    otherwise read it as a formula on re-entry."""
    ws.write_string(r, c, text, quoted if text.startswith(_RISKY) else plain)


def _write_conventions(
    wb: Any, fmt: _Formats, doc: Document, conv: Conventions, grades: FloatArray | None = None
) -> dict[str, str]:
    ws = wb.add_worksheet(SHEETS["conventions"])
    ws.set_column(0, 0, 26)
    ws.set_column(1, 1, 22)
    ws.set_column(2, 2, 90)
    sheet = SHEETS["conventions"]
    names: dict[str, str] = {}
    ws.write_string(0, 0, "Conventions: every NDCG number in this workbook depends on these",
                    fmt.title)
    ws.write_string(1, 0, "convention", fmt.header)
    ws.write_string(1, 1, "value (edit to recompute)", fmt.header)
    ws.write_string(1, 2, "meaning / formula", fmt.header)
    row = 2

    def put(name: str, label: str, value: Any, meaning: str, choices: Sequence[str] = ()) -> None:
        nonlocal row
        ws.write_string(row, 0, label)
        if isinstance(value, bool):
            ws.write_boolean(row, 1, value, fmt.conv)
        elif isinstance(value, int | float):
            ws.write_number(row, 1, value, fmt.conv)
        else:
            _put_text(ws, row, 1, str(value), fmt.conv, fmt.conv_q)
        _put_text(ws, row, 2, meaning, fmt.text, fmt.text_q)
        if choices:
            ws.data_validation(row, 1, row, 1, {"validate": "list", "source": list(choices)})
        names[name] = f"={sheet}!$B${row + 1}"
        row += 1

    g = conv.gain
    put("gain_rule", "gain rule", g.rule.value, g.formula, [m.value for m in GainRule])
    put("negative_gain_zero", "negative gains count as 0", g.negative_as_zero,
        "TRUE: gain = max(gain, 0)")
    put("truncate_grades", "fractional grades truncated", g.truncate,
        "TRUE: grade = trunc(grade) before the gain rule")
    put("discount_rule", "discount", conv.discount.value, conv.discount.formula)
    for j, k in enumerate(conv.cutoffs, start=1):
        put(f"cut_{j}", f"cutoff {j} (k)", k if k is not None else "all",
            "a whole number, or all; the same k cuts the actual and the ideal list")
        ws.write_formula(row - 1, 3, f"=IF(ISNUMBER(cut_{j}),cut_{j},{ALL_K})", None,
                         k if k is not None else ALL_K)
        names[f"cutn_{j}"] = f"={sheet}!$D${row}"
    put("ideal_rule", "ideal inventory", conv.ideal.value, conv.ideal.formula,
        ["ranked", "judged"])
    put("tie_rule", "ties", conv.ties.value,
        conv.ties.formula + " (only average / not average recomputes here: the row order "
        "of the other rules was fixed at export)")
    put("unknown_rule", "unknown grades", conv.unknown.value, conv.unknown.formula,
        ["unresolved", "zero", "condensed"])
    put("zero_ideal_rule", "zero ideal", conv.zero_ideal.value, conv.zero_ideal.formula,
        ["undefined", "zero"])
    put("weighting", "weighting (declared)", conv.weighting.value, conv.weighting.formula,
        [m.value for m in Weighting])
    put("consensus_rule", "consensus", conv.consensus.value, conv.consensus.formula)
    put("rounding_rule", "rounding", conv.rounding.value, conv.rounding.formula)
    put("rubric_text", "rubric", conv.rubric.text if conv.rubric else "",
        "the permitted grades (below); grades outside it are flagged, not dropped")
    put("judgment_version", "judgment version", doc.judgment_version,
        "the version of the judgments these grades come from")
    put("preset", "preset", conv.preset or "", "the starting point these conventions came from")
    put("document_name", "ranked list", doc.name, "the document's name")

    row += 1
    ws.write_string(row, 0, "gain table: grade", fmt.header)
    ws.write_string(row, 1, "gain", fmt.header)
    ws.write_string(row, 2, "used when the gain rule is 'table'; other grades keep gain = grade",
                    fmt.header)
    row += 1
    first = row
    for grade, gain in g.table:
        ws.write_number(row, 0, grade, fmt.conv)
        ws.write_number(row, 1, gain, fmt.conv)
        row += 1
    row += GAIN_TABLE_SPARE
    names["gain_grades"] = f"={sheet}!$A${first + 1}:$A${row}"
    names["gain_values"] = f"={sheet}!$B${first + 1}:$B${row}"

    row += 1
    if grades is None:
        grades = doc.grade[doc.state == GradeState.NUMBER]
    rubric = conv.rubric_for(grades)
    ws.write_string(row, 0, "rubric: grade", fmt.header)
    ws.write_string(row, 1, "label", fmt.header)
    ws.write_string(row, 2, "the current-grade dropdown offers these and unknown, unrateable",
                    fmt.header)
    row += 1
    first = row
    for rg in rubric.grades:
        ws.write_number(row, 0, rg.value)
        _put_text(ws, row, 1, rg.label, fmt.text, fmt.text_q)
        row += 1
    for word in ("unknown", "unrateable"):
        ws.write_string(row, 0, word)
        row += 1
    names["grade_list"] = f"={sheet}!$A${first + 1}:$A${row}"
    return names


def _write_candidates(
    wb: Any, fmt: _Formats, doc: Document, ev: Evaluation, perm: np.ndarray,
    blocks: list[tuple[int, int]], sheet: str = SHEETS["candidates"],
) -> None:
    ws = wb.add_worksheet(sheet)
    ws.freeze_panes(1, 2)
    ws.set_column(0, 1, 16)
    ws.set_column(7, 7, 24)
    ws.set_column(8, 14, 12)
    ws.set_column(15, len(CANDIDATE_COLUMNS) - 1, 12, None, {"level": 1, "hidden": True})
    for c, (_, header) in enumerate(CANDIDATE_COLUMNS):
        ws.write_string(0, c, header, fmt.header)
    n = perm.size
    if n:
        _put_candidate_rows(ws, fmt, doc, ev, perm, blocks)
        ws.data_validation(1, 5, n, 5, {
            "validate": "list", "source": "=grade_list", "error_type": "warning",
            "error_title": "Not a rubric grade",
            "error_message": "Enter a rubric grade, unknown or unrateable.",
        })
    ws.protect("", {"autofilter": True, "format_columns": True})


def _put_candidate_rows(ws: Any, fmt: _Formats, doc: Document, ev: Evaluation,
                        perm: np.ndarray, blocks: list[tuple[int, int]]) -> None:
    """The Candidates sheet's data rows, below its header row."""
    ws.put_rows(perm.size, len(CANDIDATE_COLUMNS) - 1, _candidate_rows(doc, ev, perm, blocks, fmt))


# -- the Candidates rows, rendered ---------------------------------------------------------
# A row of the Candidates sheet is 27 cells, 18 of them formulas; xlsxwriter's
# per-cell path (a tuple stored, then one method call, attribute list and
# escape pass per cell) was most of the export's time. The rows are rendered
# here instead, from one template per query block, into exactly the XML
# xlsxwriter writes for the same calls (inline strings in constant-memory
# mode; tests/test_workbook_rows.py compares the two).

#: Text that needs more than a plain copy: XML specials, control characters,
#: a literal ``_xHHHH_`` (Excel's own escape), or whitespace at either end.
_SPECIAL_TEXT = re.compile(r"[&<>\x00-\x08\x0b-\x1f]|_x[0-9a-fA-F]{4}_|^\s|\s$")


def _escape_xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _inline_text(text: str) -> tuple[str, str]:
    """The ``<t>`` attribute and content of an inline string cell, as
    xlsxwriter writes them: cut to Excel's 32,767 UTF-16 units, control
    characters as ``_xHHHH_``, whitespace at an end preserved. Text is never
    read as markup (xlsxwriter passes text shaped ``<r>...</r>`` through as
    rich-text XML; here it stays text)."""
    if len(text) < 16_384 and not _SPECIAL_TEXT.search(text):
        return "", text
    from xlsxwriter.utility import _preserve_whitespace, _utf16_len, _utf16_truncate
    from xlsxwriter.xmlwriter import XMLwriter

    if len(text) > 16_383 and _utf16_len(text) > 32_767:
        text = _utf16_truncate(text, 32_767)
    text = XMLwriter._escape_control_characters(text)
    return (' xml:space="preserve"' if _preserve_whitespace(text) else ""), _escape_xml(text)


def _text_columns(values: Sequence[str], plain: int, quoted: int,
                  ) -> tuple[list[int], list[str], list[str]]:
    """Per cell: style index (quoted when a spreadsheet would read the text as
    a formula on re-entry), ``<t>`` attribute and content."""
    seen: dict[str, tuple[int, str, str]] = {}
    out = []
    for text in values:
        got = seen.get(text)
        if got is None:
            got = seen[text] = (quoted if text.startswith(_RISKY) else plain, *_inline_text(text))
        out.append(got)
    styles, attrs, texts = zip(*out, strict=True) if out else ((), (), ())
    return list(styles), list(attrs), list(texts)


def _number_text(values: npt.ArrayLike, empty: npt.NDArray[np.bool_] | None = None,
                 ) -> list[str]:
    """Numbers as written (every digit); "" where NaN or ``empty``."""
    a = np.asarray(values, dtype=np.float64)
    out = list(map(repr, a.tolist()))
    blank = np.isnan(a) if empty is None else np.isnan(a) | empty
    for i in np.flatnonzero(blank).tolist():
        out[i] = ""
    return out


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


def _row_templates() -> _Templates:
    """See :class:`_Templates`. Besides the positional fields, the block's
    ranges ({J} ...), each shared formula's range ({ref<c>}) and index
    ({si<c>}) are filled in per block."""
    letters = [c for c, _ in CANDIDATE_COLUMNS]
    formulas = dict(_FORMULAS)
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
        body = _escape_xml(template[1:])
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
            elif c == _SO_FAR_COL:
                cells.append(formula(c, so_far_how, so_far))
            else:
                cells.append(formula(c, how, formulas[c]))
        cells.append("</row>")
        return "".join(cells)

    later = formulas[_SO_FAR_COL]
    out = [row("plain", "plain", _FIRST_SO_FAR), row("master", "plain", _FIRST_SO_FAR),
           row("shared", "master", later), row("shared", "plain", later),
           row("shared", "shared", later)]
    for i, name in enumerate(names):  # positional fields format faster
        out = [t.replace("{" + name + "}", "{" + str(i) + "}") for t in out]
    single, first, second, second_of_two, other = out
    return _Templates(single, first, second, second_of_two, other, tuple(names))


def _block_templates(t: _Templates, first: int, last: int, si: int) -> tuple[str, ...]:
    """The templates of one block (sheet rows first..last) with its ranges,
    and its shared formulas numbered from ``si``."""
    out = [t.single, t.first, t.second, t.second_of_two, t.other]
    letters = [c for c, _ in CANDIDATE_COLUMNS]
    fill = {"{" + k + "}": v for k, v in _block_fields(first, last).items()}
    for n, (c, _) in enumerate(_FORMULAS):
        top = first + 1 if c == _SO_FAR_COL else first
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
    fmt: _Formats,
) -> Iterator[str]:
    """The Candidates sheet's data rows as XML, a batch of whole query blocks
    at a time: user text as strings, numbers with every digit, the formulas
    of :data:`_FORMULAS` with the engine's results cached."""
    score = doc.score[perm]
    if np.isinf(score).any():
        raise InputError("a predicted score is infinite, which a workbook cannot hold",
                         hint="give the candidate a finite score or none")
    vals = _candidate_values(doc, ev, perm, blocks)
    styles = (fmt.text._get_xf_index(), fmt.text_q._get_xf_index(),
              fmt.edit._get_xf_index(), fmt.edit_q._get_xf_index())
    templates = _row_templates()
    names = templates.names
    si = 0
    batch: list[tuple[int, int]] = []
    for k, (lo, hi) in enumerate(blocks):
        if hi > lo:
            batch.append((lo, hi))
        if batch and (k == len(blocks) - 1 or hi - batch[0][0] >= _ROWS_PER_BATCH):
            a, b = batch[0][0], batch[-1][1]
            fields = _row_fields(doc, perm[a:b], score[a:b],
                                 {key: v[a:b] for key, v in vals.items()}, a + 2, styles)
            rows = zip(*(fields[name] for name in names), strict=True)
            piece: list[str] = []
            for lo_b, hi_b in batch:
                n = hi_b - lo_b
                single, first, second, second_of_two, other = _block_templates(
                    templates, lo_b + 2, hi_b + 1, si)
                if n == 1:
                    piece.append(single.format(*next(rows)))
                    continue
                si += len(_FORMULAS)
                piece.append(first.format(*next(rows)))
                piece.append((second if n > 2 else second_of_two).format(*next(rows)))
                fill = other.format
                piece.extend(fill(*args) for args in itertools.islice(rows, n - 2))
            yield "".join(piece)
            batch = []


def _row_fields(doc: Document, perm: np.ndarray, score: FloatArray, vals: dict[str, np.ndarray],
                first_row: int, styles: tuple[int, int, int, int]) -> dict[str, Sequence[Any]]:
    """The fields of :func:`_row_templates` for consecutive sheet rows from
    ``first_row`` on, one list per field."""
    n = perm.size
    excel_row = list(range(first_row, first_row + n))
    out: dict[str, Sequence[Any]] = {"r": excel_row, "prev": [r - 1 for r in excel_row]}
    text_fmt, text_q, edit, edit_q = styles
    qids = doc.query_ids
    for c, values, plain, quoted in (
        (0, [qids[q] for q in doc.query[perm].tolist()], text_fmt, text_q),
        (1, doc.source_id[perm].tolist(), text_fmt, text_q),
        (2, doc.version[perm].tolist(), text_fmt, text_q),
        (7, doc.note[perm].tolist(), edit, edit_q),
    ):
        out[f"s{c}"], out[f"p{c}"], out[f"t{c}"] = _text_columns(values, plain, quoted)

    labels = {int(s): f't="inlineStr"><is><t>{GradeState(int(s)).label}</t></is></c>'
              for s in GradeState}

    def graded(col: str, grade: np.ndarray, state: np.ndarray, style: str) -> list[str]:
        shown = _number_text(np.where(state == GradeState.NUMBER, grade, 0.0))
        return [f'<c r="{col}{r}"{style}><v>{g}</v></c>' if s == GradeState.NUMBER
                else f'<c r="{col}{r}"{style} {labels[s]}'
                for r, g, s in zip(excel_row, shown, state.tolist(), strict=True)]

    out["c3"] = [f'<c r="D{r}"><v>{v}</v></c>' if v else "" for r, v in zip(
        excel_row, _number_text(score), strict=True)]
    out["c4"] = graded("E", doc.original_grade[perm], doc.original_state[perm], "")
    out["c5"] = graded("F", doc.grade[perm], doc.state[perm], f' s="{edit}"')
    out["c12"] = [f'<c r="M{r}"><v>{v}</v></c>' for r, v in zip(
        excel_row, _number_text(vals["ideal rank"]), strict=True)]
    tie = vals["tie group"]
    out["c15"] = [f'<c r="P{r}"><v>{v}</v></c>' if v else "" for r, v in zip(
        excel_row, _number_text(tie, tie == 0), strict=True)]
    out["v6"] = np.array(["number", "unknown", "unrateable"], dtype=object)[
        doc.state[perm]].tolist()
    rank = vals["rank"]
    out["v8"] = _number_text(rank, rank == 0)
    for c, key in ((9, "gain"), (10, "discount"), (11, "contribution"), (13, "ideal gain"),
                   (14, "ideal contribution"), (18, "position discount"),
                   (22, "inventory gain"), (23, "avg gain"), (24, "avg x discount"),
                   (26, "grade used")):
        out[f"v{c}"] = _number_text(vals[key])
    for c, key in ((16, "ranked"), (17, "ranked so far"), (19, "inventory"), (20, "judged"),
                   (21, "gain known"), (25, "avg known")):
        out[f"v{c}"] = _number_text(vals[key].astype(np.float64))
    return out


def _write_queries(
    wb: Any, fmt: _Formats, doc: Document, ev: Evaluation, blocks: list[tuple[int, int]],
    sheet: str = SHEETS["queries"], candidates: str = SHEETS["candidates"],
) -> int:
    ws = wb.add_worksheet(sheet)
    cands = _sheet_ref(candidates)
    ws.freeze_panes(1, 1)
    ws.set_column(0, 0, 18)
    ws.set_column(1, len(QUERY_COLUMNS) - 1, 12)
    for c, header in enumerate(QUERY_COLUMNS):
        ws.write_string(0, c, header, fmt.header)
    r = 1
    for q, (lo, hi) in enumerate(blocks):
        first, last = lo + 2, hi + 1

        def blk(col: str, first: int = first, last: int = last) -> str:
            return f"{cands}!${col}${first}:${col}${last}"

        for j, k in enumerate(ev.cutoffs):
            x = r + 1
            kn = f"cutn_{j + 1}"
            status = ev.status(q, j).value
            ws.write_string(r, 0, doc.query_ids[q])
            ws.write_formula(r, 1, f'=IF(ISNUMBER(cut_{j + 1}),cut_{j + 1},"all")', None,
                             float(k) if k is not None else "all")
            ws.write_number(r, 2, j + 1)
            ws.write_formula(
                r, 3, f'=IF(COUNTIFS({blk("I")},"<="&{kn},{blk("Z")},0)>0,"",'
                f'SUMIFS({blk("Y")},{blk("I")},"<="&{kn}))', None, _num(ev.dcg[q, j]))
            ws.write_formula(r, 4, f'=IF(J{x}>0,"",SUMIFS({blk("O")},{blk("M")},"<="&{kn}))',
                             None, _num(ev.idcg[q, j]))
            ws.write_formula(
                r, 5, f'=IF(J{x}>0,"",IF(E{x}=0,IF(zero_ideal_rule="zero",0,""),D{x}/E{x}))',
                None, _num(ev.ndcg[q, j]))
            ws.write_formula(
                r, 6, f'=IF(J{x}>0,"unresolved",IF(AND(E{x}=0,zero_ideal_rule<>"zero"),'
                f'"undefined","ok"))', None, status)
            ws.write_formula(r, 7, f'=SUM({blk("U")})', None, float(ev.n_judged[q]))
            ws.write_formula(r, 8, f'=ROWS({blk("A")})', None, float(ev.n_total[q]))
            ws.write_formula(
                r, 9, f'=IF(unknown_rule="unresolved",COUNTIFS({blk("T")},1,{blk("U")},0),0)',
                None, float(ev.n_open[q]))
            nd = ev.ndcg[q, j]
            for wcol, used, prod, weights in ((10, "M", 13, doc.frequency),
                                              (11, "O", 15, doc.importance)):
                w = float(weights[q])
                letter = "K" if wcol == 10 else "L"
                if not math.isnan(w):
                    ws.write_number(r, wcol, w)
                use = not math.isnan(nd) and not math.isnan(w) and w > 0
                ws.write_formula(r, prod - 1, f'=IF(AND(G{x}="ok",ISNUMBER({letter}{x}),'
                                 f'{letter}{x}>0),{letter}{x},"")', None, w if use else "")
                ws.write_formula(r, prod, f'=IF(ISNUMBER({used}{x}),{used}{x}*F{x},"")', None,
                                 w * nd if use else "")
            r += 1
    return r


def _write_summary(
    wb: Any, fmt: _Formats, ev: Evaluation, qrows: int, sheet: str = SHEETS["summary"],
    queries: str = SHEETS["queries"],
) -> None:
    ws = wb.add_worksheet(sheet)
    ws.set_column(0, 0, 14)
    ws.set_column(1, len(SUMMARY_COLUMNS) - 1, 14)
    for c, header in enumerate(SUMMARY_COLUMNS):
        ws.write_string(0, c, header, fmt.header)
    qs = _sheet_ref(queries)

    def col(letter: str) -> str:
        return f"{qs}!${letter}$2:${letter}${max(qrows, 2)}"

    cut, status = col("C"), col("G")
    r = 1
    for weighting in Weighting:
        for s, k in zip(summarize(ev, weighting), ev.cutoffs, strict=True):
            j = ev.cutoffs.index(k) + 1
            x = r + 1
            ws.write_string(r, 0, weighting.value)
            ws.write_formula(r, 1, f'=IF(ISNUMBER(cut_{j}),cut_{j},"all")', None,
                             float(k) if k is not None else "all")
            und = f'=COUNTIFS({cut},{j},{status},"undefined")'
            unr = f'=COUNTIFS({cut},{j},{status},"unresolved")'
            if weighting is Weighting.EQUAL:
                inc = f'=COUNTIFS({cut},{j},{status},"ok")'
                mean = f'=IF(D{x}>0,SUMIFS({col("F")},{cut},{j},{status},"ok")/D{x},"")'
                nowt = "=0"
                total = f"=D{x}"
            else:
                used, prod = (("M", "N") if weighting is Weighting.FREQUENCY else ("O", "P"))
                inc = f'=COUNTIFS({cut},{j},{col(used)},">0")'
                total = f"=SUMIFS({col(used)},{cut},{j})"
                mean = f'=IF(H{x}>0,SUMIFS({col(prod)},{cut},{j})/H{x},"")'
                nowt = f'=COUNTIFS({cut},{j},{status},"ok")-D{x}'
            ws.write_formula(r, 2, mean, fmt.number, s.mean if s.mean is not None else "")
            ws.write_formula(r, 3, inc, None, float(s.included))
            ws.write_formula(r, 4, und, None, float(s.excluded.get("undefined", 0)))
            ws.write_formula(r, 5, unr, None, float(s.excluded.get("unresolved", 0)))
            ws.write_formula(r, 6, nowt, None, float(s.excluded.get("no weight", 0)))
            ws.write_formula(r, 7, total, None, float(s.weight_total))
            declared = weighting is ev.conventions.weighting
            ws.write_formula(r, 8, f'=IF(weighting="{weighting.value}","declared","")', None,
                             "declared" if declared else "")
            r += 1


def _write_comparison(
    ws: Any, fmt: _Formats, c: Comparison, labels: tuple[str, str]
) -> dict[str, str]:
    """The Comparison sheet; returns the names it defines."""
    sheet = _sheet_ref(COMPARISON_SHEETS["comparison"])
    qa_sheet, qb_sheet = _sheet_ref(SHEETS["queries"]), _sheet_ref(COMPARISON_SHEETS["queries_b"])
    conv = c.conventions
    cutoffs = conv.cutoffs
    ncut = len(cutoffs)
    ws.set_column(0, 0, 20)
    ws.set_column(1, len(COMPARISON_COLUMNS) - 1, 13)
    ws.write_string(0, 0, "Comparison: B - A, both runs evaluated under the Conventions sheet",
                    fmt.title)
    for row, (what, text) in enumerate(
        (("run A", labels[0]), ("run B", labels[1]),
         ("what changed (at export)", c.changes.sentence()),
         ("reopening", "NDCG Worksheet reopens this workbook as run A (with grades edited in "
          "Candidates); grades edited in Candidates B recompute here but are not read back")),
        start=1,
    ):
        ws.write_string(row, 0, what)
        _put_text(ws, row, 1, text, fmt.text, fmt.text_q)
    ws.write_string(5, 0, "tie tolerance")
    ws.write_number(5, 1, TIE_TOLERANCE, fmt.conv)
    ws.write_string(5, 2, "a |delta| up to this is a tie (floating-point noise, not a change)")
    names = {"tie_tolerance": f"={sheet}!$B$6"}
    top = COMPARISON_HEADER_ROW
    for col, header in enumerate(COMPARISON_COLUMNS):
        ws.write_string(top, col, header, fmt.header)
    ws.freeze_panes(top + 1, 1)
    if conv.weighting is Weighting.EQUAL:
        weights = np.ones(len(c.common))
    else:
        w = c.doc_a.frequency if conv.weighting is Weighting.FREQUENCY else c.doc_a.importance
        weights = np.asarray(w, dtype=np.float64)[c.qa]
    has_w = ~np.isnan(weights) & (weights > 0)

    def k_formula(j: int) -> str:
        return f'=IF(ISNUMBER(cut_{j + 1}),cut_{j + 1},"all")'

    def k_value(k: int | None) -> Cell:
        return float(k) if k is not None else "all"

    r = top + 1
    first = r + 1
    for i, query in enumerate(c.common):
        qa, qb = int(c.qa[i]), int(c.qb[i])
        for j, k in enumerate(cutoffs):
            x = r + 1
            ra, rb = 2 + qa * ncut + j, 2 + qb * ncut + j
            na, nb, d = float(c.ndcg_a[i, j]), float(c.ndcg_b[i, j]), float(c.delta[i, j])
            paired = bool(has_w[i]) and not math.isnan(d)
            if math.isnan(d):
                outcome = "not comparable"
            else:
                outcome = "win" if d > TIE_TOLERANCE else "loss" if d < -TIE_TOLERANCE else "tie"
            wq = float(weights[i])
            _put_text(ws, r, 0, query, fmt.text, fmt.text_q)
            ws.write_formula(r, 1, k_formula(j), None, k_value(k))
            ws.write_number(r, 2, j + 1)
            for col, ref, value in ((3, f"{qa_sheet}!$F${ra}", na), (5, f"{qb_sheet}!$F${rb}", nb)):
                ws.write_formula(r, col, f'=IF(ISNUMBER({ref}),{ref},"")', fmt.number,
                                 _num(value))
            ws.write_formula(r, 4, f"={qa_sheet}!$G${ra}", None, c.ev_a.status(qa, j).value)
            ws.write_formula(r, 6, f"={qb_sheet}!$G${rb}", None, c.ev_b.status(qb, j).value)
            ws.write_formula(r, 7, f'=IF(AND(ISNUMBER(D{x}),ISNUMBER(F{x})),F{x}-D{x},"")',
                             fmt.number, _num(d))
            ws.write_formula(
                r, 8, f'=IF(ISNUMBER(H{x}),IF(H{x}>tie_tolerance,"win",'
                f'IF(H{x}<-tie_tolerance,"loss","tie")),"not comparable")', None, outcome)
            freq, imp = f"{qa_sheet}!$K${ra}", f"{qa_sheet}!$L${ra}"
            ws.write_formula(
                r, 9, f'=IF(weighting="equal",1,IF(weighting="frequency",'
                f'IF(ISNUMBER({freq}),{freq},""),IF(ISNUMBER({imp}),{imp},"")))', None,
                _num(wq))
            ws.write_formula(r, 10, f"=IF(AND(ISNUMBER(H{x}),ISNUMBER(J{x})),IF(J{x}>0,1,0),0)",
                             None, 1.0 if paired else 0.0)
            for col, letter, value in ((11, "D", na), (12, "F", nb), (13, "H", d)):
                ws.write_formula(r, col, f"=IF(K{x}=1,J{x}*{letter}{x},0)", None,
                                 wq * value if paired else 0.0)
            r += 1
    last = max(r, first)

    def rng(col: str) -> str:
        return f"${col}${first}:${col}${last}"

    cut = rng("C")
    r += 1
    ws.write_string(r, 0, "Paired means over the queries with NDCG defined in both runs and a "
                    "weight (formulas; weights are run A's under the declared weighting)",
                    fmt.header)
    r += 1
    for col, header in enumerate(MEANS_COLUMNS):
        ws.write_string(r, col, header, fmt.header)
    r += 1
    means_row: list[int] = []
    for j, k in enumerate(cutoffs):
        x = r + 1
        means_row.append(x)
        t = c.tests[j]
        paired_j = has_w & ~np.isnan(c.delta[:, j])
        total = float(weights[paired_j].sum())
        ws.write_formula(r, 0, k_formula(j), None, k_value(k))
        ws.write_number(r, 1, j + 1)
        ws.write_formula(r, 2, f"=COUNTIFS({cut},{j + 1},{rng('K')},1)", None, float(t.n))
        ws.write_formula(r, 3, f"=SUMIFS({rng('J')},{cut},{j + 1},{rng('K')},1)", None, total)
        for col, letter, mean in ((4, "L", t.mean_a), (5, "M", t.mean_b),
                                  (6, "N", t.mean_delta)):
            ws.write_formula(r, col, f'=IF(C{x}>0,SUMIFS({rng(letter)},{cut},{j + 1})/D{x},"")',
                             fmt.number, "" if mean is None else mean)
        for col, word, value in ((7, "win", t.wins), (8, "tie", t.ties), (9, "loss", t.losses)):
            ws.write_formula(r, col, f'=COUNTIFS({cut},{j + 1},{rng("K")},1,{rng("I")},"{word}")',
                             None, float(value))
        status_a, status_b = rng("E"), rng("G")
        ws.write_formula(r, 10, f'=COUNTIFS({cut},{j + 1},{status_a},"<>ok")', None,
                         float(t.excluded.get("without a value in A", 0)))
        ws.write_formula(r, 11, f'=COUNTIFS({cut},{j + 1},{status_a},"ok",{status_b},"<>ok")',
                         None, float(t.excluded.get("without a value in B", 0)))
        ws.write_formula(
            r, 12, f'=COUNTIFS({cut},{j + 1},{status_a},"ok",{status_b},"ok",{rng("K")},0)',
            None, float(t.excluded.get("without a weight", 0)))
        ws.write_formula(r, 13, "=weighting", None, conv.weighting.value)
        r += 1

    r += 1
    ws.write_string(
        r, 0, "Randomization test and bootstrap interval: values computed by NDCG Worksheet at "
        "export, not formulas (drawing thousands of random resamples cannot be written as an "
        "Excel 2007 formula). They do not follow edits to the Conventions sheet or to grades; "
        "'still current?' compares the live paired count and mean delta with those they were "
        "computed for.", fmt.header)
    r += 1
    for col, header in enumerate(RESAMPLING_COLUMNS):
        ws.write_string(r, col, header, fmt.header)
    r += 1
    for j, k in enumerate(cutoffs):
        x, m = r + 1, means_row[j]
        t = c.tests[j]
        if k is None:
            ws.write_string(r, 0, "all")
        else:
            ws.write_number(r, 0, k)
        ws.write_number(r, 1, j + 1)
        for col, stat in ((2, t.p_value), (6, t.ci_low), (7, t.ci_high), (11, t.mean_delta)):
            if stat is None:
                ws.write_string(r, col, "")
            else:
                ws.write_number(r, col, stat, fmt.number if col != 2 else None)
        ws.write_string(r, 3, t.method)
        ws.write_number(r, 4, t.resamples)
        ws.write_number(r, 5, t.seed)
        ws.write_number(r, 8, t.confidence)
        ws.write_number(r, 9, t.bootstrap_resamples)
        ws.write_number(r, 10, t.n)
        ws.write_formula(
            r, 12, f'=IF(AND(C{m}=K{x},IF(ISNUMBER(G{m}),IF(ISNUMBER(L{x}),'
            f'ABS(G{m}-L{x})<=tie_tolerance,FALSE),NOT(ISNUMBER(L{x})))),"current",'
            f'"stale: compare again in the app")', None, "current")
        r += 1

    for title, queries in (("queries only in A (not compared)", c.only_a),
                           ("queries only in B (not compared)", c.only_b)):
        r += 1
        ws.write_string(r, 0, f"{title}: {len(queries)}", fmt.header)
        for q in queries:
            r += 1
            _put_text(ws, r, 0, q, fmt.text, fmt.text_q)
        r += 1
    return names


def _write_audit(wb: Any, fmt: _Formats, doc: Document) -> None:
    ws = wb.add_worksheet(SHEETS["audit"])
    ws.set_column(0, len(AUDIT_COLUMNS) - 1, 16)
    for c, header in enumerate(AUDIT_COLUMNS):
        ws.write_string(0, c, header, fmt.header)
    for r, e in enumerate(doc.audit, start=1):
        for c, text in enumerate(
            (e.who, e.when, e.query, e.source_id, e.before, e.after, e.note, e.origin)
        ):
            _put_text(ws, r, c, text, fmt.text, fmt.text_q)


# -- metadata ------------------------------------------------------------------------------
def _floats(a: FloatArray) -> list[float | None]:
    return [None if math.isnan(x) else x for x in np.asarray(a, dtype=np.float64).tolist()]


def _metadata(doc: Document, conv: Conventions, perm: np.ndarray) -> dict[str, Any]:
    return {
        "format": METADATA_FORMAT,
        "query_ids": list(doc.query_ids),
        "query": doc.query.tolist(),
        "source_id": [str(s) for s in doc.source_id.tolist()],
        "version": [str(s) for s in doc.version.tolist()],
        "score": _floats(doc.score),
        "grade": _floats(doc.grade),
        "state": doc.state.astype(int).tolist(),
        "original_grade": _floats(doc.original_grade),
        "original_state": doc.original_state.astype(int).tolist(),
        "note": [str(s) for s in doc.note.tolist()],
        "reason": [str(s) for s in doc.reason.tolist()],
        "frequency": _floats(doc.frequency),
        "importance": _floats(doc.importance),
        "conventions": doc.conventions.to_dict(),
        "workbook_conventions": conv.to_dict(),
        "judgment_version": doc.judgment_version,
        "name": doc.name,
        "audit": [
            [e.who, e.when, e.query, e.source_id, e.before, e.after, e.note, e.origin]
            for e in doc.audit
        ],
        "annotators": list(doc.annotators),
        "ratings": None if doc.ratings is None else [_floats(r) for r in doc.ratings],
        "ratings_shape": None if doc.ratings is None else list(doc.ratings.shape),
        "sheet_rows": perm.tolist(),
    }


def _write_metadata(wb: Any, doc: Document, conv: Conventions, perm: np.ndarray) -> None:
    ws = wb.add_worksheet(SHEETS["metadata"])
    # ASCII-only JSON, and "_x" escaped so that no reader takes it for an
    # OOXML character escape (_x000D_).
    text = json.dumps(_metadata(doc, conv, perm), ensure_ascii=True, allow_nan=False)
    text = text.replace("_x", "\\u005fx")
    chunks = [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)] or [""]
    ws.write_string(0, 0, METADATA_FORMAT)
    ws.write_string(0, 1, str(len(chunks)))
    ws.write_string(0, 2, "Kept by NDCG Worksheet to reopen this workbook exactly; do not edit.")
    for i, chunk in enumerate(chunks, start=1):
        ws.write_string(i, 0, chunk)
    ws.hide()


# -- reading -------------------------------------------------------------------------------
_NOT_OURS = "this is not an NDCG Worksheet workbook"


def read_workbook(path: str | Path) -> Document:
    """Reopen a workbook written by :func:`export_workbook`.

    Everything is restored from the hidden metadata sheet. Current grades and
    notes edited in the spreadsheet are taken from the Candidates sheet; each
    changed grade is logged as an :class:`AuditEntry` with origin
    ``"outside the app"`` and who ``"spreadsheet edit"``. The sheets are read
    with python-calamine; a grade cell holding a formula is found by
    :func:`core.io.safety.formula_rows` (calamine gives values only).

    Raises
    ------
    InputError
        If the file is unsafe or damaged, is not one of our workbooks (its
        metadata is missing or does not match), or an edited grade cell holds
        something that is not a grade (naming sheet, row and column).
    """
    path = Path(path)
    name = str(path)
    check = check_xlsx(path)
    sheet = SHEETS["metadata"]
    with _reading(name, lambda: sheet), _calamine(path) as book:
        meta = _read_metadata(_sheet_rows(book, check, sheet), name)
        doc = _document_from_metadata(meta, name)
        sheet = SHEETS["candidates"]
        if sheet not in check.parts:
            raise InputError(f"the workbook has no {sheet!r} sheet", file=name,
                             hint="the sheet was renamed or deleted; restore it")
        rows = _sheet_rows(book, check, sheet)
        _apply_edits(rows, _grade_formula_rows(path, check), doc, meta, name)
    return doc


def is_own_workbook(path: str | Path) -> bool:
    """Whether ``path`` carries this app's metadata as :func:`read_workbook`
    needs it (only the metadata sheet is read).

    Raises
    ------
    InputError
        If the file is unsafe or damaged.
    """
    path = Path(path)
    name = str(path)
    check = check_xlsx(path)
    try:
        with _reading(name, lambda: SHEETS["metadata"]), _calamine(path) as book:
            _read_metadata(_sheet_rows(book, check, SHEETS["metadata"]), name)
    except InputError as exc:
        if exc.problem.startswith(_NOT_OURS):
            return False
        raise
    return True


@contextmanager
def _reading(name: str, sheet: Callable[[], str]) -> Iterator[None]:
    """Any failure of the reader becomes an InputError naming the file and
    the sheet being read."""
    try:
        yield
    except InputError:
        raise
    except Exception as exc:  # calamine's own error classes vary by version
        raise InputError(
            f"the workbook cannot be read: {type(exc).__name__}: {exc}", file=name,
            sheet=sheet(), hint="open it in Excel or LibreOffice and save it again",
        ) from exc


@contextmanager
def _calamine(path: Path) -> Iterator[Any]:
    """The workbook opened once for every sheet read from it."""
    import python_calamine

    with python_calamine.CalamineWorkbook.from_path(str(path)) as book:
        yield book


def _sheet_rows(book: Any, check: WorkbookCheck, sheet: str) -> list[list[Any]]:
    """A sheet's cells from A1 (rows keep their sheet positions); [] when the
    workbook has no such sheet."""
    if sheet not in check.parts:
        return []
    rows = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
    return [list(r) for r in rows]


def _grade_formula_rows(path: Path, check: WorkbookCheck) -> set[int]:
    """Sheet rows whose current-grade cell holds a formula."""
    sheet = SHEETS["candidates"]
    if sheet not in check.with_formulas:
        return set()
    part = check.parts[sheet]
    rows = formula_rows(path, part, _GRADE_COL)
    if rows is None:  # cells without their reference first: parse the sheet
        rows = [int(ref[len(_GRADE_COL):]) for ref, _ in find_formulas(path, part)
                if ref.startswith(_GRADE_COL) and ref[len(_GRADE_COL):].isdigit()]
    return set(rows)


def _read_metadata(rows: list[list[Any]], name: str) -> dict[str, Any]:
    sheet = SHEETS["metadata"]
    hint = "open it as an annotator sheet or a CSV instead"
    if not rows:
        raise InputError(f"{_NOT_OURS} (it has no {sheet!r} sheet)", file=name, hint=hint)
    cells = [row[0] if row else None for row in rows]
    first = rows[0]
    if cells[0] != METADATA_FORMAT or len(first) < 2:
        raise InputError(f"{_NOT_OURS} (its metadata is missing or from another version)",
                         file=name, sheet=sheet, hint=hint)
    try:
        count = int(first[1]) if isinstance(first[1], float) else int(str(first[1]))
        chunks = cells[1 : 1 + count]
        if len(chunks) != count or not all(isinstance(c, str) for c in chunks):
            raise ValueError("metadata chunks are missing")
        meta = json.loads("".join(str(c) for c in chunks))
        if not isinstance(meta, dict) or meta.get("format") != METADATA_FORMAT:
            raise ValueError("metadata format does not match")
    except ValueError as exc:
        raise InputError(f"{_NOT_OURS} (its metadata is damaged: {exc})", file=name,
                         sheet=sheet, hint=hint) from exc
    return meta


def _document_from_metadata(meta: dict[str, Any], name: str) -> Document:
    def floats(key: str) -> FloatArray:
        return np.array([np.nan if v is None else v for v in meta[key]], dtype=np.float64)

    def texts(key: str) -> npt.NDArray[np.object_]:
        out = np.empty(len(meta[key]), dtype=object)
        out[:] = [str(v) for v in meta[key]]
        return out

    try:
        ratings = None
        if meta.get("ratings") is not None:
            shape = tuple(meta["ratings_shape"])
            ratings = np.array(
                [[np.nan if v is None else v for v in row] for row in meta["ratings"]],
                dtype=np.float64,
            ).reshape(shape)
        doc = Document(
            query_ids=[str(q) for q in meta["query_ids"]],
            query=np.array(meta["query"], dtype=np.int64),
            source_id=texts("source_id"),
            version=texts("version"),
            score=floats("score"),
            grade=floats("grade"),
            state=np.array(meta["state"], dtype=np.int8),
            original_grade=floats("original_grade"),
            original_state=np.array(meta["original_state"], dtype=np.int8),
            note=texts("note"),
            reason=texts("reason"),
            frequency=floats("frequency"),
            importance=floats("importance"),
            conventions=Conventions.from_dict(meta["conventions"]),
            judgment_version=str(meta["judgment_version"]),
            name=str(meta["name"]),
            audit=[AuditEntry(*(str(x) for x in e)) for e in meta["audit"]],
            annotators=[str(a) for a in meta["annotators"]],
            ratings=ratings,
        )
        n = len(doc)
        sizes = {len(a) for a in (doc.source_id, doc.version, doc.score, doc.grade, doc.state,
                                  doc.original_grade, doc.original_state, doc.note, doc.reason,
                                  meta["sheet_rows"])}
        if sizes != {n} or sorted(meta["sheet_rows"]) != list(range(n)):
            raise ValueError("metadata columns differ in length")
        if n and (doc.query.min() < 0 or doc.query.max() >= doc.n_queries):
            raise ValueError("metadata query index out of range")
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{_NOT_OURS} (its metadata does not match: {exc})", file=name,
                         sheet=SHEETS["metadata"],
                         hint="open it as an annotator sheet or a CSV instead") from exc
    return doc


def _cell_text(value: Any) -> str:
    """A text cell's value as text (calamine has undone Excel's ``_xHHHH_``
    escapes); a whole number typed where text was is shown without ``.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _same_text(cell: str, text: str) -> bool:
    """Whether a text cell still holds ``text`` as exported: a text longer
    than a cell can hold (32,767 UTF-16 units) was cut, and the workbook's
    metadata keeps the whole."""
    if cell == text:
        return True
    from xlsxwriter.utility import _utf16_len, _utf16_truncate

    return bool(_utf16_len(text) > 32_767 and cell == _utf16_truncate(text, 32_767))


def _parse_grade(value: Any, formula: bool, doc: Document, name: str, row: int) -> PastedGrade:
    """A current-grade cell as a grade, state and reason (the grammar of typed
    and pasted grades, :func:`core.model.grades.read_grade`; a number outside
    the rubric is taken: the sheet's dropdown only warns); InputError when it
    is not one."""
    column = f"{_GRADE_COL} (current grade)"

    def bad(problem: str) -> InputError:
        return InputError(problem, file=name, sheet=SHEETS["candidates"], line=row,
                          column=column,
                          hint="enter a rubric grade (a number), unknown or unrateable")

    if formula or (isinstance(value, str) and value.lstrip().startswith("=")):
        raise bad("the current grade is a formula; a grade must be typed in as a value")
    if value is None or value == "":
        return PastedGrade(None, GradeState.UNKNOWN)
    if isinstance(value, bool):
        raise bad(f"the current grade is {value!r}, not a grade")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise bad("the current grade is not a finite number")
        return PastedGrade(float(value), GradeState.NUMBER)
    if isinstance(value, str):
        try:
            return read_grade(value, doc.conventions.rubric, outside_rubric=True)
        except ValueError as exc:
            raise bad(f"the current grade {value.strip()!r} is not a number, a rubric label, "
                      f"unknown or unrateable ({exc})") from None
    raise bad(f"the current grade {value!r} is not a grade")


def _apply_edits(cells: list[list[Any]], formulas: set[int], doc: Document,
                 meta: dict[str, Any], name: str) -> None:
    """Take current grades and notes edited in the spreadsheet (the Candidates
    sheet's cells from A1; ``formulas``: sheet rows whose grade cell holds a
    formula); log each grade."""
    sheet = SHEETS["candidates"]
    rows: list[int] = [int(i) for i in meta["sheet_rows"]]
    grade_col = _COL["current grade"]
    note_col = _COL["note"]
    width = note_col + 1
    set_grade: Callable[..., AuditEntry] = doc.set_grade
    present = cells[1 : len(rows) + 1]
    for r, row in enumerate(present, start=2):
        i = rows[r - 2]
        if len(row) < width:
            row = [*row, *[""] * (width - len(row))]
        query = _cell_text(row[0])
        source = _cell_text(row[1])
        if not (_same_text(query, doc.query_ids[int(doc.query[i])])
                and _same_text(source, doc.source_id[i])):
            raise InputError(
                f"this row should hold query {doc.query_ids[int(doc.query[i])]!r}, source "
                f"{doc.source_id[i]!r}, but holds {query!r}, {source!r}",
                file=name, sheet=sheet, line=r, column="A/B",
                hint="rows were moved or deleted; undo that in the spreadsheet",
            )
        got = _parse_grade(row[grade_col], r in formulas, doc, name, r)
        grade, state, reason = got.grade, got.state, got.reason
        note_value = row[note_col]
        note = "" if note_value is None else _cell_text(note_value)
        note_changed = not _same_text(note, doc.note[i])
        if note_changed:
            doc.set_note(i, note)
        old_state = int(doc.state[i])
        same = state == old_state and (
            grade == float(doc.grade[i]) if state == GradeState.NUMBER
            else state != GradeState.UNRATEABLE or not reason or reason == doc.reason[i]
        )
        if not same:
            set_grade(i, grade, state, who=OUTSIDE_WHO, note=note if note_changed else "",
                      origin=OUTSIDE_ORIGIN, reason=reason or doc.reason[i])
    if len(present) != len(rows):
        raise InputError(
            f"the sheet has {len(present)} candidate rows, but {len(rows)} were exported",
            file=name, sheet=sheet, line=len(present) + 2,
            hint="rows were deleted; undo that in the spreadsheet",
        )

