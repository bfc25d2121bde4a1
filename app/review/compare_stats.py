"""The comparison's paired statistics as a form one reads at a glance: the
means, the mean delta, the p-value and the interval, each on its own line.

Every number is :class:`core.analysis.compare.PairedTest`'s; this module only
lays them out (rounded to the window's digits; the p-value to 4 significant
digits, as the sentence has it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QWidget

from app.delegates import format_number
from app.scheme import tint
from core.analysis.aggregate import excluded_phrase
from core.model.conventions import format_cutoff

if TYPE_CHECKING:
    from core.analysis.compare import PairedTest
    from core.analysis.compare.changes import LeftOut

__all__ = ["ComparisonStats"]

#: (row key, title) in the order shown; each value label is named ``compare<Key>``.
ROWS: tuple[tuple[str, str], ...] = (
    ("Queries", "Queries"),
    ("MeanA", "Mean A"),
    ("MeanB", "Mean B"),
    ("MeanDelta", "Mean delta (B − A)"),
    ("PValue", "p-value"),
    ("Interval", "Interval"),
    ("Outcomes", "B wins / ties / loses"),
)


def _signed(value: float | None, digits: int) -> str:
    return "—" if value is None else f"{value:+.{digits}f}"


class ComparisonStats(QGroupBox):
    """The paired statistics at one cutoff (objectName ``compareStats``)."""

    def __init__(self, decimals: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compareStats")
        self._decimals = decimals
        self.values: dict[str, QLabel] = {}
        #: The numbers shown are no longer current (muted); the mean delta's tone.
        self.faded = False
        self._tone = ""
        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for key, title in ROWS:
            value = QLabel(self)
            value.setObjectName(f"compare{key}")
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(self.tr(title) + ":", value)
            self.values[key] = value
        self.show_test(None)

    def text(self, key: str) -> str:
        """What row ``key`` (e.g. ``PValue``) shows."""
        return self.values[key].text()

    def show_test(self, test: PairedTest | None, left_out: LeftOut | None = None) -> None:
        """Show ``test`` (None: no comparison yet), and the queries the inputs
        named that were not compared (``left_out``) beside its query count."""
        for label in self.values.values():
            label.clear()
        self._tone = ""
        self._tint()
        if test is None:
            self.setTitle(self.tr("Paired statistics"))
            self.values["MeanDelta"].setText(self.tr("no comparison yet"))
            return
        d = self._decimals()
        at = f"NDCG@{format_cutoff(test.k)}"
        self.setTitle(self.tr("Paired statistics at {0}").format(at))
        excluded = excluded_phrase(test.excluded, label="left out", empty=None)
        self.values["Queries"].setText(self.tr("{0} with {1} defined in both ({2}{3})").format(
            test.n, at, test.weighting.label, f"; {excluded}" if excluded else "")
            + (self.tr("; not compared: {0}").format(left_out.phrase()) if left_out else ""))
        if test.n == 0 or test.mean_delta is None:
            self.values["MeanDelta"].setText(self.tr("no paired statistics"))
            return
        self.values["MeanA"].setText(format_number(test.mean_a, d))
        self.values["MeanB"].setText(format_number(test.mean_b, d))
        self._tone = "ok" if test.mean_delta > 0 else "unresolved" if test.mean_delta < 0 else ""
        self._tint()  # (the mean delta's tone, and its sign)
        self.values["MeanDelta"].setText(f"<b>{_signed(test.mean_delta, d)}</b>")
        how = (self.tr("exact over all {0} sign vectors").format(test.resamples)
               if test.method == "exact" else
               self.tr("{0} random sign vectors, seed {1}").format(test.resamples, test.seed))
        p = "—" if test.p_value is None else f"{test.p_value:.4g}"
        self.values["PValue"].setText(self.tr(
            "<b>{0}</b> (two-sided paired randomization test, {1})").format(p, how))
        self.values["Interval"].setText(self.tr(
            "<b>[{0}, {1}]</b> ({2:.0%} bootstrap percentile interval of the mean delta, {3} "
            "resamples, seed {4})").format(
                _signed(test.ci_low, d), _signed(test.ci_high, d), test.confidence,
                test.bootstrap_resamples, test.seed))
        self.values["Outcomes"].setText(f"{test.wins} / {test.ties} / {test.losses}")

    def set_faded(self, faded: bool) -> None:
        """Show the numbers muted (no longer current) or as they are."""
        self.faded = faded
        self._tint()

    def _tint(self) -> None:
        for key, label in self.values.items():
            tone = "muted" if self.faded else self._tone if key == "MeanDelta" else ""
            tint(label, "color: {}" if tone else "", *((tone,) if tone else ()))
