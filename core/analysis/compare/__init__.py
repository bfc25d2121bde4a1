"""Compare two rankings of the same queries under the same judgments.

:func:`compare` (in :mod:`~core.analysis.compare.comparison`) evaluates both
documents under one set of conventions and returns a :class:`Comparison`. The
work is split by concern: :mod:`~core.analysis.compare.align` matches queries
and candidates, :mod:`~core.analysis.compare.across` gathers each side's values
at its partners' rows and counts the movement in and out of the cut,
:mod:`~core.analysis.compare.statistics` holds the paired randomization test
and the bootstrap, :mod:`~core.analysis.compare.changes` what differs between
the two documents and the tie-rule sensitivity. Reading
the inputs is :mod:`core.io.pairs`; writing the results is :mod:`core.reports`.
Many runs at once (a baseline against each, or every pair, with corrected
p-values) are :mod:`~core.analysis.compare.many`.
"""

from core.analysis.compare.align import subset_document
from core.analysis.compare.changes import (
    CandidateChange,
    InventoryChange,
    TieSensitivity,
    WhatChanged,
)
from core.analysis.compare.comparison import (
    Comparison,
    PairedTest,
    QueryDelta,
    compare,
    compare_side,
)
from core.analysis.compare.statistics import (
    TIE_TOLERANCE,
    paired_bootstrap,
    paired_randomization,
)

__all__ = [
    "TIE_TOLERANCE",
    "CandidateChange",
    "Comparison",
    "InventoryChange",
    "PairedTest",
    "QueryDelta",
    "TieSensitivity",
    "WhatChanged",
    "compare",
    "compare_side",
    "paired_bootstrap",
    "paired_randomization",
    "subset_document",
]
