"""What changed between two rankings: each candidate's change and its
contribution, the inventory, the causes named together, the movement counts
(moved, regraded, entered, left) per query and per cutoff, the values
gathered across a few rows at a time against the whole columns."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analysis.compare import (
    across,
    compare,
)
from core.analysis.compare.across import (
    contributions_at,
    gather_across,
)
from core.engine.evaluation import evaluate
from core.io.trec import document_from_trec
from core.model.conventions import Conventions, TieRule
from core.model.document import Document
from core.model.presets import preset
from core.reports.table import print_comparison
from tests.compare_cases import (
    L3,
    RUN_A,
    RUN_B,
    tied_documents,
    whole_counts,
    write_trec,
)
from tests.conftest import doc_of


def test_candidate_changes_with_contributions() -> None:
    conv = Conventions(cutoffs=(1, None))
    c = compare(doc_of(RUN_A), doc_of(RUN_B), conv, resamples=100)
    whole = {ch.source_id: ch for ch in c.candidate_changes("q1", 1)}
    assert whole["y"].kind == "moved"
    assert (whole["y"].rank_a, whole["y"].rank_b) == (2, 1)
    assert whole["y"].contribution_a == pytest.approx(1 / L3)
    assert whole["y"].contribution_b == 1.0
    assert whole["y"].delta == pytest.approx(1 - 1 / L3)
    assert whole["x"].kind == "moved"
    assert whole["x"].delta == 0.0  # grade 0 contributes nothing anywhere
    at1 = {ch.source_id: ch.kind for ch in c.candidate_changes("q1", 0)}
    assert at1 == {"y": "entered", "x": "left"}
    first = c.candidate_changes("q3", 0)[0]
    assert (first.source_id, first.kind, first.delta) == ("s", "left", -3.0)
    counts = c.movement_counts(0)
    assert counts["entered"].tolist() == [1, 0, 1]
    assert counts["left"].tolist() == [1, 0, 1]
    assert counts["moved"].tolist() == [0, 0, 0]
    assert c.candidate_changes("q2", 1) == []


def test_entered_from_outside_the_inventory_and_inventory_changes() -> None:
    a = doc_of([("q", "x", 3.0, 1.0), ("q", "y", 2.0, 0.0)])
    b = doc_of([("q", "z", 3.0, 2.0), ("q", "x", 2.0, 1.0)])
    c = compare(a, b, Conventions(cutoffs=(None,)), resamples=10)
    kinds = {ch.source_id: (ch.kind, ch.delta) for ch in c.candidate_changes("q")}
    assert kinds["z"] == ("entered", 2.0)
    assert kinds["y"][0] == "left"
    assert kinds["x"] == ("moved", pytest.approx(1 / L3 - 1))
    inv = c.inventory()
    assert [(i.query, i.added, i.removed) for i in inv] == [("q", ("z",), ("y",))]
    out = io.StringIO()
    print_comparison(c, out)
    assert "    q: added 1 (z), removed 1 (y)\n" in out.getvalue()
    ch = c.changes
    assert (ch.sources_added, ch.sources_removed, ch.inventory_queries) == (1, 1, 1)
    assert "candidate inventory" in ch.changed
    assert "ranking order" in ch.changed
    # one query: its count in the singular (a new user's trial read "in 1 queries")
    assert ch.details()[2:5] == [
        "candidate inventory: 1 source added and 1 removed, in 1 query",
        "grades: judgment version not declared; 0 grades differ",
        "ranking order: differs in 1 query",
    ]


def test_inventory_queries_past_the_five_listed_are_counted_in_the_singular() -> None:
    """Six queries whose candidates changed: five listed, then "... and 1
    more query" (a new user's trial read "and 1 more queries"), two more
    queries in the plural."""
    for n, more in ((6, "1 more query"), (7, "2 more queries")):
        a = doc_of([(f"q{i}", "x", 2.0, 1.0) for i in range(n)])
        b = doc_of([(f"q{i}", "y", 2.0, 1.0) for i in range(n)])
        out = io.StringIO()
        print_comparison(compare(a, b, Conventions(cutoffs=(None,)), resamples=10), out)
        assert f"    ... and {more} (all in --format json)\n" in out.getvalue(), out.getvalue()


def test_what_changed_counts_one_grade_and_one_weight_in_the_singular() -> None:
    a = doc_of([("q", "x", 3.0, 1.0), ("q", "y", 2.0, 0.0)], frequency={"q": 1.0})
    b = doc_of([("q", "x", 3.0, 2.0), ("q", "y", 2.0, 0.0)], frequency={"q": 2.0})
    ch = compare(a, b, Conventions(cutoffs=(None,)), resamples=10).changes
    assert ch.details()[3:] == [
        "grades: judgment version not declared; 1 grade differs in 1 query",
        "ranking order: the same in every shared query",
        "query weights: differ in 1 query",
    ]


def test_only_the_order_changed() -> None:
    a = doc_of(RUN_A[:6], judgment_version="j1")
    b = doc_of(RUN_B[:6], judgment_version="j1")
    ch = compare(a, b, Conventions(), resamples=10).changes
    assert ch.changed == ["ranking order"]
    assert ch.order_queries == 2
    assert ch.sentence().startswith("Only the ranking order differs between the two documents")
    assert "grades" in ch.sentence()  # named among what stayed fixed


def test_several_changes_are_named_together() -> None:
    b_rows = [(q, s, sc, (g + 1 if q == "q2" and g is not None else g)) for q, s, sc, g in RUN_B]
    a = doc_of(RUN_A, judgment_version="j1", conventions=preset("trec_eval"))
    b = doc_of(b_rows, judgment_version="j2", conventions=preset("sklearn"))
    c = compare(a, b, Conventions(), resamples=10)
    ch = c.changes
    assert ch.changed == ["declared conventions", "query set", "grades", "ranking order"]
    assert ch.grade_differences == 2
    fields = {f: (x, y) for f, x, y in ch.conventions}
    assert fields["ideal"] == ("judged", "ranked")
    assert fields["ties"] == ("id-desc", "average")
    assert fields["preset"] == ("trec_eval", "sklearn")
    sentence = ch.sentence()
    assert "changed together" in sentence
    assert "does not isolate one cause" in sentence
    assert any("judgment version j1 -> j2" in line for line in ch.details())


@given(a=tied_documents(), b=tied_documents(), k=st.sampled_from([1, 2, 3, None]),
       ties=st.sampled_from(list(TieRule)))
def test_candidate_changes_add_up_to_the_dcg_difference(
    a: Document, b: Document, k: int | None, ties: TieRule
) -> None:
    conv = Conventions(cutoffs=(k,), unknown="zero", ties=ties)  # type: ignore[arg-type]
    c = compare(a, b, conv, resamples=10)
    # Every query's at once (the JSON report's) as one query's at a time.
    every, two = c.largest_changes(0, len(a) + len(b)), c.largest_changes(0, 2)
    assert len(every) == len(two) == len(c.common)
    for i, q in enumerate(c.common):
        changes = c.candidate_changes(q)
        assert every[i] == changes
        assert two[i] == changes[:2]
        total = sum(ch.delta for ch in changes)
        expected = c.ev_b.dcg[c.qb[i], 0] - c.ev_a.dcg[c.qa[i], 0]
        assert total == pytest.approx(expected, abs=1e-12)
        deltas = [abs(ch.delta) for ch in changes]
        assert deltas == sorted(deltas, reverse=True)
        assert c.candidate_changes(q, 0, limit=2) == changes[:2]
        counts = c.movement_counts(0)
        for kind in ("moved", "regraded", "entered", "left"):
            assert counts[kind][i] == sum(ch.kind == kind for ch in changes)


def test_changes_of_every_query_in_blocks_as_one_at_a_time(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Blocks of one and two queries (the block's edges inside the shared
    queries, q4 and q5 in one side only) give each query's own changes, and
    the inventory decoded in one call each query's own sources."""
    import core.analysis.compare.comparison as comparison

    a = doc_of([*RUN_A, ("q3", "w", 0.5, 1.0), ("q2", "n", 0.5, 0.0)])
    b = doc_of([*RUN_B, ("q1", "z", 3.0, 2.0), ("q2", "o", 3.0, 1.0)])
    c = compare(a, b, Conventions(cutoffs=(1, None)), resamples=10)
    for block in (1, 2, 256):
        monkeypatch.setattr(comparison, "_CHANGES_BLOCK", block)
        for j in (0, 1):
            assert c.largest_changes(j, 1) == [c.candidate_changes(q, j, 1) for q in c.common]
            assert c.largest_changes(j, 9) == [c.candidate_changes(q, j) for q in c.common]
    assert [(q.query, q.added, q.removed) for q in c.inventory()] == [
        ("q1", ("z",), ()), ("q2", ("o",), ("n",)), ("q3", (), ("w",))]
    assert [q.query for q in c.inventory(limit=2)] == ["q1", "q2"]
    whole = c.largest_changes(1, 9)
    # q1 at k = all: B's new z entered at rank 1 (contribution 2), x moved from
    # rank 1 to 3 (grade 0: 0 both ways), y kept rank 2 and its grade (no change).
    assert [(ch.source_id, ch.kind, ch.rank_a, ch.rank_b, ch.delta) for ch in whole[0]] == [
        ("z", "entered", None, 1, 2.0), ("x", "moved", 1, 3, 0.0)]


