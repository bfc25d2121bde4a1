"""The conventions that every NDCG number depends on.

Each choice is an explicit value with a human label and its formula text
(:mod:`core.model.choices`, re-exported here), so that the side panel, the
result sentence, the command line and the Excel export all say the same thing
(see ``docs/conventions.md``). The peers' presets are in
:mod:`core.model.presets`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, Self

import numpy as np
import numpy.typing as npt

from core.errors import ConventionError
from core.model.choices import (
    ConsensusRule,
    DiscountRule,
    IdealInventory,
    Rounding,
    TieRule,
    UnknownRule,
    UnrankedRule,
    Weighting,
    ZeroIdealRule,
)
from core.model.gain_rules import GAIN_RULES, GainRule, GainTable, gain_rule
from core.model.guidelines import Guideline, Guidelines, Level, levels
from core.model.numbers import read_number, shown_text
from core.model.rubric import Rubric, RubricGrade

__all__ = [
    "ConsensusRule",
    "Conventions",
    "DiscountRule",
    "Gain",
    "GainRule",
    "Guideline",
    "Guidelines",
    "IdealInventory",
    "Level",
    "Rounding",
    "Rubric",
    "RubricGrade",
    "TieRule",
    "UnknownRule",
    "UnrankedRule",
    "Weighting",
    "ZeroIdealRule",
    "format_cutoff",
    "parse_cutoff",
]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Gain:
    """How a raw grade becomes a gain.

    Parameters
    ----------
    rule : GainRule
        One of :data:`core.model.gain_rules.GAIN_RULES` (or its name):
        ``linear``, ``exponential``, ``table`` ...
    table : tuple of (grade, gain)
        The table of a rule that takes one (``table``); grades not in it
        keep gain = grade.
    negative_as_zero : bool
        Count negative gains as 0 (trec_eval only adds gains above 0).
    truncate : bool
        Truncate fractional grades toward zero first (trec_eval reads grades
        as whole numbers).

    Examples
    --------
    >>> Gain.parse("1=3,2=9").apply(np.array([0.0, 1.0, 2.0, 4.0])).tolist()
    [0.0, 3.0, 9.0, 4.0]
    """

    rule: GainRule = GainRule.LINEAR
    table: tuple[tuple[float, float], ...] = ()
    negative_as_zero: bool = False
    truncate: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "rule", gain_rule(self.rule))
        if self.rule.takes_table and not self.table:
            raise ConventionError("a gain table needs at least one grade=gain pair")
        if not self.rule.takes_table and self.table:
            raise ConventionError(f"{self.rule} gain takes no table")
        for grade, gain in self.table:
            if not (math.isfinite(grade) and math.isfinite(gain)):
                raise ConventionError("gain table entries must be finite numbers")

    @classmethod
    def parse(cls, text: str) -> Gain:
        """Read a rule's name (``linear``, ``exponential`` ...) or a table ``G=V,G=V``."""
        text = text.strip()
        rule = GAIN_RULES.get(text)
        if rule is not None and not rule.takes_table:
            return cls(rule)
        pairs: list[tuple[float, float]] = []
        for part in text.split(","):
            grade, sep, gain = part.partition("=")
            try:
                if not sep:
                    raise ValueError(part)
                pairs.append((read_number(grade), read_number(gain)))
            except ValueError as exc:
                raise ConventionError(
                    f"gain {text!r} is not "
                    + ", ".join(r.value for r in GAIN_RULES.values() if not r.takes_table)
                    + " or a table like 1=3,2=9"
                ) from exc
        grades = [g for g, _ in pairs]
        if len(set(grades)) != len(grades):
            raise ConventionError(f"gain table {text!r} names a grade twice")
        return cls(GainRule.TABLE, tuple(sorted(pairs)))

    @property
    def text(self) -> str:
        """The short form, as ``--gain`` takes it."""
        return self.text_at(None)

    def text_at(self, decimals: int | None) -> str:
        """:attr:`text` with a gain table's fractions at ``decimals`` digits
        (a display: :func:`~core.model.numbers.shown_text`; None: in full)."""
        if self.rule is GainRule.TABLE:
            return ",".join(f"{shown_text(g, decimals)}={shown_text(v, decimals)}"
                            for g, v in self.table)
        return self.rule.value

    @property
    def label(self) -> str:
        return self.label_at(None)

    def label_at(self, decimals: int | None) -> str:
        """:attr:`label` with a gain table's fractions at ``decimals`` digits
        (a display; None: in full)."""
        base = (self.rule.label if self.rule is not GainRule.TABLE
                else f"gain table {self.text_at(decimals)}")
        if self.truncate:
            base += ", fractional grades truncated"
        return base + (", negative gains count as 0" if self.negative_as_zero else "")

    @property
    def formula(self) -> str:
        return self.formula_at(None)

    def formula_at(self, decimals: int | None) -> str:
        """:attr:`formula` with a gain table's fractions at ``decimals`` digits
        (the conventions panel's; None: in full)."""
        base = self.rule.formula
        if self.rule is GainRule.TABLE:
            base = (f"gain = table[grade] ({self.text_at(decimals)}); "
                    "other grades keep gain = grade")
        if self.truncate:
            base = "grade = trunc(grade); " + base
        return base + ("; gain = max(gain, 0)" if self.negative_as_zero else "")

    def replace(self, **changes: Any) -> Gain:
        return replace(self, **changes)

    def accepts_negative(self) -> bool:
        """Whether negative grades have a meaning under this rule."""
        return self.rule.accepts_negative or self.negative_as_zero

    def apply(self, grades: FloatArray) -> FloatArray:
        """Transform grades (NaN stays NaN) into gains."""
        grades = np.asarray(grades, dtype=np.float64)
        if self.truncate:
            grades = np.trunc(grades)
        gains = np.asarray(self.rule.compute(grades, self.table), dtype=np.float64)
        if gains is grades:  # a rule that hands back its grades: negatives are set below
            gains = gains.copy()
        if self.negative_as_zero:
            # NaN stays NaN (maximum passes it on); with where=~isnan, numpy's
            # masked loop took 13 ms at 2.7M grades against 1 ms, same bits.
            np.maximum(gains, 0.0, out=gains)
        return gains


