"""The Queries sheet (DCG, ideal DCG and NDCG per query and cutoff) and the
Summary sheet (the means under each weighting), as formulas over the
Candidates and Queries sheets."""

from __future__ import annotations

import math
from typing import Any

from core.analysis.aggregate import summarize
from core.engine.evaluation import Evaluation
from core.io.workbook.layout import (
    QUERY_COLUMNS,
    SHEETS,
    SUMMARY_COLUMNS,
    Formats,
    num,
    sheet_ref,
)
from core.model.conventions import Weighting
from core.model.document import Document


def write_queries(
    wb: Any, fmt: Formats, doc: Document, ev: Evaluation, blocks: list[tuple[int, int]],
    sheet: str = SHEETS["queries"], candidates: str = SHEETS["candidates"],
) -> int:
    """The Queries sheet (or run B's): a row per query and cutoff over the
    query's block of ``candidates`` rows; returns its row count (with the
    header)."""
    ws = wb.add_worksheet(sheet)
    cands = sheet_ref(candidates)
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
                f'SUMIFS({blk("Y")},{blk("I")},"<="&{kn}))', None, num(ev.dcg[q, j]))
            ws.write_formula(r, 4, f'=IF(J{x}>0,"",SUMIFS({blk("O")},{blk("M")},"<="&{kn}))',
                             None, num(ev.idcg[q, j]))
            ws.write_formula(
                r, 5, f'=IF(J{x}>0,"",IF(E{x}=0,IF(zero_ideal_rule="zero",0,""),D{x}/E{x}))',
                None, num(ev.ndcg[q, j]))
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


def write_summary(
    wb: Any, fmt: Formats, ev: Evaluation, qrows: int, sheet: str = SHEETS["summary"],
    queries: str = SHEETS["queries"],
) -> None:
    """The Summary sheet (or run B's): a row per weighting and cutoff over the
    ``qrows`` rows of ``queries``."""
    ws = wb.add_worksheet(sheet)
    ws.set_column(0, 0, 14)
    ws.set_column(1, len(SUMMARY_COLUMNS) - 1, 14)
    for c, header in enumerate(SUMMARY_COLUMNS):
        ws.write_string(0, c, header, fmt.header)
    qs = sheet_ref(queries)

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
