"""Test set-up: Qt offscreen, settings isolated, hypothesis profile for CI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent
#: The screen the tests' windows open on: a laptop's 1280x800 (Qt's offscreen
#: platform would offer 800x800 otherwise, a screen no reviewer has, narrower
#: than the window's one-column layout's threshold: every window test would
#: run in the layout meant for a 2x-scaled screen).
TEST_SCREEN = REPO / "tests" / "data" / "offscreen-1280x800.json"
if os.environ.get("QT_QPA_PLATFORM", "offscreen") == "offscreen":
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={TEST_SCREEN}"
os.environ.setdefault("MPLBACKEND", "Agg")

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci")


def _draws_of_the_test_alone() -> None:
    """Hypothesis (6.131 on) draws about one value in twenty from the
    literals of the modules imported so far from outside site-packages (its
    "local constants": ``core``, ``app``), collected again each time
    ``sys.modules`` grows: a test with ``derandomize=True`` drew other
    examples after other test files had imported other modules (how two
    rare failures of tests/test_import_properties.py slipped through).
    Their pool is kept empty, so a test's draws are the test's and
    Hypothesis's alone. A Hypothesis without the pool (before 6.131,
    which pyproject.toml still admits) has nothing to keep empty; one that
    renames it fails tests/test_hypothesis_draws.py, not the whole run."""
    from hypothesis.internal.conjecture import providers

    constants = getattr(providers, "Constants", None)
    if constants is None or not hasattr(providers, "_get_local_constants"):
        return
    empty = constants()
    providers._get_local_constants = lambda: empty


_draws_of_the_test_alone()

#: trec_eval's own test files, copied into the repository with their notice
#: (``tests/data/trec_eval/README.md``): no test reads outside the repository.
TREC_REFERENCE = REPO / "tests" / "data" / "trec_eval"


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Keep QSettings and the journal out of the real home folder."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    try:
        from PySide6.QtCore import QSettings
    except ImportError:  # Qt tests then fail on their own import, loudly.
        yield
        return
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(home / ".config")
    )
    yield
    _release_held_keys()
    _remove_translators()
    # A window turns automatic collection off for the process (the GUI
    # thread collects from its event loop: app/collector.py); a test that
    # runs no event loop gets the collections it is due here, in this thread.
    from app.collector import collect_due

    collect_due()


def _release_held_keys() -> None:
    """Let go of the modifier keys a test left held. A key click with Ctrl
    that a shortcut takes (Ctrl+Z, Ctrl+C) leaves Qt's application-wide
    modifier state at Ctrl until the next key event; the next test's
    ``setCurrentIndex`` then toggled the cell instead of selecting it (a
    grid selection made with Shift then left out its first column)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QWidget

    if not isinstance(QApplication.instance(), QApplication):
        return
    if QGuiApplication.keyboardModifiers() != Qt.KeyboardModifier.NoModifier:
        target = QWidget()
        QTest.keyRelease(target, Qt.Key.Key_Control)  # (a release with no modifier held)
        target.deleteLater()


def _remove_translators() -> None:
    """Take out the translators a test's ``app.main.main`` installed on the
    application (``letter_standard_buttons``: the message boxes' lettered
    buttons): the application outlives the test, and the next test that
    asks for Qt's own button texts read '&Cancel' (an accessibility test
    after a workplace test that ran ``main([])``, in one worker)."""
    from PySide6.QtCore import QTranslator
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    for translator in app.findChildren(QTranslator):
        app.removeTranslator(translator)
        translator.setParent(None)


@pytest.fixture
def boxes(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The message boxes the test's windows show, recorded, never modal
    (tests/appboxes.py; Qt imported only by the tests that ask for it)."""
    from tests.appboxes import Boxes

    return Boxes(monkeypatch)


def doc_of(rows, **kw):  # type: ignore[no-untyped-def]
    """A document from (query, source, score, grade) rows."""
    from core.model.document import Document

    return Document.from_columns(
        query=[r[0] for r in rows], source_id=[r[1] for r in rows],
        score=[r[2] for r in rows], grade=[r[3] for r in rows], **kw,
    )


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    """The main window on the bundled example, shown, with a reviewer name."""
    from app.main import build_window
    from app.settings import Settings

    Settings().reviewer = "tester"
    w = build_window(None)
    # Closing at teardown must not ask: pytest-qt closes the widgets before
    # a fixture's code after its yield runs, so the saved state is marked
    # where qtbot closes it (a test's edits left a question that the test's
    # boxes, tests/appboxes.py, had no answer for).
    qtbot.addWidget(w, before_close_func=lambda shown: shown.session.mark_saved())
    w.show()
    return w


@pytest.fixture
def never_block(monkeypatch):  # type: ignore[no-untyped-def]
    """A close that would ask "save your changes?" gets Discard unless a
    test says otherwise (a modal box would hang the run)."""
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))


#: Test files that take far longer than their number of tests says, longest
#: first (seconds on one worker of the full run of 2026-12-07 under load 8:
#: Spark ~150, LibreOffice's recalculations 100, the soak 75, the hostile
#: workbooks 56, ...). They go to the workers first: xdist sends files
#: (``--dist loadfile``) by their number of tests, most first, which sent
#: tests/test_soak.py (2 tests, 75 s) 171st of 177, with the other worker
#: left idle while it ran. The others follow, most tests first, as xdist
#: sent them (``--no-loadscope-reorder`` in pyproject.toml keeps this order).
SLOW_FILES = (
    "test_scale_engines.py", "test_workbook_libreoffice.py", "test_soak.py",
    "test_hostile_xlsx.py", "test_workbook_libreoffice_edits.py",
    "test_workbook_comparison.py", "test_workbook_annotators_saved.py",
    "test_workbook_annotators_moved.py", "test_trec_spaced_tag.py", "test_gain_rules.py",
    "test_ods_libreoffice.py", "test_workbook_ods.py", "test_hostile_text.py",
)


def pytest_configure(config: pytest.Config) -> None:
    """Refuse a run whose :data:`SLOW_FILES` names a file tests/ does not
    hold (renamed or removed): it would drop out of the order in silence."""
    folder = Path(__file__).resolve().parent
    for name in SLOW_FILES:
        if not (folder / name).is_file():
            raise pytest.UsageError(
                f"tests/conftest.py's SLOW_FILES names {name}, which is no file in "
                "tests/: write its new name there, or take it out")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow files first (:data:`SLOW_FILES`), then the others by their
    number of tests, most first; each file's tests together, in their order."""
    counts: dict[Path, int] = {}
    for item in items:
        counts[item.path] = counts.get(item.path, 0) + 1
    slow = {name: i for i, name in enumerate(SLOW_FILES)}

    def place(item: pytest.Item) -> tuple[int, int]:
        name = item.path.name
        return (slow[name], 0) if name in slow else (len(slow), -counts[item.path])

    items[:] = sorted(items, key=place)
