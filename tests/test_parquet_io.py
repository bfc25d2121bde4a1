"""Parquet inputs: the same documents and numbers as the TREC text they hold,
and one clear line for a bad table."""

from __future__ import annotations

import io
import json
import sys
import tempfile
from pathlib import Path
from unittest import mock

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings

from app.cli.main import main
from core.errors import InputError
from core.io import arrow_ids, columnar
from core.io.columnar import is_parquet
from core.io.load import load_document
from core.io.trec import Run, document_from_trec, read_qrels
from core.model.ids import IdBytes
from tests.trec_cases import QRELS, RUN, assert_same, trec_files, write

DATA = Path(__file__).parent / "data" / "trec_eval"


def run_table(path: Path) -> pa.Table:
    """The TREC run at ``path`` as a Parquet run's table (the file's order)."""
    run = Run(path)
    return pa.table({"query": run.query, "source_id": run.source,
                     "score": pa.array(run.score, pa.float64())})


def qrels_table(path: Path, *, beir: bool = False) -> pa.Table:
    judged, where = read_qrels(path)
    rows = sorted(((where[(q, s)], q, s, g) for q, ss in judged.items() for s, g in ss.items()))
    names = ("query-id", "corpus-id", "score") if beir else ("query", "source_id", "grade")
    return pa.table(dict(zip(names, ([r[1] for r in rows], [r[2] for r in rows],
                                     [r[3] for r in rows]), strict=True)))


def parquet(path: Path, table: pa.Table) -> Path:
    pq.write_table(table, path)
    return path


def as_parquet(tmp: Path, run: Path, qrels: Path, *, beir: bool = False) -> tuple[Path, Path]:
    return (parquet(tmp / "run.parquet", run_table(run)),
            parquet(tmp / "qrels.parquet", qrels_table(qrels, beir=beir)))


def test_hand_made_files_read_as_their_text(tmp_path):
    run, qrels = write(tmp_path / "r.txt", RUN), write(tmp_path / "q.txt", QRELS)
    text = load_document(run, qrels=qrels)  # the queries the files do not share too
    run_pq, qrels_pq = as_parquet(tmp_path, run, qrels)
    assert is_parquet(run_pq)
    assert not is_parquet(run)
    for r, q in ((run_pq, qrels_pq), (run_pq, qrels), (run, qrels_pq)):
        doc = load_document(r, qrels=q)
        doc.name = text.name
        assert_same(doc, text)
        assert doc.unjudged_queries == text.unjudged_queries


@settings(max_examples=40, deadline=None)
@given(trec_files())
def test_parquet_equals_trec_text(files):
    run_text, qrels_text = files
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        run, qrels = write(t / "r.txt", run_text), write(t / "q.txt", qrels_text)
        try:
            text = document_from_trec(run, qrels, unshared=True)  # as load_document joins
        except InputError:
            return  # a duplicate the TREC reader refuses: tested below
        for beir in (False, True):
            run_pq, qrels_pq = as_parquet(t, run, qrels, beir=beir)
            doc = load_document(run_pq, qrels=qrels_pq)
            doc.name = text.name
            assert_same(doc, text)
            assert doc.unjudged_queries == text.unjudged_queries


def evaluate_json(*argv: str) -> dict:
    out = io.StringIO()
    assert main(["evaluate", *argv, "--format", "json"], out) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize("preset", [None, "trec_eval", "sklearn", "ranx"])
def test_trec_eval_suite_evaluates_the_same_from_parquet(tmp_path, preset):
    run_pq, qrels_pq = as_parquet(tmp_path, DATA / "results.test", DATA / "qrels.test",
                                  beir=preset == "ranx")
    flags = ["--preset", preset] if preset else []
    text = evaluate_json(str(DATA / "results.test"), "--qrels", str(DATA / "qrels.test"), *flags)
    assert text["queries"]
    assert evaluate_json(str(run_pq), "--qrels", str(qrels_pq), *flags) == text


def test_whole_number_ids_are_their_decimal_text(tmp_path):
    run = parquet(tmp_path / "r.parquet", pa.table({
        "query": pa.array([7, 7, 8], pa.int64()), "source_id": ["10", "11", "10"],
        "score": [2.0, 1.0, 5.0]}))
    qrels = parquet(tmp_path / "q.parquet", pa.table({
        "query-id": ["7", "8"], "corpus-id": pa.array([11, 12], pa.int32()),
        "score": pa.array([2, 1], pa.int64())}))
    doc = load_document(run, qrels=qrels)
    assert doc.query_ids == ["7", "8"]
    assert doc.source_id.tolist() == ["10", "11", "10", "12"]
    grade = doc.grade.tolist()
    assert grade[1::2] == [2.0, 1.0]
    assert all(g != g for g in grade[::2])


