"""Means over queries, with what was included and what was excluded (and why),
and the result sentence that carries every convention with the number."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.engine.evaluation import Evaluation, Status
from core.model.conventions import Weighting, format_cutoff

__all__ = ["CutoffSummary", "query_sentence", "summarize", "summary_sentence"]


@dataclass(frozen=True)
class CutoffSummary:
    """The mean NDCG at one cutoff, and the population behind it."""

    k: int | None
    mean: float | None
    included: int
    excluded: dict[str, int] = field(default_factory=dict)
    weighting: Weighting = Weighting.EQUAL
    weight_total: float = 0.0


def _weights(ev: Evaluation, weighting: Weighting) -> np.ndarray:
    if weighting is Weighting.EQUAL:
        return np.ones(ev.doc.n_queries)
    if weighting is Weighting.FREQUENCY:
        return ev.doc.frequency
    return ev.doc.importance


def summarize(ev: Evaluation, weighting: Weighting | None = None) -> list[CutoffSummary]:
    """Mean NDCG per cutoff under the chosen weights.

    Queries without an NDCG are excluded and counted by status; under a
    weighted mean, queries without a weight (or with weight 0) are excluded
    and counted as ``no weight``.
    """
    weighting = weighting or ev.conventions.weighting
    w = _weights(ev, weighting)
    has_weight = ~np.isnan(w) & (w > 0)
    out = []
    for j, k in enumerate(ev.cutoffs):
        nd = ev.ndcg[:, j]
        status = ev.status_code[:, j]
        defined = ~np.isnan(nd)
        use = defined & has_weight
        excluded: dict[str, int] = {}
        for code, st in ((1, Status.UNDEFINED), (2, Status.UNRESOLVED)):
            count = int(np.count_nonzero(status == code))
            if count:
                excluded[st.value] = count
        missing = int(np.count_nonzero(defined & ~has_weight))
        if missing:
            excluded["no weight"] = missing
        total = float(w[use].sum()) if use.any() else 0.0
        mean = float(np.dot(w[use], nd[use]) / total) if total > 0 else None
        out.append(CutoffSummary(k, mean, int(use.sum()), excluded, weighting, total))
    return out


def _conventions_clause(ev: Evaluation, k: int | None) -> str:
    c = ev.conventions
    cut = "the whole list" if k is None else f"k = {k}"
    return (
        f"under {c.gain.label} ({c.gain.formula}), {c.discount.label} "
        f"({c.discount.formula}), {cut} applied to both the actual and the ideal list, "
        f"ideal inventory: {c.ideal.label}, ties: {c.ties.label}, "
        f"{c.unknown.label}, {c.zero_ideal.label}"
    )


def _version(ev: Evaluation) -> str:
    v = ev.doc.judgment_version
    return f"judgment version {v!r}" if v else "judgment version not declared"


def query_sentence(ev: Evaluation, q: int, j: int = 0) -> str:
    """One reproducible sentence for query ``q`` at cutoff index ``j``."""
    k = ev.cutoffs[j]
    doc = ev.doc
    name = f"ranked list {doc.name!r}" if doc.name else "the ranked list"
    head = f"For query {doc.query_ids[q]!r}, {name} ({int(ev.n_ranked[q])} ranked candidates)"
    inv = f"{int(ev.n_inventory[q])} candidates in the ideal inventory"
    st = ev.status(q, j)
    at = f"NDCG@{format_cutoff(k)}"
    if st is Status.OK:
        body = (
            f"reached {at} = {ev.ndcg[q, j]:.4f} (DCG {ev.dcg[q, j]:.4f} / ideal DCG "
            f"{ev.idcg[q, j]:.4f})"
        )
    elif st is Status.UNDEFINED:
        body = f"has no {at}: {st.reason}"
    else:
        body = (
            f"has no {at} yet: {int(ev.n_open[q])} of {int(ev.n_inventory[q])} grades are "
            "not known"
        )
    return f"{head} {body} {_conventions_clause(ev, k)}; {inv}; {_version(ev)}."


def summary_sentence(ev: Evaluation, s: CutoffSummary) -> str:
    """One sentence for a mean, with its population and conventions."""
    at = f"NDCG@{format_cutoff(s.k)}"
    excl = ", ".join(f"{n} {why}" for why, n in s.excluded.items()) or "none"
    value = f"{s.mean:.4f}" if s.mean is not None else "not defined (no query included)"
    return (
        f"The {s.weighting.label} of {at} over {s.included} of {ev.doc.n_queries} queries is "
        f"{value} (excluded: {excl}) {_conventions_clause(ev, s.k)}; {_version(ev)}."
    )
