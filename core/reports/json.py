"""Evaluations and comparisons as JSON objects (the ``--format json`` output).

Plain dicts and lists of numbers and strings: NaN becomes ``null``, every
convention is stated with its formula, every mean with what it left out.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from core.analysis.aggregate import summarize
from core.analysis.bounds import Bounds, unresolved_bounds
from core.engine.evaluation import Evaluation, FloatArray, Status
from core.model.conventions import Conventions
from core.model.presets import matching_presets
from core.reports.sentences import summary_sentence

if TYPE_CHECKING:
    from core.analysis.compare import CandidateChange, Comparison

__all__ = ["compare_json", "conventions_json", "dump_evaluation_json", "dump_json",
           "evaluation_json"]


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def conventions_json(conv: Conventions) -> dict[str, Any]:
    return {
        **conv.to_dict(),
        "described": [
            {"convention": a, "choice": b, "formula": f} for a, b, f in conv.describe()
        ],
    }


def _nullable(values: FloatArray) -> list[Any]:
    """``values`` as nested lists of Python floats, None where NaN."""
    out = values.astype(object)
    out[np.isnan(values)] = None
    listed: list[Any] = out.tolist()
    return listed


def evaluation_json(ev: Evaluation) -> dict[str, Any]:
    """The ``evaluate --format json`` object."""
    head, queries, tail = _evaluation_parts(ev)
    return {**head, "queries": list(queries), **tail}


def _evaluation_parts(ev: Evaluation) -> tuple[dict[str, Any], Iterator[dict[str, Any]],
                                                  dict[str, Any]]:
    """The object of :func:`evaluation_json` in three parts: what comes
    before its ``queries``, each query's object (made when asked), and what
    comes after."""
    doc = ev.doc
    bounds = unresolved_bounds(ev)
    summary = [
        {
            "k": s.k,
            "mean": s.mean,
            "included": s.included,
            "excluded": s.excluded,
            "weighting": s.weighting.value,
            "sentence": summary_sentence(ev, s),
        }
        for s in summarize(ev)
    ]
    conv = ev.conventions
    head: dict[str, Any] = {
        "conventions": {
            **conventions_json(conv),
            "matching_presets": matching_presets(conv),
        },
        "judgment_version": doc.judgment_version or None,
    }
    tail: dict[str, Any] = {"summary": summary}
    if doc.unjudged_queries:  # ranked by the run, never judged: not among "queries"
        tail["unjudged_queries"] = list(doc.unjudged_queries)
    return head, _queries_of(ev, bounds), tail


def _queries_of(ev: Evaluation, bounds: list[dict[int, Bounds]]) -> Iterator[dict[str, Any]]:
    """Each query's object of :func:`evaluation_json`, in order."""
    doc = ev.doc
    # Whole columns as Python lists first: one conversion each, not one per cell.
    dcg, idcg, ndcg = _nullable(ev.dcg), _nullable(ev.idcg), _nullable(ev.ndcg)
    status, worst = ev.status_table()
    counts = zip(ev.n_ranked.tolist(), ev.n_judged.tolist(), ev.n_unknown.tolist(),
                 ev.n_unrateable.tolist(), ev.n_total.tolist(), strict=True)
    for q, (ranked, judged, unknown, unrateable, total) in enumerate(counts):
        cutoffs = []
        for j, k in enumerate(ev.cutoffs):
            item: dict[str, Any] = {
                "k": k,
                "dcg": dcg[q][j],
                "idcg": idcg[q][j],
                "ndcg": ndcg[q][j],
                "status": status[q][j].value,
            }
            if status[q][j] is Status.UNRESOLVED:
                b = bounds[j][q]
                item["bounds"] = {"low": b.low, "high": b.high, "exact": b.exact}
            cutoffs.append(item)
        yield {
            "query": doc.query_ids[q],
            "status": worst[q].value,
            "ranked": ranked,
            "judged": judged,
            "unknown": unknown,
            "unrateable": unrateable,
            "total": total,
            "cutoffs": cutoffs,
        }


