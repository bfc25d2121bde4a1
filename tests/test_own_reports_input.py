"""A report this program wrote as JSON (``evaluate --format json``,
``compare --format json``) given back to be read, as the worksheet, a run,
qrels or an annotators' export: refused in one line saying what it is and
what to give instead (evaluate's report was said to be ranx's or
pytrec_eval's run or qrels, or refused for ``["conventions"]["gain"]``
holding text; ``import`` read it as JSON Lines, 'line 1 is not JSON')."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from app.cli.main import main


def _said(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args), io.StringIO()) == 2
    return capsys.readouterr().err


@pytest.fixture
def files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Path]:
    """A run, its qrels, and the reports evaluate and compare (two runs,
    three runs) write of them."""
    run = tmp_path / "bm25.run"
    run.write_text("q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\nq2 Q0 d3 1 0.5 bm25\n",
                   encoding="utf-8")
    qrels = tmp_path / "q.qrels"
    qrels.write_text("q1 0 d1 2\nq1 0 d2 0\nq2 0 d3 1\n", encoding="utf-8")
    out = {"run": run, "qrels": qrels}
    for name, args in (("evaluate", ["evaluate", str(run)]),
                       ("compare", ["compare", str(run), str(run)]),
                       ("compare-many", ["compare", str(run), str(run), str(run)])):
        out[name] = tmp_path / f"{name}.json"
        with out[name].open("w", encoding="utf-8") as fh:
            assert main([*args, "--qrels", str(qrels), "--format", "json"], fh) == 0
    capsys.readouterr()
    return out


def _refusal(path: Path, command: str) -> str:
    return (f"ndcg-worksheet: error: {path}: this is a report this program wrote "
            f"(ndcg-worksheet {command} --format json), not a worksheet, a run, qrels or an "
            "annotators' export (a report is not read back: give the worksheet, or the run "
            "with --qrels, that it was made from)\n")


def test_evaluates_report_read_back_is_named_as_such(
        files: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report, run, qrels = files["evaluate"], str(files["run"]), str(files["qrels"])
    expected = _refusal(report, "evaluate")
    assert _said(capsys, "evaluate", str(report)) == expected
    assert _said(capsys, "evaluate", str(report), "--qrels", qrels) == expected
    assert _said(capsys, "evaluate", run, "--qrels", str(report)) == expected
    assert _said(capsys, "compare", str(report), run, "--qrels", qrels) == expected
    assert _said(capsys, "compare", run, run, run, "--qrels", str(report)) == expected
    assert _said(capsys, "export", str(report), "-o", str(tmp_path / "o.xlsx")) == expected
    assert _said(capsys, "import", str(report), "-o", str(tmp_path / "o.csv")) == expected


@pytest.mark.parametrize("which", ["compare", "compare-many"])
def test_compares_reports_read_back_are_named_as_such(
        files: dict[str, Path], capsys: pytest.CaptureFixture[str], which: str) -> None:
    report, run = files[which], str(files["run"])
    expected = _refusal(report, "compare")
    assert _said(capsys, "evaluate", str(report)) == expected
    assert _said(capsys, "compare", run, run, "--qrels", str(report)) == expected


def test_ranx_json_is_still_read(files: dict[str, Path], capsys: pytest.CaptureFixture[str],
                                 tmp_path: Path) -> None:
    """ranx's JSON run and qrels (an object of queries) are read as before,
    a query named ``conventions`` among them."""
    run = tmp_path / "run.json"
    run.write_text('{"conventions": {"gain": 2.5, "d2": 1.5}, "q2": {"d3": 0.5}}',
                   encoding="utf-8")
    qrels = tmp_path / "qrels.json"
    qrels.write_text('{"conventions": {"gain": 2, "d2": 0}, "q2": {"d3": 1}}',
                     encoding="utf-8")
    out = io.StringIO()
    assert main(["evaluate", str(run), "--qrels", str(qrels), "--format", "json"], out) == 0
    assert '"query": "conventions"' in out.getvalue()
