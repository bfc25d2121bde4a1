"""The main window as its add-ons see it: the one interface they depend on.

File operations, the clipboard, find, the plots, the review docks,
preferences, help, the banners and dropped files are given a
:class:`WindowApi` and use nothing else of the window; the window
(:class:`app.window.MainWindow`, which implements it) never names their types,
and :func:`app.main.build_window`, the composition root, installs them. So no
add-on imports :mod:`app.window` and there is no import cycle, not even
through imports made only for type checking (an import-linter contract in
``pyproject.toml`` says so).

Why a base class and not a ``typing.Protocol``: the add-ons parent their
dialogs, docks and actions on the window, so what they are given must be a
``QMainWindow`` too, and a protocol cannot also be one. The members below are
declarations; :class:`~app.window.MainWindow` makes them, and mypy checks that
its overrides keep these signatures.

- state: ``session`` (the document, its evaluation, the one undo history and
  the saved position), ``document``, ``evaluation``, ``conventions``, ``path``
  (the file the document is saved to: the window is its one owner),
  ``settings``, ``decimals`` (a callable), ``reviewer()``, ``current_query``,
  ``current_query_id``, the views ``grid``, ``not_retrieved_view``,
  ``grid_panel``, ``summary_panel``, ``app_actions`` (id -> QAction),
  ``menus``, ``docks`` (objectName -> dock), ``workplace``;
- signals, each emitted once every view shows the step it announces;
- methods to show, edit and extend; the hooks ``save_handler`` and
  ``close_question``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QWidget

from app.actions import ActionSpec
from app.layout import Workplace
from app.models.candidates import GridColumn
from app.panels.conventions import ConventionsPanel
from app.panels.grading_view import GradingTableView
from app.panels.grid import GridPanel
from app.panels.navigator import QueryNavigator
from app.panels.summary import SummaryPanel
from app.settings import Settings
from core.engine.evaluation import Evaluation
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from core.model.edits import GradeValue
from core.session import Worksheet

__all__ = ["WindowApi"]


class WindowApi(QMainWindow):
    """What an add-on may use of the main window."""

    #: The document was replaced (opened, recovered, imported): carries the Document.
    document_replaced = Signal(object)
    #: A new evaluation is shown (after any step): carries the Evaluation.
    evaluation_changed = Signal(object)
    #: Another query is shown: carries its index.
    current_query_changed = Signal(int)
    #: The display settings changed (the decimals shown): a view that writes
    #: numbers into its text writes them again.
    display_changed = Signal()
    #: Grades changed (edit, paste, undo or redo): carries the first changed row.
    grade_changed = Signal(int)
    #: The conventions changed (edit, undo or redo): carries the Conventions.
    conventions_changed = Signal(object)
    #: The user closed the window discarding unsaved changes.
    changes_discarded = Signal()
    #: The window's close was accepted: it closes now.
    closing = Signal()

    session: Worksheet
    settings: Settings
    #: The digits numbers are shown with (display only; values keep full precision).
    decimals: Callable[[], int]
    grid: GradingTableView
    not_retrieved_view: GradingTableView
    grid_panel: GridPanel
    navigator: QueryNavigator
    app_actions: dict[str, QAction]
    menus: dict[str, QMenu]
    docks: dict[str, QDockWidget]
    workplace: Workplace
    #: Called to save before closing; returns True when saved (set by file operations).
    save_handler: Callable[[], bool] | None
    #: The question on closing with unsaved changes, naming the document (set
    #: by file operations; without them the window asks without a name).
    close_question: Callable[[], str] | None
    #: Where :func:`app.main.build_window` keeps each add-on it installs (the
    #: window keeps them alive; neither it nor this interface names their types).
    file_ops: object | None
    clipboard_actions: object | None
    find_bar: object | None
    plots: object | None
    compare_view: object | None
    explain_view: object | None
    judges_view: object | None
    preferences: object | None
    help_menu: object | None
    unjudged_banner: object | None
    judgments_only_banner: object | None
    outside_edits: object | None
    file_drop: object | None
    keyboard: object | None

    # -- state ---------------------------------------------------------------------------
    @property
    def document(self) -> Document:
        return self.session.document

    @property
    def evaluation(self) -> Evaluation:
        return self.session.evaluation

    @property
    def conventions(self) -> Conventions:
        return self.session.conventions

    @property
    def summary_panel(self) -> SummaryPanel:
        """The current query's summary (made now when it is not yet: it is
        made when first seen, :mod:`app.deferred`)."""
        raise NotImplementedError

    @property
    def conventions_panel(self) -> ConventionsPanel:
        """The conventions panel (made now when it is not yet)."""
        raise NotImplementedError

    @property
    def path(self) -> Path | None:
        """The file the document is saved to (None: not saved yet)."""
        raise NotImplementedError

    @property
    def current_query(self) -> int:
        """The index of the query shown (-1 when the document has none)."""
        raise NotImplementedError

    @property
    def current_query_id(self) -> str | None:
        raise NotImplementedError

    def reviewer(self) -> str:
        """The name the audit log records."""
        raise NotImplementedError

    # -- showing ---------------------------------------------------------------------------
    def set_document(self, doc: Document, path: str | Path | None = None, *,
                     saved: bool = True, evaluation: Evaluation | None = None) -> None:
        """Show ``doc`` (from ``path``), the history cleared (``evaluation``:
        ``doc``'s, when worked out already)."""
        raise NotImplementedError

    def set_path(self, path: str | Path | None) -> None:
        """The file the document is saved to (after Save As)."""
        raise NotImplementedError

    def set_query(self, q: int) -> None:
        raise NotImplementedError

    def select_candidate(self, index: int, *, focus: bool = True,
                         column: GridColumn = GridColumn.GRADE) -> None:
        raise NotImplementedError

    def show_message(self, text: str, ms: int = 8000) -> None:
        raise NotImplementedError

    def fit_columns(self) -> None:
        raise NotImplementedError

    def refresh_display_settings(self) -> None:
        raise NotImplementedError

    # -- editing (one step of the session's history each) ----------------------------------
    def set_grade(self, index: int, grade: float | None, state: GradeState = GradeState.NUMBER,
                  *, reason: str | None = None, note: str = "") -> bool:
        raise NotImplementedError

    def set_grades(self, rows: list[int], values: list[GradeValue], *, note: str = "",
                   text: str = "", seconds: float | None = None) -> bool:
        raise NotImplementedError

    def set_note(self, index: int, note: str) -> bool:
        raise NotImplementedError

    def set_notes(self, rows: list[int], notes: list[str], *, text: str = "",
                  why: str = "") -> bool:
        raise NotImplementedError

    def set_query_text(self, q: int, text: str, *, why: str = "") -> bool:
        raise NotImplementedError

    def change_conventions(self, new: Conventions, text: str = "") -> str | None:
        raise NotImplementedError

    # -- extending -------------------------------------------------------------------------
    def menu(self, menu_id: str) -> QMenu:
        raise NotImplementedError

    def add_action(self, spec: ActionSpec, slot: Callable[[], object], *,
                   at_top: bool = False) -> QAction:
        raise NotImplementedError

    def add_submenu(self, menu_id: str, submenu: QMenu, *, after: QAction) -> None:
        raise NotImplementedError

    def add_dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea, *,
                 tab_with: str | None = None, below: str | None = None,
                 hidden: bool = False) -> QDockWidget:
        raise NotImplementedError
