"""A source is never overwritten (issue 34, item 1), the first Save asks
where to keep the worksheet and the window then works on that file; Export
TREC qrels writes the grades back explicitly, what qrels cannot hold named
first. pytest-qt with real keys: grades typed as digits, Ctrl+S, Ctrl+O."""

from __future__ import annotations

import csv
import gzip
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from app.file_formats import (
    CSV_FILTER,
    ODS_FILTER,
    TSV_FILTER,
    XLSX_FILTER,
    Origin,
    origin_of,
)
from app.models.candidates import GridColumn
from app.settings import Settings
from core.io.identity import real_path
from core.io.journal import Journal
from core.io.workbook import read_workbook
from core.model.document import GradeState
from core.model.examples import seed_document
from tests.appboxes import Boxes
from tests.test_app_import import _drive, _finish, _next

DATA = Path(__file__).parent / "data" / "annotators"

RUN = """\
1000 Q0 https://docs.example/kettle/descale 1 100.8412 bm25
1000 Q0 https://docs.example/kettle/limescale 2 97.2001 bm25
1000 Q0 https://docs.example/kettle/vinegar 3 90.5 bm25
1001 Q0 https://shop.example/socks/merino 1 88.25 bm25
1001 Q0 https://shop.example/socks/wool 2 70.125 bm25
"""
QRELS = """\
1000 0 https://docs.example/kettle/descale 2
1001 0 https://shop.example/socks/merino 1
"""


