"""What we write, we read; what a format cannot hold is refused before
writing; a refused workbook cell is said where the user is. Hostile
documents through the command line, each in its own process with limits
(tests/hostile_cases.py): an id past the CSV reader's field limit, grades
whose gains overflow, cutoffs typed twice in the Conventions sheet, a file
size limit hit halfway through writing (a full disk, for real: one line and
nothing else, no "Exception ignored in ZipFile.__del__"). And every export
format reopens with the very numbers it was written from."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import openpyxl
import pytest

from app.file_formats import write_document
from core.engine.evaluation import evaluate
from core.io.delimited import MAX_FIELD
from core.io.load import load_document
from core.io.workbook import SHEETS, export_workbook
from core.model.document import Document
from core.model.examples import seed_document
from tests.hostile_cases import check, digests, run_cases

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile-writes")
    long_id = "x" * (MAX_FIELD + 10)
    run = folder / "long.run"
    run.write_text(f"q1 Q0 {long_id} 1 2.0 t\nq1 Q0 b 2 1.0 t\n")
    qrels = folder / "long.qrels"
    qrels.write_text(f"q1 0 {long_id} 1\nq1 0 b 0\n")
    huge = folder / "huge.csv"
    huge.write_text("query,source_id,score,grade\nq1,a,2,1.7e308\nq1,b,1,1.7e308\n")
    book = folder / "cut.xlsx"
    export_workbook(evaluate(seed_document()), book)
    wb = openpyxl.load_workbook(book)
    names = {n: d.attr_text.split("!")[1].replace("$", "")
             for n, d in wb.defined_names.items() if ":" not in d.attr_text}
    wb[SHEETS["conventions"]][names["cut_1"]].value = 2  # cutoffs 2, 2
    wb.save(book)
    return {"run": run, "qrels": qrels, "huge": huge, "book": book, "out": folder / "out"}


def test_hostile_documents_are_refused_before_writing_or_said(inputs: dict[str, Path]) -> None:
    out = inputs["out"]
    out.mkdir()
    run, qrels, huge, book = (str(inputs[k]) for k in ("run", "qrels", "huge", "book"))
    cases = {  # id: (argv, refused, phrases, output that must not be written)
        "long-id/csv": (["export", run, "--qrels", qrels, "-o", str(out / "long.csv")], True,
                        ("source id of row 1", "131,072", "nothing was written"), "long.csv"),
        "long-id/tsv": (["export", run, "--qrels", qrels, "-o", str(out / "long.tsv")], True,
                        ("source id of row 1", "131,072"), "long.tsv"),
        "long-id/xlsx": (["export", run, "--qrels", qrels, "-o", str(out / "long.xlsx")],
                         False, (), ""),
        "huge/csv": (["export", huge, "-o", str(out / "huge.csv")], True,
                     ("query 'q1'", "add up beyond", "nothing was written"), "huge.csv"),
        "huge/qrels": (["export", huge, "-o", str(out / "huge.qrels")], True,
                       ("query 'q1'", "add up beyond"), "huge.qrels"),
        "cut/evaluate": (["evaluate", book], False, (), ""),
        "cut/strict": (["evaluate", book, "--strict"], True,
                       ("sheet 'Conventions'", "row 9", "cutoff 2", "k = 2 is already cutoff 1",
                        "--strict"), ""),
        "cut/export-strict": (["export", book, "--strict", "-o", str(out / "cut.xlsx")], True,
                              ("row 9", "--strict"), "cut.xlsx"),
    }
    before = digests([Path(p) for p in (run, qrels, huge, book)])
    outcomes = run_cases([{"id": k, "argv": argv, "timeout": 60, "memory_mb": 1536}
                          for k, (argv, *_rest) in cases.items()])
    problems = []
    for key, (_argv, refused, phrases, written) in cases.items():
        found = check(outcomes[key], refused=refused, phrases=phrases)
        if written and (out / written).exists():
            found.append("an output was written")
        problems += [f"{key}: {p}" for p in found]
    warned = outcomes["cut/evaluate"].stderr_lines
    assert warned == [f"ndcg-worksheet: warning: {book}, sheet 'Conventions', row 9, column "
                      "'B (cutoff 2 (k))': k = 2 is already cutoff 1; each cutoff once (the "
                      "conventions stored with the workbook are kept; correct the cell (or "
                      "undo the edit) and open the file again)"]
    assert digests([Path(p) for p in (run, qrels, huge, book)]) == before
    assert not problems, "\n".join(problems)
    # The workbook keeps the long id whole (its metadata), the sheet cut.
    back = load_document(out / "long.xlsx")
    assert sorted(map(len, back.source_id.tolist())) == [1, MAX_FIELD + 10]


_FULL_DISK = """
import io, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
from app.cli.main import main
sys.exit(main(["export", {src!r}, "-o", {out!r}], out=io.StringIO()))
"""


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_a_write_failing_halfway_is_one_line_and_nothing_else(
        tmp_path: Path, suffix: str) -> None:
    """The file size limit makes the system refuse a write halfway through, as
    a full disk does (xlsxwriter's zip, the text writer): one line, exit
    status 2, the old file intact, no temporary file left, and no
    "Exception ignored" from a half-written zip collected later."""
    src = tmp_path / "many.csv"
    rng = np.random.default_rng(3)
    lines = ["query,source_id,score,grade"] + [
        f"q{q},d{d},{rng.random()!r},{int(rng.integers(0, 4))}"
        for q in range(150) for d in range(30)]
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / f"out{suffix}"
    out.write_bytes(b"the old file\n")
    code = _FULL_DISK.format(limit=40_000, src=str(src), out=str(out))
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (f"ndcg-worksheet: error: {out}: could not save: the file is larger "
                           "than this system allows; the previous file is unchanged\n")
    assert out.read_bytes() == b"the old file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([src.name, out.name])


def test_a_full_disk_leaves_no_traceback_after_the_one_line(tmp_path: Path) -> None:
    """xlsxwriter's zip, left half-written by a full disk, used to print
    "Exception ignored in ZipFile.__del__" and a traceback when collected,
    after the one-line message."""
    src = tmp_path / "in" / "many.csv"
    src.parent.mkdir()
    rng = np.random.default_rng(5)
    src.write_text("query,source_id,score,grade\n" + "".join(
        f"q{q},d{d},{rng.random()!r},{int(rng.integers(0, 4))}\n"
        for q in range(150) for d in range(30)))
    out = tmp_path / "disk" / "out.xlsx"
    out.parent.mkdir()
    out.write_bytes(b"the old file\n")
    proc = subprocess.run([sys.executable, str(REPO / "tests" / "full_disk.py"), str(src),
                           str(out)], cwd=REPO, capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (f"ndcg-worksheet: error: {out}: could not save: the disk is full; "
                           "the previous file is unchanged\n")
    assert out.read_bytes() == b"the old file\n"
    assert [p.name for p in out.parent.iterdir()] == ["out.xlsx"]


def _awkward() -> Document:
    """Ids with separators, quotes, formulas' signs and non-ASCII; scores and
    grades whose last digit a 15-digit writer would lose; a tie."""
    return Document.from_columns(
        query=["q,1", "q,1", "q,1", 'q"2', 'q"2', "=q3", "=q3"],
        source_id=["a b", "b\tc", "ç,d", "-1", "+x", "@y", 'z"'],
        score=[0.1 + 0.2, 0.3, 1 / 3, 2.0, 2.0, 1e-300, 5.0],
        grade=[0.1 + 0.2, 2.0, 1 / 3, 3.0, 1.0, 1e-10, 2.5],
    )


def test_every_export_reopens_with_the_same_numbers(tmp_path: Path) -> None:
    doc = _awkward()
    want = evaluate(doc)
    for suffix in (".xlsx", ".csv", ".tsv"):
        out = tmp_path / f"out{suffix}"
        write_document(doc, out)
        back = load_document(out)
        assert back.source_id.tolist() == doc.source_id.tolist()
        got = evaluate(back)
        assert np.array_equal(got.ndcg, want.ndcg, equal_nan=True), suffix
        assert np.array_equal(back.score, doc.score, equal_nan=True), suffix
    run, qrels = tmp_path / "out.run", tmp_path / "out.qrels"
    from core.io.trec import write_qrels, write_run

    tame = Document.from_columns(query=["q1", "q1", "q2"], source_id=["a", "b", "c"],
                                 score=[0.1 + 0.2, 0.3, 1 / 3], grade=[0.1 + 0.2, 2.0, 1 / 3])
    write_run(tame, run)
    write_qrels(tame, qrels)
    back = load_document(run, qrels=qrels)
    got, want = evaluate(back), evaluate(tame)
    assert np.array_equal(got.ndcg, want.ndcg, equal_nan=True)
    assert all(math.isfinite(x) for x in got.ndcg[~np.isnan(got.ndcg)].ravel())
