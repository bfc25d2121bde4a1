"""The edits a crash left, recovered when a file opens: its crash journal
(:mod:`core.io.journal`) replayed into the document read, if the user says
so, all of them and their evaluation or none (:func:`recover`). Called by
:class:`app.fileops.FileOps` at File > Open and for a window built on a file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from app.opening import memory_said
from app.shown import boxed
from app.workers import show_error
from core.errors import InputError
from core.io.journal import Journal
from core.model.document import Document
from core.model.edits import Kept
from core.model.numbers import counted

if TYPE_CHECKING:
    from core.engine.evaluation import Evaluation

__all__ = ["recover"]



class Recovered(NamedTuple):
    """What :func:`recover` did: whether edits were recovered, the
    document's evaluation then (None: not worked out), whether the
    journals keep edits not recovered (memory ran out replaying them: the
    window journals its new edits elsewhere, :meth:`Journal.elsewhere`),
    and the journals whose edits were recovered, in the order written (the
    window's edits go on in the last; a Save or a Discard clears them all)."""

    recovered: bool
    evaluation: Evaluation | None
    kept: bool = False
    journals: tuple[Journal, ...] = ()


def _tr(text: str) -> str:
    return QCoreApplication.translate("FileOps", text)


def recover(parent: QWidget, doc: Document, path: Path) -> Recovered:
    """Ask, then replay ``path``'s pending journals (its own, then each
    written while it kept edits not recovered: :meth:`Journal.written`)
    into ``doc``, or discard them; a journal made on an earlier version of
    the file is set aside. Whether edits were recovered, and ``doc``'s
    evaluation then (None: not worked out)."""
    recovered = Recovered(False, None)
    journals = Journal.written(path)
    stale = [j for j in journals if j.is_stale()]
    if stale:
        n = sum(len(j.entries()) for j in stale)
        aside = ", ".join(str(j.set_aside()) for j in stale)
        QMessageBox.warning(
            parent, _tr("Unsaved edits not recovered"),
            boxed(_tr("{0} has {1} from a session that ended without saving, "
                      "but the file changed on disk since they were made, so they "
                      "were not applied to it. They are kept in {2}.").format(
                path.name, _edits(n), aside)))
    pending = tuple(j for j in journals if j.is_pending())
    if pending and _nothing_to_recover(pending, doc):
        for journal in pending:  # (edits undone before a close or a crash)
            journal.clear()
    elif pending:
        n = sum(len(j.entries()) for j in pending)
        answer = QMessageBox.question(
            parent, _tr("Recover unsaved edits?"),
            boxed(_tr("{0} has {1} from a session that ended without saving. "
                      "Recover them?").format(path.name, _edits(n))),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )
        if answer == QMessageBox.StandardButton.Yes:
            recovered = _replay(parent, pending, doc, path)
        else:
            for journal in pending:
                journal.clear()
    for journal in journals:
        journal.close()
    return recovered


def _replay(parent: QWidget, journals: tuple[Journal, ...], doc: Document,
            path: Path) -> Recovered:
    """Every edit of ``journals`` applied to ``doc`` in turn and evaluated,
    or none: memory running out on the way puts ``doc`` back as read and
    says so (the journals kept for the next time the file is opened)."""
    from core.engine.evaluation import evaluate

    try:
        kept = Kept(doc)
        try:
            result = Journal.replay_all(journals, doc, kept)
            ev = evaluate(doc) if result.applied else None
        except MemoryError:
            kept.put_back()
            raise
    except MemoryError as exc:
        QMessageBox.warning(parent, _tr("Unsaved edits not recovered"), boxed(
            f"{memory_said(exc, path, to='recover its unsaved edits', again='open it')}"
            "\n\n" + _tr("It opens as it was saved; the edits stay in its crash journal: "
                         "open it again before saving it to recover them.")))
        return Recovered(False, None, kept=True)
    except InputError:  # (a grade its conventions refuse: the window says it)
        ev = None
    if result.skipped:
        show_error(parent, _tr("Recovery"), InputError(
            f"{len(result.skipped)} journal entries could not be applied "
            f"({result.skipped[0]})", file=str(path)))
    return Recovered(result.applied > 0, ev, journals=journals)


def _nothing_to_recover(journals: tuple[Journal, ...], doc: Document) -> bool:
    """Whether replaying ``journals`` would change nothing in ``doc`` (not
    known when memory runs out finding it: offered then, as any)."""
    try:
        return Journal.changes_nothing(journals, doc)
    except MemoryError:
        return False


def _edits(n: int) -> str:
    return counted(n, "unsaved edit")
