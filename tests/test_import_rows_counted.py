"""A column of one value on some rows says how many in words agreeing with
the number: ``the number 7 on 1 row of 4``, where the wizard's Columns tab
and the command line's report said ``on 1 rows of 4`` (the house's
:func:`~core.model.numbers.counted`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from core.io.annotator import Table, detect_mapping
from core.model.numbers import counted
from tests.sheetgen import sheets
from tests.sheetgen_drawn import Drawn
from tests.sheetimport import PROFILE
from tests.test_app_import_accounting import _report, _sheet


@settings(PROFILE, max_examples=25, phases=[Phase.generate])
@given(sheets().filter(lambda s: s.layout != "transposed"), st.integers(1, 3), st.data())
def test_a_column_of_one_number_on_some_rows_counts_them_in_words(
        sheet: Drawn, k: int, data: Any) -> None:
    """Drawn sheets with a ``Batch`` column holding 7 on ``k`` rows drawn
    (1-3): its reason says ``on 1 row of N`` / ``on 2 rows of N``."""
    header, body = sheet.rows[0], sheet.rows[1:]
    at = set(data.draw(st.lists(st.integers(0, len(body) - 1), min_size=k, max_size=k,
                                unique=True)))
    rows = [[*header, "Batch"], *([*r, 7 if i in at else None] for i, r in enumerate(body))]
    mapping = detect_mapping(Table(file="drawn.csv", rows=rows))
    said = [why for _f, why in mapping.reasons if why.startswith("Batch:")]
    assert said == [f"Batch: the number 7 on {counted(k, 'row')} of {len(body)}, no role read "
                    "from it; not imported"], mapping.reasons


def test_the_wizard_s_columns_tab_says_one_row(qtbot: Any, tmp_path: Path) -> None:
    """The wizard's Columns tab on a sheet with a batch number written on
    one row: ``on 1 row of 18`` (it said ``1 rows``)."""
    path = _sheet(tmp_path / "esci.csv")
    lines = path.read_text("utf-8").splitlines()
    lines = [lines[0] + ",Batch", lines[1] + ",10", *(line + "," for line in lines[2:])]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    model = _report(qtbot, path).columns_model
    shown = {model.index(r, 1).data(): model.index(r, 3).data()
             for r in range(model.rowCount())}
    assert shown["Batch"] == ("Batch: the number 10 on 1 row of 18, no role read from it; "
                              "not imported"), shown