def dump_evaluation_json(ev: Evaluation, out: TextIO) -> None:
    """``dump_json(evaluation_json(ev), out, ...)``, the same text; where it
    is compact (many queries), each query's object is made and written in
    turn, so that they are never all held at once (~3 KB a query: 6 MiB at
    2,000 queries, at the end of ``evaluate``, above what it had held)."""
    rows = ev.doc.n_queries
    if rows <= _INDENTED_ROWS:
        dump_json(evaluation_json(ev), out, rows=rows)
        return
    head, queries, tail = _evaluation_parts(ev)
    # Compact JSON of an object is "{" + "key":value, ... + "}": the parts'
    # texts without their braces, the queries' list between them.
    out.write(_json_text(head, _COMPACT)[:-1])
    out.write(',"queries":[')
    for n, query in enumerate(queries):
        if n:
            out.write(",")
        out.write(_json_text(query, _COMPACT))
    out.write("],")
    out.write(_json_text(tail, _COMPACT)[1:])
    out.write("\n")


def _finite(obj: Any) -> Any:
    """``obj`` with every NaN or infinity replaced by None."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_finite(v) for v in obj]
    return obj


def dump_json(obj: Any, out: TextIO, *, rows: int) -> None:
    """Standard JSON (RFC 8259: never ``NaN`` or ``Infinity``; a number that
    is not finite is ``null``), control characters in text escaped.

    Indented for a few hundred queries; compact (and written by the C
    encoder, ten times faster) beyond, where nobody reads it by eye.
    """
    out.write(_json_text(obj, _INDENTED if rows <= _INDENTED_ROWS else _COMPACT))
    out.write("\n")


#: Up to this many rows (queries) the JSON is indented; beyond, compact.
_INDENTED_ROWS = 500
# One encoder each, made once: json.dumps with options makes one per call
# (evaluate writes each of 2,000 queries in turn: 15.5 -> 12.5 ms, median of 9).
_INDENTED = json.JSONEncoder(allow_nan=False, indent=2)
_COMPACT = json.JSONEncoder(allow_nan=False, separators=(",", ":"))


def _json_text(obj: Any, encoder: json.JSONEncoder) -> str:
    """``obj`` as standard JSON text (:func:`dump_json`): ``json.dumps(obj,
    allow_nan=False, ...)`` with the encoder's options."""
    try:
        return encoder.encode(obj)
    except ValueError:  # a float that is not finite somewhere: null, as NaN is
        return encoder.encode(_finite(obj))


def compare_json(c: Comparison, changes_per_query: int = 10) -> dict[str, Any]:
    """The ``compare --format json`` object. Each query lists its
    ``changes_per_query`` largest candidate changes (and the counts of all)."""
    return {
        "a": c.doc_a.name or None,
        "b": c.doc_b.name or None,
        "conventions": conventions_json(c.conventions),
        "queries_in_both": len(c.common),
        "queries_only_in_a": c.only_a,
        "queries_only_in_b": c.only_b,
        # Named by the files, held by neither document (core.io.pairs tells them).
        "queries_not_compared": {
            "judged_ranked_by_neither": list(c.left_out.unranked),
            "ranked_never_judged": list(c.left_out.unjudged),
        },
        "what_changed": _what_changed_json(c),
        "cutoffs": [_cutoff_json(c, j, k, changes_per_query) for j, k in enumerate(c.cutoffs)],
    }


def _change_json(ch: CandidateChange) -> dict[str, Any]:
    return {
        "source_id": ch.source_id, "kind": ch.kind,
        "rank_a": ch.rank_a, "rank_b": ch.rank_b,
        "contribution_a": _num(ch.contribution_a),
        "contribution_b": _num(ch.contribution_b),
        "delta": _num(ch.delta),
    }


