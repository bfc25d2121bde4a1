"""The workbook's audit says what changed after a spreadsheet edit: the
Report's "Audit log" and the Audit sheet hold the app's record up to the
export (their heading and line say so) and a live count of the grades that
differ from their originals now, a formula over the Candidates sheet's
original and current grade columns compared as the app compares them
(``core.io.workbook.audit.changed_grades``). Before, after two grades were
edited in LibreOffice, both still said "No grade, note or convention has
been changed" beside the new grades (htrial5).

Each workbook is edited in a headless LibreOffice through python3-uno
(``tests/lo_edit.py``), then recalculated by LibreOffice and by Gnumeric
(``ssconvert --recalc``) and printed to PDF."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import OUTSIDE_ORIGIN, SHEETS, export_workbook, read_workbook
from core.io.workbook.audit import LOG_COVERS, NONE_LOGGED
from core.model.document import Document
from core.model.examples import seed_document
from tests.libreoffice import edit, read_values, recalculate, to_pdf
from tests.test_workbook_gnumeric import ssconvert

pytestmark = pytest.mark.libreoffice

#: The live sentence's count, as its text gives it.
_COUNT = re.compile(r"Grades that differ from their originals in the Candidates sheet now: "
                    r"(\d+) \(")


def _rows(path: Path) -> dict[tuple[str, str], int]:
    ws = openpyxl.load_workbook(path)[SHEETS["candidates"]]
    return {(ws.cell(r, 1).value, ws.cell(r, 2).value): r for r in range(2, ws.max_row + 1)
            if ws.cell(r, 1).value is not None}


def _set(rows: dict[tuple[str, str], int], query: str, source: str, value: Any) -> dict[str, Any]:
    return {"op": "set", "sheet": SHEETS["candidates"], "cell": f"F{rows[(query, source)]}",
            "value": value}


def _counts(values: dict[str, list[list[Any]]]) -> dict[str, list[int]]:
    """The live count as each of the Report and Audit sheets says it."""
    out = {}
    for sheet in (SHEETS["report"], SHEETS["audit"]):
        texts = [str(c) for row in values[sheet] for c in row if c is not None]
        out[sheet] = [int(m.group(1)) for t in texts for m in [_COUNT.search(t)] if m]
    return out


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("changed-count")
    src = folder / "src"
    src.mkdir()
    seed, seed_ods = src / "seed.xlsx", src / "seed.ods"
    ev = evaluate(seed_document())
    export_workbook(ev, seed)
    export_workbook(ev, seed_ods)
    rows = _rows(seed)
    two = [_set(rows, "case-A", "C", 2), _set(rows, "case-B", "A", 1)]
    edited = folder / "edited"
    edited.mkdir()
    out = edit([
        (seed, edited / "untouched.xlsx", []),
        (seed, edited / "two.xlsx", two),
        (seed_ods, edited / "two_ods.ods", two),
        # an edit, then the original typed back (3): no grade differs
        (seed, edited / "back.xlsx", [_set(rows, "case-A", "A", 1),
                                      _set(rows, "case-A", "A", 3)]),
        # the unknown grade typed as its word: no change; typed unrateable: one
        (seed, edited / "unknown.xlsx", [_set(rows, "case-F-unknown", "B", "unknown")]),
        (seed, edited / "unrateable.xlsx", [_set(rows, "case-F-unknown", "B", "unrateable")]),
    ])
    return {p.stem: p for p in [seed, *out]}


def test_the_export_counts_none_and_says_what_its_log_covers(books: dict[str, Path]) -> None:
    values = read_values(books["seed"])  # the cached text: the app's own count
    assert _counts(values) == {SHEETS["report"]: [0], SHEETS["audit"]: [0]}
    report = [str(c) for row in values[SHEETS["report"]] for c in row if c is not None]
    assert f"Audit log: {LOG_COVERS}" in report
    assert NONE_LOGGED in report
    audit = [str(c) for row in values[SHEETS["audit"]] for c in row if c is not None]
    assert f"Above: {LOG_COVERS}." in audit


def test_libreoffice_counts_the_grades_edited_in_it(books: dict[str, Path],
                                                    tmp_path: Path) -> None:
    names = ["untouched", "two", "two_ods", "back", "unknown", "unrateable"]
    done = recalculate([books[n] for n in names], tmp_path)
    got = {n: _counts(read_values(p)) for n, p in zip(names, done, strict=True)}
    want = {"untouched": 0, "two": 2, "two_ods": 2, "back": 0, "unknown": 0, "unrateable": 1}
    assert got == {n: {SHEETS["report"]: [k], SHEETS["audit"]: [k]} for n, k in want.items()}


@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
@pytest.mark.parametrize(("name", "count"), [("seed", 0), ("two", 2), ("two_ods", 2),
                                             ("back", 0), ("unrateable", 1)])
def test_gnumeric_counts_them_alike(books: dict[str, Path], tmp_path: Path, name: str,
                                    count: int) -> None:
    out = tmp_path / "recalculated.xlsx"
    proc = subprocess.run([ssconvert(), "--recalc", str(books[name]), str(out)],
                          capture_output=True, text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _counts(read_values(out)) == {SHEETS["report"]: [count], SHEETS["audit"]: [count]}


def test_the_printed_report_says_it(books: dict[str, Path], tmp_path: Path) -> None:
    (pdf,) = to_pdf([books["two"]], tmp_path)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, timeout=120, check=True).stdout
    flat = " ".join(text.split())
    assert "Grades that differ from their originals in the Candidates sheet now: 2 (" in flat
    assert flat.count("now: 2 (") == 2  # the Report's and the Audit sheet's
    assert "Audit log: the changes made in NDCG Worksheet, up to this workbook's export" in flat


def test_reopening_the_edited_workbook_shows_the_edits_as_changes(
        books: dict[str, Path]) -> None:
    doc = read_workbook(books["two"])
    assert int(doc.changed().sum()) == 2
    outside = [e for e in doc.audit if e.origin == OUTSIDE_ORIGIN]
    assert sorted((e.query, e.source_id, e.before, e.after) for e in outside) == [
        ("case-A", "C", "0", "2"), ("case-B", "A", "3", "1")]


@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_unknown_and_unrateable_originals_compare_as_the_app_compares_them(
        tmp_path: Path, suffix: str) -> None:
    """An unrateable and an unknown grade kept are no change (their cells
    hold the state's word, compared with the grade state), a grade the app
    changed before the export is one, as ``Document.changed`` counts."""
    nan = float("nan")
    doc = Document.from_columns(query=["q"] * 4, source_id=list("abcd"),
                                score=[4.0, 3.0, 2.0, 1.0], grade=[2.0, nan, nan, 1.0],
                                state=[0, 2, 1, 0])
    doc.set_grade(3, 2.0, who="ana")
    assert int(doc.changed().sum()) == 1
    src = tmp_path / f"u{suffix}"
    export_workbook(evaluate(doc), src)
    out = tmp_path / "recalculated.xlsx"
    proc = subprocess.run([ssconvert(), "--recalc", str(src), str(out)],
                          capture_output=True, text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _counts(read_values(out)) == {SHEETS["report"]: [1], SHEETS["audit"]: [1]}
