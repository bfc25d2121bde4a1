"""Python's cyclic garbage collector, run only in the GUI thread.

The collector runs in whichever thread allocates past its threshold: the
thread that reads a run while the window is built (:mod:`app.opening`), the
task pool's threads (:mod:`app.workers`), a Dask or Spark client's own
threads. A reference cycle holding a Qt object, collected there, deletes the
C++ object outside the thread it lives in, which Qt does not allow: a test
worker that had run Dask's and Spark's tests crashed twice (a segmentation
fault) while its main thread built the Conventions panel. Here automatic
collection is off and the event loop collects, in the GUI thread, the
generations whose counts passed Python's own thresholds: what was collected
before is collected, only in a thread where deleting a Qt object is safe.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

__all__ = ["collect_due", "collect_in_main_thread"]

#: How often the event loop looks at the collector's counts. Python's
#: default thresholds (700 allocations, 10 and 10 collections) are passed
#: many times a second while a run is read; a collection a second keeps
#: what cycles the reading leaves for at most that long.
INTERVAL_MS = 1000

_NAME = "mainThreadCollector"


def collect_due() -> None:
    """The generations whose allocation or collection counts passed the
    collector's thresholds, collected now, youngest first (what the
    interpreter does on its own when automatic collection is on)."""
    counts = gc.get_count()
    for generation, threshold in enumerate(gc.get_threshold()):
        if threshold <= 0 or counts[generation] <= threshold:
            break
        gc.collect(generation)


def collect_in_main_thread(qapp: QObject) -> None:
    """Automatic collection off for the process, and ``qapp``'s event loop
    collecting instead (:func:`collect_due` every :data:`INTERVAL_MS`);
    once per application: a second call does nothing."""
    if qapp.findChild(QTimer, _NAME) is not None:
        return
    timer = QTimer(qapp)
    timer.setObjectName(_NAME)
    timer.timeout.connect(collect_due)
    timer.start(INTERVAL_MS)
    gc.disable()
