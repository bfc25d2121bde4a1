"""Long work (imports, saves, exports) off the UI thread, behind a progress dialog.

A :class:`Task` runs one plain function on :class:`QThreadPool` and reports
back on the UI thread through Qt signals (queued across threads). The window
keeps painting and answering while it runs; the progress dialog's Cancel
button abandons the task: its result, if it ever comes, is dropped, and a
reader it runs stops at its next look (the task runs inside a
:class:`core.io.stop.Stop`: the readers of :mod:`core.io` raise
:class:`~core.io.stop.Stopped` within a megabyte or :data:`~core.io.stop.LINES`
lines, and a child process helping them is killed). Core functions that
accept a progress callback (``progress(done, total)``) get a determinate
bar; the others show a busy bar.

Example::

    task = run_task(window, "Opening sheet.csv…", lambda progress, cancelled: load(path),
                    on_done=window.set_loaded, on_error=show_error)
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QObject,
    QRunnable,
    Qt,
    QThreadPool,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtWidgets import QMessageBox, QProgressDialog, QWidget

from app.shown import boxed
from core.errors import NdcgError
from core.io.stop import Stop, Stopped, stoppable

__all__ = ["Cancelled", "LatestJob", "Task", "drain", "error_text", "quit_notice", "run_task",
           "show_error"]

Progress = Callable[[int, int], None]
Work = Callable[[Progress, Callable[[], bool]], Any]


class Cancelled(Exception):
    """Raised inside a task's function (by ``progress``) once the user cancelled."""


def error_text(exc: BaseException) -> str:
    """What the user reads: the typed error's own sentence, never a traceback."""
    if isinstance(exc, NdcgError):
        return str(exc)
    if isinstance(exc, MemoryError):
        from app.opening import out_of_memory

        return str(out_of_memory(to="finish it", again="try it"))
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}"
    return f"unexpected error ({type(exc).__name__}): {exc}"


