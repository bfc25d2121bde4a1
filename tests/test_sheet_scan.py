"""The worksheet CSV/TSV reader: the fast (numpy) path against the careful one.

Every file is read twice: as ``read_delimited`` reads it (the fast reader,
:mod:`core.io.sheet_scan`, where it can) and with the fast reader turned off
(the csv module, which names the line and column of any problem). The two
must give the same document, or the same error, for every file: the files
the product writes, and generated ones holding what the fast reader must
leave alone (quotes, apostrophes, padding, blank lines, bad numbers, words in
any case, repeated pairs, carriage returns).
"""

from __future__ import annotations

import codecs
import math
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import InputError
from core.io import delimited, sheet_scan
from core.io.delimited import read_delimited, text_encoding, write_delimited
from core.io.textfile import DETECT
from core.model.document import Document, GradeState
from core.reports.text import csv_field


@contextmanager
def careful() -> Any:
    """Make every file take the careful reader."""
    with mock.patch.object(delimited, "scan_sheet", return_value=None):
        yield


def columns(doc: Document) -> dict[str, Any]:
    return {
        "query_ids": doc.query_ids,
        "query": doc.query.tolist(),
        "source_id": doc.source_id.tolist(),
        "version": doc.version.tolist(),
        "note": doc.note.tolist(),
        "reason": doc.reason.tolist(),
        "score": [None if math.isnan(x) else x for x in doc.score.tolist()],
        "grade": [None if math.isnan(x) else x for x in doc.grade.tolist()],
        "state": doc.state.tolist(),
        "original": [None if math.isnan(x) else x for x in doc.original_grade.tolist()],
        "original_state": doc.original_state.tolist(),
        "name": doc.name,
    }


def read(path: Path, encoding: str | None = None) -> tuple[Document | str, bool]:
    """The document (or the error's text) and whether the fast reader gave it."""
    calls: list[Document | None] = []
    real = sheet_scan.scan_sheet

    def spy(*args: Any, **kwargs: Any) -> Document | None:
        calls.append(real(*args, **kwargs))
        return calls[-1]

    with mock.patch.object(delimited, "scan_sheet", spy):
        try:
            return read_delimited(path, encoding=encoding), any(c is not None for c in calls)
        except InputError as exc:
            assert not any(c is not None for c in calls)
            return str(exc), False


def assert_same(path: Path, encoding: str | None = None) -> bool:
    """Both readers agree on ``path``; whether the fast one read it."""
    fast, used = read(path, encoding)
    with careful():
        try:
            slow: Document | str = read_delimited(path, encoding=encoding)
        except InputError as exc:
            slow = str(exc)
    if isinstance(slow, str) or isinstance(fast, str):
        assert fast == slow
        return used
    assert columns(fast) == columns(slow)
    assert fast.score.tobytes() == slow.score.tobytes()  # -0.0 and 0.0 differ
    assert fast.grade.tobytes() == slow.grade.tobytes()
    assert all(type(s) is str for s in fast.source_id.tolist())
    assert text_encoding(fast) == text_encoding(slow)
    return used


def product_document() -> Document:
    """A worksheet with every state, empty scores, text in every column."""
    return Document.from_columns(
        query=["q1", "q1", "q1", "q2", "q2", "q10", "q10"],
        source_id=["d1", "d2", "http://x.org/a?b=1", "d1", "café", "=1+1", " padded"],
        score=[3.5, 2.0, None, 1e-07, -0.0, 17.63, 0.30000000000000004],
        grade=[2.0, None, 1.0, 0.0, 3.0, None, 1.5],
        state=[0, 1, 0, 0, 0, 2, 0],
        version=["v1", "", "v2", "", "", "", ""],
        note=["a note, with a comma", "", " kept as typed ", "", "", "", ""],
        reason=["", "", "", "", "", "page gone", ""],
    )


def test_the_product_s_file_is_read_fast_and_the_same(tmp_path):
    doc = product_document()
    doc.source_id[-1] = "plain"  # no padded id: the fast reader takes the file
    doc.source_id[-2] = "d3"
    doc.note[0] = "a note"
    path = tmp_path / "w.csv"
    write_delimited(doc, path)
    assert assert_same(path)
    got, _ = read(path)
    assert isinstance(got, Document)
    # Hand-checked against the document written.
    assert got.query_ids == ["q1", "q2", "q10"]
    assert got.query.tolist() == [0, 0, 0, 1, 1, 2, 2]
    assert got.source_id.tolist() == ["d1", "d2", "http://x.org/a?b=1", "d1", "café", "d3",
                                      "plain"]
    assert got.state.tolist() == [0, 1, 0, 0, 0, 2, 0]
    assert got.reason.tolist()[5] == "page gone"
    assert got.version.tolist()[:3] == ["v1", "", "v2"]
    assert got.note.tolist()[2] == " kept as typed "
    assert got.score[4] == 0.0
    assert math.copysign(1, got.score[4]) == -1
    assert math.isnan(got.score[2])
    assert got.score[6] == 0.30000000000000004
    assert got.source_bytes() is not None  # ids kept as bytes, as a TREC run's


