"""The engine against an independent, slow reference and its invariants;
its hand-computed cases. Its parts against their plain definitions are
tests/test_engine_parts.py's."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from core.engine.evaluation import Status, evaluate
from core.errors import InputError
from core.model.conventions import (
    Conventions,
    Gain,
    GainRule,
    IdealInventory,
    TieRule,
    UnknownRule,
    UnrankedRule,
    ZeroIdealRule,
)
from core.model.document import Document, GradeState
from core.model.presets import preset

SCORES = st.sampled_from([None, 0.0, 0.5, 1.0, 2.0, 2.0])


GRADES = st.sampled_from([None, 0.0, 1.0, 2.0, 3.0])


@st.composite
def documents(draw, max_queries=3, max_candidates=7, grades=GRADES):
    queries, sids, scores, grade = [], [], [], []
    for qn in range(draw(st.integers(1, max_queries))):
        n = draw(st.integers(0, max_candidates))
        names = draw(st.permutations("abcdefghij"))[:n]
        for name in names:
            queries.append(f"q{qn}")
            sids.append(name)
            scores.append(draw(SCORES))
            grade.append(draw(grades))
    if not queries:
        queries, sids, scores, grade = ["q0"], ["a"], [1.0], [1.0]
    return Document.from_columns(query=queries, source_id=sids, score=scores, grade=grade)


CONVENTIONS = st.builds(
    Conventions,
    gain=st.sampled_from(
        [Gain(), Gain(GainRule.EXPONENTIAL), Gain.parse("1=3,2=9,3=4.5")]
    ),
    cutoffs=st.sampled_from([(None,), (1,), (1, 3, None), (2, 5)]),
    ideal=st.sampled_from(list(IdealInventory)),
    ties=st.sampled_from(list(TieRule)),
    unknown=st.sampled_from(list(UnknownRule)),
    zero_ideal=st.sampled_from(list(ZeroIdealRule)),
    unranked=st.sampled_from(list(UnrankedRule)),
)


def reference(doc: Document, c: Conventions, q: int, k: int | None) -> float | str | None:
    """Slow, literal NDCG@k of one query; 'undefined' / 'unresolved' / 'unranked' states."""
    rows = [
        (str(doc.source_id[i]), doc.score[i],
         None if doc.state[i] != GradeState.NUMBER else float(doc.grade[i]), i)
        for i in doc.members(q)
    ]

    def gain(g: float | None) -> float | None:
        if g is None:
            return 0.0 if c.unknown is UnknownRule.ZERO else None
        return float(c.gain.apply(np.array([g]))[0])

    if c.unknown is UnknownRule.CONDENSED:
        rows = [r for r in rows if r[2] is not None]
    ranked = [r for r in rows if not math.isnan(r[1])]
    if not ranked and c.unranked is UnrankedRule.UNDEFINED:
        return "unranked"
    inventory = ranked if c.ideal is IdealInventory.RANKED else rows
    gains = [gain(r[2]) for r in inventory]
    if any(g is None for g in gains):
        return "unresolved"
    limit = len(ranked) if k is None else min(k, len(ranked))

    def disc(pos: int) -> float:
        return 1 / math.log2(pos + 2) if pos < limit else 0.0

    groups: list[list[tuple]] = []
    for r in sorted(ranked, key=lambda r: -r[1]):
        if groups and groups[-1][0][1] == r[1]:
            groups[-1].append(r)
        else:
            groups.append([r])
    dcg, pos = 0.0, 0
    for grp in groups:
        if c.ties is TieRule.AVERAGE:
            perms = list(itertools.permutations(grp))
            total = sum(
                sum(gain(r[2]) * disc(pos + n) for n, r in enumerate(p)) for p in perms
            )
            dcg += total / len(perms)
        else:
            if c.ties is TieRule.SUPPLIED:
                grp = sorted(grp, key=lambda r: r[3])
            elif c.ties is TieRule.ID_DESC:
                grp = sorted(grp, key=lambda r: r[0], reverse=True)
            elif c.ties is TieRule.PESSIMISTIC:
                grp = sorted(grp, key=lambda r: (gain(r[2]), r[3]))
            else:
                grp = sorted(grp, key=lambda r: (-gain(r[2]), r[3]))
            dcg += sum(gain(r[2]) * disc(pos + n) for n, r in enumerate(grp))
        pos += len(grp)
    ideal = sorted(gains, reverse=True)
    if k is not None:
        ideal = ideal[:k]
    idcg = sum(g / math.log2(n + 2) for n, g in enumerate(ideal))
    if idcg == 0:
        return 0.0 if c.zero_ideal is ZeroIdealRule.ZERO else "undefined"
    return dcg / idcg


@given(documents(), CONVENTIONS)
def test_engine_matches_the_literal_reference(doc, conv):
    ev = evaluate(doc, conv)
    table, worst = ev.status_table()
    for q in range(doc.n_queries):
        for j, k in enumerate(conv.cutoffs):
            expected = reference(doc, conv, q, k)
            if expected == "unresolved":
                assert ev.status(q, j) is Status.UNRESOLVED
                assert math.isnan(ev.ndcg[q, j])
            elif expected == "unranked":
                assert ev.status(q, j) is Status.UNRANKED
                assert math.isnan(ev.ndcg[q, j])
            elif expected == "undefined":
                assert ev.status(q, j) is Status.UNDEFINED
                assert math.isnan(ev.ndcg[q, j])
            else:
                assert ev.status(q, j) is Status.OK
                assert ev.ndcg[q, j] == pytest.approx(expected, abs=1e-12)
            assert table[q][j] is ev.status(q, j)
        assert worst[q] is ev.query_status(q)


@given(documents(), CONVENTIONS)
def test_contributions_sum_to_dcg(doc, conv):
    ev = evaluate(doc, conv)
    for j, k in enumerate(conv.cutoffs):
        contrib = ev.contribution_at(k)
        for q in range(doc.n_queries):
            if ev.status(q, j) is Status.UNRESOLVED:
                continue
            members = ev.ranked(q)
            assert np.nansum(contrib[members]) == pytest.approx(ev.dcg[q, j], abs=1e-12)


@given(documents(grades=st.sampled_from([0.0, 1.0, 2.0, 3.0])))
def test_tie_rules_are_ordered(doc):
    base = Conventions(cutoffs=(1, 2, None), zero_ideal=ZeroIdealRule.ZERO,
                       unranked=UnrankedRule.ZERO)
    pess, avg, opt = (evaluate(doc, base.replace(ties=t)).ndcg for t in (
        TieRule.PESSIMISTIC, TieRule.AVERAGE, TieRule.OPTIMISTIC))
    assert np.all(pess <= avg + 1e-12)
    assert np.all(avg <= opt + 1e-12)


@given(documents(grades=st.sampled_from([0.0, 1.0, 2.0, 3.0])), CONVENTIONS)
def test_ndcg_lies_in_unit_interval(doc, conv):
    nd = evaluate(doc, conv).ndcg
    defined = nd[~np.isnan(nd)]
    assert np.all(defined >= 0.0)
    assert np.all(defined <= 1.0 + 1e-12)


@given(documents(grades=st.sampled_from([0.0, 1.0, 2.0, 3.0])), st.floats(0.1, 10.0))
def test_linear_gain_is_scale_invariant(doc, factor):
    conv = Conventions(cutoffs=(1, 3, None))
    a = evaluate(doc, conv)
    doc.grade = doc.grade * factor
    b = evaluate(doc, conv)
    np.testing.assert_allclose(b.dcg, a.dcg * factor, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(b.ndcg, a.ndcg, rtol=1e-12, atol=1e-12)


@given(documents(), st.randoms(use_true_random=False))
def test_row_order_does_not_matter_except_supplied(doc, rnd):
    perm = list(range(len(doc)))
    rnd.shuffle(perm)
    shuffled = Document.from_columns(
        query=[doc.query_ids[doc.query[i]] for i in perm],
        source_id=[doc.source_id[i] for i in perm],
        score=doc.score[perm], grade=doc.grade[perm], query_order=doc.query_ids,
    )
    for ties in (TieRule.AVERAGE, TieRule.ID_DESC, TieRule.PESSIMISTIC, TieRule.OPTIMISTIC):
        conv = Conventions(cutoffs=(1, 2, None), ties=ties, unknown=UnknownRule.ZERO)
        np.testing.assert_array_equal(
            evaluate(doc, conv).status_code, evaluate(shuffled, conv).status_code
        )
        np.testing.assert_allclose(
            evaluate(doc, conv).ndcg, evaluate(shuffled, conv).ndcg, atol=1e-12
        )


def test_perfect_ranking_scores_one():
    doc = Document.from_columns(
        query=["q"] * 4, source_id=list("abcd"), score=[4, 3, 2, 1], grade=[3, 2, 2, 0]
    )
    for ties in TieRule:
        ev = evaluate(doc, Conventions(cutoffs=(1, 2, 3, None), ties=ties))
        assert ev.ndcg[0].tolist() == [1.0, 1.0, 1.0, 1.0]


def test_judged_not_retrieved_counts_only_in_the_judged_ideal():
    doc = Document.from_columns(
        query=["q"] * 3, source_id=list("abc"), score=[2.0, 1.0, None], grade=[1, 0, 3]
    )
    ranked = evaluate(doc, Conventions(ideal=IdealInventory.RANKED))
    judged = evaluate(doc, Conventions(ideal=IdealInventory.JUDGED))
    assert ranked.ndcg[0, 0] == 1.0
    assert judged.idcg[0, 0] == pytest.approx(3 + 1 / math.log2(3), abs=1e-15)
    assert judged.ndcg[0, 0] == pytest.approx(1 / (3 + 1 / math.log2(3)), abs=1e-15)
    assert judged.rank[2] == 0
    assert judged.ideal_rank[2] == 1
    assert judged.not_retrieved(0).tolist() == [2]


def test_per_row_ranks_by_hand_and_kept_int32():
    # Two queries; q has a tie of two at ranks 2-3 and one unranked judged row.
    # The per-row ranks keep the engine's int32 (8 bytes a row less than
    # int64 for each of them: 16 MB at 2M rows in compare's two sides).
    doc = Document.from_columns(
        query=["q"] * 4 + ["r"] * 2, source_id=list("abcdef"),
        score=[3.0, 2.0, 2.0, None, 1.0, 5.0], grade=[0, 2, 1, 3, 1, 0],
    )
    ev = evaluate(doc, Conventions(ideal=IdealInventory.JUDGED, ties=TieRule.AVERAGE))
    assert ev.rank.tolist() == [1, 2, 3, 0, 2, 1]
    assert ev.tie_first_rank.tolist() == [1, 2, 2, 0, 2, 1]
    assert ev.tie_size.tolist() == [1, 2, 2, 0, 1, 1]
    assert ev.ideal_rank.tolist() == [4, 2, 3, 1, 1, 2]
    for ranks in (ev.rank, ev.tie_first_rank, ev.tie_size, ev.ideal_rank):
        assert ranks.dtype == np.int32


def test_condensed_removes_unknown_before_ranking():
    doc = Document.from_columns(
        query=["q"] * 3, source_id=list("abc"), score=[3.0, 2.0, 1.0], grade=[None, 0, 2]
    )
    ev = evaluate(doc, Conventions(unknown=UnknownRule.CONDENSED))
    assert ev.rank.tolist() == [0, 1, 2]
    assert ev.ndcg[0, 0] == pytest.approx((2 / math.log2(3)) / 2, abs=1e-15)
    zero = evaluate(doc, Conventions(unknown=UnknownRule.ZERO))
    assert zero.rank.tolist() == [1, 2, 3]
    assert zero.ndcg[0, 0] == pytest.approx((2 / math.log2(4)) / 2, abs=1e-15)


def test_unrateable_is_not_a_number():
    doc = Document.from_columns(
        query=["q"] * 2, source_id=list("ab"), score=[2.0, 1.0], grade=[None, 1],
        state=[GradeState.UNRATEABLE, GradeState.NUMBER], reason=["paywalled", ""],
    )
    ev = evaluate(doc)
    assert ev.status(0) is Status.UNRESOLVED
    assert int(ev.n_unrateable[0]) == 1
    assert int(ev.n_unknown[0]) == 0


def test_negative_grade_under_exponential_gain_is_refused():
    doc = Document.from_columns(query=["q"], source_id=["a"], score=[1.0], grade=[-1.0])
    with pytest.raises(InputError, match="negative"):
        evaluate(doc, Conventions(gain=Gain(GainRule.EXPONENTIAL)))
    # linear gain takes it, but an ideal DCG of -1 gives no NDCG (-1/-1 would
    # read 1): the status says why; trec_eval counts it as 0
    lin = evaluate(doc, Conventions(zero_ideal=ZeroIdealRule.ZERO))
    assert lin.idcg[0, 0] == -1.0
    assert math.isnan(lin.ndcg[0, 0])
    assert lin.status(0) is Status.NEGATIVE
    tre = evaluate(doc, preset("trec_eval"))
    assert tre.gain.tolist() == [0.0]
    assert tre.ndcg[0, 0] == 0.0


def test_id_desc_orders_only_tied_candidates_by_id():
    doc = Document.from_columns(
        query=["q"] * 4, source_id=["b", "d", "a", "c"], score=[1.0, 2.0, 1.0, 1.0],
        grade=[0, 0, 0, 1],
    )
    ev = evaluate(doc, Conventions(ties=TieRule.ID_DESC))
    assert doc.source_id[ev.ranked(0)].tolist() == ["d", "c", "b", "a"]


def test_duplicate_rows_are_refused():
    with pytest.raises(InputError, match="twice"):
        Document.from_columns(query=["q", "q"], source_id=["a", "a"], score=[1, 2], grade=[1, 1])


def test_set_grade_keeps_the_original_and_logs():
    doc = Document.from_columns(query=["q"], source_id=["a"], score=[1.0], grade=[1.0])
    entry = doc.set_grade(0, 3.0, who="ann", note="re-read")
    assert doc.original_grade.tolist() == [1.0]
    assert doc.grade.tolist() == [3.0]
    assert (entry.before, entry.after, entry.who, entry.note) == ("1", "3", "ann", "re-read")
    doc.set_grade(0, None, GradeState.UNKNOWN, who="ann")
    assert doc.audit[-1].after == "unknown"
    assert doc.changed().tolist() == [True]


def test_trec_eval_preset_truncates_fractional_grades():
    doc = Document.from_columns(
        query=["q"] * 2, source_id=list("ab"), score=[2.0, 1.0], grade=[0.5, 1.7]
    )
    ev = evaluate(doc, preset("trec_eval"))
    assert ev.gain.tolist() == [0.0, 1.0]
    assert doc.grade.tolist() == [0.5, 1.7]  # the raw grades are kept
    assert ev.ndcg[0, 0] == pytest.approx(1 / math.log2(3), abs=1e-15)


@given(documents(), CONVENTIONS)
def test_per_query_views_equal_slices_of_the_whole(doc, conv):
    """effective_discount(k, q) and ideal(q) work on query q alone; they equal
    (bit for bit) the slices of the whole-document arrays."""
    ev = evaluate(doc, conv)
    ideal_queries = doc.query[ev.ideal_order]
    for q in range(doc.n_queries):
        lo, hi = ev.positions(q)
        for k in conv.cutoffs:
            np.testing.assert_array_equal(ev.effective_discount(k, q),
                                          ev.effective_discount(k)[lo:hi])
        np.testing.assert_array_equal(ev.ideal(q), ev.ideal_order[ideal_queries == q])
    assert ev.rubric == conv.rubric_for(doc.grade)


# -- ids kept as bytes ---------------------------------------------------------------------

def with_id_bytes(doc: Document) -> Document:
    """The same document with its source ids kept as bytes (as a TREC run's)."""
    from core.model.ids import IdBytes

    return Document.from_columns(
        query=doc.query_ids, query_codes=doc.query,
        source_id=IdBytes.from_texts([str(s) for s in doc.source_id]), score=doc.score,
        grade=doc.grade, state=doc.state, check=False)


@given(documents(), CONVENTIONS)
def test_ids_as_bytes_evaluate_as_text(doc, conv):
    fast, slow = evaluate(with_id_bytes(doc), conv), evaluate(doc, conv)
    assert fast.doc.source_bytes() is not None
    np.testing.assert_array_equal(fast.order, slow.order)
    np.testing.assert_array_equal(fast.ndcg, slow.ndcg)
    assert fast.doc.source_id.tolist() == doc.source_id.tolist()
    codes, ids = fast.doc.source_codes()
    assert ids[codes].tolist() == doc.source_id.tolist()


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(-20, 20),
                          st.sampled_from([None, 1.0, 2.0, 2.0, 3.0])), min_size=1, max_size=10),
       st.sampled_from([-1074, -1060, -1030, -1000]), st.sampled_from(list(TieRule)),
       st.sampled_from(list(IdealInventory)))
