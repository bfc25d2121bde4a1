"""The summary's per-cutoff table: one query's DCG, ideal DCG and NDCG at every k."""

from __future__ import annotations

import math
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from app.models.looks import STATUS_LOOK, STATUS_TOOLTIP, brush, full_text
from app.models.roles import DISPLAY, RIGHT_ALIGNED, SORT_ROLE, TOOLTIP, Index
from core.engine.evaluation import Evaluation
from core.model.conventions import format_cutoff

__all__ = ["CutoffColumn", "CutoffResultsModel"]


def _same(a: Any, b: Any) -> bool:
    """Two numbers are the same (NaN is the same as NaN)."""
    return bool(a == b) or (a != a and b != b)


class CutoffColumn(IntEnum):
    K = 0
    DCG = 1
    IDCG = 2
    NDCG = 3
    STATUS = 4


class CutoffResultsModel(QAbstractTableModel):
    """One query's DCG, ideal DCG and NDCG at every declared cutoff."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._ev: Evaluation | None = None
        self._q = -1

    def set_query(self, ev: Evaluation, q: int) -> None:
        if self._ev is None or len(ev.cutoffs) != self.rowCount() or q < 0 or self._q < 0:
            self.beginResetModel()
            self._ev, self._q = ev, q
            self.endResetModel()
            return
        old, same_query = self._ev, q == self._q and self._ev is not None
        self._ev, self._q = ev, q
        last = len(CutoffColumn) - 1
        for j in range(self.rowCount()):
            # Only rows whose numbers or status changed are repainted.
            if same_query and old is not None and old.cutoffs[j] == ev.cutoffs[j] and all(
                    _same(a[q, j], b[q, j]) for a, b in (
                        (old.dcg, ev.dcg), (old.idcg, ev.idcg), (old.ndcg, ev.ndcg),
                        (old.status_code, ev.status_code))):
                continue
            self.dataChanged.emit(self.index(j, 0), self.index(j, last))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._ev is None or self._q < 0:
            return 0
        return len(self._ev.cutoffs)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(CutoffColumn)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(CutoffColumn):
            return None
        col = CutoffColumn(section)
        if role == DISPLAY:
            return ("k", "DCG", "IDCG", "NDCG", "Status")[col]
        if role == TOOLTIP:
            return (
                "the cutoff; the same k cuts the actual and the ideal list",
                "DCG@k = sum over ranks r ≤ k of gain × discount(r)",
                "IDCG@k, the ideal DCG@k: DCG@k of the ideal list (gains sorted highest "
                "first)",
                "NDCG@k = DCG@k / ideal DCG@k",
                STATUS_TOOLTIP,
            )[col]
        return None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        ev = self._ev
        if ev is None or not index.isValid():
            return None
        q, j, col = self._q, index.row(), CutoffColumn(index.column())
        status = ev.status(q, j)
        look = STATUS_LOOK[status]
        if role in (DISPLAY, SORT_ROLE):
            if col is CutoffColumn.K:
                return format_cutoff(ev.cutoffs[j])
            if col is CutoffColumn.STATUS:
                return look.label
            value = (ev.dcg, ev.idcg, ev.ndcg)[col - 1][q, j]
            if math.isnan(value):
                # The status's symbol (its word is in the Status column of the
                # same row, its reason on hover): the words in every column
                # made the table too wide for its dock at 1280x800.
                return look.symbol
            return float(value)
        if role == TOOLTIP:
            value = None if col is CutoffColumn.K else (ev.dcg, ev.idcg, ev.ndcg)[col - 1][q, j]
            if col is CutoffColumn.STATUS or (value is not None and math.isnan(value)):
                return status.reason
            if col is not CutoffColumn.K:
                return full_text((ev.dcg, ev.idcg, ev.ndcg)[col - 1][q, j])
        if role == Qt.ItemDataRole.TextAlignmentRole and col is not CutoffColumn.STATUS:
            # (the cutoffs and the numbers, a status's symbol in their place too)
            return RIGHT_ALIGNED
        if role == Qt.ItemDataRole.ForegroundRole and (
                col in (CutoffColumn.STATUS, CutoffColumn.NDCG)
                or (col is not CutoffColumn.K
                    and math.isnan((ev.dcg, ev.idcg, ev.ndcg)[col - 1][q, j]))):
            return brush(look.tone)
        return None
