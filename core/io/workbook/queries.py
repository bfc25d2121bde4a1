"""The Queries sheet (DCG, ideal DCG and NDCG per query and cutoff) and the
Summary sheet (the means under each weighting), as formulas over the
Candidates and Queries sheets."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from core.analysis.aggregate import UNJUDGED, summarize
from core.engine.evaluation import Evaluation
from core.engine.gains import lifted_queries
from core.engine.results import Status as S
from core.io.workbook.formulas import lift_factor
from core.io.workbook.layout import (
    QUERY_COLUMNS,
    QUERY_TEXT,
    QUERY_TEXT_COLUMN,
    SHEETS,
    STATUS_COLOURS,
    SUMMARY_COLUMNS,
    SUMMARY_EXCLUSIONS,
    Formats,
    num,
    put_cutoff,
    put_text,
    sheet_ref,
    summary_column,
)
from core.io.workbook.page import (
    ODS_LINE,
    colour_words,
    header_row,
    header_widths,
    lines_tall,
    ods_width,
    print_setup,
    printed_lines,
    set_widths,
    text_width,
)
from core.model.conventions import Weighting
from core.model.document import Document

#: The Queries sheet's helper column (hidden): how many queries so far are
#: unresolved, counted on their first cutoff's row (the Report lists them).
UNRESOLVED_SO_FAR = 16
#: The columns of each weighting (weight, weight used, weight x NDCG), hidden
#: when the document declares no such weight.
_WEIGHT_COLUMNS = {Weighting.FREQUENCY: (10, 12, 13), Weighting.IMPORTANCE: (11, 14, 15)}


def write_queries(
    wb: Any, fmt: Formats, doc: Document, ev: Evaluation, blocks: list[tuple[int, int]],
    sheet: str = SHEETS["queries"], candidates: str = SHEETS["candidates"],
) -> int:
    """The Queries sheet (or run B's): a row per query and cutoff over the
    query's block of ``candidates`` rows; returns its row count (with the
    header)."""
    ws = wb.add_worksheet(sheet)
    widths = header_widths(QUERY_COLUMNS, [
        text_width(doc.query_ids, 8, 40), 6, 6, 10, 10, 10, 11, 7, 7, 13, 10, 10, 10, 11, 10,
        11])
    set_widths(ws, widths)
    ws.set_column(UNRESOLVED_SO_FAR, UNRESOLVED_SO_FAR, 10, None, {"hidden": True})
    for weighting, cols in _WEIGHT_COLUMNS.items():
        if np.isnan(doc.query_weights(weighting)).all():
            for c in cols:
                ws.set_column(c, c, widths[c], None, {"hidden": True})
    header_row(ws, fmt, 0, QUERY_COLUMNS, widths)
    ws.write_string(0, UNRESOLVED_SO_FAR, "unresolved so far (for the Report)", fmt.header)
    ws.freeze_panes(1, 1)
    text_wide = query_text_column(ws, fmt, doc.query_texts.values())
    cands = sheet_ref(candidates)
    r = 1
    unresolved = 0
    lifted = lifted_queries(ev)
    for q, (lo, hi) in enumerate(blocks):
        for j in range(len(ev.cutoffs)):
            if j == 0 and ev.status(q, 0).value == "unresolved":
                unresolved += 1
            _query_row(ws, fmt, doc, ev, (q, j), r, cands, (lo + 2, hi + 1), bool(lifted[q]))
            if text_wide:
                put_query_text(ws, fmt, r, doc.query_text(q), text_wide)
            so_far = f"IF(AND(C{r + 1}=1,G{r + 1}=\"unresolved\"),1,0)"
            ws.write_formula(r, UNRESOLVED_SO_FAR,
                             f"={so_far}" if r == 1 else f"=Q{r}+{so_far}", None,
                             float(unresolved))
            r += 1
    colour_words(ws, fmt, 1, r - 1, 6, tuple(STATUS_COLOURS))
    print_setup(ws, doc.judgment_version, header_rows=(0, 0), query_column=True)
    return r


def query_text_column(ws: Any, fmt: Formats, texts: Iterable[str], header_row: int = 0,
                      col: int = QUERY_TEXT_COLUMN) -> float:
    """The header (in row ``header_row``) and width of column ``col`` of the
    queries' ``texts``, when an import read any (:attr:`Document.query_texts`);
    its width (0: none). The Queries sheets' column R, and the Comparison
    sheet's after its hidden helpers."""
    texts = [t for t in texts if t]
    if not texts:
        return 0.0
    width = text_width(texts, 12, 48)
    ws.set_column(col, col, width)
    ws.write_string(header_row, col, QUERY_TEXT, fmt.header)
    return width


