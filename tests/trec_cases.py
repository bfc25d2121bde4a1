"""What the TREC reader's tests share (tests/test_trec_io.py,
test_trec_errors.py, test_parquet_io.py, test_trec_join_halves.py, ...):
every file read twice, as the fast reader (whole pieces with numpy, codes
joined on integers) and as the line-by-line reader (Python dicts) read it,
and compared; a hand-made run and qrels; runs and qrels drawn at random.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import strategies as st

from core.errors import InputError
from core.io.trec import Run, document_from_trec, join, scan
from core.model.document import Document


@contextmanager
def line_by_line() -> Any:
    """Make every file take the line-by-line reader."""
    with mock.patch.object(scan, "scan_file", return_value=None):
        yield


def both(run: Path, qrels: Path, *, fast_join: bool = True) -> tuple[Document, Document]:
    """The document as the fast path and as the line-by-line path read it
    (``fast_join``: the fast path joins on codes and bytes, as it does unless
    ids are not UTF-8 or keys clash)."""
    fast_run = Run(run)
    assert fast_run._table is not None, "the fast reader should take this file"
    fast = document_from_trec(fast_run, qrels)
    assert (fast.source_bytes() is not None) == fast_join
    with line_by_line():
        slow = document_from_trec(run, qrels)
    return fast, slow


def columns(doc: Document) -> dict[str, Any]:
    return {
        "query_ids": doc.query_ids,
        "query": doc.query.tolist(),
        "source_id": doc.source_id.tolist(),
        "score": [None if math.isnan(x) else x for x in doc.score.tolist()],
        "grade": [None if math.isnan(x) else x for x in doc.grade.tolist()],
        "state": doc.state.tolist(),
        "name": doc.name,
    }


def assert_same(fast: Document, slow: Document) -> None:
    assert columns(fast) == columns(slow)
    assert all(type(s) is str for s in fast.source_id.tolist())
    assert fast.source_id.dtype == object
    # score/grade compared bit for bit (so -0.0 and 0.0 differ)
    assert fast.score.tobytes() == slow.score.tobytes()
    assert fast.grade.tobytes() == slow.grade.tobytes()


def error_of(run: Path, qrels: Path, *, slow: bool = False) -> InputError:
    if slow:
        with line_by_line(), pytest.raises(InputError) as info:
            document_from_trec(run, qrels)
    else:
        with pytest.raises(InputError) as info:
            document_from_trec(run, qrels)
    return info.value


def write(path: Path, data: str | bytes) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


#: A hand-made run and its qrels: blank lines, ties, -0.0, a query neither
#: shares, a judged source the run did not retrieve.
RUN = """\
q1 Q0 a 1 3.5 t
q1 Q0 b 2 2 t
q1 Q0 c 3 2 t
q2 Q0 a 1 -1e-3 t

q3 Q0 x 1 7 t
q2 Q0 é 2 -0.0 t
"""
QRELS = """\
q2 0 z 2
q1 0 c 1
q1 0 d 3
q2 0 é 0.5
q9 0 a 1
q1 0 e 0
"""


# -- random files -------------------------------------------------------------------------

ID_CHARS = st.characters(
    blacklist_characters=" \t\n\r\x0b\x0c\x00", blacklist_categories=("Cs",),
)


IDS = st.text(ID_CHARS, min_size=1, max_size=12)


SCORES = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False).map(repr),
    st.integers(-5, 5).map(str),
    st.sampled_from(["1.5", "2.25", "-0.0", "3", "1e-3"]),  # ties
)


ENDINGS = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def trec_files(draw: st.DrawFn) -> tuple[bytes, bytes]:
    queries = draw(st.lists(IDS, min_size=1, max_size=4, unique=True))
    sources = draw(st.lists(IDS, min_size=1, max_size=8, unique=True))
    pairs = draw(st.lists(
        st.tuples(st.sampled_from(queries), st.sampled_from(sources)), unique=True, max_size=25,
    ))
    run_lines = [f"{q} Q0 {s} {i} {draw(SCORES)} tag" for i, (q, s) in enumerate(pairs)]
    judged = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    extra = draw(st.lists(st.tuples(st.sampled_from(queries) | IDS, IDS), max_size=8))
    qrels_pairs = list(dict.fromkeys(judged + extra))
    qrels_pairs = draw(st.permutations(qrels_pairs))
    qrels_lines = [f"{q} {draw(st.sampled_from(['0', 'Q0']))} {s} "
                   f"{draw(st.sampled_from(['0', '1', '2', '3', '-1', '0.5']))}"
                   for q, s in qrels_pairs]

    def join(lines: list[str]) -> bytes:
        out = []
        for line in lines:
            if draw(st.booleans()) and draw(st.booleans()):
                out.append(draw(st.sampled_from(["", "  ", "\t"])) + draw(ENDINGS))
            sep = draw(st.sampled_from([" ", "\t", "  "]))
            out.append(line.replace(" ", sep) + draw(ENDINGS))
        text = "".join(out)
        if draw(st.booleans()):
            text = text.rstrip("\r\n")
        return text.encode("utf-8")

    return join(run_lines), join(qrels_lines)


@contextmanager
def crowd(crowded: bool) -> Any:
    """With ``crowded``, the join's sort keys hold the query alone, so that
    every source of a query shares one: the repeat checks look at the bytes
    and the search walks past the other sources of the query."""
    if not crowded:
        yield
        return
    def query_only(query: Any, key: Any, bits: int, out: Any = None) -> Any:
        high = query.astype(np.uint64) << np.uint64(64 - bits)
        return np.broadcast_to(high, np.broadcast_shapes(high.shape, key.shape)).copy()

    with mock.patch.object(join, "sort_keys", query_only):
        yield


@st.composite
def run_and_qrels(draw: st.DrawFn) -> tuple[str, str]:
    """A run and its qrels shaped like real ones: each query's rows together
    (often as many for every query) or in any order, ids shared between
    queries, queries only the run ranks or only the qrels judge, judged
    sources the run did not retrieve, and now and then a pair listed twice."""
    queries = draw(st.lists(IDS, min_size=1, max_size=6, unique=True))
    pool = draw(st.lists(IDS, min_size=1, max_size=10, unique=True))
    depth = draw(st.integers(1, len(pool)))
    uniform = draw(st.booleans())
    run: list[tuple[str, str]] = []
    for q in draw(st.lists(st.sampled_from(queries), min_size=1, unique=True)):
        size = depth if uniform else draw(st.integers(1, len(pool)))
        run += [(q, s) for s in draw(st.permutations(pool))[:size]]
    qrels: list[tuple[str, str]] = []
    for q in draw(st.lists(st.sampled_from(queries), unique=True)):
        qrels += [(q, s) for s in draw(st.lists(st.sampled_from(pool), unique=True))]
    for rows in (run, qrels):
        if draw(st.booleans()):
            rows[:] = draw(st.permutations(rows))
        if rows and draw(st.integers(0, 2)) == 0:
            rows.insert(draw(st.integers(0, len(rows))), draw(st.sampled_from(rows)))
    run_text = "".join(f"{q} Q0 {s} {i} {draw(SCORES)} t\n" for i, (q, s) in enumerate(run))
    qrels_text = "".join(f"{q} 0 {s} {draw(st.sampled_from(['0', '1', '2', '-1']))}\n"
                         for q, s in qrels)
    return run_text, qrels_text
