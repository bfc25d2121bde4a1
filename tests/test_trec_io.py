"""The TREC reader: the column-wise (numpy) path against the line-by-line one.

Every file is read twice: as the fast reader does (whole pieces of the file
with numpy, codes joined on integers) and as the line-by-line reader does
(Python dicts), which is what any irregular file gets. The two must give the
same document, the same errors and the same line numbers (the two reads:
tests/trec_cases.py). A bad file's one line is tests/test_trec_errors.py's;
the number parser tests/test_trec_numbers.py's.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import InputError
from core.io.trec import Run, document_from_trec, join, scan
from core.io.trec import columns as trec_columns
from core.model.document import Document
from tests.trec_cases import (
    QRELS,
    RUN,
    assert_same,
    both,
    crowd,
    line_by_line,
    run_and_qrels,
    trec_files,
    write,
)

# -- hand-made files --------------------------------------------------------------------


def test_hand_made_join(tmp_path):
    run, qrels = write(tmp_path / "r.txt", RUN), write(tmp_path / "q.txt", QRELS)
    fast, slow = both(run, qrels)
    assert_same(fast, slow)
    # q3 has no judgments and q9 no run rows: both are left out.
    assert fast.query_ids == ["q1", "q2"]
    assert fast.source_id.tolist() == ["a", "b", "c", "a", "é", "d", "e", "z"]
    assert fast.query.tolist() == [0, 0, 0, 1, 1, 0, 0, 1]
    np.testing.assert_array_equal(fast.score[:5], [3.5, 2.0, 2.0, -0.001, -0.0])
    assert math.copysign(1.0, fast.score[4]) == -1.0
    assert np.isnan(fast.score[5:]).all()  # judged but not retrieved
    np.testing.assert_array_equal(fast.grade, [np.nan, np.nan, 1, np.nan, 0.5, 3, 0, 2])
    assert fast.state.tolist() == [1, 1, 0, 1, 0, 0, 0, 0]
    assert fast.name == "r"


def test_crlf_lone_cr_tabs_and_blank_lines(tmp_path):
    text = RUN.replace("\n", "\r\n").replace("q1 Q0 b", "q1\tQ0\t b").encode()
    text = text.replace(b"q3 Q0 x 1 7 t\r\n", b"   \t\r\nq3 Q0 x 1 7 t\r")
    run = write(tmp_path / "r.txt", text)
    qrels = write(tmp_path / "q.txt", "\n\n" + QRELS.replace("\n", "\r\n") + "  \n")
    fast, slow = both(run, qrels)
    assert_same(fast, slow)
    assert len(fast) == 8


def test_empty_and_disjoint_files(tmp_path):
    run, qrels = write(tmp_path / "r.txt", ""), write(tmp_path / "q.txt", QRELS)
    fast, slow = both(run, qrels)
    assert_same(fast, slow)
    assert len(fast) == 0
    assert fast.query_ids == []
    run = write(tmp_path / "r2.txt", "other Q0 a 1 1 t\n")
    fast, slow = both(run, qrels)
    assert_same(fast, slow)
    assert len(fast) == 0


def test_duplicate_in_a_query_without_judgments_is_ignored(tmp_path):
    run = write(tmp_path / "r.txt", RUN + "q3 Q0 x 2 1 t\n")
    fast, slow = both(run, write(tmp_path / "q.txt", QRELS))
    assert_same(fast, slow)


def test_non_utf8_ids_read_as_cp1252(tmp_path):
    run = write(tmp_path / "r.txt", b"q1 Q0 caf\xe9 1 2 t\nq1 Q0 \xe2\x82\xac 2 1 t\n")
    qrels = write(tmp_path / "q.txt", b"q1 0 caf\xe9 1\n")
    fast, slow = both(run, qrels, fast_join=False)  # ids not in UTF-8: the text join
    assert_same(fast, slow)
    assert fast.source_id.tolist() == ["café", "€"]


def test_different_bytes_same_text_as_line_by_line(tmp_path):
    # b"caf\xc3\xa9" (UTF-8) and b"caf\xe9" (cp1252) both read as "café": the
    # line-by-line reader sees one id, so the fast path must too.
    run = write(tmp_path / "r.txt", "q1 Q0 café 1 2 t\n".encode() + b"q1 Q0 x 2 1 t\n")
    qrels = write(tmp_path / "q.txt", b"q1 0 caf\xe9 3\n")
    fast, slow = both(run, qrels, fast_join=False)
    assert_same(fast, slow)
    assert fast.grade.tolist() == [3.0, pytest.approx(np.nan, nan_ok=True)]


def test_key_clash_falls_back_exactly(tmp_path):
    # Every id gets the same key: the byte checks must notice and the result
    # must still be exact. (Keys of ids up to 8 bytes are the bytes
    # themselves, so the ids here are longer.)
    def longer(text: str) -> str:
        return text.replace(" a ", " a-long-identifier ").replace("q", "query-with-long-id-")

    run, qrels = write(tmp_path / "r.txt", longer(RUN)), write(tmp_path / "q.txt", longer(QRELS))
    with line_by_line():
        slow = document_from_trec(run, qrels)
    with mock.patch.object(scan, "padded_keys", lambda m: np.zeros(m.shape[0], dtype=np.uint64)):
        fast = document_from_trec(run, qrels)
    assert_same(fast, slow)
    with mock.patch.object(scan, "_source_keys",
                           lambda m: np.zeros(m.shape[0], dtype=np.uint64)):
        fast = document_from_trec(run, qrels)
    assert_same(fast, slow)
    assert len(fast) == 8


def test_very_long_id(tmp_path):
    long_id = "x" * (scan.MAX_WIDTH + 1)
    run = write(tmp_path / "r.txt", RUN + f"q1 Q0 {long_id} 9 1 t\n")
    qrels = write(tmp_path / "q.txt", QRELS + f"q1 0 {long_id} 2\n")
    doc = document_from_trec(run, qrels)
    assert doc.source_id[5] == long_id
    assert doc.grade[5] == 2


# -- random files -------------------------------------------------------------------------


@given(trec_files(), st.sampled_from([16, 64, 1 << 22]), st.booleans())
def test_fast_and_line_by_line_agree(files, chunk, crowded):
    run_text, qrels_text = files
    with tempfile.TemporaryDirectory() as tmp:
        run = write(Path(tmp) / "run.txt", run_text)
        qrels = write(Path(tmp) / "qrels.txt", qrels_text)
        with mock.patch.object(scan, "_CHUNK", chunk), crowd(crowded):
            fast, slow = both(run, qrels)
            assert_same(fast, slow)
            # The run's own columns read the same way too.
            fast_run = Run(run)
        with line_by_line():
            slow_run = Run(run)
        assert fast_run.query == slow_run.query
        assert fast_run.source == slow_run.source
        assert fast_run.score.tobytes() == slow_run.score.tobytes()
        assert fast_run.line.tolist() == slow_run.line.tolist()


@given(trec_files(), st.integers(0, 30), st.booleans())
def test_run_duplicates_found_as_line_by_line(files, at, crowded):
    run_text, qrels_text = files
    lines = run_text.splitlines()
    rows = [line for line in lines if line.split()]
    if not rows:
        return
    copy = rows[at % len(rows)]
    run_text = b"\n".join([*lines, b"", copy]) + b"\n"
    with tempfile.TemporaryDirectory() as tmp:
        run = write(Path(tmp) / "run.txt", run_text)
        qrels = write(Path(tmp) / "qrels.txt", qrels_text)
        try:
            with crowd(crowded):
                document_from_trec(run, qrels)
        except InputError as exc:
            fast: str | None = str(exc)
        else:
            fast = None
        try:
            with line_by_line():
                document_from_trec(run, qrels)
        except InputError as exc:
            slow: str | None = str(exc)
        else:
            slow = None
        assert fast == slow


def joined(run: Path, qrels: Path, unshared: bool) -> Document | str:
    """The document (or the error's message) of a run and its qrels."""
    try:
        return document_from_trec(run, qrels, unshared=unshared)
    except InputError as exc:
        return str(exc)


@given(run_and_qrels(), st.booleans(), st.booleans())
def test_fast_join_equals_the_line_join_row_for_row(files, unshared, crowded):
    with tempfile.TemporaryDirectory() as tmp:
        run = write(Path(tmp) / "run.txt", files[0])
        qrels = write(Path(tmp) / "qrels.txt", files[1])
        with crowd(crowded):
            fast = joined(run, qrels, unshared)
        with line_by_line():
            slow = joined(run, qrels, unshared)
    if isinstance(fast, str) or isinstance(slow, str):
        assert fast == slow
        return
    assert fast.source_bytes() is not None  # the fast join took it
    assert_same(fast, slow)
    assert fast.unjudged_queries == slow.unjudged_queries


@pytest.mark.parametrize(("crowded", "depths"), [(False, [300] * 3), (True, [300] * 3),
                                                  (False, [300, 250, 280]),
                                                  (True, [250, 300, 280])])
def test_deep_blocks_sorted_by_their_keys(tmp_path, crowded, depths):
    """Queries of 250-300 candidates, more places than the query codes'
    bits hold, each query's rows together (one depth, or several: the
    groups padded to the longest): the sort keys make room for the places,
    and the join equals the line-by-line one (a query only the run ranks, one
    only the qrels judge, judged sources the run did not retrieve, ids of 1
    to 20 bytes)."""
    rng = np.random.default_rng(5)
    ids = [f"{'d' * (i % 17)}{i}" for i in range(400)]
    run_lines, qrels_lines = [], []
    for q, depth in zip(["q1", "q2", "q3"], depths, strict=True):
        picked = rng.permutation(400)[:depth]
        run_lines += [f"{q} Q0 {ids[i]} {r} {rng.integers(0, 9)} t" for r, i in enumerate(picked)]
        if q != "q3":
            judged = rng.permutation(400)[:120]
            qrels_lines += [f"{q} 0 {ids[i]} {rng.integers(0, 3)}" for i in judged]
    qrels_lines += ["q9 0 d1 1"]
    run = write(tmp_path / "run.txt", "\n".join(run_lines) + "\n")
    qrels = write(tmp_path / "qrels.txt", "\n".join(qrels_lines) + "\n")
    with mock.patch.object(join, "_sorted_groups", wraps=join._sorted_groups) as groups, \
            crowd(crowded):
        fast, slow = both(run, qrels)
    assert groups.call_count == 2  # the run; the qrels (2 groups of 120, 1 of 1)
    assert_same(fast, slow)
    kept = sum(depths[:2])  # q3 is not judged
    assert len(fast) == kept + int(np.isnan(fast.score).sum())
    assert (~np.isnan(fast.grade[:kept])).sum() > 50


def test_same_id_in_pieces_of_different_widths(tmp_path):
    # "0" sits beside a 9-byte id in the run (16-byte rows) and alone in the
    # qrels (8-byte rows): its key must not depend on the row width.
    run = write(tmp_path / "r.txt", "0 Q0 0 0 0.0 tag\n0\U00010000\U00010000 Q0 0 1 0.0 tag\n")
    qrels = write(tmp_path / "q.txt", "0 0 0 0\n")
    fast, slow = both(run, qrels)
    assert_same(fast, slow)
    assert fast.query_ids == ["0"]
    assert fast.grade.tolist() == [0.0]


# -- Document.find_duplicate --------------------------------------------------------------


def duplicate_oracle(query: list[str], source: list[str]) -> tuple[int, int] | None:
    seen: dict[tuple[str, str], int] = {}
    for i, pair in enumerate(zip(query, source, strict=True)):
        if pair in seen:
            return seen[pair], i
        seen[pair] = i
    return None


@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", "q3"]), st.sampled_from("abcdé")),
                max_size=12),
       st.booleans())