def test_quoted_text_cells_are_read_fast(tmp_path):
    doc = product_document()
    doc.source_id[-2:] = ["d3", 'say "hi"']  # quoted, not padded: read fast
    doc.note[3] = 'one, "two"; three'
    doc.reason[5] = "gone, moved"
    path = tmp_path / "w.csv"
    write_delimited(doc, path)
    assert b'"a note, with a comma"' in path.read_bytes()
    assert assert_same(path)
    got, _ = read(path)
    assert isinstance(got, Document)
    assert got.note.tolist()[:4] == ["a note, with a comma", "", " kept as typed ",
                                     'one, "two"; three']
    assert got.reason.tolist()[5] == "gone, moved"
    assert got.source_id.tolist()[-1] == 'say "hi"'


@pytest.mark.parametrize("line", ['q1,"c,d",1,1', 'q1,c,"1,5",1', 'q1,c,1,"2,"', 'q1,"c\nd",1,1',
                                  'q1,"c"x,1,1', 'q1,c,1,"1"'])
def test_quotes_the_fast_reader_leaves(tmp_path, line):
    path = tmp_path / "w.csv"
    path.write_text(f"query,source_id,score,grade,note\nq1,a,1,1,\n{line},\"n, o\"\n",
                    encoding="utf-8")
    assert assert_same(path) == (line == 'q1,c,1,"1"')


def test_quoted_and_protected_cells_go_to_the_careful_reader(tmp_path):
    path = tmp_path / "w.csv"
    write_delimited(product_document(), path)  # quotes, '=1+1 and ' padded
    assert not assert_same(path)


@pytest.mark.parametrize("name", ["w.csv", "w.tsv"])
@pytest.mark.parametrize("bom", [b"", codecs.BOM_UTF8])
@pytest.mark.parametrize("newline", [b"\n", b"\r\n"])
def test_delimiters_byte_order_marks_and_line_ends(tmp_path, name, bom, newline):
    d = b"\t" if name.endswith(".tsv") else b","
    rows = [b"query", b"source_id", b"score", b"grade"], [b"q1", b"a", b"1.5", b"2"], \
        [b"q1", b"b", b"", b"Unknown"], [b"q2", b"a", b"-3", b"UNRATEABLE"]
    path = tmp_path / name
    path.write_bytes(bom + newline.join(d.join(r) for r in rows) + newline * 3)
    assert assert_same(path)
    doc, _ = read(path)
    assert isinstance(doc, Document)
    assert doc.state.tolist() == [GradeState.NUMBER, GradeState.UNKNOWN, GradeState.UNRATEABLE]
    assert text_encoding(doc) == "utf-8"


@pytest.mark.parametrize(("codec", "declared"), [("utf-16", None), ("utf-16", DETECT),
                                                 ("cp1252", DETECT), ("cp1252", "cp1252"),
                                                 ("utf-8", DETECT)])
def test_encodings_read_fast_and_the_same(tmp_path, codec, declared):
    text = "query,source_id,score,grade,note\nqé,d€,1,2,naïve\nqé,d2,0.5,,\n"
    path = tmp_path / "w.csv"
    path.write_bytes(text.encode(codec))
    assert assert_same(path, declared)
    doc, _ = read(path, declared)
    assert isinstance(doc, Document)
    assert doc.query_ids == ["qé"]
    assert doc.source_id.tolist() == ["d€", "d2"]
    assert doc.note.tolist() == ["naïve", ""]


def test_a_cp1252_file_not_declared_is_refused_the_same(tmp_path):
    path = tmp_path / "w.csv"
    path.write_bytes("query,source_id,score,grade\nq,d\u00e9,1,2\n".encode("cp1252"))
    fast, used = read(path)
    assert isinstance(fast, str)
    assert "not valid UTF-8" in fast
    assert not used
    assert not assert_same(path)


@pytest.mark.parametrize(("line", "why"), [
    ("q1,c,1_0,1", "'1_0' is not a number"),
    ("q1,c,nan,1", "'nan' is not a finite number"),
    ("q1,c,1e999,1", "not a finite number"),
    ("q1,c,1,high", "'high' is not a number"),
    ("q1,c,1", "expected 4 fields"),
    (",c,1,1", "the query is empty"),
    ("q1,,1,1", "the source_id is empty"),
    ("q1,a,2,1", "lists source 'a' twice"),
])
def test_errors_are_the_careful_reader_s(tmp_path, line, why):
    path = tmp_path / "w.csv"
    path.write_text(f"query,source_id,score,grade\nq1,a,1,1\nq1,b,1,1\n{line}\nq2,a,1,1\n",
                    encoding="utf-8")
    err, used = read(path)
    assert isinstance(err, str)
    assert why in err
    assert not used
    assert "line 4" in err or "rows 1 and 3" in err
    assert not assert_same(path)


