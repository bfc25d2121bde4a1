"""Any id text comes back exactly: through CSV/TSV, the audited workbook and
its audit log, and TREC (or is refused before anything is written).

Ids here hold what hostile files hold: control characters, CR and LF,
quotes, delimiters, formula-like text (``=``, ``+``, ``-``, ``@``, a leading
apostrophe), white space at either end or only white space, bidirectional
overrides, astral characters, and very long text. NUL is left out: no text
file holds it (our readers refuse it as binary) and the TREC writer refuses
it (tested on its own).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.delimited import write_delimited
from core.io.load import load_document
from core.io.trec import document_from_trec, write_qrels, write_run
from core.io.workbook import export_workbook
from core.model.document import Document
from core.reports.text import FORMULA_STARTS, csv_field, protect, unprotect

TRICKY = "=+-@'\"\t\r\n ,;|\x1b\x7f\x85\u00a0\u2028\u202e\u200b\u3000_x0041_\\"
CHARS = st.one_of(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    st.sampled_from(list(TRICKY)),
    st.sampled_from(["_x0000_", "_x001B_", "_x005F_", "&amp;", "<t>", "]]>"]),
)
IDS = st.one_of(
    st.lists(CHARS, min_size=1, max_size=8).map("".join),
    st.builds(lambda head, n: head * n, st.lists(CHARS, min_size=1, max_size=3).map("".join),
              st.integers(300, 3000)),  # very long
)
NOTES = st.lists(CHARS, max_size=6).map("".join)
#: Ids a TREC line holds: no white space (Python's widest reading), no NUL.
TREC_IDS = st.text(st.one_of(
    st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp"),
                  blacklist_characters="\x00\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85"),
    st.sampled_from(list("=+-@'\",;|\x1b\x7f\u202e\u200b")),
), min_size=1, max_size=10)
#: What a TREC field cannot hold (the writer refuses such an id).
TREC_CANNOT = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u00a0\u1680\u2000\u2028\u2029\u202f\u205f\u3000"

SLOW = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
FAST = settings(max_examples=50, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@st.composite
def documents(draw: st.DrawFn, ids: st.SearchStrategy[str] = IDS) -> Document:
    queries = draw(st.lists(ids, min_size=1, max_size=3, unique=True))
    sources = draw(st.lists(ids, min_size=1, max_size=4, unique=True))
    rows = [(q, s) for q in queries for s in sources]
    n = len(rows)
    scores = draw(st.lists(st.one_of(st.none(), st.floats(-1e6, 1e6)), min_size=n, max_size=n))
    grades = draw(st.lists(st.one_of(st.none(), st.integers(0, 3).map(float)), min_size=n,
                           max_size=n))
    return Document.from_columns(
        query=[q for q, _ in rows], source_id=[s for _, s in rows], score=scores, grade=grades,
        version=draw(st.lists(NOTES, min_size=n, max_size=n)),
        note=draw(st.lists(NOTES, min_size=n, max_size=n)),
    )


def _same(a: Document, b: Document) -> None:
    """The same candidates, whatever the row order: ids, versions, notes, numbers."""
    def rows(d: Document) -> dict[tuple[str, str], tuple[str, str, float, float, int]]:
        return {(d.query_ids[int(d.query[i])], str(d.source_id[i])): (
            str(d.version[i]), str(d.note[i]),
            float(d.score[i]), float(d.grade[i]), int(d.state[i])) for i in range(len(d))}

    ra, rb = rows(a), rows(b)
    assert sorted(ra) == sorted(rb)
    for key, (va, na, sa, ga, sta) in ra.items():
        vb, nb, sb, gb, stb = rb[key]
        assert (va, na, sta) == (vb, nb, stb), key
        assert (math.isnan(sa) and math.isnan(sb)) or sa == sb, key
        assert (math.isnan(ga) and math.isnan(gb)) or ga == gb, key


# -- the CSV rule -------------------------------------------------------------------------

@FAST
@given(st.text(st.characters(blacklist_categories=("Cs",))))
def test_the_csv_rule_round_trips_and_protects(text: str) -> None:
    cell = protect(text)
    assert unprotect(cell, trim=True) == text
    assert unprotect(cell, trim=False) == text
    assert cell[:1] not in FORMULA_STARTS  # a spreadsheet runs nothing
    assert cell == text or cell == "'" + text  # one apostrophe at most, nothing else changes


@pytest.mark.parametrize(("text", "cell"), [
    ("=1+1", "'=1+1"), ("+x", "'+x"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("'quoted", "''quoted"), (" padded ", "' padded "),
    ("\uff1d1", "'\uff1d1"), ("q1", "q1"), ("a=b", "a=b"), ("", ""),
])
def test_the_csv_rule_by_hand(text: str, cell: str) -> None:
    assert protect(text) == cell
    assert unprotect(cell) == text


def test_a_hand_written_apostrophe_reads_as_a_spreadsheet_reads_it() -> None:
    assert unprotect("'tis") == "tis"
    assert unprotect("  q1 ") == "q1"
    assert unprotect("  a note ", trim=False) == "  a note "


@pytest.mark.parametrize(("text", "quoted"), [
    ("a,b", '"a,b"'), ('say "hi"', '"say ""hi"""'), ("a\rb", '"a\rb"'), ("a\nb", '"a\nb"'),
    ("plain", "plain"), ("a\tb", "a\tb"),
])
def test_a_csv_cell_is_quoted_when_it_must_be(text: str, quoted: str) -> None:
    assert csv_field(text) == quoted