def test_find_duplicate_matches_a_dict(rows, clash):
    query = [q for q, _ in rows]
    source = [s for _, s in rows]
    doc = Document.from_columns(query=query, source_id=source, check=False)
    if clash:  # every id hashes alike: only the text comparison may decide
        with mock.patch("core.model.document.hash", return_value=7, create=True):
            got = doc.find_duplicate()
    else:
        got = doc.find_duplicate()
    assert got == duplicate_oracle(query, source)


def test_from_columns_with_query_codes():
    doc = Document.from_columns(query=["b", "a"], query_codes=np.array([1, 0, 1]),
                                source_id=["x", "y", "z"], grade=[1.0, None, 2.0])
    ref = Document.from_columns(query=["a", "b", "a"], source_id=["x", "y", "z"],
                                grade=[1.0, None, 2.0], query_order=["b", "a"])
    assert doc.query_ids == ref.query_ids == ["b", "a"]
    assert doc.query.tolist() == ref.query.tolist() == [1, 0, 1]
    with pytest.raises(ValueError, match="distinct"):
        Document.from_columns(query=["a", "a"], query_codes=np.array([0]), source_id=["x"])
    with pytest.raises(ValueError, match="out of range"):
        Document.from_columns(query=["a"], query_codes=np.array([1]), source_id=["x"])


