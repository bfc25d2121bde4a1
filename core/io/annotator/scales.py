"""Grade labels as annotators write them, and the rubric they imply.

A label gives its grade in one of three ways, tried in this order when the
user declared no rubric with labels:

- a number written with it: ``2 - Relevant``, ``3: Perfect``, ``(1) Partial``,
  ``Relevant (2)`` (:func:`numbered_label`);
- its place on a well-known scale (:data:`KNOWN_SCALES`): ``Not relevant``,
  ``Relevant``, ``Highly relevant`` read 0, 1, 2; ``Bad`` ... ``Perfect`` 0 to
  4; case, spaces, dashes and underscores ignored (:func:`label_key`);
- nothing else: the label is *unmapped*, and the user is asked for it (the
  wizard) or told to declare it (the command line's ``--rubric``).

:func:`guess_labels` reads the distinct labels of a sheet at once, so that one
scale is chosen for all of them (``Relevant`` is 1 next to ``Highly
relevant`` and 2 next to ``Partially relevant`` and ``Irrelevant``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core.model.conventions import Rubric, RubricGrade

__all__ = [
    "KNOWN_SCALES",
    "LEVEL_NAMES",
    "LabelGuess",
    "Scale",
    "Vocabulary",
    "guess_labels",
    "header_range",
    "label_key",
    "listed_scale",
    "number_range",
    "numbered_label",
    "scale_rubric",
]


@dataclass(frozen=True)
class Scale:
    """A well-known scale: its name and each level's names (grade = the
    level's place, from 0), the first name of a level being its usual one."""

    name: str
    levels: tuple[tuple[str, ...], ...]

    def grade_of(self, key: str) -> int | None:
        for grade, names in enumerate(self.levels):
            if key in names:
                return grade
        return None


_NOT = ("not relevant", "non relevant", "nonrelevant", "notrelevant", "irrelevant",
        "not at all relevant", "off topic", "completely irrelevant")
#: (``partially`` alone: a radio button's choice, ``Answer.rel.partially``,
#: its group naming the relevance)
_PARTLY = ("somewhat relevant", "partially relevant", "partly relevant", "partial",
           "marginally relevant", "slightly relevant", "partially", "moderately relevant")
_HIGHLY = ("highly relevant", "very relevant", "fully relevant", "extremely relevant",
           "completely relevant")

#: A checkbox's scale (Google Sheets' ``TRUE`` / ``FALSE``): read only in a
#: column named as grades, its values alone never grades (a true/false
#: column of a sheet is ``is_mobile`` as often: :func:`cells.grade_like`).
CHECKBOX = "false / true (a checkbox: true 1)"
#: The scales a label is read on: of those holding every label of the sheet,
#: the one whose levels the labels miss fewest of (a sheet's three levels
#: are a three-level scale, not three of four); otherwise the one holding
#: most. Order breaks a tie only where the grades agree.
KNOWN_SCALES: tuple[Scale, ...] = (
    Scale("not relevant / relevant / highly relevant", (_NOT, ("relevant",), _HIGHLY)),
    Scale("not relevant / somewhat relevant / highly relevant", (_NOT, _PARTLY, _HIGHLY)),
    Scale("not relevant / somewhat relevant / relevant / highly relevant",
          (_NOT, _PARTLY, ("relevant",), _HIGHLY)),
    Scale("irrelevant / partially relevant / relevant",
          (("irrelevant",), ("partially relevant", "partly relevant", "partial", "partially"),
           ("relevant",))),
    Scale("not / slightly / moderately / highly relevant",
          (_NOT, ("slightly relevant",), ("moderately relevant",), _HIGHLY)),
    Scale("irrelevant / related / highly relevant / perfectly relevant (TREC DL)",
          (("irrelevant", "not relevant"), ("related",), ("highly relevant",),
           ("perfectly relevant",))),
    Scale("bad / fair / good / excellent / perfect",
          (("bad",), ("fair",), ("good",), ("excellent",), ("perfect",))),
    Scale("no / partial / direct support",
          (("no support", "no"), ("partial support", "partial"),
           ("direct support", "direct", "full support"))),
    Scale("fails to meet / slightly / moderately / highly / fully meets",
          (("fails to meet", "fails"), ("slightly meets",), ("moderately meets",),
           ("highly meets",), ("fully meets",))),
    Scale("no / yes", (("no",), ("yes",))),
    Scale(CHECKBOX, (("false",), ("true",))),
)
#: Every known scale's levels' names (:func:`label_key`), the checkbox's
#: true / false but: a label among them is a grade's.
LEVEL_NAMES = frozenset(k for scale in KNOWN_SCALES if scale.name != CHECKBOX
                        for level in scale.levels for k in level)

