"""The Comparison sheet: run B against run A per query and cutoff, the paired
means as formulas, and the resampling results computed at export."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from core.analysis.compare import TIE_TOLERANCE, Comparison
from core.io.workbook.layout import (
    COMPARISON_COLUMNS,
    COMPARISON_HEADER_ROW,
    COMPARISON_SHEETS,
    MEANS_COLUMNS,
    RESAMPLING_COLUMNS,
    SHEETS,
    Cell,
    Formats,
    num,
    put_text,
    sheet_ref,
)
from core.model.conventions import Weighting


def write_comparison(
    ws: Any, fmt: Formats, c: Comparison, labels: tuple[str, str]
) -> dict[str, str]:
    """The Comparison sheet; returns the names it defines."""
    sheet = sheet_ref(COMPARISON_SHEETS["comparison"])
    qa_sheet, qb_sheet = sheet_ref(SHEETS["queries"]), sheet_ref(COMPARISON_SHEETS["queries_b"])
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
        put_text(ws, row, 1, text, fmt.text, fmt.text_q)
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
            put_text(ws, r, 0, query, fmt.text, fmt.text_q)
            ws.write_formula(r, 1, k_formula(j), None, k_value(k))
            ws.write_number(r, 2, j + 1)
            for col, ref, value in ((3, f"{qa_sheet}!$F${ra}", na), (5, f"{qb_sheet}!$F${rb}", nb)):
                ws.write_formula(r, col, f'=IF(ISNUMBER({ref}),{ref},"")', fmt.number,
                                 num(value))
            ws.write_formula(r, 4, f"={qa_sheet}!$G${ra}", None, c.ev_a.status(qa, j).value)
            ws.write_formula(r, 6, f"={qb_sheet}!$G${rb}", None, c.ev_b.status(qb, j).value)
            ws.write_formula(r, 7, f'=IF(AND(ISNUMBER(D{x}),ISNUMBER(F{x})),F{x}-D{x},"")',
                             fmt.number, num(d))
            ws.write_formula(
                r, 8, f'=IF(ISNUMBER(H{x}),IF(H{x}>tie_tolerance,"win",'
                f'IF(H{x}<-tie_tolerance,"loss","tie")),"not comparable")', None, outcome)
            freq, imp = f"{qa_sheet}!$K${ra}", f"{qa_sheet}!$L${ra}"
            ws.write_formula(
                r, 9, f'=IF(weighting="equal",1,IF(weighting="frequency",'
                f'IF(ISNUMBER({freq}),{freq},""),IF(ISNUMBER({imp}),{imp},"")))', None,
                num(wq))
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
            put_text(ws, r, 0, q, fmt.text, fmt.text_q)
        r += 1
    return names
