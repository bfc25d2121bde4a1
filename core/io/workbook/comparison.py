"""The Comparison sheet: run B against run A per query and cutoff, the paired
means as formulas, and the resampling results computed at export."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from core.analysis.compare import TIE_TOLERANCE, Comparison
from core.io.workbook.layout import (
    COMPARISON_COLUMNS,
    COMPARISON_HEADER_ROW,
    COMPARISON_SHEETS,
    MEANS_COLUMNS,
    RESAMPLING_COLUMNS,
    SHEETS,
    Cell,
    FloatArray,
    Formats,
    num,
    put_text,
    sheet_ref,
)
from core.model.document import has_weight

_QA = sheet_ref(SHEETS["queries"])
_QB = sheet_ref(COMPARISON_SHEETS["queries_b"])


def write_comparison(
    ws: Any, fmt: Formats, c: Comparison, labels: tuple[str, str]
) -> dict[str, str]:
    """The Comparison sheet, top to bottom: the runs and the tie tolerance, a
    row per shared query and cutoff, the paired means, the resampling results
    and the queries only one run has; returns the names it defines."""
    names = _write_heading(ws, fmt, c, labels)
    conv = c.conventions
    weights = c.doc_a.query_weights(conv.weighting)[c.qa]
    has_w = has_weight(weights)
    first = COMPARISON_HEADER_ROW + 2
    r = COMPARISON_HEADER_ROW + 1
    for i in range(len(c.common)):
        for j in range(len(conv.cutoffs)):
            _write_pair(ws, fmt, c, r, i, j, float(weights[i]), bool(has_w[i]))
            r += 1
    r, means_row = _write_means(ws, fmt, c, weights, has_w, (first, max(r, first)), r + 1)
    r = _write_resampling(ws, fmt, c, means_row, r + 1)
    for title, queries in (("queries only in A (not compared)", c.only_a),
                           ("queries only in B (not compared)", c.only_b)):
        r += 1
        ws.write_string(r, 0, f"{title}: {len(queries)}", fmt.header)
        for q in queries:
            r += 1
            put_text(ws, r, 0, q, fmt.text, fmt.text_q)
        r += 1
    return names


def _k_formula(j: int) -> str:
    """Cutoff ``j`` (0-based) as the Conventions sheet holds it."""
    return f'=IF(ISNUMBER(cut_{j + 1}),cut_{j + 1},"all")'


def _k_value(k: int | None) -> Cell:
    return float(k) if k is not None else "all"


def _write_heading(ws: Any, fmt: Formats, c: Comparison, labels: tuple[str, str],
                   ) -> dict[str, str]:
    """The title, the runs, what changed, the tie tolerance (named) and the
    header of the per-query rows."""
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
        put_text(ws, row, 1, text, fmt.text, fmt.text_q)
    ws.write_string(5, 0, "tie tolerance")
    ws.write_number(5, 1, TIE_TOLERANCE, fmt.conv)
    ws.write_string(5, 2, "a |delta| up to this is a tie (floating-point noise, not a change)")
    names = {"tie_tolerance": f"={sheet_ref(COMPARISON_SHEETS['comparison'])}!$B$6"}
    top = COMPARISON_HEADER_ROW
    for col, header in enumerate(COMPARISON_COLUMNS):
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
    ws.write_formula(r, 1, _k_formula(j), None, _k_value(c.conventions.cutoffs[j]))
    ws.write_number(r, 2, j + 1)
    for col, ref, value in ((3, f"{_QA}!$F${ra}", na), (5, f"{_QB}!$F${rb}", nb)):
        ws.write_formula(r, col, f'=IF(ISNUMBER({ref}),{ref},"")', fmt.number, num(value))
    ws.write_formula(r, 4, f"={_QA}!$G${ra}", None, c.ev_a.status(qa, j).value)
    ws.write_formula(r, 6, f"={_QB}!$G${rb}", None, c.ev_b.status(qb, j).value)
    ws.write_formula(r, 7, f'=IF(AND(ISNUMBER(D{x}),ISNUMBER(F{x})),F{x}-D{x},"")',
                     fmt.number, num(d))
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
        ws.write_formula(r, col, f"=IF(K{x}=1,J{x}*{letter}{x},0)", None,
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
    ws.write_string(r, 0, "Paired means over the queries with NDCG defined in both runs and a "
                    "weight (formulas; weights are run A's under the declared weighting)",
                    fmt.header)
    r += 1
    for col, header in enumerate(MEANS_COLUMNS):
        ws.write_string(r, col, header, fmt.header)
    r += 1
    means_row: list[int] = []
    for j, k in enumerate(c.conventions.cutoffs):
        x = r + 1
        means_row.append(x)
        t = c.tests[j]
        paired_j = has_w & ~np.isnan(c.delta[:, j])
        total = float(weights[paired_j].sum())
        ws.write_formula(r, 0, _k_formula(j), None, _k_value(k))
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
        ws.write_formula(r, 13, "=weighting", None, c.conventions.weighting.value)
        r += 1
    return r, means_row


def _write_resampling(ws: Any, fmt: Formats, c: Comparison, means_row: list[int], r: int,
                      ) -> int:
    """The randomization test and bootstrap interval per cutoff from row ``r``
    (0-based) down: values computed at export, each with a formula saying
    whether it still belongs to the live means (``means_row``); returns the
    row after them."""
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
    for j, k in enumerate(c.conventions.cutoffs):
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
    return r
