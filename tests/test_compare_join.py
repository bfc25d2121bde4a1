"""How a comparison matches its two rankings: each row's shared query, the
partners found by a table or by sorting, by the ids' bytes or their keys,
against a dictionary; and how the ``compare`` command reads and joins the
two runs with their qrels, one at a time, a bad line in one stopping the
other."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analysis.compare import (
    align,
    compare,
)
from core.analysis.compare.across import (
    align_candidates,
)
from core.analysis.compare.align import (
    KeyedRows,
    Matching,
    align_queries,
    byte_partners,
    grouped_rows,
    keyed_rows,
    partners,
)
from core.engine.evaluation import evaluate
from core.io.trec import document_from_trec
from core.model.document import Document
from core.model.ids import IdBytes
from tests.compare_cases import (
    QRELS,
    serial_across_and_changes,
    write_trec,
)


def test_each_rows_shared_query_is_its_query_code_where_every_query_is_shared() -> None:
    # Two runs of one set of topics: each row's shared query is the
    # document's own query codes (no copy, 8 MB a side at 2M rows); else a
    # number among the shared queries, -1 for a query of one side only.
    a = Document.from_columns(query=["q1", "q1", "q2"], source_id=["x", "y", "x"],
                              score=[2, 1, 1])
    b = Document.from_columns(query=["q1", "q2", "q2"], source_id=["y", "x", "z"],
                              score=[2, 2, 1])
    c = Document.from_columns(query=["q2", "q3", "q1"], source_id=["x", "x", "y"],
                              score=[1, 1, 1])
    same = align_queries(a, b)
    assert same.row_common_a is a.query
    assert same.row_common_b is b.query
    some = align_queries(a, c)
    assert some.common == ["q1", "q2"]
    assert some.row_common_a is a.query  # all of A's shared, in A's order
    assert some.row_common_b.tolist() == [1, -1, 0]
    other = align_queries(c, a)  # A's queries in another order, one not shared
    assert other.common == ["q2", "q1"]
    assert other.row_common_a.tolist() == [0, -1, 1]
    assert other.row_common_b.tolist() == [1, 1, 0]


@given(keys_a=st.lists(st.integers(-1, 40)), keys_b=st.lists(st.integers(-1, 40)))
def test_partners_by_table_and_by_sorting_match_a_dictionary(
    keys_a: list[int], keys_b: list[int]
) -> None:
    # Keys are unique within a side; -1 (no key) may repeat and never matches.
    ka = np.array([k for i, k in enumerate(keys_a) if k < 0 or k not in keys_a[:i]], dtype=np.int64)
    kb = np.array([k for i, k in enumerate(keys_b) if k < 0 or k not in keys_b[:i]], dtype=np.int64)
    row_b = {int(k): r for r, k in enumerate(kb) if k >= 0}
    want_a = [row_b.get(int(k), -1) if k >= 0 else -1 for k in ka]
    want_b = [-1] * kb.size
    for r, p in enumerate(want_a):
        if p >= 0:
            want_b[p] = r
    for size in (41, 10**9):  # a table of every key, then sorted keys
        out_a, out_b = partners(ka, kb, size)
        assert out_a.tolist() == want_a
        assert out_b.tolist() == want_b


@given(runs=st.lists(st.tuples(st.integers(-1, 5), st.integers(1, 30)), max_size=40))
def test_grouped_rows_as_a_stable_sort(runs: list[tuple[int, int]]) -> None:
    # A document's rows in runs of one shared query (-1: a query of one side
    # only), in any order, short runs (sorted) or long ones (moved whole):
    # the rows of each shared query in row order, as a stable sort puts them.
    row_common = np.array([q for q, size in runs for _ in range(size)], dtype=np.int64)
    rows, counts, start = grouped_rows(row_common, 6)
    shared = np.flatnonzero(row_common >= 0)
    want = shared[np.argsort(row_common[shared], kind="stable")]
    assert rows.dtype == np.int32
    assert rows.tolist() == want.tolist()
    assert counts.tolist() == np.bincount(row_common[shared], minlength=6).tolist()
    assert start.tolist() == (np.cumsum(counts) - counts).tolist()
    # The matching's blocks of queries take their rows one block at a time:
    # every block's are the grouped rows of its queries.
    ids = IdBytes.from_texts([f"s{i}" for i in range(row_common.size)])
    doc = Document.from_columns(query=[str(q) for q in row_common.tolist()], source_id=ids,
                                score=[1.0] * row_common.size, grade=[0] * row_common.size)
    keyed = keyed_rows(doc, row_common, 6)
    assert keyed is not None
    assert (keyed.count.tolist(), keyed.start.tolist()) == (counts.tolist(), start.tolist())
    for lo, hi in itertools.combinations(range(7), 2):
        want_block = rows[start[lo]:start[lo] + counts[lo:hi].sum()]
        assert keyed.block_rows(lo, hi).tolist() == want_block.tolist()


@pytest.mark.parametrize("given_as", ["path", "Run"])
def test_the_matching_works_out_the_joined_ids_keys(tmp_path, given_as: str) -> None:  # type: ignore[no-untyped-def]
    # A run joined with its qrels (run rows, q9 unjudged and left out, then
    # the judged rows it did not retrieve) keeps no keys of its ids: the
    # matching works each block's out from the ids' bytes and finds the
    # partners a dictionary of the ids finds.
    from core.io.trec import Run

    rows_a = [("q1", "é-x", 3.0, 0), ("q9", "n", 2.0, 0), ("q1", "y-long-identifier-01", 2.0, 0),
              ("q2", "z", 1.0, 0)]
    rows_b = [("q1", "y-long-identifier-01", 3.0, 0), ("q2", "z", 2.0, 0)]
    qrels = [("q1", "é-x", 1), ("q1", "w", 2), ("q2", "z", 1), ("q2", "only-judged", 3)]
    a, b, q = write_trec(tmp_path, rows_a, rows_b, qrels)
    docs = [document_from_trec(p if given_as == "path" else Run(p), q) for p in (a, b)]
    ids = docs[0].source_bytes()
    assert ids is not None
    assert ids.texts() == ["é-x", "y-long-identifier-01", "z", "w", "only-judged"]
    queries = align_queries(*docs)
    keyed = [keyed_rows(d, r, len(queries.common))
             for d, r in ((docs[0], queries.row_common_a), (docs[1], queries.row_common_b))]
    found = byte_partners(*keyed)
    assert found is not None
    assert (found[0].tolist(), found[1].tolist()) == _dictionary_partners(*docs)
    assert (found[0].tolist(), found[1].tolist()) == ([2, 0, 1, 3, 4], [1, 2, 0, 3, 4])


def test_the_two_runs_of_a_comparison_are_joined_one_at_a_time(  # type: ignore[no-untyped-def]
        tmp_path, monkeypatch) -> None:
    # compare's read joins its two runs one at a time, each handed to
    # `then` before the other's join: two joins side by side held both
    # runs' sorts and temporaries where compare's defaults peaked. The
    # documents are the joins' all the same.
    import core.io.pairs as pairs
    from tests.overlap import side_by_side

    events: list[str] = []
    monkeypatch.setattr(pairs, "_judged_run", side_by_side(pairs._judged_run, events, "join"))
    rows_a = [("q1", "x", 2.0, 0), ("q1", "y", 1.0, 0), ("q2", "u", 1.0, 0)]
    rows_b = [("q1", "y", 2.0, 0), ("q1", "x", 1.0, 0), ("q2", "u", 1.0, 0), ("q2", "w", 0.5, 0)]
    a, b, q = write_trec(tmp_path, rows_a, rows_b, QRELS)
    doc_a, doc_b, made_a, made_b, _left = pairs.read_judged_pair(
        a, b, q, lambda doc: events.append("then") or len(doc))
    assert events == ["join", "then", "join", "then"]
    assert (made_a, made_b) == (len(doc_a), len(doc_b)) == (3, 4)
    assert list(doc_a.source_id) == list(document_from_trec(a, q).source_id)
    assert list(doc_b.source_id) == ["y", "x", "u", "w"]


def test_a_comparisons_qrels_are_let_go_before_the_second_runs_evaluation(  # type: ignore[no-untyped-def]
        tmp_path, monkeypatch) -> None:
    # Once both runs are joined the qrels are let go (11 MiB at 400,000
    # judgments, under the second run's evaluation), and the heap's free
    # pages are handed back after each join, before its run's evaluation.
    import weakref

    import core.io.pairs as pairs

    events: list[str] = []
    read: list[weakref.ref[pairs.QrelsColumns]] = []

    class Qrels(pairs.QrelsColumns):
        def __init__(self, *a, **k) -> None:  # type: ignore[no-untyped-def]
            super().__init__(*a, **k)
            read.append(weakref.ref(self))

    judged_run = pairs._judged_run
    monkeypatch.setattr(pairs, "QrelsColumns", Qrels)
    monkeypatch.setattr(pairs, "_judged_run",
                        lambda *a, **k: events.append("join") or judged_run(*a, **k))
    monkeypatch.setattr(pairs.alloc, "hand_back", lambda: events.append("hand back"))

    def then(doc: Document) -> bool:
        events.append("then")
        return read[0]() is not None  # the qrels still held

    rows_a = [("q1", "x", 2.0, 0), ("q1", "y", 1.0, 0), ("q2", "u", 1.0, 0)]
    a, b, q = write_trec(tmp_path, rows_a, rows_a[1:], QRELS)
    doc_a, doc_b, held_a, held_b, _left = pairs.read_judged_pair(a, b, q, then)
    assert sorted([held_a, held_b]) == [False, True]  # (whichever run is read first)
    assert events == ["join", "hand back", "then", "join", "hand back", "then", "hand back"]
    assert (len(doc_a), len(doc_b)) == (3, 3)  # (q1's x judged, not retrieved by b)


def _one_run_refused(tmp_path, monkeypatch, bad: str):  # type: ignore[no-untyped-def]
    """read_judged_pair of two runs, ``bad`` ("a" or "b") with a bad line,
    the other's read started only once the bad one's error has stopped it
    (its stop set; without one, at once): the error raised, the message
    the bad run alone gives, and the runs joined and evaluated."""
    import time

    import core.io.pairs as pairs
    from core.errors import InputError
    from core.io.stop import current

    rows = [("q1", "x", 2.0, 0), ("q1", "y", 1.0, 0), ("q2", "u", 1.0, 0)]
    paths = dict(zip("ab", write_trec(tmp_path, rows, rows, QRELS)[:2], strict=True))
    q = str(tmp_path / "qrels.txt")
    Path(paths[bad]).write_text("q1 Q0 x 1 not-a-score run\n")
    with pytest.raises(InputError) as alone:
        pairs.Run(paths[bad], threads=1)
    failed = threading.Event()
    real_run, real_join = pairs.Run, pairs._judged_run

    class Run(real_run):  # type: ignore[misc, valid-type]
        def __init__(self, path, **k) -> None:  # type: ignore[no-untyped-def]
            if str(path) != paths[bad]:
                assert failed.wait(10)
                stop, until = current(), time.monotonic() + 10
                while stop is not None and not stop.is_set() and time.monotonic() < until:
                    time.sleep(0.001)
            try:
                super().__init__(path, **k)
            except InputError:
                failed.set()
                raise

    joined: list[str] = []
    evaluated: list[int] = []
    monkeypatch.setattr(pairs, "Run", Run)
    monkeypatch.setattr(pairs, "_judged_run",
                        lambda r, j: joined.append(str(r.path)) or real_join(r, j))
    with pytest.raises(InputError) as raised:
        pairs.read_judged_pair(paths["a"], paths["b"], q, lambda doc: evaluated.append(len(doc)))
    return str(raised.value), str(alone.value), joined, evaluated


@pytest.mark.parametrize("bad", ["a", "b"])
def test_a_bad_line_in_one_run_stops_the_others_join_and_evaluation(  # type: ignore[no-untyped-def]
        tmp_path, monkeypatch, bad) -> None:
    # compare's error in one run was raised only once the other run had been
    # read, joined and evaluated (the pool waited for it on exit: ~1 s at 2M
    # rows); the other's read is stopped now (core.io.stop), the same message.
    message, alone, joined, evaluated = _one_run_refused(tmp_path, monkeypatch, bad)
    assert message == alone
    assert "not-a-score" in message
    assert joined == []
    assert evaluated == []


def test_a_pair_read_under_a_stop_is_still_stopped_by_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The lanes' own stop (an error in one run stops the other) does not hide
    # the reading thread's (a task's Cancel): both runs' reads end at it.
    import core.io.pairs as pairs
    from core.io.stop import Stop, Stopped, stoppable

    rows = [("q1", "x", 2.0, 0), ("q1", "y", 1.0, 0), ("q2", "u", 1.0, 0)]
    a, b, q = write_trec(tmp_path, rows, rows, QRELS)
    outer = Stop()
    outer.set()
    evaluated: list[int] = []
    with stoppable(outer), pytest.raises(Stopped):
        pairs.read_judged_pair(a, b, q, lambda doc: evaluated.append(len(doc)))
    assert evaluated == []


def test_a_run_spent_by_its_join_becomes_the_document(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # compare's read hands each Run it made to its join and lets go of it:
    # the run's scores, ids and keys become the document's (not copied beside
    # them: ~50 MB a side at 2M rows, every row kept); the document is the one
    # read from the path, every column alike, and a Run not spent keeps its
    # own.
    from core.io.pairs import _judged_run
    from core.io.trec import QrelsColumns, Run

    rows_a = [("q1", "é-x", 3.0, 0), ("q1", "y", 2.0, 0), ("q2", "z", 1.0, 0),
              ("q2", "v", 1.0, 0), ("q2", "n", 0.5, 0)]
    qrels = [("q1", "é-x", 1), ("q1", "w", 2), ("q2", "z", 1), ("q2", "only-judged", 3)]
    a, _b, q = write_trec(tmp_path, rows_a, rows_a[:1], qrels)
    want = document_from_trec(a, q)
    kept = Run(a, threads=1)
    doc_kept = document_from_trec(kept, QrelsColumns(q))
    spent = Run(a, threads=1)
    doc = _judged_run(spent, QrelsColumns(q))
    assert spent.score.size == 0
    assert kept.score.size == 5
    for got in (doc, doc_kept):
        assert got.query.tolist() == want.query.tolist()
        assert np.array_equal(got.score, want.score, equal_nan=True)
        assert np.array_equal(got.grade, want.grade, equal_nan=True)
        assert list(got.source_id) == list(want.source_id)
    assert len(doc) == 7
    assert doc.queries_left_out == want.queries_left_out


def _dictionary_partners(a: Document, b: Document) -> tuple[list[int], list[int]]:
    """Each row's partner found with a dictionary of (query id, source id)."""
    row_b = {(b.query_ids[int(q)], s): r for r, (q, s) in enumerate(zip(b.query, b.source_id,
                                                                        strict=True))}
    want_a = [row_b.get((a.query_ids[int(q)], s), -1) for q, s in zip(a.query, a.source_id,
                                                                      strict=True)]
    want_b = [-1] * len(b)
    for r, p in enumerate(want_a):
        if p >= 0:
            want_b[p] = r
    return want_a, want_b


