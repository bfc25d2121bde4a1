"""The engine against an independent, slow reference and its invariants."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from core.engine.evaluation import Status, evaluate
from core.engine.order import list_starts, tie_runs, tie_starts, tied_positions
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


@given(
    st.lists(st.integers(1, 5), min_size=1, max_size=6),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_sort_within_queries_equals_a_global_lexsort(sizes, uniform, seed):
    from core.engine.order import sort_within_queries

    rng = np.random.default_rng(seed)
    if uniform:
        sizes = [sizes[0]] * len(sizes)  # the 2-D block path
    q = np.repeat(np.arange(len(sizes)), sizes)
    if not uniform and rng.random() < 0.5:
        q = rng.permutation(q)  # the general path
    values = np.array([-np.inf, -1.5, -0.0, 0.0, 1e-300, 2.5, np.inf])
    a = rng.choice(values, q.size)
    b = rng.choice(values, q.size)
    pos = np.arange(q.size)
    np.testing.assert_array_equal(sort_within_queries(q, [a]), np.lexsort((pos, a, q)))
    np.testing.assert_array_equal(sort_within_queries(q, [a, b]), np.lexsort((pos, a, b, q)))


@given(
    st.lists(st.integers(0, 6), min_size=1, max_size=8),
    st.integers(1, 7),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_ideal_keys_laid_out_from_counts_equal_the_sorted_keys(sizes, n_values, few_rows, seed):
    """The ideal lists' keys laid out from (query, value) counts, or sorted as
    packed integers when the queries outnumber the rows (``few_rows``), are the
    keys a global sort gives (-0.0 and 0.0 are one value; unknown gains sort
    last as inf)."""
    from core.engine import ideal

    rng = np.random.default_rng(seed)
    q = rng.permutation(np.repeat(np.arange(len(sizes)), sizes))
    values = np.array([-2.5, -1.0, -0.0, 1e-300, 3.0, 7.0, np.inf])[:n_values]
    key = rng.choice(values, q.size)
    n_queries = len(sizes) + (10**6 if few_rows else 0)  # trailing queries with no rows
    laid = ideal._laid_out(q, key, n_queries)
    if not q.size:
        assert laid is None
        return
    assert laid is not None
    perm = np.lexsort((key, q))
    np.testing.assert_array_equal(np.repeat(np.arange(n_queries), np.diff(laid[1])), q[perm])
    np.testing.assert_array_equal(laid[0], key[perm])


@given(
    st.lists(st.integers(0, 6), min_size=1, max_size=8),
    st.integers(1, 7),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_ideal_lists_counted_a_block_at_a_time_are_those_laid_out_whole(sizes, n_values,
                                                                        some_rows, seed):
    """The ideal lists counted a block of rows at a time (the rows' keys
    never made whole) give, span by span of queries, the gains laid out
    whole from the whole keys, where each query starts too; the gains they
    read are left as they were (the rows the first ones, or indices)."""
    from core.engine import ideal, order

    rng = np.random.default_rng(seed)
    q = rng.permutation(np.repeat(np.arange(len(sizes)), sizes))
    gains = rng.choice(np.array([2.5, 1.0, 0.0, -0.0, -1e-300, np.nan, -7.0])[:n_values], q.size)
    before = gains.copy()
    rows = np.flatnonzero(rng.random(q.size) < 0.7) if some_rows else slice(0, q.size)
    nq = len(sizes)
    counted = ideal._counted_lists(q[rows], gains, rows, nq)
    laid = ideal._laid_out(q[rows], order.ideal_key(gains[rows]), nq)
    np.testing.assert_array_equal(gains, before)
    if laid is None:
        assert counted is None
        return
    assert counted is not None
    np.testing.assert_array_equal(counted.starts, laid[1])
    whole = np.negative(laid[0])
    whole[np.isneginf(whole)] = np.nan
    cut = int(rng.integers(0, nq + 1))
    spans = np.concatenate([counted.gains(0, cut), counted.gains(cut, nq)])
    np.testing.assert_array_equal(spans.view(np.int64), whole.view(np.int64))  # bit for bit


def test_ideal_lists_not_counted_where_the_sample_misses_a_value():
    """A gain the sampled rows do not hold (one row of 10,000, off the
    sample's stride) sends the ideal lists to the whole keys' path, which
    finds every value."""
    from core.engine import ideal

    q = np.repeat(np.arange(10), 1000)
    gains = np.tile([0.0, 0.0, 1.0, 1.0], 2500)
    gains[4001] = 3.0
    assert ideal._counted_lists(q, gains, slice(0, q.size), 10) is None
    gains[4001] = 1.0
    counted = ideal._counted_lists(q, gains, slice(0, q.size), 10)
    assert counted is not None
    assert counted.gains(0, 1).tolist() == [1.0] * 500 + [0.0] * 500


@given(
    st.integers(1, 6), st.integers(1, 80), st.lists(st.sampled_from([1, 2, 5, 79, 200, None]),
                                                    min_size=1, max_size=3, unique=True),
    st.integers(0, 2**32 - 1),
)
def test_sums_of_lists_in_blocks_are_bincounts_bit_for_bit(rows, m, cutoffs, seed):
    """Lists of one length take their sums at each cutoff as running sums
    of a 2-D array's rows, and their discounts a block at a time: the very
    bits of the per-position lookups and bincounts (-0.0 terms give 0.0, an
    unknown gain NaN, sums past the largest float inf)."""
    from core.engine import sums
    from core.engine.discount import block_discounts, discount
    from core.engine.order import block_rank

    rng = np.random.default_rng(seed)
    gains = np.array([0.0, -0.0, 1.0, 3.0, 0.1, 7.0, -2.0, np.nan, 1.7e308])
    gain = rng.choice(gains[:rng.integers(2, gains.size + 1)], rows * m)
    query = np.repeat(np.sort(rng.choice(rows + 3, rows, replace=False)), m)
    rank = block_rank(rows, m)[0]
    blocks = (rows, m)
    want = sums.times_discount(gain.copy(), rank, None)
    got = sums.times_discount(gain.copy(), rank, blocks)
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))
    one = block_discounts(m, rank.size)  # (tiled: the discounts that group_discounts looks up)
    if one is not None:
        assert np.tile(one, rows).tobytes() == discount(rank).tobytes()
    nq = rows + 3
    with np.errstate(over="ignore", invalid="ignore"):
        want = sums.sums_at_cutoffs(got.copy(), query, rank, None, tuple(cutoffs), nq)
        got = sums.sums_at_cutoffs(got.copy(), query, rank, blocks, tuple(cutoffs), nq)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan].view(np.int64), want[~nan].view(np.int64))


@given(
    st.lists(st.integers(0, 9), min_size=1, max_size=12), st.booleans(),
    st.lists(st.sampled_from([1, 2, 5, 79, None]), min_size=1, max_size=3, unique=True),
    st.sampled_from([1, 3, 40, 1 << 18]), st.integers(0, 2**32 - 1),
)
def test_sums_in_chunks_are_the_sums_of_the_whole_bit_for_bit(sizes, uniform, cutoffs, chunk,
                                                              seed):
    """The ideal DCG of lists whose gains are kept (the bounds take them)
    is summed a chunk of whole lists at a time: the very bits of the whole
    multiplied and summed at once, lists of one length or not."""
    from unittest import mock

    from core.engine import sums
    from core.engine.order import block_rank, segment_rank, uniform_blocks

    rng = np.random.default_rng(seed)
    sizes = [sizes[0]] * len(sizes) if uniform else sizes
    query = np.repeat(np.arange(len(sizes)), sizes)
    gains = np.array([0.0, -0.0, 1.0, 3.0, 0.1, 7.0, -2.0, np.nan, 1.7e308])
    gain = rng.choice(gains[:rng.integers(2, gains.size + 1)], query.size)
    blocks = uniform_blocks(query) if query.size else None
    rank = block_rank(*blocks)[0] if blocks else segment_rank(query)[0]
    starts = np.searchsorted(query, np.arange(len(sizes) + 1))
    with np.errstate(over="ignore", invalid="ignore"):
        want = sums.sums_at_cutoffs(sums.times_discount(gain.copy(), rank, blocks), query, rank,
                                    blocks, tuple(cutoffs), len(sizes))
        kept = gain.copy()
        with mock.patch.object(sums, "CHUNK", chunk):
            got = sums.sums_in_chunks(kept, rank, blocks, starts, tuple(cutoffs), len(sizes))
            again = sums.sums_in_chunks(kept.copy(), rank, blocks, starts, tuple(cutoffs),
                                        len(sizes), overwrite=True)
            ranked = sums.sums_in_chunks(kept, None, blocks, starts, tuple(cutoffs), len(sizes))
    assert kept.tobytes() == gain.tobytes()
    assert again.tobytes() == got.tobytes()
    assert ranked.tobytes() == got.tobytes()  # (each chunk's ranks made from the starts)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan].view(np.int64), want[~nan].view(np.int64))


@given(st.lists(st.integers(0, 300), min_size=1, max_size=8), st.sampled_from([1, 7, 1 << 18]),
       st.lists(st.sampled_from([1, 2, 5, 79, None]), min_size=1, max_size=3, unique=True),
       st.integers(0, 2**32 - 1))
def test_tie_group_dcg_in_chunks_is_one_bincount_bit_for_bit(sizes, chunk, cutoffs, seed):
    """DCG of averaged ties worked a chunk of whole queries at a time is, bit
    for bit, every position's term (sums.position_terms) at once, added per
    query in position order by one bincount (queries without a ranked
    candidate, NaN, -0.0 and huge gains among them)."""
    from unittest import mock

    from core.engine import sums
    from core.engine.order import list_starts, score_ties, segment_rank

    rng = np.random.default_rng(seed)
    nq = len(sizes) + 2
    query = np.repeat(np.sort(rng.choice(nq, len(sizes), replace=False)), sizes)
    score = np.concatenate([-np.sort(-rng.integers(0, 5, n).astype(float)) for n in sizes])
    gains = np.array([0.0, -0.0, 1.0, 3.0, 0.1, 7.0, -2.0, np.nan, 1.7e308])
    gain = rng.choice(gains[:rng.integers(2, gains.size + 1)], query.size)
    rank = segment_rank(query)[0]
    new_group = score_ties(score, np.arange(query.size), list_starts(query))
    groups = sums.TieGroups.of(gain, new_group)
    with np.errstate(over="ignore", invalid="ignore"):
        want = np.stack([np.bincount(query, weights=sums.position_terms(gain, rank, k,
                                                                        groups=groups),
                                     minlength=nq) for k in cutoffs], axis=1)
        with mock.patch.object(sums, "CHUNK", chunk):
            got = sums.tie_group_dcg(gain, query, rank, new_group, tuple(cutoffs), nq)
    assert got.tobytes() == want.tobytes()


def test_whole_chunks_take_the_chunk_size_of_the_time_they_are_called():
    """A test's smaller CHUNK (mock.patch) splits the lists as it says (a
    default bound when the function was made kept 1 << 18, and every
    "in chunks" test above worked one chunk)."""
    from unittest import mock

    from core.engine import sums

    with mock.patch.object(sums, "CHUNK", 4):
        assert sums.whole_chunks(np.array([0, 3, 5, 9, 10])) == [(0, 2), (2, 4)]
    assert sums.whole_chunks(np.array([0, 3, 5, 9, 10])) == [(0, 4)]


def test_dcg_of_lists_with_an_unknown_gain_within_k_is_not_summed():
    """A query with an unknown gain (NaN) ranked within k has DCG@k NaN
    whatever its other terms: only the other queries' terms are made, a
    chunk of whole queries at a time, and theirs are the bits of one
    bincount of every term (k = all: any unknown gain)."""
    from unittest import mock

    from core.engine import sums
    from core.engine.order import list_starts, score_ties, segment_rank

    nan = np.nan
    # q0: unknown at rank 2; q1: at rank 4 (tied with rank 3); q2: none
    gain = np.array([3.0, nan, 1.0, 2.0, 0.0, 1.0, nan, 1.0, 2.0, 0.0])
    query = np.array([0, 0, 0, 1, 1, 1, 1, 2, 2, 2])
    score = np.array([9.0, 8.0, 7.0, 9.0, 8.0, 5.0, 5.0, 4.0, 4.0, 1.0])
    rank = segment_rank(query)[0]
    new_group = score_ties(score, np.arange(query.size), list_starts(query))
    cutoffs = (1, 3, None)
    groups = sums.TieGroups.of(gain, new_group)
    want = np.stack([np.bincount(query, weights=sums.position_terms(gain, rank, k, groups=groups),
                                 minlength=3) for k in cutoffs], axis=1)
    summed: list[int] = []
    terms = sums.position_terms

    def counted(g, *args, **kwargs):
        summed.append(g.size)
        return terms(g, *args, **kwargs)

    for chunk in (2, 1 << 18):
        summed.clear()
        with mock.patch.object(sums, "CHUNK", chunk), \
                mock.patch.object(sums, "position_terms", counted):
            got = sums.tie_group_dcg(gain, query, rank, new_group, cutoffs, 3)
        # (q1 at k = 3: its unknown gain at rank 4 is tied with rank 3)
        assert np.isnan(got).tolist() == [[False, True, True], [False, True, True],
                                          [False, False, False]]
        assert got[~np.isnan(got)].tobytes() == want[~np.isnan(want)].tobytes()
        # The positions whose terms were made: k = 1: q0 (1), q1 (1), q2 (2:
        # a tie at ranks 1-2); k = 3: q1 (4: its tie group starts at 3), q2
        # (3); k = all: q2 (3). Before: 24 (q0's 3 and q1's 4 at k = 3 and
        # at k = all, q2's 3).
        assert sum(summed) == 4 + 7 + 3


def test_ideal_dcg_of_queries_not_asked_for_is_not_summed():
    """The ideal DCG's sums leave out a chunk of only the queries whose
    sums are not asked for (open grades: their ideal DCG is NaN), and give
    the others' bit for bit."""
    from unittest import mock

    from core.engine import sums
    from core.engine.order import segment_rank

    gain = np.array([3.0, 1.0, 2.0, 2.0, 0.0, 1.0, 7.0, 1.0])
    query = np.array([0, 0, 1, 1, 1, 2, 3, 3])
    rank = segment_rank(query)[0]
    starts = np.searchsorted(query, np.arange(5))
    unneeded = np.array([True, True, False, True])
    whole = sums.sums_in_chunks(gain, rank, None, starts, (1, None), 4)
    with mock.patch.object(sums, "CHUNK", 2), \
            mock.patch.object(sums, "times_discount", wraps=sums.times_discount) as times:
        got = sums.sums_in_chunks(gain, rank, None, starts, (1, None), 4, unneeded=unneeded)
    assert times.call_count == 1  # (chunks q0 | q1 | q2, q3: only the last is summed)
    assert got[2:].tobytes() == whole[2:].tobytes()
    assert got[:2].tolist() == [[0.0, 0.0], [0.0, 0.0]]


