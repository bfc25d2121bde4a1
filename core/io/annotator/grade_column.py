"""Which column holds the grades where the headers do not tell, or tell
wrong, read from the columns' values beside the other roles
(:func:`read_roles`, for :mod:`~core.io.annotator.detect`).

A column named as the grade that holds none (Prodigy's ``answer`` of
accept / reject) gives way to the one column that does, or to the choices
the records list; a binary task's label on every row gives way to its
answers; labels named as the grade beside unnamed numbers keep the name
and the numbers are left out with the flag that takes them; where no
column holds grades, the one column of labels that varies within a query
as grades do is taken, and of several none is.
"""

from __future__ import annotations

from core.io.annotator.model import LABELS_OR_GRADES, Table
from core.io.annotator.names import name_field
from core.io.annotator.platform import status_kind
from core.io.annotator.profile import Profile, grouped, span
from core.io.annotator.roles import Roles, roles_from_values
from core.io.annotator.scales import label_key
from core.io.safety import column_letters

__all__ = ["few_labels", "fractional", "grade_of_labels", "read_roles"]


#: Prodigy's answers, where the answer is no label of a scale.
_PRODIGY_ANSWERS = frozenset({"accept", "reject", "ignore"})


def read_roles(profiles: list[Profile], found: dict[str, int], taken: set[int],
               wide: bool, table: Table) -> Roles:
    """The roles read from values (:func:`~core.io.annotator.roles.roles_from_values`),
    added to ``found``: a grade column named so that holds none gives way
    (to the choices ``table``'s records list, :func:`_chosen`, among
    others), and beside annotators' columns named so (``wide``) no grade
    column is read from values (the column is left out, saying what it
    holds)."""
    beside = _numbers_beside_labels(profiles, found, taken)
    switched = "" if beside else _binary_answer(profiles, found, taken) or _grade_by_values(
        profiles, found, taken, _chosen(profiles, table))
    roles = roles_from_values(profiles, found, taken | {p.col for p in beside})
    for p in beside:
        roles.ignored[p.col] = _beside_labels(p, profiles[found["grade"]])
    roles.ignored.update(_labels_named_too(profiles, found, taken))
    if wide and "grade" not in found and "grade" in roles.found:
        del roles.found["grade"]
        roles.reasons.pop("grade", None)
    found.update(roles.found)
    if switched:
        roles.reasons["grade"] = switched
    return roles


def _chosen(profiles: list[Profile], table: Table) -> set[int]:
    """The columns holding the choices made from the options the records
    list (Prodigy's ``accept``): each filled cell one of their labels."""
    keys = {k for v in table.listed for k in v.label_keys()}
    return {p.col for p in profiles if keys and p.filled and p.graded and all(
        label_key(t) in keys for t in p.texts if t)}


def _grade_by_values(profiles: list[Profile], found: dict[str, int], taken: set[int],
                     chosen: set[int]) -> str:
    """A column named as the grade that holds none (Prodigy's ``answer`` of
    accept/reject) gives way to the one other column that holds grades
    (one label on every row too, where its labels are the choices the
    records list: :func:`_chosen`); returns why ("" when it stays)."""
    col = found.get("grade")
    if col is None or col >= len(profiles) or profiles[col].graded:
        return ""
    others = [p for p in profiles if p.graded and (not p.constant or p.col in chosen)
              and p.col not in taken and p.col not in found.values() and not fractional(p)]
    if len(others) != 1:
        return ""
    found["grade"] = others[0].col
    return (f"{others[0].shown()}, read from its values ({profiles[col].shown()} is named so "
            "but holds no grades)")


def _binary_answer(profiles: list[Profile], found: dict[str, int], taken: set[int]) -> str:
    """A column named as the grade holding one label on every row beside a
    column of Prodigy's answers (accept / reject, ignore for a task
    skipped): a binary task's, the label the question asked (``RELEVANT``)
    and the answer its grade; returns why ("" when the label stays)."""
    col = found.get("grade")
    if col is None or col >= len(profiles):
        return ""
    label = profiles[col]
    if label.distinct != 1 or label.numeric > 0 or label.filled < len(label.texts):
        return ""
    answers = [p for p in profiles if p.col not in taken and p.col not in found.values()
               and {t.casefold() for t in p.texts} <= _PRODIGY_ANSWERS
               and {t.casefold() for t in p.texts} & {"accept", "reject"}]
    if len(answers) != 1:
        return ""
    found["grade"] = answers[0].col
    return (f"{answers[0].shown()}, read from its values: accept / reject, each the answer "
            f"to one question, {label.shown()} {label.texts[0]} on every row (a binary task)")


