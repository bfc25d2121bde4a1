"""Install the three review docks on a main window."""

from __future__ import annotations

from typing import Any

from app.review.compare_view import install_compare
from app.review.explain_view import install_explain
from app.review.judges_view import install_judges

__all__ = ["install_review"]


def install_review(window: Any) -> None:
    """The reviewing features: compare two runs, explain a disagreement, judges."""
    install_compare(window)
    install_explain(window)
    install_judges(window)
