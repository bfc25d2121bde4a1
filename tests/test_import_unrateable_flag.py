"""Unrateable marks said alike by the command line and the wizard.

The command line's first line of an import counts the marks read as a grade
state (the wizard's Issues listed each; the line said none), and a label
that says the item could not be judged is declared unrateable from the
command line with ``--unrateable "MARK,..."``, the grammar of the wizard's
"Marks read as unrateable" field (:func:`core.io.annotator.model.read_marks`,
declared once); the refusal of a label on no scale names it beside
``N=label``.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from app.accessibility import without_mnemonic
from app.import_wizard.hints import UNRATEABLE_MARKS, in_the_wizard
from core.io.annotator.model import read_marks
from tests.test_app_import import _at_mapping, _next
from tests.test_cli import run

SHEET = ("query,doc,annotator,label\n"
         "q1,d1,ana,relevant\nq1,d2,ana,?\nq1,d3,ana,paywalled\n"
         "q1,d1,ben,relevant\nq1,d2,ben,N/A\nq1,d3,ben,n/a\n"
         "q2,d1,ana,irrelevant\nq2,d2,ana,relevant\n")
RUBRIC = "0=irrelevant,1=relevant"


def _sheet(tmp_path: Path) -> Path:
    path = tmp_path / "judged.csv"
    path.write_text(SHEET, encoding="utf-8")
    return path


def test_a_label_on_no_scale_is_refused_naming_the_flag_that_marks_it_unrateable(
        tmp_path: Path, capsys: Any) -> None:
    path = _sheet(tmp_path)
    code, _ = run(["import", str(path), "--rubric", RUBRIC, "-o", str(tmp_path / "o.csv")])
    assert code == 2
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: error: {path}, line 4, column 'label': labels on no known scale "
        "and not in the rubric: 'paywalled' (1 cell) (give every label its grade with "
        f"--rubric, e.g. --rubric \"{RUBRIC},N=paywalled\"; or, for a label that says the "
        "item could not be judged (a paywall, a broken page), pass --unrateable "
        "\"LABEL\")\n")


def test_the_flag_as_the_hint_writes_it_imports_the_label_unrateable(
        tmp_path: Path) -> None:
    """``--unrateable "paywalled"``, as the hint says it: ana's d3 is
    unrateable, its mark kept (written back as the state's word with the
    mark, ``unrateable: paywalled``, a mark declared at the import), ben's
    grade the item's; the first line counts the marks by state, each as
    written."""
    path, out, report = _sheet(tmp_path), tmp_path / "o.csv", tmp_path / "r.json"
    code, text = run(["import", str(path), "--rubric", RUBRIC,
                      *shlex.split('--unrateable "paywalled"'),
                      "-o", str(out), "--report", str(report)])
    assert code == 0
    assert text.splitlines()[0] == (
        f"{path}: long layout, header on row 1; 8 judgments read in 8 rows: 8 imported (3 "
        "of them marks read as unrateable: 'paywalled' 1, 'N/A' 1, 'n/a' 1; 1 read as "
        "unknown: '?' 1), 0 rejected; 0 blank rows skipped; 5 candidates, annotators ana, "
        "ben")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].split(",")[-2:] == ["grade_ana", "grade_ben"]
    assert ("q1,d3,,,unrateable,unrateable,ana: paywalled; ben: n/a,,unrateable: paywalled,n/a"
            in lines)
    issues = json.loads(report.read_text(encoding="utf-8"))["issues"]
    assert {"kind": "mark", "row": 4, "column": "label", "value": "paywalled",
            "problem": "'paywalled' read as unrateable (reason kept)"} in issues


def test_the_marks_are_read_by_the_wizards_grammar() -> None:
    """Commas part the marks, each stripped, blanks dropped, in either place."""
    assert read_marks(" paywalled, page gone,, ") == ("paywalled", "page gone")


def test_the_wizard_reads_the_label_typed_in_its_field_as_the_flag_does(
        qtbot: Any, tmp_path: Path) -> None:
    """The label typed into "Marks read as unrateable" (with real key
    clicks) is read as unrateable, as ``--unrateable`` reads it (it was
    rejected, 'label 'paywalled' is not in the rubric'), and the report's
    first line counts the marks as the command line's does."""
    path = _sheet(tmp_path)
    wizard = _at_mapping(qtbot, path)
    page = wizard.mapping_page
    assert page.unmapped_prompt.text().endswith(  # (the labels' table said a grade alone)
        "One that says the item could not be judged (a paywall, a broken page) goes in "
        "“Marks read as unrateable” instead.")
    page.rubric.clear()
    qtbot.keyClicks(page.rubric, RUBRIC)
    field = next(w for w in page.findChildren(QLabel) if w.buddy() is page.unrateable_marks)
    assert without_mnemonic(field.text()) == UNRATEABLE_MARKS  # (the label the hint names)
    page.unrateable_marks.setFocus()
    page.unrateable_marks.end(False)
    qtbot.keyClicks(page.unrateable_marks, ", paywalled")
    assert page.mapping().unrateable_marks[-1] == "paywalled"
    _next(qtbot, wizard)
    result = wizard.result_value
    assert result is not None
    assert not result.report.rejected_judgments
    assert result.report.summary()[0] == run_first_line(path, tmp_path)
    assert "8 imported (3 of them marks read as unrateable: 'paywalled' 1, 'N/A' 1, " \
        "'n/a' 1; 1 read as unknown: '?' 1), 0 rejected" in result.report.summary()[0]


