"""Combo boxes and spin boxes that the mouse wheel changes only when they
have the focus: scrolling a panel over them scrolls the panel (a convention
never changes by a scroll of the wheel)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QWidget

__all__ = ["guard_wheel"]


class _WheelGuard(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget)
                and not watched.hasFocus()):
            # Ignored and filtered: Qt hands the wheel to the parent (the
            # panel's scroll area) instead of the box.
            event.ignore()
            return True
        return False


def guard_wheel(root: QWidget) -> None:
    """Guard every combo box and spin box under ``root`` (call again after
    adding more): they take the focus by click or Tab, not by the wheel, and
    ignore the wheel until focused."""
    guard = root.findChild(_WheelGuard, "wheelGuard")
    if guard is None:
        guard = _WheelGuard(root)
        guard.setObjectName("wheelGuard")
    boxes: list[QWidget] = [*root.findChildren(QComboBox), *root.findChildren(QAbstractSpinBox)]
    for box in boxes:
        if box.property("wheelGuarded"):
            continue
        box.setProperty("wheelGuarded", True)
        box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        box.installEventFilter(guard)
