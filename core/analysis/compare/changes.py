"""What differs between the two compared documents, and how much it matters.

The values a comparison reports beside the NDCG deltas: the candidates that
moved, entered or left the cut (:class:`CandidateChange`), the sources present
in one document only (:class:`InventoryChange`), the conditions that differ
between the documents (:class:`WhatChanged`, worked out by
:func:`what_changed`), and how many deltas change sign or vanish under another
tie rule (:class:`TieSensitivity`, from :func:`tie_facts` and
:func:`tie_sensitivity`), and the queries the inputs named that the
comparison leaves out (:class:`LeftOut`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from core.analysis.compare.across import Across, across_blocks
from core.analysis.compare.align import PartnerArray, QueryAlignment
from core.analysis.compare.statistics import sign
from core.engine.evaluation import Evaluation
from core.engine.gains import small_lists
from core.engine.order import id_desc_order, tied_positions
from core.model.conventions import Conventions, TieRule
from core.model.document import Document, GradeState
from core.model.numbers import agreed, counted

__all__ = [
    "CandidateChange",
    "InventoryChange",
    "LeftOut",
    "Side",
    "TieSensitivity",
    "WhatChanged",
    "conventions_diff",
    "few",
    "tie_facts",
    "tie_rule_ndcg",
    "tie_sensitivity",
    "what_changed",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class CandidateChange:
    """One candidate whose place in the cut at ``k`` differs between A and B.

    ``kind`` is ``moved`` (in both cuts, at another rank, or at the same rank
    in another tie group), ``entered`` (in B's cut only), ``left`` (in A's cut
    only) or ``regraded`` (same rank, another gain). Ranks are None where the
    candidate is not ranked; contributions are to DCG@k (0 outside the cut,
    NaN when the gain is unknown).
    """

    source_id: str
    kind: str
    rank_a: int | None
    rank_b: int | None
    contribution_a: float
    contribution_b: float

    @property
    def delta(self) -> float:
        """Contribution gained (positive) or lost (negative) from A to B."""
        return self.contribution_b - self.contribution_a


@dataclass(frozen=True)
class InventoryChange:
    """Sources of one query present in only one of the two documents."""

    query: str
    added: tuple[str, ...]
    removed: tuple[str, ...]


@dataclass(frozen=True)
class WhatChanged:
    """What differs between the two documents, condition by condition."""

    conventions: tuple[tuple[str, Any, Any], ...]
    queries_only_a: tuple[str, ...]
    queries_only_b: tuple[str, ...]
    inventory_queries: int
    sources_added: int
    sources_removed: int
    judgment_version_a: str
    judgment_version_b: str
    grade_differences: int
    grade_difference_queries: int
    order_queries: int
    weight_queries: int

    @property
    def changed(self) -> list[str]:
        """Names of the conditions that differ, in a fixed order."""
        out = []
        if self.conventions:
            out.append("declared conventions")
        if self.queries_only_a or self.queries_only_b:
            out.append("query set")
        if self.inventory_queries:
            out.append("candidate inventory")
        if self.judgment_version_a != self.judgment_version_b or self.grade_differences:
            out.append("grades")
        if self.order_queries:
            out.append("ranking order")
        if self.weight_queries:
            out.append("query weights")
        return out

    @property
    def fixed(self) -> list[str]:
        every = [
            "declared conventions", "query set", "candidate inventory", "grades",
            "ranking order", "query weights",
        ]
        changed = self.changed
        return [c for c in every if c not in changed]

    def details(self) -> list[str]:
        """One line per condition, changed or not."""
        lines = []
        if self.conventions:
            diffs = "; ".join(f"{name}: {a} -> {b}" for name, a, b in self.conventions)
            lines.append(f"declared conventions differ: {diffs}")
        else:
            lines.append("declared conventions: the same")
        if self.queries_only_a or self.queries_only_b:
            lines.append(
                f"query set: {len(self.queries_only_a)} only in A"
                f"{few(self.queries_only_a)}, {len(self.queries_only_b)} only in B"
                f"{few(self.queries_only_b)}"
            )
        else:
            lines.append("query set: the same")
        if self.inventory_queries:
            lines.append(
                f"candidate inventory: {counted(self.sources_added, 'source')} added and "
                f"{self.sources_removed} removed, in {counted(self.inventory_queries)}"
            )
        else:
            lines.append("candidate inventory: the same in every shared query")
        va = self.judgment_version_a or "not declared"
        vb = self.judgment_version_b or "not declared"
        version = (
            f"judgment version {va}" if va == vb else f"judgment version {va} -> {vb}"
        )
        lines.append(
            f"grades: {version}; {counted(self.grade_differences, 'grade')} "
            f"{agreed(self.grade_differences, 'differs')}"
            + (f" in {counted(self.grade_difference_queries)}" if self.grade_differences else "")
        )
        lines.append(
            f"ranking order: differs in {counted(self.order_queries)}"
            if self.order_queries else "ranking order: the same in every shared query"
        )
        lines.append(
            f"query weights: differ in {counted(self.weight_queries)}"
            if self.weight_queries else "query weights: the same"
        )
        return lines

    def sentence(self) -> str:
        """One plain sentence; several changes are named together, not ranked."""
        changed = self.changed
        fixed = self.fixed
        if not changed:
            return (
                "Nothing differs between the two documents: conventions, queries, inventory, "
                "grades, order and weights are the same."
            )
        stayed = f" ({_join(fixed)} stayed fixed)" if fixed else ""
        if len(changed) == 1:
            return f"Only the {changed[0]} differs between the two documents{stayed}."
        return (
            f"The {_join(changed)} changed together{stayed}, so this comparison does not "
            "isolate one cause of the difference."
        )


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def few(items: Sequence[str], n: int = 5) -> str:
    """`` (a, b, ...)`` naming the first ``n`` items, or nothing."""
    if not items:
        return ""
    shown = ", ".join(items[:n])
    return f" ({shown}{', ...' if len(items) > n else ''})"


@dataclass(frozen=True)
class LeftOut:
    """The queries the inputs of a comparison name that it does not compare
    (besides those one document only holds, which it lists as only in A or B).

    ``unranked``: the qrels judge them and neither run ranks them;
    ``unjudged``: a run ranks them and no judgment covers them (the qrels
    never judge them, or the open document does not hold them). Both are
    left out of the documents when the runs are read (as trec_eval leaves
    them out), so nothing of theirs is compared; the reports count them.

    >>> LeftOut(("q2", "q3"), ("q9",)).phrase()
    '2 queries judged but ranked by neither run (q2, q3), 1 query ranked but never judged (q9)'
    >>> bool(LeftOut())
    False
    """

    unranked: tuple[str, ...] = ()
    unjudged: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.unranked or self.unjudged)

    def phrase(self, runs: int = 2) -> str:
        """What was left out and why, for the line ``Not compared: ...``
        (of a comparison of ``runs`` runs)."""
        by = "neither run" if runs == 2 else "no run"
        parts = [f"{counted(len(ids))} {why}{few(ids)}"
                 for ids, why in ((self.unranked, f"judged but ranked by {by}"),
                                  (self.unjudged, "ranked but never judged")) if ids]
        return ", ".join(parts)


def conventions_diff(a: Conventions, b: Conventions) -> tuple[tuple[str, Any, Any], ...]:
    """The declared conventions that differ: (field, A's value, B's value)."""
    da, db = a.to_dict(), b.to_dict()
    out = []
    for key in da:
        if da[key] != db.get(key):
            va, vb = da[key], db.get(key)
            if isinstance(va, list):
                va = ",".join(map(str, va))
            if isinstance(vb, list):
                vb = ",".join(map(str, vb))
            out.append((key, va, vb))
    return tuple(out)


def what_changed(
    ev_a: Evaluation,
    ev_b: Evaluation,
    queries: QueryAlignment,
    partner_b: PartnerArray,
    across: Across,
) -> WhatChanged:
    """Condition by condition, what differs between the two evaluated documents
    (``partner_b`` and ``across`` from
    :func:`core.analysis.compare.across.align_candidates`)."""
    return replace(changes_but_order(ev_a, ev_b, queries, across.partner, across.has_b,
                                     partner_b),
                   order_queries=order_queries(ev_a, ev_b, queries, partner_b, across.rank_b))


def changes_but_order(
    ev_a: Evaluation,
    ev_b: Evaluation,
    queries: QueryAlignment,
    at_b: PartnerArray,
    has_b: BoolArray,
    partner_b: PartnerArray,
) -> WhatChanged:
    """:func:`what_changed` but the ranking order (``order_queries`` 0: see
    :func:`order_queries`), from the partners alone (``at_b`` A's rows'
    partners, -1 where ``has_b`` does not hold, read as row 0, as
    :class:`Across`'s ``partner`` and ``has_b``):
    compare's first lane works it out while the second gathers B's ranks."""
    doc_a, doc_b = ev_a.doc, ev_b.doc
    qa, qb, nc = queries.qa, queries.qb, len(queries.common)
    row_common_a, row_common_b = queries.row_common_a, queries.row_common_b
    in_a = row_common_a >= 0
    removed = in_a & ~has_b
    added = (row_common_b >= 0) & (partner_b < 0)
    inv_q = np.zeros(nc, dtype=bool)
    inv_q[row_common_a[removed]] = True
    inv_q[row_common_b[added]] = True

    differ = np.empty(at_b.size, dtype=bool)
    for part in across_blocks(at_b.size):  # B's states and grades a block at a time
        # (the partners clamped a block at a time: no full-length copy of
        # them, 8 MB at 2M rows where compare()'s peak is)
        sa, rows = doc_a.state[part], np.maximum(at_b[part], 0)
        differ[part] = (sa != doc_b.state[rows]) | (
            (sa == GradeState.NUMBER) & (doc_a.grade[part] != doc_b.grade[rows]))
    differ &= has_b & in_a
    grade_q = np.bincount(row_common_a[differ], minlength=nc) > 0

    def differs(x: FloatArray, y: FloatArray) -> BoolArray:
        same: BoolArray = (x == y) | (np.isnan(x) & np.isnan(y))
        return ~same

    weight_q = differs(doc_a.frequency[qa], doc_b.frequency[qb]) | differs(
        doc_a.importance[qa], doc_b.importance[qb]
    )
    return WhatChanged(
        conventions=conventions_diff(doc_a.conventions, doc_b.conventions),
        queries_only_a=tuple(queries.only_a),
        queries_only_b=tuple(queries.only_b),
        inventory_queries=int(inv_q.sum()),
        sources_added=int(added.sum()),
        sources_removed=int(removed.sum()),
        judgment_version_a=doc_a.judgment_version,
        judgment_version_b=doc_b.judgment_version,
        grade_differences=int(np.count_nonzero(differ)),
        grade_difference_queries=int(np.count_nonzero(grade_q)),
        order_queries=0,
        weight_queries=int(weight_q.sum()),
    )


def order_queries(
    ev_a: Evaluation, ev_b: Evaluation, queries: QueryAlignment, partner_b: PartnerArray,
    rank_b: PartnerArray,
) -> int:
    """How many shared queries have a candidate ranked in one document and not
    the other, or at another rank (``rank_b``: :attr:`Across.rank_b`; rank 0:
    not ranked, or no partner)."""
    row_common_a, row_common_b = queries.row_common_a, queries.row_common_b
    rank_a, ranked_b = ev_a.rank, ev_b.ranked_mask
    order_q = np.zeros(len(queries.common), dtype=bool)
    # A block of rows at a time: the queries of every row that differs (most
    # rows at k = all) gathered at once were 2 x 8 MB at 2M rows, at the
    # defaults' peak (the lane's last step, beside changes_but_order).
    for part in across_blocks(rank_a.size):
        q = row_common_a[part]
        order_q[q[(q >= 0) & (rank_a[part] != rank_b[part])]] = True
    for part in across_blocks(ranked_b.size):
        q = row_common_b[part]
        order_q[q[(q >= 0) & (partner_b[part] < 0) & ranked_b[part]]] = True
    return int(order_q.sum())


@dataclass(frozen=True)
class TieSensitivity:
    """Queries whose delta changes sign or vanishes under another tie rule.

    ``per_rule`` maps each other tie rule to the number of queries (of those
    defined in both) whose delta has another sign under it (+ to -, to 0, or
    0 to +/-); ``queries`` names them, over every rule.
    """

    k: int | None
    rule: TieRule
    per_rule: dict[str, int]
    queries: tuple[str, ...]
    with_ties: int

    @property
    def count(self) -> int:
        return len(self.queries)

    def sentence(self) -> str:
        """The tie rules' line of a comparison (the table's and the window's)."""
        per = ", ".join(f"{r} {n}" for r, n in self.per_rule.items())
        whose = counted(self.count, "query's", "queries'")
        return (f"Tie rules: {whose} delta changes sign or "
                f"vanishes under another tie rule than {self.rule.value} ({per}; "
                f"{counted(self.with_ties, 'query has', 'queries have')} tied scores)")


@dataclass
class Side:
    """One side of a comparison: its evaluation, its NDCG under the other tie
    rules, and which of its queries hold tied scores."""

    evaluation: Evaluation
    tie_ndcg: dict[TieRule, FloatArray]
    tied: IntArray


def tie_rule_ndcg(ev: Evaluation, rules: Sequence[TieRule]) -> dict[TieRule, FloatArray]:
    """NDCG (queries x cutoffs) of ``ev``'s document under other tie rules
    (see :func:`tie_facts`)."""
    return tie_facts(ev, rules)[0]


def tie_facts(
    ev: Evaluation, rules: Sequence[TieRule]
) -> tuple[dict[TieRule, FloatArray], IntArray]:
    """NDCG (queries x cutoffs) of ``ev``'s document under other tie rules,
    and the queries that hold two ranked candidates of equal score.

    Only the members of tie groups (equal scores in one query) are placed
    differently by another tie rule; the ideal DCG does not depend on it. So
    each rule's DCG is the evaluated DCG minus the tied members' contributions
    as placed under the evaluated rule plus their contributions as placed
    under the other rule, with the engine's definitions: ``supplied`` row
    order, ``id-desc`` source id descending, ``optimistic``/``pessimistic``
    highest/lowest gain first, ``average`` the mean discount of the group's
    positions (each up to k). ``tests/test_compare.py`` checks this against
    :func:`core.engine.evaluate` under every rule.
    """
    groups = _tie_groups(ev)
    if groups is None:
        return {r: ev.ndcg.copy() for r in rules}, np.zeros(0, dtype=np.int64)
    out: dict[TieRule, FloatArray] = {}
    base = _tied_dcg(ev, groups, ev.conventions.ties)
    idcg = ev.idcg
    positive = idcg > 0
    for rule in rules:
        dcg = ev.dcg - base + _tied_dcg(ev, groups, rule)
        with np.errstate(divide="ignore", invalid="ignore"):
            nd = np.where(positive, dcg / idcg, ev.ndcg)
        nd[np.isnan(ev.ndcg)] = np.nan
        out[rule] = nd
    # Gains too small for the arithmetic: those queries lifted, as the engine does.
    for group, _members, part, _lift in small_lists(ev, idcg):
        lifted = tie_facts(part, rules)[0]
        for rule in rules:
            out[rule][group] = lifted[rule]
    return out, groups.queries


@dataclass
class _TieGroups:
    """The ranked candidates that share their score with another of their
    query: ``rows`` in ranked order, ``group`` numbering their tie groups 0, 1,
    2, ..., ``slot_rank`` the ranks of the group's slots (ascending), their
    ``gains`` and ``query``; ``queries`` the queries holding a tie."""

    rows: IntArray
    group: npt.NDArray[np.integer[Any]]
    slot_rank: FloatArray
    gains: FloatArray
    query: IntArray
    queries: IntArray
    _discounts: dict[tuple[int | None, bool], FloatArray] = field(default_factory=dict)

    def discounts(self, k: int | None, average: bool) -> FloatArray:
        """Each slot's discount up to ``k`` (0 past it); with ``average``, the
        mean of its group's. Worked out once for all the rules (on ties of
        most candidates, 1-2M slots, each pass is ~10 ms)."""
        if (k, average) not in self._discounts:
            d = 1.0 / np.log2(self.slot_rank + 1.0)
            if k is not None:
                d = np.where(self.slot_rank <= k, d, 0.0)
            if average:
                size = np.bincount(self.group)
                d = (np.bincount(self.group, weights=d) / size)[self.group]
            self._discounts[k, average] = d
        return self._discounts[k, average]


def _tie_groups(ev: Evaluation) -> _TieGroups | None:
    """The tie groups of ``ev``'s ranked lists, or None when there is none."""
    if ev.sorted_query.size < 2:
        return None
    starts = ev.tie_start
    if starts.all():
        return None
    tied_queries = np.unique(ev.sorted_query[~starts])
    pos, group = tied_positions(starts)
    rows = ev.ranked_at(pos)  # (no order made where it is the rows' own: 16 MB at 2M)
    slot_rank = ev.rank[rows].astype(np.float64)  # ranks of the group's slots, ascending
    return _TieGroups(rows, group, slot_rank, ev.gain_at(rows), ev.doc.query[rows], tied_queries)


def _placed(doc: Document, t: _TieGroups, rule: TieRule) -> FloatArray:
    """The tied members' gains in the order ``rule`` places them in their slots."""
    rows, group, gains = t.rows, t.group, t.gains
    if rule is TieRule.SUPPLIED:
        perm = np.lexsort((rows, group))
    elif rule is TieRule.OPTIMISTIC:
        perm = np.lexsort((rows, -gains, group))
    elif rule is TieRule.PESSIMISTIC:
        perm = np.lexsort((rows, gains, group))
    elif rule is TieRule.ID_DESC:
        perm = id_desc_order(doc, rows, group)
    else:
        raise ValueError(rule)
    # Members of a group are contiguous and their slots ascend, so sorting
    # by group first keeps every gain within its own group's slots.
    return np.asarray(gains[perm], dtype=np.float64)


def _tied_dcg(ev: Evaluation, t: _TieGroups, rule: TieRule) -> FloatArray:
    """The tied members' share of DCG (queries x cutoffs) as placed by ``rule``."""
    nq = ev.doc.n_queries
    dcg = np.empty((nq, len(ev.cutoffs)))
    g = t.gains if rule is TieRule.AVERAGE else _placed(ev.doc, t, rule)
    for j, k in enumerate(ev.cutoffs):
        d = t.discounts(k, rule is TieRule.AVERAGE)
        contrib = np.where(d > 0, g * d, 0.0)
        dcg[:, j] = np.bincount(t.query, weights=contrib, minlength=nq)
    return dcg


def tie_sensitivity(
    conv: Conventions,
    a: Side,
    b: Side,
    queries: QueryAlignment,
    delta: FloatArray,
    paired: BoolArray,
) -> list[TieSensitivity]:
    """Count the shared queries whose delta changes sign or vanishes under
    another tie rule (elsewhere every tie rule gives the same numbers).

    ``delta`` and ``paired`` are (shared queries x cutoffs): B - A, and
    whether the query enters the paired statistics.
    """
    ks = conv.cutoffs
    qa, qb, common = queries.qa, queries.qb, queries.common
    with_ties = np.zeros(a.evaluation.doc.n_queries, dtype=bool)
    with_ties[a.tied] = True
    with_ties_b = np.zeros(b.evaluation.doc.n_queries, dtype=bool)
    with_ties_b[b.tied] = True
    n_tied = int(np.count_nonzero(with_ties[qa] | with_ties_b[qb]))
    base = sign(delta)
    flagged = np.zeros(delta.shape, dtype=bool)
    per_rule: list[dict[str, int]] = [{} for _ in ks]
    for rule, nd_a in a.tie_ndcg.items():
        d = b.tie_ndcg[rule][qb] - nd_a[qa]
        moved = paired & (sign(d) != base)
        flagged |= moved
        for j in range(len(ks)):
            per_rule[j][rule.value] = int(np.count_nonzero(moved[:, j]))
    return [
        TieSensitivity(
            k, conv.ties, per_rule[j],
            tuple(common[i] for i in np.flatnonzero(flagged[:, j])), n_tied,
        )
        for j, k in enumerate(ks)
    ]
