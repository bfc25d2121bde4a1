"""Atomic writes respect the file: its permissions, its links, its read-only
flag, and say why a write failed in one sentence; the old file survives."""

from __future__ import annotations

import errno
import getpass
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import InputError, StaleLock
from core.io import atomic
from core.io.atomic import (
    atomic_write,
    atomic_write_text,
    libreoffice_profiles,
    remove_stale_lock,
    stale_lock,
)


def test_the_file_keeps_its_permissions(tmp_path: Path):
    target = tmp_path / "a.csv"
    target.write_text("old")
    target.chmod(0o640)
    atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_read_only_file_is_refused_and_unchanged(tmp_path: Path):
    target = tmp_path / "a.csv"
    target.write_text("old")
    target.chmod(0o444)
    with pytest.raises(InputError, match="the file is read-only; it was not changed"):
        atomic_write_text(target, "new")
    assert target.read_text() == "old"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    assert [p.name for p in tmp_path.iterdir()] == ["a.csv"]


def test_a_link_stays_a_link_to_the_updated_file(tmp_path: Path):
    real = tmp_path / "data" / "a.csv"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    atomic_write_text(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"
    assert [p.name for p in real.parent.iterdir()] == ["a.csv"]


def test_a_folder_is_not_a_file(tmp_path: Path):
    with pytest.raises(InputError, match="not a regular file"):
        atomic_write_text(tmp_path, "x")


class WrappedError(Exception):
    """What a writer library raises around the operating system's error
    (xlsxwriter's FileCreateError)."""


@pytest.mark.parametrize(("code", "reason"), [
    (errno.ENOSPC, "the disk is full"), (errno.EROFS, "the disk is read-only"),
    (errno.EACCES, "permission denied"), (errno.ENOENT, "the folder is gone"),
])
@pytest.mark.parametrize("wrapped", [False, True])
def test_the_system_s_reason_is_named_and_the_old_file_survives(
        tmp_path: Path, code: int, reason: str, wrapped: bool):
    target = tmp_path / "a.xlsx"
    target.write_bytes(b"old")

    def write(tmp: Path) -> None:
        tmp.write_bytes(b"half")
        error = OSError(code, os.strerror(code))
        if not wrapped:
            raise error
        raise WrappedError("could not close the file") from error

    with pytest.raises(InputError) as info:
        atomic_write(target, write)
    assert str(info.value) == f"{target}: could not save: {reason}; the previous file is unchanged"
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.xlsx"]


def test_an_error_of_ours_passes_through(tmp_path: Path):
    def write(tmp: Path) -> None:
        raise InputError("the Candidates sheet would need 2,000,000 rows")

    with pytest.raises(InputError, match="2,000,000 rows"):
        atomic_write(tmp_path / "a.xlsx", write)
    assert list(tmp_path.iterdir()) == []


#: A lock file as LibreOffice 7.4 wrote it beside a workbook it opened
#: (``,user,host,date,profile;``, the first field the user's full name).
LIBREOFFICE_LOCK = b",ana,vm,07.12.2026 10:10,file:///home/ana/.config/libreoffice/4;"


@pytest.mark.parametrize(("lock", "content", "said"), [
    (".~lock.a.xlsx#", LIBREOFFICE_LOCK, "the file is open in LibreOffice by ana"),
    (".~lock.a.xlsx#", b"Ana Lima,ana,vm,07.12.2026 10:10,file:///x;",
     "the file is open in LibreOffice by Ana Lima"),
    (".~lock.a.xlsx#", b"", "the file is open in LibreOffice;"),
    ("~$a.xlsx", b"\x03ana" + b" " * 50, "the file is open in Excel by ana"),
])
def test_a_file_an_office_program_holds_open_is_refused_and_unchanged(
        tmp_path: Path, lock: str, content: bytes, said: str):
    target = tmp_path / "a.xlsx"
    target.write_bytes(b"old")
    (tmp_path / lock).write_bytes(content)
    with pytest.raises(InputError) as info:
        atomic_write(target, lambda tmp: tmp.write_bytes(b"new"))
    message = str(info.value)
    assert message.startswith(f"{target}: {said}")
    assert "it was not changed" in message
    assert f"delete its lock file {lock}" in message
    assert "\n" not in message
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["a.xlsx", lock])


def test_a_lock_file_of_another_file_or_a_new_file_is_no_hold(tmp_path: Path):
    (tmp_path / ".~lock.b.xlsx#").write_bytes(LIBREOFFICE_LOCK)
    (tmp_path / ".~lock.new.xlsx#").write_bytes(LIBREOFFICE_LOCK)  # left by a crash
    atomic_write_text(tmp_path / "a.xlsx", "new")
    atomic_write_text(tmp_path / "new.xlsx", "new")
    assert (tmp_path / "a.xlsx").read_text() == "new"
    assert (tmp_path / "new.xlsx").read_text() == "new"


def _own_lock(profile: str = "file:///home/me/.config/libreoffice/4") -> bytes:
    """A lock as LibreOffice writes it for this user on this machine."""
    return f",{getpass.getuser()},{socket.gethostname()},07.12.2026 12:53,{profile};".encode()


