"""Python's cyclic collector runs only in the GUI thread once a window exists
(app/collector.py): a cycle holding a Qt object is never collected, and its
C++ object deleted, by a reading or task thread."""

from __future__ import annotations

import gc
import threading
from typing import ClassVar

from PySide6.QtCore import QObject

from app.collector import collect_due


class _Held(QObject):
    """A Qt object in a reference cycle with itself: only the cyclic
    collector frees it. Records the thread that did."""

    freed_in: ClassVar[list[int]] = []

    def __init__(self) -> None:
        super().__init__()
        self.me = self

    def __del__(self) -> None:
        _Held.freed_in.append(threading.get_ident())


def _allocate_cycles() -> None:
    """What a reading thread does to the collector: many new containers."""
    for _ in range(50_000):
        cycle: list[object] = []
        cycle.append(cycle)


def test_a_qt_object_in_a_cycle_is_freed_in_the_gui_thread(window, qtbot):
    assert not gc.isenabled()  # the window turned automatic collection off
    gc.collect()  # the counts at zero: the next collection is the thread's or the loop's
    _Held.freed_in.clear()
    _Held()
    worker = threading.Thread(target=_allocate_cycles)
    worker.start()
    worker.join()
    assert _Held.freed_in == []  # the thread allocated past every threshold, collected nothing
    qtbot.waitUntil(lambda: bool(_Held.freed_in), timeout=5000)  # the event loop collects
    assert _Held.freed_in == [threading.get_ident()]


def test_a_second_window_adds_no_second_collector(window, qtbot):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from app.main import build_window

    second = build_window(None)
    qtbot.addWidget(second)
    timers = [t for t in QApplication.instance().findChildren(QTimer)
              if t.objectName() == "mainThreadCollector"]
    assert len(timers) == 1
    second.session.mark_saved()


def test_collect_due_collects_what_passed_the_thresholds():
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        _Held.freed_in.clear()
        _Held()
        collect_due()  # nothing due yet: one object since the last collection
        assert _Held.freed_in == []
        for _ in range(gc.get_threshold()[0] + 1):
            cycle: list[object] = []
            cycle.append(cycle)
        collect_due()
        assert _Held.freed_in == [threading.get_ident()]
    finally:
        if was:
            gc.enable()
