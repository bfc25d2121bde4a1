"""How statuses and numbers are shown: symbol, word and colour; full precision."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtGui import QFont

from core.engine.evaluation import Status
from core.model.numbers import full_text  # re-exported

__all__ = ["ITALIC", "STATUS_LOOK", "StatusLook", "full_text", "qt_number"]

ITALIC = QFont()
ITALIC.setItalic(True)


@dataclass(frozen=True)
class StatusLook:
    """How a status is shown: a symbol and a word as well as a colour."""

    symbol: str
    text: str
    colour: str

    @property
    def label(self) -> str:
        return f"{self.symbol} {self.text}"


STATUS_LOOK: dict[Status, StatusLook] = {
    Status.OK: StatusLook("✓", "ok", "#1b7f3b"),
    Status.UNDEFINED: StatusLook("∅", "undefined", "#7a5c00"),
    Status.UNRESOLVED: StatusLook("?", "unresolved", "#b3261e"),
}


def qt_number(value: float) -> float | None:
    """A float for Qt, None where the value is not determined (NaN)."""
    value = float(value)
    return None if math.isnan(value) else value