@given(a=tied_documents(), data=st.data(), ties=st.sampled_from(list(TieRule)),
       unknown=st.sampled_from(["zero", "condensed"]))
def test_what_changed_counts_match_the_lists_query_by_query(
    a: Document, data: st.DataObject, ties: TieRule, unknown: str
) -> None:
    # B is A with some scores and grades redrawn (so many queries keep their
    # order); the counts are checked against each query's ranked source ids
    # and each shared source's grade.
    rows = []
    for i in range(len(a)):
        score, grade = a.score[i], a.grade[i]
        if data.draw(st.booleans()):
            score = data.draw(st.sampled_from([np.nan, 0.0, 1.0, 2.0]))
        if data.draw(st.integers(0, 3)) == 0:
            grade = data.draw(st.sampled_from([np.nan, 0.0, 3.0]))
        rows.append((a.query_ids[int(a.query[i])], str(a.source_id[i]),
                     None if np.isnan(score) else float(score),
                     None if np.isnan(grade) else float(grade)))
    b = doc_of(rows)
    c = compare(a, b, Conventions(ties=ties, unknown=unknown), resamples=10)  # type: ignore[arg-type]
    order = grades = differences = 0
    for i in range(len(c.common)):
        ranked_a = [str(s) for s in a.source_id[c.ev_a.ranked(int(c.qa[i]))]]
        ranked_b = [str(s) for s in b.source_id[c.ev_b.ranked(int(c.qb[i]))]]
        order += ranked_a != ranked_b
        graded_a = {str(a.source_id[r]): (a.state[r], a.grade[r]) for r in a.members(int(c.qa[i]))}
        graded_b = {str(b.source_id[r]): (b.state[r], b.grade[r]) for r in b.members(int(c.qb[i]))}
        here = sum(
            graded_a[s][0] != graded_b[s][0]
            or (graded_a[s][0] == 0 and graded_a[s][1] != graded_b[s][1])
            for s in graded_a.keys() & graded_b.keys()
        )
        differences += here
        grades += here > 0
    assert c.changes.order_queries == order
    assert c.changes.grade_differences == differences
    assert c.changes.grade_difference_queries == grades


