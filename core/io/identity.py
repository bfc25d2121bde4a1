"""What a file on disk was when it was read, to tell later whether someone
else changed it.

The editor keeps the :class:`FileState` of the file it opened (or last
saved): Save asks before writing over a file changed on disk since, and the
crash journal records it, so that edits journaled against one version of a
file are never replayed over another. Paths are compared by their real path,
so a file opened through a symbolic link and later by its target (as Open
Recent stores it) is one file.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

__all__ = ["CHANGED", "DigestLater", "FileState", "real_path"]

_PIECE = 1 << 20

#: The digest of a state whose file changed before its digest was taken: no
#: content's (a SHA-256 is 64 hexadecimal digits).
CHANGED = "changed before its digest was taken"


def real_path(path: str | Path) -> Path:
    """``path`` absolute, with every symbolic link resolved (the file itself)."""
    return Path(os.path.realpath(path))


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as fh:
        while piece := fh.read(_PIECE):
            sha.update(piece)
    return sha.hexdigest()


@dataclass(frozen=True)
class FileState:
    """A file's size, modification time and content digest at one moment.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "a.csv").write_text("query,source_id\\n")
    16
    >>> state = FileState.of(folder / "a.csv")
    >>> state.matches(folder / "a.csv")
    True
    >>> _ = (folder / "a.csv").write_text("query,source_id\\nq,d\\n")
    >>> state.matches(folder / "a.csv")
    False
    """

    size: int
    mtime_ns: int
    digest: str

    @classmethod
    def of(cls, path: str | Path) -> FileState | None:
        """The state of ``path`` now; None when it cannot be read."""
        try:
            st = os.stat(path)
            return cls(st.st_size, st.st_mtime_ns, _digest(Path(path)))
        except OSError:
            return None

    @classmethod
    def as_of(cls, path: str | Path, then: os.stat_result) -> FileState:
        """The state ``path`` had when ``os.stat`` gave ``then`` (taken before
        it was read), its digest taken now: when the file's size or time
        differ once the digest is taken (or it cannot be read), it changed
        since, and the state's digest is one no content has, so that only
        the very size and time of ``then`` still match it.

        Examples
        --------
        >>> import tempfile
        >>> path = Path(tempfile.mkdtemp()) / "a.csv"
        >>> _ = path.write_text("query,source_id\\n")
        >>> then = os.stat(path)
        >>> FileState.as_of(path, then) == FileState.of(path)
        True
        >>> _ = path.write_text("query,source_id\\nq,d\\n")
        >>> FileState.as_of(path, then).matches(path)
        False
        """
        size, mtime = then.st_size, then.st_mtime_ns
        try:
            digest = _digest(Path(path))
            now = os.stat(path)
        except OSError:
            return cls(size, mtime, CHANGED)
        if (now.st_size, now.st_mtime_ns) != (size, mtime):
            return cls(size, mtime, CHANGED)
        return cls(size, mtime, digest)

    def matches(self, path: str | Path) -> bool:
        """Whether ``path`` holds the same content as when this state was taken
        (a file only touched, same bytes, still matches)."""
        try:
            st = os.stat(path)
        except OSError:
            return False
        if st.st_size != self.size:
            return False
        if st.st_mtime_ns == self.mtime_ns:
            return True
        try:
            return _digest(Path(path)) == self.digest
        except OSError:
            return False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> FileState | None:
        """Read :meth:`to_dict`'s output back; None for anything else."""
        if not isinstance(data, dict):
            return None
        try:
            size, mtime, digest = data["size"], data["mtime_ns"], data["digest"]
        except KeyError:
            return None
        if not (isinstance(size, int) and isinstance(mtime, int) and isinstance(digest, str)):
            return None
        return cls(size, mtime, digest)


class DigestLater:
    """:meth:`FileState.as_of` ``path`` and ``then`` (its ``os.stat`` before
    it was read), the digest taken on a thread from :meth:`start` or when
    first asked for: the editor starts it once its window is painted (the
    70 MB run's SHA-256 took 0.055 s of the main thread's CPU and a core the
    reading wanted).

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "a.csv"
    >>> _ = path.write_text("query,source_id\\n")
    >>> later = DigestLater(path, os.stat(path))
    >>> later.start()
    >>> later.result() == FileState.of(path)
    True
    """

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
