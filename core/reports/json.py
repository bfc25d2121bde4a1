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
from core.analysis.bounds import UNBOUNDED_TEXT, Bounds, unresolved_bounds
from core.engine.evaluation import Evaluation, FloatArray, Status
from core.model.conventions import Conventions
from core.model.grades import UNKNOWN_REASONS
from core.model.presets import matching_presets
from core.reports.sentences import summary_sentence

if TYPE_CHECKING:
    from core.analysis.compare import CandidateChange, Comparison

__all__ = ["bound_json", "compare_json", "conventions_json", "dump_evaluation_json", "dump_json",
           "evaluation_json", "unknown_reasons_json"]


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
    head, bounds, tail = _evaluation_parts(ev)
    return {**head, "queries": list(_queries_of(ev, bounds)), **tail}


def _evaluation_parts(ev: Evaluation) -> tuple[dict[str, Any], list[dict[int, Bounds]],
                                                  dict[str, Any]]:
    """The object of :func:`evaluation_json` in three parts: what comes
    before its ``queries``, the bounds its queries' objects carry
    (:func:`_queries_of`, :func:`_compact_queries`), and what comes after."""
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
    return head, bounds, tail


#: The keys of a query's object, of each of its cutoffs' and of their bounds,
#: in order (the objects and their compact text are both made from them).
_QUERY_KEYS = ("query", "status", "ranked", "judged", "unknown", "unrateable", "total")
_CUTOFF_KEYS = ("k", "dcg", "idcg", "ndcg", "status")
_BOUNDS_KEYS = ("low", "high", "exact")


#: The key that follows a query's ``unknown`` where some of its unknown
#: grades carry a reason: how many of them by kind (``declined``,
#: ``rejected``, ``draft``: :data:`core.model.grades.UNKNOWN_REASONS`;
#: ``other``: an unknown grade's reason the import did not give). Absent
#: where none does, so that a report without reasons (every TREC run) is
#: as it was.
_REASONS_KEY = "unknown_reasons"


def unknown_reasons_json(kinds: dict[str, int]) -> dict[str, int]:
    """A query's :data:`_REASONS_KEY` object from its kinds of reasons
    (:meth:`~core.model.document.Document.unknown_reasons`), in the order of
    :data:`~core.model.grades.UNKNOWN_REASONS`, another reason last.

    >>> unknown_reasons_json({"": 1, "declined": 2})
    {'declined': 2, 'other': 1}
    """
    out = {kind: kinds[kind] for kind in UNKNOWN_REASONS if kinds.get(kind)}
    if kinds.get(""):
        out["other"] = kinds[""]
    return out


def _query_rows(ev: Evaluation) -> Iterator[tuple[int, tuple[Any, ...], list[Status],
                                                  dict[str, int]]]:
    """Each query's number, the values of its :data:`_QUERY_KEYS` (its
    status as the :class:`Status`), its status at each cutoff and its
    unknown grades' reasons ({} where none carries one)."""
    status, worst = ev.status_table()
    counts = zip(ev.n_ranked.tolist(), ev.n_judged.tolist(), ev.n_unknown.tolist(),
                 ev.n_unrateable.tolist(), ev.n_total.tolist(), strict=True)
    why = ev.doc.unknown_reasons_by_query()
    for q, (qid, counted) in enumerate(zip(ev.doc.query_ids, counts, strict=True)):
        yield q, (qid, worst[q], *counted), status[q], (
            unknown_reasons_json(why[q]) if q in why else {})


def _queries_of(ev: Evaluation, bounds: list[dict[int, Bounds]]) -> Iterator[dict[str, Any]]:
    """Each query's object of :func:`evaluation_json`, in order."""
    # Whole columns as Python lists first: one conversion each, not one per cell.
    dcg, idcg, ndcg = _nullable(ev.dcg), _nullable(ev.idcg), _nullable(ev.ndcg)
    for q, fields, status, why in _query_rows(ev):
        cutoffs = []
        for j, k in enumerate(ev.cutoffs):
            item = dict(zip(_CUTOFF_KEYS, (k, dcg[q][j], idcg[q][j], ndcg[q][j],
                                           status[j].value), strict=True))
            if status[j] is Status.UNRESOLVED:
                b = bounds[j][q]
                item["bounds"] = dict(zip(_BOUNDS_KEYS, (bound_json(b.low), bound_json(b.high),
                                                         b.exact), strict=True))
            cutoffs.append(item)
        obj = dict(zip(_QUERY_KEYS, (fields[0], fields[1].value, *fields[2:]), strict=True))
        if why:  # after "unknown"
            items = list(obj.items())
            at = _QUERY_KEYS.index("unknown") + 1
            obj = dict([*items[:at], (_REASONS_KEY, why), *items[at:]])
        text = ev.doc.query_text(q)
        yield {**_with_text(obj, text), "cutoffs": cutoffs}


def _with_text(obj: dict[str, Any], text: str) -> dict[str, Any]:
    """A query's object with its text after its id (``query_text``), where
    an import read one; as it is otherwise (a run's report unchanged)."""
    if not text:
        return obj
    query, *rest = obj.items()
    return dict([query, ("query_text", text), *rest])