def test_changes_and_inventory_of_runs_read_as_bytes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Two TREC runs keep their ids as bytes; the changes and the inventory
    # decode only the rows they name, and say what the decoded ids say.
    rows_a = [("q1", "é-x", 3.0, 0), ("q1", "y", 2.0, 0), ("q1", "only-a", 1.0, 0)]
    rows_b = [("q1", "y", 3.0, 0), ("q1", "é-x", 2.0, 0), ("q1", "only-b", 1.0, 0)]
    a, b, q = write_trec(tmp_path, rows_a, rows_b, [("q1", "é-x", 1), ("q1", "y", 2)])
    docs = [document_from_trec(a, q), document_from_trec(b, q)]
    assert all(d.source_bytes() is not None for d in docs)
    c = compare(*docs, Conventions(cutoffs=(None,)), resamples=10)
    changes = [(ch.source_id, ch.kind) for ch in c.candidate_changes("q1")]
    inventory = [(i.query, i.added, i.removed) for i in c.inventory()]
    assert not any(vars(Document)["source_id"].is_made(d) for d in docs)
    assert sorted(changes) == [("only-a", "left"), ("only-b", "entered"), ("y", "moved"),
                               ("é-x", "moved")]
    assert inventory == [("q1", ("only-b",), ("only-a",))]
    for d in docs:
        d.source_id  # noqa: B018 - the whole column decoded: the same answers
    assert sorted((ch.source_id, ch.kind) for ch in c.candidate_changes("q1")) == sorted(changes)
    assert [(i.query, i.added, i.removed) for i in c.inventory()] == inventory


