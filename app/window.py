"""The main window: navigator, grid, conventions, summary and audit log over
one document, one evaluation and one undo stack.

Data flows one way: document -> :func:`core.engine.evaluation.evaluate` -> models ->
views. Edits are values (:mod:`core.model.edits`) applied by the window's
:class:`core.session.Worksheet` as one step each and pushed on the undo stack
(:mod:`app.commands`); the session answers every step, undo and redo with a
record of what changed, and the window refreshes its views from that record
(:meth:`MainWindow._on_changes`). Signals are connected here, in one place.

The typed API for add-ons (file operations, clipboard, find, plots, the review
docks, preferences, help); none of them touches anything else:
- state: ``session``, ``document``, ``path``, ``evaluation``, ``conventions``,
  ``undo_stack``, ``settings``, ``decimals`` (a callable), ``reviewer()`` (the
  name the audit log records), ``current_query``, ``current_query_id``, the
  views ``grid``, ``not_retrieved_view``, ``grid_model``, ``not_retrieved_model``,
  ``grid_panel``, ``summary_panel``, ``app_actions`` (id -> QAction), ``menus``,
  ``docks`` (objectName -> dock), ``workplace`` (the layout: reset, save, restore);
- signals ``document_replaced``, ``evaluation_changed``, ``current_query_changed``,
  ``grade_changed``, ``conventions_changed``, ``changes_discarded``;
- methods ``set_document``, ``set_path``, ``set_query``, ``select_candidate``,
  ``set_grade``, ``set_grades``, ``change_conventions``, ``menu``,
  ``add_action``, ``add_submenu``, ``add_dock`` (with its home: ``tab_with``,
  ``below``, ``hidden``), ``show_message``, ``fit_columns``; the hook
  ``save_handler``.
The add-ons are typed attributes (``file_ops``, ``clipboard_actions``, ``find_bar``,
``plots``, ``compare_view``, ``explain_view``, ``judges_view``, ``preferences``,
``unjudged_banner``, ``outside_edits``, ``file_drop``, ``help_menu``), None until
:func:`app.main.build_window` installs them. Grading never opens a dialog except
to ask why a candidate is unrateable.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QShowEvent, QUndoStack
from PySide6.QtWidgets import QDockWidget, QInputDialog, QMainWindow, QMenu, QMessageBox, QWidget

from app.actions import ActionSpec, build_actions, build_menus, make_action
from app.commands import push_edit
from app.judgment_clock import ActivityClock
from app.layout import DockHome, Workplace
from app.models.candidates import GridColumn
from app.panels.audit import AuditLogView
from app.panels.conventions import ConventionsPanel
from app.panels.grid import GradingTableView, GridPanel
from app.panels.navigator import QueryNavigator
from app.panels.summary import AggregateFooter, SummaryPanel
from app.settings import Settings, login_name
from core.engine.evaluation import Evaluation, Status, evaluate
from core.errors import NdcgError
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from core.model.edits import Edit, GradeValue, SetConventions, SetGrades
from core.session import Changes, Worksheet

if TYPE_CHECKING:
    from app.banner import UnjudgedBanner
    from app.clipboard_actions import ClipboardActions
    from app.drop import FileDrop
    from app.fileops import FileOps
    from app.find import FindBar
    from app.help import HelpMenu
    from app.outside_edits import OutsideEditsBanner
    from app.plot_dock import PlotDock
    from app.preferences import Preferences
    from app.review.compare_view import CompareController
    from app.review.explain_view import ExplainController
    from app.review.judges_view import JudgesController

__all__ = ["APP_TITLE", "MainWindow"]

APP_TITLE = "NDCG Worksheet"


class MainWindow(QMainWindow):
    """The editor's main window over one document."""

    #: The document was replaced (by :meth:`set_document`): carries the Document.
    document_replaced = Signal(object)
    #: A new evaluation is shown (after any edit): carries the Evaluation.
    evaluation_changed = Signal(object)
    #: Another query is shown: carries its index.
    current_query_changed = Signal(int)
    #: Grades changed (edit, paste, undo or redo): carries the first changed row.
    grade_changed = Signal(int)
    #: The conventions changed (edit, undo or redo): carries the Conventions.
    conventions_changed = Signal(object)
    #: The user closed the window discarding unsaved changes.
    changes_discarded = Signal()

    def __init__(self, document: Document | None = None, path: str | Path | None = None,
                 *, settings: Settings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.settings = settings or Settings()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setObjectName("undoStack")
        #: Called to save before closing; returns True when saved (set by file operations).
        self.save_handler: Callable[[], bool] | None = None
        #: The document, its evaluation and the history of edits (Qt-free).
        self.session = Worksheet(document if document is not None else _empty_document())
        self.session.subscribe(self._on_changes)
        #: The active seconds each typed grade took (the audit's time per judgment).
        self.activity_clock = ActivityClock(self.session, self)
        self.path: Path | None = Path(path) if path is not None else None
        self._query = -1
        # Read once: delegates ask for every painted cell, and QSettings reads
        # are far slower than an attribute (see refresh_display_settings).
        self._decimals = self.settings.decimals
        decimals = lambda: self._decimals  # noqa: E731
        #: The digits numbers are shown with (display only; values keep full precision).
        self.decimals: Callable[[], int] = decimals
        # The add-ons, installed by app.main.build_window.
        self.file_ops: FileOps | None = None
        self.clipboard_actions: ClipboardActions | None = None
        self.find_bar: FindBar | None = None
        self.plots: PlotDock | None = None
        self.compare_view: CompareController | None = None
        self.explain_view: ExplainController | None = None
        self.judges_view: JudgesController | None = None
        self.preferences: Preferences | None = None
        self.help_menu: HelpMenu | None = None
        self.unjudged_banner: UnjudgedBanner | None = None
        self.outside_edits: OutsideEditsBanner | None = None
        self.file_drop: FileDrop | None = None

        self.grid_panel = GridPanel(decimals, self)
        self.grid: GradingTableView = self.grid_panel.grid
        self.not_retrieved_view: GradingTableView = self.grid_panel.not_retrieved
        self.grid_model = self.grid_panel.model
        self.not_retrieved_model = self.grid_panel.not_retrieved_model
        self.setCentralWidget(self.grid_panel)

        self.navigator = QueryNavigator(decimals, self)
        self.conventions_panel = ConventionsPanel(self)
        self.summary_panel = SummaryPanel(decimals, self)
        self.audit_view = AuditLogView(self)
        self.audit_model = self.audit_view.audit_model
        self.footer = AggregateFooter(decimals, self)
        self.statusBar().addPermanentWidget(self.footer, 1)

        self.app_actions: dict[str, QAction] = build_actions(self)
        self.menus: dict[str, QMenu]
        self.menus, self.toolbar = build_menus(self, self.app_actions, self.undo_stack)
        #: Per menu, the action that add_action(at_top=True) inserts before.
        self._menu_tops: dict[str, QAction] = {}
        #: Where the docks live, the default layout, the saved one.
        self.workplace = Workplace(self, self.settings)
        self.docks: dict[str, QDockWidget] = self.workplace.docks
        area = Qt.DockWidgetArea
        self.add_dock("queryNavigatorDock", self.tr("Queries"), self.navigator,
                      area.LeftDockWidgetArea)
        self.add_dock("summaryPanelDock", self.tr("Summary"), self.summary_panel,
                      area.RightDockWidgetArea)
        # Below the summary, not behind it: a convention's effect shows as it changes.
        self.add_dock("conventionsPanelDock", self.tr("Conventions"), self.conventions_panel,
                      area.RightDockWidgetArea, below="summaryPanelDock")
        self.add_dock("auditLogDock", self.tr("Audit log"), self.audit_view,
                      area.BottomDockWidgetArea)
        self._fitted = False

        self._connect()
        self.set_document(self.document, self.path)

    # -- wiring (the one place) -------------------------------------------------------
    def _connect(self) -> None:
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.navigator.query_selected.connect(self.set_query)
        for view in (self.grid, self.not_retrieved_view):
            view.grade_key_pressed.connect(
                lambda row, grade, state, v=view: self.grid_panel.grade_row(
                    v, row, grade, GradeState(state), self.set_grade,
                    advance=self.settings.advance_after_grade))
        for model in (self.grid_model, self.not_retrieved_model):
            model.grade_edit_requested.connect(
                lambda i, grade, state, reason: self.set_grade(i, grade, GradeState(state),
                                                               reason=reason))
        self.conventions_panel.conventions_edited.connect(self.change_conventions)
        self.summary_panel.candidate_requested.connect(self.select_candidate)
        a = self.app_actions
        a["close"].triggered.connect(self.close)
        a["quit"].triggered.connect(self.close)
        a["reset_layout"].triggered.connect(lambda: self.workplace.reset())
        a["copy_sentence"].triggered.connect(self.summary_panel.copy_sentence)
        for action, state in (("grade_unknown", GradeState.UNKNOWN),
                              ("grade_unrateable", GradeState.UNRATEABLE)):
            a[action].triggered.connect(lambda _c=False, s=state: self.grid_panel.grade_current(
                None, s, self.set_grade, advance=self.settings.advance_after_grade))
        a["next_query"].triggered.connect(lambda: self._step_query(1))
        a["previous_query"].triggered.connect(lambda: self._step_query(-1))
        a["next_unresolved"].triggered.connect(
            lambda: self._step_query(1, status=Status.UNRESOLVED))

    # -- public API ---------------------------------------------------------------------
    @property
    def document(self) -> Document:
        return self.session.document

    @property
    def evaluation(self) -> Evaluation:
        return self.session.evaluation

    @property
    def conventions(self) -> Conventions:
        return self.document.conventions

    @property
    def current_query(self) -> int:
        """The index of the query shown (-1 when the document has none)."""
        return self._query

    @property
    def current_query_id(self) -> str | None:
        q = self._query
        return self.document.query_ids[q] if 0 <= q < self.document.n_queries else None

    def menu(self, menu_id: str) -> QMenu:
        """The menu ``file``, ``edit``, ``grade``, ``query``, ``review`` or ``view``."""
        return self.menus[menu_id]

    def add_action(self, spec: ActionSpec, slot: Callable[[], object], *,
                   at_top: bool = False) -> QAction:
        """Add an add-on's action: made from ``spec``, its shortcut live in the
        whole window, listed in ``app_actions`` and in the menu ``spec.menu``
        (at the end, or with ``at_top`` before the menu's own actions, in the
        order added), on the toolbar when ``spec.toolbar``."""
        action = make_action(spec, self)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        self.app_actions[spec.id] = action
        menu = self.menus[spec.menu]
        if at_top:
            top = self._menu_tops.get(spec.menu)
            if top is None:
                first = menu.actions()[0] if menu.actions() else None
                top = menu.insertSeparator(first) if first is not None else menu.addSeparator()
                self._menu_tops[spec.menu] = top
            menu.insertAction(top, action)
        else:
            menu.addAction(action)
        if spec.toolbar:
            self.toolbar.addAction(action)
        return action

    def add_submenu(self, menu_id: str, submenu: QMenu, *, after: QAction) -> None:
        """Put ``submenu`` into the menu ``menu_id`` right after ``after``."""
        menu = self.menus[menu_id]
        actions = menu.actions()
        following = actions[actions.index(after) + 1] if after in actions[:-1] else None
        if following is None:
            menu.addMenu(submenu)
        else:
            menu.insertMenu(following, submenu)

    def add_dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea, *,
                 tab_with: str | None = None, below: str | None = None,
                 hidden: bool = False) -> QDockWidget:
        """A dock around ``widget`` (objectName ``name``, listed in ``docks`` and
        the View menu) in ``area``: with ``tab_with``, tabbed behind that dock;
        with ``below``, under that dock in its column; ``hidden`` until shown.
        That is its home: View > Reset layout puts it back there."""
        dock = self.workplace.add_dock(name, title, widget,
                                       DockHome(area, tab_with, below, hidden))
        self.menus["view"].addAction(dock.toggleViewAction())
        return dock

    def set_path(self, path: str | Path | None) -> None:
        """The file the document is saved to (title bar and Open Recent follow)."""
        self.path = Path(path) if path is not None else None
        self.setWindowFilePath(str(self.path) if self.path is not None else "")
        self._update_title()

    def show_message(self, text: str, ms: int = 8000) -> None:
        """A message in the status bar for ``ms`` milliseconds."""
        self.statusBar().showMessage(text, ms)

    def set_document(self, doc: Document, path: str | Path | None = None) -> None:
        """Show ``doc`` (from ``path``, or None for a new/example document).

        The one way to load a document: clears the undo stack (clean state),
        evaluates, resets every view, shows the first query and emits
        :attr:`document_replaced`. May raise :class:`core.errors.InputError`
        when the document cannot be evaluated under its conventions.
        """
        ev = evaluate(doc)  # raises before anything changes
        self.undo_stack.clear()
        self.session.replace_document(doc, ev)
        self.path = Path(path) if path is not None else None
        self.setWindowFilePath(str(self.path) if self.path is not None else "")
        self.undo_stack.setClean()
        self._query = 0 if doc.n_queries else -1
        self.navigator.set_evaluation(ev)
        self.grid_model.set_evaluation(ev, self._query)
        self.not_retrieved_model.set_evaluation(ev, self._query)
        self.conventions_panel.set_conventions(doc.conventions)
        self.summary_panel.show_query(ev, self._query)
        self.footer.set_evaluation(ev)
        self.audit_model.set_document(doc)
        self.navigator.select_query(self._query)
        self._update_title()
        self.setWindowModified(False)
        self._show_first_row()
        if self.isVisible():
            self.fit_columns()
        self.document_replaced.emit(doc)
        self.evaluation_changed.emit(ev)
        self.current_query_changed.emit(self._query)

    def set_query(self, q: int) -> None:
        """Show query ``q`` in the grid and the summary."""
        if not 0 <= q < self.document.n_queries or q == self._query:
            return
        self._query = q
        ev = self.evaluation
        self.grid_model.set_evaluation(ev, q)
        self.not_retrieved_model.set_evaluation(ev, q)
        self.summary_panel.show_query(ev, q)
        self.navigator.select_query(q)
        self._show_first_row()
        if self._fitted:
            self.grid_panel.widen_columns()
        self.current_query_changed.emit(q)

    def select_candidate(self, index: int) -> None:
        """Show candidate ``index``'s query and make its grade cell current."""
        self.set_query(int(self.document.query[index]))
        for view, model in ((self.grid, self.grid_model),
                            (self.not_retrieved_view, self.not_retrieved_model)):
            row = model.row_of(index)
            if row is not None:
                view.setCurrentIndex(model.index(row, GridColumn.GRADE))
                view.setFocus()
                return

    def reviewer(self) -> str:
        """The name the audit log records: the one set in the preferences, else
        the operating system's user name (grading never stops to ask)."""
        return self.settings.reviewer or login_name()

    def set_grade(self, index: int, grade: float | None, state: GradeState = GradeState.NUMBER,
                  *, reason: str | None = None, note: str = "") -> bool:
        """Set candidate ``index``'s grade as one undoable step; False if refused.

        Refused (with a status-bar message) when the unrateable reason is
        cancelled or the grade is invalid under the conventions (e.g. negative
        under exponential gain).
        """
        state = GradeState(state)
        if state is GradeState.NUMBER and (grade is None or grade != grade):
            return False
        if state is GradeState.UNRATEABLE and reason is None:
            reason = self._ask_reason()
            if reason is None:
                return False
        doc = self.document
        value = GradeValue.typed(grade, state, reason)
        before = GradeValue.of(doc, index)
        label = f"{doc.query_ids[int(doc.query[index])]}/{doc.source_text(index)}"
        return self.set_grades([index], [value], note=note,
                               text=f"grade {label}: {before.text} → {value.text}",
                               seconds=self.activity_clock.lap())

    def set_grades(self, rows: list[int], values: list[GradeValue], *, note: str = "",
                   text: str = "", seconds: float | None = None) -> bool:
        """Give ``rows`` the grades ``values`` as one undoable step (a paste, a
        fill-down: one re-evaluation, one refresh); False if refused (the
        reason is in the status bar). ``seconds``: the active time a typed
        grade took (a paste or fill-down is not timed)."""
        return self._push(SetGrades.of(rows, values, who=self.reviewer(), note=note,
                                       text=text or f"set {len(rows)} grades",
                                       seconds=seconds)) is None

    def change_conventions(self, new: Conventions, text: str = "") -> str | None:
        """Push an undoable change of conventions; the error text if refused."""
        if new == self.conventions:
            return None
        problem = self._push(SetConventions(new, text or "change conventions"))
        if problem is not None:
            self.conventions_panel.set_conventions(self.conventions)
            self.conventions_panel.show_error(problem)
        return problem

    def _push(self, edit: Edit) -> str | None:
        """Apply ``edit`` as one undo step; the error text (also shown in the
        status bar) if the session refused it."""
        try:
            push_edit(self.undo_stack, self.session, edit)
        except NdcgError as exc:
            self.statusBar().showMessage(str(exc), 10000)
            return str(exc)
        return None

    # -- the session's records of what changed (edits, undo, redo) ------------------------
    def _on_changes(self, changes: Changes) -> None:
        if changes.document:
            return  # set_document shows a new document itself
        if changes.conventions:
            self.conventions_panel.set_conventions(self.conventions)
            self._refresh(changed=None, queries=None)
            self.conventions_changed.emit(self.conventions)
            return
        rows = changes.rows.tolist()
        queries = changes.queries.tolist()
        if self._query not in queries:
            self._query = -1
            self.set_query(int(self.document.query[rows[0]]))
        self._refresh(changed=rows, queries=queries)
        self.audit_model.sync()
        self.grade_changed.emit(rows[0])

    # -- internals ----------------------------------------------------------------------
    def _show_first_row(self) -> None:
        """The first row's grade cell current, the grid shown from its first
        column (Rank, Source) and row."""
        if self._query < 0 or not self.grid_model.rowCount():
            return
        self.grid.setAutoScroll(False)  # setCurrentIndex would scroll to the grade column
        try:
            self.grid.setCurrentIndex(self.grid_model.index(0, GridColumn.GRADE))
        finally:
            self.grid.setAutoScroll(True)
        self.grid.scrollToTop()
        self.grid.horizontalScrollBar().setValue(0)

    def _refresh(self, *, changed: list[int] | None, queries: list[int] | None) -> None:
        ev = self.evaluation
        self.navigator.set_evaluation(ev, queries=queries)
        self.grid_model.set_evaluation(ev, self._query, changed=changed)
        self.not_retrieved_model.set_evaluation(ev, self._query, changed=changed)
        self.summary_panel.show_query(ev, self._query)
        self.footer.set_evaluation(ev)
        self.evaluation_changed.emit(ev)

    def _clean_changed(self, clean: bool) -> None:
        self.setWindowModified(not clean)

    def refresh_display_settings(self) -> None:
        """Re-read display settings (decimals) and repaint."""
        self._decimals = self.settings.decimals
        for view in (self.grid, self.not_retrieved_view, self.navigator.view):
            view.viewport().update()
        self.summary_panel.show_query(self.evaluation, self._query)
        self.footer.set_evaluation(self.evaluation)

    def _update_title(self) -> None:
        name = self.path.name if self.path is not None else (
            f"{self.document.name} (example)" if self.document.name else "untitled")
        self.setWindowTitle(f"{name}[*] — {APP_TITLE}")

    def _ask_reason(self) -> str | None:
        text, ok = QInputDialog.getText(
            self, self.tr("Unrateable"), self.tr("Why can this candidate not be judged?"),
            text=self.settings.last_unrateable_reason)
        if not ok:
            return None
        self.settings.last_unrateable_reason = text.strip()
        return text.strip()

    def _step_query(self, delta: int, *, status: Status | None = None) -> None:
        q = self.navigator.step(delta, status=status)
        if q is not None:
            self.set_query(q)

    # -- showing, closing ------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._fitted:  # once laid out, the first time: the rows in view count
            self._fitted = True
            QTimer.singleShot(0, self.fit_columns)

    def fit_columns(self) -> None:
        """Size the grids' columns to their contents and headers, and show the
        grid from its first column."""
        self.grid_panel.fit_columns()  # (the navigator and the summary fit themselves)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.undo_stack.isClean() and not self._may_close():
            event.ignore()
            return
        self.workplace.save()  # the next start opens as the user left it
        event.accept()

    def _may_close(self) -> bool:
        """Ask what to do with unsaved changes; True to close."""
        buttons = QMessageBox.StandardButton
        choices = buttons.Discard | buttons.Cancel
        if self.save_handler is not None:
            choices |= buttons.Save
        answer = QMessageBox.question(
            self, self.tr("Unsaved changes"),
            self.tr("This worksheet has unsaved changes. Close anyway?"), choices,
            buttons.Cancel)
        saved = answer == buttons.Save and self.save_handler is not None and self.save_handler()
        if answer == buttons.Discard:
            self.changes_discarded.emit()  # e.g. the journal forgets them
        return answer == buttons.Discard or bool(saved)


def _empty_document() -> Document:
    return Document.from_columns(query=[], source_id=[])