class SaveDialog:
    """The Save dialog, answered as a person would: the name it proposes
    (or the one given), with the filter it selected."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.asked: list[tuple[str, str, str]] = []
        self.titles: list[str] = []
        self.answer: Path | None = None
        dialog = self

        def ask(parent: Any, title: str, start: str, filters: str = "",
                selected: str = "") -> tuple[str, str]:
            dialog.asked.append((start, filters, selected))
            dialog.titles.append(title)
            return str(dialog.answer or start), selected or filters.split(";;")[0]

        monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(ask))


@pytest.fixture
def save_dialog(monkeypatch: pytest.MonkeyPatch) -> SaveDialog:
    return SaveDialog(monkeypatch)


def _shown(qtbot: Any, window: Any) -> Any:
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    window.show()
    qtbot.waitExposed(window)
    return window


def _grid(window: Any) -> tuple[Any, Any]:
    """The grid that shows the query's candidates: the ranked one, or the
    grid of those not retrieved (all of them when nothing ranks them)."""
    if window.grid_model.rowCount():
        return window.grid, window.grid_model
    return window.not_retrieved_view, window.not_retrieved_model


def _activate(qtbot: Any, window: Any) -> Any:
    """The window active again (back from a dialog), its grid focused."""
    window.activateWindow()
    window.windowHandle().requestActivate()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    grid = _grid(window)[0]
    grid.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is grid)
    return grid


def _type_grade(qtbot: Any, window: Any, row: int, key: Qt.Key) -> int:
    """Put the cursor on the grade cell of ``row`` and type a digit; the
    candidate graded."""
    grid, model = _grid(window)
    grid.setCurrentIndex(model.index(row, GridColumn.GRADE))
    graded = int(model.candidates()[row])  # (a query's last row graded shows the next query)
    qtbot.keyClick(_activate(qtbot, window), key)
    return graded


def _ctrl(qtbot: Any, window: Any, key: Qt.Key) -> None:
    """Ctrl+``key`` typed in the grid (a window's shortcut needs its focus)."""
    qtbot.keyClick(_activate(qtbot, window), key, Qt.KeyboardModifier.ControlModifier)


def _saved(qtbot: Any, window: Any, path: Path) -> None:
    qtbot.waitUntil(lambda: window.path == path and not window.session.modified,
                    timeout=10_000)


def test_a_run_and_its_qrels_are_never_replaced_by_save(qtbot: Any, tmp_path: Path,
                                                        save_dialog: SaveDialog, boxes: Boxes):
    from app.main import build_window

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    before = run.read_bytes(), qrels.read_bytes()
    Settings().reviewer = "ana"
    window = _shown(qtbot, build_window(run, qrels=qrels))
    ops = window.file_ops
    assert ops.origin is Origin.RUN
    # The kettle query, ranked: descale (judged 2), limescale, vinegar (unjudged).
    first = _type_grade(qtbot, window, 1, Qt.Key.Key_3)
    second = _type_grade(qtbot, window, 2, Qt.Key.Key_1)
    doc = window.document
    assert [doc.grade[first], doc.grade[second]] == [3.0, 1.0]
    _ctrl(qtbot, window, Qt.Key.Key_S)
    worksheet = tmp_path / "run.xlsx"
    _saved(qtbot, window, worksheet)
    start, filters, selected = save_dialog.asked[0]
    assert start == str(worksheet)  # <name>.xlsx beside the run
    assert save_dialog.titles == ["Save worksheet as (the source run.txt stays as it is)"]
    assert selected == filters.split(";;")[0] == "Excel workbook (*.xlsx)"
    assert boxes.questions == []  # no "Save as TXT?": nothing is written to the run
    assert (run.read_bytes(), qrels.read_bytes()) == before
    book = read_workbook(worksheet)
    assert book.grade[first] == 3.0
    assert book.grade[second] == 1.0
    assert book.source_id[first] == "https://docs.example/kettle/limescale"
    # The window works on the worksheet now: title, recent files, journal, Save.
    assert window.windowTitle().startswith("run.xlsx")
    assert Settings().recent_files[0] == str(worksheet.resolve())
    assert ops.journal.path == real_path(worksheet)
    assert ops.origin is Origin.WORKBOOK
    third = _type_grade(qtbot, window, 0, Qt.Key.Key_0)
    assert Journal.pending(worksheet)
    assert not Journal(run).exists()
    _ctrl(qtbot, window, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: not window.session.modified, timeout=10_000)
    assert len(save_dialog.asked) == 1  # saved in place, no question
    assert read_workbook(worksheet).grade[third] == 0.0
    assert (run.read_bytes(), qrels.read_bytes()) == before


def test_opening_over_a_graded_run_asks_to_save_a_worksheet_not_the_run(
        qtbot: Any, tmp_path: Path, save_dialog: SaveDialog, boxes: Boxes):
    """A run graded, then another file opened or imported over it: the
    question says the changes go to a worksheet and the run stays as it is;
    it asked "Save the changes to run.txt?" (tried under Xvfb, 100,000
    candidates graded), which Save never does, and a reviewer fearing for
    the run would discard the grades. Save then asks where, as Ctrl+S does."""
    from app.main import build_window

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    before = run.read_bytes(), qrels.read_bytes()
    window = _shown(qtbot, build_window(run, qrels=qrels))
    graded = _type_grade(qtbot, window, 1, Qt.Key.Key_3)
    boxes.answers.append(QMessageBox.StandardButton.Save)
    assert window.file_ops.maybe_save()
    assert boxes.questions == [
        "Save the changes in a worksheet? run.txt (the run) stays as it is."]
    worksheet = tmp_path / "run.xlsx"
    _saved(qtbot, window, worksheet)
    assert save_dialog.asked[0][0] == str(worksheet)
    assert read_workbook(worksheet).grade[graded] == 3.0
    assert (run.read_bytes(), qrels.read_bytes()) == before
    # The window works on the worksheet now: the question names it again.
    _type_grade(qtbot, window, 2, Qt.Key.Key_1)
    boxes.answers.append(QMessageBox.StandardButton.Cancel)
    assert not window.file_ops.maybe_save()
    assert boxes.questions[1] == "Save the changes to run.xlsx?"


def test_save_as_and_export_refuse_the_sources_by_any_name(
        qtbot: Any, tmp_path: Path, save_dialog: SaveDialog, boxes: Boxes):
    from app.main import build_window

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    before = run.read_bytes(), qrels.read_bytes()
    window = _shown(qtbot, build_window(run, qrels=qrels))
    ops = window.file_ops
    _type_grade(qtbot, window, 1, Qt.Key.Key_2)
    link = tmp_path / "same-run.txt"
    link.symlink_to(run)
    for chosen in (run, qrels, link):
        save_dialog.answer = chosen
        assert not ops.save_as(blocking=True)
        assert ops.export(chosen) is None
        assert ops.export_qrels(chosen) is None
    assert len(boxes.shown) == 9
    assert all("it is never replaced, nothing was written" in text for text in boxes.shown)
    assert (run.read_bytes(), qrels.read_bytes()) == before
    assert window.path == run
    assert window.session.modified


def test_export_trec_qrels_names_what_qrels_cannot_hold_first(
        qtbot: Any, tmp_path: Path, save_dialog: SaveDialog, boxes: Boxes):
    from app.main import build_window

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    window = _shown(qtbot, build_window(run, qrels=qrels))
    ops = window.file_ops
    graded = _type_grade(qtbot, window, 1, Qt.Key.Key_3)
    window.document.note[graded] = "kept only in the worksheet"
    boxes.answers = [QMessageBox.StandardButton.Cancel]
    ops.actions["export_qrels"].trigger()
    assert save_dialog.asked == []  # Cancel: not even asked where
    lost = boxes.questions[0]
    assert "• 2 candidates not graded (unknown): left out" in lost  # vinegar, wool
    assert "• the ranking (the scores of 5 candidates)" in lost
    assert "• 1 note" in lost
    assert "the audit log (1 entry)" in lost
    boxes.answers = [QMessageBox.StandardButton.Save]
    ops.actions["export_qrels"].trigger()
    out = tmp_path / "qrels-graded.txt"  # beside the qrels, in their own format
    assert save_dialog.asked[0][0] == str(out)
    qtbot.waitUntil(lambda: out.exists() and ops.task is not None and ops.task.done,
                    timeout=10_000)
    assert out.read_text().splitlines() == [
        "1000 0 https://docs.example/kettle/descale 2",
        "1000 0 https://docs.example/kettle/limescale 3",
        "1001 0 https://shop.example/socks/merino 1",
    ]
    assert qrels.read_text() == QRELS
    assert window.path == run


def _form_workbook(path: Path) -> None:
    """A Google Forms responses workbook as Google Sheets downloads it: one
    sheet, "Form Responses 1", a response per row."""
    with open(DATA / "google_forms_responses.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Form Responses 1"
    for row in rows:
        sheet.append(row)
    book.save(path)


def test_an_annotators_workbook_opened_then_saved_stays_as_it_was(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        save_dialog: SaveDialog, boxes: Boxes):
    from app.main import build_window

    form = tmp_path / "form_responses.xlsx"
    _form_workbook(form)
    before = form.read_bytes()
    Settings().reviewer = "ana"
    window = _shown(qtbot, build_window(None))
    ops = window.file_ops
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(form), "")))

    def steps(wizard: Any) -> None:
        _next(qtbot, wizard)
        _next(qtbot, wizard)
        qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
        _finish(qtbot, wizard)

    seen = _drive(monkeypatch, qtbot, steps)
    _ctrl(qtbot, window, Qt.Key.Key_O)
    qtbot.waitUntil(lambda: window.path == form, timeout=10_000)
    assert len(seen) == 1
    assert ops.origin is Origin.ANNOTATORS
    graded = _type_grade(qtbot, window, 0, Qt.Key.Key_3)
    assert window.document.grade[graded] == 3.0
    _ctrl(qtbot, window, Qt.Key.Key_S)
    worksheet = tmp_path / "form_responses-graded.xlsx"  # never the sheet itself
    _saved(qtbot, window, worksheet)
    assert save_dialog.asked[0][0] == str(worksheet)
    assert form.read_bytes() == before
    assert openpyxl.load_workbook(form).sheetnames == ["Form Responses 1"]
    assert read_workbook(worksheet).grade[graded] == 3.0
    assert window.windowTitle().startswith(worksheet.name)


