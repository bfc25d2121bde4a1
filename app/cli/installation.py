"""The flags about this installation rather than a file: ``--version`` and
the per-user desktop entry (:mod:`app.desktop_entry`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from core.model.extras import DISTRIBUTION

__all__ = ["DISTRIBUTION", "add_installation_arguments", "installed_version"]


def installed_version() -> str:
    """The version this installation was built as (from its metadata: one place,
    ``pyproject.toml``; its reader is loaded only when asked)."""
    from importlib.metadata import version

    return version(DISTRIBUTION)


#: Where freedesktop entries mean something (Windows and macOS have their own ways).
FREEDESKTOP = ("linux", "freebsd", "openbsd", "netbsd", "dragonfly")


def _install() -> str:
    from app.desktop_entry import install_desktop_entry

    if not sys.platform.startswith(FREEDESKTOP):
        raise OSError(f"only Linux and BSD desktops read one (this is {sys.platform})")
    written = install_desktop_entry()
    return f"installed the desktop entry: {_listing(written)}"


def _uninstall() -> str:
    from app.desktop_entry import uninstall_desktop_entry

    removed = uninstall_desktop_entry()
    if not removed:
        return "no desktop entry of ndcg-worksheet was installed for this user"
    return f"removed the desktop entry: {_listing(removed)}"


def _listing(paths: list[Path]) -> str:
    from core.model.numbers import counted

    return f"{counted(len(paths), 'file')} ({paths[0].parent}/{paths[0].name}, …)"


def _action(run: Callable[[], str]) -> type[argparse.Action]:
    """An argparse flag that runs ``run``, prints its line and exits."""

    class Run(argparse.Action):
        def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
            super().__init__(option_strings, dest, nargs=0, **kwargs)

        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                     values: Any, option_string: str | None = None) -> None:
            try:
                line = run()
            except OSError as exc:
                parser.exit(1, f"{parser.prog}: {exc.filename or 'desktop entry'}: "
                               f"{exc.strerror or exc}\n")
            print(line)
            parser.exit(0)

    return Run


def add_installation_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--version", action=_action(lambda: f"{p.prog} {installed_version()}"),
                   help="print the version and exit")
    p.add_argument("--install-desktop-entry", action=_action(_install),
                   help="add the editor to this user's desktop menu and to the file "
                        "manager's 'Open with' for .xlsx, .ods, .csv and .tsv "
                        "(under $XDG_DATA_HOME, Linux desktops)")
    p.add_argument("--uninstall-desktop-entry", action=_action(_uninstall),
                   help="remove what --install-desktop-entry added")