def _lowest(grades: FloatArray) -> float:
    # fmin passes NaN (unknown) by, and gives NaN only when every grade is.
    return float(np.fmin.reduce(grades)) if grades.size else math.nan


def _whole_or_nan(values: FloatArray, block: int = 1 << 18) -> bool:
    """Whether every value is a whole number or NaN, a block at a time."""
    for lo in range(0, values.size, block):
        part = values[lo:lo + block]
        if not bool(np.all((part == np.round(part)) | np.isnan(part))):
            return False
    return True


def parse_cutoff(text: str | int | None) -> int | None:
    """``"all"`` or None -> None; a positive whole number -> int."""
    if text is None:
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        raw = str(text).strip().lower()
        if raw in ("all", "none", ""):
            return None
        try:
            value = int(raw)
        except ValueError as exc:
            raise ConventionError(
                f"cutoff {text!r} is not a positive whole number or 'all'"
            ) from exc
    if value < 1:
        raise ConventionError(f"cutoff {value} must be at least 1")
    return value


def format_cutoff(k: int | None) -> str:
    return "all" if k is None else str(k)


@dataclass(frozen=True)
class Conventions:
    """Every choice an NDCG number depends on.

    Examples
    --------
    >>> c = Conventions(cutoffs=(10, None))
    >>> c.ties.value, c.ideal.value, c.unknown.value, c.cutoffs
    ('average', 'ranked', 'unresolved', (10, None))

    The peers' conventions are :mod:`core.model.presets`.
    """

    gain: Gain = field(default_factory=Gain)
    discount: DiscountRule = DiscountRule.LOG2
    cutoffs: tuple[int | None, ...] = (None,)
    ideal: IdealInventory = IdealInventory.RANKED
    ties: TieRule = TieRule.AVERAGE
    unknown: UnknownRule = UnknownRule.UNRESOLVED
    zero_ideal: ZeroIdealRule = ZeroIdealRule.UNDEFINED
    unranked: UnrankedRule = UnrankedRule.UNDEFINED
    weighting: Weighting = Weighting.EQUAL
    rubric: Rubric | None = None
    guidelines: Guidelines = field(default_factory=Guidelines)
    consensus: ConsensusRule = ConsensusRule.MEAN
    rounding: Rounding = Rounding.NONE
    preset: str | None = None

    def __post_init__(self) -> None:
        if not self.cutoffs:
            raise ConventionError("declare at least one cutoff (a number or 'all')")
        cutoffs = tuple(parse_cutoff(k) for k in self.cutoffs)
        if len(set(cutoffs)) != len(cutoffs):
            raise ConventionError("a cutoff is declared twice")
        object.__setattr__(self, "cutoffs", cutoffs)
        for name, kind in _CHOICE_KINDS.items():
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError as exc:
                choices = ", ".join(m.value for m in kind)
                raise ConventionError(f"{name} {value!r} is not one of {choices}") from exc

    def replace(self, **changes: Any) -> Self:
        return replace(self, **changes)

    def rubric_for(self, grades: FloatArray) -> Rubric:
        """The declared rubric, or one derived from the grades seen.

        Whole-number grades give every whole number from min(0, lowest) to the
        highest; otherwise the distinct grades seen and 0.
        """
        if self.rubric is not None:
            return self.rubric
        lowest = _lowest(grades)
        if np.isnan(lowest):
            return Rubric.from_values((0.0, 1.0))  # (what arithmetic needs: no view lists it)
        highest = np.fmax.reduce(grades)
        # The lowest and highest grades decide a whole-number scale without
        # sorting every grade (np.unique: ~30 ms at 2M candidates, asked by the
        # evaluation and the panels that list the levels), and the grades are
        # checked a block at a time, not copied (three full-length copies at
        # the report's peak before: issue 36).
        if highest - min(lowest, 0) <= 100 and _whole_or_nan(grades):
            return Rubric.from_values(range(int(min(lowest, 0.0)), int(highest) + 1))
        return Rubric.from_values([0.0, *np.unique(grades[~np.isnan(grades)]).tolist()])

    def has_scale(self, grades: FloatArray) -> bool:
        """Whether a scale is declared (a rubric) or defined by ``grades``
        (one number grade at least): an empty document, or one with every
        grade unknown, has none yet (:meth:`rubric_for` then stands in 0 and 1
        for the arithmetic; a view says "no scale yet" instead of listing them)."""
        return self.rubric is not None or not np.isnan(_lowest(grades))

    def scale_lost(self, grades: FloatArray, row: int) -> bool:
        """Whether a grade change at ``row`` of ``grades`` (its first changed
        row) took the scale away: the row now holds no number and no grade
        does (:meth:`has_scale`). A row that holds a number keeps a scale, so
        a view need not look at every grade after each edit."""
        return math.isnan(float(grades[row])) and not self.has_scale(grades)

    def levels(self, grades: FloatArray, rubric: Rubric | None = None) -> tuple[Level, ...]:
        """Each level of the scale (:meth:`rubric_for` ``grades``, or
        ``rubric`` when it was worked out already: an evaluation's under
        these conventions) with its label and guideline
        (:func:`core.model.guidelines.levels`)."""
        return levels(self.rubric_for(grades) if rubric is None else rubric, self.guidelines)

    def listed_levels(self, grades: FloatArray,
                      rubric: Rubric | None = None) -> tuple[Level, ...]:
        """The levels a view lists: each of the scale's (``rubric``: as for
        :meth:`levels`); without a scale (:meth:`has_scale`) only those a
        guideline describes, never the 0 and 1 standing in for the arithmetic."""
        found = self.levels(grades, rubric)
        if self.has_scale(grades):
            return found
        return tuple(lv for lv in found if lv.description or lv.examples)

    def describe(self, decimals: int | None = None, *,
                 annotated: bool = True) -> list[tuple[str, str, str]]:
        """(convention, choice label, formula) rows for people: a row per
        :attr:`ConventionField.row` of :data:`FIELDS` (the gain's fields said
        by the gain itself), none for a field that says nothing (no rubric,
        no preset) nor, unless ``annotated`` (a document holding annotators'
        grades), for the consensus of annotators; a gain table's fractions
        at ``decimals`` digits (a display), in full for None."""
        rows = []
        for row, group in field_rows(annotated):
            if {f.attr for f in group} == {"gain"}:
                rows.append((row, self.gain.label_at(decimals), self.gain.formula_at(decimals)))
                continue
            said = [(f.words(f.get(self)), f.meaning(f.get(self))) for f in group]
            said = [(w, m) for w, m in said if w]
            if said:
                rows.append((row, ", ".join(w for w, _ in said), "; ".join(m for _, m in said)))
        return rows

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping, a key per field of :data:`FIELDS`;
        :meth:`from_dict` reads it back."""
        return {f.key: f.write(f.get(self)) for f in FIELDS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Conventions:
        """The conventions :meth:`to_dict` wrote (a field it lacks keeps its default)."""
        out = cls()
        try:
            for f in FIELDS:
                if f.key in data:
                    out = f.set(out, f.read(data[f.key]))
        except (ValueError, TypeError) as exc:
            raise ConventionError(f"stored conventions are not readable: {exc}") from exc
        return out


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Conventions))


# -- each field declared once ----------------------------------------------------------------
FieldKind = Literal["choice", "flag", "gain", "cutoffs", "rubric", "guidelines", "text"]


@dataclass(frozen=True)
class ConventionField:
    """One convention, declared once; the JSON record, the command line's
    flags, the conventions panel's controls, the workbook's Conventions sheet
    and metadata, and the presets' fields are derived from :data:`FIELDS`.

    ``kind`` says how the field is shown and stored: ``choice`` (one of
    :attr:`choices`: a list box, a text cell with a dropdown), ``flag``
    (TRUE or FALSE: a check box, a boolean cell), ``gain`` (a gain rule and
    its table: the named cell ``gain_rule`` and the gain table's rows),
    ``cutoffs`` (a cell per cutoff, ``cut_1`` ...), ``rubric`` (its text, and
    its grades listed below), ``guidelines`` (what each grade means: columns
    of the rubric's list on the sheet, no named cell), ``text`` (a text cell). ``get`` reads the
    field's value from conventions, ``set`` gives conventions with only this
    field changed (``dataclasses.replace``), ``read`` takes the value from its
    JSON or command-line text, ``write`` gives its JSON.
    """

    name: str
    #: How people read it (the Conventions sheet's label, the audit log).
    label: str
    #: The conventions panel's heading for it.
    title: str
    kind: FieldKind
    get: Callable[[Conventions], Any]
    set: Callable[[Conventions, Any], Conventions]
    read: Callable[[Any], Any]
    write: Callable[[Any], Any]
    #: The formula text of a value.
    meaning: Callable[[Any], str]
    #: The values a choice offers, in order (gain rules read at call time).
    choices: Callable[[], tuple[Any, ...]] = tuple
    #: Its key in the JSON record (the metadata, the journal, ``--json``).
    key: str = ""
    #: Its named cell on the Conventions sheet ("" when it has none; the
    #: cutoffs': the prefix of ``cut_1``, ``cut_2`` ...).
    cell: str = ""
    #: Its command-line flag and help ("" when the command line sets it otherwise).
    flag: str = ""
    help: str = ""
    #: Whether a preset sets it (:data:`core.model.presets.PRESET_FIELDS`).
    preset: bool = False
    #: The attribute of :class:`Conventions` that holds it.
    attr: str = ""
    #: Whether a JSON record may lack it (one written before it was declared:
    #: it then reads as its default). Every field added after the first
    #: workbook format is optional, so that older workbooks and journals open.
    optional: bool = False
    #: The command line's placeholder for its value ("" for a choice).
    metavar: str = ""
    #: The row it is said in (:meth:`Conventions.describe`; default its label).
    row: str = ""
    #: A value in words ("" says nothing: no rubric, no preset, FALSE).
    words: Callable[[Any], str] = lambda v: str(v.label)
    #: Said only of a document holding annotators' grades (the consensus of
    #: their grades: a document of one grade per candidate has none).
    annotated: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", self.key or self.name)
        object.__setattr__(self, "attr", self.attr or self.name)
        object.__setattr__(self, "row", self.row or self.label)


def _choice(name: str, kind: Any, label: str, title: str, cell: str, *, flag: str = "",
            help: str = "", preset: bool = False, optional: bool = False,
            row: str = "", annotated: bool = False) -> ConventionField:
    """A plain choice: one of ``kind``'s members, stored as its value."""
    return ConventionField(
        name, label, title, "choice", get=lambda c: getattr(c, name),
        set=lambda c, v: replace(c, **{name: kind(v)}), read=kind,
        write=lambda v: v.value, meaning=lambda v: v.formula, choices=lambda: tuple(kind),
        cell=cell, flag=flag, help=help, preset=preset, optional=optional, row=row,
        annotated=annotated)


def _gain_flag(name: str, key: str, label: str, title: str, cell: str, flag: str,
               meaning: str) -> ConventionField:
    """A TRUE/FALSE part of the gain."""
    return ConventionField(
        name, label, title, "flag", get=lambda c: getattr(c.gain, name),
        set=lambda c, v: replace(c, gain=c.gain.replace(**{name: bool(v)})), read=bool,
        write=bool, meaning=lambda v: meaning, key=key, cell=cell, flag=flag,
        help=f"{label} (TRUE: {meaning})", preset=True, attr="gain", row="gain",
        words=lambda v: label if v else "")


def _set_gain(c: Conventions, value: tuple[GainRule | str, GainTable]) -> Conventions:
    rule, table = value
    return replace(c, gain=replace(c.gain, rule=gain_rule(rule), table=tuple(table)))


def _read_gain(text: Any) -> tuple[GainRule, GainTable]:
    g = Gain.parse(str(text))
    return g.rule, g.table


def _read_cutoffs(texts: Any) -> tuple[int | None, ...]:
    """Cutoffs from a list of texts, each one or more comma-separated:
    ``["1,5", "all"]`` (one named twice is refused by :class:`Conventions`)."""
    items = [texts] if isinstance(texts, str | int) else texts
    return tuple(parse_cutoff(part) for text in items for part in str(text).split(","))


#: Every convention field, in the order of the JSON record, the Conventions
#: sheet and the panel. ``docs/architecture.md``, "Add a convention".
FIELDS: tuple[ConventionField, ...] = (
    ConventionField(
        "gain", "gain rule", "Gain", "gain", get=lambda c: (c.gain.rule, c.gain.table),
        set=_set_gain, read=_read_gain, write=lambda v: Gain(*v).text,
        meaning=lambda v: Gain(*v).formula, choices=lambda: tuple(GAIN_RULES.values()),
        cell="gain_rule", flag="--gain", preset=True, metavar="RULE|G=V,...", row="gain",
        help="gain rule: " + "|".join(GAIN_RULES) + " or a table G=V,..."),
    _gain_flag("negative_as_zero", "negative_gain_as_zero", "negative gains count as 0",
               "negative gains count as 0", "negative_gain_zero", "--negative-as-zero",
               "gain = max(gain, 0)"),
    _gain_flag("truncate", "truncate_grades", "fractional grades truncated",
               "fractional grades truncated first", "truncate_grades", "--truncate",
               "grade = trunc(grade) before the gain rule"),
    _choice("discount", DiscountRule, "discount", "Discount", "discount_rule",
            flag="--discount", help="discount rule", preset=True),
    ConventionField(
        "cutoffs", "cutoffs", "Cutoffs k", "cutoffs", get=lambda c: c.cutoffs,
        set=lambda c, v: replace(c, cutoffs=tuple(v)), read=_read_cutoffs,
        write=lambda v: [format_cutoff(k) for k in v],
        meaning=lambda v: "the same k cuts the actual and the ideal list", cell="cut_",
        flag="--k", help="cutoff; repeat for several (default: all)", metavar="N|all",
        words=lambda v: "k = " + ", ".join(format_cutoff(k) for k in v)),
    _choice("ideal", IdealInventory, "ideal inventory", "Ideal inventory", "ideal_rule",
            flag="--ideal", help="the ideal inventory", preset=True),
    _choice("ties", TieRule, "ties", "Ties", "tie_rule", flag="--ties",
            help="equal scores", preset=True),
    _choice("unknown", UnknownRule, "unknown grades", "Unknown grades", "unknown_rule",
            flag="--unjudged", help="unknown grades", preset=True),
    _choice("zero_ideal", ZeroIdealRule, "zero ideal", "Zero ideal", "zero_ideal_rule",
            flag="--zero-ideal", help="an ideal DCG of 0", preset=True),
    _choice("unranked", UnrankedRule, "query with no ranking", "Query with no ranking",
            "unranked_rule", flag="--unranked",
            help="a query with no ranked candidate (judgments only, or missing from the run)",
            preset=True, optional=True),
    _choice("weighting", Weighting, "weighting (declared)", "Aggregation (weighting)",
            "weighting", flag="--weighting", help="the mean over queries", row="aggregation"),
    # consensus and rounding are declared when annotators' grades are imported
    # (the import command's --consensus and --rounding)
    _choice("consensus", ConsensusRule, "consensus", "Consensus of annotators",
            "consensus_rule", annotated=True),
    _choice("rounding", Rounding, "rounding", "Consensus rounding", "rounding_rule",
            row="consensus", annotated=True),
    ConventionField(
        "rubric", "rubric", "Rubric (grade labels)", "rubric", get=lambda c: c.rubric,
        set=lambda c, v: replace(c, rubric=v), read=lambda t: Rubric.parse(t) if t else None,
        write=lambda v: v.text if v is not None else None,
        meaning=lambda v: "grades outside the rubric are flagged", cell="rubric_text",
        flag="--rubric", help="the permitted grades", metavar="G=LABEL,...",
        words=lambda v: v.text if v is not None else ""),
    ConventionField(
        "guidelines", "guidelines", "Guidelines (what each grade means)", "guidelines",
        get=lambda c: c.guidelines, set=lambda c, v: replace(c, guidelines=v),
        read=Guidelines.from_json, write=lambda v: v.to_json(),
        meaning=lambda v: "what each grade means, shown beside the grid while grading",
        optional=True, words=lambda v: v.summary),
    ConventionField(
        "preset", "preset", "Presets", "text", get=lambda c: c.preset,
        set=lambda c, v: replace(c, preset=v or None), read=lambda t: t or None,
        write=lambda v: v, meaning=lambda v: "the starting point these conventions came from",
        cell="preset", words=lambda v: v or ""),
)
#: Each field by name.
FIELD: dict[str, ConventionField] = {f.name: f for f in FIELDS}


def field_rows(annotated: bool = True) -> list[tuple[str, list[ConventionField]]]:
    """The fields grouped by the row they are said in, in order (those said
    of annotators' grades only when ``annotated``)."""
    rows: dict[str, list[ConventionField]] = {}
    for f in FIELDS:
        if annotated or not f.annotated:
            rows.setdefault(f.row, []).append(f)
    return list(rows.items())


#: The attributes holding a plain choice, and their kinds (checked on construction).
_CHOICE_KINDS: dict[str, Any] = {f.name: type(f.choices()[0]) for f in FIELDS
                                 if f.kind == "choice"}
