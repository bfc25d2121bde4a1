"""A panel whose whole body scrolls in a short or narrow dock."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

__all__ = ["scrolled"]


def scrolled(owner: QWidget, body: QWidget, name: str) -> QScrollArea:
    """``body`` in a frameless scroll area (objectName ``name``) that fills
    ``owner``, its one child in a layout without margins: in a dock too
    short or narrow for it (a 1920x1080 screen at 2x) the panel scrolls
    rather than asking the window for room it does not have."""
    area = QScrollArea(owner)
    area.setObjectName(name)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(body)
    own = QVBoxLayout(owner)
    own.setContentsMargins(0, 0, 0, 0)
    own.addWidget(area)
    return area