def few_labels(p: Profile) -> bool:
    """A column of a few labels repeated (``Vital``, ``Useful``, ...), none
    a platform's status (Prodigy's ``answer`` of accept / reject / ignore
    marks rows, and gives way to the grades beside it)."""
    values = {t for t in p.texts if t}
    return (p.numeric < 0.1 and p.boolean < 0.5 and 2 <= len(values) <= 12
            and p.filled > len(values) and not any(status_kind(v) for v in values)
            and not values & _PRODIGY_ANSWERS)


def _numbers_beside_labels(profiles: list[Profile], found: dict[str, int],
                           taken: set[int]) -> list[Profile]:
    """The columns of numbers that read as grades beside a column named as
    the grade holding labels no scale reads (``relevance`` of Vital /
    Useful / ... beside an unnamed 1..4): none is picked over the labels
    (the grades named so; the numbers may be their grades, or anything
    else on a small scale), each is left out with the flag that takes it,
    which the labels' refusal names."""
    col = found.get("grade")
    if col is None or col >= len(profiles) or profiles[col].graded or not few_labels(
            profiles[col]):
        return []
    return [p for p in profiles if p.graded and not p.constant and p.col not in taken
            and p.col not in found.values() and not fractional(p) and p.numeric > 0.9]


def _beside_labels(p: Profile, labels: Profile) -> tuple[str, str]:
    """Why the numbers beside a grade column of labels are left out, and
    the flag that takes them."""
    return (f"{p.shown()}: {span(p)}, like grades, beside {labels.shown()}'s labels, the "
            f"column named as the grade; not imported (if {p.shown()} holds the grades, "
            f"pass --map grade={column_letters(p.col + 1)})",
            f"--map grade={column_letters(p.col + 1)}")


def _labels_named_too(profiles: list[Profile], found: dict[str, int], taken: set[int],
                      ) -> dict[int, tuple[str, str]]:
    """Columns named as the grade too (``relevance`` beside ``grade``) that
    hold labels no scale reads, beside the grade column taken for its
    better name: left out saying so, with the flag that takes them."""
    col = found.get("grade")
    if col is None or col >= len(profiles) or not profiles[col].graded:
        return {}
    grade = profiles[col].shown()
    return {p.col: (
        f"{p.shown()}: labels on no known scale ({', '.join(sorted(set(filter(None, p.texts))))}"
        f"), beside {grade}, the grade column by its name; not imported "
        f"(if {p.shown()} holds the grades, pass --map grade={column_letters(p.col + 1)} "
        "with --rubric giving each label its grade)", f"--map grade={column_letters(p.col + 1)}")
        for p in profiles if p.col != col and p.col not in taken and p.col not in found.values()
        and not p.graded and few_labels(p) and name_field(p.name).field == "grade"}


def grade_of_labels(profiles: list[Profile], found: dict[str, int], used: set[int],
                     roles: Roles) -> list[tuple[str, str]]:
    """Where no column holds grades, the one column of labels read as
    grades (:func:`_labels_as_grades`) is the grade column (added to
    ``found``), its labels read as labels are (a known scale, or refused);
    of several, none is picked, each left out with the flag that takes it,
    and the refusal names them. Returns the reasons."""
    words = _labels_as_grades(profiles, found, used)
    if len(words) == 1:
        found["grade"] = words[0].col
        return [("grade", f"{words[0].shown()}, read from its values: {LABELS_OR_GRADES} "
                 f"({_listed(words[0])})")]
    for p in words if len(words) > 1 else []:
        ref = column_letters(p.col + 1)
        roles.ignored[p.col] = (
            f"{p.shown()}: {LABELS_OR_GRADES} ({_listed(p)}), as another column's do; "
            f"not imported (if {p.shown()} holds the grades, pass --map grade={ref} "
            "with --rubric giving each label its grade)", f"--map grade={ref}")
    return [("ignored", roles.ignored[p.col][0]) for p in words if len(words) > 1]


def _labels_as_grades(profiles: list[Profile], found: dict[str, int], used: set[int],
                      ) -> list[Profile]:
    """The columns of a few labels repeated, under a header naming no field,
    that vary within a query as grades do (``verdict`` of relevant / partly
    / not), where no column holds grades: the grades' only candidates."""
    at = found.get("query")
    query = profiles[at] if at is not None and at < len(profiles) else None
    return [p for p in profiles if p.col not in used and p.col not in found.values()
            and few_labels(p) and name_field(p.name).field is None and (query is None or any(
                len(v) > 1 for v in grouped(query.texts, p.texts).values()))]


def _listed(p: Profile) -> str:
    """A column's labels (``not, partly, relevant``)."""
    return ", ".join(sorted({t for t in p.texts if t}))


def fractional(p: Profile) -> bool:
    """Numbers mostly with a fraction (a lead time, a trust score): not grades."""
    return p.numeric > 0.9 and p.whole < 0.5