@given(st.lists(st.integers(0, 40), min_size=1, max_size=8), st.sampled_from([1, 7, 1 << 18]),
       st.sampled_from([1, 3, None]), st.integers(0, 2**32 - 1))
def test_effective_discounts_in_chunks_are_each_querys(sizes, chunk, k, seed):
    """Averaged ties' effective discounts of every position, worked a chunk
    of whole queries at a time, are each query's own, bit for bit."""
    from unittest import mock

    from core.engine import evaluation, sums

    rng = np.random.default_rng(seed)
    query = np.repeat([f"q{i}" for i in range(len(sizes))], sizes).tolist()
    doc = Document.from_columns(query=query, source_id=[f"s{i}" for i in range(len(query))],
                                score=rng.integers(0, 4, len(query)).astype(float),
                                grade=rng.integers(0, 3, len(query)).astype(float))
    ev = evaluate(doc, Conventions(cutoffs=(k,), ties=TieRule.AVERAGE))
    with mock.patch.object(evaluation, "CHUNK", chunk), mock.patch.object(sums, "CHUNK", chunk):
        every = ev.effective_discount(k)
        terms = ev.position_terms(k)
    each = [ev.effective_discount(k, q) for q in range(doc.n_queries)]
    assert every.tobytes() == np.concatenate([np.empty(0), *each]).tobytes()
    # So are their terms of DCG@k; in a tie group of mixed gains each is
    # its gain times the discount shown, bit for bit (one mean: sums.group_means).
    each_terms = [ev.position_terms(k, q) for q in range(doc.n_queries)]
    assert terms.tobytes() == np.concatenate([np.empty(0), *each_terms]).tobytes()
    if not len(query):
        return
    gain = ev.gain[ev.order]
    mixed = sums.TieGroups.of(gain, ev._new_group).mixed
    product = gain * every
    assert terms[mixed].tobytes() == np.where(every > 0, product, 0.0)[mixed].tobytes()