# -- tokens ---------------------------------------------------------------------------------


@given(trec_files())
def test_plain_layout_tokens_match_the_general_ones(files):
    for text, n_fields in zip(files, (6, 4), strict=True):
        for chunk in (text, text.replace(b"\r\n", b"\n").replace(b"\r", b"\n"),
                      b"\n".join(b" ".join(line.split()) for line in text.splitlines()
                                 if line.split()) + b"\n"):
            if not chunk:
                continue
            b = np.frombuffer(chunk, dtype=np.uint8)
            word = np.frombuffer(chunk.translate(scan._WORD), dtype=np.bool_)
            general = scan._tokens(b, word, n_fields, b"\r" in chunk)
            plain = scan._plain_tokens(b, n_fields)
            if plain is not None:
                assert general is not None
                for x, y in zip(plain[:2], general[:2], strict=True):
                    assert x.tolist() == y.tolist()
                assert plain[2] is None  # each row is its own line
                assert general[2].tolist() == list(range(plain[3]))
                assert plain[3] == general[3]


def test_plain_layout_is_taken_for_the_usual_file():
    chunk = b"q1 Q0 a 1 2.5 t\nq1 Q0 b 2 1 t\n"
    b = np.frombuffer(chunk, dtype=np.uint8)
    plain = scan._plain_tokens(b, 6)
    assert plain is not None
    assert plain[0][:6].tolist() == [0, 3, 6, 8, 10, 14]
    assert plain[1][:6].tolist() == [2, 5, 7, 9, 13, 15]
    assert plain[2] is None
    assert plain[3] == 2
    for odd in (b"q1 Q0 a 1 2.5 t\n\nq1 Q0 b 2 1 t\n", b"q1  Q0 a 1 2.5 t\n", b" q1 Q0 a 1 2 t\n",
                b"q1 Q0 a 1 2.5 t", b"q1 Q0 a 1 2.5\nt\n", b"q1 Q0 a 1 2.5\tt\n",
                b"q1 Q0 a\x01 1 2.5 t\n", b"q1 Q0 a 1 2.5 t\r\n", b"q1 Q0 a 1 2.5 t \n"):
        b = np.frombuffer(odd, dtype=np.uint8)
        assert scan._plain_tokens(b, 6) is None


