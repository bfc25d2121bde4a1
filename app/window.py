"""The main window: navigator, grid, conventions, summary and audit log over
one :class:`core.session.Worksheet` (the document, its evaluation, the one
undo history and the saved position).

Data flows one way: document -> :func:`core.engine.evaluation.evaluate` -> models ->
views. Edits are values (:mod:`core.model.edits`) the session applies as one
step each; it answers every step, undo, redo and replaced document with one
record of what changed (:class:`core.session.Changes`), and every view
subscribes to those records (:meth:`MainWindow._follow_session`, the one place
they are connected): nothing is refreshed by hand. The window only reads the
session for Undo and Redo (enabled, "Undo grade q1/d3: 1 → 3") and for the
modified flag in the title (the position is not the saved one).

What add-ons (file operations, clipboard, find, plots, the review docks,
preferences, help) may use is declared in :class:`app.window_api.WindowApi`,
which this window implements; it never names their types. They are kept as
attributes (``file_ops``, ``clipboard_actions``, ``find_bar``, ``plots``,
``compare_view``, ``explain_view``, ``judges_view``, ``preferences``,
``unjudged_banner``, ``judgments_only_banner``, ``outside_edits``, ``file_drop``,
``keyboard``, ``help_menu``), None
until :func:`app.main.build_window`, which knows their types, installs them.
Grading never opens a dialog except to ask why a candidate is unrateable.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QShowEvent
from PySide6.QtWidgets import QDockWidget, QMenu, QMessageBox, QWidget

from app.accessibility import tab_order, without_mnemonic
from app.actions import HISTORY, ActionSpec, build_actions, build_menus, history_text, make_action
from app.deferred import DeferredView, Unmade
from app.delegates import grade_words
from app.dock_homes import STACKED_FROM, DockHome
from app.judgment_clock import ActivityClock
from app.layout import Workplace
from app.models.candidates import CandidateModel, GridColumn
from app.panels.audit import AuditLogView
from app.panels.column_chooser import ColumnChooser
from app.panels.conventions import ConventionsPanel
from app.panels.grading_view import GradingTableView
from app.panels.grid import GridPanel
from app.panels.navigator import QueryNavigator
from app.panels.summary import AggregateFooter, SummaryPanel
from app.settings import Settings
from app.shown import CELL_SHOWN, bounded, boxed
from app.window_edits import EditingWindow
from core.analysis.queue import first_unknown
from core.engine.evaluation import Evaluation, Status, evaluate
from core.model.document import Document, GradeState
from core.model.numbers import counted
from core.session import Changes, Listener, Worksheet

__all__ = ["APP_TITLE", "MainWindow"]

APP_TITLE = "NDCG Worksheet"


class MainWindow(EditingWindow):
    """The editor's main window over one document."""

    def __init__(self, document: Document | None = None, path: str | Path | None = None,
                 *, settings: Settings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.settings = settings or Settings()
        self.save_handler = None
        self.close_question = None
        #: The document, its evaluation, the history of edits and the saved
        #: position (Qt-free); every view follows its records of what changed.
        self.session = Worksheet(_empty_document())  # (shown by set_document below)
        #: The file the document is saved to: this is its one owner (set_path).
        self._path: Path | None = None
        self._query = -1
        #: The query shown moved with the last step (the views show the new one).
        self._query_moved = False
        # Read once: delegates ask for every painted cell, and QSettings reads
        # are far slower than an attribute (see refresh_display_settings).
        self._decimals = self.settings.decimals
        decimals = lambda: self._decimals  # noqa: E731
        #: The digits numbers are shown with (display only; values keep full precision).
        self.decimals: Callable[[], int] = decimals
        # The add-ons' slots (declared in WindowApi), filled by app.main.build_window.
        self.file_ops = None
        self.clipboard_actions = None
        self.find_bar = None
        self.plots = None
        self.compare_view = None
        self.explain_view = None
        self.judges_view = None
        self.preferences = None
        self.help_menu = None
        self.unjudged_banner = None
        self.judgments_only_banner = None
        self.outside_edits = None
        self.file_drop = None
        self.keyboard = None

        self.grid_panel = GridPanel(decimals, self)
        self.grid: GradingTableView = self.grid_panel.grid
        self.not_retrieved_view: GradingTableView = self.grid_panel.not_retrieved
        self.grid_model = self.grid_panel.model
        #: The active seconds each typed grade took (the audit's time per judgment).
        self.activity_clock = ActivityClock(self.session, self, grid=self.grid.viewport())
        self.not_retrieved_model = self.grid_panel.not_retrieved_model
        self.setCentralWidget(self.grid_panel)
        #: The grids' visual column order and hidden columns (View > Columns).
        self.grid_columns = ColumnChooser(self.grid, (self.not_retrieved_view,),
                                          self.grid_model.columns, self.settings, self)

        self.navigator = QueryNavigator(decimals, self)
        self.audit_view = AuditLogView(self, decimals)
        self.audit_model = self.audit_view.audit_model
        self.footer = AggregateFooter(decimals, self)
        self.statusBar().addPermanentWidget(self.footer, 1)

        self.app_actions: dict[str, QAction] = build_actions(self)
        self.menus: dict[str, QMenu]
        self.menus, self.toolbar = build_menus(self, self.app_actions)
        #: Per menu, the action that add_action(at_top=True) inserts before.
        self._menu_tops: dict[str, QAction] = {}
        #: Where the docks live, the default layout, the saved one.
        self.workplace = Workplace(self, self.settings)
        self.workplace.grid_least = self.grid_panel.key_width
        self.workplace.grid_whole = self.grid_panel.whole_widths
        self.docks: dict[str, QDockWidget] = self.workplace.docks
        self._lay_out()
        # Tab from the query list goes on to the grids, as the window reads:
        # the grids, made before the docks, came last (after the audit log,
        # the summary, the conventions and the plots). The grid keeps the
        # focus a first show gives (the chain's first control, before: the
        # filter now, which took a grade typed at once as a filter).
        tab_order(self.navigator.view, self.grid, self.not_retrieved_view)
        self.grid.setFocus()
        self._fitted = False
        #: The grid's rows overflow it (:meth:`_rows_overflow`).
        self._overflow = False

        self._connect()
        self._follow_session()
        self.set_document(document if document is not None else self.document, path)

    # -- the layout ---------------------------------------------------------------------
    def _lay_out(self) -> None:
        """The panels' docks at home, and the grid's columns as the reviewer left them."""
        self.add_submenu("view", self.grid_columns.menu, after=self.app_actions["reset_layout"])
        self.grid_columns.restore()
        self.grid_panel.kept.keep_in(self.settings)  # (the widths sized in a past session)
        area = Qt.DockWidgetArea
        self.add_dock("queryNavigatorDock", self.tr("&Queries"), self.navigator,
                      area.LeftDockWidgetArea)
        # The summary and the conventions are made when first seen or
        # sized (app.deferred): behind the Queries tab in one side column,
        # not at every launch (docs/benchmarks.md, hopen).
        summary = self.add_dock("summaryPanelDock", self.tr("&Summary"), Unmade(),
                                area.RightDockWidgetArea)
        self._summary = DeferredView(summary, lambda: SummaryPanel(self.decimals, self),
                                     self._wire_summary)
        # Below the summary where the window is tall enough (a convention's
        # effect shows as it changes); on a laptop's screen behind it, a tab
        # each with the column's whole height, rather than two cramped halves.
        conventions = self.add_dock("conventionsPanelDock", self.tr("Co&nventions"), Unmade(),
                                    area.RightDockWidgetArea, below="summaryPanelDock",
                                    stacked_from=STACKED_FROM)
        self._conventions = DeferredView(
            conventions, lambda: ConventionsPanel(self, self.decimals), self._wire_conventions)
        self.add_dock("auditLogDock", self.tr("&Audit log"), self.audit_view,
                      area.BottomDockWidgetArea)

    # -- wiring (the one place) -------------------------------------------------------
    def _connect(self) -> None:
        self.navigator.query_selected.connect(self.set_query)
        for view in (self.grid, self.not_retrieved_view):
            view.grade_key_pressed.connect(
                lambda row, grade, state, v=view: self.grid_panel.grade_row(
                    v, row, grade, GradeState(state), self.set_grade,
                    advance=self.settings.advance_after_grade, at_end=self._after_last_row))
        for model in (self.grid_model, self.not_retrieved_model):
            model.grade_edit_requested.connect(
                lambda i, grade, state, reason: self.set_grade(i, grade, GradeState(state),
                                                               reason=reason))
            model.note_edit_requested.connect(self.set_note)
        a = self.app_actions
        a["undo"].triggered.connect(lambda: self._step(self.session.undo))
        a["redo"].triggered.connect(lambda: self._step(self.session.redo))
        a["close"].triggered.connect(self.close)
        a["quit"].triggered.connect(self.close)
        a["reset_layout"].triggered.connect(self.reset_layout)
        a["reset_column_widths"].triggered.connect(self.reset_column_widths)
        # Refitted once laid out: a column shown or hidden changes the source's
        # room, and the grid's need (the original grade, shown by an edit).
        self.grid_columns.changed.connect(
            lambda: QTimer.singleShot(0, self._columns_changed) if self._fitted else None)
        # The grid needs its vertical scroll bar's width too once its rows overflow it.
        self.grid.verticalScrollBar().rangeChanged.connect(self._rows_overflow)
        # So is the grid's room, when the side columns become one or two again.
        self.workplace.sides_changed.connect(
            lambda _one: QTimer.singleShot(0, self.fit_columns) if self._fitted else None)
        # Where the side columns the user dragged keep their widths, it says so.
        self.workplace.widths_kept.connect(lambda short: self.show_message(self.tr(
            "The grid scrolls sideways ({0} px short of its key columns): the side columns "
            "keep the widths you gave them; View > Reset layout gives it its room").format(short)))
        a["copy_sentence"].triggered.connect(lambda: self.summary_panel.copy_sentence())
        for action, state in (("grade_unknown", GradeState.UNKNOWN),
                              ("grade_unrateable", GradeState.UNRATEABLE)):
            a[action].triggered.connect(lambda _c=False, s=state: self.grid_panel.grade_current(
                None, s, self.set_grade, advance=self.settings.advance_after_grade,
                at_end=self._after_last_row))
        a["edit_query_text"].triggered.connect(self.edit_query_text)
        a["next_query"].triggered.connect(lambda: self._step_query(1))
        a["previous_query"].triggered.connect(lambda: self._step_query(-1))
        a["next_unresolved"].triggered.connect(
            lambda: self._step_query(1, status=Status.UNRESOLVED))

    def _follow_session(self) -> None:
        """Every view follows the session's records of what changed (an edit,
        undo, redo, a replaced document, a save), one subscription each: the
        query shown first (the views show it), then the views, then what the
        window itself shows (title, Undo, Redo) and its signals for add-ons."""
        s = self.session

        def data(show: Listener) -> None:  # a save changes no data: views skip it
            s.subscribe(lambda c: None if c.empty else show(c))

        def grid(model: CandidateModel) -> Listener:
            return lambda c: model.set_evaluation(
                s.evaluation, self._query,
                changed=None if c.everything else [*c.rows.tolist(), *c.notes.tolist()])

        s.subscribe(self._follow_query)
        data(lambda c: self.navigator.set_evaluation(
            s.evaluation, queries=None if c.everything else c.queries.tolist()))
        data(grid(self.grid_model))
        data(grid(self.not_retrieved_model))
        data(self._follow_edits)
        data(lambda c: self._show_summary())
        data(lambda c: self.footer.set_evaluation(s.evaluation))
        data(lambda c: self.audit_model.set_document(s.document) if c.document
             else self.audit_model.sync())
        data(self._show_conventions)
        s.subscribe(self._show_history)
        data(self._announce)

    def _follow_edits(self, changes: Changes) -> None:
        """The grids' original grade column shown while some grade differs
        from its original: an edit's own rows say when one now does; only
        a step that puts a grade back (an undo) looks at every grade."""
        doc, rows = self.session.document, changes.rows
        if changes.document:
            edited = doc.has_changes()
        elif rows.size and bool(doc.changed(rows).any()):
            edited = True
        elif rows.size and self.grid_columns.edited:
            edited = doc.has_changes()
        else:
            return
        self.grid_columns.set_edited(edited)

    # -- public API ---------------------------------------------------------------------
    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def current_query(self) -> int:
        """The index of the query shown (-1 when the document has none)."""
        return self._query

    @property
    def current_query_id(self) -> str | None:
        q = self._query
        return self.document.query_ids[q] if 0 <= q < self.document.n_queries else None

    @property
    def summary_panel(self) -> SummaryPanel:
        """The current query's summary, made now when it is not yet."""
        return self._summary()

    @property
    def conventions_panel(self) -> ConventionsPanel:
        """The conventions panel, made now when it is not yet."""
        return self._conventions()

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
                 hidden: bool = False, stacked_from: int = 0) -> QDockWidget:
        """A dock around ``widget`` (objectName ``name``, listed in ``docks`` and
        the View menu) in ``area``: with ``tab_with``, tabbed behind that dock;
        with ``below``, under that dock in its column (behind it in a window
        less than ``stacked_from`` pixels tall); ``hidden`` until shown.
        That is its home: View > Reset layout puts it back there. ``title``
        underlines the View menu item's letter (``&Queries``: Alt+V, Q);
        the dock's title bar and tab read it without the ampersand."""
        dock = self.workplace.add_dock(name, without_mnemonic(title), widget,
                                       DockHome(area, tab_with, below, hidden, stacked_from))
        toggle = dock.toggleViewAction()
        toggle.setText(title)  # (Qt sets it again only if the title changes)
        self.menus["view"].addAction(toggle)
        return dock

    def set_path(self, path: str | Path | None) -> None:
        """The file the document is saved to (title bar and Open Recent follow)."""
        self._path = Path(path) if path is not None else None
        self.setWindowFilePath(str(self._path) if self._path is not None else "")
        self._show_history()

    def show_message(self, text: str, ms: int = 8000) -> None:
        """A message in the status bar for ``ms`` milliseconds (one line: a
        word past :data:`~app.shown.CELL_SHOWN` characters cut, a path whole)."""
        self.statusBar().showMessage(bounded(text, CELL_SHOWN), ms)

    def set_document(self, doc: Document, path: str | Path | None = None, *,
                     saved: bool = True, evaluation: Evaluation | None = None) -> None:
        """Show ``doc`` (from ``path``, or None for a new/example document).

        The one way to load a document: the session starts over on it (the
        history cleared; the saved state unless ``saved`` is False, as for
        recovered edits not on disk yet), and every view follows that record
        like any other: the first query shown, :attr:`document_replaced`
        emitted. May raise :class:`core.errors.InputError` when the document
        cannot be evaluated under its conventions (nothing changes then).
        ``evaluation``: ``doc``'s, worked out already (the launch's reading
        thread, :mod:`app.opening`); used when it is of ``doc`` under its
        conventions, else ``doc`` is evaluated here.
        """
        ev = evaluation  # (the same object for an unchanged document and conventions)
        if ev is None or ev.doc is not doc or ev.conventions is not doc.conventions:
            ev = evaluate(doc)  # raises before anything changes
        self._path = Path(path) if path is not None else None
        self.setWindowFilePath(str(self._path) if self._path is not None else "")
        self.session.replace_document(doc, ev, saved=saved)

    def set_query(self, q: int) -> None:
        """Show query ``q`` in the grid and the summary."""
        if not 0 <= q < self.document.n_queries or q == self._query:
            return
        self._query = q
        ev = self.evaluation
        self.grid_model.set_evaluation(ev, q)
        self.not_retrieved_model.set_evaluation(ev, q)
        self._show_summary()
        self.navigator.select_query(q)
        self._show_grading_row()
        if self._fitted:
            self.grid_panel.widen_columns()
        self.current_query_changed.emit(q)

    def select_candidate(self, index: int, *, focus: bool = True,
                         column: GridColumn = GridColumn.GRADE) -> None:
        """Show candidate ``index``'s query and make its grade cell (or its
        ``column``'s) current (and its view the keyboard's focus, unless not
        ``focus``)."""
        self.set_query(int(self.document.query[index]))
        for view, model in ((self.grid, self.grid_model),
                            (self.not_retrieved_view, self.not_retrieved_model)):
            row = model.row_of(index)
            if row is not None:
                view.setCurrentIndex(model.index(row, column))
                if focus:
                    view.setFocus()
                return

    # -- the session's records of what changed (edits, undo, redo, open, save) -------------
    def _follow_query(self, changes: Changes) -> None:
        """The query shown after a step: the first of a new document; the
        query of the grades changed when they are in another one, and the
        query whose text changed (an undo from another query)."""
        self._query_moved = False
        if changes.document:
            self._query = 0 if self.document.n_queries else -1
            self._query_moved = True
        elif (lead := changes.lead) is not None and self._query not in changes.queries.tolist():
            self._query = int(self.document.query[lead])
            self._query_moved = True
        elif changes.query_text and self._query not in changes.queries.tolist():
            self._query = int(changes.queries[0])
            self._query_moved = True

    def _show_history(self, _changes: Changes | None = None) -> None:
        """Undo, Redo and the title's modified flag, read from the session."""
        s = self.session
        for spec, can, text in zip(HISTORY, (s.can_undo, s.can_redo),
                                   (s.undo_text, s.redo_text), strict=True):
            action = self.app_actions[spec.id]
            action.setEnabled(can)
            action.setText(history_text(spec, text))
        self._update_title()
        self.setWindowModified(s.modified)

    def _announce(self, changes: Changes) -> None:
        """Once every view shows the step: the query's place in the navigator
        and the grid, and the signals add-ons listen to."""
        if changes.origin in ("undo", "redo"):
            self._show_step(changes)
        if self._query_moved:
            self.navigator.select_query(self._query)
            if changes.origin not in ("undo", "redo") or changes.lead is None:
                self._show_grading_row()
            if changes.document and self.isVisible():
                self.fit_columns()
            elif self._fitted:
                self.grid_panel.widen_columns()
        elif self._fitted and changes.rows.size and (
                self.document.state[changes.rows] != GradeState.NUMBER).any():
            # (a grade made unknown or unrateable: its words, and a reason,
            # are wider than the numbers the columns were fitted to)
            self.grid_panel.widen_columns()
        elif self._fitted and changes.notes.size:  # (a note longer than its column)
            self.grid_panel.widen_note()
        if changes.document:
            self.document_replaced.emit(self.document)
        self.evaluation_changed.emit(self.evaluation)
        if changes.conventions:
            self.conventions_changed.emit(self.conventions)
        elif changes.rows.size:
            self.grade_changed.emit(int(changes.rows[0]))
        if self._query_moved:
            self.current_query_changed.emit(self._query)

    # -- the summary and the conventions, once made --------------------------------------
    def _wire_summary(self, panel: SummaryPanel) -> None:
        """The summary just made: connected, showing the current query."""
        panel.candidate_requested.connect(self.select_candidate)
        panel.shown_whole.connect(self.workplace.contents_shown)
        panel.show_query(self.evaluation, self._query)

    def _show_summary(self) -> None:
        """The current query in the summary, once made; until then it is not
        on screen and its contents are not waited for (the columns' split)."""
        panel = self._summary.made
        if panel is not None:
            panel.show_query(self.evaluation, self._query)
        else:
            self.workplace.contents_shown(True)

    def _wire_conventions(self, panel: ConventionsPanel) -> None:
        """The conventions panel just made: connected, showing the conventions
        and the scale of the grades seen."""
        panel.conventions_edited.connect(self.change_conventions)
        panel.set_conventions(self.conventions)
        panel.set_grades_seen(self.document.grade, self.evaluation.rubric)

    def _show_conventions(self, changes: Changes) -> None:
        """The conventions panel, once made, after a step: the conventions
        when they may have changed; the scale its guidelines editor lists
        when no rubric is declared, worked out per document and conventions
        (the evaluation's, which the summary and the guidelines dock use
        too), or when a grade given defines one or takes it back."""
        panel = self._conventions.made
        if panel is None:
            return
        if changes.everything:
            panel.set_conventions(self.conventions)
            panel.set_grades_seen(self.document.grade, self.evaluation.rubric)
        elif changes.rows.size:
            panel.grade_given(self.document.grade, int(changes.rows[0]))

    # -- internals ----------------------------------------------------------------------
    def _show_step(self, changes: Changes) -> None:
        """After Undo or Redo: the grade cell it changed current and in view
        (in its query, which the views already show), and the status bar says
        what was undone or redone. The keyboard's focus stays where it was,
        from the Edit menu as from Ctrl+Z (as LibreOffice Calc's): in the
        grid's views it follows the cell; a panel the reviewer was typing
        in keeps it (the menu's Undo took it to the grid)."""
        if (lead := changes.lead) is not None:
            views = (self.grid, self.not_retrieved_view)
            self.select_candidate(lead, focus=any(view.hasFocus() for view in views),
                                  column=GridColumn.GRADE if changes.rows.size
                                  else GridColumn.NOTE)
            for view in views:
                if view.hasFocus():
                    view.scrollTo(view.currentIndex())
        verb = self.tr("Undid {0}") if changes.origin == "undo" else self.tr("Redid {0}")
        self.show_message(verb.format(changes.text) + self._grade_now(changes))

    def _grade_now(self, changes: Changes) -> str:
        """What an undone or redone step left a grade at, as its audit entry
        records it (the step's text "1 → 0" read alone after Undo said 0): one
        grade's, or how many went back or were given again."""
        grades = [entry for entry in changes.audit if not (entry.convention or entry.about_note
                                                           or entry.about_text)]
        if len(grades) == 1:
            return self.tr(" (the grade is {0} again)").format(
                grade_words(grades[0].after, self._decimals))
        if not grades:
            return ""
        if changes.origin == "undo":
            return self.tr(" ({0} back as they were)").format(counted(len(grades), "grade"))
        return self.tr(" ({0} given again)").format(counted(len(grades), "grade"))

    def _show_grading_row(self) -> None:
        """The grade cell a reviewer grades next current: the query's first
        row still unknown in the grids' order (ranked, then not retrieved:
        :func:`~core.analysis.queue.first_unknown`; a not-retrieved one
        takes the ranked grid's keyboard focus), the grid's first row when
        none is (a digit typed at once never replaces a grade given), the
        grid shown from its first column (Rank, Source) and row, scrolled
        down only as far as that row needs."""
        if self._query < 0:
            return
        first = first_unknown(self.evaluation, self._query)
        row = self.grid_model.row_of(first) if first is not None else None
        if self.grid_model.rowCount():
            index = self.grid_model.index(row or 0, GridColumn.GRADE)
            self.grid.setAutoScroll(False)  # setCurrentIndex would scroll to the grade column
            try:
                self.grid.setCurrentIndex(index)
            finally:
                self.grid.setAutoScroll(True)
            self.grid.scrollToTop()
            if row:
                self.grid.scrollTo(index)
            self.grid.horizontalScrollBar().setValue(0)
        rest = self.not_retrieved_model.row_of(first) if first is not None else None
        if rest is not None:
            self.not_retrieved_view.setCurrentIndex(
                self.not_retrieved_model.index(rest, GridColumn.GRADE))
            if self.grid.hasFocus():
                self.not_retrieved_view.setFocus()

    def refresh_display_settings(self) -> None:
        """Re-read display settings (decimals) and repaint."""
        self._decimals = self.settings.decimals
        for view in (self.grid, self.not_retrieved_view, self.navigator.view):
            view.viewport().update()
        self._show_summary()
        self.footer.set_evaluation(self.evaluation)
        if (panel := self._conventions.made) is not None:
            panel.show_numbers()
        self.display_changed.emit()  # the add-ons' sentences

    def _update_title(self) -> None:
        """The file's name, then its run's tag (:meth:`Document.run_title`)."""
        name = self.path.name if self.path is not None else (
            f"{self.document.name} (example)" if self.document.name else "untitled")
        self.setWindowTitle(f"{self.document.run_title(name)}[*] — {APP_TITLE}")

    def _after_last_row(self) -> None:
        """A grade key took a query's last row: the next query in the list
        shown, the row to grade next current (:meth:`_show_grading_row`, as
        Next query and the navigator);
        after the list's last query the cursor stays, and the status bar says
        why."""
        ids, q = self.document.query_ids, self.navigator.step(1)
        done = ids[self._query]
        if q is None:
            self.show_message(self.tr("Query {0}: its last row graded; it is the last query "
                                      "in the list").format(done))
            return
        self.set_query(q)
        self.grid.setFocus()
        self.show_message(self.tr("Query {0}: its last row graded; now query {1}").format(
            done, ids[q]))

    def _step_query(self, delta: int, *, status: Status | None = None) -> None:
        q = self.navigator.step(delta, status=status)
        if q is not None:
            self.set_query(q)

    # -- showing, closing ------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._fitted:  # once laid out, the first time: the rows in view count
            self._fitted = True
            # Rows that overflowed the grid before it was shown (a run read
            # before the first show) gave no way then (_rows_overflow): now.
            QTimer.singleShot(0, self._columns_changed if self._overflow else self.fit_columns)

    def reset_layout(self) -> None:
        """View > Reset layout: the first-start window, docks and grid columns
        (the widths a reviewer gave them forgotten), and the grids' heights
        following their rows again."""
        self.workplace.reset()
        self.grid_panel.forget_widths()
        self.grid_columns.reset()
        self.grid_panel.follow_rows()

    def reset_column_widths(self) -> None:
        """View > Reset column widths: the grids' columns the reviewer sized
        follow their contents again, in this session and the next."""
        self.grid_panel.forget_widths()
        self.fit_columns()

    def _columns_changed(self) -> None:
        """The side columns give the grid the room its key columns need now
        (:meth:`Workplace.give_way`), then its columns are fitted to it."""
        self.workplace.give_way()
        self.fit_columns()

    def _rows_overflow(self, low: int, high: int) -> None:
        """The grid's rows overflow it now (its vertical scroll bar shown),
        where they did not: the side columns give it the bar's width where
        it lacks it (once a flip, not at each query or resize)."""
        overflow = high > low
        if overflow != self._overflow:
            self._overflow = overflow
            if overflow and self._fitted:
                QTimer.singleShot(0, self.workplace.give_way)

    def fit_columns(self) -> None:
        """Size the grids' columns to their contents and headers, and show the
        grid from its first column."""
        self.grid_panel.fit_columns()  # (the navigator and the summary fit themselves)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.session.modified and not self._may_close():
            event.ignore()
            return
        self.workplace.save()  # the next start opens as the user left it
        event.accept()
        self.closing.emit()

    def _may_close(self) -> bool:
        """Ask what to do with unsaved changes; True to close."""
        buttons = QMessageBox.StandardButton
        choices = buttons.Discard | buttons.Cancel
        if self.save_handler is not None:
            choices |= buttons.Save
        answer = QMessageBox.question(
            self, self.tr("Unsaved changes"),
            boxed(self.close_question() if self.close_question is not None
                  else self.tr("This worksheet has unsaved changes. Close anyway?")),
            choices, buttons.Cancel)
        saved = answer == buttons.Save and self.save_handler is not None and self.save_handler()
        if answer == buttons.Discard:
            self.changes_discarded.emit()  # e.g. the journal forgets them
        return answer == buttons.Discard or bool(saved)


def _empty_document() -> Document:
    return Document.from_columns(query=[], source_id=[])
