"""The peers' conventions as presets, and the one rule of what a preset sets.

A preset is the arithmetic of a peer tool (trec_eval, scikit-learn, ranx):
how grades become gains, the discount, the ideal inventory, ties, unknown
grades, an ideal DCG of 0 and a query with no ranking. Choosing a preset replaces exactly those
choices (:data:`PRESET_FIELDS`) and names the preset; what the user declared
about the data itself (cutoffs, rubric, query weighting, consensus and
rounding) is kept. See ``docs/conventions.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import ConventionError
from core.model.conventions import (
    FIELDS,
    Conventions,
    Gain,
    GainRule,
    IdealInventory,
    TieRule,
    UnknownRule,
    UnrankedRule,
    ZeroIdealRule,
)

__all__ = [
    "NEGATIVE_REFUSED_BY",
    "PRESETS",
    "PRESET_FIELDS",
    "apply_preset",
    "defaults_under",
    "matching_presets",
    "peer_command",
    "preset",
    "refuses_negative",
]

#: The fields a preset sets: its arithmetic (the attributes of the fields
#: declared ``preset=True`` in :data:`core.model.conventions.FIELDS`). Every
#: other field (cutoffs, rubric, weighting, consensus, rounding) belongs to
#: the user's data.
PRESET_FIELDS: tuple[str, ...] = tuple(dict.fromkeys(f.attr for f in FIELDS if f.preset))

PRESETS: dict[str, Conventions] = {
    "trec_eval": Conventions(
        gain=Gain(GainRule.LINEAR, negative_as_zero=True, truncate=True),
        ideal=IdealInventory.JUDGED,
        ties=TieRule.ID_DESC,
        unknown=UnknownRule.ZERO,
        zero_ideal=ZeroIdealRule.ZERO,
        unranked=UnrankedRule.ZERO,
        preset="trec_eval",
    ),
    "sklearn": Conventions(
        gain=Gain(GainRule.LINEAR),
        ideal=IdealInventory.RANKED,
        ties=TieRule.AVERAGE,
        unknown=UnknownRule.ZERO,
        zero_ideal=ZeroIdealRule.ZERO,
        unranked=UnrankedRule.ZERO,
        preset="sklearn",
    ),
    "ranx": Conventions(
        gain=Gain(GainRule.LINEAR, negative_as_zero=True, truncate=True),
        ideal=IdealInventory.JUDGED,
        ties=TieRule.SUPPLIED,
        unknown=UnknownRule.ZERO,
        zero_ideal=ZeroIdealRule.ZERO,
        unranked=UnrankedRule.ZERO,
        preset="ranx",
    ),
}


#: The presets whose peer refuses negative grades, each with the peer's
#: words: such a preset refuses them too (:func:`refuses_negative`), rather
#: than give the ratio of two negative sums. trec_eval and ranx take them, as
#: gain 0 (the presets' ``negative_as_zero``).
NEGATIVE_REFUSED_BY: dict[str, str] = {
    "sklearn": "scikit-learn's ndcg_score refuses them "
               "(\"ndcg_score should not be used on negative y_true values\")",
}


def refuses_negative(conv: Conventions) -> str | None:
    """Why ``conv`` refuses negative grades (the peer's words), or None: it
    is a preset whose peer refuses them, with that peer's arithmetic."""
    name = conv.preset
    if name in NEGATIVE_REFUSED_BY and name in matching_presets(conv):
        return NEGATIVE_REFUSED_BY[name]
    return None


def preset(name: str, **overrides: Any) -> Conventions:
    """The preset called ``name`` (every other field at its default), with
    ``overrides`` replacing fields.

    Examples
    --------
    >>> c = preset("trec_eval", cutoffs=(10,))
    >>> c.ties.value, c.ideal.value, c.cutoffs
    ('id-desc', 'judged', (10,))

    Raises
    ------
    ConventionError
        When no preset has that name.
    """
    try:
        base = PRESETS[name]
    except KeyError as exc:
        raise ConventionError(f"preset {name!r} is not one of {', '.join(PRESETS)}") from exc
    return base.replace(**overrides) if overrides else base


def apply_preset(current: Conventions, name: str) -> Conventions:
    """``current`` switched to preset ``name``: THE rule of what a preset sets.

    The preset's arithmetic (gain, discount, ideal, ties, unknown, zero_ideal,
    unranked:
    :data:`PRESET_FIELDS`) and its name replace ``current``'s; ``current``'s
    cutoffs, rubric, guidelines, weighting, consensus and rounding are kept.

    Raises
    ------
    ConventionError
        When no preset has that name.

    Examples
    --------
    >>> from core.model.conventions import Weighting
    >>> mine = Conventions(cutoffs=(10,), weighting=Weighting.FREQUENCY)
    >>> c = apply_preset(mine, "trec_eval")
    >>> c.cutoffs, c.weighting.value, c.ties.value, c.preset
    ((10,), 'frequency', 'id-desc', 'trec_eval')
    """
    chosen = preset(name)
    return current.replace(**{f: getattr(chosen, f) for f in PRESET_FIELDS}, preset=name)


def defaults_under(name: str | None) -> Conventions:
    """The default conventions, under preset ``name`` when one is named
    (None: the defaults): what a file that declares none is read under, at
    launch (``--preset``, read beside the window's building) and opened in
    the window, and what a preset's name stands for in the tables' API.

    Examples
    --------
    >>> defaults_under(None) == Conventions()
    True
    >>> c = defaults_under("sklearn")
    >>> c.preset, c.ties.value, c.cutoffs == Conventions().cutoffs
    ('sklearn', 'average', True)
    """
    return apply_preset(Conventions(), name) if name is not None else Conventions()


def matching_presets(conv: Conventions) -> list[str]:
    """Presets whose arithmetic ``conv`` reproduces, in :data:`PRESETS` order.

    Besides an exact match of :data:`PRESET_FIELDS`, trec_eval also matches a
    gain table read as trec_eval reads grades (truncated, negative gains as
    0), and ranx its exponential gain read the same way (``ndcg_burges``).
    """
    rest = PRESET_FIELDS[1:]  # all but the gain
    out = []
    for name, p in PRESETS.items():
        same = all(getattr(conv, k) == getattr(p, k) for k in PRESET_FIELDS)
        table_variant = (
            name == "trec_eval"
            and conv.gain.rule is GainRule.TABLE
            and conv.gain.negative_as_zero
            and conv.gain.truncate
            and all(getattr(conv, k) == getattr(p, k) for k in rest)
        )
        exp_variant = (
            name == "ranx"
            and conv.gain == Gain(GainRule.EXPONENTIAL, negative_as_zero=True, truncate=True)
            and all(getattr(conv, k) == getattr(p, k) for k in rest)
        )
        if same or table_variant or exp_variant:
            out.append(name)
    return out


def peer_command(name: str, cutoffs: Sequence[int | None], gain: Gain) -> str:
    """The peer's equivalent call for these cutoffs (and gain table). The
    presets score a judged query the run never ranks as 0 (``unranked
    zero``): trec_eval's ``-c``, ranx's ``make_comparable=True``."""
    ks = [k for k in cutoffs if k is not None]
    if name == "trec_eval":
        parts = ["-c"]
        if ks:
            parts.append("-m ndcg_cut." + ",".join(map(str, ks)))
        if None in cutoffs or not ks:
            parts.append("-m ndcg" + (f".{gain.text}" if gain.rule is GainRule.TABLE else ""))
        return "trec_eval " + " ".join(parts) + " QRELS RUN"
    if name == "sklearn":
        k = ks[0] if ks else None
        return f"sklearn.metrics.ndcg_score(y_true, y_score, k={k})"
    metric = "ndcg_burges" if gain.rule is GainRule.EXPONENTIAL else "ndcg"
    names = [f"{metric}@{k}" for k in ks] + ([metric] if None in cutoffs else [])
    return f"ranx.evaluate(qrels, run, {names!r}, make_comparable=True)"
