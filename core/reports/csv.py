"""Evaluations as CSV (the ``evaluate --format csv`` output): one row per query
and cutoff, numbers at full precision (``repr``), empty where undefined.
Query ids follow the CSV rule of :mod:`core.reports.text` (formula-like text
behind one apostrophe; quoted when they hold a comma, quote, CR or LF)."""

from __future__ import annotations

import math
from typing import TextIO

from core.engine.evaluation import Evaluation
from core.model.conventions import format_cutoff
from core.reports.text import csv_line, protect

__all__ = ["print_csv"]


def print_csv(ev: Evaluation, out: TextIO) -> None:
    """Write ``query, k, dcg, idcg, ndcg, status, judged, total`` rows to ``out``."""
    out.write(csv_line(["query", "k", "dcg", "idcg", "ndcg", "status", "judged", "total"]))
    for q in range(ev.doc.n_queries):
        query = protect(ev.doc.query_ids[q])
        for j, k in enumerate(ev.cutoffs):
            out.write(csv_line([
                query, format_cutoff(k),
                *("" if math.isnan(x) else repr(float(x))
                  for x in (ev.dcg[q, j], ev.idcg[q, j], ev.ndcg[q, j])),
                ev.status(q, j).value, str(int(ev.n_judged[q])), str(int(ev.n_total[q])),
            ]))
