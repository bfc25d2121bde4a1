"""The cases the comparison tests share (tests/test_compare.py,
test_compare_changes.py, test_compare_join.py): runs A and B of
hand-computed values and their qrels written as TREC files, documents drawn
with tied scores, and a comparison's values gathered across and what
changed worked out again on one thread."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from core.analysis.compare import Comparison, WhatChanged
from core.analysis.compare.across import Across, gather_across
from core.analysis.compare.changes import what_changed
from core.model.conventions import TieRule
from core.model.document import Document
from core.model.ids import IdBytes
from tests.conftest import doc_of

L3 = math.log2(3.0)


# A ranks x (grade 0) above y (grade 1) in q1, B the other way round; q2 is the
# same in both; in q3 B demotes the relevant source.
RUN_A = [
    ("q1", "x", 2.0, 0.0), ("q1", "y", 1.0, 1.0),
    ("q2", "u", 2.0, 2.0), ("q2", "v", 1.0, 0.0),
    ("q3", "s", 2.0, 3.0), ("q3", "t", 1.0, 0.0),
    ("q4", "m", 1.0, 1.0),
]
RUN_B = [
    ("q1", "x", 1.0, 0.0), ("q1", "y", 2.0, 1.0),
    ("q2", "u", 2.0, 2.0), ("q2", "v", 1.0, 0.0),
    ("q3", "s", 1.0, 3.0), ("q3", "t", 2.0, 0.0),
    ("q5", "m", 1.0, 1.0),
]


#: Source ids whose code-point order is not their length's or their first byte's.
_NAMES = ["s0", "s1", "s10", "s9", "S2", "doc-1", "doc-10", "d\u00e9", "d\u00e8z", "\u00e9", "zz",
          "a b", "a"]


@st.composite
def tied_documents(draw: st.DrawFn) -> Document:
    """Small documents with tied scores; their ids held as text or, as a TREC
    run's are, as bytes (core.model.ids.IdBytes)."""
    nq = draw(st.integers(1, 4))
    rows = []
    for q in range(nq):
        n = draw(st.integers(1, 8))
        names = draw(st.permutations(_NAMES))[:n]
        for name in names:
            score = draw(st.sampled_from([None, 0.0, 1.0, 1.0, 2.0, 3.0]))
            grade = draw(st.sampled_from([None, 0.0, 1.0, 2.0, 3.0]))
            rows.append((f"q{q}", name, score, grade))
    if draw(st.booleans()):
        return doc_of(rows)
    return Document.from_columns(
        query=[r[0] for r in rows], source_id=IdBytes.from_texts([r[1] for r in rows]),
        score=[r[2] for r in rows], grade=[r[3] for r in rows])


def write_trec(tmp_path, rows_a, rows_b, qrels):  # type: ignore[no-untyped-def]
    """Runs ``rows_a`` and ``rows_b`` (query, source, score, grade) and the
    qrels written as TREC files in ``tmp_path``: their three paths."""
    def run(rows, name):  # type: ignore[no-untyped-def]
        path = tmp_path / name
        path.write_text("".join(f"{q} Q0 {s} 0 {sc} {name}\n" for q, s, sc, _ in rows))
        return str(path)

    qpath = tmp_path / "qrels.txt"
    qpath.write_text("".join(f"{q} 0 {s} {g}\n" for q, s, g in qrels))
    return run(rows_a, "a"), run(rows_b, "b"), str(qpath)


QRELS = [("q1", "x", 0), ("q1", "y", 1), ("q2", "u", 2), ("q3", "s", 3), ("q3", "t", 0),
         ("q4", "m", 1), ("q5", "m", 1)]


def serial_across_and_changes(c: Comparison) -> tuple[list[list[int]], WhatChanged]:
    """The values gathered across and what changed, worked out again on one
    thread (what_changed of gather_across), as lists; the comparison's
    movement counts (counted a block of rows at a time as it matched) are
    those of the whole gathered columns (:func:`whole_counts`)."""
    across = gather_across(c.ev_a, c.ev_b, c.partner_a, c.partner_b)
    again = what_changed(c.ev_a, c.ev_b, c._queries, c.partner_b, across)
    fields = ("partner", "has_b", "rank_b", "first_b", "same_gain", "first_a_at_b")
    got = [getattr(across, f).tolist() for f in fields]
    assert across.partner is c.partner_a  # the partners themselves, no clamped copy
    assert c.changes == again
    for j in range(len(c.cutoffs)):
        counts = {kind: v.tolist() for kind, v in c.movement_counts(j).items()}
        assert counts == whole_counts(c, across, j)
    return got, c.changes


def whole_counts(c: Comparison, across: Across, j: int) -> dict[str, list[int]]:
    """The movement counts at cutoff index ``j`` from the whole columns
    gathered across and each side's whole contributions (the oracle of the
    counts made a block of rows at a time)."""
    k, n = c.cutoffs[j], len(c.common)
    ev_a, ev_b = c.ev_a, c.ev_b

    def inside(first: np.ndarray) -> np.ndarray:
        return (first > 0) & (True if k is None else first <= k)

    def per_query(rows_q: np.ndarray, mask: np.ndarray) -> list[int]:
        return np.bincount(rows_q[mask], minlength=n).tolist()

    qa, qb = c.row_common_a, c.row_common_b
    a_in = inside(ev_a.tie_first_rank) & (qa >= 0)
    b_in = inside(across.first_b)
    both, same_rank = a_in & b_in, ev_a.rank == across.rank_b
    moved = both & ~same_rank
    if c.conventions.ties is TieRule.AVERAGE:
        x_a = ev_a.contribution_at(k)
        x_b = ev_b.contribution_at(k)[np.maximum(across.partner, 0)]
        shifted = (x_a != x_b) & ~(np.isnan(x_a) & np.isnan(x_b))
        moved |= both & same_rank & across.same_gain & shifted
    entered = inside(ev_b.tie_first_rank) & (qb >= 0) & ~inside(across.first_a_at_b)
    return {"moved": per_query(qa, moved),
            "regraded": per_query(qa, both & same_rank & ~across.same_gain),
            "entered": per_query(qb, entered), "left": per_query(qa, a_in & ~b_in)}
