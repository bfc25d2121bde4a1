"""The kinds of rows a crowd-work platform marks as not being judgments,
declared once (a light module: the command line's help lists them without
loading the readers; :mod:`core.io.annotator.platform` finds them)."""

from __future__ import annotations

__all__ = ["KINDS"]

#: What each kind of row is, for people (kind -> words).
KINDS: dict[str, str] = {
    "control": "a control task (a test question with a known answer)",
    "rejected": "work the platform rejected or found tainted",
    "preview": "a preview response, not a respondent's",
    "cancelled": "a cancelled annotation",
    "skipped": "a task the annotator skipped or declined, no judgment",
    "draft": "a draft response, saved and not submitted, no judgment yet",
}
