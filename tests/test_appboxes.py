"""The app tests' message boxes (tests/appboxes.py): a question nobody
expected fails the test, naming the question, where Qt asked it from an
override of ours (a window's closeEvent) as well."""

from __future__ import annotations

import re
from typing import Any

import pytest
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QMainWindow, QMessageBox

from tests.appboxes import Boxes


class _Asking(QMainWindow):
    """A window that asks before it closes, as the editor's does."""

    def closeEvent(self, event: QCloseEvent) -> None:
        answer = QMessageBox.question(self, "Unsaved changes", "Close anyway?")
        if answer != QMessageBox.StandardButton.Discard:
            event.ignore()


def test_an_expected_question_gets_its_answer(qtbot: Any, boxes: Boxes) -> None:
    window = _Asking()
    qtbot.addWidget(window)
    window.show()
    boxes.answers = [QMessageBox.StandardButton.Cancel]
    assert not window.close()
    assert boxes.questions == ["Close anyway?"]
    boxes.answers = [QMessageBox.StandardButton.Discard]
    assert window.close()


def test_a_question_nobody_expected_fails_naming_it(qtbot: Any, boxes: Boxes) -> None:
    # (the list's own IndexError, raised by C code inside the closeEvent
    # that Python's close() called, ended the process: a segmentation
    # fault in shiboken6 6.11, where test_app_out_of_memory's File > Open
    # test left its window edited and pytest-qt closed it)
    window = _Asking()
    qtbot.addWidget(window)
    window.show()
    with pytest.raises(AssertionError,
                       match=re.escape("a question nobody expected: 'Close anyway?'")):
        window.close()
    boxes.answers = [QMessageBox.StandardButton.Discard]
    assert window.close()