@example([(0, 2, 3.0), (0, 1, 2.0), (0, 2, 1.0)], -1074, TieRule.SUPPLIED,
         IdealInventory.RANKED)  # 1e-323, 5e-324, 1e-323: NDCG 1.333 before
@example([(0, 0, 3.0), (0, 0, 2.0), (0, -1, 1.0)], -1074, TieRule.SUPPLIED,
         IdealInventory.RANKED)  # 0, 0, -5e-324: "undefined" before (-5e-324 / 2 is 0)
def test_gains_below_the_normal_range_give_the_ndcg_of_the_same_gains_scaled_up(
        rows: list[tuple[int, int, float | None]], power: int, ties: TieRule,
        ideal: IdealInventory) -> None:
    """Grades x * 2^power (x from -20 to 20: exact, subnormal below 2^-1022)
    give bit for bit the NDCG and status of grades x (NDCG ignores a common
    factor of the gains), so never one above 1, and a DCG and ideal DCG that
    are x's times 2^power rounded once (their products with the discounts
    kept 3 digits of 1e-320: DCG 2e-323 over ideal DCG 1.5e-323 read 1.333)."""
    query = [f"q{q}" for q, _, _ in rows]
    source = [f"s{i}" for i in range(len(rows))]
    score = [s for _, _, s in rows]
    conventions = Conventions(ties=ties, ideal=ideal, cutoffs=(1, 3, None))
    tiny = evaluate(Document.from_columns(
        query=query, source_id=source, score=score,
        grade=[math.ldexp(x, power) for _, x, _ in rows]), conventions)
    whole = evaluate(Document.from_columns(query=query, source_id=source, score=score,
                                           grade=[float(x) for _, x, _ in rows]), conventions)
    np.testing.assert_array_equal(tiny.ndcg, whole.ndcg)
    np.testing.assert_array_equal(tiny.status_code, whole.status_code)
    np.testing.assert_array_equal(tiny.dcg, np.ldexp(whole.dcg, power))
    np.testing.assert_array_equal(tiny.idcg, np.ldexp(whole.idcg, power))


