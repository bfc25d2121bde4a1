"""A JSON export's judgments named where the user finds them: a JSON Lines
file's line (1-based, as an editor shows it), a JSON array's record (its
position and its ``id``), never the row of the table the import builds
from the records (a header added the file lacks, and a record of several
ratings several rows: line 16 was said 'line 17', line 2 'row 3')."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from app.cli.main import main
from core.errors import InputError
from core.io.annotator import import_annotations
from core.model.conventions import Conventions, Rubric

#: One annotator's judgments: d1 graded again on the fourth record (a
#: different grade), an unknown label on the fifth.
_JUDGMENTS = [("d1", 2), ("d2", 1), ("d1", 0), ("d3", "x")]


def _jsonl(path: Path) -> Path:
    """A JSON Lines file, a blank line between the second and third records:
    the records on lines 1, 2, 4 and 5."""
    lines = [json.dumps({"query": "vpn drops", "doc": d, "annotator": "ann", "label": g})
             for d, g in _JUDGMENTS]
    path.write_text("\n".join([*lines[:2], "", *lines[2:]]) + "\n", encoding="utf-8")
    return path


def _array(path: Path) -> Path:
    """A JSON array (pretty-printed: its lines are no records'), the first
    three records with their ``id``, the fourth without."""
    records = [{"id": 100 + k, "query": "vpn drops", "doc": d, "annotator": "ann", "label": g}
               for k, (d, g) in enumerate(_JUDGMENTS, start=1)]
    del records[3]["id"]
    path.write_text(json.dumps(records, indent=2), encoding="utf-8")
    return path


def _run(*args: str) -> tuple[int, str, str]:
    said, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(list(args), said)
    return code, said.getvalue(), err.getvalue()


def test_a_json_lines_files_findings_name_its_lines(tmp_path: Path) -> None:
    """The repeat on line 4 (first on line 1) and the label on line 5, in
    the report, the refusal, the strict import and the report's JSON."""
    path = _jsonl(tmp_path / "judged.jsonl")
    report = import_annotations(path, empty_ok=True).report
    assert [(i.row, i.column, i.problem) for i in report.issues] == [
        (4, "label", "ann graded 'd1' for 'vpn drops' again (first on line 1); a different "
         "grade, the first is kept"),
        (5, "label", "label 'x' is not in the rubric (none declared) nor on a known scale; "
         "not imported")]
    assert [report.place(i.row) for i in report.issues] == ["line 4", "line 5"]
    code, _said, err = _run("import", str(path), "-o", str(tmp_path / "o.csv"))
    assert (code, err) == (2, f"ndcg-worksheet: error: {path}, line 5, column 'label': labels "
                           "on no known scale and not in the rubric: 'x' (1 cell) (give every "
                           "label its grade with --rubric, e.g. --rubric \"N=x\"; or, for a "
                           "label that says the item could not be judged (a paywall, a "
                           "broken page), pass --unrateable \"LABEL\")\n")
    code, _said, err = _run("import", str(path), "-o", str(tmp_path / "o.csv"),
                            "--rubric", "0=x,1=a,2=b")
    assert code == 2
    assert err.startswith(f"ndcg-worksheet: error: {path}, line 4, column 'label': 1 of the 4 "
                          "judgments read was rejected"), err
    with pytest.raises(InputError) as got:
        import_annotations(path, strict=True)
    assert (got.value.line, got.value.place) == (4, None)
    assert "(first on line 1)" in str(got.value)


def test_a_json_arrays_findings_name_its_records_and_their_ids(tmp_path: Path) -> None:
    """A JSON array has no lines to name: its third record (id 103) repeats
    its first's (id 101), its fourth (no id) holds the label; the refusal
    names the record, never a line or a row."""
    path = _array(tmp_path / "judged.json")
    report = import_annotations(path, empty_ok=True).report
    assert [(i.row, i.problem.split(";")[0]) for i in report.issues] == [
        (3, "ann graded 'd1' for 'vpn drops' again (first on record 1 (id 101))"),
        (4, "label 'x' is not in the rubric (none declared) nor on a known scale")]
    assert [report.place(i.row) for i in report.issues] == ["record 3 (id 103)", "record 4"]
    code, _said, err = _run("import", str(path), "-o", str(tmp_path / "o.csv"))
    assert code == 2
    assert err.startswith(f"ndcg-worksheet: error: {path}, record 4, column 'label': labels "
                          "on no known scale"), err
    code, _said, err = _run("import", str(path), "-o", str(tmp_path / "o.csv"),
                            "--rubric", "0=x,1=a,2=b")
    assert code == 2
    assert err.startswith(f"ndcg-worksheet: error: {path}, record 3 (id 103), column 'label': "
                          "1 of the 4 judgments read was rejected"), err
    with pytest.raises(InputError) as got:
        import_annotations(path, strict=True)
    assert (got.value.line, got.value.place) == (None, "record 3 (id 103)")
    code, said, err = _run("import", str(path), "-o", str(tmp_path / "o.csv"),
                           "--rubric", "0=x,1=a,2=b", "--allow-rejected", "--report",
                           str(tmp_path / "r.json"))
    assert code == 0, err
    assert "1 judgment rejected, the first on record 3 (id 103), column 'label': " in said, said
    data = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert data["rows_are"] == "records"
    assert [(r["row"], r["column"]) for r in data["rejected"]] == [(3, "label")]


def test_a_record_that_cannot_be_read_is_named_by_its_place(tmp_path: Path) -> None:
    """A record that is no object, or whose lists do not pair: a JSON
    array's by its position and id, a JSON Lines file's by its line."""
    array = tmp_path / "tasks.json"
    array.write_text(json.dumps([{"id": 7, "query": "q", "doc": "d", "label": 1}, [1, 2],
                                 {"id": 9, "query": "q", "doc": "d2", "label": [1, 2],
                                  "user": ["u1"]}]), encoding="utf-8")
    with pytest.raises(InputError) as got:
        import_annotations(array)
    assert str(got.value).startswith(f"{array}, record 2: the record is list, not an object")
    array.write_text(json.dumps([{"id": 7, "query": "q", "doc": "d", "label": 1},
                                 {"id": 9, "query": "q", "doc": "d2", "label": [1, 2],
                                  "user": ["u1"]}]), encoding="utf-8")
    with pytest.raises(InputError) as got:
        import_annotations(array)
    assert str(got.value).startswith(
        f"{array}, record 2 (id 9): lists of different lengths side by side: label (2), user (1)")
    lines = tmp_path / "tasks.jsonl"
    lines.write_text('{"query": "q", "doc": "d", "label": 1}\n\n[1, 2]\n', encoding="utf-8")
    with pytest.raises(InputError) as got:
        import_annotations(lines)
    assert str(got.value).startswith(f"{lines}, line 3: the record is list, not an object")


def test_a_field_missing_is_said_of_the_records_fields(tmp_path: Path) -> None:
    """A JSON export has no header row: a field not found is looked for
    among the records' fields, with no --header-row to pass (it said 'in
    the header on row 1 ... --header-row N if the header is another row')."""
    path = tmp_path / "judged.jsonl"
    path.write_text('{"q": "a", "doc": "d1", "x": 1}\n{"q": "a", "doc": "d2", "x": 2}\n',
                    encoding="utf-8")
    code, _said, err = _run("import", str(path), "-o", str(tmp_path / "o.csv"))
    assert (code, err) == (2, f"ndcg-worksheet: error: {path}: no query column found among the "
                           "records' fields (A (q), B (doc), C (x)) (pass --map query=COLUMN, or "
                           "name the column query/qid/query_id/topic)\n")


def test_a_json_export_as_qrels_is_refused_naming_its_record(tmp_path: Path) -> None:
    """Read as qrels (``compare ... --qrels``), a JSON array's repeat is
    refused naming its record and id, not 'line 3' (it has no lines)."""
    from core.io.annotator.qrels import sheet_judgments

    path = _array(tmp_path / "judged.json")
    with pytest.raises(InputError) as got:
        sheet_judgments(path, Conventions(rubric=Rubric.parse("0=x,1=a,2=b")))
    assert (got.value.line, got.value.place, got.value.column) == (
        None, "record 3 (id 103)", "label")
    assert str(got.value).startswith(f"{path}, record 3 (id 103), column 'label': ann graded "
                                     "'d1' for 'vpn drops' again (first on record 1 (id 101))")


def test_a_value_reading_like_a_row_is_quoted_as_it_is(tmp_path: Path) -> None:
    """A query whose text reads ``row 2`` (or ``rows 1, 2``) is quoted as
    the file holds it: the place of each finding is said where the finding
    is made (the table saying its row's line or record), never by rewriting
    every ``row N`` of the finished texts (which made the query 'line 1')."""
    lines = [json.dumps({"query": "row 2", "doc": d, "annotator": "ann", "label": g})
             for d, g in [("d1", 2), ("d2", 1), ("d1", 0)]]
    path = tmp_path / "judged.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = import_annotations(path, empty_ok=True).report
    assert [(i.row, i.problem) for i in report.issues] == [
        (3, "ann graded 'd1' for 'row 2' again (first on line 1); a different grade, the "
         "first is kept")]
    records = [{"id": 7 + k, "query": "rows 1, 2", "doc": d, "score": s, "label": 1}
               for k, (d, s) in enumerate([("d1", 0.5), ("d2", 0.4), ("d1", 0.9)])]
    array = tmp_path / "ranked.json"
    array.write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(InputError) as got:
        import_annotations(array)
    assert str(got.value).startswith(
        f"{array}, record 3 (id 9), column 'score': the score column 'score' gives query "
        "'rows 1, 2', source 'd1' the score 0.5 on record 1 (id 7) and 0.9 on record 3 (id 9): "
        "a ranking scores each item once"), str(got.value)


def test_a_json_reports_rows_count_its_records_or_lines(tmp_path: Path) -> None:
    """The JSON report's ``rows`` count what the user counts: a JSON array's
    records, a JSON Lines file's lines, a sheet's rows (they counted the
    rows of the table built from the records, a record of three ratings
    three rows: 6 'rows' read of a file of 3 records); ``table_rows`` that
    table's, a rating a row; the wizard's tally line says records."""
    from app.import_wizard.report import rows_line

    records = [{"id": 11 + k, "query": "q", "doc": f"d{k + 1}", "ratings": [
        {"user": u, "label": g} for u, g in zip(("ana", "bo", "cy"), grades, strict=False)]}
        for k, grades in enumerate([(2, 1), (0,), (1, 1, 2)])]
    array, lines, sheet = tmp_path / "a.json", tmp_path / "a.jsonl", tmp_path / "a.csv"
    array.write_text(json.dumps(records, indent=1), encoding="utf-8")
    lines.write_text("\n".join(json.dumps(r) for r in records[:2]) + "\n\n"
                     + json.dumps(records[2]) + "\n", encoding="utf-8")
    sheet.write_text("query,doc,user,label\n" + "".join(
        f"q,{r['doc']},{a['user']},{a['label']}\n" for r in records for a in r["ratings"]),
        encoding="utf-8")
    tallies = {}
    for path in (array, lines, sheet):
        code, _said, err = _run("import", str(path), "-o", str(tmp_path / "o.csv"),
                                "--report", str(tmp_path / "r.json"))
        assert code == 0, err
        data = json.loads((tmp_path / "r.json").read_text("utf-8"))
        tallies[path.suffix] = (data["rows_are"], data["rows"]["read"],
                                data["rows"]["imported"], data["table_rows"]["read"],
                                data["table_rows"]["imported"], data["judgments_read"])
    assert tallies == {".json": ("records", 3, 3, 6, 6, 6), ".jsonl": ("lines", 3, 3, 6, 6, 6),
                       ".csv": ("rows", 6, 6, 6, 6, 6)}
    report = import_annotations(array).report
    assert rows_line(report) == ("Records: 3 read = 3 imported + 0 skipped + 0 rejected + "
                                 "0 blank")


def test_the_headline_counts_a_json_exports_records_or_lines(tmp_path: Path) -> None:
    """The command line's first line counts the places a user counts: "6
    judgments read in 3 records" of a JSON array of 3 records holding 6
    ratings, "in 3 lines" of JSON Lines (it said "in 6 rows", the rows of the
    table built from the records, as the JSON report's ``rows`` did)."""
    records = [{"id": 11 + k, "query": "q", "doc": f"d{k + 1}", "ratings": [
        {"user": u, "label": g} for u, g in zip(("ana", "bo", "cy"), grades, strict=False)]}
        for k, grades in enumerate([(2, 1), (0,), (1, 1, 2)])]
    array, lines = tmp_path / "a.json", tmp_path / "a.jsonl"
    array.write_text(json.dumps(records, indent=1), encoding="utf-8")
    lines.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    for path, said in ((array, "3 records"), (lines, "3 lines")):
        assert f"6 judgments read in {said}: 6 imported" in import_annotations(
            path).report.headline()
        code, out, err = _run("import", str(path), "-o", str(tmp_path / "o.csv"))
        assert code == 0, err
        assert f"6 judgments read in {said}: 6 imported" in out, out


def test_a_json_report_s_rows_read_are_its_records(tmp_path: Path) -> None:
    """A Label Studio export of 4 tasks, two annotations and a model's
    prediction each: the JSON report's ``rows_read`` counts the records, as
    its ``rows`` does (it said 12, the table's rows, which ``table_rows``
    counts)."""
    from tests.test_platform_exports_detected import _label_studio
    path = tmp_path / "project.json"
    _label_studio(path, {"d1": [3, 2], "d2": [0, 1], "d3": [1, 2], "d4": [2, 2]},
                  predictions=1)
    got = import_annotations(path).report.to_json()
    assert (got["rows_are"], got["rows_read"], got["rows"]["read"], got["table_rows"]["read"]) \
        == ("records", 4, 4, 12), got["rows"]
