"""Saving respects the file: read-only files, links, files changed on disk
since they were opened, and a crash journal tied to the file it was made on."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.file_formats import write_document
from app.window import MainWindow
from core.io.delimited import read_delimited
from core.io.journal import Journal
from core.model.examples import seed_document
from tests.appboxes import Boxes
from tests.test_app_files import _finish, _grade, _window

Button = QMessageBox.StandardButton


@pytest.fixture
def boxes(boxes: Boxes, monkeypatch: pytest.MonkeyPatch) -> Boxes:
    """The app tests' boxes (tests/appboxes.py), with a warning kept apart
    in ``boxes.warnings`` and answered by the next of ``answers`` (Ok when
    none is left): a refused save warns, then asks."""
    found = boxes
    warnings: list[str] = []

    def warning(parent: Any, title: str, text: str, *args: Any) -> Any:
        warnings.append(text)
        return found.answers.pop(0) if found.answers else Button.Ok

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(warning))
    found.warnings = warnings  # type: ignore[attr-defined]
    return found


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "sheet.xlsx"
    write_document(seed_document(), path)
    return path


def test_a_read_only_file_is_not_replaced_and_save_as_is_offered(
        qtbot: Any, book: Path, boxes: Boxes, monkeypatch: pytest.MonkeyPatch):
    window = _save_refused(qtbot, book, boxes, monkeypatch, lambda: book.chmod(0o444),
                           "the file is read-only; it was not changed")
    assert stat.S_IMODE(book.stat().st_mode) == 0o444
    assert window.session.modified


def _save_refused(qtbot: Any, book: Path, boxes: Boxes, monkeypatch: pytest.MonkeyPatch,
                  block: Callable[[], object], said: str) -> MainWindow:
    """A grade typed in ``book`` opened, the file then ``block``ed: Save
    refuses saying ``said``, offers Save As at the same name (declined
    here), and the file is unchanged."""
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(book))
    _grade(window, 0, 2.5)
    block()
    before = book.read_bytes()
    offered: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(
        lambda *a, **k: (offered.append(a[2]), ("", ""))[1]))
    boxes.answers = [Button.Save]  # "Save a copy under another name?"
    assert not ops.save(blocking=True)
    assert said in boxes.warnings[0]  # type: ignore[attr-defined]
    assert offered == [str(book)]
    assert book.read_bytes() == before
    return window


def test_saving_through_a_link_writes_the_file_and_keeps_the_link(
        qtbot: Any, book: Path, tmp_path: Path, boxes: Boxes):
    link = tmp_path / "link.xlsx"
    link.symlink_to(book)
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(link))
    _grade(window, 0, 2.5)
    assert ops.save(blocking=True)
    assert link.is_symlink()
    assert window.path == link
    from core.io.workbook import read_workbook
    assert read_workbook(book).grade[0] == 2.5


def test_a_file_changed_on_disk_is_not_overwritten_without_asking(
        qtbot: Any, tmp_path: Path, boxes: Boxes):
    sheet = tmp_path / "sheet.csv"
    write_document(seed_document(), sheet)
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    with sheet.open("a") as fh:  # a colleague appends a row
        fh.write("case-A,Z,v1,0.25,2,,\n")
    colleague = sheet.read_bytes()
    boxes.answers = [Button.Cancel]
    assert not ops.save(blocking=True)
    assert "changed on disk since it was opened" in boxes.questions[0]
    assert sheet.read_bytes() == colleague
    assert "Use Save As to keep both" in window.statusBar().currentMessage()
    boxes.answers = [Button.Yes, Button.Save]  # replace it; CSV keeps less: save anyway
    assert ops.save(blocking=True)
    assert read_delimited(sheet).grade[0] == 2.5
    assert len(read_delimited(sheet)) == len(seed_document())


def changed_by_a_colleague(sheet: Path) -> None:
    """A grade of ``sheet`` (the seed document's) changed on disk, the file's
    size kept and its time moved on: only its digest tells it changed."""
    data = sheet.read_bytes()
    assert b"case-A,B,v1,3.0,1.0," in data
    before = sheet.stat()
    sheet.write_bytes(data.replace(b"case-A,B,v1,3.0,1.0,", b"case-A,B,v1,3.0,2.0,", 1))
    os.utime(sheet, ns=(before.st_atime_ns, before.st_mtime_ns + 2_000_000_000))


def test_a_file_changed_while_opened_is_not_overwritten_without_asking(
        qtbot: Any, tmp_path: Path, boxes: Boxes, monkeypatch: pytest.MonkeyPatch):
    """File > Open takes the file's size and time before the read and its
    digest once the worksheet is shown: a row a colleague adds while the
    file is read is not taken for what was read."""
    from app.import_wizard import wizard

    sheet = tmp_path / "sheet.csv"
    write_document(seed_document(), sheet)
    read = wizard.load_unless_foreign

    def read_then_changed(*args: Any) -> Any:
        doc = read(*args)
        changed_by_a_colleague(sheet)  # as the read ends
        return doc

    monkeypatch.setattr(wizard, "load_unless_foreign", read_then_changed)
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    assert len(window.document) == len(seed_document())
    _grade(window, 0, 2.5)
    colleague = sheet.read_bytes()
    boxes.answers = [Button.Cancel]
    assert not ops.save(blocking=True)
    assert "changed on disk since it was opened" in boxes.questions[0]
    assert sheet.read_bytes() == colleague


def test_a_journal_made_on_an_older_file_is_set_aside_not_replayed(
        qtbot: Any, tmp_path: Path, boxes: Boxes):
    sheet = tmp_path / "sheet.csv"
    write_document(seed_document(), sheet)
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)  # journaled; then the session "crashes"
    assert Journal(sheet).is_pending()
    with sheet.open("a") as fh:  # the file changes on disk before the next start
        fh.write("case-A,Z,v1,0.25,2,,\n")
    window2, ops2 = _window(qtbot)
    _finish(qtbot, ops2.open_path(sheet))
    assert boxes.questions == []  # nothing offered to replay over the newer file
    (warning,) = boxes.warnings  # type: ignore[attr-defined]
    assert "changed on disk since they were made, so they were not applied" in warning
    assert window2.document.grade[0] == 1.0
    assert not Journal(sheet).exists()
    kept = list(Journal(sheet).directory.glob("*.stale-*.jsonl"))
    assert len(kept) == 1
    assert str(kept[0]) in warning
    _window3, ops3 = _window(qtbot)  # and never again
    _finish(qtbot, ops3.open_path(sheet))
    assert boxes.questions == []
    assert len(boxes.warnings) == 1  # type: ignore[attr-defined]


def test_the_journal_is_found_by_the_file_s_real_path(qtbot: Any, tmp_path: Path,
                                                        boxes: Boxes):
    sheet = tmp_path / "data" / "sheet.csv"
    sheet.parent.mkdir()
    write_document(seed_document(), sheet)
    link = tmp_path / "link.csv"
    link.symlink_to(sheet)
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(link))  # opened by the link ...
    _grade(window, 0, 2.5)
    boxes.answers = [Button.Yes]
    window2, ops2 = _window(qtbot)
    _finish(qtbot, ops2.open_path(sheet))  # ... reopened by the file (Open Recent)
    assert "has 1 unsaved edit from a session" in boxes.questions[0]
    assert window2.document.grade[0] == 2.5


def test_a_file_open_in_libreoffice_is_not_replaced_and_save_as_is_offered(
        qtbot: Any, book: Path, boxes: Boxes, monkeypatch: pytest.MonkeyPatch):
    # LibreOffice opened it meanwhile: a save of ours would be overwritten by its own
    lock = book.parent / ".~lock.sheet.xlsx#"
    window = _save_refused(
        qtbot, book, boxes, monkeypatch,
        lambda: lock.write_bytes(b",ana,vm,07.12.2026 10:10,file:///p;"),
        "the file is open in LibreOffice by ana; it was not changed")
    assert window.session.modified


def _stale_lock_beside(book: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A lock LibreOffice left beside ``book`` (this user, this machine, its
    profile not running): no LibreOffice runs, as far as /proc says."""
    import getpass
    import socket

    from core.io import atomic

    monkeypatch.setattr(atomic, "libreoffice_profiles", lambda: frozenset())
    lock = book.parent / f".~lock.{book.name}#"
    lock.write_bytes(f",{getpass.getuser()},{socket.gethostname()},07.12.2026 12:53,"
                     "file:///home/me/.config/libreoffice/4;".encode())
    return lock


@pytest.mark.parametrize("click", ["Delete the lock file and save", "Cancel"])
def test_a_lock_file_libreoffice_left_behind_is_named_and_deleted_at_the_user_s_word(
        qtbot: Any, book: Path, monkeypatch: pytest.MonkeyPatch, click: str):
    """Before, Save refused "the file is open in LibreOffice by ana" for a lock
    a crashed LibreOffice left, until the user found and deleted the lock file.
    Now the box says it was left behind and offers to delete it and save."""
    from tests.test_app_additions import _answer

    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(book))
    _grade(window, 0, 2.5)
    lock = _stale_lock_beside(book, monkeypatch)
    before = book.read_bytes()
    seen: list[str] = []
    _answer(qtbot, click, seen)
    assert ops.save(blocking=True) is (click != "Cancel")
    assert len(seen) == 1
    assert seen[0].startswith(f"{book.name} has a lock file beside it (.~lock.{book.name}#) "
                              "that LibreOffice left behind")
    if click == "Cancel":
        assert lock.exists()
        assert book.read_bytes() == before
        assert window.session.modified
    else:
        assert not lock.exists()
        assert book.read_bytes() != before
        assert not window.session.modified
