"""Numbers as people read them: the one number-to-text of the model.

Grades, gain tables, rubrics, audit entries and qrels lines all write a
number the same way, so that what a file says, what the window shows and what
the command line prints agree character for character.
"""

from __future__ import annotations

__all__ = ["number_text"]


def number_text(x: float) -> str:
    """A number as text: whole numbers without ``.0``, others at full precision.

    A whole number is written as an integer (``2.0`` -> ``"2"``, ``-0.0`` ->
    ``"0"``, ``1e20`` -> ``"100000000000000000000"``); any other finite number
    as :func:`repr` writes it, the shortest text that reads back as the same
    float (``0.1`` -> ``"0.1"``, ``1e-07`` -> ``"1e-07"``). NaN reads
    ``"nan"`` and the infinities ``"inf"`` and ``"-inf"`` (their ``repr``);
    callers that must not show those check for them first.

    Parameters
    ----------
    x : float
        Any real number (an int, a numpy float, ...); it is read as a float.

    Returns
    -------
    str
        Text that :class:`float` reads back as the same value.

    Examples
    --------
    >>> number_text(3.0), number_text(2.5), number_text(-0.0), number_text(float("nan"))
    ('3', '2.5', '0', 'nan')
    """
    value = float(x)
    return str(int(value)) if value.is_integer() else repr(value)