def test_the_ndcgs_above_1_that_docs_conventions_md_names() -> None:
    """The case docs/conventions.md names, by hand, and the one it no longer
    does. Averaged ties: 0.1, 0.1, 0.1 tied, a perfect ranking: every order
    of the group is the same list, so its DCG is its gains times their own
    discounts added one by one, the ideal's 0.1 + 0.1/log2(3) + 0.1/2 bit
    for bit: NDCG 1.0 (the group total times its discounts' total over its
    size, (0.1 + 0.1 + 0.1) x (1 + 1/log2(3) + 1/2) / 3, read
    1.0000000000000002 before). The judged inventory with negative gains:
    grades 1, 0 ranked, -1 judged but not retrieved: DCG 1, ideal DCG 1 + 0
    - 1/2, NDCG 2; trec_eval's preset counts the -1 as 0: ideal DCG 1, NDCG 1."""
    tied = Document.from_columns(query=["q"] * 3, source_id=["a", "b", "c"],
                                 score=[1.0, 1.0, 1.0], grade=[0.1, 0.1, 0.1])
    ev = evaluate(tied, Conventions())
    assert ev.ndcg[0, 0] == 1.0
    assert ev.dcg[0, 0] == ev.idcg[0, 0] == 0.1 + 0.1 / math.log2(3) + 0.1 / 2
    # The sklearn preset works as scikit-learn: the group's mean gain first
    # (0.30000000000000004 / 3 = 0.1) times its discounts: NDCG 1.0.
    assert evaluate(tied, preset("sklearn")).ndcg[0, 0] == 1.0
    doc = Document.from_columns(query=["q"] * 3, source_id=["a", "b", "c"],
                                score=[2.0, 1.0, math.nan], grade=[1.0, 0.0, -1.0])
    ev = evaluate(doc, Conventions(ideal=IdealInventory.JUDGED))
    assert (ev.dcg[0, 0], ev.idcg[0, 0], ev.ndcg[0, 0]) == (1.0, 0.5, 2.0)
    assert ev.status(0, 0).value == "ok"
    ev = evaluate(doc, preset("trec_eval"))
    assert (ev.dcg[0, 0], ev.idcg[0, 0], ev.ndcg[0, 0]) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("name", ["trec_eval", "ranx"])
