"""Every writer of the editor makes Save's offer for a LibreOffice lock file
left behind (app.save_checks.stale_locks_cleared): Export, Export TREC
qrels and Review > Merge, where they only said which file to delete."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from app.file_formats import write_document
from app.review.rounds import RoundsController
from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook, read_workbook
from core.model.examples import seed_document
from tests.test_app_additions import _answer
from tests.test_app_files import _finish, _window
from tests.test_app_rounds import controller
from tests.test_app_saving import _stale_lock_beside
from tests.test_rounds import base_doc
from tests.test_rounds_files import edit_grades, unknown_of

pytestmark = pytest.mark.usefixtures("never_block")

DELETE = "Delete the lock file and {0}"


@pytest.mark.parametrize("click", ["export", "Cancel"])
@pytest.mark.parametrize("suffix", [".xlsx", ".qrels"])
def test_export_offers_to_delete_a_lock_file_left_behind(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, click: str,
        suffix: str) -> None:
    """Before: "Could not export: ... delete .~lock.copy.xlsx# and try again",
    the only way on (fails before: no box, the export refused)."""
    book = tmp_path / "sheet.xlsx"
    write_document(seed_document(), book)
    _, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(book))
    target = tmp_path / f"copy{suffix}"
    target.write_text("an older export\n")
    lock = _stale_lock_beside(target, monkeypatch)
    errors: list[str] = []
    monkeypatch.setattr("app.exports.show_error",
                        lambda _w, _t, exc: errors.append(str(exc)))
    seen: list[str] = []
    _answer(qtbot, DELETE.format("export") if click == "export" else click, seen)
    task = (ops.export_qrels if suffix == ".qrels" else ops.export)(target)
    assert len(seen) == 1
    assert seen[0].startswith(f"copy{suffix} has a lock file beside it (.~lock.copy{suffix}#) "
                              "that LibreOffice left behind")
    assert seen[0].endswith("Delete the lock file and export?")
    if click == "Cancel":
        assert task is None
        assert lock.exists()
        assert target.read_text() == "an older export\n"
        return
    _finish(qtbot, task)
    assert errors == []
    assert not lock.exists()
    assert target.read_bytes() != b"an older export\n"


def test_merge_offers_to_delete_a_lock_file_left_behind(
        qtbot: Any, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The merged workbook's lock left behind: the dialog said "... delete
    .~lock.merged.xlsx# and try again" (fails before: no box, nothing merged)."""
    base = tmp_path / "base.xlsx"
    export_workbook(evaluate(base_doc([3, 2], seed=4)), base)
    doc = read_workbook(base)
    window.set_document(doc)
    q = doc.query_ids[0]
    s = unknown_of(doc, q)
    copies = [tmp_path / "ana.xlsx", tmp_path / "ben.xlsx"]
    for path, grades in zip(copies, ({(q, s[0]): 1}, {(q, s[1]): 3}), strict=True):
        shutil.copy(base, path)
        edit_grades(path, grades)
    merged = tmp_path / "merged.xlsx"
    shutil.copy(base, merged)  # (replaced: Replace ticked)
    lock = _stale_lock_beside(merged, monkeypatch)
    dialog = controller(window, RoundsController).show_merge()
    dialog.files.addItems([str(p) for p in copies])
    dialog.output.setText(str(merged))
    dialog.replace.setChecked(True)
    seen: list[str] = []
    _answer(qtbot, DELETE.format("merge"), seen)
    dialog.button_box.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.error.text() == ""
    qtbot.waitUntil(lambda: window.path == merged, timeout=20000)
    assert len(seen) == 1
    assert seen[0].endswith("Delete the lock file and merge?")
    assert not lock.exists()


def test_hand_out_again_offers_to_delete_a_lock_file_left_behind(
        qtbot: Any, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reviewer's workbook still as handed out, its lock left behind: the
    hand-out again said "... delete .~lock.untitled-ben.xlsx# and try again"
    in its error line (fails before: no box, nothing written)."""
    window.set_document(base_doc([3, 2, 4], seed=2))
    rounds = controller(window, RoundsController)
    folder = tmp_path / "round"
    rounds.hand_out(["ana", "ben"], 0.0, 0, str(folder))
    qtbot.waitUntil(lambda: rounds.last_hand_out is not None, timeout=20000)
    ben = folder / "untitled-ben.xlsx"
    lock = _stale_lock_beside(ben, monkeypatch)
    before = ben.stat().st_mtime_ns
    rounds.last_hand_out = None
    seen: list[str] = []
    _answer(qtbot, DELETE.format("hand out"), seen)
    rounds.hand_out(["ana", "ben"], 0.0, 0, str(folder))
    qtbot.waitUntil(lambda: rounds.last_hand_out is not None, timeout=20000)
    assert len(seen) == 1
    assert seen[0].startswith("untitled-ben.xlsx has a lock file beside it")
    assert not lock.exists()
    assert ben.stat().st_mtime_ns != before
