"""Where each dock of the window lives and how much of the window each dock
area gets: the workplace's rules, with no widget (:class:`app.layout.Workplace`
applies them to the window's docks, tells the user's widths and keeps them).

A dock's home (:class:`DockHome`) is an area and the dock it is tabbed with or
split below; in a window of one side column the right column's docks join
the left one (:func:`one_side_home`). At a first start each area gets its
share of the window (:data:`AREA_SIZE`, :func:`share`), and where the side
columns would leave the grid too little for its key columns they give way
(:func:`narrowed_sides`, in :data:`GIVES_WAY_FIRST`'s order); where the
window can hold the grid's every column, they give way to those too, down
to what their views need to read (and further, to their short floors,
where that makes the window hold it).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from PySide6.QtCore import Qt

__all__ = ["AREA_SIZE", "BESIDE_MEASURE", "BESIDE_MOST", "GIVES_WAY_FIRST", "GRID_LEAST",
           "LEAST_BELOW", "MOST_BELOW", "ONE_SIDE_BELOW", "ONE_SIDE_SIZE", "SIDES", "SIDE_LEAST",
           "STACKED_FROM", "VERTICAL", "WIDENED_TO_FLOOR", "DockHome", "narrowed_sides",
           "one_side_home", "share", "starts_group", "widened_sides"]

#: Per dock area at a first start: (share of the window, most, least): the
#: share, or what the area's docks ask for (their size hint) when more, but
#: never more than ``most`` of the window nor less than ``least`` pixels
#: (widths for the side areas, the height for the bottom one, which starts
#: small and never asks).
AREA_SIZE: dict[Qt.DockWidgetArea, tuple[float, float, int]] = {
    # The grid needs its key columns (rank, source, grade, gain, discount,
    # contribution, cumulative DCG: 566 px at 9 pt, 950 at 16 pt; see
    # Workplace.grid_least): the side columns share the rest, at 1280 px
    # enough for query ids of 20 characters beside their NDCG, status and
    # judged count (the navigator) and the summary's table with its widest
    # status (the right column).
    Qt.DockWidgetArea.LeftDockWidgetArea: (0.15, 0.27, 200),
    Qt.DockWidgetArea.RightDockWidgetArea: (0.2, 0.26, 220),
    Qt.DockWidgetArea.BottomDockWidgetArea: (0.2, 0.2, 110),
    Qt.DockWidgetArea.TopDockWidgetArea: (0.2, 0.2, 110),
}
#: What the grid keeps of a window's width for its key columns where the
#: window does not say what they need (:attr:`Workplace.grid_least`): the side
#: columns give way to it, down to SIDE_LEAST each.
GRID_LEAST, SIDE_LEAST = 640, 150
#: The least and the most of its column a dock split below another gets (the
#: upper one asks for its size hint between those).
LEAST_BELOW, MOST_BELOW = 0.35, 0.6
#: The least window height (pixels) at which a dock is stacked below another
#: in a column (a 1920x1080 screen); shorter, it is a tab behind it.
STACKED_FROM = 900
#: Windows narrower than this many average characters of their font have
#: one side column, the left one (1155 px at the usual 9 pt font, 2020 px at
#: 16 pt): two would leave each 150-170 px at 960 (a 1920x1080 screen at 2x)
#: and cut query ids and the summary's table at 16 pt on a 1920 px screen;
#: buttons, filter boxes and tab titles are cut.
ONE_SIDE_BELOW = 190
#: The most of the window's width a dock beside the bottom area's first (the
#: guidelines beside the audit log) takes, when its view asks for more: 352
#: px at 1280, 528 at 1920; the audit log keeps the rest.
BESIDE_MOST = 0.275
#: ... and no wider than a text reads well, in average characters a line
#: (typographers' 45-75): wider, the audit log beside them cut its columns.
BESIDE_MEASURE = 66
#: The one side column's (share of the window, most, least), as AREA_SIZE.
ONE_SIDE_SIZE = (0.3, 0.4, 240)


@dataclass(frozen=True)
class DockHome:
    """Where a dock is put by default: an area, tabbed behind ``tab_with`` or
    split below ``below`` (dock objectNames), shown or not. With ``below``,
    ``stacked_from``: split below it only when the window is at least that
    many pixels tall, tabbed behind it otherwise (0: always below)."""

    area: Qt.DockWidgetArea
    tab_with: str | None = None
    below: str | None = None
    hidden: bool = False
    stacked_from: int = 0


def one_side_home(home: DockHome, homes: dict[str, DockHome]) -> DockHome:
    """Where a dock at ``home`` goes in a window of one side column: a dock
    of the right column moves to the left one, its first dock (a column's
    front, e.g. the summary) below the left column's front (the navigator;
    behind it in a window less than :data:`STACKED_FROM` tall), one split
    below it (the conventions) a tab behind it, one tabbed stays so; every
    other dock stays home. ``homes``: every dock's home, by objectName."""
    right, left = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.LeftDockWidgetArea
    if home.area != right:
        return home
    if home.below is not None:
        return replace(home, area=left, tab_with=home.below, below=None, stacked_from=0)
    if home.tab_with is not None:
        return replace(home, area=left)
    front = next((n for n, h in homes.items() if h.area == left and starts_group(h)), None)
    if front is None:
        return replace(home, area=left)
    return replace(home, area=left, below=front, stacked_from=STACKED_FROM)


def starts_group(home: DockHome) -> bool:
    """``home`` starts a group of its area (it is neither tabbed nor below another)."""
    return not (home.tab_with or home.below or home.hidden)