def test_the_running_dcg_ends_at_the_dcg_bit_for_bit_under_the_presets(name: str) -> None:
    """The grid's running DCG (the contributions added down the list) ends
    at the DCG the evaluation reports, and the ideal contributions at the
    ideal DCG, to the last bit: under trec_eval's and ranx's presets the
    sums divide by C's log2 (core.engine.discount.terms), and the
    contributions are those terms, not gain x discount (one ulp apart in 15
    of 100 such lists before). Checked at k = all and k = 5. (The sklearn
    preset sums as scikit-learn does, pairwise: no running sum ends there.)"""
    from core.engine.query_values import query_values
    from core.model.presets import preset
    from tests.conftest import doc_of

    rng = np.random.default_rng(7)
    rows = []
    for q in range(60):
        n = int(rng.integers(5, 40))
        grades = rng.integers(0, 4, n).astype(float)
        scores = rng.permutation(n).astype(float)  # no tied scores: ranx orders ties freely
        rows += [(f"q{q}", f"d{i}", scores[i], grades[i]) for i in range(n)]
    doc = doc_of(rows)
    ev = evaluate(doc, preset(name, cutoffs=(None, 5)))
    checked = 0
    for q in range(doc.n_queries):
        ranked = ev.ranked(q)
        at_all = ev.cutoff_results(q)[0]
        if at_all.dcg is None or at_all.idcg is None:
            continue
        assert ev.cumulative_dcg(q)[-1] == at_all.dcg
        values = query_values(ev, q, ranked)
        assert values.cumulative[-1] == at_all.dcg
        assert np.cumsum(values.contribution)[-1] == at_all.dcg
        top5 = np.cumsum(ev.contribution_at(5)[ranked])[-1]
        assert top5 == ev.cutoff_results(q)[1].dcg
        ideal = ev.ideal_order[doc.query[ev.ideal_order] == q]
        assert np.cumsum(ev.ideal_contribution[ideal])[-1] == at_all.idcg
        checked += 1
    assert checked > 50