def put_query_text(ws: Any, fmt: Formats, r: int, text: str, width: float,
                   col: int = QUERY_TEXT_COLUMN) -> None:
    """Row ``r``'s query text in column ``col``, wrapped, the row as tall as
    its lines (:func:`~core.io.workbook.page.printed_lines`, in the .ods's
    type where the workbook is written for one)."""
    if text:
        put_text(ws, r, col, text, fmt.wrap, fmt.wrap_q)
        if fmt.ods:
            lines_tall(ws, r, printed_lines(text, ods_width(width)), ODS_LINE)
        else:
            lines_tall(ws, r, printed_lines(text, width))


def _query_row(ws: Any, fmt: Formats, doc: Document, ev: Evaluation, at: tuple[int, int],
               r: int, cands: str, block: tuple[int, int], lift: bool) -> None:
    """Row ``r`` (0-based): query ``q`` at cutoff ``j`` over its block of
    Candidates rows (1-based first, last); ``lift``: its gains are lifted
    there (its sums are of lifted numbers: the DCG and ideal DCG are brought
    back, the NDCG and status read off the lifted sums)."""
    q, j = at
    x = r + 1
    first, last = block
    k = ev.cutoffs[j]
    kn = f"cutn_{j + 1}"

    def blk(col: str) -> str:
        return f"{cands}!${col}${first}:${col}${last}"

    dcg = f'SUMIFS({blk("Y")},{blk("I")},"<="&{kn})'
    ideal = f'SUMIFS({blk("O")},{blk("M")},"<="&{kn})'
    back = f'/{lift_factor(blk("W"))}' if lift else ""
    ideal_read = ideal if lift else f"E{x}"  # (brought back, a lifted sum may round to 0)
    ws.write_string(r, 0, doc.query_ids[q])
    put_cutoff(ws, fmt, (r, 1), j, k)
    ws.write_number(r, 2, j + 1)
    ws.write_formula(r, 3, f'=IF(COUNTIFS({blk("I")},"<="&{kn},{blk("Z")},0)>0,"",{dcg}{back})',
                     fmt.number, num(ev.dcg[q, j]))
    ws.write_formula(r, 4, f'=IF(J{x}>0,"",{ideal}{back})', fmt.number, num(ev.idcg[q, j]))
    ratio = f"{dcg}/{ideal}" if lift else f"D{x}/E{x}"
    ws.write_formula(r, 5, f'=IF(G{x}="ok",IF({ideal_read}=0,0,{ratio}),"")', fmt.number,
                     num(ev.ndcg[q, j]))
    # no ranked candidate (column Q of the block all 0): unranked unless declared an empty list
    ws.write_formula(
        r, 6, f'=IF(AND(unranked_rule<>"zero",SUM({blk("Q")})=0),"{S.UNRANKED}",'
        f'IF(J{x}>0,"{S.UNRESOLVED}",IF({ideal_read}<0,"{S.NEGATIVE}",'
        f'IF(AND({ideal_read}=0,zero_ideal_rule<>"zero"),"{S.UNDEFINED}","{S.OK}"))))',
        None, ev.status(q, j).value)
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
        ws.write_formula(r, prod, f'=IF(ISNUMBER({used}{x}),{used}{x}*F{x},"")', fmt.number,
                         w * nd if use else "")


def summary_row(weighting: Weighting, j: int, n_cutoffs: int) -> int:
    """The Summary sheet's row (1-based) of ``weighting`` at cutoff ``j`` (0-based)."""
    return 2 + list(Weighting).index(weighting) * n_cutoffs + j