def test_values_gathered_across_a_few_rows_at_a_time_are_every_rows(monkeypatch):
    # B's ranks, gains and grades are gathered at A's rows a block of rows at
    # a time (across._ACROSS): blocks of 2 rows, ending mid-query and
    # mid-partner, give what one block of every row gives, and the hand count.
    nan = math.nan
    doc_a = doc_of([("q", "s1", 6, 3), ("q", "s2", 5, 2), ("q", "s3", 4, nan),
                    ("q", "s4", 3, 1), ("q", "s5", 2, 0), ("q", "s6", 1, 2),
                    ("r", "s1", 2, 1), ("r", "s2", 1, 0)])
    doc_b = doc_of([("q", "s4", 9, 1), ("q", "s2", 8, 1), ("q", "s7", 7, 2),
                    ("q", "s1", 6, 3), ("q", "s3", 5, nan),
                    ("r", "s2", 2, 1), ("r", "s1", 1, 1)])
    whole = compare(doc_a, doc_b, resamples=10)
    monkeypatch.setattr(across, "_ACROSS", 2)
    assert [(s.start, s.stop) for s in across.across_blocks(5)] == [(0, 2), (2, 4), (4, 5)]
    blocks = compare(doc_a, doc_b, resamples=10)
    fields = ("partner", "has_b", "rank_b", "first_b", "same_gain", "first_a_at_b")
    gathered = gather_across(blocks.ev_a, blocks.ev_b, blocks.partner_a, blocks.partner_b)
    got = {f: getattr(gathered, f).tolist() for f in fields}
    assert got == {f: getattr(gather_across(whole.ev_a, whole.ev_b, whole.partner_a,
                                            whole.partner_b), f).tolist() for f in fields}
    for j in range(len(whole.cutoffs)):
        counts = {kind: v.tolist() for kind, v in blocks.movement_counts(j).items()}
        assert counts == {kind: v.tolist() for kind, v in whole.movement_counts(j).items()}
        assert counts == whole_counts(blocks, gathered, j)
    # A's rows s1..s6 of q, then s1, s2 of r: B ranks s1 4th, s2 2nd, s3 5th,
    # s4 1st (s5, s6 not in B); in r, s1 2nd and s2 1st.
    assert got["rank_b"] == [4, 2, 5, 1, 0, 0, 2, 1]
    assert got["partner"] == [3, 1, 4, 0, -1, -1, 6, 5]  # (read as row 0 where -1)
    assert got["same_gain"] == [True, False, True, True, False, False, True, False]
    assert got["first_a_at_b"] == [4, 2, 0, 1, 3, 2, 1]  # A's ranks at B's rows
    # Grades that differ: s2 of q (2 / 1), s1 and s2 of r (1 / 1 same, 0 / 1).
    assert blocks.changes == whole.changes
    assert (blocks.changes.grade_differences, blocks.changes.grade_difference_queries) == (2, 2)