@given(st.lists(st.integers(0, 50), min_size=1, max_size=30), st.integers(1, 120))
def test_whole_chunks_cover_every_list_once_unsplit(lengths, size):
    """Chunks of whole lists: consecutive, covering every list once, each at
    least ``size`` positions but the last, which is at least half that
    unless it is the only one."""
    from core.engine.sums import whole_chunks

    starts = np.concatenate(([0], np.cumsum(lengths)))
    chunks = whole_chunks(starts, size)
    assert [a for a, _ in chunks] == [0] + [b for _, b in chunks[:-1]]
    assert chunks[-1][1] == len(lengths)
    spans = [int(starts[b] - starts[a]) for a, b in chunks]
    assert all(n >= size for n in spans[:-1])
    assert len(spans) == 1 or spans[-1] >= size // 2


@given(st.lists(st.integers(0, 6), max_size=40))
def test_segment_rank_counts_positions_within_runs(keys):
    """1-based positions within runs of equal keys, and where each run starts."""
    from core.engine.order import list_rank, segment_rank

    q = np.sort(np.array(keys, dtype=np.int64))
    rank, first = segment_rank(q)
    want = [i - min(j for j in range(q.size) if q[j] == q[i]) + 1 for i in range(q.size)]
    assert rank.dtype == np.int32
    assert rank.tolist() == want
    assert first.tolist() == [r == 1 for r in want]
    starts = np.searchsorted(q, np.arange(8))  # (the same lists by where they start)
    assert list_rank(starts).tolist() == want