def test_an_annotators_workbook_read_at_launch_is_a_source(
        qtbot: Any, tmp_path: Path, save_dialog: SaveDialog, boxes: Boxes):
    """build_window reads a foreign workbook strictly (no wizard): Save still
    asks, never writing over the responses."""
    from app.main import build_window

    form = tmp_path / "form_responses.xlsx"
    _form_workbook(form)
    before = form.read_bytes()
    window = _shown(qtbot, build_window(form))
    assert window.file_ops.origin is Origin.ANNOTATORS
    graded = _type_grade(qtbot, window, 0, Qt.Key.Key_1)
    assert window.document.state[graded] == GradeState.NUMBER
    save_dialog.answer = tmp_path / "kept" / "mine"  # a name without a suffix, elsewhere
    (tmp_path / "kept").mkdir()
    _ctrl(qtbot, window, Qt.Key.Key_S)
    _saved(qtbot, window, tmp_path / "kept" / "mine.xlsx")
    assert form.read_bytes() == before
    assert read_workbook(tmp_path / "kept" / "mine.xlsx").grade[graded] == 1.0


# -- the format and the name Save chooses (issue 34, item 4) ---------------------------------
def test_the_origin_is_how_the_document_was_read(tmp_path: Path):
    doc = seed_document()
    table = tmp_path / "judged.bin"
    table.write_bytes(b"PAR1" + b"\0" * 16)  # Parquet is told by its bytes, not its name
    assert origin_of(tmp_path / "run.txt", doc, qrels=tmp_path / "q.txt") is Origin.RUN
    assert origin_of(table, doc) is Origin.TABLE
    assert origin_of(tmp_path / "book.xlsx", doc) is Origin.WORKBOOK
    assert origin_of(tmp_path / "book.ods", doc) is Origin.WORKBOOK
    assert origin_of(tmp_path / "sheet.csv", doc) is Origin.WORKSHEET
    packed = tmp_path / "sheet.csv.gz"
    packed.write_bytes(gzip.compress(b"query,source_id,score,grade\n"))
    assert origin_of(packed, doc) is Origin.ARCHIVE  # told by its bytes too
    doc.import_report = object()  # what the import (wizard or strict) attaches
    assert origin_of(tmp_path / "form.xlsx", doc) is Origin.ANNOTATORS
    assert [o.is_source for o in Origin] == [False, False, True, True, True, True]


