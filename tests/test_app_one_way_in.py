"""One way in for annotators' sheets (issue 33, item 6): opened from the
command line, dropped on the window or reopened from Open Recent, a sheet in
any format the import reads (CSV, TSV, Excel's UTF-16 text, JSON, JSON
Lines) lands in the import wizard with its guesses, never in a refusal
followed by the bundled example. A worksheet CSV of ours still opens
directly (tests/test_app_workplace.py drops one)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from app.file_formats import write_document
from app.import_wizard.wizard import ImportWizard
from app.window import MainWindow
from core.io.load import is_annotator_sheet
from core.model.examples import seed_document
from tests.appboxes import Boxes
from tests.test_app_import import _drive

DATA = Path(__file__).parent / "data" / "annotators"


def _five_level(tmp_path: Path, encoding: str = "utf-8-sig", name: str = "") -> Path:
    """The five-level (Bad … Perfect) annotators' CSV, saved in ``encoding``."""
    text = (DATA / "bom_bad_to_perfect.csv").read_text(encoding="utf-8-sig")
    path = tmp_path / (name or "five_level_bad_to_perfect.csv")
    path.write_text(text, encoding=encoding)
    return path


def _copy(tmp_path: Path, name: str) -> Path:
    return Path(shutil.copy(DATA / name, tmp_path / name))


SHEETS = {
    "five-level CSV": lambda tmp: _five_level(tmp),
    "the same CSV in UTF-16": lambda tmp: _five_level(tmp, "utf-16", "five_level_utf16.csv"),
    "Excel's Unicode text": lambda tmp: _copy(tmp, "excel_unicode_text.txt"),
    "JSON Lines": lambda tmp: _copy(tmp, "argilla_records.jsonl"),
    "JSON": lambda tmp: _copy(tmp, "label_studio_export.json"),
}


@pytest.fixture
def refusals(boxes: Boxes) -> list[str]:
    """The warnings shown (a refusal at launch is one), recorded, never modal
    (tests/appboxes.py)."""
    return boxes.shown


def _reads_then_cancels(qtbot: Any) -> Any:
    """The wizard's steps: its first guesses shown (no error), then Cancel."""
    def steps(wizard: ImportWizard) -> None:
        assert wizard.error == ""
        assert wizard.preview_value is not None
        assert wizard.sheet_page.model.rowCount() > 0
        wizard.reject()
    return steps


@pytest.mark.parametrize("kind", list(SHEETS))
def test_an_annotators_sheet_on_the_command_line_lands_in_the_wizard(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refusals: list[str],
        kind: str):
    import app.main

    sheet = SHEETS[kind](tmp_path)
    assert is_annotator_sheet(sheet)
    seen = _drive(monkeypatch, qtbot, _reads_then_cancels(qtbot))
    windows: list[MainWindow] = []
    earlier = set(QApplication.topLevelWidgets())  # (other tests' windows, maybe deleted)

    def run_loop(*_: Any) -> int:
        windows.extend(w for w in QApplication.topLevelWidgets()
                       if isinstance(w, MainWindow) and w not in earlier)
        qtbot.waitUntil(lambda: len(seen) == 1, timeout=10_000)  # started from the loop
        return 0

    monkeypatch.setattr(QApplication, "exec", run_loop)
    assert app.main.main([str(sheet)]) == 0
    assert [w.path for w in seen] == [sheet]
    assert refusals == []  # no "no 'source_id' column", no example instead of it
    for window in windows:
        window.session.mark_saved()
        window.close()


def _drop(window: MainWindow, path: Path) -> None:
    """``path`` dragged from a file manager and dropped on the window."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    for kind in (QDragEnterEvent, QDropEvent):
        event = kind(QPoint(40, 40) if kind is QDragEnterEvent else QPointF(40, 40),
                     Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                     Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(window, event)
        assert event.isAccepted()


@pytest.mark.parametrize("kind", ["five-level CSV", "JSON Lines"])
def test_an_annotators_sheet_dropped_or_reopened_lands_in_the_wizard(
        qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        refusals: list[str], kind: str):
    sheet = SHEETS[kind](tmp_path)
    seen = _drive(monkeypatch, qtbot, _reads_then_cancels(qtbot))
    example = window.document
    _drop(window, sheet)
    qtbot.waitUntil(lambda: len(seen) == 1, timeout=10_000)
    window.file_ops.open_recent(str(sheet))  # File > Open Recent: the same way in
    qtbot.waitUntil(lambda: len(seen) == 2, timeout=10_000)
    assert [w.path for w in seen] == [sheet, sheet]
    assert refusals == []
    assert window.document is example  # Cancel: the window as it was


def test_our_own_worksheets_are_not_taken_for_annotators_sheets(tmp_path: Path):
    """Our header in UTF-16 (Excel's Unicode text) is ours; a TREC run in a
    .txt is a run; JSON never is a worksheet of ours."""
    own = tmp_path / "own.csv"
    write_document(seed_document(), own)
    utf16 = tmp_path / "own16.txt"
    utf16.write_text(own.read_text(encoding="utf-8").replace(",", "\t"), encoding="utf-16")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 a 1 3.0 bm25\n")
    assert [is_annotator_sheet(p) for p in (own, utf16, run)] == [False, False, False]
    records = tmp_path / "r.jsonl"
    records.write_text('{"query": "q", "doc": "a", "rating": 1}\n')
    assert is_annotator_sheet(records)


def test_the_import_dialogs_filter_offers_every_format_the_import_reads(tmp_path: Path):
    """The wizard's file dialog (File > Import annotators' sheet) filtered by
    .xlsx, .xlsm, .ods, .csv, .tsv and the JSON suffixes, declared in the app
    beside the command line's own list in words: Excel's Unicode text (a
    UTF-16 .txt, which the import reads) was hidden. Both come from core's
    one declaration now (fails before: no core.io.suffixes.ANNOTATOR_SHEET_*)."""
    from app.cli.main import build_parser
    from app.file_formats import IMPORT_FILTER, patterns
    from core.io.annotator.read import read_table
    from core.io.suffixes import ANNOTATOR_SHEET_FORMATS, ANNOTATOR_SHEET_SUFFIXES

    assert IMPORT_FILTER == ("Annotators' sheets (*.xlsx *.xlsm *.ods *.csv *.tsv *.txt *.json "
                             "*.jsonl *.ndjson);;All files (*)")
    assert patterns(*ANNOTATOR_SHEET_SUFFIXES) in IMPORT_FILTER
    for name, make in SHEETS.items():
        path = make(tmp_path)
        assert path.suffix in ANNOTATOR_SHEET_SUFFIXES, name
        assert read_table(path).rows, name
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    helped = " ".join(subparsers.choices["import"].format_help().split())  # type: ignore[attr-defined]
    assert f"the annotators' sheet: {ANNOTATOR_SHEET_FORMATS}" in helped