@given(st.lists(st.sampled_from([-np.inf, -2.5, -0.0, 0.0, 1e-300, 3.0, 7.0, np.inf]),
                max_size=12),
       st.lists(st.sampled_from([-np.inf, -2.5, -0.0, 0.0, 1e-300, 3.0, 7.0, np.inf, -1.0,
                                 5.0]), max_size=30))
def test_places_counted_by_comparisons_are_searchsorted(values, key):
    """A key's place among a few sorted values, counted by one comparison
    per value, is the binary search's (-0.0 and 0.0 equal; more values than
    _COMPARED take the binary search)."""
    from core.engine import ideal

    v = np.unique(np.array(values, dtype=np.float64))
    k = np.array(key, dtype=np.float64)
    np.testing.assert_array_equal(ideal._places(v, k), np.searchsorted(v, k))


def test_distinct_values_a_sample_misses_are_found():
    from core.engine.ideal import _SAMPLE, _distinct

    key = np.zeros(_SAMPLE * 3)
    key[1] = 2.0  # between the sampled rows (every third)
    key[-1] = -1.0
    values, code = _distinct(key)
    assert values.tolist() == [-1.0, 0.0, 2.0]
    np.testing.assert_array_equal(values[code], key)


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


@given(st.lists(st.booleans(), max_size=40))
def test_tied_positions_by_hand(same_list):
    # Position i ties with i + 1 where same[i]; a run of ties is one group.
    same = np.array(same_list, dtype=bool)
    n = len(same_list) + 1
    expected_pos, expected_group, group = [], [], -1
    for i in range(n):
        after_prev = i > 0 and same_list[i - 1]
        if after_prev or (i < n - 1 and same_list[i]):
            group += 0 if after_prev else 1
            expected_pos.append(i)
            expected_group.append(group)
    starts = np.concatenate([[True], ~same])  # a group starts where no tie with the one before
    pos, grp = tied_positions(starts)
    assert pos.tolist() == expected_pos
    assert grp.tolist() == expected_group
    first, last = tie_runs(starts)
    by_group: dict[int, list[int]] = {}
    for p_, g in zip(expected_pos, expected_group, strict=True):
        by_group.setdefault(g, []).append(p_)
    runs = [(min(ps), max(ps)) for _, ps in sorted(by_group.items())]
    assert list(zip(first.tolist(), last.tolist(), strict=True)) == runs


@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from([0.0, -0.0, 1.0, 2.5])),
                max_size=30))
def test_tie_starts_by_hand(rows):
    # Rows (query, score) in ranked order: a group starts at a new query or a new score.
    rows = sorted(rows, key=lambda r: r[0])
    q = np.array([r[0] for r in rows], dtype=np.int64)
    s = np.array([r[1] for r in rows])
    expected = [i == 0 or rows[i][0] != rows[i - 1][0] or rows[i][1] != rows[i - 1][1]
                for i in range(len(rows))]
    assert tie_starts(s, list_starts(q)).tolist() == expected
    alone = [i == 0 or rows[i][1] != rows[i - 1][1] for i in range(len(rows))]
    assert tie_starts(s).tolist() == alone


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