# -- CSV/TSV, workbook, TREC --------------------------------------------------------------

@FAST
@given(documents(), st.sampled_from([".csv", ".tsv"]))
def test_any_id_survives_csv_and_tsv(tmp_path: Path, doc: Document, suffix: str) -> None:
    path = tmp_path / f"back{suffix}"
    write_delimited(doc, path, delimiter="," if suffix == ".csv" else "\t")
    _same(doc, load_document(path))


@SLOW
@given(documents())
def test_any_id_survives_the_workbook(tmp_path: Path, doc: Document) -> None:
    path = tmp_path / "back.xlsx"
    export_workbook(evaluate(doc), path)
    _same(doc, load_document(path))


@SLOW
@given(documents(), st.data())
def test_any_id_survives_the_workbook_s_audit_log(tmp_path: Path, doc: Document,
                                                   data: st.DataObject) -> None:
    row = data.draw(st.integers(0, len(doc) - 1))
    doc.set_grade(row, 7.0, who=data.draw(IDS), note=data.draw(NOTES))
    path = tmp_path / "edited.xlsx"
    export_workbook(evaluate(doc), path)
    back = load_document(path)
    _same(doc, back)
    assert [(e.who, e.query, e.source_id, e.note) for e in back.audit] == [
        (e.who, e.query, e.source_id, e.note) for e in doc.audit]


def _trec_holds(text: str) -> bool:
    return bool(text) and not any(c.isspace() for c in text)


@FAST
@given(st.one_of(documents(), documents(TREC_IDS)))
def test_any_id_survives_trec_or_is_refused_before_writing(tmp_path: Path,
                                                           doc: Document) -> None:
    run, qrels = tmp_path / "back.run", tmp_path / "back.qrels"
    retrieved = ~np.isnan(doc.score)
    judged = ~np.isnan(doc.grade)
    needed = retrieved | judged
    refused = False
    for write, path, rows in ((write_run, run, retrieved), (write_qrels, qrels, judged)):
        path.unlink(missing_ok=True)
        if all(_trec_holds(doc.query_ids[int(doc.query[i])]) and _trec_holds(str(doc.source_id[i]))
               for i in np.flatnonzero(rows)):
            write(doc, path)
            continue
        refused = True
        with pytest.raises(InputError, match="TREC file cannot hold"):
            write(doc, path)
        assert not path.exists()
    if refused:
        return
    back = document_from_trec(run, qrels)
    # A run and its qrels hold the retrieved and the judged candidates; the
    # queries in both files come back (as trec_eval joins them), ids exact.
    def queries(mask: np.ndarray) -> set[str]:
        return {doc.query_ids[int(doc.query[i])] for i in np.flatnonzero(mask)}

    both = queries(judged) & queries(retrieved)
    want = {(doc.query_ids[int(doc.query[i])], str(doc.source_id[i]))
            for i in np.flatnonzero(needed) if doc.query_ids[int(doc.query[i])] in both}
    got = {(back.query_ids[int(back.query[i])], str(back.source_id[i])) for i in range(len(back))}
    assert got == want


@pytest.mark.parametrize(("query", "source", "message"), [
    ("q 1", "a", "query id 'q 1' holds white space (' ')"),
    ("q1", "a\tb", "source id 'a\\tb' of query 'q1' (row 1) holds white space ('\\t')"),
    ("q1", "a\u3000", "holds white space ('\\u3000')"),
    ("q1", "a\x00", "holds a NUL character"),
])
def test_trec_refuses_ids_it_cannot_hold_and_writes_nothing(tmp_path: Path, query: str,
                                                            source: str, message: str) -> None:
    doc = Document.from_columns(query=[query], source_id=[source], score=[1.0], grade=[1.0])
    for write in (write_run, write_qrels):
        out = tmp_path / "out.txt"
        out.write_text("old\n")
        with pytest.raises(InputError) as info:
            write(doc, out)
        assert message in str(info.value)
        assert "nothing was written" in str(info.value)
        assert out.read_text() == "old\n"


def test_formula_like_ids_are_written_to_trec_exactly(tmp_path: Path) -> None:
    doc = Document.from_columns(query=["=1+1"], source_id=["@x", "-y"][:1], score=[1.0],
                                grade=[2.0])
    write_run(doc, tmp_path / "r.run")
    write_qrels(doc, tmp_path / "r.qrels")
    assert (tmp_path / "r.run").read_text() == "=1+1 Q0 @x 1 1.0 ndcg-worksheet\n"
    assert (tmp_path / "r.qrels").read_text() == "=1+1 0 @x 2\n"


def test_a_nul_in_an_id_is_refused_by_the_csv_writer(tmp_path: Path) -> None:
    doc = Document.from_columns(query=["q"], source_id=["a\x00b"], score=[1.0], grade=[1.0])
    with pytest.raises(InputError, match="NUL"):
        write_delimited(doc, tmp_path / "x.csv")
    assert not (tmp_path / "x.csv").exists()