def show_error(parent: QWidget | None, title: str, exc: BaseException) -> None:
    """One message box with the error's text."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, boxed(error_text(exc)),
                      QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("errorBox")
    box.exec()


class _Signals(QObject):
    progressed = Signal(int, int)
    succeeded = Signal(object)
    failed = Signal(object)


class _Runnable(QRunnable):
    def __init__(self, work: Work, signals: _Signals, cancel: Stop) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._work = work
        self._signals = signals
        self._cancel = cancel

    def run(self) -> None:
        def progress(done: int, total: int) -> None:
            if self._cancel.is_set():
                raise Cancelled
            self._signals.progressed.emit(int(done), int(total))

        try:
            try:
                with stoppable(self._cancel):  # Cancel stops the readers too (core.io.stop)
                    result = self._work(progress, self._cancel.is_set)
            except (Cancelled, Stopped):
                self._signals.failed.emit(Cancelled())
            except Exception as exc:  # every failure goes back to the UI thread
                self._signals.failed.emit(exc)
            else:
                self._signals.succeeded.emit(result)
        except RuntimeError:
            # The receiving side is gone (the application is quitting): nobody
            # is left to tell.
            pass


#: Tasks still running, kept alive here when nobody else holds them.
_LIVE: set[Task] = set()
#: The pools work was started on (the global one, each LatestJob's).
_POOLS: weakref.WeakSet[QThreadPool] = weakref.WeakSet()
#: How long a quit waits, in all, for the work still running (a reader
#: stops within a megabyte or :data:`~core.io.stop.LINES` lines once told,
#: an export within a batch of rows or a write: :mod:`core.io.stop`).
DRAIN_MS = 10_000
#: How long a quit waits for that work before it says so
#: (:func:`quit_notice`): a stopped export of 100,000 candidates ended
#: within 0.1-1 s of its stop at load 6.
SAY_AFTER_MS = 300
_DRAINED = "ndcgWorkersDrainedAtQuit"


def drain() -> None:
    """Every running task stopped (:meth:`Task.stop`) and every pool's
    running work waited for, when the application quits: at most
    :data:`DRAIN_MS` in all, the quit saying what it waits for after
    :data:`SAY_AFTER_MS` (:func:`quit_notice`). After the event loop,
    PySide deletes the objects Python holds in any order, and a worker
    still running then emitted its result on a signal object deleted under
    it (the process crashed at exit, about once in 100-150 launches of the
    2M run that quit right after it was shown: a ``QThreadPool`` worker in
    ``QMetaObject::metacall`` while the main thread's ``~QThreadPool``
    waited in ``PySide::destroyQCoreApplication``). The results are not
    delivered: nothing is left to take them."""
    stopped = [task.label for task in list(_LIVE)]
    for task in list(_LIVE):
        task.stop()
    pools = list(_POOLS)
    start = _now()
    if _wait(pools, start + SAY_AFTER_MS / 1000):
        return
    notice = quit_notice(stopped)
    try:
        _wait(pools, start + DRAIN_MS / 1000, notice)
    finally:
        notice.close()
        notice.deleteLater()


def _now() -> float:
    return time.monotonic()


def _wait(pools: list[QThreadPool], deadline: float, notice: QWidget | None = None) -> bool:
    """``pools`` waited for until ``deadline`` (one for all; ``notice``
    painted meanwhile); True when all are idle."""
    for pool in pools:
        while True:
            left = int((deadline - _now()) * 1000)
            step = min(left, 50) if notice is not None else left
            try:
                if pool.waitForDone(max(step, 0)):
                    break
            except RuntimeError:  # deleted with its owner (a LatestJob's): idle
                break
            if left <= 0:
                return False
            if notice is not None:
                QCoreApplication.processEvents()
    return True


def quit_notice(labels: list[str]) -> QWidget:
    """A small window saying the quit waits for the work still running
    (``labels``: the tasks stopped, e.g. "Exporting book.xlsx…"), shown at
    once."""
    doing = "\n".join(labels) or QCoreApplication.translate("drain", "the work in progress")
    notice = QProgressDialog(
        QCoreApplication.translate("drain", "Finishing before quitting:\n{0}").format(doing),
        "", 0, 0)
    notice.setObjectName("quitNotice")
    notice.setWindowTitle(QCoreApplication.translate("drain", "Quitting…"))
    notice.setCancelButton(None)  # (it ends on its own within DRAIN_MS)
    notice.setMinimumDuration(0)
    notice.show()
    QCoreApplication.processEvents()
    return notice


def _drained_at_quit(pool: QThreadPool) -> None:
    """``pool``'s work waited for when the application quits (:func:`drain`)."""
    qapp = QCoreApplication.instance()
    if qapp is not None and not qapp.property(_DRAINED):
        qapp.setProperty(_DRAINED, True)  # once per application
        qapp.aboutToQuit.connect(drain)
    _POOLS.add(pool)


class Task(QObject):
    """One function running on the thread pool, with its progress dialog.

    Signals (on the UI thread): :attr:`finished` with the result,
    :attr:`failed` with the exception, :attr:`cancelled` when the user
    cancelled. Exactly one of them is emitted, once, unless it was
    :meth:`stop`-ped: then none.
    """

    finished = Signal(object)
    failed = Signal(object)
    cancelled = Signal()

    def __init__(self, parent: QWidget | None, label: str, work: Work, *,
                 pool: QThreadPool | None = None, show_after_ms: int = 400) -> None:
        super().__init__(parent)
        self.setObjectName("task")
        self._cancel = Stop()
        self._done = False
        self._signals = _Signals()  # lives on the UI thread: its slots run here
        self._signals.progressed.connect(self._on_progress)
        self._signals.succeeded.connect(self._on_success)
        self._signals.failed.connect(self._on_failure)
        dialog = QProgressDialog(label, self.tr("Cancel"), 0, 0, parent)
        dialog.setObjectName("taskProgress")
        dialog.setWindowTitle(self.tr("Working…"))
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(show_after_ms)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(self.cancel)
        self.dialog = dialog
        #: What it does, as its dialog says ("Exporting book.xlsx…").
        self.label = label
        _LIVE.add(self)
        self._pool = pool or QThreadPool.globalInstance()
        _drained_at_quit(self._pool)
        self._pool.start(_Runnable(work, self._signals, self._cancel))

    @property
    def done(self) -> bool:
        """True once the task finished, failed or was cancelled."""
        return self._done

    @Slot()
    def cancel(self) -> None:
        """Abandon the task: its result is dropped, :attr:`cancelled` is
        emitted; a reader it runs stops at its next look (:mod:`core.io.stop`)."""
        if self._done:
            return
        self._cancel.set()
        self._finish()
        self.cancelled.emit()

    def stop(self) -> None:
        """Tell the work to stop (a reader or an export stops at its next
        look, :mod:`core.io.stop`) and drop its result, emitting nothing:
        no :attr:`cancelled` callback runs (the application quitting:
        :func:`drain`)."""
        if self._done:
            return
        self._cancel.set()
        self._finish()

    def _finish(self) -> None:
        self._done = True
        _LIVE.discard(self)
        self.dialog.canceled.disconnect(self.cancel)
        self.dialog.close()
        self.dialog.deleteLater()

    @Slot(int, int)
    def _on_progress(self, done: int, total: int) -> None:
        if self._done:
            return
        if self.dialog.maximum() != total:
            self.dialog.setMaximum(max(total, 0))
        self.dialog.setValue(min(done, total) if total > 0 else 0)

    @Slot(object)
    def _on_success(self, result: Any) -> None:
        if self._done:
            return
        self._finish()
        self.finished.emit(result)

    @Slot(object)
    def _on_failure(self, exc: BaseException) -> None:
        if self._done:
            return
        if isinstance(exc, Cancelled):
            self._finish()
            self.cancelled.emit()
            return
        self._finish()
        self.failed.emit(exc)