_SEPARATORS = re.compile(r"[\s_\-\u2010-\u2015.]+")
_NUMBER = r"([+-]?\d+(?:[.,]\d+)?)"
_LETTER = re.compile(r"[^\W\d_]")
#: ``2 - Relevant``, ``3: Perfect``, ``1) partial``, ``2 Relevant``.
_LEADING = re.compile(r"^\s*" + _NUMBER + r"\s*(?:[-\u2010-\u2015:=.)\]|/]\s*|\s+)(.+?)\s*$")
#: ``(2) Relevant``, ``[2] Relevant``.
_BRACKETED = re.compile(r"^\s*[(\[]\s*" + _NUMBER + r"\s*[)\]]\s*(.+?)\s*$")
#: ``Relevant (2)``, ``Relevant [2]``.
_TRAILING = re.compile(r"^\s*(.+?)\s*[(\[]\s*" + _NUMBER + r"\s*[)\]]\s*$")


def label_key(text: str) -> str:
    """A label as it is compared: lower case, runs of spaces, dashes,
    underscores and dots read as one space, no punctuation at either end.

    >>> label_key("  Highly-Relevant! "), label_key("not_relevant")
    ('highly relevant', 'not relevant')
    """
    return _SEPARATORS.sub(" ", text.casefold()).strip(" !?:;,()[]")


def numbered_label(text: str) -> tuple[float, str] | None:
    """The grade a label writes with it, and the label's words; None when
    the text is not a number with words.

    >>> numbered_label("2 - Relevant"), numbered_label("3: Perfect")
    ((2.0, 'Relevant'), (3.0, 'Perfect'))
    >>> numbered_label("Relevant (1)"), numbered_label("2.5"), numbered_label("Relevant")
    ((1.0, 'Relevant'), None, None)
    >>> numbered_label("2024/03/04 9:00:00 AM GMT+1") is None
    True
    """
    for pattern, number_first in ((_BRACKETED, True), (_LEADING, True), (_TRAILING, False)):
        m = pattern.match(text)
        if m is None:
            continue
        number, words = (m.group(1), m.group(2)) if number_first else (m.group(2), m.group(1))
        # words, not more numbers: "2024/03/04 9:00 AM" is a date, not grade 2024
        if _LETTER.search(words) and not words.lstrip()[:1].isdigit():
            return float(number.replace(",", ".")), words.strip()
    return None


@dataclass
class LabelGuess:
    """How a sheet's labels read.

    ``grades``: each label read (as written) -> its grade; ``unmapped``: the
    labels no rule reads -> how many cells hold them; ``rubric``: the grades
    the labels imply, each with its label (None when the sheet has no
    label); ``scale``: how the labels were read, for people.
    """

    grades: dict[str, float] = field(default_factory=dict)
    unmapped: dict[str, int] = field(default_factory=dict)
    rubric: Rubric | None = None
    scale: str = ""
    #: When known scales fit the labels equally well and read them otherwise:
    #: each (name, rubric), the one used first; the user chooses (the wizard
    #: asks, the command line names ``--rubric``).
    alternatives: list[tuple[str, Rubric]] = field(default_factory=list)

    def keys(self) -> dict[str, float]:
        """Each label's compared form (:func:`label_key`) -> its grade."""
        return {label_key(text): grade for text, grade in self.grades.items()}