@pytest.mark.parametrize(("running", "stale"), [
    (frozenset(), True),  # no LibreOffice runs: the lock was left behind
    (frozenset({"file:///tmp/other-profile"}), True),  # another profile's: not its holder
    (frozenset({"file:///home/me/.config/libreoffice/4"}), False),  # its own profile runs
    (frozenset({""}), False),  # one on the default profile (which may be it)
    (None, False),  # a system that does not list its processes: unsure
])
def test_a_lock_of_this_user_on_this_machine_is_stale_when_no_libreoffice_runs_with_its_profile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, running: frozenset[str] | None,
        stale: bool):
    """LibreOffice's lock holds no process id (measured: LibreOffice 7.4,
    crashed with a workbook open, left ``,root,vm,07.12.2026 12:53,
    file:///tmp/hdesk6/lo-profile;``). Before, every lock refused the save
    as "open in LibreOffice" until the user deleted it; a lock of this user
    on this machine whose profile no running LibreOffice uses is said to be
    left behind, with the file to delete; the file is never changed."""
    monkeypatch.setattr(atomic, "libreoffice_profiles", lambda: running)
    target = tmp_path / "a.xlsx"
    target.write_bytes(b"old")
    lock = tmp_path / ".~lock.a.xlsx#"
    lock.write_bytes(_own_lock())
    with pytest.raises(InputError) as info:
        atomic_write(target, lambda tmp: tmp.write_bytes(b"new"))
    message = str(info.value)
    assert isinstance(info.value, StaleLock) is stale
    assert target.read_bytes() == b"old"
    assert lock.exists()
    if stale:
        assert message == (
            f"{target}: its LibreOffice lock file .~lock.a.xlsx# was left behind by a "
            "LibreOffice no longer running (it names you on this machine, and no LibreOffice "
            "runs here); it was not changed (delete .~lock.a.xlsx# and try again)")
        assert info.value.lock == str(lock)
        remove_stale_lock(lock, target)
        atomic_write(target, lambda tmp: tmp.write_bytes(b"new"))
        assert target.read_bytes() == b"new"
        assert [p.name for p in tmp_path.iterdir()] == ["a.xlsx"]
    else:
        assert message.startswith(f"{target}: the file is open in LibreOffice by ")
        with pytest.raises(InputError, match="no longer a lock left behind"):
            remove_stale_lock(lock, target)
        assert lock.exists()


@pytest.mark.parametrize("content", [
    b",someone-else,{host},07.12.2026 12:53,file:///p;",  # another user (a shared folder)
    b",{user},another-machine,07.12.2026 12:53,file:///p;",  # another machine
    b",{user},{host},07.12.2026 12:53;",  # no profile: not LibreOffice's whole lock
    b"",
])
def test_a_lock_of_another_user_or_machine_is_never_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes):
    monkeypatch.setattr(atomic, "libreoffice_profiles", lambda: frozenset())
    lock = tmp_path / ".~lock.a.xlsx#"
    lock.write_bytes(content.replace(b"{user}", getpass.getuser().encode()).replace(
        b"{host}", socket.gethostname().encode()))
    assert not stale_lock(lock)


def test_a_running_libreoffice_and_its_profile_are_found_in_proc():
    """A process named soffice.bin (as LibreOffice's is) with its profile's
    flag is listed; it ends, and it is not. (Without /proc: None, unsure.)"""
    if not Path("/proc/self/cmdline").exists():
        assert libreoffice_profiles() is None
        return
    flag = "-env:UserInstallation=file:///tmp/a-profile-of-this-test"
    proc = subprocess.Popen(["/usr/lib/libreoffice/program/soffice.bin", "-c",
                             "import sys; print('up', flush=True); sys.stdin.read()", flag],
                            executable=sys.executable, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    try:
        # Popen may return (vfork) before the kernel has set the new command
        # line: until the child speaks, /proc can show it empty, as a zombie's
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"up\n"
        assert "file:///tmp/a-profile-of-this-test" in (libreoffice_profiles() or ())
    finally:
        proc.communicate(b"")
    assert "file:///tmp/a-profile-of-this-test" not in (libreoffice_profiles() or ())


def test_a_process_whose_name_is_not_utf8_is_passed_by():
    """A process may name itself with any bytes (``/proc/self/comm``,
    prctl): the look for a running LibreOffice passes it by. Before, its
    name failed to decode and Save over a workbook with a lock left behind
    ended in a traceback (UnicodeDecodeError)."""
    if not Path("/proc/self/comm").exists():
        return
    proc = subprocess.Popen([sys.executable, "-c",
                             "open('/proc/self/comm', 'wb').write(b'\\xff\\xfeodd'); "
                             "print('up', flush=True); import sys; sys.stdin.read()"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"up\n"
        assert Path(f"/proc/{proc.pid}/comm").read_bytes() == b"\xff\xfeodd\n"
        assert libreoffice_profiles() is not None
    finally:
        proc.communicate(b"")