CELLS = st.sampled_from([
    "q1", "q2", "Q1", "a", "b", "c", "é", "d,e", 'say "hi"', "'=x", "'a", " a", "a ", "",
    "  ", "x\ny", "x\r\ny", "\t", "1", "-2.5", "1e-3", "+.5", "3.", "1_0", "nan", "1e999",
    "unknown", "UNKNOWN", "Unrateable", "unrateable", " 2", "0x1", "--1", "1.2.3", "\u00a0",
    "a\u00a0", "é ", "n/a", "unrateable: x", "?",
])
NUMBERS = st.sampled_from(["1", "0", "-0", "2.5", "17.63", "1e5", "1E-05", ".5", "3.",
                           "0.30000000000000004", "12345678901234567890", ""])
TEXTS = st.sampled_from(["", "v1", "some text", "x", "a, b", 'say "hi"', "two\nlines", "é,"])
GRADES = st.sampled_from(["0", "1", "2", "3", "1.5", "", "unknown", "Unknown", "UNRATEABLE",
                          "unrateable"])


@st.composite
def sheets(draw: Any) -> bytes:
    """A worksheet's bytes: mostly plain rows, some with odd cells."""
    extra = draw(st.lists(st.sampled_from(["version", "note", "reason", "other"]),
                          unique=True, max_size=4))
    header = ["query", "source_id", "score", "grade", *extra]
    order = draw(st.permutations(header))
    n = draw(st.integers(1, 25))
    rows = []
    for i in range(n):
        row = {"query": draw(st.sampled_from(["q1", "q2", "q3", "é"])),
               "source_id": f"d{i}", "score": draw(NUMBERS), "grade": draw(GRADES)}
        row.update({k: csv_field(draw(TEXTS)) for k in extra})
        if draw(st.integers(0, 9)) == 0:
            cell = draw(CELLS)
            row[draw(st.sampled_from(order))] = csv_field(cell) if draw(st.booleans()) else cell
        rows.append(",".join(row[k] for k in order))
    if draw(st.booleans()):
        rows.insert(draw(st.integers(0, n)), draw(st.sampled_from(["", ",,,", "q1,d0,1,1"])))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    end = draw(st.sampled_from(["", newline, newline * 2]))
    return (newline.join([",".join(order), *rows]) + end).encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(sheets(), st.sampled_from([16, 64, 1 << 20]))
def test_fast_and_careful_agree(data, chunk):
    with tempfile.TemporaryDirectory() as tmp, mock.patch.object(sheet_scan, "_CHUNK", chunk):
        path = Path(tmp) / "w.csv"
        path.write_bytes(data)
        assert_same(path)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", "é"]), st.sampled_from(["a", "b", "é"]),
                          st.floats(allow_nan=False, allow_infinity=False),
                          st.floats(allow_nan=False, allow_infinity=False)),
                min_size=1, max_size=30))
def test_any_finite_numbers_read_bit_for_bit(rows):
    seen: set[tuple[str, str]] = set()
    lines = ["query,source_id,score,grade"]
    for q, s, score, grade in rows:
        if (q, s) not in seen:
            seen.add((q, s))
            lines.append(f"{q},{s},{score!r},{grade!r}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.csv"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        assert assert_same(path)
        doc, _ = read(path)
        assert isinstance(doc, Document)
        expect = [float(line.split(",")[2]) for line in lines[1:]]
        assert doc.score.tobytes() == np.array(expect).tobytes()


@pytest.mark.parametrize(("cell", "fast"), [
    ("'=x", False), ("'a", False), (" a", False), ("a ", False), ("a\t", False),
    ("a\u00a0", False), ("\u2003a", False), ("é", True), ("aé", True), ("éa", True),
    ("\u00e9\u00e9", True), ("a b", True), ("a'", True),
])
@pytest.mark.parametrize("field", ["query", "source_id"])
def test_ids_the_csv_rule_would_change_go_to_the_careful_reader(tmp_path, cell, fast, field):
    rows = [["q1", "a", "1", "1"], ["q1", "b", "2", ""]]
    rows[1][0 if field == "query" else 1] = cell
    path = tmp_path / "w.csv"
    path.write_text("query,source_id,score,grade\n" + "".join(",".join(r) + "\n" for r in rows),
                    encoding="utf-8")
    assert assert_same(path) == fast