def _queries_json(c: Comparison, j: int, changes_per_query: int) -> list[dict[str, Any]]:
    """Every shared query at cutoff index ``j``, largest |delta| first."""
    counts = c.movement_counts(j)
    index = {q: i for i, q in enumerate(c.common)}
    largest = c.largest_changes(j, changes_per_query)
    queries = []
    for qd in c.query_deltas(j):
        i = index[qd.query]
        changes = largest[i]
        queries.append({
            "query": qd.query,
            "ndcg_a": qd.ndcg_a,
            "ndcg_b": qd.ndcg_b,
            "status_a": qd.status_a.value,
            "status_b": qd.status_b.value,
            "delta": qd.delta,
            "outcome": qd.outcome,
            "moved": int(counts["moved"][i]),
            "regraded": int(counts["regraded"][i]),
            "entered": int(counts["entered"][i]),
            "left": int(counts["left"][i]),
            "largest_changes": [_change_json(ch) for ch in changes],
        })
    return queries


def _cutoff_json(c: Comparison, j: int, k: int | None, changes_per_query: int) -> dict[str, Any]:
    """The means, the paired statistics, the tie rules and the queries at one cutoff."""
    # Imported here: the comparison package loads only when a comparison is
    # reported, so ``evaluate`` starts without it.
    from core.analysis.compare import TIE_TOLERANCE

    queries = _queries_json(c, j, changes_per_query)
    t = c.tests[j]
    ts = c.ties[j]
    sa, sb = c.summary_a[j], c.summary_b[j]
    return {
        "k": k,
        "mean_a": {"mean": sa.mean, "included": sa.included, "excluded": sa.excluded},
        "mean_b": {"mean": sb.mean, "included": sb.included, "excluded": sb.excluded},
        "paired": {
            "queries": t.n,
            "excluded": t.excluded,
            "weighting": t.weighting.value,
            "mean_a": t.mean_a,
            "mean_b": t.mean_b,
            "mean_delta": t.mean_delta,
            "wins": t.wins, "ties": t.ties, "losses": t.losses,
            "tie_tolerance": TIE_TOLERANCE,
            "randomization": {
                "p_value": t.p_value, "method": t.method, "sign_vectors": t.resamples,
                "two_sided": True, "seed": t.seed,
                "p_value_formula": (
                    "share of all sign vectors with |sum| >= observed" if t.method == "exact"
                    else "(1 + sign vectors with |sum| >= observed) / (1 + sign vectors)"
                ),
            },
            "bootstrap": {
                "low": t.ci_low, "high": t.ci_high, "confidence": t.confidence,
                "resamples": t.bootstrap_resamples, "seed": t.seed,
                "method": "percentile",
            },
            "sentence": t.sentence(),
        },
        "tie_rules": {
            "rule": ts.rule.value,
            "queries_with_ties": ts.with_ties,
            "sign_changes_by_rule": ts.per_rule,
            "queries": list(ts.queries),
        },
        "queries": queries,
    }


def _what_changed_json(c: Comparison) -> dict[str, Any]:
    ch = c.changes
    return {
        "changed": ch.changed,
        "fixed": ch.fixed,
        "sentence": ch.sentence(),
        "details": ch.details(),
        "conventions": [{"field": f, "a": a, "b": b} for f, a, b in ch.conventions],
        "sources_added": ch.sources_added,
        "sources_removed": ch.sources_removed,
        "inventory_queries": ch.inventory_queries,
        "judgment_version_a": ch.judgment_version_a or None,
        "judgment_version_b": ch.judgment_version_b or None,
        "grade_differences": ch.grade_differences,
        "order_queries": ch.order_queries,
        "weight_queries": ch.weight_queries,
        "inventory": [
            {"query": i.query, "added": list(i.added), "removed": list(i.removed)}
            for i in c.inventory()
        ],
    }
