"""A dock's view made when it is first needed, not with the window.

Docks hidden at a start (the review docks) or behind another's tab (the
summary and the conventions behind the Queries tab in a window of one side
column) hold an :class:`Unmade` widget until their view is first seen or
asked for (:class:`DeferredView`). Built at every launch, such views cost the
main thread tens of milliseconds while the file given at launch is read or
just after it arrived (docs/benchmarks.md, h40open and hopen).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from PySide6.QtWidgets import QDockWidget, QWidget

__all__ = ["DeferredView", "MadeView", "Unmade", "view_of"]

V = TypeVar("V", bound=QWidget)


class Unmade(QWidget):
    """What a dock holds until its view is made: an empty widget that can
    make it (:meth:`make`) when the view's size must be known (the dock
    areas' sizing: :meth:`app.layout.Workplace.size_docks`)."""

    def __init__(self) -> None:
        super().__init__()
        self._make: Callable[[], QWidget] | None = None

    def make(self) -> QWidget:
        """The view, made now (it replaces this widget in its dock)."""
        if self._make is None:  # (no DeferredView on its dock: itself)
            return self
        return self._make()


def view_of(dock: QDockWidget) -> QWidget | None:
    """``dock``'s view, made now when it is not yet."""
    widget = dock.widget()
    return widget.make() if isinstance(widget, Unmade) else widget


class DeferredView(Generic[V]):
    """A dock's view made when it is first needed, not with the window: the
    dock first shown (the View menu, its tab chosen, a saved layout that
    shows it), its size asked for (:func:`view_of`) or its view asked for (a
    result to show: calling this). Until then the dock holds an
    :class:`Unmade` widget, and nothing the window does reaches a view that
    is not there (:attr:`made` is None: its controller skips it).

    ``wire`` connects the new view to its controller and shows what the
    view would show had it been made with the window, once."""

    def __init__(self, dock: QDockWidget, make: Callable[[], V],
                 wire: Callable[[V], object]) -> None:
        self._dock, self._make, self._wire = dock, make, wire
        #: The view, once made.
        self.made: V | None = None
        placeholder = dock.widget()
        if isinstance(placeholder, Unmade):
            placeholder._make = self
        dock.visibilityChanged.connect(self._shown)
        if dock.isVisible():  # (restored shown into a window on screen)
            self()

    def _shown(self, visible: bool) -> None:
        if visible:
            self()

    def __call__(self) -> V:
        """The view, made now when it is not yet."""
        if self.made is None:
            view = self._make()
            placeholder = self._dock.widget()
            self.made = view
            self._dock.setWidget(view)
            if placeholder is not None:
                placeholder.deleteLater()
            self._wire(view)
            self._dock.visibilityChanged.disconnect(self._shown)
        return self.made


class MadeView(Generic[V]):
    """A controller's ``view``: its dock's view (its ``deferred``, a
    :class:`DeferredView`), made now when it is not yet."""

    def __get__(self, controller: Any, kind: Any = None) -> V:
        return cast("V", controller.deferred())