@given(st.lists(st.lists(st.sampled_from([0.0, 0.1, 1.0, 1 / 3, 2.0, 3.0]), min_size=1,
                         max_size=14), min_size=1, max_size=4),
       st.sampled_from([1, 2, 3, 5, None]))
def test_a_perfect_ranking_tied_by_grade_reads_1_bit_for_bit_under_averaged_ties(
        lists: list[list[float]], k: int | None) -> None:
    """A perfect ranking whose ties are of candidates of one grade (scores
    the grades): every order of each tie group is the same list, so the
    defaults' averaged ties give DCG the ideal DCG bit for bit and NDCG
    exactly 1 (or undefined, all grades 0). Before, a group's DCG was its
    gain total times its discounts' total over its size: 56% of 20,000 such
    lists of 12 grades 0-3 read 1 + 2^-52 or more at k = all, 5% below 1."""
    rows = []
    for q, grades in enumerate(lists):
        for i, g in enumerate(sorted(grades, reverse=True)):
            rows.append((f"q{q}", f"d{i}", g, g))
    doc = Document.from_columns(query=[r[0] for r in rows], source_id=[r[1] for r in rows],
                                score=[r[2] for r in rows], grade=[r[3] for r in rows])
    ev = evaluate(doc, Conventions(cutoffs=(k,)))
    np.testing.assert_array_equal(ev.dcg, ev.idcg)
    assert set(ev.ndcg[~np.isnan(ev.ndcg)].tolist()) <= {1.0}


