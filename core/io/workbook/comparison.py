"""The Comparison sheet: run B against run A per query and cutoff, the paired
means as formulas, and the resampling results computed at export."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from core.analysis.compare import TIE_TOLERANCE, Comparison
from core.io.workbook.layout import (
    COMPARISON_COLUMNS,
    COMPARISON_HEADER_ROW,
    COMPARISON_SHEETS,
    MEANS_COLUMNS,
    QUERY_TEXT,
    RESAMPLING_COLUMNS,
    SHEETS,
    STATUS_COLOURS,
    FloatArray,
    Formats,
    num,
    put_cutoff,
    put_text,
    sheet_ref,
)
from core.io.workbook.page import (
    colour_outcomes,
    colour_words,
    header_row,
    header_widths,
    long_text,
    print_setup,
    set_widths,
    text_width,
)
from core.io.workbook.queries import put_query_text, query_text_column
from core.model.document import has_weight

_QA = sheet_ref(SHEETS["queries"])
_QB = sheet_ref(COMPARISON_SHEETS["queries_b"])


#: The Comparison sheet's helper columns (hidden): the deltas at the first
#: cutoff, the same sorted, how many B losses so far (the Report's list of
#: regressed queries), and the sorted deltas split into gains and losses (the
#: Report's chart: two series, green and red; LibreOffice ignores a single
#: series' colour for negative values).
FIRST_DELTA, SORTED_DELTA, LOSSES_SO_FAR, SORTED_GAINS, SORTED_LOSSES = 14, 15, 16, 17, 18
#: The queries' texts (where a run holds any: :meth:`Comparison.query_text`),
#: column T: after the hidden helpers, as the Queries sheet's column R comes
#: after its hidden helper, so the columns the formulas and the Report read
#: stay put.
TEXT_COLUMN = SORTED_LOSSES + 1


@dataclass(frozen=True)
class ComparisonPlaces:
    """Where the Comparison sheet holds what the Report reads (1-based rows)."""

    names: dict[str, str]
    first: int
    last: int
    means_rows: list[int]
    resampling_rows: list[int]
    n_common: int


def write_comparison(
    ws: Any, fmt: Formats, c: Comparison, labels: tuple[str, str]
) -> ComparisonPlaces:
    """The Comparison sheet, top to bottom: the runs and the tie tolerance, a
    row per shared query and cutoff, the paired means, the resampling results
    and the queries only one run has; returns where its parts are."""
    names = _write_heading(ws, fmt, c, labels)
    conv = c.conventions
    weights = c.doc_a.query_weights(conv.weighting)[c.qa]
    has_w = has_weight(weights)
    first = COMPARISON_HEADER_ROW + 2
    last = max(first + len(c.common) * len(conv.cutoffs) - 1, first)
    helpers = _Helpers(c, first, last)
    texts = ([c.query_text(i) for i in range(len(c.common))] if c.has_query_texts
             else [])
    unshared = _unshared(c)
    text_wide = query_text_column(
        ws, fmt, [*texts, *(c.text_of(q) for _, qs in unshared for q in qs)],
        COMPARISON_HEADER_ROW, TEXT_COLUMN)
    r = COMPARISON_HEADER_ROW + 1
    for i in range(len(c.common)):
        for j in range(len(conv.cutoffs)):
            _write_pair(ws, fmt, c, r, i, j, float(weights[i]), bool(has_w[i]))
            helpers.write(ws, r, i, j)
            if text_wide:
                put_query_text(ws, fmt, r, texts[i], text_wide, TEXT_COLUMN)
            r += 1
    colour_words(ws, fmt, first - 1, r - 1, 4, tuple(STATUS_COLOURS))
    colour_words(ws, fmt, first - 1, r - 1, 6, tuple(STATUS_COLOURS))
    colour_outcomes(ws, fmt, first - 1, r - 1, 8)
    r, means_row = _write_means(ws, fmt, c, weights, has_w, (first, last), r + 1)
    r, resampling_row = _write_resampling(ws, fmt, c, means_row, r + 1)
    for title, queries in unshared:
        r = _write_unshared(ws, fmt, c, (title, queries), r + 1, text_wide) + 1
    print_setup(ws, c.doc_a.judgment_version, header_rows=(COMPARISON_HEADER_ROW,) * 2,
                query_column=True)
    # (not the hidden helper columns; the texts' column past them where written)
    ws.print_area(0, 0, r, TEXT_COLUMN if text_wide else len(COMPARISON_COLUMNS) - 1)
    return ComparisonPlaces(names, first, last, means_row, resampling_row, len(c.common))


def _write_unshared(ws: Any, fmt: Formats, c: Comparison,
                    listed: tuple[str, Sequence[str]], r: int, text_wide: float) -> int:
    """One list of queries not compared from row ``r`` (0-based): its title,
    then a query a row, its text in the texts' column where a run holds one
    (:meth:`Comparison.text_of`), as the per-query rows; returns its last row."""
    title, queries = listed
    ws.write_string(r, 0, f"{title}: {len(queries)}", fmt.label)
    texts = [c.text_of(q) for q in queries] if text_wide else []
    if any(texts):
        ws.write_string(r, TEXT_COLUMN, QUERY_TEXT, fmt.header)
    for i, q in enumerate(queries):
        r += 1
        put_text(ws, r, 0, q, fmt.text, fmt.text_q)
        if texts:
            put_query_text(ws, fmt, r, texts[i], text_wide, TEXT_COLUMN)
    return r


def _unshared(c: Comparison) -> list[tuple[str, Sequence[str]]]:
    """The queries not compared, by why: those one run only holds, and those
    the files named that neither document holds (:class:`LeftOut`, listed
    when there are any)."""
    out: list[tuple[str, Sequence[str]]] = [
        ("queries only in A (not compared)", c.only_a),
        ("queries only in B (not compared)", c.only_b)]
    if c.left_out:
        out += [("queries judged but ranked by neither run (not compared)", c.left_out.unranked),
                ("queries ranked but never judged (not compared)", c.left_out.unjudged)]
    return out


class _Helpers:
    """The hidden helper cells of the per-query rows (first..last, 1-based):
    the delta at the first cutoff, those deltas sorted, the losses so far,
    and the sorted deltas' gains and losses apart, with their values now."""

    def __init__(self, c: Comparison, first: int, last: int) -> None:
        self.first, self.last, self.n = first, last, len(c.common)
        d0 = c.delta[:, 0]
        self.sorted = np.sort(d0[~np.isnan(d0)]).tolist()
        with np.errstate(invalid="ignore"):
            self.losses = np.cumsum((c.delta < -TIE_TOLERANCE).ravel()).tolist()
        self.delta = c.delta

    def write(self, ws: Any, r: int, i: int, j: int) -> None:
        """Row ``r`` (0-based), query ``i`` at cutoff ``j``."""
        x, first = r + 1, self.first
        d = float(self.delta[i, j])
        ws.write_formula(r, FIRST_DELTA, f'=IF(AND(C{x}=1,ISNUMBER(H{x})),H{x},"")', None,
                         d if j == 0 and not math.isnan(d) else "")
        n = x - first + 1
        if n <= self.n:
            firsts = f"$O${first}:$O${self.last}"
            now = self.sorted[n - 1] if n <= len(self.sorted) else None
            ws.write_formula(r, SORTED_DELTA,
                             f"=IF({n}<=COUNT({firsts}),SMALL({firsts},{n}),NA())", None,
                             "#N/A" if now is None else now)
            for col, test, kept in ((SORTED_GAINS, ">=0", now is not None and now >= 0),
                                    (SORTED_LOSSES, "<0", now is not None and now < 0)):
                ws.write_formula(r, col, f"=IF(ISNUMBER(P{x}),IF(P{x}{test},P{x},NA()),NA())",
                                 None, now if kept else "#N/A")
        loss = f'IF(I{x}="loss",1,0)'
        ws.write_formula(r, LOSSES_SO_FAR, f"={loss}" if x == first else f"=Q{r}+{loss}", None,
                         float(self.losses[n - 1]))


