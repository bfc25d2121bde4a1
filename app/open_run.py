"""File > Open of a run: a TREC run or ranx's / pytrec_eval's JSON run is
read with its qrels, as ``evaluate RUN --qrels QRELS`` reads it, so Open
asks for them (a drop and Open Recent too: they open through
:meth:`app.fileops.FileOps.open_path`)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from app.file_formats import QRELS_OPEN_FILTER
from app.opening import needs_qrels

__all__ = ["ask_for_qrels", "needs_qrels"]  # (needs_qrels: app.opening, Qt-free)


def ask_for_qrels(parent: QWidget, run: Path) -> Path | None:
    """The qrels the user chooses for ``run`` (None: cancelled)."""
    title = QCoreApplication.translate("FileOps", "Open the qrels of {0}").format(run.name)
    name, _ = QFileDialog.getOpenFileName(parent, title, str(run.parent), QRELS_OPEN_FILTER)
    return Path(name) if name else None