def test_runs_matched_by_their_id_bytes_as_by_a_dictionary(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # Runs of several queries (one in A only, one in B only), ids shared or
    # not, some not ASCII, judged-not-retrieved rows appended: the grid of
    # keys finds every partner a dictionary finds. When keys clash (every key
    # made equal), it declines and the ids are numbered instead, same partners.
    rng = np.random.default_rng(3)
    pool = ["x", "é", "y-long-identifier-0123456789", "z", "w", "ü-2", "v", "t"]

    def rows(queries: list[str]) -> list[tuple[str, str, float, int]]:
        return [(q, s, float(rng.integers(0, 5)), 0) for q in queries
                for s in rng.choice(pool, size=int(rng.integers(1, 7)), replace=False)]

    a_rows, b_rows = rows(["q1", "q2", "q3", "qa"]), rows(["q3", "q2", "q1", "qb"])
    qrels = [(q, s, int(rng.integers(0, 4))) for q in ("q1", "q2", "q3", "qa", "qb")
             for s in pool[:4]]
    a, b, q = write_trec(tmp_path, a_rows, b_rows, qrels)
    doc_a, doc_b = document_from_trec(a, q), document_from_trec(b, q)
    queries = align_queries(doc_a, doc_b)
    want_a, want_b = _dictionary_partners(doc_a, doc_b)
    n = len(queries.common)

    def keyed() -> list[KeyedRows | None]:
        return [keyed_rows(doc_a, queries.row_common_a, n),
                keyed_rows(doc_b, queries.row_common_b, n)]

    found = byte_partners(*keyed())
    assert found is not None
    assert found[0].tolist() == want_a
    assert found[1].tolist() == want_b
    assert sum(p >= 0 for p in want_a) > 5  # the case matches something
    # Blocks of one query each (a grid of one cell), shared by two threads
    # as compare's lanes share them: the same partners.
    monkeypatch.setattr(align, "_CELLS", 1)
    matching = Matching.of(*keyed())
    assert matching is not None
    helper = threading.Thread(target=matching.work)
    helper.start()
    shared = matching.result()
    helper.join()
    assert shared is not None
    assert (shared[0].tolist(), shared[1].tolist()) == (want_a, want_b)
    assert matching._taken == len(queries.common)  # one block a query, each taken once
    # compare()'s lanes split the gathering and what changed (B's values at
    # A's rows and the order there, A's at B's and the rest here): the same
    # as one thread's, the ids matched by bytes (here) or numbered (below).
    serial = serial_across_and_changes(compare(doc_a, doc_b))
    assert serial[1].order_queries > 0
    assert serial[1].inventory_queries > 0
    monkeypatch.setattr(IdBytes, "keys", lambda self, rows=None: np.zeros(
        len(self) if rows is None else rows.size, dtype=np.uint64))
    assert byte_partners(*keyed()) is None
    ev_a, ev_b = evaluate(doc_a), evaluate(doc_b)
    pa, pb, _ = align_candidates(ev_a, ev_b, queries)
    assert (pa.tolist(), pb.tolist()) == (want_a, want_b)
    numbered = serial_across_and_changes(compare(doc_a, doc_b))
    assert numbered == serial


def test_short_ids_vouched_for_by_their_keys(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # An id of up to 8 bytes is its key's one word (a bijection): a pair of
    # equal keys and lengths is the same id, so only the longer ids' bytes
    # are compared. "ab" and "ab\0" give one word and one key (a word is
    # zero-padded) but not one length: their bytes are compared, differ, and
    # the matching declines (the ids are then numbered, as on any key clash).
    compared: list[int] = []
    same = IdBytes.same

    def counted(self, rows, other, other_rows):  # type: ignore[no-untyped-def]
        compared.append(len(rows))
        return same(self, rows, other, other_rows)

    monkeypatch.setattr(IdBytes, "same", counted)

    def keyed(a: list[str], b: list[str]) -> list[KeyedRows | None]:
        docs = [Document.from_columns(query=["q"] * len(ids), source_id=IdBytes.from_texts(ids),
                                      score=list(range(len(ids), 0, -1)), grade=[1] * len(ids))
                for ids in (a, b)]
        queries = align_queries(*docs)
        return [keyed_rows(d, r, 1) for d, r in zip(docs, (queries.row_common_a,
                                                          queries.row_common_b), strict=True)]

    short, long = ["x", "ab", "12345678"], ["123456789", "y-long-identifier-01"]
    found = byte_partners(*keyed(short + long + ["only-a"], long[::-1] + short[::-1]))
    assert found is not None
    assert found[0].tolist() == [4, 3, 2, 1, 0, -1]
    assert compared == [2]  # the two longer ids' pairs alone
    compared.clear()
    assert byte_partners(*keyed(["ab"], ["ab\0"])) is None
    assert compared == [1]
    one, other = keyed(["ab"], ["ab\0"])
    assert one is not None
    assert other is not None
    assert one.ids.keys().tolist() == other.ids.keys().tolist()  # one word, one key