def run_task(parent: QWidget | None, label: str, work: Work, *,
             on_done: Callable[[Any], None],
             on_error: Callable[[BaseException], None] | None = None,
             on_cancel: Callable[[], None] | None = None,
             pool: QThreadPool | None = None, show_after_ms: int = 400) -> Task:
    """Run ``work(progress, cancelled)`` off the UI thread; callbacks run on it.

    Without ``on_error`` a failure is shown as one message box with the
    error's text.
    """
    task = Task(parent, label, work, pool=pool, show_after_ms=show_after_ms)
    task.finished.connect(on_done)
    if on_error is not None:
        task.failed.connect(on_error)
    else:
        title = task.tr("NDCG Worksheet")
        task.failed.connect(
            lambda exc: QTimer.singleShot(0, lambda: show_error(parent, title, exc)))
    if on_cancel is not None:
        task.cancelled.connect(on_cancel)
    # Drop the task object once it is over (it keeps no state anyone needs).
    task.finished.connect(task.deleteLater)
    task.failed.connect(task.deleteLater)
    task.cancelled.connect(task.deleteLater)
    return task


class LatestJob(QObject):
    """Quiet work off the UI thread where only the latest request matters
    (the bounds of the query shown): each :meth:`submit` supersedes the one
    before, whose result, when it comes, is dropped. No dialog: the caller
    shows "computing…" meanwhile. One worker thread, so a superseded request
    still running delays the next by its own (short) time only.

    :attr:`finished` carries ``(key, result)``; :attr:`failed` ``(key, exc)``.
    """

    finished = Signal(object, object)
    failed = Signal(object, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        _drained_at_quit(self._pool)
        self._latest = 0
        self._signals = _Signals()
        self._signals.succeeded.connect(self._on_success)
        self._signals.failed.connect(self._on_failure)

    def submit(self, key: Any, work: Callable[[], Any]) -> None:
        """Run ``work()`` off the UI thread; report it under ``key`` unless
        another submit (or :meth:`cancel`) came first."""
        self._latest += 1
        number = self._latest

        def tagged(_progress: Progress, _cancelled: Callable[[], bool]) -> Any:
            if number != self._latest:
                return (number, key, _SUPERSEDED)
            try:
                return (number, key, work())
            except Exception as exc:  # reported, with its key, on the UI thread
                return (number, key, _Failed(exc))

        self._pool.start(_Runnable(tagged, self._signals, Stop()))

    def cancel(self) -> None:
        """Drop whatever is running or waiting."""
        self._latest += 1

    def wait(self, msecs: int = -1) -> bool:
        """Block until the worker is idle (tests, closing)."""
        return bool(self._pool.waitForDone(msecs))

    @Slot(object)
    def _on_success(self, tagged: Any) -> None:
        number, key, result = tagged
        if number != self._latest or result is _SUPERSEDED:
            return
        if isinstance(result, _Failed):
            self.failed.emit(key, result.exc)
        else:
            self.finished.emit(key, result)

    @Slot(object)
    def _on_failure(self, _exc: BaseException) -> None:
        pass  # failures come tagged through _on_success


_SUPERSEDED = object()


class _Failed:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc
