"""The review docks' tables fit their words columns in one computation
(:func:`app.review.common.words_cap`), the widths those of the loop it
replaces, which took the cap down 1 px a step (hreview9: an id 2,000 px wide
in the Conflicts dock took ~1,800 steps a resize)."""

from __future__ import annotations

import random

from app.review.common import words_cap


def _stepped(wants: list[int], room: int, floor: int) -> int:
    """The cap as WidthFit.fit worked it out before: 1 px a step."""
    cap = max(wants, default=0)
    while cap > floor and sum(max(min(w, cap), min(w, floor)) for w in wants) > room:
        cap -= 1
    return cap


def _widths(wants: list[int], cap: int, floor: int) -> list[int]:
    return [max(min(w, cap), min(w, floor)) for w in wants]


def test_the_cap_gives_the_stepped_loops_widths() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        wants = [rng.randint(0, 400) for _ in range(rng.randint(0, 5))]
        floor, room = rng.randint(0, 120), rng.randint(-50, 900)
        cap = words_cap(wants, room, floor)
        assert _widths(wants, cap, floor) == _widths(wants, _stepped(wants, room, floor), floor)


def test_the_cap_fills_the_room_the_narrow_columns_leave() -> None:
    # 40 and 100 whole, the widest narrowed to the 160 px left: 300 in all
    assert words_cap([200, 100, 40], 300, 30) == 160
    # a 2,000 px id beside two names, in a 264 px Judges tab (room 200)
    assert words_cap([2000, 60, 70], 200, 48) == 70
    assert words_cap([2000, 60, 70], 100, 48) == 48  # below the floor: it scrolls
    assert words_cap([90, 60], 400, 48) == 90  # room enough: every column whole