@dataclass(frozen=True)
class Vocabulary:
    """A legend listing the labels without grades (``Perfect / Excellent /
    Good / Fair / Bad``): the sheet's scale vocabulary, never its grades (an
    order of labels gives no numbers, and a level's number changes NDCG).
    ``where`` it is (``row 1``, ``rows 2-5 of sheet 'Legend'``), and its
    ``order`` when it states one: ``best first`` or ``worst first``."""

    labels: tuple[str, ...]
    where: str
    order: str = ""

    @property
    def said(self) -> str:
        """The legend as the import's messages name it."""
        return (f"the sheet's legend ({self.where}: {' / '.join(self.labels)}, "
                + (f"{self.order}, " if self.order else "") + "no grades)")

    def label_keys(self) -> set[str]:
        """Its labels as they are compared (:func:`label_key`)."""
        return {label_key(t) for t in self.labels}

    def rising(self) -> tuple[str, ...] | None:
        """The labels worst first, when the legend states its order."""
        if not self.order:
            return None
        return self.labels[::-1] if self.order == "best first" else self.labels

    def proposal(self) -> Rubric | None:
        """The grades the legend's stated order proposes, one apart from 0
        for the worst: for the user to confirm (never read as the grades)."""
        rising = self.rising()
        return None if rising is None else Rubric(tuple(
            RubricGrade(float(g), _rubric_label(t)) for g, t in enumerate(rising)))

    def example(self, also: Sequence[str] = ()) -> str:
        """A --rubric giving each label its grade: the proposal's, else ``N``
        for each (``also``: labels the sheet uses that the legend lacks)."""
        proposal = self.proposal()
        if proposal is not None and not also:
            return proposal.text
        return ",".join(f"N={_rubric_label(t)}" for t in (*(self.rising() or self.labels),
                                                        *also))


def listed_scale(labels: Sequence[str]) -> Scale | None:
    """The known scale whose levels ``labels`` name, each level once and
    each label a level, in any order (a legend's labels: ``Perfect /
    Excellent / Good / Fair / Bad``); None otherwise.

    >>> listed_scale(["Perfect", "Excellent", "Good", "Fair", "Bad"]).name
    'bad / fair / good / excellent / perfect'
    >>> listed_scale(["Vital", "Useful"]) is None
    True
    """
    keys = [label_key(t) for t in labels]
    for scale in KNOWN_SCALES:
        grades = [scale.grade_of(k) for k in keys]
        if sorted(g if g is not None else -1 for g in grades) == list(range(len(scale.levels))):
            return scale
    return None


#: Where a header or a legend separates the labels it lists.
_LISTED = re.compile(r"[,;/|()\[\]\n]+")


def named_scale(text: str) -> Scale | None:
    """The known scale whose every level ``text`` lists, in order (a grade
    column's header or a legend: ``Relevance (Not relevant; Somewhat
    relevant; Relevant; Highly relevant)``), the one of most levels; None
    when it lists none whole.

    >>> named_scale("Relevance (Not relevant; Somewhat relevant; Relevant; Highly relevant)").name
    'not relevant / somewhat relevant / relevant / highly relevant'
    >>> named_scale("Relevance"), named_scale("Not relevant / Relevant")  # no scale whole
    (None, None)
    """
    parts = [label_key(t) for t in _LISTED.split(text)]
    found = [scale for scale in KNOWN_SCALES if _lists_levels(scale, parts)]
    return max(found, key=lambda sc: len(sc.levels), default=None)


def _lists_levels(scale: Scale, parts: list[str]) -> bool:
    """Whether ``parts`` name each of ``scale``'s levels, in its order."""
    at = 0
    for names in scale.levels:
        at = next((i + 1 for i in range(at, len(parts)) if parts[i] in names), -1)
        if at < 0:
            return False
    return True