def test_save_as_proposes_beside_the_file_in_its_own_format(tmp_path: Path):
    import app.file_formats as formats

    def proposed(name: str, origin: Origin) -> str:
        return formats.proposed_save_path(tmp_path / name, origin, tmp_path / "home").name

    assert proposed("run.txt", Origin.RUN) == "run.xlsx"
    assert proposed("judged.parquet", Origin.TABLE) == "judged.xlsx"
    assert proposed("form.xlsx", Origin.ANNOTATORS) == "form-graded.xlsx"  # never itself
    assert proposed("form.ods", Origin.ANNOTATORS) == "form-graded.ods"
    assert proposed("book.ods", Origin.WORKBOOK) == "book.ods"  # .ods stays .ods
    assert proposed("book.xlsx", Origin.WORKBOOK) == "book.xlsx"
    assert proposed("sheet.csv", Origin.WORKSHEET) == "sheet.xlsx"  # the audited workbook
    assert proposed("sheet.csv.gz", Origin.ARCHIVE) == "sheet.xlsx"
    assert formats.proposed_save_path(None, None, tmp_path) == tmp_path / "worksheet.xlsx"
    # TREC qrels: beside the run's qrels in their format, else beside the file as .qrels.
    home = tmp_path / "home"
    assert [formats.proposed_qrels_path(tmp_path / q, tmp_path / "run.txt", home).name
            for q in ("q.txt", "q.qrels", "q.tsv")] == [
        "q-graded.txt", "q-graded.qrels", "q-graded.qrels"]
    assert formats.proposed_qrels_path(None, tmp_path / "book.xlsx", home) == (
        tmp_path / "book.qrels")
    assert formats.proposed_qrels_path(None, None, home) == home / "worksheet.qrels"
    assert formats.save_filters(tmp_path / "book.ods") == (
        [ODS_FILTER, XLSX_FILTER, CSV_FILTER, TSV_FILTER], ODS_FILTER)
    assert formats.save_filters(tmp_path / "run.txt") == (
        [XLSX_FILTER, ODS_FILTER, CSV_FILTER, TSV_FILTER], XLSX_FILTER)
    assert formats.with_suffix(tmp_path / "named", ODS_FILTER) == tmp_path / "named.ods"
    assert formats.can_write(tmp_path / "book.ods")


