"""What a reviewer types as a grade in the grid's editor."""

from __future__ import annotations

from core.model.conventions import Rubric
from core.model.document import GradeState
from core.model.grades import PastedGrade, read_grade

__all__ = ["parse_grade_text"]


def parse_grade_text(text: str, rubric: Rubric | None) -> PastedGrade:
    """Read what a reviewer typed as a grade.

    The grammar of pasted cells (:func:`core.model.grades.read_grade`: a number,
    a rubric label, ``unknown``, ``N/A`` or ``unrateable: reason``), a number
    outside the rubric allowed, plus what the grade editor lists: a number
    followed by its label (``2 - substantial support``) and ``x`` for
    unrateable.

    Raises
    ------
    ValueError
        When the text is none of these.
    """
    raw = text.strip()
    if raw.casefold() == "x":
        return PastedGrade(None, GradeState.UNRATEABLE)
    head, sep, _ = raw.partition(" - ")
    if sep:
        try:
            return read_grade(head, rubric, outside_rubric=True)
        except ValueError:
            pass
    return read_grade(raw, rubric, outside_rubric=True)
