"""The join's independent halves on a second thread (core.io.trec.join's
``_beside``: the run sorted there while the qrels are here, half the ids'
comparison there): the document is the one thread's, row for row and bit
for bit, and a run that lists a pair twice is refused naming the same
lines."""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from core.errors import InputError
from core.io.trec import document_from_trec, join
from core.model.document import Document
from tests.trec_cases import assert_same, crowd, run_and_qrels, write


def joined(run: Path, qrels: Path, threads: int, unshared: bool) -> Document | str:
    """The document (or the error's message), the halves taken by a second
    thread even for a small run when ``threads`` is 2."""
    try:
        with mock.patch.object(join, "_BESIDE_FROM", 1):
            return document_from_trec(run, qrels, threads=threads, unshared=unshared)
    except InputError as exc:
        return str(exc)


@given(run_and_qrels(), st.booleans(), st.booleans())
def test_halves_give_the_one_threads_document(files, unshared, crowded):
    with tempfile.TemporaryDirectory() as tmp:
        run = write(Path(tmp) / "run.txt", files[0])
        qrels = write(Path(tmp) / "qrels.txt", files[1])
        with crowd(crowded):
            two = joined(run, qrels, 2, unshared)
            one = joined(run, qrels, 1, unshared)
    if isinstance(two, str) or isinstance(one, str):
        assert two == one
        return
    assert_same(two, one)
    assert two.query.dtype == one.query.dtype
    assert two.source_bytes() is not None  # the fast join took it
    assert one.source_bytes() is not None
    assert two.queries_left_out == one.queries_left_out


def test_the_second_thread_sorts_the_run_and_takes_half_the_comparison_not_the_search(tmp_path):
    # Two queries of 3 (one judged source the run did not retrieve, one
    # query the qrels do not judge: the run's kept rows are a subset).
    run = write(tmp_path / "run.txt", "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\n"
                                      "q9 Q0 a 1 1 t\nq2 Q0 x 1 5 t\nq2 Q0 y 2 4 t\n")
    qrels = write(tmp_path / "qrels.txt", "q1 0 a 2\nq1 0 c 1\nq1 0 d 3\nq2 0 y 1\n")
    sorts: list[tuple[str, int]] = []
    compared: list[tuple[str, int]] = []
    searched: list[str] = []
    sort, same, search = join._sorted_pairs, join.IdBytes.same, np.searchsorted

    def sorting(*a: Any, **k: Any) -> Any:
        sorts.append((threading.current_thread().name.split("_")[0], len(a[0])))
        return sort(*a, **k)

    def comparing(self: Any, rows: Any, *a: Any) -> Any:
        compared.append((threading.current_thread().name.split("_")[0], len(rows)))
        return same(self, rows, *a)

    def searching(*a: Any, **k: Any) -> Any:
        searched.append(threading.current_thread().name.split("_")[0])
        return search(*a, **k)

    with (mock.patch.object(join, "_sorted_pairs", sorting),
          mock.patch.object(join.IdBytes, "same", comparing),
          mock.patch.object(join.np, "searchsorted", searching)):
        doc = joined(run, qrels, 2, True)
    assert isinstance(doc, Document)
    # The search on this thread alone: its halves on two cost evaluate's
    # peak more than their ~6 ms (docs/benchmarks.md, hcmp3).
    assert set(searched) == {"MainThread"}
    # The run's 5 kept rows sorted there, the qrels' 4 here; 3 matched pairs,
    # 1 compared there and 2 here.
    assert sorted(sorts) == [("MainThread", 4), ("join", 5)]
    assert sorted(compared) == [("MainThread", 2), ("join", 1)]
    assert doc.query_ids == ["q1", "q2"]
    assert doc.source_id.tolist() == ["a", "b", "c", "x", "y", "d"]
    assert np.array_equal(doc.grade, [2, np.nan, 1, np.nan, 1, 3], equal_nan=True)
    assert doc.score.tolist()[:5] == [3, 2, 1, 5, 4]


def test_a_pair_listed_twice_is_named_as_on_one_thread(tmp_path):
    run = write(tmp_path / "run.txt", "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 a 3 1 t\n")
    qrels = write(tmp_path / "qrels.txt", "q1 0 a 2\n")
    message = joined(run, qrels, 2, False)
    assert message == joined(run, qrels, 1, False)
    assert isinstance(message, str)
    assert "query 'q1' retrieves source 'a' twice (first on line 1)" in message
    assert "line 3" in message
