"""An id holding a line break ("a\\nb": a JSON string, a Parquet cell, a
quoted CSV cell or a workbook cell can hold one) is carried as it is: the
ids' arena ends each id with "\\n", and a JSON run beside Parquet qrels
exported with a traceback (5 texts for 4 ids). Every file that can hold one,
as a run and as qrels, gives the numbers of the same files with the id
renamed; TREC text (which cannot) beside them judges the other ids. An id
holding a NUL character (which the arena's tie order reads as its end) is
refused where it enters, in one line naming the file, the row or key path
and the id."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from openpyxl import Workbook
from PySide6.QtCore import Qt

from app.cli.main import main
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.load import load_document
from tests.appboxes import Boxes
from tests.test_app_open_evaluated import _window
from tests.test_app_open_run import _answers
from tests.test_app_sources import _ctrl

#: The ids holding line breaks, and the names they are renamed to.
RENAMED = {"a\nb": "aZb", "x\r\ny": "xZy", "c\rd": "cZd"}
#: q1 ties "a\nb" with "a" (the trec_eval tie order sorts their bytes);
#: q2 ranks "x\r\ny" first.
RUN = [("q1", "a\nb", 3.0), ("q1", "a", 3.0), ("q1", "c\rd", 2.0), ("q1", "b", 0.5),
       ("q2", "x\r\ny", 2.0), ("q2", "a", 1.0)]
QRELS = [("q1", "a\nb", 2), ("q1", "a", 0), ("q1", "b", 1), ("q1", "c\rd", 3),
         ("q2", "x\r\ny", 1), ("q2", "a", 2), ("q2", "d", 3)]


def _rows(rows: list[tuple[str, str, float]], renamed: bool) -> list[tuple[str, str, float]]:
    return [(q, RENAMED.get(s, s) if renamed else s, v) for q, s, v in rows]


def _write(folder: Path, kind: str, role: str, rows: list[tuple[str, str, float]]) -> Path:
    """``rows`` as a run or qrels file of ``kind``."""
    folder.mkdir(exist_ok=True)
    path = folder / f"{role}.{kind}"
    if kind == "json":
        data: dict[str, dict[str, float]] = {}
        for q, s, v in rows:
            data.setdefault(q, {})[s] = v
        path.write_text(json.dumps(data))
    elif kind == "parquet":
        pq.write_table(pa.table({"query": [r[0] for r in rows], "source_id": [r[1] for r in rows],
                                 "score" if role == "run" else "grade": [r[2] for r in rows]}),
                       path)
    elif kind == "txt":  # TREC qrels: the other ids only (both sides alike)
        path.write_text("".join(f"{q} 0 {s} {v}\n" for q, s, v in rows
                                if s not in {*RENAMED, *RENAMED.values()}))
    elif kind == "csv":  # an annotators' sheet
        with path.open("w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows([("query", "doc", "annotator", "label"),
                                      *((q, s, "ann1", v) for q, s, v in rows)])
    else:
        book = Workbook()
        book.active.append(["query", "doc", "annotator", "label"])
        for q, s, v in rows:
            book.active.append([q, s, "ann1", v])
        book.save(path)
    return path


def cli(*args: str | Path) -> tuple[int, str]:
    out = io.StringIO()
    return main([str(a) for a in args], out=out), out.getvalue()


def _as_held(out: tuple[int, str], tmp_path: Path) -> tuple[int, str]:
    """A command's JSON output on the renamed files as it reads on the
    files holding the line breaks (their folder, ids as JSON writes them)."""
    text = out[1].replace(str(tmp_path / "renamed"), str(tmp_path / "held"))
    for held, renamed in RENAMED.items():
        text = text.replace(json.dumps(renamed), json.dumps(held))
    return out[0], text


def _files(tmp_path: Path, run_kind: str, qrels_kind: str, renamed: bool) -> tuple[Path, Path]:
    folder = tmp_path / ("renamed" if renamed else "held")
    return (_write(folder, run_kind, "run", _rows(RUN, renamed)),
            _write(folder, qrels_kind, "qrels", _rows(QRELS, renamed)))


@pytest.mark.parametrize(("run_kind", "qrels_kind"), [
    ("json", "parquet"), ("parquet", "json"), ("parquet", "parquet"), ("json", "json"),
    ("json", "txt"), ("parquet", "txt"), ("json", "csv"), ("parquet", "xlsx"),
])
def test_ids_holding_line_breaks_give_the_renamed_ids_numbers(tmp_path, run_kind, qrels_kind):
    held, renamed = (_files(tmp_path, run_kind, qrels_kind, r) for r in (False, True))
    for preset_name in ("trec_eval", "ranx"):
        flags = ("--preset", preset_name, "--k", "3", "--k", "all", "--format", "json")
        want = cli("evaluate", *renamed[:1], "--qrels", renamed[1], *flags)
        assert want[0] == 0
        assert cli("evaluate", held[0], "--qrels", held[1], *flags) == _as_held(want, tmp_path)
    # Exported (CSV, workbook) and read back: the ids as they were, the same grades.
    for suffix in ("csv", "xlsx"):
        docs = []
        for (run, qrels), name in ((held, "held"), (renamed, "renamed")):
            out = tmp_path / f"{name}.{suffix}"
            assert cli("export", run, "--qrels", qrels, "-o", out)[0] == 0
            docs.append(load_document(out))
        assert [RENAMED.get(s, s) for s in docs[0].source_id] == list(docs[1].source_id)
        assert "a\nb" in list(docs[0].source_id)
        np.testing.assert_array_equal(docs[0].grade, docs[1].grade)
        np.testing.assert_array_equal(evaluate(docs[0]).ndcg, evaluate(docs[1]).ndcg)


def test_a_worksheet_and_compare_carry_them(tmp_path):
    runs = {}
    for renamed in (False, True):
        folder = tmp_path / ("renamed" if renamed else "held")
        sheet = folder / "sheet.csv"
        folder.mkdir()
        grades = {(q, s): g for q, s, g in _rows(QRELS, renamed)}
        with sheet.open("w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows([("query", "source_id", "score", "grade"), *(
                (q, s, v, grades[q, s]) for q, s, v in _rows(RUN, renamed))])
        runs[renamed] = (cli("evaluate", sheet, "--format", "json"), cli(
            "compare", _write(folder, "json", "run", _rows(RUN, renamed)),
            _write(folder, "parquet", "run", _rows(RUN[::-1], renamed)),
            "--qrels", _write(folder, "parquet", "qrels", _rows(QRELS, renamed)),
            "--format", "json"))
    assert runs[True][0][0] == runs[True][1][0] == 0
    for got, want in zip(runs[False], runs[True], strict=True):
        assert got == _as_held(want, tmp_path)


def opened(qtbot: Any, monkeypatch: pytest.MonkeyPatch, run: Path, qrels: Path) -> Any:
    """A window that opened ``run`` beside ``qrels`` by Ctrl+O, saying nothing."""
    boxes = Boxes(monkeypatch)
    window = _window(qtbot)
    _answers(monkeypatch, run, qrels)
    _ctrl(qtbot, window, Qt.Key.Key_O)
    task = window.file_ops.task
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=10_000)
    assert boxes.shown == []
    return window


def test_the_editor_opens_a_json_run_holding_one_beside_parquet_qrels(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    run, qrels = _files(tmp_path, "json", "parquet", False)
    window = opened(qtbot, monkeypatch, run, qrels)
    conventions = window.document.conventions
    assert list(window.document.source_id) == [s for _, s, _ in RUN] + ["d"]
    renamed = load_document(*_files(tmp_path, "json", "parquet", True)[:1],
                            qrels=_files(tmp_path, "json", "parquet", True)[1],
                            conventions=conventions)
    np.testing.assert_array_equal(window.session.evaluation.ndcg, evaluate(renamed).ndcg)


@pytest.mark.parametrize(("kind", "said"), [
    ("json", '["q1"]["a\\u0000b"] holds a NUL character'),
    ("parquet", "column 'source_id': row 1: the id 'a\\x00b' holds a NUL character"),
])
def test_an_id_holding_a_nul_is_refused_where_it_enters(tmp_path, kind, said):
    run = _write(tmp_path, kind, "run", [("q1", "a\0b", 1.0), ("q1", "c", 0.5)])
    qrels = _write(tmp_path, "parquet", "qrels", [("q1", "c", 1)])
    with pytest.raises(InputError) as info:
        load_document(run, qrels=qrels)
    message = str(info.value)
    assert message.startswith(str(run))
    assert said in message
    assert "\n" not in message
    assert message.endswith("(remove it from the id: TREC text, CSV and workbooks cannot hold "
                            "one either)")


@pytest.mark.parametrize("role", ["run", "qrels"])
def test_trec_text_holding_a_nul_past_its_head_is_refused_naming_the_line(tmp_path, role):
    # A NUL in the first 4 KiB: "the file is binary"; past them it was read,
    # and "a\0" tied with "a" in the trec_eval order as the same id.
    pad = "".join(f"q Q0 pad{i:05d} {i + 3} 0.1 r\n" for i in range(300))
    run = tmp_path / "run.txt"
    run.write_bytes(("q Q0 a 1 1.0 r\n" + pad + "q Q0 a\0 2 1.0 r\n").encode()
                    if role == "run" else b"q Q0 a 1 1.0 r\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes(b"q 0 a 0\n" if role == "run" else (
        "".join(f"q 0 pad{i:05d} 1\n" for i in range(400)) + "q 0 a\0 3\n").encode())
    bad, line = (run, 302) if role == "run" else (qrels, 401)
    # Read by the scan, and beside a JSON file whose id holds a space by the
    # line reader (the text join).
    spaced = (_write(tmp_path, "json", "qrels", [("q", "a b", 1)]) if role == "run"
              else _write(tmp_path, "json", "run", [("q", "a b", 1.0)]))
    for pair in ((run, qrels), (run, spaced) if role == "run" else (spaced, qrels)):
        with pytest.raises(InputError) as info:
            load_document(pair[0], qrels=pair[1])
        assert str(info.value) == (
            f"{bad}, line {line}: 'a\\x00' holds a NUL character, which no id may hold "
            "(remove it from the id: a text file holds none)")