def _template(keys: tuple[str, ...]) -> str:
    """``"key":%s`` for each of ``keys``, comma-separated (compact JSON)."""
    return ",".join(f"{_COMPACT.encode(key)}:%s" for key in keys)


def _compact_queries(ev: Evaluation, bounds: list[dict[int, Bounds]]) -> Iterator[str]:
    """Each query's object of :func:`evaluation_json` as compact JSON text,
    the encoder's very text (``_json_text(query, _COMPACT)``), made from whole
    columns' texts rather than an object per query (measured, 2,000 queries
    at 2M candidates, the objects and their encoding against this: 27.7 ->
    19.4 ms of CPU under the defaults, 24.1 -> 16.3 ms under the trec_eval
    preset, medians of 9)."""
    dcg, idcg, ndcg = _float_texts(ev.dcg), _float_texts(ev.idcg), _float_texts(ev.ndcg)
    said = {s: _COMPACT.encode(s.value) for s in Status}
    ks = [_COMPACT.encode(k) for k in ev.cutoffs]
    query, cutoff = _template(_QUERY_KEYS[1:]) + ',"cutoffs":[', "{" + _template(_CUTOFF_KEYS)
    texts = ev.doc.query_texts
    bounded = ',"bounds":{' + _template(_BOUNDS_KEYS) + "}}"
    at = _QUERY_KEYS.index("unknown") - 2  # (counts follow the id and the status)
    for q, (qid, worst, *counts), status, why in _query_rows(ev):
        if why:  # after "unknown", as the object has it
            counts[at] = f"{counts[at]},{_COMPACT.encode(_REASONS_KEY)}:{_COMPACT.encode(why)}"
        items = []
        for j, k in enumerate(ks):
            item = cutoff % (k, dcg[q][j], idcg[q][j], ndcg[q][j], said[status[j]])
            if status[j] is Status.UNRESOLVED:
                b = bounds[j][q]
                item += bounded % (_bound_text(b.low), _bound_text(b.high),
                                   "true" if b.exact else "false")
            else:
                item += "}"
            items.append(item)
        text = texts.get(qid, "")
        yield ('{"query":' + _COMPACT.encode(qid)
               + (',"query_text":' + _COMPACT.encode(text) if text else "") + ","
               + query % (said[worst], *counts) + ",".join(items) + "]}")


def _float_texts(values: FloatArray) -> list[list[str]]:
    """Each of a two-dimensional array's numbers as JSON text (``repr``, as
    the encoder writes a float), ``null`` where it is not finite."""
    texts = np.array(list(map(float.__repr__, values.ravel().tolist())), dtype=object)
    texts[~np.isfinite(values.ravel())] = "null"
    listed: list[list[str]] = texts.reshape(values.shape).tolist()
    return listed


def bound_json(value: float | None) -> float | str | None:
    """An interval's bound as the JSON holds it: an unbounded side
    (:data:`core.analysis.bounds.UNBOUNDED`, -inf or inf) as the text
    ``"unbounded"``, which neither a number nor ``null`` (no NDCG) can be
    taken for."""
    return UNBOUNDED_TEXT if value is not None and math.isinf(value) else value


def _bound_text(value: float | None) -> str:
    """:func:`bound_json` as compact JSON text."""
    return (_COMPACT.encode(UNBOUNDED_TEXT) if value is not None and math.isinf(value)
            else _float_text(value))


def _float_text(value: float | None) -> str:
    """A float (or None) as the encoder writes it, ``null`` where not finite."""
    return "null" if value is None or not math.isfinite(value) else float.__repr__(value)


def dump_evaluation_json(ev: Evaluation, out: TextIO) -> None:
    """``dump_json(evaluation_json(ev), out, ...)``, the same text; where it
    is compact (many queries), each query's object is made and written in
    turn, so that they are never all held at once (~3 KB a query: 6 MiB at
    2,000 queries, at the end of ``evaluate``, above what it had held)."""
    rows = ev.doc.n_queries
    if rows <= _INDENTED_ROWS:
        dump_json(evaluation_json(ev), out, rows=rows)
        return
    head, bounds, tail = _evaluation_parts(ev)
    # Compact JSON of an object is "{" + "key":value, ... + "}": the parts'
    # texts without their braces, the queries' list between them.
    out.write(_json_text(head, _COMPACT)[:-1])
    out.write(',"queries":[')
    for n, text in enumerate(_compact_queries(ev, bounds)):
        if n:
            out.write(",")
        out.write(text)
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
    """Every shared query at cutoff index ``j``, largest |delta| first, its
    text after its id where a run has one (``query_text``, as evaluate's)."""
    counts = c.movement_counts(j)
    index = {q: i for i, q in enumerate(c.common)}
    largest = c.largest_changes(j, changes_per_query)
    queries = []
    texts = c.has_query_texts
    for qd in c.query_deltas(j):
        i = index[qd.query]
        changes = largest[i]
        queries.append(_with_text({
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
        }, c.query_text(i) if texts else ""))
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
