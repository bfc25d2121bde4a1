"""The engine's result laid out as the Candidates sheet shows it: the row
order and, for every formula column, the value the formula computes (cached
in the workbook so that viewers that do not calculate still show it)."""

from __future__ import annotations

import numpy as np

from core.engine.discount import discount, terms
from core.engine.evaluation import Evaluation
from core.engine.gains import lifted_queries
from core.engine.order import tie_starts
from core.io.workbook.formulas import LIFT
from core.model.document import Document, GradeState


def row_layout(doc: Document, ev: Evaluation) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Sheet row order (document indices) and each query's (start, stop).

    Retrieved candidates come first, in evaluated order; candidates the
    condensed rule removed stay at their score's place (after equal scores);
    judged-but-not-retrieved candidates follow.
    """
    parts: list[np.ndarray] = []
    blocks: list[tuple[int, int]] = []
    start = 0
    for q in range(doc.n_queries):
        members = doc.members(q)
        ranked = ev.ranked(q)
        retrieved = members[~np.isnan(doc.score[members])]
        removed = np.setdiff1d(retrieved, ranked, assume_unique=True)
        removed = removed[np.argsort(np.searchsorted(members, removed), kind="stable")]
        head = np.concatenate([ranked, removed]).astype(np.int64)
        head = head[np.argsort(-doc.score[head], kind="stable")]
        rows = np.concatenate([head, members[np.isnan(doc.score[members])]]).astype(np.int64)
        parts.append(rows)
        blocks.append((start, start + rows.size))
        start += rows.size
    perm = np.concatenate(parts) if parts else np.zeros(0, np.int64)
    return perm, blocks


def candidate_values(
    doc: Document, ev: Evaluation, perm: np.ndarray, blocks: list[tuple[int, int]]
) -> dict[str, np.ndarray]:
    """The engine's result for every formula column, in sheet order; and
    ``lifted``, whether the row's query's gains are lifted (by 2^:data:`LIFT`
    in the tie-averaged gain, its product with the discount and the ideal
    contribution, as the formulas are)."""
    n = perm.size
    score = doc.score[perm]
    retrieved = ~np.isnan(score)
    ranked = ev.ranked_mask[perm]
    known = doc.state[perm] == GradeState.NUMBER
    gain = ev.gain[perm]
    lifted = lifted_queries(ev)[doc.query[perm]]
    by = np.where(lifted, LIFT, 0)
    inventory = ev.inventory_mask[perm]
    tie_group = np.zeros(n, dtype=np.int64)
    so_far = np.zeros(n, dtype=np.int64)
    position = np.zeros(n, dtype=np.int64)
    ideal_gain = np.full(n, np.nan)
    group_id = 0
    for q, (lo, hi) in enumerate(blocks):
        position[lo:hi] = np.arange(1, hi - lo + 1)
        so_far[lo:hi] = np.cumsum(ranked[lo:hi])
        s = score[lo:hi]
        r = retrieved[lo:hi]
        new = tie_starts(s)
        ids = group_id + np.cumsum(new)
        tie_group[lo:hi] = np.where(r, ids, 0)
        group_id = int(ids[-1]) if hi > lo else group_id
        ig = ev.gain[ev.ideal(q)]
        ig = ig[~np.isnan(ig)]
        ideal_gain[lo : lo + ig.size] = ig
    with np.errstate(divide="ignore"):
        pos_discount = np.where(ranked, 1.0 / np.log2(so_far + 1.0), np.nan)
    gain_known = ~np.isnan(gain)
    up = np.ldexp(gain, by)  # (as the formulas lift them; exact)
    if ev.conventions.ties.value == "average":
        g = np.where(ranked, tie_group, 0)
        sums = np.bincount(g, weights=np.where(ranked & gain_known, up, 0.0))
        counts = np.bincount(g, weights=ranked.astype(np.float64))
        unknown = np.bincount(g, weights=(ranked & ~gain_known).astype(np.float64))
        with np.errstate(invalid="ignore", divide="ignore"):
            avg = np.where(unknown[g] > 0, np.nan, sums[g] / counts[g])
        avg_gain = np.where(ranked, avg, np.nan)
    else:
        avg_gain = np.where(ranked, up, np.nan)
    # (the engine's terms, divided where its sums divide: core.engine.discount.terms)
    ideal_contribution = terms(np.ldexp(ideal_gain, by), discount(position),
                               position, ev.divides)
    used = np.where(known, doc.grade[perm], np.nan)
    if ev.conventions.gain.truncate:
        used = np.trunc(used)
    return {
        "rank": np.where(ranked, so_far, 0),
        "gain": gain,
        "discount": ev.discount[perm],
        "contribution": ev.contribution[perm],
        "ideal list k": position,
        "k-th ideal gain": ideal_gain,
        "k-th ideal contribution": ideal_contribution,
        "tie group": tie_group,
        "ranked": ranked,
        "ranked so far": so_far,
        "position discount": pos_discount,
        "inventory": inventory,
        "judged": known,
        "gain known": gain_known,
        "inventory gain": np.where(inventory & gain_known, gain, np.nan),
        "avg gain": avg_gain,
        "avg x discount": avg_gain * pos_discount,
        "avg known": ~np.isnan(avg_gain),
        "grade used": used,
        "lifted": lifted,
    }
