"""Whether two threads' calls of one function overlap (tests of the work a
command does one run at a time)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


def side_by_side(func: Callable[..., Any], events: list[str], label: str) -> Callable[..., Any]:
    """``func`` wrapped so that each call appends ``label`` to ``events`` and
    waits (half a second at most) for a second call: reached by two calls at
    once, it appends "side by side" as well; then it calls ``func``."""
    both = threading.Barrier(2, timeout=0.5)

    def probe(*a: Any, **k: Any) -> Any:
        events.append(label)
        try:
            both.wait()
            events.append("side by side")
        except threading.BrokenBarrierError:
            pass
        return func(*a, **k)

    return probe
