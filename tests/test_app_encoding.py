"""The editor reads a worksheet CSV's encoding as the annotators' importer
does (a byte order mark, UTF-8, else Windows-1252): a file Excel saved on
Windows opens, the status bar names the encoding, and its menu reopens the
file in another one. The command line stays strict."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox, QToolButton

from app.cli.main import main as cli
from app.encoding_status import install_encoding_status
from core.io.delimited import read_delimited, text_encoding
from core.io.textfile import DETECT
from tests.appboxes import Boxes
from tests.test_app_files import _finish
from tests.test_app_files import _window as _plain_window


def _window(qtbot: Any) -> Any:
    window, ops = _plain_window(qtbot)
    install_encoding_status(window, ops)
    return window, ops

TEXT = ("query,source_id,score,grade,note\r\n"
        "café,Très pertinent,2,1,déjà vu\r\n"
        "café,b€,1,0,\r\n")


@pytest.mark.parametrize(("data", "codec", "shown"), [
    (TEXT.encode("cp1252"), "cp1252", "Windows-1252"),
    (TEXT.encode("utf-8"), "utf-8", "UTF-8"),
    (b"\xef\xbb\xbf" + TEXT.encode("utf-8"), "utf-8-sig", "UTF-8 with BOM"),
    (TEXT.encode("utf-16"), "utf-16", "UTF-16"),
])
def test_a_worksheet_csv_opens_in_the_encoding_its_bytes_show(
        qtbot: Any, tmp_path: Path, data: bytes, codec: str, shown: str) -> None:
    path = tmp_path / "sheet.csv"
    path.write_bytes(data)
    doc = read_delimited(path, encoding=DETECT)
    assert text_encoding(doc) == codec
    assert doc.query_ids == ["café"]
    assert doc.source_id.tolist() == ["Très pertinent", "b€"]
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(path))
    assert window.path == path
    assert window.document.note.tolist() == ["déjà vu", ""]
    button = window.findChild(QToolButton, "encodingButton")
    assert not button.isHidden()
    assert button.text() == f"Encoding: {shown}"


def test_a_windows_file_given_at_launch_opens(qtbot: Any, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from app.main import build_window

    path = tmp_path / "sheet.csv"
    path.write_bytes(TEXT.encode("cp1252"))
    window = build_window(path)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    assert window.path == path  # not the example
    assert window.document.query_ids == ["café"]
    assert window.findChild(QToolButton, "encodingButton").text() == "Encoding: Windows-1252"


def test_the_menu_reopens_the_file_in_another_encoding(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_bytes(TEXT.encode("utf-8"))  # UTF-8, whose bytes Windows-1252 also reads
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(path))
    button = window.findChild(QToolButton, "encodingButton")
    assert button.text() == "Encoding: UTF-8"
    action = next(a for a in button.menu().actions() if a.text() == "Windows-1252")
    action.trigger()
    _finish(qtbot, ops.task)
    assert window.document.query_ids == ["cafÃ©"]  # the same bytes, read as Windows-1252
    assert button.text() == "Encoding: Windows-1252"
    next(a for a in button.menu().actions() if a.text() == "UTF-8").trigger()
    _finish(qtbot, ops.task)
    assert window.document.query_ids == ["café"]
    assert button.text() == "Encoding: UTF-8"


def test_saving_keeps_the_encoding_the_file_was_read_in(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    boxes = Boxes(monkeypatch)
    boxes.answers = [QMessageBox.StandardButton.Save]  # "CSV keeps ... but not the audit log"
    path = tmp_path / "sheet.csv"
    path.write_bytes(TEXT.encode("cp1252"))
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(path))
    button = window.findChild(QToolButton, "encodingButton")
    assert button.text() == "Encoding: Windows-1252"
    assert window.set_grade(0, 2.0)
    assert ops.save(blocking=True)
    assert len(boxes.questions) == 1  # no question about the encoding: it holds everything
    data = path.read_bytes()
    assert data.decode("cp1252").splitlines()[1].startswith("café,Très pertinent,")
    assert "b€" in data.decode("cp1252")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # not turned into UTF-8 behind the user's back
    assert button.text() == "Encoding: Windows-1252"
    back = read_delimited(path, encoding=DETECT)
    assert (text_encoding(back), float(back.grade[0])) == ("cp1252", 2.0)
    assert ops.save_as(tmp_path / "sheet.xlsx", blocking=True)
    QApplication.processEvents()
    assert button.isHidden()


@pytest.mark.parametrize("answer", [QMessageBox.StandardButton.Save,
                                    QMessageBox.StandardButton.Cancel])
def test_a_character_the_encoding_lacks_offers_utf8_with_bom(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        answer: QMessageBox.StandardButton) -> None:
    boxes = Boxes(monkeypatch)
    boxes.answers = [QMessageBox.StandardButton.Save, answer]  # lossy CSV; the encoding
    path = tmp_path / "sheet.csv"
    before = TEXT.encode("cp1252")
    path.write_bytes(before)
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(path))
    window.document.note[1] = "\u0141\u00f3d\u017a"  # Łódź: no Ł in Windows-1252
    assert window.set_grade(0, 2.0)
    saved = ops.save(blocking=True)
    assert len(boxes.questions) == 2
    asked = boxes.questions[1]
    assert "read as Windows-1252" in asked
    assert "the note of query 'café', source 'b€'" in asked
    assert "U+0141" in asked
    assert "UTF-8 with BOM" in asked
    button = window.findChild(QToolButton, "encodingButton")
    if answer == QMessageBox.StandardButton.Cancel:
        assert not saved
        assert path.read_bytes() == before  # nothing written
        assert button.text() == "Encoding: Windows-1252"
        window.session.mark_saved()
        return
    assert saved
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert data.decode("utf-8-sig").splitlines()[2].endswith(",\u0141\u00f3d\u017a,")
    assert button.text() == "Encoding: UTF-8 with BOM"
    back = read_delimited(path, encoding=DETECT)
    assert text_encoding(back) == "utf-8-sig"
    assert back.note.tolist()[1] == "\u0141\u00f3d\u017a"
    assert window.set_grade(1, 3.0)  # the next save keeps UTF-8 with BOM, asking nothing
    assert ops.save(blocking=True)
    assert len(boxes.questions) == 2
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert float(read_delimited(path, encoding=DETECT).grade[1]) == 3.0


def test_the_command_line_stays_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "sheet.csv"
    path.write_bytes(TEXT.encode("cp1252"))
    assert cli(["evaluate", str(path)], out=io.StringIO()) == 2
    assert "is not valid UTF-8" in capsys.readouterr().err
    assert cli(["evaluate", str(path), "--encoding", "cp1252"], out=io.StringIO()) == 0
