"""The crash journals a window's unsaved edits are in (:mod:`core.io.journal`):
the one its edits are written to, and those a recovery took edits from
(:func:`app.recovery.recover`), cleared with it when the user's Save or
Discard covers them. Kept by :class:`app.fileops.FileOps`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from core.io.identity import FileState, real_path
from core.io.journal import Journal

if TYPE_CHECKING:
    from app.recovery import Recovered
    from core.model.document import Document

__all__ = ["Journaling"]


class Journaling:
    """The journals of one window's document.

    Parameters
    ----------
    path : Path or None
        The document's file (None: untitled).
    base : FileState or None
        The file as the document was read (None while its digest is taken:
        given before the first line is written).
    """

    def __init__(self, path: Path | None, base: FileState | None) -> None:
        self.journal = self._new(path, base)
        #: The journals before :attr:`journal` whose edits the window holds,
        #: recovered: the user's Save or Discard clears them with it.
        self.recovered_from: list[Journal] = []

    @staticmethod
    def _new(path: Path | None, base: FileState | None) -> Journal:
        # Written and flushed at once (survives a crash of the app), forced
        # to disk by a helper thread so an edit never waits for the disk.
        return Journal(path, background_fsync=True, base=base)

    def follow(self, path: Path | None, base: FileState | None) -> None:
        """The journal of the window's path (a new one when the path changed)."""
        if self.journal.path != (real_path(path) if path else None):
            self.journal.close()
            self.journal = self._new(path, base)

    def after(self, recovery: Recovered) -> None:
        """With edits a recovery could not replay kept in the journals (where
        its message says they are, until the user opens the file again or
        saves over them), the window's edits go to a journal of their own.
        With edits recovered, they go on in the last journal they came from
        (a crash then replays them after the rest): a Save or a Discard
        clears it and those before it."""
        self.recovered_from = []
        if recovery.kept:
            self.journal.close()
            self.journal = self.journal.elsewhere()
        elif recovery.recovered:
            *self.recovered_from, last = recovery.journals
            self.journal.close()
            self.journal.file = last.file

    def discard(self) -> None:
        """The window's edits discarded: never offered back."""
        self.journal.clear()
        self._clear_recovered()

    def saved(self, path: Path | None, base: FileState | None) -> None:
        """The document was saved (to ``path`` when it moved there): later
        edits are journaled against ``base``; the edits recovered are in the
        file now."""
        if path is not None:
            self.journal.move_to(path, base)
        else:
            self.journal.rebase(base)
        self._clear_recovered()

    def close(self, as_saved: Document | None = None) -> None:
        """The window closed: its journal's file closed and its helper
        thread ended and joined, never started again. ``as_saved``: the
        window's document when it closed unmodified (as its file holds it):
        a journal whose edits were all undone, or saved, is removed
        (:meth:`Journal.clear_if_nothing`); any other stays on disk, offered
        at the next open if it holds unsaved edits."""
        self.journal.close_for_good()
        if as_saved is not None:
            self.leaving(as_saved)

    def leaving(self, as_saved: Document) -> None:
        """The window's document, unmodified (as its file holds it), is
        closed or about to be replaced by another file's: its journal is
        removed when its edits were all undone, or saved
        (:meth:`Journal.clear_if_nothing`)."""
        if not self.recovered_from:
            self.journal.clear_if_nothing(as_saved)

    def _clear_recovered(self) -> None:
        for journal in self.recovered_from:
            journal.clear()
        self.recovered_from = []