def test_from_columns_query_codes_from_mixed_ids():
    # 1 and "1" are the same query (its text); order is first seen.
    doc = Document.from_columns(query=[2, 1, "1", "x", 2.5, 2], source_id=list("abcdef"))
    assert doc.query_ids == ["2", "1", "x", "2.5"]
    assert doc.query.tolist() == [0, 1, 1, 2, 3, 0]
    doc = Document.from_columns(query=[["q"], ["q"]], source_id=["a", "b"])
    assert doc.query_ids == ["['q']"]
    assert doc.query.tolist() == [0, 0]
    doc = Document.from_columns(query=["b", "a"], source_id=["x", "y"], query_order=["a", "z"])
    assert doc.query_ids == ["a", "z", "b"]
    assert doc.query.tolist() == [2, 0]


def test_fast_run_with_a_qrels_file_read_line_by_line(tmp_path):
    # A token longer than the scan reads (MAX_WIDTH) sends only the qrels
    # to the line reader; the run's columns then feed the dict join.
    pad = "".join(f"q1 0 pad{i} 1\n" for i in range(400))
    run = write(tmp_path / "r.txt", RUN)
    qrels = write(tmp_path / "q.txt", QRELS + pad + "q2 0 " + "a" * 600 + " 3\n")
    fast_run = Run(run)
    assert fast_run._table is not None
    doc = document_from_trec(fast_run, qrels)
    with line_by_line():
        slow = document_from_trec(run, qrels)
    assert_same(doc, slow)
    assert "a" * 600 in doc.source_id.tolist()


@pytest.mark.parametrize("lengthen", [True, False])
def test_ids_that_change_length_down_the_file(tmp_path, lengthen):
    # The reader sizes its columns from the first piece: ids that lengthen
    # down the file need more id bytes than promised, ids that shorten more
    # rows; each grows on its own, and the file reads as line by line.
    # (Lengthening ids under a shortening tag: the first piece's lines are
    # mostly tag, the last ones mostly id.)
    # Shortening ones: a few long lines, then many more rows than the +1024
    # the reader adds to its estimate.
    sizes = list(range(1, 400)) if lengthen else [400] * 20 + [1] * 3000
    run_lines = [f"q{q} Q0 {'d' * n}{q} 1 {n % 7}.5 {'t' * (400 - n) if lengthen else 't'}"
                 for q, n in enumerate(sizes)]
    qrels_lines = [f"q{q} 0 {'d' * n}{q} {n % 3}" for q, n in enumerate(sizes)]
    run = write(tmp_path / "run.txt", "\n".join(run_lines) + "\n")
    qrels = write(tmp_path / "qrels.txt", "\n".join(qrels_lines) + "\n")
    grown: list[str] = []
    resize = trec_columns._resize

    def spy(a: Any, n: int) -> Any:
        if n > a.size:
            grown.append("ids" if a.dtype == np.uint8 else "rows")
        return resize(a, n)

    with mock.patch.object(scan, "_CHUNK", 4096), mock.patch.object(trec_columns, "_resize", spy):
        fast, slow = both(run, qrels)
    assert_same(fast, slow)
    assert len(fast) == len(sizes)
    assert fast.n_queries == len(sizes)
    assert set(grown) == ({"ids"} if lengthen else {"rows"})