def test_averaged_ties_of_equal_and_of_different_grades_by_hand() -> None:
    """List a: grades 3, 1 tied (scores 5, 5), 2, 2 tied (4, 4), then 0: a
    tie group mixes grades, so every group's DCG is its gain total times
    its discounts' total over its size, (3 + 1) x (d1 + d2) / 2, then
    (2 + 2) x (d3 + d4) / 2, added in position order from 0.0 (the bits as
    before). List b: 0.7, 0.7 tied, 0.3, then 0.1, 0.1 tied: each group
    holds one grade, so the list's DCG is its gains times their own
    discounts added one by one, the ideal DCG bit for bit; at k = 3 the
    last group is cut after its first position (0.1 x d3: every order puts
    a 0.1 at rank 3)."""
    d = [1 / math.log2(r + 1) for r in range(1, 6)]
    doc = Document.from_columns(
        query=["a"] * 5 + ["b"] * 5, source_id=list("abcdefghij"),
        score=[5.0, 5.0, 4.0, 4.0, 3.0, 5.0, 5.0, 4.0, 3.0, 3.0],
        grade=[3.0, 1.0, 2.0, 2.0, 0.0, 0.7, 0.7, 0.3, 0.1, 0.1])
    ev = evaluate(doc, Conventions(cutoffs=(None, 4)))
    mixed = (0.0 + 4.0 * (d[0] + d[1]) / 2) + 4.0 * (d[2] + d[3]) / 2
    assert ev.dcg[0, 0] == mixed + 0.0 * (d[4] + 0.0) / 1
    assert ev.dcg[0, 1] == mixed
    one = (((0.0 + 0.7 * d[0]) + 0.7 * d[1]) + 0.3 * d[2]) + 0.1 * d[3]
    assert ev.dcg[1, 0] == one + 0.1 * d[4]
    assert ev.dcg[1, 1] == one
    np.testing.assert_array_equal(ev.dcg[1], ev.idcg[1])
    assert ev.ndcg[1].tolist() == [1.0, 1.0]