def share(area: Qt.DockWidgetArea, length: int, asked: int = 0,
           size: tuple[float, float, int] | None = None) -> int:
    share, most, least = size or AREA_SIZE[area]
    return max(least, min(round(length * most), max(round(length * share), asked)))


def widened_sides(sizes: dict[Qt.DockWidgetArea, int], width: int,
                  grid_least: int = GRID_LEAST, separator: int = 0,
                  floors: Mapping[Qt.DockWidgetArea, int] | None = None,
                  ) -> dict[Qt.DockWidgetArea, int]:
    """The side columns' widths (their shares), each of
    :data:`WIDENED_TO_FLOOR` narrower than its floor in ``floors`` widened
    to it, past its share's most, where the grid still keeps ``grid_least``
    of the window's ``width`` beside the sides as they are (each with its
    ``separator``); not at all where it would not (a part of the floor does
    not show what it is for). At 1280x800 the navigator's 27 % (346 px)
    hid its Status column beside the example's queries with texts, whose
    ids and status read at 387 px while the grid's key columns take 566 of
    the 569 left."""
    sides = [a for a in sizes if a not in VERTICAL]
    widened = dict(sizes)
    for area in WIDENED_TO_FLOOR:
        floor = (floors or {}).get(area, 0)
        if area not in widened or widened[area] >= floor:
            continue
        rest = sum(widened[a] for a in sides if a != area) + separator * len(sides)
        if rest + floor + grid_least <= width:
            widened[area] = floor
    return widened


def narrowed_sides(sizes: dict[Qt.DockWidgetArea, int], width: int,
              grid_least: int = GRID_LEAST, separator: int = 0,
              kept: Collection[Qt.DockWidgetArea] = (), grid_whole: int = 0,
              floors: Mapping[Qt.DockWidgetArea, int] | None = None,
              shorts: Mapping[Qt.DockWidgetArea, int] | None = None,
              grid_read: int = 0) -> dict[Qt.DockWidgetArea, int]:
    """The side columns' widths, narrowed (to :data:`SIDE_LEAST` at the
    least) where they would leave the grid less than ``grid_least`` of the
    window's ``width``, each side also taking its ``separator`` (the handle
    between it and the grid: 6 px under Fusion, which the grid lost). The
    sides give way in :data:`GIVES_WAY_FIRST`'s order, each as much as it
    can before the next gives any; the ``kept`` ones (a width the user set)
    not at all: what the others cannot give, the grid scrolls. Then the
    sides give way, each down to its floor in ``floors`` (none without
    one: the navigator's width where its ids and status still read, the
    summary's what it asks for), to the grid's whole column set
    (``grid_whole``), the left one first (its queries' texts elide, whole
    on hover): at 1920x1080 the navigator asking for its texts' 40
    characters (494 px) cut the grid's last column. Last, where the whole
    set is still short and the sides' short floors in ``shorts`` (the
    navigator's statuses in their short forms) hold it, down to those (at
    1920x1080 beside 40-character ids and unresolved queries, the
    navigator's floor of 496 px left the grid 29 px short): not where
    they would not (narrower for nothing). Then the same two steps to the
    whole set with its source ids read whole (``grid_read``, up to
    :data:`~app.panels.grid.SOURCE_READ` characters): at 1920x1080 beside
    40-character URLs the grid held every column with the ids cut to
    16 characters ('htt…rs/pa-0100'), the sides 146 px past their floors."""
    sides = {a: n for a, n in sizes.items() if a not in VERTICAL}
    narrowed = dict(sizes)
    giving = sorted(set(sides) - set(kept), key=GIVES_WAY_FIRST.index)

    def over(need: int) -> int:
        return sum(narrowed[a] for a in sides) + separator * len(sides) + need - width

    def room(area: Qt.DockWidgetArea, floor: Mapping[Qt.DockWidgetArea, int] | None) -> int:
        return max(0, narrowed[area] - max(SIDE_LEAST, (floor or {}).get(area, narrowed[area])))

    steps: list[tuple[int, list[Qt.DockWidgetArea], Mapping[Qt.DockWidgetArea, int] | None]]
    steps = [(grid_least, giving, dict.fromkeys(sides, SIDE_LEAST))]
    for need in (grid_whole, grid_read):
        steps += [(need, giving[::-1], floors), (need, giving[::-1], shorts)]
    for need, order, floor in steps:
        lacking = over(need)
        if floor is shorts and lacking > sum(room(a, shorts) for a in order):
            continue
        for area in order:
            given = min(max(0, lacking), room(area, floor))
            narrowed[area] -= given
            lacking -= given
    return narrowed


VERTICAL = (Qt.DockWidgetArea.BottomDockWidgetArea, Qt.DockWidgetArea.TopDockWidgetArea)
SIDES = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)
#: The order the side columns give way to the grid in: the right one first
#: (the summary's table lets its DCG and ideal DCG go, which the grid says,
#: and keeps its status), the left one last (the navigator hides its status
#: column as soon as it has less than it asks for).
GIVES_WAY_FIRST = (Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.LeftDockWidgetArea)
#: The side columns that take their floor (where their views still read)
#: beyond their share's most, where the grid keeps its key columns
#: (:func:`widened_sides`): the left one, whose navigator hides its Status
#: column (what a reviewer scans the list for) below it. The right one
#: keeps its most: its summary's table lets the DCG and ideal DCG go, which
#: the grid says.
WIDENED_TO_FLOOR = (Qt.DockWidgetArea.LeftDockWidgetArea,)