def _choose_scale(keys: list[str],
                  named: Scale | None = None) -> tuple[Scale | None, list[Scale]]:
    """The scale the sheet ``named`` (:func:`named_scale`) when it holds
    every key; else the scale holding every key with the fewest levels
    missing, and the others that hold them with as few missing but read
    them otherwise (the user must choose); when none holds every key, the
    one holding most."""
    if not keys:
        return None, []
    if named is not None and all(named.grade_of(k) is not None for k in keys):
        return named, []
    fits = []
    distinct = len(set(keys))
    for scale in KNOWN_SCALES:
        grades = [scale.grade_of(k) for k in keys]
        # two labels on one level (slightly and moderately relevant both
        # a 3-level scale's middle one): not this scale, never one grade
        if all(g is not None for g in grades) and len(set(grades)) == distinct:
            fits.append((len(scale.levels) - len(set(grades)), scale, grades))
    if fits:
        fewest = min(f[0] for f in fits)
        best = [f for f in fits if f[0] == fewest]
        first = best[0]
        others: list[Scale] = []
        for f in best[1:]:
            if f[2] != first[2] and all(f[2] != o2 for o2 in
                                        [[o.grade_of(k) for k in keys] for o in others]):
                others.append(f[1])
        return first[1], others
    held = [(sum(s.grade_of(k) is not None for k in keys), -i, s)
            for i, s in enumerate(KNOWN_SCALES)]
    n, _, scale = max(held)
    return (scale if n else None), []


def scale_rubric(scale: Scale) -> Rubric:
    """A known scale as a rubric, each level with its usual name."""
    return Rubric(tuple(RubricGrade(float(g), names[0].capitalize())
                        for g, names in enumerate(scale.levels)))


def _numbered(labels: Mapping[str, int], guess: LabelGuess,
              named: dict[float, str]) -> list[str]:
    """Read the labels that write their number; returns the others."""
    rest = []
    for text in labels:
        found = numbered_label(text)
        if found is None:
            rest.append(text)
        else:
            guess.grades[text] = found[0]
            named.setdefault(found[0], found[1])
    return rest


def _complete(named: dict[float, str]) -> None:
    """Numbered labels whose words are all levels of one known scale, each
    at its own number, bring the scale's other levels into the rubric."""
    keys = {v: label_key(t) for v, t in named.items()}
    for scale in KNOWN_SCALES:
        if len(scale.levels) > len(named) and all(
                scale.grade_of(k) == v for v, k in keys.items()):
            for grade, names in enumerate(scale.levels):
                named.setdefault(float(grade), names[0].capitalize())
            return


def guess_labels(labels: Mapping[str, int], said: str = "",
                 listed: Vocabulary | None = None) -> LabelGuess:
    """Read a sheet's distinct labels (text -> cells holding it).

    Numbered labels give their number; the others are read on one known
    scale, chosen for all of them: the one ``said`` lists whole (the grade
    columns' headers: :func:`named_scale`) or the sheet's legend of labels
    names (``listed``: :func:`listed_scale`), else the one they fill best; a
    label of a numbered one's words (``2 - Relevant`` next to ``Relevant``)
    takes its number.

    >>> g = guess_labels({"Highly relevant": 3, "relevant": 5, "Not relevant": 2, "meh": 1})
    >>> g.grades, g.unmapped, g.rubric.text
    ({'Highly relevant': 2.0, 'relevant': 1.0, 'Not relevant': 0.0}, {'meh': 1}, \
'0=Not relevant,1=relevant,2=Highly relevant')
    """
    guess = LabelGuess()
    named: dict[float, str] = {}
    rest = _numbered(labels, guess, named)
    if named:
        _complete(named)
        guess.scale = "the number written with each label"
    by_words = {label_key(t): v for v, t in named.items()}
    still = []
    for text in rest:
        key = label_key(text)
        if key in by_words:
            guess.grades[text] = by_words[key]
        else:
            still.append(text)
    keys = [label_key(t) for t in still]
    in_legend = listed_scale(listed.labels) if listed is not None else None
    named_in = in_legend or (named_scale(said) if said else None)
    scale, others = _choose_scale(keys, named_in)
    if scale is not None and _shared_levels([(t, scale.grade_of(label_key(t))) for t in still]):
        scale, others = None, []  # graded apart on a scale holding them as one: asked for
    if scale is not None and others:
        guess.alternatives = [(o.name, scale_rubric(o)) for o in (scale, *others)]
    if scale is not None:
        seen: dict[int, list[str]] = {}
        for text in still:
            grade = scale.grade_of(label_key(text))
            if grade is not None:
                guess.grades[text] = float(grade)
                seen.setdefault(grade, []).append(text)
        for grade, names in enumerate(scale.levels):
            if float(grade) not in named:
                named[float(grade)] = _level_label(seen.get(grade, []), names[0], labels)
        how = (f", as {listed.said} lists its levels" if listed is not None
               and scale is in_legend else ", as the sheet lists its levels"
               if scale is named_in else _filled_best(scale, keys))
        guess.scale = "; ".join(x for x in (guess.scale, f"the scale {scale.name}{how}") if x)
    guess.unmapped = {t: labels[t] for t in labels if t not in guess.grades}
    if named:
        guess.rubric = Rubric(tuple(RubricGrade(v, _rubric_label(t))
                                    for v, t in sorted(named.items())))
    return guess