def test_tie_shifted_moves_counted_a_few_rows_at_a_time(monkeypatch):
    # Averaged ties: y keeps rank 2 and gain 1, but in A it shares a tie with
    # z (contribution 1 x mean discount of ranks 2-3: 0.5655), in B it is alone
    # (1 / log2(3) = 0.6309): it moved. B's contributions are compared with
    # A's a block of rows at a time (across._ACROSS): blocks of 2 rows, ending
    # mid-query, count what one block does, and the hand count.
    a = doc_of([("q", "x", 3, 1), ("q", "y", 2, 1), ("q", "z", 2, 0),
                ("r", "u", 1, 2), ("r", "v", 1, 0)])
    b = doc_of([("q", "z", 1, 0), ("q", "y", 2, 1), ("q", "x", 3, 1),
                ("r", "v", 1, 0), ("r", "u", 1, 2)])  # B's rows in another order
    conv = Conventions(cutoffs=(None, 2), ties=TieRule.AVERAGE)
    whole = compare(a, b, conv, resamples=10)
    monkeypatch.setattr(across, "_ACROSS", 2)
    blocks = compare(a, b, conv, resamples=10)
    for j, left in ((0, [0, 0]), (1, [1, 0])):  # at k = 2, z left B's cut
        counts = {kind: v.tolist() for kind, v in blocks.movement_counts(j).items()}
        # In r, B lists v before u in their tie: each took the other's rank.
        assert counts == {"moved": [1, 2], "regraded": [0, 0], "entered": [0, 0], "left": left}
        assert counts == {kind: v.tolist() for kind, v in whole.movement_counts(j).items()}


@given(doc=tied_documents(), k=st.sampled_from([1, 2, 3, None]), data=st.data(),
       unknown=st.sampled_from(["zero", "condensed", "unresolved"]))
def test_contributions_at_some_rows_are_the_whole_columns(
    doc: Document, k: int | None, data: st.DataObject, unknown: str
) -> None:
    """The movement counts' contributions made at the rows they compare (any
    order, repeated) are the whole column's at those rows, bit for bit (NaN
    where the gain is unknown): the same discounts summed in the same order."""
    ev = evaluate(doc, Conventions(cutoffs=(k,), ties=TieRule.AVERAGE, unknown=unknown))  # type: ignore[arg-type]
    first = ev.tie_first_rank
    cut = np.flatnonzero((first > 0) & (True if k is None else first <= k))
    some = st.lists(st.sampled_from(cut.tolist()), max_size=12) if cut.size else st.just([])
    rows = np.asarray(data.draw(some), dtype=np.int64)
    whole = ev.contribution_at(k)[rows]
    got = contributions_at(ev, k, rows)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got.view(np.uint64), whole.view(np.uint64))


def test_contributions_at_a_tie_that_ends_the_last_list() -> None:
    # y and z tie at ranks 2-3, the document's last positions: y's
    # contribution is its gain 2 times the mean discount of ranks 2 and 3
    # (at k = 2 only rank 2's counts, over the group's two positions).
    doc = doc_of([("q", "x", 2.0, 1), ("q", "y", 1.0, 2), ("q", "z", 1.0, 0)])
    for k, mean in ((None, (1 / math.log2(3) + 1 / math.log2(4)) / 2),
                    (2, 1 / math.log2(3) / 2)):
        ev = evaluate(doc, Conventions(cutoffs=(k,), ties=TieRule.AVERAGE))
        got = contributions_at(ev, k, np.array([1, 0, 1]))
        assert got.tolist() == [2 * mean, 1.0, 2 * mean]
