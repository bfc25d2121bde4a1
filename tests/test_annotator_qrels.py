"""An annotators' sheet as the judgments of a run (``evaluate RUN --qrels
SHEET``, ``compare``): the sheet's consensus grades evaluated, a sheet of
unknown labels refused in one line, TREC qrels still read as TREC, a Label
Studio export given as qrels; a sheet alone ranks nothing."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from core.io.annotator import import_annotations
from core.io.load import load_document
from tests.annotator_cases import DATA, EXPECTED, run_cli


def test_evaluate_a_run_with_a_sheet_as_qrels(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]):
    """The sheet (no flags) and TREC qrels of its consensus give the same numbers."""
    run = DATA / "run_12.run"
    expected = EXPECTED["run_12_judgments.xlsx"]
    qrels = tmp_path / "same.qrels"
    qrels.write_text("".join(f"{q} 0 {s} {v!r}\n" for q, s, v, _ in expected["candidates"]),
                     encoding="utf-8")
    code, from_sheet, err = run_cli(["evaluate", str(run), "--qrels",
                                     str(DATA / "run_12_judgments.xlsx"), "--format", "json"],
                                    capsys)
    assert code == 0
    # the columns left out, said (they were in import's --report alone)
    assert err == (f"ndcg-worksheet: note: {DATA / 'run_12_judgments.xlsx'}: left out, not "
                   "imported: Title (8 "
                   "distinct values, no role read from them)\n")
    code, from_qrels, _ = run_cli(["evaluate", str(run), "--qrels", str(qrels),
                                   "--format", "json"], capsys)
    assert code == 0
    a, b = json.loads(from_sheet), json.loads(from_qrels)
    # the sheet names each query's text (its Query column), the qrels none
    assert [q.pop("query_text") for q in a["queries"]] == [
        "noise cancelling headphones", "espresso grinder"]
    assert a["queries"] == b["queries"]
    assert a["summary"] == b["summary"]
    assert a["summary"][0]["included"] == 2
    doc = load_document(run, qrels=DATA / "run_12_judgments.xlsx")
    grades = {(q, s): v for q, s, v, _ in expected["candidates"]}
    for i in range(len(doc)):
        key = (doc.query_ids[int(doc.query[i])], str(doc.source_id[i]))
        assert doc.grade[i] == pytest.approx(grades[key])


def test_a_sheet_with_unknown_labels_as_qrels_is_one_line(capsys: pytest.CaptureFixture[str]):
    code, _out, err = run_cli(["evaluate", str(DATA / "run_12.run"), "--qrels",
                               str(DATA / "unknown_labels.csv")], capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert "labels on no known scale and in no rubric: 'kinda' (3), 'spot on' (3), 'meh' (2)" \
        in err
    assert "ndcg-worksheet import unknown_labels.csv -o judgments.qrels" in err


def test_trec_qrels_are_still_read_as_trec(tmp_path: Path) -> None:
    from core.io.annotator.qrels import is_judgment_sheet

    qrels = tmp_path / "q.txt"
    qrels.write_text("7 0 B07001X 2\n", encoding="utf-8")
    assert not is_judgment_sheet(qrels)
    tabbed = tmp_path / "q.tsv"
    tabbed.write_text("7\t0\tB07001X\t2\n", encoding="utf-8")
    assert not is_judgment_sheet(tabbed)
    assert is_judgment_sheet(DATA / "qid_docno_rater_rating.csv")
    assert is_judgment_sheet(DATA / "excel_unicode_text.txt")
    assert is_judgment_sheet(DATA / "run_12_judgments.xlsx")


def test_a_label_studio_json_export_is_judgments_given_as_qrels(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Label Studio JSON export, indented as it is written (its first
    line "["), given as the qrels of a TREC run and of a JSON run whose
    query ids are questions: its annotations are the judgments, as the
    same export as CSV gives (was: read as TREC qrels, "line 1: expected 4
    fields (query iteration source grade), found 1"); ranx's JSON qrels
    stay qrels."""
    import json

    from core.io.annotator.qrels import is_judgment_sheet

    tasks, run, trec = [], {}, []
    for qi, (query, qid) in enumerate((("how do I reset my password", "q1"),
                                       ("vpn drops every hour", "q2"))):
        for d, grade in enumerate((2, 0, 1)):
            doc, score = f"kb-{qi}{d}#p1", 9.5 - d
            tasks.append({"id": len(tasks) + 1, "data": {"query": qid, "doc_id": doc},
                          "annotations": [{"completed_by": w + 1, "result": [{
                              "from_name": "rel", "to_name": "text", "type": "choices",
                              "value": {"choices": [str(grade)]}}]} for w in range(2)]})
            run.setdefault(query, {})[doc] = score
            trec.append(f"{qid} Q0 {doc} 0 {score} bm25\n")
    export = tmp_path / "project-3-at-2026-12-07.json"
    export.write_text(json.dumps(tasks, indent=2), encoding="utf-8")
    assert is_judgment_sheet(export)
    ranx = tmp_path / "qrels.json"
    ranx.write_text(json.dumps({"q1": {"kb-00#p1": 2}}), encoding="utf-8")
    assert not is_judgment_sheet(ranx)
    (tmp_path / "run.txt").write_text("".join(trec), encoding="utf-8")
    code, text, err = run_cli(["evaluate", str(tmp_path / "run.txt"), "--qrels", str(export),
                               "--format", "csv"], capsys)
    assert code == 0
    assert err == (  # the columns left out, said (they were in import's --report alone)
        f"ndcg-worksheet: note: {export}: 4 columns left out, not imported: id, "
        "annotations.result.from_name, annotations.result.to_name, annotations.result.type "
        f"(`ndcg-worksheet import {export} -o OUT.csv --report REPORT.json` says why "
        "each)\n")  # (no --map score=id: the task's id counts the tasks, no ranking)
    # grades 2, 0, 1 ranked so: DCG 2 + 1/2, ideal 2 + 1/log2(3)
    assert "\nq1,all,2.5,2.6309297535714578,0.9502344167898356,ok,3,3\n" in text
    for task in tasks:  # the questions themselves as the ids, beside a JSON run
        task["data"]["query"] = {"q1": "how do I reset my password",
                                 "q2": "vpn drops every hour"}[task["data"]["query"]]
    export.write_text(json.dumps(tasks, indent=2), encoding="utf-8")
    (tmp_path / "run.json").write_text(json.dumps(run), encoding="utf-8")
    code, text, err = run_cli(["evaluate", str(tmp_path / "run.json"), "--qrels", str(export),
                               "--format", "csv"], capsys)
    assert code == 0
    assert "left out, not imported: id, " in err
    assert ("\nhow do I reset my password,all,2.5,2.6309297535714578,0.9502344167898356,ok,"
            "3,3\n") in text


