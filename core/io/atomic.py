"""Write files so that the previous version survives any failure.

The new content goes to a temporary file beside the target, is forced to
disk, then replaces the target in one step. The target is the file itself:
a symbolic link is followed (the link stays a link to the updated file), the
file's permissions are kept, and a file whose write permission is off, or
that an office program holds open (its lock file beside it), is refused
rather than silently replaced.
"""

from __future__ import annotations

import contextlib
import errno
import getpass
import io
import os
import platform
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.errors import InputError, StaleLock
from core.io.identity import real_path
from core.io.stop import Stopped
from core.io.stop import check as check_stopped

__all__ = ["FirstErrorOnly", "atomic_write", "atomic_write_text", "check_writable", "held_by",
           "libreoffice_profiles", "lock_fields", "remove_stale_lock", "stale_lock",
           "write_reason"]

_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the disk is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOENT: "the folder is gone",
    errno.EFBIG: "the file is larger than this system allows",
}


def _os_error(exc: BaseException) -> OSError | None:
    """The operating system's error behind ``exc`` (a writer library may wrap it)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def write_reason(exc: OSError) -> str:
    """Why a write failed, in words (a full disk, a read-only disk, ...)."""
    return _REASONS.get(exc.errno or 0, exc.strerror or str(exc))


#: The lock files an office program keeps beside a file it holds open, by
#: program: LibreOffice's ``.~lock.NAME#`` (on every system), Excel's owner
#: file ``~$NAME`` (seen on a shared folder a colleague's Excel has it open in).
_LOCK_FILES = (("LibreOffice", ".~lock.{}#"), ("Excel", "~${}"))


def held_by(path: str | Path) -> tuple[str, str, Path] | None:
    """The office program holding ``path`` open, who (a name, or ""), and its
    lock file; None when no lock file lies beside it. LibreOffice writes
    ``,user,host,date,profile;`` (the first field the user's full name, when
    set); Excel a length byte and the user's name."""
    target = real_path(path)
    for program, pattern in _LOCK_FILES:
        lock = target.with_name(pattern.format(target.name))
        try:
            head = lock.read_bytes()[:512]
        except OSError:
            continue
        if program == "LibreOffice":
            fields = lock_fields(head)
            who = next((f.strip() for f in fields[:2] if f.strip()), "")
        else:
            who = head[1:1 + head[0]].decode("latin-1").strip() if head else ""
        return program, who if who.isprintable() else "", lock
    return None


def lock_fields(head: bytes) -> list[str]:
    """A LibreOffice lock file's fields: its full name, user, host, date
    (``DD.MM.YYYY HH:MM``, local time) and profile (the ``UserInstallation``
    URL), split at the commas a backslash does not escape, up to the ``;``.

    >>> lock_fields(rb"Lima\\, Ana,ana,vm,07.12.2026 12:53,file:///home/ana/lo;")
    ['Lima, Ana', 'ana', 'vm', '07.12.2026 12:53', 'file:///home/ana/lo']
    """
    fields: list[str] = []
    field: list[str] = []
    escaped = False
    for ch in head.decode("utf-8", "replace"):
        if escaped:
            field.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in ",;":
            fields.append("".join(field))
            field = []
            if ch == ";":
                return fields
        else:
            field.append(ch)
    return [*fields, "".join(field)] if field or fields else []


def libreoffice_profiles() -> frozenset[str] | None:
    """The profiles (``-env:UserInstallation=`` URLs; "" for the default
    one) of the LibreOffice processes this user can see running on this
    machine; None where the system lists no processes in ``/proc`` (Windows,
    macOS): then nobody can tell that LibreOffice is not running."""
    proc = Path("/proc")
    if not (proc / "self" / "cmdline").exists():
        return None
    found = set()
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            name = (entry / "comm").read_bytes().strip()  # (any bytes: prctl, /proc/self/comm)
        except OSError:
            continue  # gone meanwhile
        if argv == [b""]:
            continue  # exited, not yet reaped (a zombie's command line is empty): holds nothing
        if not (name.startswith((b"soffice", b"oosplash"))
                or Path(os.fsdecode(argv[0])).name.startswith(("soffice", "oosplash"))):
            continue
        flag = b"-env:UserInstallation="
        found.add(next((os.fsdecode(a[len(flag):]) for a in argv if a.startswith(flag)), ""))
    return frozenset(found)


def stale_lock(lock: Path) -> bool:
    """Whether LibreOffice's lock file ``lock`` was left by a LibreOffice no
    longer running (a crash, a killed process), so that writing the file
    takes nobody's edits away.

    The lock names no process (measured: LibreOffice 7.4 wrote
    ``,root,vm,07.12.2026 12:53,file:///tmp/lo-profile;`` and left it when
    it crashed). LibreOffice takes a lock as its own, left by a crash, when
    it names the same user, machine and profile; it can, as one process
    per profile. Here: the lock names this user on this machine, and no
    LibreOffice runs with its profile or with the default one (which may be
    it). False whenever unsure: another user or machine (a shared folder),
    a system that does not list its processes, a lock that does not read."""
    try:
        fields = lock_fields(lock.read_bytes()[:4096])
    except OSError:
        return False
    if len(fields) < 5 or not fields[4]:
        return False
    try:
        user = getpass.getuser()
    except (OSError, KeyError, ImportError):
        return False
    # (imported here, at a save beside a lock: the editor's launch, which
    # imports this module, never asks it; socket and selectors were ~3.7
    # ms of its main thread's CPU before the first paint, hopen15)
    import socket

    if fields[1] != user or fields[2] not in {socket.gethostname(), platform.node()}:
        return False
    running = libreoffice_profiles()
    return running is not None and not running & {fields[4], ""}


