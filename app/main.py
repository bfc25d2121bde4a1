"""Start the editor: ``ndcg-worksheet [FILE] [--qrels QRELS]``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox

from app.fileops import FileOps
from app.settings import APPLICATION, ORGANIZATION, ensure_identity
from app.window import APP_TITLE, MainWindow
from core.errors import NdcgError
from core.model.document import Document

__all__ = ["build_window", "main", "parse_args"]


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="ndcg-worksheet",
        description="Grade ranked candidates and compute NDCG with every convention declared.",
    )
    parser.add_argument("file", nargs="?", help="a worksheet (.csv, .tsv, .xlsx) or a TREC run")
    parser.add_argument("--qrels", help="TREC qrels for a run file")
    return parser.parse_args(list(argv))


def _load(path: str | Path, qrels: str | Path | None) -> Document:
    from core.io.load import load_document

    return load_document(path, qrels=qrels)


def build_window(path: str | Path | None = None, *, qrels: str | Path | None = None,
                 ) -> MainWindow:
    """A ready main window: on ``path`` (with ``qrels`` for a TREC run) or on
    the bundled example.

    A file that cannot be read is reported in a message box (the error's own
    sentence: file, line, column, what to do) and the example opens instead,
    so the reviewer still gets a working window.
    """
    from core.io.example import load_example

    if QApplication.instance() is None:
        raise RuntimeError("create a QApplication before building the window")
    ensure_identity()
    doc: Document | None = None
    shown: Path | None = None
    if path is not None:
        try:
            doc = _load(path, qrels)
            shown = Path(path)
            from core.engine.evaluation import evaluate

            evaluate(doc)  # fails now (e.g. negative grade, exponential gain), not later
        except (NdcgError, OSError) as exc:
            doc, shown = None, None
            QMessageBox.warning(
                None, APP_TITLE,
                f"{exc}\n\nThe bundled example opens instead.",
            )
    if doc is None:
        doc = load_example()
    window = MainWindow(doc, shown)
    file_ops = _install_extras(window)
    if shown is not None:
        file_ops.offer_recovery()  # a crash left edits for this file
    return window


def _install_extras(window: MainWindow) -> FileOps:
    """File operations and the crash journal, clipboard, find, plots and the
    review docks: each gets the window's typed API, none knows another; what
    one offers another is connected here."""
    from app.clipboard_actions import install_clipboard_actions
    from app.fileops import install_file_ops
    from app.find import install_find
    from app.plot_dock import install_plots
    from app.review.compare_view import install_compare
    from app.review.explain_view import install_explain
    from app.review.judges_view import install_judges

    window.file_ops = file_ops = install_file_ops(window)
    window.clipboard_actions = install_clipboard_actions(window)
    window.find_bar = install_find(window)
    window.plots = plots = install_plots(window)
    window.compare_view = compare = install_compare(window)
    compare.deltas_shown.connect(plots.show_comparison)
    window.explain_view = install_explain(window)
    window.judges_view = install_judges(window)
    return file_ops


def _warn_broken_qt() -> None:
    """Say so when the installed PySide6 is the release that crashes this
    Python (``pyproject.toml`` excludes it; an older environment may still
    hold it)."""
    import PySide6

    if sys.version_info < (3, 12) and PySide6.__version__ == "6.12.0":
        print("ndcg-worksheet: PySide6 6.12.0 on Python 3.11 crashes after a few hundred "
              "edits; install another release: pip install 'PySide6-Essentials!=6.12.0'",
              file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the editor; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    _warn_broken_qt()
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else APPLICATION])
    QApplication.setOrganizationName(ORGANIZATION)
    QApplication.setApplicationName(APPLICATION)
    foreign = None
    if args.file and not args.qrels:
        from core.io.load import is_annotator_sheet

        if is_annotator_sheet(Path(args.file)):
            foreign = Path(args.file)  # an annotators' sheet: the import wizard reads it
    window = build_window(None if foreign else args.file, qrels=args.qrels)
    window.show()
    if foreign is not None:
        from PySide6.QtCore import QTimer

        file_ops = window.file_ops
        assert file_ops is not None  # build_window installs it
        QTimer.singleShot(0, lambda: file_ops.run_import_wizard(foreign))
    return int(app.exec())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
