"""What a drawn annotators' sheet is made of: the queries, source ids,
people and grade scales the generators draw from, and :class:`Drawn`, a
sheet with the truth of its judgments kept aside. Shared by
tests/sheetgen.py (which composes the sheets), tests/sheetgen_legends.py
(the legends written beside them), tests/sheetgen_blocks.py,
tests/platformgen.py and tests/platformgen_json.py; it imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

QUERIES = ["solar panel efficiency", "best hiking boots", "python csv unicode",
           "what is ndcg", "cheap flights to rome", "espresso grinder", "train times"]
#: Each query's text as annotators' exports write it beside the query
#: (``query_text``, drawn when asked for), one per query of :data:`QUERIES`.
QUESTIONS = ["Which solar panels keep their efficiency in a cold, cloudy climate?",
             'What are the best hiking boots for wide feet under "$150"?',
             "How do I read a CSV file with Unicode (é, ü, 中文) in Python?",
             "What is NDCG, and how does it differ from MAP?",
             "Where can I find cheap flights to Rome in late October?",
             "Which espresso grinder is worth it for a beginner, burr or blade?",
             "What are the train times from Zürich to Milan on Sundays?"]
#: Source ids of many shapes: (query index, doc index) -> id.
SOURCE_SHAPES: dict[str, Callable[[int, int], Any]] = {
    "slug": lambda q, d: f"doc-{q:02d}-{d:04d}",
    "url": lambda q, d: f"https://site{q}.example/page/{d}",
    "clueweb": lambda q, d: f"clueweb09-en{q:04d}-{d:02d}-{q * 31 + d:05d}",
    "number": lambda q, d: 2350000100 + 100 * q + d,
    "sku": lambda q, d: f"B0{q}{d:03d}XK{d % 7}",
    "uuid": lambda q, d: f"{q:08x}-{d:04x}-4a1b-9c2d-{q * 7919 + d:012x}",
}
PEOPLE: dict[str, list[Any]] = {
    "email": ["ana@lab.example", "ben@lab.example", "chen.li@uni.example", "dee@corp.example"],
    "worker": ["A1X9QW2LMZ3K7P", "A2B7NC4RT8VE1D", "A3KD8FJ2MS9QXL", "A9ZL2XW4YTK3RB"],
    "name": ["Alice", "Bob", "Chen", "Dana"],
    "number": [41823377, 45519020, 40011234, 47770001],
}
#: Grade writings: name -> (grades drawn, how each is written).
SCALES: dict[str, tuple[list[int], Callable[[int], Any]]] = {
    "0-3": ([0, 1, 2, 3], lambda g: g),
    "1-5": ([1, 2, 3, 4, 5], lambda g: g),
    "labels": ([0, 1, 2], lambda g: ["Not relevant", "Somewhat relevant",
                                     "Highly relevant"][g]),
    "numbered": ([0, 1, 2], lambda g: f"{g} - " + ["Not relevant", "Somewhat relevant",
                                                   "Highly relevant"][g]),
}


@dataclass
class Drawn:
    """A drawn sheet: its rows (header first), the truth of each judgment
    ((query, source) -> the grades given), the ranking's header and values
    ((query, source) -> score, rank as -rank), whether its header names a
    ranking, the flags a user would pass, and whether a distractor looks
    like grades under a header that does not say what it is."""

    rows: list[list[Any]]
    layout: str
    truth: dict[tuple[str, str], list[float]]
    ranking: str | None = None
    ranking_named: bool = False
    ranking_values: dict[tuple[str, str], float] = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    ambiguous: bool = False
    #: A long sheet with a second column of grades under a header naming
    #: no one's: the import must refuse it, or use both columns.
    extra_grade: bool = False
    grade_headers: list[str] = field(default_factory=list)
    #: Each query's text as the sheet writes it beside the query (a
    #: ``query_text`` column), by the query as written; {} without one.
    query_texts: dict[str, str] = field(default_factory=dict)
    kinds: list[str] = field(default_factory=list)
    #: Each column's kind, in the header's order (a long or wide sheet).
    column_kinds: list[str] = field(default_factory=list)
    #: A ranking disagreeing with itself (``sheets(split=True)``): the
    #: item's query and source, its two rows in the file and their values.
    split: tuple[str, str, int, int, Any, Any] | None = None
    #: Items whose first row leaves the ranking blank while a later row of
    #: theirs gives it (``sheets(gaps=True)``, and a third of the long
    #: sheets of several judges with a ranking): the item's query and
    #: source, the blank row and the row giving the value, in the file,
    #: and the value (a score, or a rank).
    gaps: list[tuple[str, str, int, int, Any]] = field(default_factory=list)
    #: A legend of the grade scale (``sheets(legend=...)``): rows written
    #: above the header, or a sheet of its own after the judgments' (a
    #: workbook), and the grade it lacks when drawn wrong (else None).
    above: list[list[Any]] = field(default_factory=list)
    #: The header as the file writes it over two rows (``sheets(two_headers=True)``),
    #: in place of ``rows[0]``, which holds the names joined; [] on one row.
    header_rows: list[list[Any]] = field(default_factory=list)
    #: What each row of ``above`` holds, as the import's report names it
    #: (``title``, ``people``, ``legend``, ``blank``).
    above_kinds: list[str] = field(default_factory=list)
    legend_sheet: list[list[Any]] | None = None
    legend_lacks: float | None = None
    #: A legend of labels without grades (``sheets(legend="labels")``): its
    #: labels as it lists them, the order it states (``best first``,
    #: ``worst first`` or ""), and the label it lacks that the grades use
    #: (``legend="labels wrong"``; else None).
    legend_words: tuple[str, ...] = ()
    legend_order: str = ""
    legend_lacks_label: str | None = None
    #: A grade cell off the range its header declares (``sheets(off_range=True)``):
    #: its row in the file (header on row 1) and its value; the import refuses it.
    off_range: tuple[int, int] | None = None
    #: Grade cells drawn blank (``sheets(blanks=True)``): no judgment.
    blank_cells: int = 0
    #: Grade cells holding a mark, no grade (``sheets(marks=True)``):
    #: (query, source, annotator) -> the mark, as the sheet writes them.
    marks: dict[tuple[str, str, str], str] = field(default_factory=dict)
    #: The notes the import's report must hold (a radio button read as
    #: one grade column: :func:`tests.platformgen._radio`).
    notes: list[str] = field(default_factory=list)
    #: A checkbox's header beside a radio button's choices (``Answer.unsure.on``):
    #: no grade, left out saying so (:func:`tests.platformgen._radio`).
    checkbox: str | None = None
    #: The file's own text, written as it is (a JSON export of nested
    #: records: :func:`tests.platformgen_json.label_studio_json`); its annotations cancelled
    #: and its drafts (rows skipped).
    text: str | None = None
    cancelled: int = 0
    #: Rows of models' predictions apart from the annotations (each a row
    #: of its own: :func:`tests.platformgen_json.label_studio_json`), no judgment.
    predicted_rows: int = 0
    #: Rows of a record's own fields alone, no judgment nor prediction (a
    #: Label Studio task with drafts alone exported as their ids).
    bare_rows: int = 0
    #: Why each item no one judged has no grade, as the import must say it
    #: beside its unknown grade (``declined by 2 annotators``, ``drafts
    #: only, by 1 annotator``, both joined by ``; ``), written by hand from
    #: what the file holds: the JSON exports' items every annotator
    #: declined or saved only drafts of (:mod:`tests.platformgen_json`).
    unknown_reasons: dict[tuple[str, str], str] = field(default_factory=dict)
    #: Texts reading like places typed into a transposed sheet's grade cells
    #: (``sheets(places=True)``): the file's row (1-based), column (0-based)
    #: and the text; the judgment each replaces is no more in the truth.
    planted: list[tuple[int, int, str]] = field(default_factory=list)
    #: A respondent named like a place who submits twice: the name, the
    #: file rows (1-based) of the first and the second submission.
    again: tuple[str, int, int] | None = None