def write_summary(
    wb: Any, fmt: Formats, ev: Evaluation, qrows: int, sheet: str = SHEETS["summary"],
    queries: str = SHEETS["queries"],
) -> None:
    """The Summary sheet (or run B's): a row per weighting and cutoff over the
    ``qrows`` rows of ``queries``; the weightings the document gives no
    weights for are hidden unless declared."""
    ws = wb.add_worksheet(sheet)
    widths = header_widths(SUMMARY_COLUMNS, [12, 6, 10, 9, *[11] * len(SUMMARY_EXCLUSIONS), 9, 9])
    set_widths(ws, widths)
    header_row(ws, fmt, 0, SUMMARY_COLUMNS, widths)
    ws.freeze_panes(1, 1)
    qs = sheet_ref(queries)

    def col(letter: str) -> str:
        return f"{qs}!${letter}$2:${letter}${max(qrows, 2)}"

    r = 1
    for weighting in Weighting:
        unused = (weighting is not ev.conventions.weighting and weighting is not Weighting.EQUAL
                  and np.isnan(ev.doc.query_weights(weighting)).all())
        for j, s in enumerate(summarize(ev, weighting)):
            if unused:
                ws.set_row(r, None, None, {"hidden": True})
            _summary_row(ws, fmt, ev, weighting, (j, s), r, col)
            r += 1
    ws.conditional_format(1, 0, r - 1, len(SUMMARY_COLUMNS) - 1, {
        "type": "formula", "criteria": f'=${summary_column("declared")[1]}2="declared"',
        "format": fmt.declared})
    print_setup(ws, ev.doc.judgment_version, header_rows=(0, 0))


def _summary_row(ws: Any, fmt: Formats, ev: Evaluation, weighting: Weighting, at: tuple[int, Any],
                 r: int, col: Any) -> None:
    """Row ``r`` (0-based): the mean under ``weighting`` at cutoff ``j``
    (``s``: the engine's, cached) over the Queries columns ``col(letter)``."""
    j0, s = at
    j = j0 + 1
    x = r + 1
    cut, status = col("C"), col("G")
    inc_at = f"{summary_column('included')[1]}{x}"
    total_at = f"{summary_column('weight total')[1]}{x}"
    if weighting is Weighting.EQUAL:
        inc = f'=COUNTIFS({cut},{j},{status},"ok")'
        mean = f'=IF({inc_at}>0,SUMIFS({col("F")},{cut},{j},{status},"ok")/{inc_at},"")'
        nowt = "=0"
        total = f"={inc_at}"
    else:
        used, prod = (("M", "N") if weighting is Weighting.FREQUENCY else ("O", "P"))
        inc = f'=COUNTIFS({cut},{j},{col(used)},">0")'
        total = f"=SUMIFS({col(used)},{cut},{j})"
        mean = f'=IF({total_at}>0,SUMIFS({col(prod)},{cut},{j})/{total_at},"")'
        nowt = f'=COUNTIFS({cut},{j},{status},"ok")-{inc_at}'
    declared = weighting is ev.conventions.weighting
    cells: dict[str, tuple[str, Any, Any]] = {
        "mean NDCG": (mean, fmt.number, s.mean if s.mean is not None else ""),
        "included": (inc, None, float(s.included)),
        "excluded: no weight": (nowt, None, float(s.excluded.get("no weight", 0))),
        # not in the document, so no row to count: the number the join found
        f"excluded: {UNJUDGED}": (f"={len(ev.doc.unjudged_queries)}", None,
                                  float(s.excluded.get(UNJUDGED, 0))),
        "weight total": (total, None, float(s.weight_total)),
        "declared": (f'=IF(weighting="{weighting.value}","declared","")', None,
                     "declared" if declared else ""),
    }
    for why in SUMMARY_EXCLUSIONS:  # a status's count (no weight: above)
        cells.setdefault(f"excluded: {why}", (f'=COUNTIFS({cut},{j},{status},"{why}")', None,
                                              float(s.excluded.get(why, 0))))
    ws.write_string(r, 0, weighting.value)
    put_cutoff(ws, fmt, (r, summary_column("k")[0]), j0, s.k)
    for name, (formula, look, cached) in cells.items():
        ws.write_formula(r, summary_column(name)[0], formula, look, cached)
