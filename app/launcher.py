"""The ``ndcg-worksheet`` entry point.

Commands (``evaluate``, ``export``, ``compare``, ``import``, ``split``,
``merge``) run without loading Qt; any other invocation opens the desktop editor.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

COMMANDS = frozenset({"evaluate", "export", "compare", "import", "split", "merge", "-h",
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
    # PySide6 wraps every import made after it (its __feature__ check reads
    # each new module's source): the core the editor starts with, which
    # never uses Qt, is imported first (about 25 ms less to the first paint).
    import core.analysis.queue
    import core.io.clipboard
    import core.io.delimited
    import core.io.journal
    import core.io.trec
    import core.reports.sentences
    import core.session  # noqa: F401


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in COMMANDS:
        from app.cli.main import main as cli_main

        return cli_main(args)
    prepare(args)
    from app.main import main as gui_main

    return gui_main(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
