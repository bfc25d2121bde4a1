"""The start-up benchmark's probe (``benchmarks/bench_startup.py``): with
``NDCG_WORKSHEET_STARTUP_PROBE`` set in its environment, the editor prints
``first paint`` and the processor time it took (``cpu=0.512``: seconds, all
threads) on standard output once its main window has been shown and
painted, and quits. Through the environment, so that a frozen bundle, whose
code cannot be changed, is measured exactly as ``python -m app.launcher`` is.
"""

from __future__ import annotations

import os
import sys
import time

from PySide6.QtWidgets import QApplication, QWidget

from app.first_paint import after_first_paint

__all__ = ["PROBE", "probe_requested", "quit_after_first_paint"]

#: The environment variable that asks for the probe.
PROBE = "NDCG_WORKSHEET_STARTUP_PROBE"


def probe_requested() -> bool:
    return bool(os.environ.get(PROBE))


def _report() -> None:
    sys.stdout.write(f"first paint cpu={time.process_time():.3f}\n")
    sys.stdout.flush()
    QApplication.exit(0)


def quit_after_first_paint(window: QWidget) -> None:
    """Print ``first paint cpu=SECONDS`` and quit once ``window`` has been painted (call
    it before showing the window)."""
    after_first_paint(window, _report)
