"""The ``ndcg-worksheet`` entry point.

Commands (``evaluate``, ``export``, ``compare``, ``import``, ``split``,
``merge``, ``example``) run without loading Qt; any other invocation opens the desktop editor.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

COMMANDS = frozenset({"evaluate", "export", "compare", "import", "split", "merge", "example",
                      "-h",
                      "--help",
                      # app.cli.installation: about the installation, no window
                      "--version", "--install-desktop-entry", "--uninstall-desktop-entry"})


def prepare(args: Sequence[str]) -> None:
    """What the editor's start does before Qt loads: the file ``args`` name
    is read from now on, on threads, while Qt and the window load; the core
    the editor starts with is imported."""
    from app.opening import parse_args, start_reading

    # The bundled example (and its workbook reader) only without a file.
    if not start_reading(parse_args(args)):
        import core.io.example
    else:
        # The review docks are installed while the file is read (app.main's
        # _while_reading; after the first paint without a file): the core
        # they use is imported here, before PySide6's import hook would read
        # each module's source (~20 ms of the main thread's CPU, which the
        # read's two cores pay for).
        import core.analysis.agreement
        import core.analysis.explain
        import core.analysis.rounds
        import core.io.rounds
    # PySide6 wraps every import made after it (its __feature__ check reads
    # each new module's source): the core the editor starts with, which
    # never uses Qt, is imported first (about 25 ms less to the first paint).
    import core.analysis.queue
    import core.engine.columns
    import core.io.clipboard
    import core.io.delimited
    import core.io.first_seen
    import core.io.journal
    import core.io.trec
    import core.io.workbook.layout
    import core.io.workbook.targets
    import core.model.bundled
    import core.reports.sentences
    import core.session  # noqa: F401


COMMAND_LINE = ("or use the command line, e.g. ndcg-worksheet evaluate RUN --qrels QRELS "
                "(ndcg-worksheet --help)")


def no_display(env: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """Why the editor cannot open a window here, before Qt loads: on Linux
    with neither an X nor a Wayland display and no platform chosen, Qt
    aborts the process (exit 134) with a message about its xcb plugin."""
    if not platform.startswith("linux") or env.get("QT_QPA_PLATFORM"):
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return ("ndcg-worksheet: no display found (DISPLAY and WAYLAND_DISPLAY are unset): "
            f"run it in a desktop session, {COMMAND_LINE}")


def qt_plugins() -> Path:
    """The folder of Qt's plugins: PySide6's own (``PySide6/Qt/plugins``, as
    ``QLibraryInfo`` says for a wheel or a bundle) found without importing
    PySide6, so that the launcher can check the platform plugin before it
    starts reading a file; otherwise ``QLibraryInfo``'s (a PySide6 built on
    the system's Qt), which imports Qt."""
    from importlib.util import find_spec

    spec = find_spec("PySide6")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        if (plugins := Path(folder) / "Qt" / "plugins").is_dir():
            return plugins
    from PySide6.QtCore import QLibraryInfo

    return Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))


def xcb_unloadable(env: Mapping[str, str], plugins: Path | Callable[[], Path],
                   platform: str = sys.platform) -> str | None:
    """Why Qt's xcb platform plugin (in ``plugins``, or the folder it
    returns, asked only when xcb is the platform) will not load, when the
    editor would use it: a system library it needs is missing (Qt aborts
    with "could not load the Qt platform plugin"). Loading the plugin loads
    the Qt libraries it links to, which the window loads anyway."""
    import ctypes

    chosen = env.get("QT_QPA_PLATFORM", "")
    if not platform.startswith("linux") or (chosen and not chosen.startswith("xcb")):
        return None
    if not chosen and (env.get("WAYLAND_DISPLAY") or not env.get("DISPLAY")):
        return None
    plugin = (plugins if isinstance(plugins, Path) else plugins()) / "platforms" / "libqxcb.so"
    if not plugin.is_file():
        return None
    try:
        ctypes.CDLL(str(plugin))
    except OSError as error:
        reason = str(error).removeprefix(f"{plugin}: ")
        return (f"ndcg-worksheet: Qt's platform plugin xcb cannot load ({reason}): install "
                f"the system package that provides it (e.g. libxcb-cursor0), {COMMAND_LINE}")
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in COMMANDS:
        from app.cli.ending import end
        from app.cli.main import main as cli_main

        status = cli_main(args)
        # The process's own command line (the installed script): it may end at once.
        return end(status) if argv is None else status
    # Before the file is read: a refusal starts no reading.
    if problem := no_display(os.environ) or xcb_unloadable(os.environ, qt_plugins):
        print(problem, file=sys.stderr)
        return 2
    prepare(args)
    from app.main import main as gui_main

    return gui_main(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