def test_the_save_dialog_offers_each_workbook_format_core_writes() -> None:
    """One filter per format the export writes, and no other: the dialog's
    list follows core's declaration."""
    import app.file_formats as formats
    from core.io.workbook.targets import WRITTEN_WORKBOOKS

    assert set(formats.WORKBOOK_FILTERS) == set(WRITTEN_WORKBOOKS)


def test_a_parquet_worksheet_opened_then_saved_stays_as_it_was(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        save_dialog: SaveDialog, boxes: Boxes):
    """A Parquet table (told by its bytes, whatever its name) is a source too."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from app.main import build_window

    table = tmp_path / "judged.pq"
    pq.write_table(pa.table({"query": ["a", "a", "b"], "source_id": ["x", "y", "x"],
                             "score": [2.0, 1.0, 1.0], "grade": [1.0, None, 2.0]}), table)
    before = table.read_bytes()
    window = _shown(qtbot, build_window(None))
    ops = window.file_ops
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(table), "")))
    _ctrl(qtbot, window, Qt.Key.Key_O)
    qtbot.waitUntil(lambda: window.path == table, timeout=10_000)
    assert ops.origin is Origin.TABLE
    graded = _type_grade(qtbot, window, 1, Qt.Key.Key_2)
    _ctrl(qtbot, window, Qt.Key.Key_S)
    _saved(qtbot, window, tmp_path / "judged.xlsx")
    assert table.read_bytes() == before
    assert read_workbook(tmp_path / "judged.xlsx").grade[graded] == 2.0


def test_export_proposes_beside_the_file_open(qtbot: Any, tmp_path: Path,
                                              save_dialog: SaveDialog):
    """File > Export proposed the home folder (or the last one a dialog
    saw) for a run given at launch, where Save As proposes beside it: the
    export is proposed beside the file open, ``<name>-export`` in its
    workbook format (a compressed file's name without both suffixes), and
    in the last folder for an untitled worksheet."""
    import app.file_formats as formats
    from app.main import build_window

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    Settings().last_directory = str(tmp_path / "elsewhere")
    window = _shown(qtbot, build_window(run, qrels=qrels))
    window.file_ops.actions["export"].trigger()
    start, _filters, selected = save_dialog.asked[0]
    assert start == str(tmp_path / "run-export.xlsx")
    assert selected == "Excel workbook (*.xlsx)"
    qtbot.waitUntil((tmp_path / "run-export.xlsx").exists, timeout=10_000)
    assert formats.proposed_export_path(tmp_path / "b.ods", tmp_path / "x") == \
        tmp_path / "b-export.ods"
    assert formats.proposed_export_path(tmp_path / "s.csv.gz", tmp_path / "x") == \
        tmp_path / "s-export.xlsx"
    assert formats.proposed_export_path(None, tmp_path / "x") == \
        tmp_path / "x" / "worksheet-export.xlsx"


def test_the_close_question_names_the_document(
        qtbot: Any, tmp_path: Path, save_dialog: SaveDialog, boxes: Boxes):
    """Closing with unsaved changes names what would be lost: a graded run,
    that Save puts the grades in a worksheet and the run stays as it is (it
    asked "This worksheet has unsaved changes. Close anyway?", naming no
    file, over a run that is no worksheet); then the worksheet by name."""
    from app.main import build_window

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    before = run.read_bytes(), qrels.read_bytes()
    window = _shown(qtbot, build_window(run, qrels=qrels))
    _type_grade(qtbot, window, 1, Qt.Key.Key_3)
    boxes.answers.append(QMessageBox.StandardButton.Cancel)
    assert not window.close()
    assert boxes.questions == [
        "The changes to run.txt (the run) are not saved: Save puts them in a worksheet, "
        "run.txt stays as it is. Close anyway?"]
    worksheet = tmp_path / "run.xlsx"
    _ctrl(qtbot, window, Qt.Key.Key_S)  # Save asks where (the run's name, .xlsx)
    _saved(qtbot, window, worksheet)
    _type_grade(qtbot, window, 2, Qt.Key.Key_1)
    boxes.answers.append(QMessageBox.StandardButton.Discard)
    assert window.close()
    assert boxes.questions[1] == "run.xlsx has unsaved changes. Close anyway?"
    assert (run.read_bytes(), qrels.read_bytes()) == before