def run_first_line(path: Path, tmp_path: Path) -> str:
    code, text = run(["import", str(path), "--rubric", RUBRIC, "--unrateable", "paywalled",
                      "-o", str(tmp_path / "cli.csv")])
    assert code == 0
    return text.splitlines()[0]


def test_the_hint_in_the_wizards_words_names_its_field(qtbot: Any) -> None:
    """The refusal's ``pass --unrateable "LABEL"`` said as the field to
    type it in, labelled as the mapping page labels it."""
    hint = ("give every label its grade with --rubric, e.g. --rubric \"0=no,N=paywalled\"; "
            "or, for a label that says the item could not be judged (a paywall, a broken "
            "page), pass --unrateable \"LABEL\"")
    assert in_the_wizard(hint).endswith(
        "(a paywall, a broken page), add the label to “Marks read as unrateable”")
    assert in_the_wizard('pass --unrateable "paywalled,page gone"') == (
        "add “paywalled,page gone” to “Marks read as unrateable”")


def test_a_default_unknown_mark_declared_unrateable_is_read_unrateable(tmp_path: Path) -> None:
    """``--unrateable "?"``: the user's declaration wins over the default
    unknown marks, as the wizard's fields let "?" move from one to the
    other; the flag was ignored without a word, d2 read unknown."""
    path, out = tmp_path / "k.csv", tmp_path / "o.csv"
    path.write_text("query,doc_id,grade\nq1,d1,2\nq1,d2,?\nq2,d3,1\n", encoding="utf-8")
    code, text = run(["import", str(path), "--unrateable", "?", "-o", str(out)])
    assert code == 0
    assert "3 imported (1 of them marks read as unrateable: '?' 1)" in text.splitlines()[0]
    assert out.read_text(encoding="utf-8").splitlines()[2] == "q1,d2,,,unrateable,unrateable,?,"


def test_a_default_unknown_mark_typed_unrateable_in_the_wizard_is_read_unrateable(
        qtbot: Any, tmp_path: Path) -> None:
    """``?`` typed into "Marks read as unrateable" (real key clicks, Tab to
    leave the field) while "Marks read as unknown" still holds it is read
    unrateable, as ``import --unrateable "paywalled,?"`` reads it: moved out
    of the unknown field, which says so (it stayed unknown without a word:
    the first line '1 read as unknown: '?' 1')."""
    path = _sheet(tmp_path)
    wizard = _at_mapping(qtbot, path)
    page = wizard.mapping_page
    assert "?" in read_marks(page.unknown_marks.text())
    page.rubric.clear()
    qtbot.keyClicks(page.rubric, RUBRIC)
    page.unrateable_marks.setFocus()
    page.unrateable_marks.end(False)
    qtbot.keyClicks(page.unrateable_marks, ", paywalled, ?")
    qtbot.keyClick(page.unrateable_marks, Qt.Key.Key_Tab)
    assert "?" not in read_marks(page.unknown_marks.text())
    assert page.unknown_marks.toolTip() == (
        "?: moved to “Marks read as unrateable”, where it was typed")
    assert "?" not in page.mapping().unknown_marks
    _next(qtbot, wizard)
    result = wizard.result_value
    assert result is not None
    code, text = run(["import", str(path), "--rubric", RUBRIC, "--unrateable", "paywalled,?",
                      "-o", str(tmp_path / "cli.csv")])
    assert code == 0
    assert result.report.summary()[0] == text.splitlines()[0]
    assert "'?' 1" in result.report.summary()[0]
    assert "read as unknown" not in result.report.summary()[0]
