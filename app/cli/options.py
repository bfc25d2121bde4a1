"""The convention flags every command shares, and the conventions they give."""

from __future__ import annotations

import argparse
from typing import Any

from core.model.conventions import (
    Conventions,
    Gain,
    IdealInventory,
    Rubric,
    TieRule,
    UnknownRule,
    Weighting,
    ZeroIdealRule,
    parse_cutoff,
)
from core.model.presets import PRESETS, apply_preset

__all__ = ["add_convention_arguments", "conventions_from_args"]


def _choices(kind: type[Any]) -> list[str]:
    return [m.value for m in kind]


def add_convention_arguments(p: argparse.ArgumentParser) -> None:
    """The convention flags shared by every command."""
    g = p.add_argument_group("conventions (explicit flags override the preset)")
    g.add_argument("--preset", choices=sorted(PRESETS), help="start from a peer's conventions")
    g.add_argument("--gain", metavar="linear|exponential|G=V,...", help="gain rule")
    g.add_argument(
        "--k", action="append", metavar="N|all", dest="cutoffs",
        help="cutoff; repeat for several (default: all)",
    )
    g.add_argument("--ties", choices=_choices(TieRule))
    g.add_argument("--ideal", choices=_choices(IdealInventory))
    g.add_argument("--unjudged", choices=_choices(UnknownRule), help="unknown grades")
    g.add_argument("--zero-ideal", choices=_choices(ZeroIdealRule))
    g.add_argument("--weighting", choices=_choices(Weighting))
    g.add_argument("--rubric", metavar="G=LABEL,...", help="the permitted grades")


def conventions_from_args(args: argparse.Namespace, base: Conventions) -> Conventions:
    """The document's conventions, then the preset, then explicit flags."""
    conv = base
    if args.preset:
        conv = apply_preset(conv, args.preset)
    changes: dict[str, Any] = {}
    if args.gain:
        gain = Gain.parse(args.gain)
        if conv.gain.negative_as_zero:
            # a preset's handling of negative and fractional grades stays
            gain = Gain(gain.rule, gain.table, negative_as_zero=True, truncate=conv.gain.truncate)
        changes["gain"] = gain
    if args.cutoffs:
        ks: list[int | None] = []
        for text in args.cutoffs:
            for part in text.split(","):
                k = parse_cutoff(part)
                if k not in ks:
                    ks.append(k)
        changes["cutoffs"] = tuple(ks)
    for flag, name in (
        ("ties", "ties"), ("ideal", "ideal"), ("unjudged", "unknown"),
        ("zero_ideal", "zero_ideal"), ("weighting", "weighting"),
    ):
        value = getattr(args, flag)
        if value is not None:
            changes[name] = value
    if args.rubric:
        changes["rubric"] = Rubric.parse(args.rubric)
    return conv.replace(**changes) if changes else conv