def test_worksheet_table(tmp_path):
    path = parquet(tmp_path / "w.parquet", pa.table({
        "query": ["a", "a", "b"], "source_id": ["x", "y", "x"],
        "score": [2.0, None, 1.0], "grade": [1.0, 3.0, None],
        "version": ["v1", "v1", None]}))
    doc = load_document(path)
    assert doc.query_ids == ["a", "b"]
    assert doc.score.tolist()[0] == 2.0
    assert doc.score.tolist()[2] == 1.0
    assert doc.score[1] != doc.score[1]  # judged, not retrieved
    assert doc.grade.tolist()[:2] == [1.0, 3.0]
    assert doc.grade[2] != doc.grade[2]
    out = io.StringIO()
    assert main(["evaluate", str(path), "--format", "csv"], out) == 0
    assert out.getvalue().splitlines()[1].startswith("a,all,")


def error_line(capsys, *argv: str) -> str:
    assert main(list(argv), io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def good_qrels(tmp_path: Path) -> Path:
    return parquet(tmp_path / "q.parquet", pa.table({
        "query": ["a"], "source_id": ["x"], "grade": [1.0]}))


@pytest.mark.parametrize(("columns", "words"), [
    ({"query": ["a"], "source": ["x"], "score": [1.0]}, ["r.parquet", "'source_id'", "no column"]),
    ({"query": ["a"], "source_id": ["x"], "score": ["1"]}, ["column 'score'", "numbers"]),
    ({"query": ["a"], "source_id": [1.5], "score": [1.0]}, ["column 'source_id'", "ids"]),
    ({"query": [None], "source_id": ["x"], "score": [1.0]}, ["column 'query'", "row 1 has no id"]),
    ({"query": ["a", ""], "source_id": ["x", "y"], "score": [1.0, 2.0]}, ["row 2 has no id"]),
    ({"query": ["a", "a"], "source_id": ["x", "y"], "score": [1.0, float("nan")]},
     ["column 'score'", "row 2 holds nan, not a finite number"]),
    ({"query": ["a"], "source_id": ["x"], "score": [float("inf")]}, ["row 1 holds inf"]),
    ({"query": ["a"], "source_id": ["x"], "score": [None]}, ["row 1 has no value"]),
    ({"query": ["a", "b", "a"], "source_id": ["x", "x", "x"], "score": [1.0, 2.0, 3.0]},
     ["r.parquet", "query 'a' retrieves source 'x' twice (rows 1 and 3)"]),
])
def test_bad_run_table_gets_one_line(tmp_path, capsys, columns, words):
    run = parquet(tmp_path / "r.parquet", pa.table(columns))
    err = error_line(capsys, "evaluate", str(run), "--qrels", str(good_qrels(tmp_path)))
    for word in words:
        assert word in err


def test_qrels_judging_a_pair_twice(tmp_path, capsys):
    run = parquet(tmp_path / "r.parquet", pa.table({
        "query": ["a"], "source_id": ["x"], "score": [1.0]}))
    qrels = parquet(tmp_path / "q.parquet", pa.table({
        "query-id": ["a", "a"], "corpus-id": ["y", "y"], "score": [1, 2]}))
    err = error_line(capsys, "evaluate", str(run), "--qrels", str(qrels))
    assert "q.parquet" in err
    assert "judges source 'y' twice (rows 1 and 2)" in err



@pytest.mark.parametrize("keys", ["one key", "a key a length"])
def test_pairs_sharing_a_key_are_joined_on_their_text(tmp_path, capsys, keys):
    """The join matches pairs by 64-bit keys of the source ids' bytes; when
    two different pairs share a key (forced here: every id one key, or ids
    of one length one key, so that a run pair and a qrels pair of other ids
    meet; equal ids keep equal keys) it joins on the ids' text: the same
    document, the same messages."""
    run, qrels = write(tmp_path / "r.txt", RUN), write(tmp_path / "q.txt", QRELS)
    run_pq, qrels_pq = as_parquet(tmp_path, run, qrels)
    bad_run = parquet(tmp_path / "bad.parquet", pa.table({
        "query": ["a", "b", "a"], "source_id": ["x", "y", "x"], "score": [1.0, 2.0, 3.0]}))
    bad_qrels = parquet(tmp_path / "badq.parquet", pa.table({
        "query": ["a", "a", "a"], "source_id": ["y", "x", "y"], "grade": [1.0, 2.0, 3.0]}))
    cases = [("evaluate", str(bad_run), "--qrels", str(good_qrels(tmp_path))),
             ("evaluate", str(run_pq), "--qrels", str(bad_qrels))]
    keyed = load_document(run_pq, qrels=qrels_pq)
    messages = [error_line(capsys, *argv) for argv in cases]
    assert "retrieves source 'x' twice (rows 1 and 3)" in messages[0]
    assert "judges source 'y' twice (rows 1 and 3)" in messages[1]
    if keys == "one key":
        forced = lambda ids, rows=None: np.zeros(len(ids), dtype=np.uint64)  # noqa: E731
    else:
        forced = lambda ids, rows=None: ids.length.astype(np.uint64)  # noqa: E731
    exact = mock.patch("core.io.columnar._Pairs.exact", wraps=columnar._Pairs.exact)
    with mock.patch.object(IdBytes, "keys", forced), exact as by_text:
        doc = load_document(run_pq, qrels=qrels_pq)
        assert by_text.called
        assert [error_line(capsys, *argv) for argv in cases] == messages
    assert_same(doc, keyed)
    assert doc.unjudged_queries == keyed.unjudged_queries


def test_not_parquet_inside_and_run_without_qrels(tmp_path, capsys):
    broken = tmp_path / "b.parquet"
    broken.write_bytes(b"PAR1 and then nothing")
    assert "not a readable Parquet file" in error_line(capsys, "evaluate", str(broken))
    run = parquet(tmp_path / "r.parquet", pa.table({
        "query": ["a"], "source_id": ["x"], "score": [1.0]}))
    assert "--qrels" in error_line(capsys, "evaluate", str(run))


def test_without_pyarrow_the_error_names_the_extra(tmp_path, capsys):
    run = parquet(tmp_path / "r.parquet", pa.table({
        "query": ["a"], "source_id": ["x"], "score": [1.0]}))
    with mock.patch.dict(sys.modules, {"pyarrow": None, "pyarrow.parquet": None}):
        err = error_line(capsys, "evaluate", str(run), "--qrels", str(good_qrels(tmp_path)))
    assert "pyarrow" in err
    # what installs it wherever ndcg-worksheet was installed from (a wheel,
    # pipx): the extra's requirements, read from the installed metadata; a
    # clone's ``pip install -e '.[parquet]'`` works only in the clone
    assert "install it: pip install 'pyarrow>=14' (the [parquet] extra)" in err, err


def test_an_extra_is_installed_by_its_requirements_or_in_the_clone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The install line of an extra is its requirements as the installed
    distribution lists them (pyproject.toml declares them once), quoted for
    a shell; without installed metadata (the source tree alone), the
    clone's editable install."""
    from importlib import metadata

    from core.model.extras import install_line

    assert install_line("parquet") == "pip install 'pyarrow>=14' (the [parquet] extra)"
    assert install_line("spark") == ("pip install 'pyarrow>=14' 'pandas>=2' 'pyspark>=4.0' "
                                     "(the [spark] extra)")
    assert install_line("dask") == ("pip install 'pyarrow>=14' 'pandas>=2' "
                                    "'dask[distributed]>=2024.1' (the [dask] extra)")

    def missing(_name: str) -> None:
        raise metadata.PackageNotFoundError(_name)

    monkeypatch.setattr(metadata, "requires", missing)
    assert install_line("parquet") == "pip install -e '.[parquet]' in a clone of ndcg-worksheet"


def test_compare_and_export_take_parquet(tmp_path):
    run_pq, qrels_pq = as_parquet(tmp_path, DATA / "results.test", DATA / "qrels.test")
    out_text, out_pq = io.StringIO(), io.StringIO()
    run, qrels = str(DATA / "results.test"), str(DATA / "qrels.test")
    assert main(["compare", run, run, "--qrels", qrels, "--format", "json",
                 "--resamples", "50"], out_text) == 0
    assert main(["compare", str(run_pq), run, "--qrels", str(qrels_pq), "--format", "json",
                 "--resamples", "50"], out_pq) == 0
    a, b = json.loads(out_text.getvalue()), json.loads(out_pq.getvalue())
    a.pop("a"), b.pop("a")
    assert a == b
    target = tmp_path / "out.qrels"
    assert main(["export", str(run_pq), "--qrels", str(qrels_pq), "-o", str(target)],
                io.StringIO()) == 0
    assert read_qrels(target)[0] == {q: j for q, j in read_qrels(DATA / "qrels.test")[0].items()
                                     if q in {str(x) for x in Run(DATA / "results.test").query}}


def _second_run(tmp: Path) -> Path:
    """results.test with every other score negated (another ranking of the
    same candidates, some queries' NDCG changing), as TREC text."""
    run = Run(DATA / "results.test")
    score = np.where(np.arange(len(run.score)) % 2 == 0, -run.score, run.score).tolist()
    return write(tmp / "b.txt", "".join(
        f"{q} Q0 {s} 1 {v!r} b\n" for q, s, v in zip(run.query, run.source, score, strict=True)))


def _counted_reads(monkeypatch) -> tuple[list[str], list[int]]:
    """The files the Parquet path reads (each read's name) and the ids it
    makes bytes (each decode's count of ids), as they happen."""
    reads: list[str] = []
    decoded: list[int] = []
    read, decode = columnar.read_parquet, arrow_ids.id_bytes
    monkeypatch.setattr(columnar, "read_parquet", lambda path, *more: (
        reads.append(Path(path).name), read(path, *more))[1])
    monkeypatch.setattr(arrow_ids, "id_bytes", lambda ids, *more: (
        decoded.append(len(ids)), decode(ids, *more))[1])
    return reads, decoded


def test_compare_reads_and_decodes_the_parquet_qrels_once(tmp_path, monkeypatch):
    # Both runs' joins share one read of the qrels and one decode of their
    # ids (each join read them before): the output is the TREC files' still.
    b_text = _second_run(tmp_path)
    run_pq, qrels_pq = as_parquet(tmp_path, DATA / "results.test", DATA / "qrels.test")
    b_pq = parquet(tmp_path / "b.parquet", run_table(b_text))
    n_qrels = sum(len(j) for j in read_qrels(DATA / "qrels.test")[0].values())
    args = ["--format", "json", "--resamples", "50", "--preset", "trec_eval"]
    text = io.StringIO()
    assert main(["compare", str(DATA / "results.test"), str(b_text),
                 "--qrels", str(DATA / "qrels.test"), *args], text) == 0
    reads, decoded = _counted_reads(monkeypatch)
    out = io.StringIO()
    assert main(["compare", str(run_pq), str(b_pq), "--qrels", str(qrels_pq), *args], out) == 0
    assert reads == ["run.parquet", "qrels.parquet", "b.parquet"]
    assert decoded == [1500, n_qrels, 1500]  # as each file is read: run A, the qrels, run B
    got, want = json.loads(out.getvalue()), json.loads(text.getvalue())
    assert (got.pop("a"), got.pop("b")) == ("run", "b")
    assert (want.pop("a"), want.pop("b")) == ("results", "b")
    assert got["queries_in_both"]
    assert got["cutoffs"][0]["mean_a"]["mean"] > 0
    assert got == want


def test_many_runs_read_parquet_with_the_qrels_read_once(tmp_path, monkeypatch):
    # Three Parquet runs (the many-runs report) and Parquet qrels: the qrels
    # read and decoded once, each run once, the numbers the TREC files'.
    b_text = _second_run(tmp_path)
    run_pq, qrels_pq = as_parquet(tmp_path, DATA / "results.test", DATA / "qrels.test")
    b_pq = parquet(tmp_path / "b.parquet", run_table(b_text))
    c_pq = parquet(tmp_path / "c.parquet", run_table(b_text))
    args = ["--format", "json", "--resamples", "50", "--preset", "trec_eval", "--k", "10"]
    text = io.StringIO()
    assert main(["compare", str(DATA / "results.test"), str(b_text), str(b_text),
                 "--qrels", str(DATA / "qrels.test"), *args], text) == 0
    reads, decoded = _counted_reads(monkeypatch)
    out = io.StringIO()
    assert main(["compare", str(run_pq), str(b_pq), str(c_pq), "--qrels", str(qrels_pq),
                 *args], out) == 0
    assert reads == ["run.parquet", "qrels.parquet", "b.parquet", "c.parquet"]
    assert len(decoded) == 4
    got = json.loads(out.getvalue().replace(str(c_pq), str(b_text) + " (2)")
                     .replace(str(b_pq), str(b_text))
                     .replace(str(run_pq), str(DATA / "results.test")))
    want = json.loads(text.getvalue())
    means = got["cutoffs"][0]["means"]
    assert len(set(means.values())) == 2
    assert None not in means.values()
    assert got == want


def test_worksheet_table_equals_its_csv(tmp_path):
    csv = tmp_path / "w.csv"
    csv.write_text("query,source_id,version,score,grade\n"
                   "a,x,v1,2.5,1\na,y,v1,,3\nb,x,,1.5,\nb,z,,0.25,0\n", encoding="utf-8")
    table = pa.table({"query": ["a", "a", "b", "b"], "source_id": ["x", "y", "x", "z"],
                      "version": ["v1", "v1", "", ""], "score": [2.5, None, 1.5, 0.25],
                      "grade": pa.array([1, 3, None, 0], pa.int64())})
    from_csv, from_parquet = load_document(csv), load_document(parquet(tmp_path / "w.pq", table))
    from_parquet.name = from_csv.name
    assert_same(from_parquet, from_csv)
    assert from_parquet.version.tolist() == from_csv.version.tolist()


def test_the_editor_opens_a_parquet_run_with_parquet_qrels(tmp_path):
    from app.opening import load as _load

    run_pq, qrels_pq = as_parquet(tmp_path, DATA / "results.test", DATA / "qrels.test")
    text = document_from_trec(DATA / "results.test", DATA / "qrels.test")
    doc = _load(run_pq, qrels_pq)
    doc.name = text.name
    assert_same(doc, text)


def test_a_text_file_beside_a_table_is_named_by_its_lines(tmp_path, capsys):
    run = write(tmp_path / "r.txt", "a Q0 x 1 2 t\nb Q0 y 1 2 t\na Q0 x 2 1 t\n")
    err = error_line(capsys, "evaluate", str(run), "--qrels", str(good_qrels(tmp_path)))
    assert f"{run}, column 'source_id': query 'a' retrieves source 'x' twice (lines 1 and 3)" \
        in err


def test_worksheet_label_grades_are_read_through_the_rubric(tmp_path):
    from core.model.conventions import Conventions
    from core.model.rubric import Rubric

    table = pa.table({
        "query": ["a", "a", "a", "b", "b"], "source_id": ["x", "y", "z", "x", "w"],
        "score": [3.0, 2.0, 1.0, 1.0, None],
        "grade": pa.array(["Relevant", "not relevant", None, "unrateable: page gone", "2"])
            .dictionary_encode(),  # as pandas' categories arrive
    })
    path = parquet(tmp_path / "w.parquet", table)
    rubric = Rubric.parse("0=not relevant,1=relevant,2=highly relevant")
    doc = load_document(path, conventions=Conventions(rubric=rubric))
    assert doc.grade.tolist()[:2] == [1.0, 0.0]
    assert doc.grade[4] == 2.0
    assert doc.state.tolist() == [0, 0, 1, 2, 0]
    assert doc.reason.tolist() == ["", "", "", "page gone", ""]
    # The same sheet as a CSV with the labels' numbers and words: the same document.
    csv = tmp_path / "w.csv"
    csv.write_text("query,source_id,score,grade,reason\na,x,3,1,\na,y,2,0,\na,z,1,,\n"
                   "b,x,1,unrateable,page gone\nb,w,,2,\n", encoding="utf-8")
    from_csv = load_document(csv, conventions=Conventions(rubric=rubric))
    from_csv.name = doc.name
    assert_same(doc, from_csv)
    assert doc.reason.tolist() == from_csv.reason.tolist()


def test_a_label_outside_the_rubric_gets_one_line(tmp_path, capsys):
    path = parquet(tmp_path / "w.parquet", pa.table({
        "query": ["a", "a"], "source_id": ["x", "y"], "score": [1.0, 2.0],
        "grade": ["relevant", "maybe"]}))
    err = error_line(capsys, "evaluate", str(path), "--rubric", "0=not relevant,1=relevant")
    # One hint, the grade grammar's (it carried two: the grammar's and its own).
    assert err.endswith(
        f"{path}, column 'grade': row 2 holds 'maybe', not a grade (use a number, a rubric "
        "label (0=not relevant,1=relevant), blank/unknown or N/A)\n")
    err = error_line(capsys, "evaluate", str(path))  # no rubric: where the labels go
    assert err.endswith("column 'grade': row 1 holds 'relevant', not a grade (use a number, "
                        "blank/unknown or N/A, or declare the labels with --rubric "
                        "G=LABEL,...)\n")


SHEETS = Path(__file__).parent / "data" / "annotators"


@pytest.mark.parametrize("sheet", ["run_12_judgments.xlsx", "raters.csv"])
def test_a_parquet_run_with_an_annotators_sheet_as_qrels(tmp_path, sheet):
    """As the same run in TREC text with the same sheet: the same document."""
    path = SHEETS / sheet
    if sheet == "raters.csv":  # two raters, labels; B09001X judged, not retrieved
        path = write(tmp_path / sheet, "qid;docno;rater;rating\n7;B07002X;r1;2\n"
                     "7;B07002X;r2;2\n8;B08004X;r1;0\n8;B08004X;r2;0\n7;B07099X;r1;1\n")
    run_pq = parquet(tmp_path / "r.parquet", run_table(SHEETS / "run_12.run"))
    from_text = load_document(SHEETS / "run_12.run", qrels=path)
    from_table = load_document(run_pq, qrels=path)
    from_table.name = from_text.name
    assert_same(from_table, from_text)
    assert int((from_text.state == 0).sum()) > 0  # judgments were joined
    if sheet == "raters.csv":
        graded = {(from_text.query_ids[int(q)], s): g for q, s, g in
                  zip(from_text.query, from_text.source_id, from_text.grade, strict=True)
                  if g == g}
        assert graded == {("7", "B07002X"): 2.0, ("8", "B08004X"): 0.0, ("7", "B07099X"): 1.0}


def test_a_parquet_run_with_a_sheet_of_unknown_labels_is_one_line(tmp_path, capsys):
    run_pq = parquet(tmp_path / "r.parquet", run_table(SHEETS / "run_12.run"))
    err = error_line(capsys, "evaluate", str(run_pq), "--qrels", str(SHEETS / "unknown_labels.csv"))
    assert "labels on no known scale and in no rubric" in err
    assert "ndcg-worksheet import unknown_labels.csv -o judgments.qrels" in err


def _join(run: pa.Table, qrels: pa.Table):
    from core.io.columnar import join_tables, side_from_table

    return join_tables(side_from_table(run, "run", "run table"),
                       side_from_table(qrels, "qrels", "qrels table"), unshared=True)[0]


def test_dictionary_and_chunked_columns_are_read_as_their_text():
    # Ids arrive as dictionaries in any order (pandas' sorted categories,
    # unused, repeated or missing entries nobody's row names), in chunks
    # with dictionaries of their own, as string views or large strings:
    # the document is the plain text columns' (queries in the order rows
    # first name them), and a missing id in a later chunk names its row.
    run = pa.table({"query": ["b", "b", "a", "c", "a"], "source_id": ["x", "y", "x", "z", "w"],
                    "score": [3.0, 2.0, 1.0, 5.0, 4.0]})
    qrels = pa.table({"query": ["c", "a", "b"], "source_id": ["z", "w", "q"],
                      "grade": [1.0, 2.0, 3.0]})
    want = _join(run, qrels)
    assert want.query_ids == ["b", "a", "c"]
    coded = pa.DictionaryArray.from_arrays(  # "a" twice, "" and null unused
        pa.array([4, 4, 0, 2, 1], pa.int32()), pa.array(["a", "a", "c", "", "b", None]))
    chunked_ids = pa.chunked_array([
        pa.DictionaryArray.from_arrays(pa.array([1, 0], pa.int8()), pa.array(["y", "x"])),
        pa.DictionaryArray.from_arrays(pa.array([0, 1, 2], pa.int8()), pa.array(["x", "z", "w"]))])
    large = pa.chunked_array([pa.array(["x", "y"], pa.large_string()),
                              pa.array(["x", "z", "w"], pa.large_string())])
    chunked_queries = pa.chunked_array([
        pa.DictionaryArray.from_arrays(pa.array([0, 0]), pa.array(["b", "zz"])),
        pa.DictionaryArray.from_arrays(pa.array([1, 2, 1]), pa.array(["b", "a", "c"]))])
    views = pa.array(run.column("source_id").to_pylist(), pa.string_view())
    for query, source in ((coded, views), (chunked_queries, chunked_ids), (coded, large)):
        doc = _join(run.set_column(0, "query", query).set_column(1, "source_id", source), qrels)
        assert_same(doc, want)
    holed = pa.chunked_array([pa.array(["x", "y"]), pa.array(["x", "", "w"])])
    with pytest.raises(InputError, match="run table, column 'source_id': row 4 has no id"):
        _join(run.set_column(1, "source_id", holed), qrels)
    with pytest.raises(InputError, match="column 'query': row 2 has no id"):
        _join(run.set_column(0, "query", pa.DictionaryArray.from_arrays(
            pa.array([0, None, 0, 0, 0]), pa.array(["a"]))), qrels)


@pytest.mark.parametrize("preset", [None, "trec_eval"])
def test_the_order_worked_out_beside_the_join_is_the_engines(tmp_path, monkeypatch, preset):
    # The run's ranked order (trec_eval's tie order; the defaults' averaged
    # tie groups) worked out beside the Parquet join, as the TREC join does
    # for a large run (forced here for a small one): the same numbers.
    run_pq, qrels_pq = as_parquet(tmp_path, DATA / "results.test", DATA / "qrels.test")
    flags = ["--preset", preset] if preset else []
    text = evaluate_json(str(DATA / "results.test"), "--qrels", str(DATA / "qrels.test"), *flags)
    monkeypatch.setattr(columnar, "_AHEAD_FROM", 0)
    with mock.patch("core.io.columnar.give_order", wraps=columnar.give_order) as handed:
        got = evaluate_json(str(run_pq), "--qrels", str(qrels_pq), *flags)
    assert handed.called
    assert got == text


def test_a_parquet_run_compared_with_the_open_document_takes_its_grades(tmp_path: Path) -> None:
    """Review > Compare with another run, given a Parquet run: graded with
    the open document's grades as the TREC run of the same rows is (it was
    refused, "name its judgments with --qrels QRELS", a flag the window
    has not); the run's queries the document lacks counted as left out."""
    from core.io.pairs import load_against_counted

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    write(run, RUN)
    write(qrels, QRELS)
    shown = load_document(run, qrels=qrels)
    other = tmp_path / "other.txt"
    write(other, "q1 Q0 d 1 9 t\nq1 Q0 a 2 1 t\nq3 Q0 x 1 2 t\nq7 Q0 y 1 1 t\n")
    as_parquet = tmp_path / "other.parquet"
    pq.write_table(run_table(other), as_parquet)
    want, want_left = load_against_counted(other, shown)
    got, left = load_against_counted(as_parquet, shown)
    assert got.query_ids == want.query_ids == ["q1"]
    assert list(got.source_id) == list(want.source_id)
    np.testing.assert_array_equal(got.score, want.score)
    np.testing.assert_array_equal(got.grade, want.grade)
    np.testing.assert_array_equal(got.state, want.state)
    assert left == want_left
    assert left.unjudged == ("q3", "q7")  # (q3: ranked, never judged, not shown)


@pytest.mark.parametrize("beir", [True, False])
def test_parquet_qrels_opened_alone_are_no_run(tmp_path: Path, beir: bool) -> None:
    """Parquet qrels opened alone (BEIR's and MTEB's query-id, corpus-id,
    score, the score their grade; or ours, a grade) are no run: the editor
    asks no qrels of them (it did of BEIR's, then read them as a run: "no
    column 'query' or 'query_id' (the query of a run)"), and opening or
    comparing with them says they are qrels, as of TREC qrels, in one line."""
    from app.opening import needs_qrels
    from core.io.pairs import load_against_counted

    run, qrels = write(tmp_path / "r.txt", RUN), write(tmp_path / "q.txt", QRELS)
    _, qrels_pq = as_parquet(tmp_path, run, qrels, beir=beir)
    assert not needs_qrels(qrels_pq)
    assert not columnar.is_parquet_run(qrels_pq)
    shown = load_document(run, qrels=qrels)
    for reading in (lambda: load_document(qrels_pq), lambda: load_against_counted(qrels_pq, shown)):
        with pytest.raises(InputError) as caught:
            reading()
        assert str(caught.value).startswith(f"{qrels_pq}: this Parquet table looks like qrels "
                                            "(judgments without a run), not a run or a worksheet"
                                            ), caught.value
        assert caught.value.hint == "give it as a run's judgments: evaluate RUN --qrels QRELS"
