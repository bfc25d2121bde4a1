"""A per-query table (:mod:`core.analysis.per_query`) as the reports of
``evaluate``: the same JSON object, CSV rows and mean sentences, for results
that come back from a cluster's workers without an evaluation."""

from __future__ import annotations

import math
from typing import Any, TextIO

from core.analysis.aggregate import UNJUDGED, CutoffSummary, unjudged_phrase, with_unjudged
from core.analysis.per_query import STATUS_TEXT, Rows, summarize_rows
from core.engine.evaluation import Status
from core.model.conventions import Conventions, parse_cutoff
from core.model.presets import matching_presets
from core.reports.json import bound_json, conventions_json
from core.reports.sentences import mean_sentence
from core.reports.text import csv_line, protect

__all__ = ["print_rows_csv", "print_rows_summary", "rows_json"]


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def _summary(rows: Rows, conventions: Conventions, unjudged: tuple[str, ...]
             ) -> tuple[list[CutoffSummary], int]:
    """The means, the queries ranked and never judged counted among the
    excluded, and how many queries the two files name."""
    n_queries = len(rows["query"]) // len(conventions.cutoffs) + len(unjudged)
    return with_unjudged(summarize_rows(rows, conventions), len(unjudged)), n_queries


def rows_json(rows: Rows, conventions: Conventions,
              unjudged: tuple[str, ...] = ()) -> dict[str, Any]:
    """The ``evaluate --format json`` object of a per-query table (``rows``
    as lists, query by query) and the run's queries the qrels never judge."""
    nk = len(conventions.cutoffs)
    rank = {text: i for i, text in enumerate(STATUS_TEXT)}
    queries = []
    for start in range(0, len(rows["query"]), nk):
        cutoffs = []
        for i in range(start, start + nk):
            item: dict[str, Any] = {
                "k": parse_cutoff(rows["k"][i]), "dcg": _num(rows["dcg"][i]),
                "idcg": _num(rows["idcg"][i]), "ndcg": _num(rows["ndcg"][i]),
                "status": rows["status"][i],
            }
            if rows["status"][i] == Status.UNRESOLVED.value:
                item["bounds"] = {"low": bound_json(_num(rows["low"][i])),
                                  "high": bound_json(_num(rows["high"][i])),
                                  "exact": bool(rows["exact"][i])}
            cutoffs.append(item)
        queries.append({
            "query": rows["query"][start],
            "status": max((c["status"] for c in cutoffs), key=rank.__getitem__),
            **{name: int(rows[name][start])
               for name in ("ranked", "judged", "unknown", "unrateable", "total")},
            "cutoffs": cutoffs,
        })
    summaries, n_queries = _summary(rows, conventions, unjudged)
    summary = [
        {"k": s.k, "mean": s.mean, "included": s.included, "excluded": s.excluded,
         "weighting": s.weighting.value, "sentence": mean_sentence(s, conventions, n_queries)}
        for s in summaries
    ]
    out: dict[str, Any] = {
        "conventions": {**conventions_json(conventions),
                        "matching_presets": matching_presets(conventions)},
        "judgment_version": None,
        "queries": queries,
        "summary": summary,
    }
    if unjudged:  # ranked by the run, never judged: not among "queries"
        out["unjudged_queries"] = list(unjudged)
    return out


def print_rows_csv(rows: Rows, out: TextIO) -> None:
    """The ``evaluate --format csv`` rows of a per-query table."""
    out.write(csv_line(["query", "k", "dcg", "idcg", "ndcg", "status", "judged", "total"]))
    for i, query in enumerate(rows["query"]):
        out.write(csv_line([
            protect(query), rows["k"][i],
            *("" if math.isnan(x) else repr(float(x))
              for x in (rows["dcg"][i], rows["idcg"][i], rows["ndcg"][i])),
            rows["status"][i], str(int(rows["judged"][i])), str(int(rows["total"][i])),
        ]))


def print_rows_summary(rows: Rows, conventions: Conventions, out: TextIO,
                       unjudged: tuple[str, ...] = ()) -> None:
    """The means of a per-query table, one sentence each, and the run's
    queries the qrels never judge."""
    summaries, n_queries = _summary(rows, conventions, unjudged)
    for s in summaries:
        out.write(mean_sentence(s, conventions, n_queries) + "\n")
    if unjudged:
        out.write(f"{UNJUDGED}: {unjudged_phrase(unjudged)}\n")
