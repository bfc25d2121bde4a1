"""The engine's parts against their plain definitions: the sort within
queries against a global lexsort, tie runs and tie starts by hand, the
ideal lists' keys and counts, and the sums, ideal lists and discounts
counted a block (a chunk) at a time against the whole, bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from core.engine.evaluation import evaluate
from core.engine.order import list_starts, tie_runs, tie_starts, tied_positions
from core.model.conventions import (
    Conventions,
    TieRule,
)
from core.model.document import Document


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
