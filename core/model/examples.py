"""The seed's worked cases A-F as one small worksheet (the bundled example).

:func:`core.io.example.load_example` reads the bundled workbook.

Every query is named after its case; the expected values are in
``docs/conventions.md`` and checked in ``tests/test_seed_cases.py``.
"""

from __future__ import annotations

from core.model.bundled import bundled
from core.model.conventions import Conventions, Guideline, Guidelines, Rubric
from core.model.document import Document

__all__ = [
    "EXAMPLE_CONVENTIONS",
    "EXAMPLE_PATH",
    "EXAMPLE_WORKBOOK",
    "seed_document",
]

#: The bundled example worksheet (an audited workbook) and the same rows as CSV.
EXAMPLE_WORKBOOK = bundled("example.xlsx")
EXAMPLE_PATH = bundled("example.csv")

EXAMPLE_CONVENTIONS = Conventions(
    cutoffs=(1, 2, None),
    rubric=Rubric.parse("0=no support,1=partial support,2=substantial support,3=direct support"),
    guidelines=Guidelines((
        Guideline(0.0, "The source does not address the claim, or contradicts it.",
                  ("a page on the same topic that never states the claim",)),
        Guideline(1.0, "The source supports part of the claim, or only mentions it; a reader "
                       "needs other sources to accept it.",
                  ("the claim names a year and a place; the source gives only the place",)),
        Guideline(2.0, "The source supports most of the claim; what it leaves out a reader "
                       "could infer.",
                  ("the source gives the figure rounded, the claim gives it exactly",)),
        Guideline(3.0, "The source states the claim itself, with its evidence.",
                  ("the claim quoted, or said in other words, with its source",)),
    )),
)

# query, source id, score, grade (None = unknown); rows in ranked order.
CASES: tuple[tuple[str, str, float, float | None], ...] = (
    ("case-A", "B", 3.0, 1.0),
    ("case-A", "A", 2.0, 3.0),
    ("case-A", "C", 1.0, 0.0),
    ("case-B", "C", 3.0, 0.0),
    ("case-B", "A", 2.0, 3.0),
    ("case-B", "B", 1.0, 1.0),
    ("case-C", "B", 3.0, 1.0),
    ("case-C", "A", 2.0, 3.0),
    ("case-C", "C", 1.0, 0.0),
    ("case-D-doubled", "B", 3.0, 2.0),
    ("case-D-doubled", "A", 2.0, 6.0),
    ("case-D-doubled", "C", 1.0, 0.0),
    ("case-D-plus-one", "B", 3.0, 2.0),
    ("case-D-plus-one", "A", 2.0, 4.0),
    ("case-D-plus-one", "C", 1.0, 1.0),
    ("case-E", "X", 0.5, 3.0),
    ("case-E", "Y", 0.5, 1.0),
    ("case-F-zero", "A", 3.0, 0.0),
    ("case-F-zero", "B", 2.0, 0.0),
    ("case-F-zero", "C", 1.0, 0.0),
    ("case-F-unknown", "A", 3.0, 3.0),
    ("case-F-unknown", "B", 2.0, None),
    ("case-F-unknown", "C", 1.0, 0.0),
)


def seed_document(conventions: Conventions = EXAMPLE_CONVENTIONS) -> Document:
    """The seed's cases as a document (versions ``v1``)."""
    return Document.from_columns(
        query=[c[0] for c in CASES],
        source_id=[c[1] for c in CASES],
        version=["v1"] * len(CASES),
        score=[c[2] for c in CASES],
        grade=[c[3] for c in CASES],
        conventions=conventions,
        judgment_version="seed-cases-v1",
        name="seed cases A-F",
    )

