"""The item roles the models answer beyond Qt's own."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

__all__ = [
    "CANDIDATE_ROLE",
    "CHOICES_ROLE",
    "DISPLAY",
    "EDIT",
    "EDITED_ROLE",
    "LABEL_ROLE",
    "SORT_ROLE",
    "TIE_ROLE",
    "TOOLTIP",
    "WHOLE_ROLE",
    "Index",
]

Index = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
EDIT = Qt.ItemDataRole.EditRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
#: A plain value to sort by (numbers; undetermined values sort first).
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
#: Where a ranked row sits in its tie group: "first", "middle", "last" or None.
TIE_ROLE = Qt.ItemDataRole.UserRole + 2
#: The candidate's row index in the document.
CANDIDATE_ROLE = Qt.ItemDataRole.UserRole + 3
#: The rubric label of a numeric grade ("" when it has none).
LABEL_ROLE = Qt.ItemDataRole.UserRole + 4
#: The grades a grade editor offers: [(text, grade or None, state)].
CHOICES_ROLE = Qt.ItemDataRole.UserRole + 5
#: A cell's text whole, where DisplayRole cuts a long one (:mod:`app.shown`):
#: what a copy takes.
WHOLE_ROLE = Qt.ItemDataRole.UserRole + 6
#: The digits after the point a score needs to be told apart from the scores
#: above and below it that differ from it (0: none needed; a tie shows equal).
DIGITS_ROLE = Qt.ItemDataRole.UserRole + 7
#: Whether a candidate's grade differs from its original (the grade cell
#: marks it, :data:`core.engine.columns.EDITED_MARK`).
EDITED_ROLE = Qt.ItemDataRole.UserRole + 8
