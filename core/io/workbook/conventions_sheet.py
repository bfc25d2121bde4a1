"""The Conventions sheet: every convention as a named cell the formulas read
(edit one and the workbook recomputes), the gain table and the rubric."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.io.workbook.layout import (
    ALL_K,
    GAIN_TABLE_SPARE,
    SHEETS,
    FloatArray,
    Formats,
    put_text,
)
from core.model.conventions import Conventions, GainRule, Weighting
from core.model.document import Document, GradeState


def write_conventions(
    wb: Any, fmt: Formats, doc: Document, conv: Conventions, grades: FloatArray | None = None
) -> dict[str, str]:
    ws = wb.add_worksheet(SHEETS["conventions"])
    ws.set_column(0, 0, 26)
    ws.set_column(1, 1, 22)
    ws.set_column(2, 2, 90)
    sheet = SHEETS["conventions"]
    names: dict[str, str] = {}
    ws.write_string(0, 0, "Conventions: every NDCG number in this workbook depends on these",
                    fmt.title)
    ws.write_string(1, 0, "convention", fmt.header)
    ws.write_string(1, 1, "value (edit to recompute)", fmt.header)
    ws.write_string(1, 2, "meaning / formula", fmt.header)
    row = 2

    def put(name: str, label: str, value: Any, meaning: str, choices: Sequence[str] = ()) -> None:
        nonlocal row
        ws.write_string(row, 0, label)
        if isinstance(value, bool):
            ws.write_boolean(row, 1, value, fmt.conv)
        elif isinstance(value, int | float):
            ws.write_number(row, 1, value, fmt.conv)
        else:
            put_text(ws, row, 1, str(value), fmt.conv, fmt.conv_q)
        put_text(ws, row, 2, meaning, fmt.text, fmt.text_q)
        if choices:
            ws.data_validation(row, 1, row, 1, {"validate": "list", "source": list(choices)})
        names[name] = f"={sheet}!$B${row + 1}"
        row += 1

    g = conv.gain
    put("gain_rule", "gain rule", g.rule.value, g.formula, [m.value for m in GainRule])
    put("negative_gain_zero", "negative gains count as 0", g.negative_as_zero,
        "TRUE: gain = max(gain, 0)")
    put("truncate_grades", "fractional grades truncated", g.truncate,
        "TRUE: grade = trunc(grade) before the gain rule")
    put("discount_rule", "discount", conv.discount.value, conv.discount.formula)
    for j, k in enumerate(conv.cutoffs, start=1):
        put(f"cut_{j}", f"cutoff {j} (k)", k if k is not None else "all",
            "a whole number, or all; the same k cuts the actual and the ideal list")
        ws.write_formula(row - 1, 3, f"=IF(ISNUMBER(cut_{j}),cut_{j},{ALL_K})", None,
                         k if k is not None else ALL_K)
        names[f"cutn_{j}"] = f"={sheet}!$D${row}"
    put("ideal_rule", "ideal inventory", conv.ideal.value, conv.ideal.formula,
        ["ranked", "judged"])
    put("tie_rule", "ties", conv.ties.value,
        conv.ties.formula + " (only average / not average recomputes here: the row order "
        "of the other rules was fixed at export)")
    put("unknown_rule", "unknown grades", conv.unknown.value, conv.unknown.formula,
        ["unresolved", "zero", "condensed"])
    put("zero_ideal_rule", "zero ideal", conv.zero_ideal.value, conv.zero_ideal.formula,
        ["undefined", "zero"])
    put("weighting", "weighting (declared)", conv.weighting.value, conv.weighting.formula,
        [m.value for m in Weighting])
    put("consensus_rule", "consensus", conv.consensus.value, conv.consensus.formula)
    put("rounding_rule", "rounding", conv.rounding.value, conv.rounding.formula)
    put("rubric_text", "rubric", conv.rubric.text if conv.rubric else "",
        "the permitted grades (below); grades outside it are flagged, not dropped")
    put("judgment_version", "judgment version", doc.judgment_version,
        "the version of the judgments these grades come from")
    put("preset", "preset", conv.preset or "", "the starting point these conventions came from")
    put("document_name", "ranked list", doc.name, "the document's name")

    row += 1
    ws.write_string(row, 0, "gain table: grade", fmt.header)
    ws.write_string(row, 1, "gain", fmt.header)
    ws.write_string(row, 2, "used when the gain rule is 'table'; other grades keep gain = grade",
                    fmt.header)
    row += 1
    first = row
    for grade, gain in g.table:
        ws.write_number(row, 0, grade, fmt.conv)
        ws.write_number(row, 1, gain, fmt.conv)
        row += 1
    row += GAIN_TABLE_SPARE
    names["gain_grades"] = f"={sheet}!$A${first + 1}:$A${row}"
    names["gain_values"] = f"={sheet}!$B${first + 1}:$B${row}"

    row += 1
    if grades is None:
        grades = doc.grade[doc.state == GradeState.NUMBER]
    rubric = conv.rubric_for(grades)
    ws.write_string(row, 0, "rubric: grade", fmt.header)
    ws.write_string(row, 1, "label", fmt.header)
    ws.write_string(row, 2, "the current-grade dropdown offers these and unknown, unrateable",
                    fmt.header)
    row += 1
    first = row
    for rg in rubric.grades:
        ws.write_number(row, 0, rg.value)
        put_text(ws, row, 1, rg.label, fmt.text, fmt.text_q)
        row += 1
    for word in ("unknown", "unrateable"):
        ws.write_string(row, 0, word)
        row += 1
    names["grade_list"] = f"={sheet}!$A${first + 1}:$A${row}"
    return names