def remove_stale_lock(lock: Path, file: str | Path) -> None:
    """Delete ``lock`` (beside ``file``) when it is still :func:`stale_lock`
    (LibreOffice may have started since it was found so); else
    :class:`InputError`, the lock kept."""
    if not stale_lock(lock):
        raise InputError(f"{lock.name} is no longer a lock left behind: LibreOffice is running "
                         "now; it was not changed", file=str(file),
                         hint="close the file in LibreOffice and save again")
    try:
        lock.unlink()
    except FileNotFoundError:
        pass  # gone already: the file is free
    except OSError as exc:
        raise InputError(f"could not delete the lock file {lock.name}: {write_reason(exc)}",
                         file=str(file), hint="delete it yourself and save again") from exc


def check_writable(path: str | Path) -> None:
    """Raise :class:`InputError` when ``path`` exists as a file whose write
    permission is off (a file marked read-only is never replaced), that an
    office program holds open (:func:`held_by`: a spreadsheet open in
    LibreOffice would later save its own copy over ours), or is not a regular
    file."""
    target = real_path(path)
    try:
        st = target.stat()
    except OSError:
        return  # a new file
    if not stat.S_ISREG(st.st_mode):
        raise InputError("this is not a regular file", file=str(path),
                         hint="choose a file name, not a folder or device")
    if not st.st_mode & stat.S_IWUSR:
        raise InputError("the file is read-only; it was not changed", file=str(path),
                         hint="save under another name, or make the file writable first")
    held = held_by(path)
    if held is not None:
        program, who, lock = held
        if program == "LibreOffice" and stale_lock(lock):
            raise StaleLock(
                f"its LibreOffice lock file {lock.name} was left behind by a LibreOffice no "
                f"longer running (it names you on this machine, and no LibreOffice runs "
                f"here); it was not changed", file=str(path),
                hint=f"delete {lock.name} and try again", lock=str(lock))
        by = f" by {who}" if who else ""
        raise InputError(
            f"the file is open in {program}{by}; it was not changed", file=str(path),
            hint=f"close it in {program} and save again, or save under another name; "
                 f"if {program} is not running, delete its lock file {lock.name}")


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write(tmp)`` on a temporary file beside ``path``'s real file,
    flush it to disk, then replace that file. On any failure ``path`` is left
    as it was and one :class:`InputError` says why."""
    check_writable(path)
    target = real_path(path)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                        dir=target.parent)
    except OSError as exc:
        raise InputError(
            f"cannot write here: {write_reason(exc)}", file=str(path),
            hint="choose a folder you can write to",
        ) from exc
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except Exception as exc:
        cause = _os_error(exc)
        if cause is None:
            raise
        raise InputError(f"could not save: {write_reason(cause)}; the previous file is unchanged",
                         file=str(path)) from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


class FirstErrorOnly(io.RawIOBase):
    """A file for a writer library that may touch it again after it failed
    (``zipfile.ZipFile.__del__`` closing a half-written archive printed
    "Exception ignored ... No space left on device" after the one-line
    message): the first error of a write, seek or flush is raised as usual,
    and from then on every call is a silent no-op; so is every call once it
    is closed. Closing it closes the file underneath. Each call looks at
    the thread's stop first (:mod:`core.io.stop`): an export stopped from
    another thread (its task cancelled, the application quitting) raises
    :class:`~core.io.stop.Stopped` at its next write, and
    :func:`atomic_write` leaves the target as it was."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self._fh = open(path, "wb")  # noqa: SIM115 (closed by close())
        self._pos = 0
        self.failed: OSError | Stopped | None = None

    @property
    def _quiet(self) -> bool:
        return self.failed is not None or self.closed

    def _guard(self, call: Callable[[], object]) -> int:
        if self._quiet:
            return self._pos
        try:
            check_stopped()  # an export stopped from another thread ends here (core.io.stop)
            got = call()
        except (OSError, Stopped) as exc:
            self.failed = exc
            raise
        return got if isinstance(got, int) else self._pos

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return not self._quiet

    def write(self, data: Any) -> int:
        n = len(memoryview(data).cast("B"))
        if not self._quiet:
            self._guard(lambda: self._fh.write(data))
            self._pos += n
        return n

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = 0) -> int:
        if not self._quiet:
            self._pos = self._guard(lambda: self._fh.seek(offset, whence))
        return self._pos

    def flush(self) -> None:
        if not self._quiet and not self._fh.closed:
            self._guard(self._fh.flush)

    def close(self) -> None:
        if self.closed:
            return
        try:
            if self.failed is None:
                self._guard(self._fh.close)
        finally:
            with contextlib.suppress(OSError):
                self._fh.close()
            super().close()


def atomic_write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    def write(tmp: Path) -> None:
        tmp.write_text(text, encoding=encoding)

    atomic_write(path, write)
