"""The message boxes an app test sees, recorded instead of shown.

One stand-in for every app test (the ``boxes`` fixture in tests/conftest.py
builds it): a box's ``exec`` and the static ``warning`` record their text in
``shown`` and answer Ok; the static ``question`` records its text in
``questions`` and answers the next of ``answers``, which the test sets
before the step that asks (a question nobody expected fails, naming it,
never waits for a click). Nothing is modal in a test."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox


class Boxes:
    """Message boxes shown (patched: never modal in tests)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.shown: list[str] = []
        self.questions: list[str] = []
        self.answers: list[QMessageBox.StandardButton] = []
        boxes = self

        def exec_(box: QMessageBox) -> int:
            boxes.shown.append(box.text())
            return int(QMessageBox.StandardButton.Ok.value)

        def question(parent: Any, title: str, text: str, *args: Any) -> Any:
            boxes.questions.append(text)
            if not boxes.answers:
                # Raised here, in Python: list.pop's IndexError, raised by
                # C code, crashed the process where the question came from
                # a Qt override (a window's closeEvent) called from Python
                # (shiboken6 6.11's storePythonOverrideErrorOrPrint on such
                # an error: a segmentation fault in PepException_GetArgs).
                raise AssertionError(f"a question nobody expected: {text!r}")
            return boxes.answers.pop(0)

        def warning(parent: Any, title: str, text: str, *args: Any) -> Any:
            boxes.shown.append(text)
            return QMessageBox.StandardButton.Ok

        monkeypatch.setattr(QMessageBox, "exec", exec_)
        monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
        monkeypatch.setattr(QMessageBox, "warning", staticmethod(warning))
