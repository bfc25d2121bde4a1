"""How statuses and numbers are shown: symbol, word and colour (every colour
declared once, with its light and dark variant); full precision."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtGui import QBrush, QColor, QFont

from core.engine.evaluation import Status
from core.model.grades import GradeState
from core.model.numbers import full_text  # re-exported

__all__ = ["ITALIC", "LOOK_OF_LABEL", "STATE_TONE", "STATUS_LOOK", "STATUS_TOOLTIP", "TONES",
           "StatusLook", "Tone", "brush", "colour", "dark_in_use", "full_text", "qt_number",
           "use_dark", "warm_brushes"]

ITALIC = QFont()
ITALIC.setItalic(True)


@dataclass(frozen=True)
class Tone:
    """A colour by what it means, for a light and for a dark palette.

    ``kind`` says how it is used: ``text`` (drawn on the palette's
    backgrounds and on every ``background`` tone: WCAG AA, 4.5:1, on all of
    them), ``background`` (under the palette's text: AA too), ``border``
    (a frame around text that reads on its own) or ``graphic`` (a plot's
    bars and lines, on the palette's base and window colours: WCAG's 3:1
    for graphical objects).
    """

    light: str
    dark: str
    kind: str = "text"


#: Every colour the window paints with, declared once; the palette in use
#: picks the variant (:func:`use_dark`). tests/test_app_accessibility.py
#: holds each to WCAG AA on both palettes.
TONES: dict[str, Tone] = {
    "ok": Tone("#16672f", "#6fcf8a"),
    "undefined": Tone("#735600", "#e3b341"),
    "negative": Tone("#8a3b12", "#f2a272"),  # an ideal DCG below 0
    "unresolved": Tone("#b3261e", "#ff9b92"),
    "unranked": Tone("#1f5c99", "#8ab4f8"),  # a query with no ranking
    "error": Tone("#b3261e", "#ff9b92"),
    "muted": Tone("#5c5c5c", "#ababab"),  # unknown grades, values that wait for one
    "unrateable": Tone("#74389a", "#d2a8ee"),
    "formula": Tone("#444444", "#c8c8c8"),
    "outside_rubric": Tone("#ffd8a8", "#4a2f0c", "background"),
    "tie_even": Tone("#e7f0fb", "#1f2e40", "background"),
    "tie_odd": Tone("#d4e4f7", "#2a3e57", "background"),
    "current_level": Tone("#cfe3fa", "#23405f", "background"),  # the guidelines' level
    "win": Tone("#dff3df", "#1d3b24", "background"),
    "loss": Tone("#f9dede", "#4a2424", "background"),
    "open": Tone("#ffe3b3", "#4a3812", "background"),  # a conflict, a disagreement
    "notice": Tone("#fff4ce", "#3b3214", "background"),
    "notice_border": Tone("#e0c060", "#8a7430", "border"),
    "info": Tone("#e8f1fb", "#1b2a3b", "background"),
    "info_border": Tone("#8fb3de", "#4a6e96", "border"),
    # The plots' marks: the list as ranked, its ideal, a mean, a comparison's deltas.
    "plot_actual": Tone("#1f77b4", "#6cb4ee", "graphic"),
    "plot_ideal": Tone("#858585", "#8c8c8c", "graphic"),
    "plot_mean": Tone("#6a3d9a", "#c39bea", "graphic"),
    "plot_loss": Tone("#c62828", "#ff8a80", "graphic"),
    "plot_win": Tone("#2a7f2a", "#6fcf8a", "graphic"),
}

_dark = [False]
_brushes: dict[tuple[str, bool], QBrush] = {}


def use_dark(dark: bool) -> None:
    """Paint with the dark variants (the palette in use is dark) or the light ones."""
    _dark[0] = dark


def dark_in_use() -> bool:
    return _dark[0]


def colour(name: str) -> str:
    """Tone ``name``'s colour for the palette in use ("#rrggbb")."""
    tone = TONES[name]
    return tone.dark if _dark[0] else tone.light


def brush(name: str) -> QBrush:
    """Tone ``name`` as a brush for the palette in use (made once)."""
    key = (name, _dark[0])
    found = _brushes.get(key)
    if found is None:
        found = _brushes[key] = QBrush(QColor(colour(name)))
    return found


def warm_brushes() -> None:
    """Every tone's brush made for the palette in use, ahead of the models'
    first asking: a process's first ``QBrush`` costs PySide ~4 ms (the enum
    classes it makes then), which the editor's window spends while it waits
    for the run read at launch (:mod:`app.main`), not once it arrives."""
    for name in TONES:
        brush(name)


@dataclass(frozen=True)
class StatusLook:
    """How a status is shown: a symbol and a word as well as a colour, and
    the word cut short where a number's width is all there is (the
    Comparison dock's NDCG cells at 1280x800: :meth:`fitting`)."""

    symbol: str
    text: str
    tone: str
    short: str

    @property
    def label(self) -> str:
        return f"{self.symbol} {self.text}"

    def fitting(self, fits: Callable[[str], bool]) -> str:
        """The longest of the status's forms that ``fits`` (the label, the
        word, the short word), else its symbol: never a word cut."""
        return next((f for f in (self.label, self.text, self.short) if fits(f)), self.symbol)

    @property
    def colour(self) -> str:
        """Its colour for the palette in use."""
        return colour(self.tone)


STATUS_LOOK: dict[Status, StatusLook] = {
    Status.OK: StatusLook("✓", "ok", "ok", "ok"),
    Status.UNDEFINED: StatusLook("∅", "undefined", "undefined", "undef."),
    Status.NEGATIVE: StatusLook("<0", "negative", "negative", "neg."),
    Status.UNRESOLVED: StatusLook("?", "unresolved", "unresolved", "unres."),
    Status.UNRANKED: StatusLook("–", "no ranking", "unranked", "no rank"),
}

#: Each status's look by its label (a cell showing "∅ undefined").
LOOK_OF_LABEL: dict[str, StatusLook] = {look.label: look for look in STATUS_LOOK.values()}
#: ... and by its word too (the query navigator's NDCG cell shows "unresolved"),
#: but ok's, which an NDCG cell never shows (it shows the number).
LOOK_OF_SHOWN: dict[str, StatusLook] = {
    **{look.text: look for st, look in STATUS_LOOK.items() if st is not Status.OK},
    **LOOK_OF_LABEL}

#: The tone a grade state's word is shown in, wherever it shows (the grid's
#: grade, a running DCG below an unknown grade, an annotator's grade in the
#: Judges view); a number has none.
STATE_TONE: dict[GradeState, str] = {GradeState.UNKNOWN: "muted",
                                     GradeState.UNRATEABLE: "unrateable"}

#: The Status column's tooltip: every status with its reason.
STATUS_TOOLTIP = "\n".join(f"{STATUS_LOOK[st].label}: {st.reason}" for st in Status)


def qt_number(value: float) -> float | None:
    """A float for Qt, None where the value is not determined (NaN)."""
    value = float(value)
    return None if math.isnan(value) else value