#: The heading's labels, in bold in the ids' column (a bold character is
#: about 1.15 of the body's: 'what changed (at export)' was cut on paper).
_LABELS = ("run A", "run B", "what changed (at export)", "reopening", "tie tolerance")
_BOLD = 1.15
def _widths(c: Comparison) -> list[float]:
    """The Comparison sheet's column widths: the queries' ids first, as wide
    as the heading's labels at least; each column holding the words of the
    three tables' headers above it (per query, means, resampling) whole."""
    labels = max(len(label) for label in _LABELS) * _BOLD + 2
    widths = header_widths(COMPARISON_COLUMNS, [
        max(labels, text_width([*c.common, *c.left_out.unranked, *c.left_out.unjudged,
                                "queries only in A"], 12, 36)), 6, 6, 9, 10, 9, 10, 10, 11,
        11, 8, 10, 10, 10])
    for headers in (MEANS_COLUMNS, RESAMPLING_COLUMNS):
        widths[: len(headers)] = header_widths(headers, widths[: len(headers)])
    return widths


def _write_heading(ws: Any, fmt: Formats, c: Comparison, labels: tuple[str, str],
                   ) -> dict[str, str]:
    """The title, the runs, what changed, the tie tolerance (named) and the
    header of the per-query rows."""
    widths = _widths(c)
    set_widths(ws, widths)
    ws.set_column(FIRST_DELTA, SORTED_LOSSES, 11, None, {"level": 1, "hidden": True})
    ws.write_string(0, 0, "Comparison: B - A, both runs evaluated under the Conventions sheet",
                    fmt.title)
    last = len(COMPARISON_COLUMNS) - 1
    for row, (what, text) in enumerate(zip(_LABELS[:4], (
            labels[0], labels[1], c.changes.sentence(),
            "NDCG Worksheet reopens this workbook as run A (with grades edited in "
            "Candidates); grades edited in Candidates B recompute here but are not read back"),
            strict=True), start=1):
        ws.write_string(row, 0, what, fmt.label)
        long_text(ws, fmt, row, (1, last), text, widths)
    ws.write_string(5, 0, _LABELS[-1], fmt.label)
    ws.write_number(5, 1, TIE_TOLERANCE, fmt.conv)
    ws.merge_range(5, 2, 5, last, "a |delta| up to this is a tie (floating-point noise, not a "
                   "change)", fmt.text)
    names = {"tie_tolerance": f"={sheet_ref(COMPARISON_SHEETS['comparison'])}!$B$6"}
    top = COMPARISON_HEADER_ROW
    header_row(ws, fmt, top, COMPARISON_COLUMNS, widths)
    for col, header in ((FIRST_DELTA, "delta at the first cutoff (for the Report)"),
                        (SORTED_DELTA, "those sorted (the Report's chart)"),
                        (LOSSES_SO_FAR, "B losses so far (for the Report)"),
                        (SORTED_GAINS, "the sorted gains (the chart's green)"),
                        (SORTED_LOSSES, "the sorted losses (the chart's red)")):
        ws.write_string(top, col, header, fmt.header)
    ws.freeze_panes(top + 1, 1)
    return names


