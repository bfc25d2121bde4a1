"""File > Open (Ctrl+O) under the sklearn preset of a worksheet (CSV or
Parquet) holding a negative grade: one message naming the file and the
place of the first refused grade, as the command line says it
(tests/test_refusal_place.py), and the document shown stays. (Our own
workbook opens under the conventions it holds.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from core.model.examples import seed_document
from core.model.presets import preset
from tests.test_app_files import Boxes, _window
from tests.test_app_sources import _ctrl
from tests.test_refusal_place import NAMED, WORKSHEET


@pytest.mark.parametrize("kind", ["csv", "parquet"])
def test_file_open_under_the_sklearn_preset_names_the_refused_grade(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str):
    sheet = tmp_path / "negative.csv"
    sheet.write_text(WORKSHEET)
    place = f"{sheet}, line 2"
    if kind == "parquet":
        table = tmp_path / "negative.parquet"
        pq.write_table(pa.table({"query": ["q2", "q1", "q1", "q1", "q2"],
                                 "source_id": ["a", "a", "b", "c", "b"],
                                 "score": [3.0, 3.0, 2.0, 1.0, 2.0],
                                 "grade": [1.0, -1.0, 0.0, -0.5, 0.0]}), table)
        sheet, place = table, f"{table}, column 'grade': row 2"
    boxes = Boxes(monkeypatch)
    shown = seed_document()
    shown.conventions = preset("sklearn")  # the window's conventions: Open reads under them
    window, _ = _window(qtbot, shown)
    window.show()
    qtbot.waitExposed(window)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(sheet), "")))
    _ctrl(qtbot, window, Qt.Key.Key_O)
    qtbot.waitUntil(lambda: bool(boxes.shown), timeout=10_000)
    assert boxes.shown == [f"{place}: {NAMED}"]
    assert window.document is shown
    assert window.path is None
