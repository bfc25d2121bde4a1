"""Evaluations as CSV (the ``evaluate --format csv`` output): one row per query
and cutoff, numbers at full precision (``repr``), empty where undefined."""

from __future__ import annotations

import csv
import math
from typing import TextIO

from core.engine.evaluation import Evaluation
from core.model.conventions import format_cutoff

__all__ = ["print_csv"]


def print_csv(ev: Evaluation, out: TextIO) -> None:
    """Write ``query, k, dcg, idcg, ndcg, status, judged, total`` rows to ``out``."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["query", "k", "dcg", "idcg", "ndcg", "status", "judged", "total"])
    for q in range(ev.doc.n_queries):
        for j, k in enumerate(ev.cutoffs):
            w.writerow([
                ev.doc.query_ids[q], format_cutoff(k),
                *("" if math.isnan(x) else repr(float(x))
                  for x in (ev.dcg[q, j], ev.idcg[q, j], ev.ndcg[q, j])),
                ev.status(q, j).value, int(ev.n_judged[q]), int(ev.n_total[q]),
            ])
