"""The legends :func:`tests.sheetgen.sheets` writes beside a drawn sheet's
judgments (``sheets(legend=...)``, ``sheets(key=True)``, and a legend of
labels for a sheet graded in words): a legend of the scale's grades and
labels (:func:`scale_legend`), one of labels without grades (:func:`words_legend`)
and a key of labels in a column beside the judgments (:func:`key_column`), each
added to a :class:`~tests.sheetgen_drawn.Drawn` with what it says kept
aside. It imports tests/sheetgen_drawn.py only.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from tests.sheetgen_drawn import SCALES, Drawn

#: Each scale's levels as a legend says them.
LEGENDS: dict[str, list[tuple[int, str]]] = {
    "0-3": [(0, "not relevant"), (1, "partial"), (2, "relevant"), (3, "perfect")],
    "1-5": [(1, "bad"), (2, "poor"), (3, "fair"), (4, "good"), (5, "excellent")],
    "labels": [(0, "Not relevant"), (1, "Somewhat relevant"), (2, "Highly relevant")],
    "numbered": [(0, "Not relevant"), (1, "Somewhat relevant"), (2, "Highly relevant")],
}


#: Labels on no known scale, worst first (grades 0-3): a legend of them
#: without grades gives the import no numbers (``sheets(legend="labels")``).
WORDS = ["Useless", "Marginal", "Useful", "Vital"]
#: The scales of words a legend of labels is drawn for: a known one, and
#: one no known scale reads.
WORD_SCALES: dict[str, tuple[list[int], Callable[[int], Any]]] = {
    "labels": SCALES["labels"], "words": ([0, 1, 2, 3], lambda g: WORDS[g])}


#: The titles and the people an annotators' sheet names above its header.
TITLES = ["Relevance judgments - round 2", "Search quality review, Q3", "Judging sheet"]
PEOPLE = ["Prepared by: Dana Lee", "Annotators: Ana, Ben", "Reviewed by Sam Ortiz"]


def above_rows(sheet: Drawn, rnd: Random, legend: list[list[Any]]) -> None:
    """The legend's rows above the header as annotators write them: after a
    title (a cell a spreadsheet merges across the table) and who made the
    sheet, either or both or neither, a blank row below; their kinds kept
    (:attr:`~tests.sheetgen_drawn.Drawn.above_kinds`)."""
    head = rnd.choice([[], ["title"], ["people"], ["title", "people"],
                       ["title", "people", "blank"]])
    said = {"title": [rnd.choice(TITLES)], "people": [rnd.choice(PEOPLE)], "blank": []}
    sheet.above = [*(said[k] for k in head), *legend, []]
    # (who made the sheet is text, quoted, never named from its words; a
    # title only as the first filled row)
    kinds = ["text" if k == "people" and "title" in head else k for k in head]
    sheet.above_kinds = [*("title" if k == "people" else k for k in kinds),
                         *(["legend"] * len(legend)), "blank"]


def words_legend(sheet: Drawn, rnd: Random, scale: str, wrong: bool) -> None:
    """A legend of ``scale``'s labels without grades (without its top label
    when ``wrong``), each as the cells write it or in other case: in one
    cell (``From best to worst: Vital / Useful / ...``, or under ``Scale:``
    stating no order), a label a row under a title (``Legend (best
    first)``, or ``Legend``), or a label a cell across a row after that
    title; above the header, on a sheet of its own, or in a column beside
    the judgments, blank below."""
    grades, write = WORD_SCALES[scale]
    words = [str(write(g)) for g in grades]
    order = rnd.choice(["best first", "worst first", ""])
    listed = words[::-1] if order == "best first" or (not order and rnd.random() < 0.5) \
        else words
    if wrong:
        listed = [w for w in listed if w != words[-1]]
    # the legend typed apart from the cells: a label's case may differ
    listed = [rnd.choice([w, w, w.lower(), w.upper()]) for w in listed]
    said = {"best first": "from best to worst", "worst first": "from worst to best"}
    form = rnd.choice(["cell", "rows", "across"])
    title = f"Legend ({said[order]})" if order else "Legend"
    rows: list[list[Any]] = (
        [[(said[order].capitalize() if order else "Scale") + ": " + " / ".join(listed)]]
        if form == "cell" else [[title + ":", *listed]] if form == "across"
        else [[title], *([w] for w in listed)])
    place = rnd.random()
    if place < 0.3 and len(sheet.rows) > len(listed) + 1 and form != "across":
        column = [title, *listed]  # a label a row under the title, as the column's header
        sheet.rows = [[*r, column[i] if i < len(column) else ""]
                      for i, r in enumerate(sheet.rows)]
        sheet.column_kinds = [*sheet.column_kinds, "legend"]
    elif place < 0.65:
        above_rows(sheet, rnd, rows)
    else:
        sheet.legend_sheet = rows
    sheet.legend_words, sheet.legend_order = tuple(listed), order
    sheet.legend_lacks_label = words[-1] if wrong else None


def scale_legend(sheet: Drawn, rnd: Random, scale: str, wrong: bool) -> None:
    """A legend of ``scale`` (without its top grade when ``wrong``): in one
    cell, one level a row, a grade beside its label a row, or a level a
    cell across a row after ``Scale:`` (as a CSV line of the legend typed
    without quotes is split) or after ``Legend`` in a cell of its own (as a
    person lays it out); above the
    header, on a sheet of its own, or beside the judgments, blank below:
    one level a row in a column (``Legend``), or a grade beside its label
    in two (``Grade`` | ``Meaning``)."""
    levels = LEGENDS[scale][:-1] if wrong else LEGENDS[scale]
    form = rnd.choice(["cell", "rows", "pairs", "across"])
    rows: list[list[Any]] = (
        [["Scale: " + ", ".join(f"{g} = {t}" for g, t in levels)]] if form == "cell"
        else [[f"{g} = {t}"] for g, t in levels] if form == "rows"
        else [[rnd.choice(["Scale:", "Legend"]), *(f"{g} = {t}" for g, t in levels)]]
        if form == "across"
        else [[g, t] for g, t in levels])
    place = rnd.random()
    if place < 0.25 and len(sheet.rows) > len(levels) + 1 and form != "across":
        # one level a row under "Legend", or a grade beside its label under
        # "Grade" | "Meaning" (a header naming the grade's role)
        beside = ([["Grade", "Meaning"], *([g, t] for g, t in levels)] if form == "pairs"
                  else [["Legend"], *([f"{g} = {t}"] for g, t in levels)])
        blank = [""] * len(beside[0])
        sheet.rows = [[*r, *(beside[i] if i < len(beside) else blank)]
                      for i, r in enumerate(sheet.rows)]
        sheet.column_kinds = [*sheet.column_kinds, *(["legend"] * len(beside[0]))]
    elif place < 0.6:
        above_rows(sheet, rnd, rows)
    else:
        sheet.legend_sheet = [["Grade", "Meaning"] if form == "pairs" else ["Legend"], *rows]
    sheet.legend_lacks = float(LEGENDS[scale][-1][0]) if wrong else None


#: What a key beside the judgments says each level means.
MEANINGS = ["off topic", "some of it", "answers it", "the best answer", "nothing better"]


def key_column(sheet: Drawn, rnd: Random, scale: str) -> None:
    """A key of the scale's labels without grades in a column beside the
    judgments (``Legend``, ``Key``, or no header), a label a row from the
    first row down, blank below: bare or given its meaning (``Not
    relevant = off topic``), under a title cell or not (``Key:``, ``Legend
    (best first)``), best or worst first. It holds no judgment: it is the
    legend, never one more annotator's grades, a note or a grade column
    left unused (it was each)."""
    labels = [t for _, t in LEGENDS[scale]]
    if rnd.random() < 0.5:
        labels = labels[::-1]
    described = rnd.random() < 0.5
    entries = [f"{t}{rnd.choice([' = ', ': ', ' - '])}{MEANINGS[i]}" if described else t
               for i, t in enumerate(labels)]
    title = rnd.choice(["", "", "Key:", "Legend (best first)"])
    entries = [title, *entries] if title else entries
    header = rnd.choice(["Legend", "Key", ""])
    if len(entries) >= len(sheet.rows) - 1:  # as long as the sheet: named a legend
        header = "Legend"
    column = [header, *entries]
    sheet.rows = [[*r, column[i] if i < len(column) else ""] for i, r in enumerate(sheet.rows)]
    sheet.column_kinds = [*sheet.column_kinds, "key"]
