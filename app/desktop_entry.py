"""The per-user desktop entry: ``ndcg-worksheet --install-desktop-entry``.

It copies the freedesktop entry, the AppStream metainfo and the icon (SVG and
the PNG sizes) from the bundled resources into the user's data folder
(``$XDG_DATA_HOME``, by default ``~/.local/share``), with ``Exec=`` naming the
command that ran the install (a venv's or pipx's script, or the bundle's
executable), so a desktop's menu and a file manager's "Open with" offer the
editor for the types the entry lists (``MimeType=``). ``--uninstall-desktop-entry``
removes the same files, and the folders and the MIME cache the install made
when nothing else is in them. Qt-free: the command line runs it.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from core.model.bundled import bundled

__all__ = [
    "APP_ID",
    "ICON_SIZES",
    "data_home",
    "desktop_exec",
    "install_desktop_entry",
    "installed_paths",
    "launcher_command",
    "uninstall_desktop_entry",
]

#: The application's reverse-DNS id: the names of the desktop entry, the
#: metainfo and the installed icon, and Qt's desktop file name.
APP_ID = "org.ndcg_worksheet.app"
#: The PNG sizes shipped in ``resources/icons/<N>x<N>/``.
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)
_ICON = "ndcg-worksheet"
#: What the Exec key's quoting rule says must be inside double quotes.
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def data_home() -> Path:
    """``$XDG_DATA_HOME``, or ``~/.local/share`` when it is unset or not absolute."""
    value = os.environ.get("XDG_DATA_HOME", "")
    return Path(value) if os.path.isabs(value) else Path.home() / ".local" / "share"


def installed_paths(data: Path) -> dict[Path, Path]:
    """Each file the install writes under ``data``, with the bundled file it comes from."""
    icons = data / "icons" / "hicolor"
    paths = {
        data / "applications" / f"{APP_ID}.desktop": bundled(f"desktop/{APP_ID}.desktop"),
        data / "metainfo" / f"{APP_ID}.metainfo.xml": bundled(f"desktop/{APP_ID}.metainfo.xml"),
        icons / "scalable" / "apps" / f"{APP_ID}.svg": bundled(f"icons/{_ICON}.svg"),
    }
    for n in ICON_SIZES:
        paths[icons / f"{n}x{n}" / "apps" / f"{APP_ID}.png"] = bundled(f"icons/{n}x{n}/{_ICON}.png")
    return paths


def launcher_command() -> list[str]:
    """The command that starts this installation of the editor."""
    if getattr(sys, "frozen", False):  # the one-folder bundle's executable
        return [sys.executable]
    script = Path(sys.executable).with_name("ndcg-worksheet")  # a venv's or pipx's
    if script.is_file():
        return [str(script)]
    found = shutil.which("ndcg-worksheet")
    if found:
        return [os.path.abspath(found)]
    return [sys.executable, "-m", "app.launcher"]


def _quoted(arg: str) -> str:
    """One argument of an ``Exec=`` key, quoted as the Desktop Entry spec says."""
    arg = arg.replace("%", "%%")
    if not _RESERVED.intersection(arg):
        return arg
    for ch in '\\"`$':
        arg = arg.replace(ch, "\\" + ch)
    return f'"{arg}"'


def desktop_exec(command: list[str]) -> str:
    """The ``Exec=`` value (string-escaped for the file) that runs ``command`` on a file."""
    return " ".join(_quoted(a) for a in command).replace("\\", "\\\\") + " %f"


def install_desktop_entry(data: Path | None = None, command: list[str] | None = None,
                          ) -> list[Path]:
    """Install the entry, the metainfo and the icons; returns the files written."""
    data = data_home() if data is None else data
    command = launcher_command() if command is None else command
    written = []
    for target, source in installed_paths(data).items():
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.suffix == ".desktop":
            text = "".join(
                f"Exec={desktop_exec(command)}\n" if line.startswith("Exec=") else line
                for line in source.read_text(encoding="utf-8").splitlines(keepends=True))
            target.write_text(text, encoding="utf-8")
        else:
            shutil.copyfile(source, target)
        written.append(target)
    _refresh_caches(data)
    return written


def uninstall_desktop_entry(data: Path | None = None) -> list[Path]:
    """Remove what :func:`install_desktop_entry` wrote; returns the files removed."""
    data = data_home() if data is None else data
    removed = []
    for target in installed_paths(data):
        if target.is_file():
            target.unlink()
            removed.append(target)
    _refresh_caches(data)
    cache = data / "applications" / "mimeinfo.cache"
    if cache.is_file() and not _cache_entries(cache):
        cache.unlink()  # no other entry claims a type: the install made it
    for target in installed_paths(data):
        _remove_empty_parents(target.parent, data)
    return removed


def _refresh_caches(data: Path) -> None:
    """Rebuild the per-user MIME-type-to-entry cache, where the tool is installed
    (desktops also read the entries directly; the cache makes "Open with" quick)."""
    tool = shutil.which("update-desktop-database")
    applications = data / "applications"
    if tool and applications.is_dir():
        # Imported here: the editor names APP_ID at every start (app.settings),
        # and subprocess with its selectors is ~5 ms of imports before the first paint.
        import subprocess

        subprocess.run([tool, "-q", str(applications)], check=False)


def _cache_entries(cache: Path) -> list[str]:
    lines = cache.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("[")]


def _remove_empty_parents(folder: Path, stop: Path) -> None:
    while folder != stop and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