def _write_pair(ws: Any, fmt: Formats, c: Comparison, r: int, i: int, j: int, wq: float,
                has_weight: bool) -> None:
    """Row ``r`` (0-based): shared query ``i`` at cutoff ``j``, both runs'
    NDCG and status read from their Queries sheets, the delta, the outcome,
    run A's weight ``wq`` and the weighted products the means sum."""
    x = r + 1
    qa, qb = int(c.qa[i]), int(c.qb[i])
    ncut = len(c.conventions.cutoffs)
    ra, rb = 2 + qa * ncut + j, 2 + qb * ncut + j
    na, nb, d = float(c.ndcg_a[i, j]), float(c.ndcg_b[i, j]), float(c.delta[i, j])
    paired = has_weight and not math.isnan(d)
    if math.isnan(d):
        outcome = "not comparable"
    else:
        outcome = "win" if d > TIE_TOLERANCE else "loss" if d < -TIE_TOLERANCE else "tie"
    put_text(ws, r, 0, c.common[i], fmt.text, fmt.text_q)
    put_cutoff(ws, fmt, (r, 1), j, c.conventions.cutoffs[j])
    ws.write_number(r, 2, j + 1)
    for col, ref, value in ((3, f"{_QA}!$F${ra}", na), (5, f"{_QB}!$F${rb}", nb)):
        ws.write_formula(r, col, f'=IF(ISNUMBER({ref}),{ref},"")', fmt.number, num(value))
    ws.write_formula(r, 4, f"={_QA}!$G${ra}", None, c.ev_a.status(qa, j).value)
    ws.write_formula(r, 6, f"={_QB}!$G${rb}", None, c.ev_b.status(qb, j).value)
    ws.write_formula(r, 7, f'=IF(AND(ISNUMBER(D{x}),ISNUMBER(F{x})),F{x}-D{x},"")',
                     fmt.signed, num(d))
    ws.write_formula(
        r, 8, f'=IF(ISNUMBER(H{x}),IF(H{x}>tie_tolerance,"win",'
        f'IF(H{x}<-tie_tolerance,"loss","tie")),"not comparable")', None, outcome)
    freq, imp = f"{_QA}!$K${ra}", f"{_QA}!$L${ra}"
    ws.write_formula(
        r, 9, f'=IF(weighting="equal",1,IF(weighting="frequency",'
        f'IF(ISNUMBER({freq}),{freq},""),IF(ISNUMBER({imp}),{imp},"")))', None, num(wq))
    ws.write_formula(r, 10, f"=IF(AND(ISNUMBER(H{x}),ISNUMBER(J{x})),IF(J{x}>0,1,0),0)",
                     None, 1.0 if paired else 0.0)
    for col, letter, value in ((11, "D", na), (12, "F", nb), (13, "H", d)):
        ws.write_formula(r, col, f"=IF(K{x}=1,J{x}*{letter}{x},0)", fmt.number,
                         wq * value if paired else 0.0)


