"""The item roles the models answer beyond Qt's own."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

__all__ = [
    "ALIGNMENT",
    "BACKGROUND",
    "CANDIDATE_ROLE",
    "CHOICES_ROLE",
    "DISPLAY",
    "EDIT",
    "EDITED_ROLE",
    "FONT",
    "FOREGROUND",
    "LABEL_ROLE",
    "RIGHT_ALIGNED",
    "SORT_ROLE",
    "SPOKEN",
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

#: Qt's roles a view asks of each cell it paints (a model's ``data`` is
#: asked ~7 roles a cell), as plain ints: ``Qt.ItemDataRole.FontRole`` read
#: in ``data`` is an attribute of PySide's enum, ~0.3 us a read, and a role
#: compared with the member costs twice a plain int's compare.
FONT = int(Qt.ItemDataRole.FontRole)
FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
#: Where a cell is, spoken (a screen reader's description).
SPOKEN = int(Qt.ItemDataRole.AccessibleDescriptionRole)
#: The alignment a number's cell answers (right, centred in the row's
#: height), made once: each ``|`` of two flags is a call into Python's enum.
RIGHT_ALIGNED = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
