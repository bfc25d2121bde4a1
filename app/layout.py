"""The window as a workplace: where each dock lives, how large the window
opens, and remembering both between sessions (the rules of where and how
large, with no widget, are :mod:`app.dock_homes`'s).

Every dock is added with a home (its area, and the dock it is tabbed with or
split below); :meth:`Workplace.reset` puts every dock back home, sizes the
window to the screen's whole available area (about 85 % of it on screens
wider than :data:`app.geometry.FULL_UP_TO`: the window's place on its screen
is :mod:`app.geometry`'s) and gives the areas their default shares (the
grid keeps the largest part, the bottom area starts small). A dock split
below another on a tall window is tabbed behind it on a short one
(:attr:`DockHome.stacked_from`): both get the column's whole height. A
window narrower than :data:`ONE_SIDE_BELOW` characters of its font (a
1920x1080 screen at 2x scale is 960 px wide, at a 16 pt font 180 characters)
has one side column: the right column's docks join the left
one (:func:`one_side_home`), so that the grid keeps its key columns and the
panels a width their buttons, boxes and tab titles fit in; resizing the
window across that width moves them over and back. The
geometry and dock layout the user leaves are saved on close
(:meth:`Workplace.save`) and restored on the next start
(:meth:`Workplace.restore`, unless saved under an older
:data:`LAYOUT_VERSION`); View > Reset layout brings the default back. The
window's own docks are placed once, by the restored layout or the default
one, never first at the size the window is built at.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import (
    QByteArray,
    QChildEvent,
    QEvent,
    QObject,
    QRect,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QStyle,
    QTabBar,
    QWidget,
)

from app.deferred import Unmade, view_of
from app.dock_homes import (
    AREA_SIZE,
    BESIDE_MEASURE,
    BESIDE_MOST,
    GRID_LEAST,
    LEAST_BELOW,
    MOST_BELOW,
    ONE_SIDE_BELOW,
    ONE_SIDE_SIZE,
    SIDES,
    VERTICAL,
    DockHome,
    narrowed_sides,
    one_side_home,
    share,
    starts_group,
    widened_sides,
)
from app.geometry import default_geometry, fills_screen, saved_normal_geometry
from app.settings import Settings

__all__ = ["LAYOUT_VERSION", "Workplace"]

#: Bumped when the docks change so much that an old saved layout would mislead
#: (3: the window fills a laptop's screen, a narrower navigator and right
#: column, the conventions tabbed behind the summary on short screens).
LAYOUT_VERSION = 3
#: How long (ms) the window's layout passes must have stopped before the
#: docks restored into a saved layout after it (:meth:`Workplace.add_dock`)
#: are looked at again: Qt lays a layout restored into a hidden window that
#: is to be maximized out again at each pass until it fits, and forgets it
#: 150 ms after its last pass (QMainWindowLayout's restored state).
LATE_SETTLE_MS = 200


def _whole_titles(event: QEvent) -> None:
    """A tab bar of docks (made by the window as docks are tabbed) shows its
    titles whole and scrolls when they do not fit, rather than cutting each
    to a few letters ("Sum…", "Convent…")."""
    child = event.child() if isinstance(event, QChildEvent) else None
    if isinstance(child, QTabBar):
        child.setElideMode(Qt.TextElideMode.ElideNone)
        child.setUsesScrollButtons(True)


#: The side areas by the names the settings keep them under.
_SIDE_NAMES = {Qt.DockWidgetArea.LeftDockWidgetArea: "left",
               Qt.DockWidgetArea.RightDockWidgetArea: "right"}


class Workplace(QObject):
    """The docks of one main window, their homes, and the saved layout."""

    #: The docks moved to one side column (True) or back to two (False), the
    #: window resized across :meth:`one_side_below`: the grid's room changed.
    sides_changed = Signal(bool)
    #: The grid lacks this many pixels for its key columns and scrolls: the
    #: side columns whose width the user set keep it (:meth:`give_way`).
    widths_kept = Signal(int)

    def __init__(self, window: QMainWindow, settings: Settings) -> None:
        super().__init__(window)
        self.window = window
        self.settings = settings
        # The side columns run from the toolbar to the status bar; the bottom
        # area (audit log, plots) sits under the grid and the navigator.
        window.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        #: objectName -> dock, in the order added.
        self.docks: dict[str, QDockWidget] = {}
        self.homes: dict[str, DockHome] = {}
        #: The docks are laid out in one side column (a narrow window).
        self.one_side = self._narrow()
        #: What the grid (the central widget) needs, in pixels: the side
        #: columns give way to it (:data:`GRID_LEAST` unless the window says:
        #: it gives what its grid's key columns need in its font).
        self.grid_least: Callable[[], int] = lambda: GRID_LEAST
        #: What the grid's whole column set needs, in pixels, and the same
        #: with its source ids read whole: the side columns give way to each
        #: too, down to their docks' least widths (:meth:`_floors`), where the
        #: window can hold it (0: not asked; GridPanel.whole_widths).
        self.grid_whole: Callable[[], tuple[int, int]] = lambda: (0, 0)
        self._following = False
        #: The columns were split again to their contents (since the last
        #: reset), and the contents were whole once.
        self._fitted = self._whole = False
        #: A saved layout was restored: a dock added since goes where it holds it.
        self._restored = False
        #: The docks restored into the saved layout since it was restored,
        #: until the window's layout passes settle (:meth:`_keep_late`).
        self._late: list[str] = []
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(LATE_SETTLE_MS)
        self._settle.timeout.connect(self._keep_late)
        #: The docks :meth:`make_room` made room for (once each).
        self._roomed: set[str] = set()
        #: The docks were placed (:meth:`restore`, :meth:`reset_docks`): until
        #: then a dock added is not (see :meth:`add_dock`).
        self._placed = False
        #: The side areas whose width the user set by dragging a handle (in
        #: this session, or in one whose layout was restored): theirs, never
        #: narrowed to give the grid room (:meth:`give_way`).
        self.dragged: set[Qt.DockWidgetArea] = set()
        #: The side columns' widths when a mouse button was pressed on the
        #: window itself (its docks' handles), until it is released.
        self._pressed: dict[Qt.DockWidgetArea, int] | None = None
        window.installEventFilter(self)

    def home(self, name: str) -> DockHome:
        """Where the dock ``name`` goes in this window (its home, or in one
        side column where it goes then: :func:`one_side_home`)."""
        home = self.homes[name]
        return one_side_home(home, self.homes) if self.one_side else home

    def one_side_below(self) -> int:
        """The width (pixels) below which the window has one side column:
        :data:`ONE_SIDE_BELOW` characters of its font."""
        return round(ONE_SIDE_BELOW * QFontMetricsF(self.window.font()).averageCharWidth())

    def _narrow(self) -> bool:
        return self.window.width() < self.one_side_below()

    def add_dock(self, name: str, title: str, widget: QWidget, home: DockHome) -> QDockWidget:
        """A dock around ``widget`` (objectName ``name``) put at ``home``, or,
        added after :meth:`restore` restored a saved layout that holds it,
        where that layout has it (docked, floating, shown or hidden). Added
        before :meth:`restore` or :meth:`reset` (the window's own docks, at
        its construction), it is placed by them, once: placed at once, at
        the window's construction size (640x480, one side column), and again
        by the layout shown, it left that first placement's tab bars of the
        hidden window painted over the navigator (restoring a layout into a
        window not yet shown leaves the tab bars of the placement it
        replaces, and so did placing the docks again)."""
        dock = QDockWidget(title, self.window)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.docks[name] = dock
        self.homes[name] = home
        if self._restored and self.window.restoreDockWidget(dock):
            self._late.append(name)
            self._settle.start()
            return dock
        if self._placed:
            self._place(name)
        if home.hidden:
            dock.hide()
        return dock

    def _keep_late(self) -> None:
        """The docks restored into the saved layout after it was restored
        (the review docks, after the first paint) put back where it holds
        them if the window's layout has dropped them, shown or hidden as
        they are. Qt keeps a copy of a layout restored into a hidden window
        that is to be maximized and lays it out again at each layout pass
        until it fits (or 150 ms pass): a dock restored meanwhile is not in
        the copy, and the next pass dropped it, a child of the window at
        (0, 0). The Judges dock, shown for an annotators' workbook, stood
        over the menu bar at 1280x800 under openbox (a layout saved at
        1366x768), the other review docks out of the layout, hidden, until
        the View menu showed them there. Looked at once the passes stop
        (:data:`LATE_SETTLE_MS`): the copy is forgotten by then, and the
        copy holds each dropped dock's place (Qt's placeholder)."""
        late, self._late = self._late, []
        w = self.window
        for name in late:
            dock = self.docks[name]
            if dock.isFloating() or w.dockWidgetArea(dock) != Qt.DockWidgetArea.NoDockWidgetArea:
                continue
            shown = not dock.isHidden()
            if not w.restoreDockWidget(dock):
                self._place(name)
            dock.setVisible(shown)  # (its tab group's front tab kept)

    def _place_unplaced(self) -> None:
        """The docks a restored layout does not hold (added since it was
        saved) placed at home, shown or hidden as added."""
        for name, home in self.homes.items():
            dock = self.docks[name]
            if (not dock.isFloating()
                    and self.window.dockWidgetArea(dock) == Qt.DockWidgetArea.NoDockWidgetArea):
                self._place(name)
                dock.setVisible(not home.hidden)

    def _stacked(self, home: DockHome) -> bool:
        """``home`` puts its dock below another (not behind it) in this window."""
        return home.below is not None and self.window.height() >= home.stacked_from

    def _behind(self, home: DockHome) -> bool:
        """``home`` puts its dock behind another (tabbed) or hidden."""
        return home.hidden or home.tab_with is not None or (
            home.below is not None and not self._stacked(home))

    def _place(self, name: str) -> None:
        home, dock, w = self.home(name), self.docks[name], self.window
        tab = self.docks.get(home.tab_with or home.below or "")
        below = self.docks.get(home.below) if home.below else None
        if below is not None and w.dockWidgetArea(below) == home.area and self._stacked(home):
            w.splitDockWidget(below, dock, Qt.Orientation.Vertical)
            return
        w.addDockWidget(home.area, dock)
        if tab is not None and w.dockWidgetArea(tab) == home.area:
            w.tabifyDockWidget(tab, dock)

    # -- one side column or two ------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self._late and watched is self.window and event.type() in (
                QEvent.Type.LayoutRequest, QEvent.Type.Resize):
            self._settle.start()  # (the layout passes go on: _keep_late after them)
        if watched is self.window and event.type() == QEvent.Type.ChildPolished:
            _whole_titles(event)
        if watched is self.window and event.type() in (QEvent.Type.MouseButtonPress,
                                                       QEvent.Type.MouseButtonRelease):
            self._handle_dragged(event.type() == QEvent.Type.MouseButtonPress)
        if watched is self.window and event.type() == QEvent.Type.Show and not self._placed:
            self.reset_docks()  # (a window shown neither restored nor reset)
        if watched is self.window and event.type() == QEvent.Type.Show and self._whole:
            # Now, before the first paint: the docks have their widths (shown
            # after their pending resizes); a timer ran after the paint, now
            # and then before it (at 1920x1080 the summary was painted 560 px
            # tall, then 426: a launch looked one way or the other).
            self._fit_columns()
            layout = self.window.layout()
            if layout is not None:
                layout.activate()  # the split's geometry now, not at a later request
        if (watched is self.window
                and event.type() in (QEvent.Type.Resize, QEvent.Type.FontChange)
                and self._narrow() != self.one_side and not self._following):
            # After the resize is laid out, not inside it.
            self._following = True
            QTimer.singleShot(0, self._follow_width)
        return False

    def _side_widths(self) -> dict[Qt.DockWidgetArea, QDockWidget]:
        """Per side area, its dock in front (docked, not behind a tab)."""
        w, fronts = self.window, {}
        for dock in self.docks.values():
            area = w.dockWidgetArea(dock)
            if (area in SIDES and not dock.isFloating()
                    and not dock.visibleRegion().isEmpty()):  # (not behind a tab)
                fronts[area] = dock
        return fronts

    def _handle_dragged(self, pressed: bool) -> None:
        """A mouse button pressed on the window itself (not on a dock or the
        grid: on a handle between them), then released: the side columns
        whose width changed meanwhile were dragged (:attr:`dragged`)."""
        widths = {area: dock.width() for area, dock in self._side_widths().items()}
        if pressed:
            self._pressed = widths
            return
        before, self._pressed = self._pressed, None
        moved = {a for a, n in widths.items() if before is not None and before.get(a) != n}
        if moved:
            self.dragged |= moved
            # (with the layout holding the widths: saved alone, after a crash
            # they named the widths of the layout saved before as the user's)
            self.save()

    def _follow_width(self) -> None:
        """One side column in a narrow window, two in a wide one: the docks
        the change moves (those still where the old layout put them) are
        moved, shown or hidden as they were, each group's first dock in
        front; the focus stays, its dock brought in front."""
        self._following = False
        if self._narrow() == self.one_side:
            return
        w = self.window
        focus = QApplication.focusWidget()
        moving = [n for n in self.homes if self._moves(n)]
        shown = {n: not self.docks[n].isHidden() for n in moving}
        for name in moving:
            w.removeDockWidget(self.docks[name])
        if moving:  # (the side columns are others now: sized as at a first start)
            self._forget_dragged()
        self.one_side = self._narrow()
        self._asked()  # (as reset_docks)
        for name in moving:
            self._place(name)
            self.docks[name].setVisible(shown[name])
        self._raise_fronts()  # as a first start in a window of this width has them
        self.size_docks()
        if focus is not None and any(self.docks[n].isAncestorOf(focus) for n in moving):
            self._bring_forward(focus)
        self.sides_changed.emit(self.one_side)

    def _moves(self, name: str) -> bool:
        """The dock ``name`` is docked where this layout puts it, and the
        other layout puts it elsewhere (a dock the user moved stays put)."""
        dock, home = self.docks[name], self.home(name)
        other = self.homes[name] if self.one_side else one_side_home(self.homes[name], self.homes)
        return (other != home and not dock.isFloating()
                and self.window.dockWidgetArea(dock) == home.area)

    def _bring_forward(self, focus: QWidget) -> None:
        """The dock holding ``focus`` in front of its tab group, ``focus`` focused."""
        for dock in self.docks.values():
            if dock.isAncestorOf(focus):
                dock.raise_()
        focus.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- the default ----------------------------------------------------------------------
    def reset(self, available: QRect | None = None) -> None:
        """The first-start layout: the window filling ``available`` (default:
        its screen's available area; maximized there, so that the window
        manager's frame fits too) or at about 85 % of a wide one, every dock
        at home."""
        own_screen = available is None
        self._restored = False
        if available is None:
            available = self.window.screen().availableGeometry()
        self.window.setWindowState(self.window.windowState() & ~Qt.WindowState.WindowMaximized)
        self.window.setGeometry(default_geometry(available))
        self.reset_docks()
        if own_screen and fills_screen(available):
            self.window.setWindowState(self.window.windowState()
                                       | Qt.WindowState.WindowMaximized)

    def reset_docks(self) -> None:
        """Every dock back at home (docked, shown or hidden as added; in one
        side column in a narrow window), sized by :data:`AREA_SIZE`, the
        first dock of each tab group in front."""
        w = self.window
        for dock in self.docks.values():
            dock.setFloating(False)
            w.removeDockWidget(dock)
        self._placed = True
        self._forget_dragged()
        self.one_side = self._narrow()
        self._asked()  # (the views whose size counts made before the docks are placed)
        for name, home in self.homes.items():
            self._place(name)
            self.docks[name].setVisible(not home.hidden)
        self._raise_fronts()
        self.size_docks()

    def _forget_dragged(self) -> None:
        """No side column's width is the user's any more (the default layout)."""
        if self.dragged or self.settings.dragged_sides:
            self.dragged.clear()
            self.settings.dragged_sides = []

    def _raise_fronts(self) -> None:
        """The first dock of each tab group in front."""
        for name in self.homes:
            home = self.home(name)
            front = home.tab_with or home.below
            # Only a group's first dock is raised (a dock tabbed with one that
            # is itself behind another, e.g. the judges with the conventions,
            # does not bring that one forward).
            if front in self.docks and not self._behind(self.home(front)):
                self.docks[front].raise_()

    def _size(self, area: Qt.DockWidgetArea) -> tuple[float, float, int]:
        """``area``'s (share of the window, most, least) in this window."""
        return ONE_SIDE_SIZE if self.one_side and area not in VERTICAL else AREA_SIZE[area]

    def _asked(self) -> dict[Qt.DockWidgetArea, int]:
        """Per side area, the widest size hint of the docks shown there. A
        dock whose view is not made yet (:class:`app.deferred.Unmade`, behind
        another's tab) is asked last, and only while its hint may still
        count: an area asked for the most pixels it may have already takes
        no more (:func:`_share`), so its view is not made for the asking
        (the summary's and the conventions' behind the Queries tab in one
        side column; the sizes are those of the views made). Called before
        the docks are placed too (:meth:`reset_docks`): a view set into a
        dock already placed left the bottom docks split otherwise (the
        audit log 35 px narrower at 1280x800)."""
        width = self.window.width()
        most = {area: round(width * self._size(area)[1]) for area in SIDES}
        asked: dict[Qt.DockWidgetArea, int] = {}
        unmade: list[tuple[Qt.DockWidgetArea, Unmade]] = []
        for name in self.homes:
            home = self.home(name)
            if home.hidden or home.area in VERTICAL:
                continue
            widget = self.docks[name].widget()
            if isinstance(widget, Unmade):
                unmade.append((home.area, widget))
                continue
            asked[home.area] = max(asked.get(home.area, 0), widget.sizeHint().width())
        for area, placeholder in unmade:
            if asked.get(area, 0) < most.get(area, 0):
                hint = placeholder.make().sizeHint().width()
                asked[area] = max(asked.get(area, 0), hint)
        return asked

    def size_docks(self) -> None:
        """Give each dock area its default share of the window (see
        :data:`AREA_SIZE`; :data:`ONE_SIDE_SIZE` for one side column; the
        left one up to where its views read where the grid keeps its key
        columns: :func:`~app.dock_homes.widened_sides`) and each column its
        split."""
        w = self.window
        width, height = w.width(), w.height()
        homes = {name: self.home(name) for name in self.homes}
        fronts = {name: home for name, home in homes.items() if starts_group(home)}
        asked, least = self._asked(), self.grid_least()
        floors, shorts = self._floors(), self._floors(short=True)
        shares = {home.area: share(
            home.area, height if home.area in VERTICAL else width, asked.get(home.area, 0),
            self._size(home.area)) for home in fronts.values()}
        shares = widened_sides(shares, width, least, self._separator(), floors)
        whole, read = self.grid_whole()
        sizes = narrowed_sides(shares, width, least, self._separator(), grid_whole=whole,
                               floors=floors, shorts=shorts, grid_read=read)
        for name, home in fronts.items():
            if home.area in self.dragged:  # (the user's width: size_for_document)
                continue
            vertical = home.area in VERTICAL
            w.resizeDocks([self.docks[name]], [sizes[home.area]],
                          Qt.Orientation.Vertical if vertical else Qt.Orientation.Horizontal)
        self._fitted = False
        self._split_columns()
        if self._whole and self.window.isVisible():  # View > Reset layout
            QTimer.singleShot(0, self._fit_columns)

    def _floors(self, *, short: bool = False) -> dict[Qt.DockWidgetArea, int]:
        """Per side area, how far it gives way to the grid's whole column
        set: the widest least width of its docks shown (``least_width()``
        where a dock's view says one: the navigator's, where its ids and
        status still read; else what the view asks for, its size hint: the
        summary gives its share beyond it). Views not made yet are not
        asked (nor made for it). ``short``: the short floors
        (``least_width(short=True)``: the navigator's statuses in their
        short forms), where those hold what the floors do not."""
        floors: dict[Qt.DockWidgetArea, int] = {}
        for name in self.homes:
            home, widget = self.home(name), self.docks[name].widget()
            if home.hidden or home.area in VERTICAL or isinstance(widget, Unmade):
                continue
            least = getattr(widget, "least_width", None)
            wanted = least(short=short) if callable(least) else widget.sizeHint().width()
            floors[home.area] = max(floors.get(home.area, 0), wanted)
        return floors

    def _separator(self) -> int:
        """The width (pixels) of the handle between a side column and the grid."""
        w = self.window
        return w.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent, None, w)

    def give_way(self) -> None:
        """The side columns narrowed, as a first start would
        (:func:`~app.dock_homes.narrowed_sides`),
        where they leave the grid less than it needs now: its need grew
        (the first edit shows the original grade beside the grade, 58 px at
        9 pt, and pushed the cumulative DCG out of view at 1280x800 and
        960x540). Never widened, nor narrowed where the grid has its room; a
        side column whose width the user set (:attr:`dragged`) is kept: the
        others give way, and where they cannot give enough the grid scrolls
        and :attr:`widths_kept` says so (a navigator dragged to 640 px was
        narrowed to 608 at 1280x800 when a query's rows overflowed the grid,
        at every start where they arrived after the window was shown)."""
        w = self.window
        fronts = self._side_widths()
        sizes = {area: dock.width() for area, dock in fronts.items()}
        least, separator = self.grid_least(), self._separator()
        kept = self.dragged & set(sizes)
        whole, read = self.grid_whole()
        narrowed = narrowed_sides(sizes, w.width(), least, separator, kept, grid_whole=whole,
                                  floors=self._floors(), shorts=self._floors(short=True),
                                  grid_read=read)
        changed = [area for area in sizes if narrowed[area] != sizes[area]]
        if changed:
            w.resizeDocks([fronts[a] for a in changed], [narrowed[a] for a in changed],
                          Qt.Orientation.Horizontal)
            layout = w.layout()
            if layout is not None:
                layout.activate()  # (the grid's new width now, for the fit that follows)
        grid = w.centralWidget()
        short = least - (grid.width() if grid is not None else w.width())
        if kept and short > 0:
            self.widths_kept.emit(short)

    def _split_columns(self) -> None:
        """Each column of a dock split below another shared (:meth:`_split`)."""
        for name in self.homes:
            home = self.home(name)
            above = self.docks.get(home.below) if home.below else None
            if above is None or home.hidden or not self._stacked(home):
                continue
            self._split(above, self.docks[name], self.window.height())

    def contents_shown(self, whole: bool) -> None:
        """The upper docks' contents are whole, or not yet (the window calls
        it as the summary shows a query): once they are whole in the shown
        window, the columns are split again to them, once
        (:meth:`_fit_columns`)."""
        self._whole = whole
        if whole and self.window.isVisible():
            QTimer.singleShot(0, self._fit_columns)

    def _fit_columns(self) -> None:
        """Split the columns again, once, to contents whole and laid out at
        their real widths: measured at the first layout, at the least width
        and before the bounds and the next judgment, the summary's texts
        took 110 px less or 60 px more than asked at 1920x1080 (empty room
        under them while the conventions below scrolled). A layout the user
        left (restored) is kept."""
        if self._fitted or self._restored or not self._whole or not self.window.isVisible():
            return
        self._fitted = True
        self._split_columns()
        self._share_bottom()

    def _share_bottom(self) -> None:
        """A dock beside the bottom area's first (the guidelines beside the
        audit log) gets what its view asks for, at most :data:`BESIDE_MOST`
        of the window's width and :data:`BESIDE_MEASURE` characters; the
        first the rest. Placed once (in a window
        built at 640x480 and laid out again, the split happened to give the
        guidelines 394 px at 1920x1080), Qt shared the area by the views'
        size hints: the audit log 478 px, the guidelines 1046."""
        bottom = [self.docks[name] for name in self.homes
                  if starts_group(home := self.home(name))
                  and home.area == Qt.DockWidgetArea.BottomDockWidgetArea]
        if len(bottom) < 2:
            return
        beside = [min(dock.sizeHint().width(), round(self.window.width() * BESIDE_MOST),
                      round(dock.fontMetrics().averageCharWidth() * BESIDE_MEASURE))
                  for dock in bottom[1:]]
        total = sum(dock.width() for dock in bottom)
        self.window.resizeDocks(bottom, [total - sum(beside), *beside],
                                Qt.Orientation.Horizontal)

    def size_for_document(self) -> None:
        """The default layout's dock areas sized again for the document the
        window now shows (a window that started empty, under the import
        wizard at launch: the navigator asked for an empty list's width,
        ~285 px at 1920x1080, and its queries showed as "wire… anc"); a layout
        restored from the user's is kept as they left it."""
        if not self._restored:
            self.size_docks()

    def make_room(self, name: str) -> None:
        """The dock ``name``, shown in front of a tab group split above
        another dock in its column (a comparison, tabbed with the summary
        above the conventions at 1920x1080), gets the most of the column the
        upper group may have, the first time it is shown: its tables had the
        summary's share, ~470 px, their rows below the paired statistics
        about three. A layout the user left (restored) is kept."""
        if self._restored or name in self._roomed:
            return
        self._roomed.add(name)
        front = name
        while (tab := self.home(front).tab_with) in self.homes:
            front = tab
        for other in self.homes:
            home = self.home(other)
            if home.below == front and not home.hidden and self._stacked(home):
                self._split(self.docks[front], self.docks[other], self.window.height(),
                            most=True)

    def _split(self, above: QDockWidget, below: QDockWidget, height: int,
               most: bool = False) -> None:
        """Share the column of ``above`` and ``below`` (the window's
        ``height`` when not laid out yet): the upper dock gets what its
        contents ask for (a summary's texts), or with ``most`` the most,
        within limits; the lower one the rest."""
        column = above.height() + below.height()
        if column <= 0:
            column = height
        view = view_of(above) or above  # (made now when it is not yet: its texts count)
        title = above.height() - view.height()  # the dock's title bar
        wanted = column if most else view.sizeHint().height() + max(0, min(title, 40))
        upper = max(round(column * (1 - MOST_BELOW)),
                    min(wanted, round(column * (1 - LEAST_BELOW))))
        self.window.resizeDocks([above, below], [upper, column - upper],
                                Qt.Orientation.Vertical)

    # -- remembered between sessions ---------------------------------------------------------
    def _keep_saved_place(self, geometry: QByteArray) -> None:
        """The window's normal geometry as saved when it lies in its
        screen's available area. Qt's ``restoreGeometry`` moves a window
        whose top leaves no room for a title bar of the height it guesses
        (25 px) down, and shrinks it: without a window manager the first
        start's window, filling the screen, came back 25 px lower and 26
        shorter each time; under openbox (a 19 px title bar) a window left
        filling the screen came back 5 px lower, its bottom off the screen.
        A maximized window keeps its state (its normal geometry put back)."""
        saved = saved_normal_geometry(geometry)
        w = self.window
        if (saved is None or saved == w.normalGeometry()
                or not w.screen().availableGeometry().contains(saved)):
            return
        state = w.windowState()
        w.setWindowState(state & ~Qt.WindowState.WindowMaximized)
        w.setGeometry(saved)
        w.setWindowState(state)

    def save(self) -> None:
        """Keep the window's geometry and dock layout in the settings, with
        the side columns whose widths in it the user set (:attr:`dragged`)."""
        self.settings.geometry = self.window.saveGeometry()
        self.settings.window_state = self.window.saveState(LAYOUT_VERSION)
        self.settings.dragged_sides = sorted(_SIDE_NAMES[a] for a in self.dragged)
        self.settings.sync()

    def restore(self, available: QRect | None = None) -> bool:
        """The layout the user left, or the default one (False) when none
        was saved, it cannot be read or it is of an older
        :data:`LAYOUT_VERSION` (its window size too: the old default's)."""
        geometry = self.settings.geometry
        state = self.settings.window_state
        if not (geometry.isEmpty() or state.isEmpty()):
            # The views of the docks shown at a first start, made before the
            # saved layout places them (set into placed docks, they left the
            # summary's text 10 px narrower at 1920x1080 and a column's tab
            # bar elsewhere); the review docks' wait to be seen, as before.
            for name, home in self.homes.items():
                if not home.hidden:
                    view_of(self.docks[name])
        restored = (not (geometry.isEmpty() or state.isEmpty())
                    and self.window.restoreGeometry(geometry))
        if restored:  # (the place first: the docks then restored into the window as placed)
            self._keep_saved_place(geometry)
        if not (restored and self.window.restoreState(state, LAYOUT_VERSION)):
            self.reset(available)
            return False
        self._restored = self._placed = True
        # The widths the user had set by dragging, restored with the layout, are theirs.
        self.dragged = {a for a, name in _SIDE_NAMES.items() if name in self.settings.dragged_sides}
        self._place_unplaced()
        # One side column or two, as the restored docks are (a resize across
        # one_side_below() then moves them).
        self.one_side = any(
            self.window.dockWidgetArea(self.docks[n]) != h.area
            and self.window.dockWidgetArea(self.docks[n]) == one_side_home(h, self.homes).area
            for n, h in self.homes.items() if not h.hidden)
        self._follow_width()
        return True