def _write_means(ws: Any, fmt: Formats, c: Comparison, weights: FloatArray,
                 has_w: npt.NDArray[np.bool_], rows: tuple[int, int], r: int,
                 ) -> tuple[int, list[int]]:
    """The paired means per cutoff from row ``r`` (0-based) down, as formulas
    over the per-query ``rows`` (1-based first, last); returns the row after
    them and each cutoff's row (1-based)."""
    first, last = rows

    def rng(col: str) -> str:
        return f"${col}${first}:${col}${last}"

    cut = rng("C")
    widths = _widths(c)
    long_text(ws, fmt, r, (0, len(MEANS_COLUMNS) - 1),
               "Paired means over the queries with NDCG defined in both runs and a weight "
               "(formulas; weights are run A's under the declared weighting)", widths,
               section=True)
    r += 1
    header_row(ws, fmt, r, MEANS_COLUMNS, widths[: len(MEANS_COLUMNS)])
    r += 1
    means_row: list[int] = []
    for j, k in enumerate(c.conventions.cutoffs):
        x = r + 1
        means_row.append(x)
        t = c.tests[j]
        paired_j = has_w & ~np.isnan(c.delta[:, j])
        total = float(weights[paired_j].sum())
        put_cutoff(ws, fmt, (r, 0), j, k)
        ws.write_number(r, 1, j + 1)
        ws.write_formula(r, 2, f"=COUNTIFS({cut},{j + 1},{rng('K')},1)", None, float(t.n))
        ws.write_formula(r, 3, f"=SUMIFS({rng('J')},{cut},{j + 1},{rng('K')},1)", None, total)
        for col, letter, mean in ((4, "L", t.mean_a), (5, "M", t.mean_b),
                                  (6, "N", t.mean_delta)):
            ws.write_formula(r, col, f'=IF(C{x}>0,SUMIFS({rng(letter)},{cut},{j + 1})/D{x},"")',
                             fmt.signed if col == 6 else fmt.number,
                             "" if mean is None else mean)
        for col, word, value in ((7, "win", t.wins), (8, "tie", t.ties), (9, "loss", t.losses)):
            ws.write_formula(r, col, f'=COUNTIFS({cut},{j + 1},{rng("K")},1,{rng("I")},"{word}")',
                             None, float(value))
        status_a, status_b = rng("E"), rng("G")
        ws.write_formula(r, 10, f'=COUNTIFS({cut},{j + 1},{status_a},"<>ok")', None,
                         float(t.excluded.get("without a value in A", 0)
                               + t.excluded.get("without a value in A and B", 0)))
        ws.write_formula(r, 11, f'=COUNTIFS({cut},{j + 1},{status_a},"ok",{status_b},"<>ok")',
                         None, float(t.excluded.get("without a value in B", 0)))
        ws.write_formula(
            r, 12, f'=COUNTIFS({cut},{j + 1},{status_a},"ok",{status_b},"ok",{rng("K")},0)',
            None, float(t.excluded.get("without a weight", 0)))
        ws.write_formula(r, 13, "=weighting", None, c.conventions.weighting.value)
        r += 1
    return r, means_row


def _write_resampling(ws: Any, fmt: Formats, c: Comparison, means_row: list[int], r: int,
                      ) -> tuple[int, list[int]]:
    """The randomization test and bootstrap interval per cutoff from row ``r``
    (0-based) down: values computed at export, each with a formula saying
    whether it still belongs to the live means (``means_row``); returns the
    row after them and each cutoff's row (1-based)."""
    widths = _widths(c)
    long_text(
        ws, fmt, r, (0, len(RESAMPLING_COLUMNS) - 1),
        "Randomization test and bootstrap interval: values computed by NDCG Worksheet at "
        "export, not formulas (drawing thousands of random resamples cannot be written as an "
        "Excel 2007 formula). They do not follow edits to the Conventions sheet or to grades; "
        "'still current?' compares the live paired count and mean delta with those they were "
        "computed for.", widths, section=True)
    r += 1
    header_row(ws, fmt, r, RESAMPLING_COLUMNS, widths[: len(RESAMPLING_COLUMNS)])
    r += 1
    rows: list[int] = []
    for j, k in enumerate(c.conventions.cutoffs):
        x, m = r + 1, means_row[j]
        rows.append(x)
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
                ws.write_number(r, col, stat, None if col == 2 else fmt.signed)
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
    return r, rows
