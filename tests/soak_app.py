"""Drive the editor as a reviewer would for a long session, in its own process.

``python tests/soak_app.py --edits 5000`` opens the window on the bundled
example, types grades with real key clicks (digits, U, Ctrl+Z, Ctrl+Shift+Z,
Ctrl+Down to the next query), checks the document against an independent
model of the undo history, and exits 0. ``--save PATH`` also saves the
audited workbook through File > Save As, reopens it, checks the grades, and
closes the window with the close button's path (``close()``).

It exists because a PySide6 release (6.12.0 on Python 3.11) dropped a
reference to a Python bool on every ``dataChanged`` emission, and the process
aborted (``Fatal Python error: bool_dealloc``, exit 134) after a few hundred
edits or at exit: only a long session in a fresh process that must end with
status 0 shows it. ``tests/test_soak.py`` runs it; ``.ci/run`` runs it under
every other Python the machine has. Nothing beyond the project's own
dependencies is needed (no pytest, no pytest-qt).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Settings and the crash journal go to a throw-away home unless the caller
# chose one (the test passes its own temporary folder).
if "NDCG_SOAK_KEEP_HOME" not in os.environ:
    _home = tempfile.mkdtemp(prefix="ndcg-soak-")
    for _var, _sub in (("HOME", ""), ("XDG_CONFIG_HOME", ".config"),
                       ("XDG_DATA_HOME", ".local/share"), ("XDG_STATE_HOME", ".local/state")):
        os.environ[_var] = str(Path(_home, _sub))

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

Grade = tuple[float | None, str]  # (number or None, state)

_KEYS = {Qt.Key.Key_0: 0.0, Qt.Key.Key_1: 1.0, Qt.Key.Key_2: 2.0, Qt.Key.Key_3: 3.0}
_CTRL = Qt.KeyboardModifier.ControlModifier
_SHIFT = Qt.KeyboardModifier.ShiftModifier


def _state_name(doc, index: int) -> str:  # type: ignore[no-untyped-def]
    from core.model.document import GradeState

    return GradeState(int(doc.state[index])).name.lower()


def current(doc, index: int) -> Grade:  # type: ignore[no-untyped-def]
    value = float(doc.grade[index])
    return (None if math.isnan(value) else value, _state_name(doc, index))


class StackModel:
    """What the undo history should hold: a list of (index, before, after) and
    how many of them are done."""

    def __init__(self) -> None:
        self.steps: list[tuple[int, Grade, Grade]] = []
        self.done = 0

    def push(self, index: int, before: Grade, after: Grade) -> None:
        if before == after:
            return
        del self.steps[self.done:]
        self.steps.append((index, before, after))
        self.done += 1

    def undo(self, grades: dict[int, Grade]) -> None:
        if self.done:
            self.done -= 1
            index, before, _ = self.steps[self.done]
            grades[index] = before

    def redo(self, grades: dict[int, Grade]) -> None:
        if self.done < len(self.steps):
            index, _, after = self.steps[self.done]
            grades[index] = after
            self.done += 1


def soak(window, edits: int, seed: int) -> None:  # type: ignore[no-untyped-def]
    """``edits`` key clicks on the grid; the document must follow the model."""
    from app.models.candidates import GridColumn

    rng = random.Random(seed)
    doc = window.document
    grades = {i: current(doc, i) for i in range(len(doc.source_id))}
    model = StackModel()
    grid = window.grid
    for step in range(edits):
        grid.setFocus()
        roll = rng.random()
        if roll < 0.06:
            QTest.keyClick(grid, Qt.Key.Key_Z, _CTRL)
            model.undo(grades)
        elif roll < 0.10:
            QTest.keyClick(grid, Qt.Key.Key_Z, _CTRL | _SHIFT)
            model.redo(grades)
        elif roll < 0.13:
            QTest.keyClick(grid, Qt.Key.Key_Down, _CTRL)  # next query
        else:
            rows = window.grid_model.rowCount()
            if rows == 0:
                QTest.keyClick(grid, Qt.Key.Key_Down, _CTRL)
                continue
            row = rng.randrange(rows)
            grid.setCurrentIndex(window.grid_model.index(row, GridColumn.GRADE))
            index = window.grid_model.candidate(row)
            key = rng.choice([*_KEYS, Qt.Key.Key_U])
            after: Grade = (_KEYS[key], "number") if key in _KEYS else (None, "unknown")
            QTest.keyClick(grid, key)
            model.push(index, grades[index], after)
            grades[index] = after
        if step % 500 == 0:
            QApplication.processEvents()
    QApplication.processEvents()
    wrong = {i: (current(doc, i), g) for i, g in grades.items() if current(doc, i) != g}
    if wrong:
        raise SystemExit(f"soak: the document differs from the model: {wrong}")
    if window.session.position != model.done:
        raise SystemExit(f"soak: history at {window.session.position}, model at "
                         f"{model.done}")


def save_and_reopen(window, path: Path) -> None:  # type: ignore[no-untyped-def]
    """File > Save As to ``path`` (blocking), then read it back."""
    from core.io.load import load_document

    doc = window.document
    if not window.file_ops.save_as(path, blocking=True):
        raise SystemExit(f"soak: saving {path} failed")
    back = load_document(path)
    wrong = [i for i in range(len(doc.source_id)) if current(back, i) != current(doc, i)]
    if wrong:
        raise SystemExit(f"soak: {len(wrong)} grades differ after reopening {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--save", type=Path, help="save the workbook here, reopen, check")
    args = parser.parse_args(argv)

    app = QApplication([sys.argv[0]])
    from app.main import build_window
    from app.settings import Settings, ensure_identity

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    ensure_identity()
    Settings().reviewer = "soak"
    # A close that would ask keeps the answer a person gives after saving.
    QMessageBox.question = staticmethod(  # type: ignore[method-assign]
        lambda *a, **k: QMessageBox.StandardButton.Discard)
    window = build_window(None)
    window.resize(1280, 800)
    window.show()
    QApplication.processEvents()
    soak(window, args.edits, args.seed)
    if args.save is not None:
        save_and_reopen(window, args.save)
    window.close()
    QApplication.processEvents()
    del window
    app.quit()
    print(f"soak: {args.edits} key clicks, document matches the model")
    return 0


if __name__ == "__main__":
    sys.exit(main())
