"""A file's state as it was read, its SHA-256 digest taken on a thread
after the window shows the file (:class:`app.fileops.FileOps`: at launch once
the window is painted, after File > Open once the document is set), so that
Save and the crash journal know the file again without the digest's time on
the read's way or the main thread's."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from core.io.identity import CHANGED, FileState

__all__ = ["DigestLater"]


class DigestLater:
    """The state a file had when ``os.stat`` gave ``then`` (before it was
    read), its digest taken on a thread from :meth:`start` (once the window
    is painted: the 70 MB run's SHA-256 took 0.055 s of the main thread's
    CPU and a core the reading wanted) or when first asked for."""

    def __init__(self, path: Path, then: os.stat_result) -> None:
        self._path, self._then = path, then
        self._box: list[FileState] = []
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._take, name="file-digest", daemon=True)
            self._thread.start()

    def _take(self) -> None:
        self._box.append(FileState.as_of(self._path, self._then))

    def result(self) -> FileState:
        self.start()
        assert self._thread is not None
        self._thread.join()
        if self._box:
            return self._box[0]
        # (the thread failed: a state that only the very size and time match)
        return FileState(self._then.st_size, self._then.st_mtime_ns, CHANGED)
