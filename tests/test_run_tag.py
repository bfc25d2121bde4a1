"""A run's tag (a TREC run's sixth field, kept as written: Run.tag) is the
document's (hdesk5, item 3): the reviewer tells the run by it (the
window's title, the runs compared), the workbook keeps it, and a TREC
export of the run writes it rather than ndcg-worksheet (trec_eval reads
any tag), unless --run-tag names another."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from app.cli.main import main as cli_main
from core.io.load import load_document
from core.io.trec import document_from_trec
from core.io.trec.write import RUN_TAG

QRELS = "q1 0 a 2\nq1 0 b 0\nq2 0 c 1\n"


def _run(folder: Path, tag: str, name: str = "run.txt") -> tuple[Path, Path]:
    run = folder / name
    run.write_text("".join(f"{q} Q0 {s} {r} {score} {tag}\n" for q, s, r, score in (
        ("q1", "a", 1, 3.5), ("q1", "b", 2, 2.0), ("q2", "c", 1, 1.25))), encoding="utf-8")
    qrels = folder / "qrels.txt"
    qrels.write_text(QRELS, encoding="utf-8")
    return run, qrels


def _export(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return cli_main(["export", *args], out=out), out.getvalue()


def test_the_joined_document_keeps_the_run_s_tag_and_the_workbook_too(tmp_path):
    run, qrels = _run(tmp_path, "bm25-rm3")
    doc = document_from_trec(run, qrels)
    assert (doc.name, doc.run_tag) == ("run", "bm25-rm3")
    assert doc.run_title() == "run (bm25-rm3)"
    assert doc.subset([0]).run_tag == "bm25-rm3"
    book = tmp_path / "run.xlsx"
    assert _export(str(run), "--qrels", str(qrels), "-o", str(book))[0] == 0
    assert load_document(book).run_tag == "bm25-rm3"


@pytest.mark.parametrize("source", ["run", "workbook"])
def test_a_trec_export_writes_the_run_s_own_tag(tmp_path, source):
    """It wrote ndcg-worksheet on every line (fails before)."""
    run, qrels = _run(tmp_path, "bm25-rm3")
    given = [str(run), "--qrels", str(qrels)]
    if source == "workbook":
        book = tmp_path / "run.xlsx"
        assert _export(*given, "-o", str(book))[0] == 0
        given = [str(book)]
    out = tmp_path / "out.run"
    code, said = _export(*given, "-o", str(out))
    assert code == 0
    assert out.read_text().splitlines() == [
        "q1 Q0 a 1 3.5 bm25-rm3", "q1 Q0 b 2 2.0 bm25-rm3", "q2 Q0 c 1 1.25 bm25-rm3"]
    assert "tagged 'bm25-rm3'" in said


def test_run_tag_names_another_and_a_spaced_tag_is_said(tmp_path):
    run, qrels = _run(tmp_path, "BM25 tuned")  # ranx's run name: a TREC field holds no space
    out = tmp_path / "out.run"
    code, said = _export(str(run), "--qrels", str(qrels), "-o", str(out))
    assert code == 0
    assert {line.split()[-1] for line in out.read_text().splitlines()} == {RUN_TAG}
    assert "the run's own, 'BM25 tuned', holds white space" in said
    assert "--run-tag" in said
    code, said = _export(str(run), "--qrels", str(qrels), "-o", str(out), "--run-tag", "mine")
    assert code == 0
    assert {line.split()[-1] for line in out.read_text().splitlines()} == {"mine"}


def test_the_window_s_title_names_the_run_s_tag(qtbot, tmp_path):
    from app.main import build_window

    run, qrels = _run(tmp_path, "bm25-rm3")
    w = build_window(run, qrels=qrels)
    qtbot.addWidget(w)
    assert w.document.run_tag == "bm25-rm3"
    assert "(bm25-rm3)" in w.windowTitle()
    w.session.mark_saved()


def test_a_trec_run_joined_with_ranx_json_qrels_keeps_its_tag(tmp_path):
    """A JSON id holding white space joins on the ids' text
    (core.io.trec.join.document_from_judged): the run's tag was lost there
    and the export wrote ndcg-worksheet (fails before)."""
    run, _ = _run(tmp_path, "bm25-rm3")
    qrels = tmp_path / "qrels.json"
    qrels.write_text('{"q1": {"a": 2, "b x": 1}, "q2": {"c": 1}}', encoding="utf-8")
    assert load_document(run, qrels=qrels).run_tag == "bm25-rm3"
    out = tmp_path / "out.run"
    code, said = _export(str(run), "--qrels", str(qrels), "-o", str(out))
    assert code == 0
    assert {line.split()[-1] for line in out.read_text().splitlines()} == {"bm25-rm3"}
    assert "tagged 'bm25-rm3'" in said


def test_a_worksheet_csv_says_it_keeps_no_run_tag(tmp_path):
    """A worksheet CSV/TSV holds no run's tag: the save says so among what
    the file does not keep (it said nothing, and a TREC export of the CSV
    read again wrote ndcg-worksheet; fails before)."""
    from core.io.delimited import not_kept, qrels_not_kept

    run, qrels = _run(tmp_path, "bm25-rm3")
    doc = document_from_trec(run, qrels)
    assert not_kept(doc) == ["the run's tag (bm25-rm3)"]
    assert "the run's tag (bm25-rm3)" not in qrels_not_kept(doc)  # (its ranking's: said)
    doc.run_tag = ""
    assert not_kept(doc) == []


@pytest.mark.parametrize("tag", [5, ["bm25"], None])
def test_a_run_tag_in_damaged_metadata_is_refused_naming_the_field(tmp_path, tag):
    """The metadata's run_tag is checked as its other texts are: a number or
    a list there is a damaged workbook, said naming the field (was: read
    as its str(), '5' or "['bm25']", and a TREC export wrote that; fails
    before)."""
    import python_calamine

    from core.errors import InputError
    from core.io.workbook import SHEETS
    from core.io.workbook.metadata import document_from_metadata, read_metadata

    run, qrels = _run(tmp_path, "bm25-rm3")
    book = tmp_path / "run.xlsx"
    assert _export(str(run), "--qrels", str(qrels), "-o", str(book))[0] == 0
    rows = python_calamine.CalamineWorkbook.from_path(str(book)).get_sheet_by_name(
        SHEETS["metadata"]).to_python()
    meta = read_metadata(rows, str(book))
    assert document_from_metadata(dict(meta), str(book)).run_tag == "bm25-rm3"
    meta["run_tag"] = tag
    with pytest.raises(InputError, match=r"field 'run_tag' is .*, not text") as found:
        document_from_metadata(meta, str(book))
    assert (found.value.file, found.value.sheet) == (str(book), SHEETS["metadata"])


@pytest.mark.parametrize("output", ["out.csv", "out.xlsx", "out.qrels"])
def test_run_tag_for_an_output_that_is_no_run_is_refused(tmp_path, output, capsys):
    """--run-tag with a CSV, workbook or qrels output was dropped in
    silence (the file written, no tag anywhere); now refused before
    anything is read or written (fails before)."""
    run, qrels = _run(tmp_path, "bm25-rm3")
    code, said = _export(str(run), "--qrels", str(qrels), "-o", str(tmp_path / output),
                         "--run-tag", "mine")
    assert (code, said) == (2, "")
    assert "--run-tag tags a run's lines" in capsys.readouterr().err
    assert not (tmp_path / output).exists()
