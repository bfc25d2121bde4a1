"""Time per judgment: how long a reviewer spends on a grade, idle time left out.

:class:`JudgmentClock` turns the moments a reviewer was active (a key, a
click, a scroll) and the moments they set a grade into the active seconds
each grade took: the time since the previous grade of the same session (or
since the clock started, for the first), where every pause between two
activities counts for at most ``idle_after`` seconds (a longer pause is
reading at most that long, then away), and the whole for at most ``cap``.
The clock knows nothing of Qt: the window feeds it the times of input events.

:func:`reviewer_pace` reads the audit log's timed entries back: per reviewer,
how many timed judgments, their median seconds and the pace (judgments per
hour of active time).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from core.model.audit import AuditEntry

__all__ = ["CAP_SECONDS", "IDLE_SECONDS", "JudgmentClock", "Pace", "reviewer_pace"]

#: A pause longer than this counts for this long: reading, then away.
IDLE_SECONDS = 90.0
#: No judgment is counted as taking longer than this.
CAP_SECONDS = 600.0


class JudgmentClock:
    """Active seconds between grades (see the module's description).

    Times are in seconds from any fixed origin (``time.monotonic()``).

    Examples
    --------
    >>> clock = JudgmentClock(start=0.0, idle_after=60.0, cap=600.0)
    >>> clock.active(10.0); clock.active(20.0)
    >>> clock.lap(25.0)  # 25 s of work since the start
    25.0
    >>> clock.active(30.0)
    >>> clock.lap(1030.0)  # 5 s, then a pause of 1000 s counted as 60 s
    65.0
    """

    def __init__(self, *, start: float, idle_after: float = IDLE_SECONDS,
                 cap: float = CAP_SECONDS) -> None:
        if not (idle_after > 0 and cap > 0):
            raise ValueError("idle_after and cap are positive numbers of seconds")
        self.idle_after, self.cap = idle_after, cap
        self.restart(start)

    def restart(self, now: float) -> None:
        """Start counting afresh at ``now`` (a document opened, a session resumed)."""
        self._last = now
        self._spent = 0.0

    def active(self, now: float) -> None:
        """The reviewer did something at ``now``."""
        gap = now - self._last
        if gap > 0:
            self._spent += min(gap, self.idle_after)
            self._last = now

    def lap(self, now: float) -> float:
        """A grade was set at ``now``: the active seconds it took (capped); the
        next grade counts from here."""
        self.active(now)
        spent = min(self._spent, self.cap)
        self._spent = 0.0
        return spent


@dataclass(frozen=True)
class Pace:
    """A reviewer's timed judgments: how many, their median seconds and the
    pace in judgments per hour of active time (None when none is timed)."""

    reviewer: str
    timed: int
    median_seconds: float | None
    per_hour: float | None


def reviewer_pace(audit: Iterable[AuditEntry], reviewers: Iterable[str]) -> list[Pace]:
    """The pace of each of ``reviewers`` from the timed entries of ``audit``
    (an entry without seconds, an undo, a merge, an edit in a spreadsheet,
    is not a timed judgment).

    Examples
    --------
    >>> log = [AuditEntry("ana", "t", "q", "d1", "unknown", "2", seconds=10.0),
    ...        AuditEntry("ana", "t", "q", "d2", "unknown", "1", seconds=30.0),
    ...        AuditEntry("ana", "t", "q", "d3", "unknown", "0", seconds=20.0),
    ...        AuditEntry("ben", "t", "q", "d1", "2", "3")]
    >>> [(p.reviewer, p.timed, p.median_seconds, p.per_hour)
    ...  for p in reviewer_pace(log, ["ana", "ben"])]
    [('ana', 3, 20.0, 180.0), ('ben', 0, None, None)]
    """
    # (imported here, in a review round: the editor's launch imports this
    # module and never asks it; statistics and fractions were ~3 ms of the
    # main thread's CPU before the first paint, hopen15)
    import statistics

    seconds: dict[str, list[float]] = {}
    for e in audit:
        if e.seconds is not None and math.isfinite(e.seconds):
            seconds.setdefault(e.who, []).append(e.seconds)
    out = []
    for who in reviewers:
        mine = seconds.get(who, [])
        total = math.fsum(mine)
        out.append(Pace(who, len(mine), statistics.median(mine) if mine else None,
                        3600.0 * len(mine) / total if total > 0 else None))
    return out
