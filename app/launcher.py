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


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in COMMANDS:
        from app.cli.main import main as cli_main

        return cli_main(args)
    from app.main import main as gui_main

    return gui_main(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
