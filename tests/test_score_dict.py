"""ranx's and pytrec_eval's JSON runs and qrels (``{query: {source:
number}}``) read by ``evaluate`` and the editor's reader: the numbers of
pytrec_eval and ranx on the same dicts (differential, generated cases), the
same report as the TREC files holding them, and one-line refusals naming
the file and the key path (duplicate keys, NaN, Infinity, a value that is
not a number, an empty id, not JSON). An id with white space is read (a
JSON string is any text) beside TREC text, JSON, Parquet tables and
annotators' sheets, and refused only where TREC text is written."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings

from app.cli.main import main
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.load import load_document
from core.model.conventions import Conventions
from core.model.presets import preset
from tests.test_peers import (
    Case,
    assert_close,
    compare_trec,
    cutoff_sets,
    mean_at,
    per_query,
    pytrec,
    ranx_cases,
    ranx_scores,
    trec_cases,
)
from tests.trec_cases import assert_same

DATA = Path(__file__).parent / "data" / "tools"


def _write(folder: Path, run: dict, qrels: dict) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    run_path, qrels_path = folder / "run.json", folder / "qrels.json"
    run_path.write_text(json.dumps(run))
    qrels_path.write_text(json.dumps(qrels))
    return run_path, qrels_path


@settings(max_examples=12, deadline=None)
@given(case=trec_cases, ks=cutoff_sets)
def test_json_dicts_give_pytrec_evals_numbers(tmp_path_factory, case: Case, ks: list[int]):
    run, qrels = _write(tmp_path_factory.mktemp("json"), case.run(), case.qrels())
    ev = evaluate(load_document(run, qrels=qrels), preset("trec_eval", cutoffs=(None, *ks)))
    compare_trec(ev, pytrec(case.run(), case.qrels(), ks), ks)


@settings(max_examples=12, deadline=None)
@given(case=ranx_cases, ks=cutoff_sets)
def test_json_dicts_give_ranxs_numbers(tmp_path_factory, case: Case, ks: list[int]):
    run, qrels = _write(tmp_path_factory.mktemp("json"), case.run(), case.qrels())
    names = ["ndcg"] + [f"ndcg@{k}" for k in ks]
    theirs = ranx_scores(case, names)
    ev = evaluate(load_document(run, qrels=qrels), preset("ranx", cutoffs=(None, *ks)))
    for j, name in enumerate(names):
        ours = per_query(ev, j)
        assert sorted(ours) == sorted(theirs[name])
        for qid, value in theirs[name].items():
            assert_close(ours[qid], value, f"{name} of {qid}")
        assert_close(mean_at(ev, j), sum(theirs[name].values()) / len(theirs[name]), name)


def cli(*args: str | Path) -> tuple[int, str]:
    out = io.StringIO()
    return main([str(a) for a in args], out=out), out.getvalue()


def test_json_and_the_trec_files_they_hold_give_one_report(tmp_path):
    # ranx's own files beside the TREC files with the same rows (one judged
    # source: the trial's run under the qrels' first judgment), and a mix.
    trec_run, trec_qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    trec_run.write_text("1048585 Q0 msmarco_passage_00_8432941 1 14.8291 r\n"
                        "1048585 Q0 msmarco_passage_17_1044223907 2 12.3456 r\n"
                        "2 Q0 msmarco_passage_05_77 1 -3.25 r\n")
    trec_qrels.write_text("1048585 0 msmarco_passage_17_1044223907 2\n")
    run, qrels = DATA / "ranx_run.json", DATA / "ranx_qrels.json"
    for preset_name in ("trec_eval", "ranx", "sklearn"):
        flags = ("--preset", preset_name, "--k", "1", "--k", "all", "--format", "json")
        want = cli("evaluate", trec_run, "--qrels", trec_qrels, *flags)
        assert want[0] == 0
        assert cli("evaluate", run, "--qrels", qrels, *flags) == want
        assert cli("evaluate", run, "--qrels", trec_qrels, *flags) == want
        assert cli("evaluate", trec_run, "--qrels", qrels, *flags) == want
    doc = load_document(run, qrels=qrels)
    assert doc.name == "ranx_run"  # (not the name of the TREC copy read)
    # 1048585: d17 (grade 2) at rank 2 below an unjudged source, against the
    # judged ideal [2]: (2 / log2 3) / 2; query 2 is judged by none: left out.
    assert doc.query_ids == ["1048585"]
    assert evaluate(doc, preset("trec_eval")).ndcg[0, 0] == pytest.approx(
        1 / math.log2(3), abs=1e-12)


def _refusal(tmp_path: Path, text: str, *, role: str = "qrels") -> str:
    bad = tmp_path / f"bad_{role}.json"
    bad.write_text(text)
    run, qrels = (bad, DATA / "ranx_qrels.json") if role == "run" else (DATA / "ranx_run.json",
                                                                         bad)
    with pytest.raises(InputError) as info:
        load_document(run, qrels=qrels)
    message = str(info.value)
    assert "\n" not in message
    return message.removeprefix(str(bad)).removeprefix(": ").removeprefix(", ")


@pytest.mark.parametrize(("text", "role", "said"), [
    ('{"q1": {"d1": 1}, "q1": {"d2": 2}}', "qrels",
     '["q1"] is given twice (keep each key once)'),
    ('{"q1": {"d1": 1, "d2": 0, "d1": 2}}', "qrels",
     '["q1"]["d1"] is given twice (keep each key once)'),
    ('{"q1": {"d1": NaN}}', "run", '["q1"]["d1"] holds NaN, not a finite number '
     "(a score is a finite number)"),
    ('{"q1": {"d1": -Infinity}}', "qrels", '["q1"]["d1"] holds -Infinity, not a finite '
     "number (a grade is a finite number)"),
    ('{"q1": {"d1": 1e999}}', "qrels", '["q1"]["d1"] holds 1e999, beyond the largest '
     "number, about 1.8e308 (a grade is a finite number)"),
    ('{"q1": {"d1": 3.5e400}}', "run", '["q1"]["d1"] holds 3.5e400, beyond the largest '
     "number, about 1.8e308 (a score is a finite number)"),
    ('{"q1": {"d1": 1' + "0" * 400 + '}}', "run", '["q1"]["d1"] holds 1' + "0" * 400
     + ", beyond the largest number, about 1.8e308 (a score is a finite number)"),
    ('{"q0": {"d1": 2.5}, "q1": {"d0": 1, "d1": -4e401}}', "run", '["q1"]["d1"] holds '
     "-4e401, beyond the largest number, about 1.8e308 (a score is a finite number)"),
    ('{"q1": {"d1": 9' + "0" * 4400 + '}}', "qrels", '["q1"]["d1"] holds 9' + "0" * 4400
     + ", beyond the largest number, about 1.8e308 (a grade is a finite number)"),
    ('{"q1": {"d1": "2"}}', "qrels", '["q1"]["d1"] holds text, not a number '
     "(a grade is a finite number)"),
    ('{"q1": {"d1": true}}', "run", '["q1"]["d1"] holds true or false, not a number '
     "(a score is a finite number)"),
    ('{"q1": {"": 2}}', "qrels", '["q1"][""] is an empty id (give each a name)'),
    ('{"q1": {"d\\u0000": 2}}', "qrels", '["q1"]["d\\u0000"] holds a NUL character, which '
     "no id may hold (remove it from the id: TREC text, CSV and workbooks cannot hold one "
     "either)"),
    ('{"q\\u0000": {"d1 x": 2}}', "run", '["q\\u0000"] holds a NUL character, which no id may '
     "hold (remove it from the id: TREC text, CSV and workbooks cannot hold one either)"),
    ('{"q1": {"d1": 2}', "qrels", "line 1: not readable JSON (Expecting ',' delimiter) "
     "(write it again with json.dump)"),
])
def test_a_bad_json_run_or_qrels_is_refused_naming_the_key_path(tmp_path, text, role, said):
    assert _refusal(tmp_path, text, role=role) == said


def test_numbers_are_read_by_jsons_own_reader_unless_one_is_beyond_a_float(
        tmp_path, monkeypatch):
    """A run's numbers are read by JSON's own reader, a number beyond a float
    read again as written only on the way to refusing it: the reader keeping
    such a number's text is a Python call a number, twice the whole read's
    time (500,000 scores: 0.29 -> 0.48 s of CPU), and every file was read so."""
    from core.io import score_dict

    made = []
    real = score_dict._finite_or_beyond
    monkeypatch.setattr(score_dict, "_finite_or_beyond",
                        lambda read: made.append(read) or real(read))
    assert _refusal(tmp_path, '{"q1": {"d1": 1e999}}', role="run").startswith(
        '["q1"]["d1"] holds 1e999, beyond')
    assert made == [float, int]
    made.clear()
    path = tmp_path / "fine.json"
    path.write_text('{"q1": {"d1": 2.5, "d2": 1e300, "d3": -7}}', encoding="utf-8")
    assert score_dict._rows(path, "run") == [("q1", "d1", 2.5), ("q1", "d2", 1e300),
                                             ("q1", "d3", -7.0)]
    assert made == []


def test_a_json_run_alone_asks_for_its_qrels():
    with pytest.raises(InputError) as info:
        load_document(DATA / "ranx_run.json")
    assert str(info.value) == (
        f"{DATA / 'ranx_run.json'}: this is JSON of {{query: {{source: number}}}} (ranx's or "
        "pytrec_eval's run or qrels) (name the run with its qrels: evaluate RUN.json --qrels "
        "QRELS.json)")


def test_a_negative_grade_under_sklearn_names_its_key_path(tmp_path, capsys):
    _, qrels = _write(tmp_path, {}, {"q1": {"d1": 1, "d2": -1}})
    code, out = cli("evaluate", DATA / "ranx_run.json", "--qrels", qrels, "--preset", "sklearn")
    assert (code, out) == (2, "")
    assert capsys.readouterr().err.startswith(
        f'ndcg-worksheet: error: {qrels}: at ["q1"]["d2"]: 1 negative grade under the sklearn '
        "preset (grade -1 of source 'd2' (query 'q1'))")


def test_compare_reads_json_as_the_trec_files_they_hold(tmp_path):
    # Two runs (the detailed report) and three (the report of many), each
    # file given as JSON or as TREC text: the same report, named the same.
    case = {"q1": {"d1": 3.0, "d2": 2.5, "d3": 1.0}, "q2": {"d1": 0.5, "d4": 0.25}}
    other = {"q1": {"d3": 3.0, "d2": 2.5, "d1": 1.0}, "q2": {"d4": 0.5, "d1": 0.25}}
    judged = {"q1": {"d1": 2, "d3": 1}, "q2": {"d4": 1, "d9": 3}}
    json_dir, trec_dir = tmp_path / "json", tmp_path / "trec"
    files = {}
    for folder in (json_dir, trec_dir):
        folder.mkdir()
        for name, data, role in (("a", case, "run"), ("b", other, "run"), ("qrels", judged,
                                                                           "qrels")):
            if folder is json_dir:
                (folder / f"{name}.json").write_text(json.dumps(data))
                files[folder, name] = folder / f"{name}.json"
            else:
                lines = [f"{q} Q0 {s} 1 {v!r} t\n" if role == "run" else f"{q} 0 {s} {v}\n"
                         for q, rows in data.items() for s, v in rows.items()]
                (folder / f"{name}.txt").write_text("".join(lines))
                files[folder, name] = folder / f"{name}.txt"
    flags = ("--preset", "trec_eval", "--format", "json", "--resamples", "50")
    for runs in (("a", "b"), ("a", "b", "a")):
        want = cli("compare", *(files[trec_dir, r] for r in runs), "--qrels",
                   files[trec_dir, "qrels"], *flags)
        got = cli("compare", *(files[json_dir, r] for r in runs), "--qrels",
                  files[json_dir, "qrels"], *flags)
        assert want[0] == 0
        assert got == (want[0], want[1].replace(str(trec_dir / "a.txt"), str(json_dir / "a.json"))
                       .replace(str(trec_dir / "b.txt"), str(json_dir / "b.json")))
        assert '"a"' in want[1]


def test_a_message_about_a_json_input_names_it_never_its_copy(tmp_path, capsys):
    run, qrels = _write(tmp_path, {"q1": {"d1": 1.0}}, {"q9": {"d1": 1}})
    code, _ = cli("compare", run, run, "--qrels", qrels)
    assert code == 2
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: error: {qrels}: no query of the run {run} has judgments in this file "
        "(check that run and qrels use the same query ids)\n")


def _spaced(data: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """The same dicts, every id given a space inside (``"d1"`` -> ``"d 1"``,
    order kept: the prefix is common)."""
    return {f"q {q}": {f"d {s}": v for s, v in rows.items()} for q, rows in data.items()}


@settings(max_examples=8, deadline=None)
@given(case=trec_cases, ks=cutoff_sets)
def test_ids_with_white_space_give_pytrec_evals_numbers(tmp_path_factory, case: Case,
                                                        ks: list[int]):
    # A JSON string is any text: "q 1" is a query id (it was refused as a TREC id).
    run, qrels = _spaced(case.run()), _spaced(case.qrels())
    folder = tmp_path_factory.mktemp("spaced")
    conventions = preset("trec_eval", cutoffs=(None, *ks))
    run_path, qrels_path = _write(folder, run, qrels)
    ev = evaluate(load_document(run_path, qrels=qrels_path), conventions)
    compare_trec(ev, pytrec(run, qrels, ks), ks)
    assert all(q.startswith("q ") for q in ev.doc.query_ids)
    # The same numbers as the ids without their spaces (read through TREC text).
    run_path, qrels_path = _write(folder / "plain", case.run(), case.qrels())
    plain = evaluate(load_document(run_path, qrels=qrels_path), conventions)
    assert [f"q {q}" for q in plain.doc.query_ids] == ev.doc.query_ids
    assert ev.ndcg.tobytes() == plain.ndcg.tobytes()


def test_ids_with_white_space_beside_trec_text_and_parquet(tmp_path):
    # A JSON run whose query "what is x" and source "doc one" hold spaces,
    # beside TREC qrels (which hold no such id: q2 matches) and JSON qrels
    # (which do); beside Parquet qrels the id would go through TREC text:
    # refused naming its key path.
    import pyarrow as pa
    import pyarrow.parquet as pq

    from core.io.trec import write_qrels

    run, judged = _write(tmp_path, {"what is x": {"doc one": 3.0, "d2": 2.0}, "q2": {"e1": 1.0}},
                         {"what is x": {"doc one": 2, "d9": 1}, "q2": {"e1": 1}})
    doc = load_document(run, qrels=judged)
    assert doc.query_ids == ["what is x", "q2"]
    assert list(doc.source_id) == ["doc one", "d2", "e1", "d9"]
    assert [None if math.isnan(g) else g for g in doc.grade.tolist()] == [2.0, None, 1.0, 1.0]
    text = tmp_path / "qrels.txt"
    text.write_text("q2 0 e1 1\nq3 0 x 1\n")
    mixed = load_document(run, qrels=text)
    assert (mixed.query_ids, list(mixed.source_id), mixed.grade.tolist()) == (
        ["q2", "q3"], ["e1", "x"], [1.0, 1.0])
    assert mixed.unjudged_queries == ("what is x",)
    with pytest.raises(InputError, match="query id 'what is x' holds white space"):
        write_qrels(doc, tmp_path / "out.qrels")  # TREC text out: refused naming the id
    assert not (tmp_path / "out.qrels").exists()
    # Beside Parquet qrels (which may hold such ids too), and a Parquet run
    # beside the JSON qrels: the same document as the JSON files' (it was
    # refused: "TREC text cannot hold" the id).
    table = tmp_path / "qrels.parquet"
    pq.write_table(pa.table({"query": ["what is x", "what is x", "q2"],
                             "source_id": ["doc one", "d9", "e1"], "grade": [2, 1, 1]}), table)
    assert_same(load_document(run, qrels=table), doc)
    ranked = tmp_path / "run.parquet"
    pq.write_table(pa.table({"query": ["what is x", "what is x", "q2"],
                             "source_id": ["doc one", "d2", "e1"], "score": [3.0, 2.0, 1.0]}),
                   ranked)
    assert_same(load_document(ranked, qrels=judged), doc)


def test_ids_with_white_space_beside_an_annotators_sheet(tmp_path):
    # A JSON run whose ids hold spaces, with an annotators' sheet judging
    # them (its ids as they are): the document of the same judgments as
    # JSON qrels (the sheet was refused as "a run's ids cannot" hold them).
    run, judged = _write(tmp_path, {"what is x": {"doc one": 3.0, "d2": 2.0}, "q2": {"e1": 1.0}},
                         {"what is x": {"doc one": 2, "d9": 1}, "q2": {"e1": 1}})
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("query,source_id,grade\nwhat is x,doc one,2\nwhat is x,d9,1\nq2,e1,1\n")
    want = load_document(run, qrels=judged, conventions=Conventions())
    got = load_document(run, qrels=sheet, conventions=Conventions())
    assert got.query_ids == ["what is x", "q2"]
    assert list(got.source_id) == ["doc one", "d2", "e1", "d9"]
    assert got.grade.tobytes() == want.grade.tobytes()
    assert got.score.tobytes() == want.score.tobytes()
    # A Parquet run holding the same ids beside the sheet: joined as they are
    # (it was refused: "the query 'what is x' holds spaces: a run's ids cannot").
    import pyarrow as pa
    import pyarrow.parquet as pq

    ranked = tmp_path / "run.parquet"
    pq.write_table(pa.table({"query": ["what is x", "what is x", "q2"],
                             "source_id": ["doc one", "d2", "e1"], "score": [3.0, 2.0, 1.0]}),
                   ranked)
    assert_same(load_document(ranked, qrels=sheet, conventions=Conventions()), want)


def test_compare_reads_ids_with_white_space(tmp_path):
    # Two runs and three, JSON with ids holding spaces: the same reports as
    # the same dicts with "_" for each space (read through TREC text), the
    # ids given back their spaces.
    a = {"what is x": {"doc one": 3.0, "d2": 2.5, "d3": 1.0}, "q2": {"e 1": 0.5, "e2": 0.25}}
    b = {"what is x": {"d3": 3.0, "d2": 2.5, "doc one": 1.0}, "q2": {"e2": 0.5, "e 1": 0.25}}
    judged = {"what is x": {"doc one": 2, "d3": 1, "d 9": 1}, "q2": {"e2": 1}}
    files = {}
    for folder, space in ((tmp_path / "spaced", " "), (tmp_path / "plain", "_")):
        folder.mkdir()
        for name, data in (("a", a), ("b", b), ("qrels", judged)):
            renamed = {q.replace(" ", space): {s.replace(" ", space): v for s, v in rows.items()}
                       for q, rows in data.items()}
            (folder / f"{name}.json").write_text(json.dumps(renamed))
            files[space, name] = folder / f"{name}.json"
    flags = ("--preset", "trec_eval", "--format", "json", "--resamples", "50")
    for runs in (("a", "b"), ("a", "b", "a")):
        want = cli("compare", *(files["_", r] for r in runs), "--qrels", files["_", "qrels"],
                   *flags)
        got = cli("compare", *(files[" ", r] for r in runs), "--qrels", files[" ", "qrels"],
                  *flags)
        assert want[0] == 0
        assert ('"what is x"' in got[1]) == (len(runs) == 2)  # (the many runs' report: means)
        text = want[1].replace(str(tmp_path / "plain"), str(tmp_path / "spaced"))
        for plain in ("what_is_x", "doc_one", "e_1", "d_9"):
            text = text.replace(plain, plain.replace("_", " "))
        assert got == (0, text)
    # The qrels as a Parquet table (refused before: the runs' ids went
    # through TREC text): the same report.
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = tmp_path / "spaced" / "qrels.parquet"
    rows = [(q, d, g) for q, graded in judged.items() for d, g in graded.items()]
    pq.write_table(pa.table({"query": [r[0] for r in rows], "source_id": [r[1] for r in rows],
                             "grade": [r[2] for r in rows]}), table)
    for runs in (("a", "b"), ("a", "b", "a")):
        want = cli("compare", *(files[" ", r] for r in runs), "--qrels", files[" ", "qrels"],
                   *flags)
        got = cli("compare", *(files[" ", r] for r in runs), "--qrels", table, *flags)
        assert got == (0, want[1].replace(str(files[" ", "qrels"]), str(table)))


def test_a_json_run_is_compared_with_the_open_document(tmp_path):
    # The editor's comparison with the open document (and the runs view):
    # a JSON run is graded with the document's grades as the TREC run of the
    # same rows is (it was refused: "name the run with its qrels"); its ids
    # may hold spaces.
    from core.io.pairs import load_against_counted

    run_path, qrels_path = _write(tmp_path / "shown", {"what is x": {"doc one": 3.0, "d2": 2.5},
                                                      "q2": {"e1": 0.5}},
                                  {"what is x": {"doc one": 2}, "q2": {"e1": 1, "e2": 3}})
    shown = load_document(run_path, qrels=qrels_path)
    run = tmp_path / "b.json"
    run.write_text(json.dumps({"what is x": {"d2": 3.0, "doc one": 1.0}, "q9": {"z": 1.0}}))
    doc, left = load_against_counted(run, shown)
    assert doc.query_ids == ["what is x"]  # (q9: not in the open document)
    assert list(doc.source_id) == ["d2", "doc one"]
    assert doc.score.tolist() == [3.0, 1.0]
    assert [None if math.isnan(g) else g for g in doc.grade.tolist()] == [None, 2.0]
    assert left.unjudged == ("q9",)


def test_a_json_run_has_no_tag_of_its_own(tmp_path, capsys):
    """ranx's JSON run holds no tag: the window's title read
    'e5-dense.json (json)' and a .run export tagged each line 'json', the
    tag of the TREC copy it is read through; now the title is the file's
    and the export's tag 'ndcg-worksheet', as for any run without one."""
    import io

    from app.cli.main import main

    run = tmp_path / "e5-dense.json"
    run.write_text('{"q1": {"d1": 0.9, "d2": 0.5}}', encoding="utf-8")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\n", encoding="utf-8")
    doc = load_document(run, qrels=qrels)
    assert doc.run_tag == ""
    assert doc.run_title("e5-dense.json") == "e5-dense.json"
    out = tmp_path / "e5.run"
    assert main(["export", str(run), "--qrels", str(qrels), "-o", str(out)], io.StringIO()) == 0
    capsys.readouterr()
    assert out.read_text().splitlines() == ["q1 Q0 d1 1 0.9 ndcg-worksheet",
                                            "q1 Q0 d2 2 0.5 ndcg-worksheet"]
