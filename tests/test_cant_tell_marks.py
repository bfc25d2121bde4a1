"""An annotator who cannot tell: the choice a crowd task offers beside the
grades (Toloka's and Appen's ``cant_tell``, ``Can't tell``, ``unable to
judge``) is the grade state unrateable, as ``can't judge`` is, in the
import and in the grid's grammar; the item's grade is the others' mean.
Such a choice was a label on no known scale: the import was refused and
its hint asked for a number for it (``N=cant_tell``), a grade for no
judgment."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io.annotator import import_annotations
from core.model.grades import GradeState, read_grade

LABELS = ("irrelevant", "partially_relevant", "highly_relevant")


@pytest.mark.parametrize("mark", ["cant_tell", "Can't tell", "cannot tell", "unable to judge",
                                  "CANT_JUDGE", "don't know", "can’t tell"])
def test_a_choice_of_cannot_tell_is_unrateable(mark: str, tmp_path: Path) -> None:
    assert read_grade(mark).state == GradeState.UNRATEABLE
    # a Toloka pool's assignments: q1's d2 judged 2 and 1, the third could not tell
    grades = {("q1", "d1"): (2, 2, 1), ("q1", "d2"): (2, None, 1), ("q1", "d3"): (0, 0, 1),
              ("q2", "d4"): (1, 2, 2), ("q2", "d5"): (0, 1, 0)}
    lines = ["INPUT:query_id\tINPUT:passage_id\tOUTPUT:relevance\tASSIGNMENT:worker_id"]
    for (q, d), row in grades.items():
        lines += [f"{q}\t{d}\t{mark if g is None else LABELS[g]}\tw{n}7f3"
                  for n, g in enumerate(row)]
    path = tmp_path / "assignments.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = import_annotations(path)
    doc = result.document
    assert not result.report.unmapped_labels
    got = dict(zip(doc.source_id.tolist(), doc.grade.tolist(), strict=True))
    assert got == pytest.approx({d: sum(g for g in row if g is not None)
                                 / sum(g is not None for g in row)
                                 for (_, d), row in grades.items()})


def test_a_rubric_that_gives_cant_tell_a_grade_is_followed(tmp_path: Path) -> None:
    """A rubric that declares ``3=cant_tell`` (as the rubric's refusal of
    ``N=cant_tell`` says to type) is the user's declaration: the label is
    that grade in the grid's grammar and in the import, not the mark."""
    from core.model.conventions import Rubric

    rubric = Rubric.parse("0=irrelevant,1=partially_relevant,2=highly_relevant,3=cant_tell")
    assert read_grade("Cant_Tell", rubric).grade == 3.0
    assert read_grade("cant_tell").state == GradeState.UNRATEABLE
    lines = ["INPUT:query_id\tINPUT:passage_id\tOUTPUT:relevance\tASSIGNMENT:worker_id",
             "q1\td1\thighly_relevant\tw07f3", "q1\td1\tcant_tell\tw17f3",
             "q1\td2\tirrelevant\tw07f3", "q1\td2\tirrelevant\tw17f3"]
    path = tmp_path / "assignments.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    doc = import_annotations(path, rubric=rubric).document
    got = dict(zip(doc.source_id.tolist(), doc.grade.tolist(), strict=True))
    assert got == pytest.approx({"d1": 2.5, "d2": 0.0})
