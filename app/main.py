"""Start the editor: ``ndcg-worksheet [FILE] [--qrels QRELS] [--preset NAME]``.

:func:`build_window` is the composition root: it makes the window, installs
the add-ons (each gets the window's typed API), connects what one offers
another, and restores the layout the user left.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication, QMessageBox, QSplashScreen, QWidget

from app.collector import collect_in_main_thread
from app.opening import READING, Reading, parse_args, reading_key
from app.settings import APPLICATION, ORGANIZATION, ensure_identity
from core.errors import InputError, NdcgError
from core.model.presets import apply_preset

if TYPE_CHECKING:
    import argparse

    from app.banner import UnjudgedBanner
    from app.fileops import FileOps
    from app.outside_edits import OutsideEditsBanner
    from app.unread_annotators import UnreadAnnotatorsBanner
    from app.window_api import WindowApi

# The window's modules are imported once the splash shows (they take a
# second or more), while the file is read; matplotlib waits for the plots.

__all__ = ["build_window", "install_review_docks", "main", "parse_args"]


def _import_window_modules() -> None:
    """Import what the window and its add-ons but the review docks need
    (nothing is built): a file given at launch is read meanwhile."""
    import app.banner
    import app.clipboard_actions
    import app.drop
    import app.fileops
    import app.find
    import app.help
    import app.outside_edits
    import app.plot_dock
    import app.preferences
    import app.window  # noqa: F401  (matplotlib waits until plots are first shown)


def build_window(path: str | Path | None = None, *, qrels: str | Path | None = None,
                 preset: str | None = None, review_docks: bool = True,
                 importing: Path | None = None, before_read: bool = False) -> WindowApi:
    """A ready main window: on ``path`` (with ``qrels`` for a TREC run) or on
    the bundled example, under ``preset``'s conventions when one is named.

    A file that cannot be read is reported in a message box (the error's own
    sentence: file, line, column, what to do) and the example opens instead,
    so the reviewer still gets a working window. The window has the geometry
    and dock layout the user left (the default one at a first start); a TREC
    run whose candidates are not all judged shows what can be done about it.
    The file is read on a thread (started by the launcher before Qt loaded,
    or by :func:`main` when it showed the splash: :mod:`app.opening`) while
    the window is built and, as long as the reading goes on, the review
    docks are installed. Without ``review_docks`` the review docks, hidden
    at a first start, are otherwise left to the caller
    (:func:`install_review_docks`: :func:`main` installs them once the
    window has been painted). With ``importing`` (an annotators' sheet the
    import wizard is about to read) the window starts empty, saying so in
    one line, not on the example: it shows no data the user did not open.
    With ``before_read``, a window built while its file is still read is
    returned at once, waiting for the document (:mod:`app.reading_state`:
    greyed, taking no edit) and showing it when it arrives.
    """
    qapp = QApplication.instance()
    if not isinstance(qapp, QApplication):
        raise RuntimeError("create a QApplication before building the window")
    ensure_identity()
    from app.scheme import follow_color_scheme

    follow_color_scheme(qapp)  # the system's light or dark scheme, readable at WCAG AA
    collect_in_main_thread(qapp)  # no Qt object deleted by a reading or task thread
    reading = None
    if path is not None:
        key = reading_key(path, qrels, preset)
        reading = READING.pop(key, None) or Reading(path, qrels, preset)
    _import_window_modules()
    window: WindowApi | None = None
    extras: _Extras | None = None
    shown: Path | None = None
    docks = False
    if reading is not None and path is not None:
        window, extras, docks = _while_reading(path, reading)
        if before_read and extras is not None and reading.busy:
            _dress(window, extras, review_docks=review_docks and not docks)
            extras.file_ops.preset = preset  # files opened later: under it (not the window's)
            _read_later(window, extras, reading, path, qrels, preset)
            return window
        shown = _show_read(window, reading, path, qrels)
    if shown is None:
        window = _without_file(window, preset, importing)
        if extras is not None:  # (the file not shown is not the window's to know again)
            extras.file_ops.file_state = None
    assert window is not None
    extras = _dress(window, extras, review_docks=review_docks and not docks)
    extras.file_ops.preset = preset  # files opened later: under it (not the window's)
    if shown is not None:
        _opened(window, extras, shown, qrels)
    if importing is not None:
        _import_at_launch(window, extras.file_ops, importing)
    return window


def _dress(window: WindowApi, extras: _Extras | None, *, review_docks: bool) -> _Extras:
    """``window``'s palette watched, its add-ons (unless ``extras``: already
    installed) and review docks (when asked) installed, the layout the user
    left restored, status messages announced; its add-ons."""
    from app.scheme import watch_palette

    watch_palette(window)  # any palette the application is given later
    if extras is None:
        extras = _install_extras(window)
    if review_docks:
        install_review_docks(window)
    window.workplace.restore()
    from app.accessibility import announce_status_messages

    announce_status_messages(window.statusBar())
    return extras


def _read_later(window: WindowApi, extras: _Extras, reading: Reading, path: str | Path,
                qrels: str | Path | None, preset: str | None) -> None:
    """``window`` waiting for the document ``reading`` reads, then showing
    it (or, when it cannot be read, the example, as :func:`build_window`
    does), its dock areas sized for it (the default layout's) and what it
    calls for (:func:`_opened`). The file's digest waits for the document's
    first paint (taken beside the read, it slowed it)."""
    from app.reading_state import ReadingState

    extras.file_ops.hold_digest(True)

    def arrived() -> None:
        shown = _show_read(window, reading, path, qrels)
        if shown is None:
            _without_file(window, preset, None)
            extras.file_ops.file_state = None  # (as build_window: its digest not taken)
        window.workplace.size_for_document()
        extras.file_ops.hold_digest(False)
        if shown is not None:
            _opened(window, extras, shown, qrels)

    ReadingState(window, path, reading, arrived)  # (a child of the window: lives as long)
    from PySide6.QtCore import QTimer

    from app.models.looks import warm_brushes

    QTimer.singleShot(0, warm_brushes)  # (the greyed window waits, its models empty)


def _without_file(window: WindowApi | None, preset: str | None,
                  importing: Path | None) -> WindowApi:
    """``window`` (a new one when None) when no file is shown in it: empty
    while the file ``importing`` is asked for (a run's qrels, the import
    wizard: they fill it, under ``preset``'s conventions), else on the
    bundled example under ``preset``'s conventions."""
    from app.window import MainWindow
    from core.io.example import load_example

    if importing is not None and preset is None:
        return window or MainWindow(None)
    if importing is not None:
        from core.model.document import Document

        example = Document.from_columns(query=[], source_id=[])  # (an empty one)
    else:
        example = load_example()
    if preset is not None:
        example.conventions = apply_preset(example.conventions, preset)
    if window is None:
        return MainWindow(example, None)
    window.set_document(example, None)
    return window


def _import_at_launch(window: WindowApi, file_ops: FileOps, sheet: Path) -> None:
    """The file ``sheet`` given at launch without qrels, once the event loop
    runs, over the empty window: a run (:func:`app.opening.needs_qrels`)
    opened as File > Open opens it (:meth:`FileOps.open_path` asks for its
    qrels), an annotators' sheet through the import wizard. The window says
    in one line that the file appears when it is read (and what to do when
    it was not: cancelled, or refused); the line goes once a document is
    shown."""
    from PySide6.QtCore import QTimer

    from app.banner import Banner
    from app.opening import needs_qrels
    from app.shown import boxed

    line = Banner(window, "placeholderBanner", "info", "info_border")
    name = boxed(sheet.name)
    if needs_qrels(sheet):
        line.text.setText(line.tr(
            "Opening {0}: a run is read with its qrels; its queries and candidates "
            "appear here once you choose them.").format(name))
    else:
        line.text.setText(line.tr(
            "Importing {0}: its worksheet appears here when you finish the import wizard."
        ).format(name))
    window.grid_panel.add_banner(line)
    line.show()
    sized: list[bool] = []

    def shown(_doc: object) -> None:
        line.hide()
        if not sized:  # the first document: the side columns as a first start sizes them
            sized.append(True)
            window.workplace.size_for_document()

    window.document_replaced.connect(shown)

    def not_opened(*_why: object) -> None:
        if line.isVisible():
            line.text.setText(line.tr(
                "{0} was not opened: a run is read with its qrels. File > Open… asks "
                "for them.").format(name))

    def run() -> None:
        if needs_qrels(sheet):
            task = file_ops.open_path(sheet, ask_to_save=False)
            if task is None:  # the qrels' dialog cancelled
                not_opened()
            else:
                task.failed.connect(not_opened)
                task.cancelled.connect(not_opened)
        elif not file_ops.run_import_wizard(sheet) and line.isVisible():
            line.text.setText(line.tr(
                "{0} was not imported. File > Import annotators' sheet… reads it again; "
                "File > Open… opens a worksheet.").format(name))

    QTimer.singleShot(0, run)


def _while_reading(path: str | Path,
                   reading: Reading) -> tuple[WindowApi, _Extras | None, bool]:
    """An empty window, its add-ons installed for the file ``reading`` reads
    (a regular file: file operations read it to know it again; a FIFO or a
    device is left to the reader to refuse) and, when the reading still goes
    on, the review docks too (in time the window would otherwise spend
    waiting; :func:`build_window` installs them later only when they are not
    yet). The window, its add-ons (None: not installed) and whether the
    docks are."""
    from app.window import MainWindow

    window = MainWindow(None)
    if not Path(path).is_file():
        return window, None, False
    window.set_path(path)
    extras = _install_extras(window, read_as=reading.stat)
    if not reading.busy:
        return window, extras, False
    install_review_docks(window)
    return window, extras, True


def _show_read(window: WindowApi, reading: Reading, path: str | Path,
               qrels: str | Path | None = None) -> Path | None:
    """The document ``reading`` reads (under its preset) shown in ``window``,
    with the evaluation worked out on the reading's thread (a document that
    cannot be evaluated raises before anything changes: the message names the
    file its grades came from, ``qrels`` or ``path``, and the place). Where it
    is shown from; None when it could not be read (the message box said why)."""
    from app.window import APP_TITLE

    try:
        doc = reading()
        from core.io.first_seen import keep_first_seen

        keep_first_seen(doc, path)  # a spreadsheet's edit seen on an earlier opening
        try:
            window.set_document(doc, Path(path), evaluation=reading.evaluation)
        except InputError as exc:  # a grade its conventions refuse
            from core.io.locate import name_the_row

            raise name_the_row(exc, doc, qrels or path) from None
        return window.path
    except (NdcgError, OSError) as exc:
        problem = str(exc)
    except MemoryError:  # (a run too large for this machine)
        from app.opening import out_of_memory

        problem = str(out_of_memory(path))
    from app.shown import boxed

    QMessageBox.warning(  # a long id or path in the error is shown cut
        None, APP_TITLE, boxed(f"{problem}\n\nThe bundled example opens instead."),
    )
    return None


def _opened(window: WindowApi, extras: _Extras, shown: Path,
            qrels: str | Path | None) -> None:
    """What the file ``shown`` at launch (with ``qrels``) calls for: its
    origin, edits a crash left, its unjudged candidates, edits made in the
    spreadsheet, a worksheet's annotators' columns not read."""
    from app.file_formats import origin_of

    # A run and its qrels, an annotators' sheet: sources Save never replaces.
    extras.file_ops.opened_as(origin_of(shown, window.document, qrels=qrels), shown, qrels)
    extras.file_ops.offer_recovery()  # a crash left edits for this file
    if qrels is not None:
        extras.unjudged_banner.offer()
    extras.outside_edits.offer(window.document)  # edits made in the spreadsheet
    extras.unread_annotators.offer(shown)  # a worksheet's annotators' columns left out


@dataclass(frozen=True)
class _Extras:
    """The add-ons :func:`build_window` uses after installing them (the window
    keeps every add-on too, but does not know their types)."""

    file_ops: FileOps
    unjudged_banner: UnjudgedBanner
    outside_edits: OutsideEditsBanner
    unread_annotators: UnreadAnnotatorsBanner


def _install_extras(window: WindowApi, read_as: os.stat_result | None = None) -> _Extras:
    """File operations and the crash journal, clipboard, find, plots,
    preferences, the unjudged banner, dropped files and help: each gets the
    window's typed API, none knows another; what one offers another is
    connected here (the review docks: :func:`install_review_docks`).
    ``read_as``: the window's file's ``os.stat`` before it was read (its
    digest is taken after the first paint: :class:`app.fileops.FileOps`)."""
    from app.banner import install_banner, install_judgments_only_banner
    from app.clipboard_actions import install_clipboard_actions
    from app.drop import install_drop
    from app.encoding_status import install_encoding_status
    from app.fileops import install_file_ops
    from app.find import install_find
    from app.guidelines_dock import install_guidelines
    from app.help import install_help
    from app.keyboard import install_keyboard
    from app.outside_edits import install_outside_edits
    from app.plot_dock import install_plots
    from app.preferences import install_preferences
    from app.printing import install_printing
    from app.unread_annotators import install_unread_annotators

    window.file_ops = file_ops = install_file_ops(window, read_as=read_as)
    window.clipboard_actions = install_clipboard_actions(window)
    window.find_bar = install_find(window)
    window.plots = install_plots(window)
    window.preferences = install_preferences(window)
    window.unjudged_banner = banner = install_banner(window)
    # A run File > Open read with its qrels offers what to do with its
    # unjudged candidates, as one given at launch does (_opened).
    file_ops.opened.connect(lambda _path: banner.offer() if file_ops.qrels else None)
    window.judgments_only_banner = install_judgments_only_banner(window)
    window.outside_edits = outside = install_outside_edits(window)
    unread = install_unread_annotators(window, file_ops)  # (offered as each file opens)
    window.file_drop = install_drop(window, file_ops.open_path)
    window.keyboard = install_keyboard(window)
    install_encoding_status(window, file_ops)
    install_guidelines(window)  # a child of the window: lives as long
    install_printing(window)  # File > Print…, Print Preview…, Export PDF… (a child too)
    # Help > Keyboard shortcuts lists every action's shortcut when opened
    # (the review docks' too, installed after it).
    window.help_menu = install_help(window)
    return _Extras(file_ops, banner, outside, unread)


def install_review_docks(window: WindowApi) -> None:
    """The comparison, runs, explain, judges, judging queue and conflicts
    docks (hidden at a first start) and the review round's actions, on a
    window whose other add-ons :func:`build_window` installed; a dock the
    user's saved layout holds goes where it was left."""
    from app.fileops import FileOps
    from app.plot_dock import PlotDock
    from app.review.compare_dock import install_compare
    from app.review.conflicts_view import install_conflicts
    from app.review.explain_view import install_explain
    from app.review.judges_view import install_judges
    from app.review.queue_view import install_queue
    from app.review.rounds import install_rounds
    from app.review.runs_view import install_runs

    file_ops, plots = window.file_ops, window.plots
    assert isinstance(file_ops, FileOps)  # build_window installed them
    assert isinstance(plots, PlotDock)
    window.compare_view = compare = install_compare(window)
    compare.deltas_shown.connect(plots.show_comparison)
    install_runs(window)  # several runs at once: its dock tabbed with the comparison's
    window.explain_view = install_explain(window)
    window.judges_view = install_judges(window)
    # The review round's docks and actions (children of the window: they live as long).
    install_queue(window)
    install_conflicts(window)
    install_rounds(window, file_ops.open_path)


class _Splash(QSplashScreen):
    """A splash screen that shows without Qt's own wait for the window system
    (up to a second, all of it on some platforms): :func:`_splash` waits for
    it a bounded time itself."""

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.Show:
            return QWidget.event(self, e)
        return super().event(e)


def _splash(name: str) -> QSplashScreen:
    """A small window saying which file is being read, shown at once (reading
    a large run takes seconds before the main window can appear)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QPainter, QPixmap

    pixmap = QPixmap(460, 110)
    pixmap.fill(QColor("#f4f6f8"))
    painter = QPainter(pixmap)
    painter.setPen(QColor("#1f3b57"))
    font = painter.font()
    font.setPointSizeF(font.pointSizeF() * 1.4)
    font.setBold(True)
    painter.setFont(font)
    painter.drawText(pixmap.rect().adjusted(16, 14, -16, -50),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), APPLICATION)
    painter.end()
    splash = _Splash(pixmap)
    splash.setObjectName("startSplash")
    splash.show()
    splash.showMessage(f"Opening {name}…",
                       int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom),
                       QColor("#333333"))
    # Painted now: once the window system shows it (0.3 s at most).
    handle = splash.windowHandle()
    deadline = time.monotonic() + 0.3
    QApplication.processEvents()
    while handle is not None and not handle.isExposed() and time.monotonic() < deadline:
        time.sleep(0.005)
        QApplication.processEvents()
    splash.repaint()
    return splash


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
    from app.accessibility import letter_standard_buttons  # (imported by the window anyway)

    letter_standard_buttons(app)  # (Discard, Save, Cancel of the message boxes)
    collect_in_main_thread(app)  # before the read's thread, if not yet started, is
    QApplication.setOrganizationName(ORGANIZATION)
    QApplication.setApplicationName(APPLICATION)
    # The launcher may have started reading the file already (app.opening).
    key = reading_key(args.file, args.qrels, args.preset)
    early = bool(args.file) and key in READING
    foreign = None
    if args.file and not args.qrels and not early:
        from app.opening import needs_qrels
        from core.io.load import is_annotator_sheet

        # A run read with the qrels the window asks for (as File > Open
        # does); an annotators' sheet: the import wizard reads it.
        if needs_qrels(Path(args.file)) or is_annotator_sheet(Path(args.file)):
            foreign = Path(args.file)
    splash = None
    if args.file and not foreign:
        # Read while the window's modules load and the window is built.
        splash = _splash(Path(args.file).name)
        if not early:
            READING[key] = Reading(args.file, args.qrels, args.preset)
    # What the start imported lives as long as the event loop (modules,
    # functions, classes): frozen out of the collector's reach, a full
    # collection no longer walks it (one fell in every start: ~25 ms of the
    # main thread before the first paint, or after a run's arrival). The
    # window, built after, is not frozen (a document replaced later stays
    # collectable); an exception of its build unfreezes too.
    gc.freeze()
    try:
        return _run(app, args, foreign, splash)
    finally:
        gc.unfreeze()


def _run(app: QCoreApplication, args: argparse.Namespace, foreign: Path | None,
         splash: QSplashScreen | None) -> int:
    """:func:`main`'s window built, shown and its event loop run; the exit status."""
    # A run without its qrels, an annotators' sheet: the window starts
    # empty, the qrels' dialog or the import wizard over it.
    window = build_window(None if foreign else args.file, qrels=args.qrels,
                          preset=args.preset, review_docks=False, importing=foreign,
                          before_read=True)
    READING.clear()
    from app.first_paint import after_first_paint
    from app.startup_probe import probe_requested, quit_after_first_paint

    if window.compare_view is None:  # (installed while a file was read: app.main._while_reading)
        # The hidden docks once the window is on screen (their menus and
        # shortcuts right after its first paint).
        after_first_paint(window, lambda: install_review_docks(window))
    if probe_requested():  # the start-up benchmark's, through the environment
        quit_after_first_paint(window)
    window.show()  # (while the file is still read: app.reading_state)
    if splash is not None:
        splash.finish(window)
    status = int(app.exec())
    from app.reading_state import ReadingState

    waiting = window.findChild(ReadingState)
    if waiting is not None and waiting.waiting:  # closed while the file was read
        waiting.reading.abandon()
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
