"""A compressed worksheet (``sheet.csv.gz``) opened in the window: read as the
plain one, a source that Save never writes over (Save proposes
``sheet.xlsx`` beside it)."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtWidgets import QFileDialog

from app.file_formats import Origin, write_document
from core.io.delimited import read_delimited
from core.io.workbook import read_workbook
from core.model.examples import seed_document
from tests.appboxes import Boxes
from tests.test_app_files import _finish, _grade, _window


def test_a_gz_worksheet_opens_as_the_plain_one_and_save_keeps_it(
        qtbot: Any, tmp_path: Path, boxes: Boxes, monkeypatch: pytest.MonkeyPatch):
    plain = tmp_path / "plain.csv"
    write_document(seed_document(), plain)
    archive = tmp_path / "sheet.csv.gz"
    archive.write_bytes(gzip.compress(plain.read_bytes()))
    before = archive.read_bytes()
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(archive))
    assert boxes.shown == []
    assert window.path == archive
    assert ops.origin is Origin.ARCHIVE
    np.testing.assert_array_equal(window.document.grade, read_delimited(plain).grade)
    assert window.document.name == "sheet"
    _grade(window, 2, 3.0)
    proposed: list[str] = []

    def save_as(parent: Any, title: str, start: str, *rest: Any) -> tuple[str, str]:
        proposed.append(start)
        return start, rest[1]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    assert ops.save(blocking=True)  # a source: Save asks where, beside it
    assert proposed == [str(tmp_path / "sheet.xlsx")]
    assert window.path == tmp_path / "sheet.xlsx"
    assert read_workbook(tmp_path / "sheet.xlsx").grade[2] == 3.0
    assert archive.read_bytes() == before