def test_runs_are_compared_on_an_annotators_sheet(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``compare RUN RUN --qrels SHEET`` (and three runs) joins each run
    with the sheet's judgments as ``evaluate RUN --qrels SHEET`` does: the
    same means (was: the sheet read as TREC qrels, "line 1: expected 4
    fields (query iteration source grade), found 1"); a query the sheet
    does not judge named as the sheet, not a temporary copy."""
    sheet = tmp_path / "judgments.csv"
    sheet.write_text("query,doc,annotator,grade\n" + "".join(
        f"q{q},d{q}{d},{who},{(q + d + w) % 4}\n" for q in range(1, 4) for d in range(4)
        for w, who in enumerate(("ana", "ben"))), encoding="utf-8")
    runs = []
    for name, order in (("a", (0, 1, 2, 3)), ("b", (3, 2, 1, 0)), ("c", (1, 0, 3, 2))):
        path = tmp_path / f"run_{name}.txt"
        path.write_text("".join(f"q{q} Q0 d{q}{d} 0 {10 - r} {name}\n" for q in range(1, 4)
                                for r, d in enumerate(order)), encoding="utf-8")
        runs.append(str(path))
    means = []
    for run in runs:
        code, text, err = run_cli(["evaluate", run, "--qrels", str(sheet), "--format", "json"],
                                  capsys)
        assert (code, err) == (0, "")
        means.append(json.loads(text)["summary"][0]["mean"])
    assert len(set(means)) == 3
    code, text, err = run_cli(["compare", runs[0], runs[1], "--qrels", str(sheet),
                               "--format", "json"], capsys)
    assert (code, err) == (0, "")
    got = json.loads(text)
    assert (got["cutoffs"][0]["mean_a"]["mean"], got["cutoffs"][0]["mean_b"]["mean"]) == (
        means[0], means[1])
    code, text, err = run_cli(["compare", *runs, "--qrels", str(sheet), "--format", "json"],
                              capsys)
    assert (code, err) == (0, "")
    assert list(json.loads(text)["cutoffs"][0]["means"].values()) == means
    other = tmp_path / "other.txt"
    other.write_text("q9 Q0 x 0 1 z\n", encoding="utf-8")
    code, text, err = run_cli(["compare", runs[0], str(other), "--qrels", str(sheet)], capsys)
    assert code == 2
    assert f"no query of the run {other} has judgments in this file" in err
    assert str(sheet) in err
    assert ".qrels" not in err


def test_judgments_without_a_ranking_claim_no_ndcg() -> None:
    """The sheet's row order is no ranking: nothing is ranked, and no query
    has an NDCG under the default conventions (join a run to evaluate)."""
    from core.engine.evaluation import evaluate

    doc = import_annotations(DATA / "judgments_no_score.csv").document
    assert np.isnan(doc.score).all()
    ev = evaluate(doc)
    assert np.isnan(ev.ndcg).all()
    assert {ev.status(q).value for q in range(doc.n_queries)} == {"unranked"}


def test_import_to_qrels_names_what_qrels_cannot_hold(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]):
    """``import SHEET -o OUT.qrels`` of three annotators' grades says, before
    writing, what the qrels lose, as ``export -o OUT.qrels`` does: the
    consensus means that are no whole numbers (trec_eval reads 1.333 as 1),
    the notes, each annotator's grades and the queries' texts (a new user's
    trial: a Label Studio export imported to qrels in silence)."""
    sheet = tmp_path / "round4.csv"
    sheet.write_text("Query ID,Query,Document,Ana,Ben,Chen,Notes\n"
                     "q1,renew a passport,d1,1,2,1,official page\n"
                     "q1,renew a passport,d2,0,0,0,\n"
                     "q1,renew a passport,d3,3,2,3,\n"
                     "q2,vitamin d,d4,2,2,2,\n"
                     "q2,vitamin d,d5,0,1,0,\n"
                     "q2,vitamin d,d6,1,1,1,\n", encoding="utf-8")
    out = tmp_path / "round4.qrels"
    code, _said, err = run_cli(["import", str(sheet), "-o", str(out)], capsys)
    assert code == 0, err
    warned = [line for line in err.splitlines() if "not kept in the qrels written" in line]
    assert any("3 grades that are not whole numbers (written with their decimals; trec_eval "
               "reads whole numbers)" in line for line in warned), err
    assert any(line.endswith(": 1 note") for line in warned), err
    assert any("the individual grades of 3 annotators" in line for line in warned), err
    assert any("the texts of 2 queries" in line for line in warned), err
    assert out.read_text("utf-8").splitlines()[0] == "q1 0 d1 1.3333333333333333"
    # a write refused (an id a qrels line cannot hold) says only why
    sheet.write_text(sheet.read_text("utf-8").replace(",d1,", ",d 1,"), encoding="utf-8")
    code, _said, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "no.qrels")],
                               capsys)
    assert code == 2
    assert "not kept" not in err, err
    assert err.count("ndcg-worksheet: error:") == 1, err
    assert not (tmp_path / "no.qrels").exists()