def _shared_levels(on: list[tuple[str, int | None]]) -> set[int]:
    """The levels two labels of different words fall on (``Slightly
    relevant`` and ``Somewhat relevant``, one level of every scale holding
    both): the sheet grades them apart, so neither is read (the user is
    asked for their grades), never one grade for both."""
    keys: dict[int, set[str]] = {}
    for text, grade in on:
        if grade is not None:
            keys.setdefault(grade, set()).add(label_key(text))
    return {g for g, ks in keys.items() if len(ks) > 1}


def _filled_best(scale: Scale, keys: list[str]) -> str:
    """What the report says of a scale chosen as the one the labels fill
    best, when a longer known scale holds them too (Not relevant, Somewhat
    relevant, Highly relevant: 3 of the 4 levels of the scale with
    Relevant, where Highly relevant is 3, not 2): that it was a choice, and
    how to declare the other."""
    used = {scale.grade_of(k) for k in keys}
    longer = next((o for o in KNOWN_SCALES if len(o.levels) > len(scale.levels)
                   and all(o.grade_of(k) is not None for k in keys)
                   and [o.grade_of(k) for k in keys] != [scale.grade_of(k) for k in keys]),
                  None)
    if longer is None:
        return ""
    return (f", the one the labels fill best (they are {len(used)} of the "
            f"{len(longer.levels)} levels of {longer.name} too: pass --rubric "
            f"\"{scale_rubric(longer).text}\" if that is their scale)")


def _level_label(texts: list[str], usual: str, counts: Mapping[str, int]) -> str:
    """A level's label in the rubric: the one way the sheet writes it; when
    it writes it several ways, the usual name if they all spell it, else
    the most frequent; the usual name when the sheet never uses the level."""
    if not texts:
        return usual.capitalize()
    if len(texts) > 1 and {label_key(t) for t in texts} == {usual}:
        return usual.capitalize()
    return max(texts, key=lambda t: counts[t])


def _rubric_label(text: str) -> str:
    """A label as a rubric's text can hold it (no comma: it separates grades)."""
    return " ".join(text.replace(",", " ").split())


#: ``(1-5)``, ``[0 to 3]``, ``0-3`` in a header: the grades' range it declares.
_RANGE = re.compile(r"(-?\d+)\s*(?:-|–|to|\.\.)\s*(-?\d+)")


def header_range(header: str) -> tuple[int, int] | None:
    """The grades' range a grade column's header writes (``Rating (1-5)``:
    1, 5), None when it writes none."""
    m = _RANGE.search(header)
    if m is None:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    return (a, b) if a < b else None


def number_range(values: list[float], header: str = "") -> Rubric | None:
    """The rubric of a sheet of whole-number grades: their range, widened to
    the range the header writes (``Rating (1-5)``); None without numbers, or
    when they are not whole or span more than 101 grades."""
    lo, hi = header_range(header) or (None, None)
    whole = [x for x in values if float(x).is_integer()]
    if not whole or len(whole) < len(values):
        return None
    lo = min(int(min(whole)), lo if lo is not None else int(min(whole)))
    hi = max(int(max(whole)), hi if hi is not None else int(max(whole)))
    if hi - lo > 100:
        return None
    return Rubric.from_values(float(x) for x in range(lo, hi + 1))
