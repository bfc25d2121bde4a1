"""Numbers as people read and write them: the one number-to-text and the one
text-to-number of the model.

Grades, gain tables, rubrics, audit entries and qrels lines all write a
number the same way (:func:`number_text`), so that what a file says, what the
window shows and what the command line prints agree character for character.
Grades, scores and qrels read a number by one strict grammar
(:func:`read_number`): Python's ``float`` also takes ``1_0`` (ten),
``nan``, ``infinity``, ``\u0661`` (an Arabic-Indic one) and ``1e999``
(infinity), none of which a person means as a grade or a score.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

__all__ = [
    "APART_MOST",
    "BEYOND_FLOAT",
    "DECIMALS",
    "VERBS",
    "NumberError",
    "agreed",
    "apart_digits",
    "counted",
    "digits_apart",
    "fixed_text",
    "full_text",
    "number_text",
    "one_value",
    "read_number",
    "read_numbers",
    "shown_text",
]

#: The digits after the point a result is shown with unless the reader
#: chose others (the editor's decimals setting starts here): the command
#: line's tables and sentences, the workbook's number formats.
DECIMALS = 4

#: Why a number written too large for a float is refused (``1e999``).
BEYOND_FLOAT = "beyond the largest number, about 1.8e308"

#: The grammar: an optional sign, ASCII digits with an optional decimal point
#: (``2``, ``2.5``, ``2.``, ``.5``), an optional exponent (``1e-3``).
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: A decimal comma (``2,5``), where a reader declares it.
_COMMA = re.compile(r"([+-]?[0-9]+),([0-9]+)")
#: ``1,000``: a thousands separator as much as a decimal comma.
_GROUPED = re.compile(r"[+-]?[1-9][0-9]{0,2},[0-9]{3}")
_WORDS_NOT_FINITE = frozenset({"nan", "inf", "infinity"})
#: The information separators (file, group, record, unit: 0x1c-0x1f), which
#: ``str.strip`` takes for white space and ``float`` does not: beside a
#: number they are a mangled export's, never a person's spacing.
_SEPARATORS = re.compile("[\x1c-\x1f]")


class NumberError(ValueError):
    """Text that is not a number of the grammar (see :func:`read_number`).

    Attributes
    ----------
    text : str
        The text as given.
    detail : str
        Why, when more can be said than "not a number" (empty otherwise).
    not_finite : bool
        The text names NaN or an infinity, or a number beyond the largest
        float.
    """

    def __init__(self, text: str, detail: str = "", *, not_finite: bool = False) -> None:
        self.text = text
        self.detail = detail
        self.not_finite = not_finite
        #: Which of :func:`read_numbers`'s texts it is.
        self.index = 0
        super().__init__(self.reason)

    @property
    def reason(self) -> str:
        """``not a number`` or ``not a finite number``, with the detail."""
        base = "not a finite number" if self.not_finite else "not a number"
        return f"{base} ({self.detail})" if self.detail else base



def _why(cell: str, decimal_comma: bool) -> NumberError:
    """The error for text outside the grammar, saying what it looks like."""
    folded = cell.casefold().lstrip("+-")
    if folded in _WORDS_NOT_FINITE:
        return NumberError(cell, not_finite=True)
    if "_" in cell and _NUMBER.fullmatch(cell.replace("_", "")):
        return NumberError(cell, "digits grouped with '_'; write the digits alone")
    if _GROUPED.fullmatch(cell):  # refused even where decimal commas are declared
        return NumberError(cell, "a thousands separator or a decimal comma; write "
                                 f"{cell.replace(',', '')} or {cell.replace(',', '.')}")
    if _COMMA.fullmatch(cell):
        return NumberError(cell, f"a decimal comma; write {cell.replace(',', '.')}")
    if folded.startswith(("0x", "0o", "0b")):
        return NumberError(cell, "not a decimal number")
    if any(ch.isdigit() and not "0" <= ch <= "9" for ch in cell):
        return NumberError(cell, "digits other than 0-9")
    return NumberError(cell)


def read_number(text: str, *, decimal_comma: bool = False) -> float:
    """Read text as a finite number by the one grammar of grades, scores and
    qrels.

    Accepted, after surrounding white space: an optional sign, ASCII digits
    with an optional decimal point, an optional exponent (``2``, ``-0.5``,
    ``.5``, ``3.``, ``1e-3``, ``2E+2``); with ``decimal_comma``, also a
    decimal comma (``2,5``) unless it could as well be a thousands separator
    (``1,000``). Refused: underscores (``1_0``), ``nan`` and the infinities,
    hexadecimal, other digits than 0-9, a number beyond the largest float
    (``1e999``). ``-0`` reads as ``-0.0`` (equal to 0), as ``float`` reads it.

    Raises
    ------
    NumberError
        A :class:`ValueError` saying why (:attr:`NumberError.reason`).

    Examples
    --------
    >>> read_number(" 2.5 "), read_number("1e2"), read_number("-0")
    (2.5, 100.0, -0.0)
    >>> read_number("2,5", decimal_comma=True)
    2.5
    >>> read_number("1_0")
    Traceback (most recent call last):
    ...
    core.model.numbers.NumberError: not a number (digits grouped with '_'; write the digits alone)
    >>> read_number("1e999")
    Traceback (most recent call last):
    ...
    core.model.numbers.NumberError: not a finite number (beyond the largest number, about 1.8e308)
    """
    cell = text.strip()
    if _SEPARATORS.search(text):
        raise NumberError(text, "a control character (0x1c-0x1f) beside it; remove it")
    if _NUMBER.fullmatch(cell):
        value = float(cell)
    elif decimal_comma and _COMMA.fullmatch(cell) and not _GROUPED.fullmatch(cell):
        value = float(cell.replace(",", "."))
    else:
        raise _why(cell, decimal_comma)
    if math.isinf(value):
        raise NumberError(cell, BEYOND_FLOAT, not_finite=True)
    return value


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


def fixed_text(x: float, decimals: int = DECIMALS, *, signed: bool = False) -> str:
    """A result as a sentence shows it: ``decimals`` digits after the point
    (display only: the value keeps its full precision), with its sign when
    ``signed`` (a delta).

    >>> fixed_text(1 / 3), fixed_text(1 / 3, 2), fixed_text(0.25, 1, signed=True)
    ('0.3333', '0.33', '+0.2')
    """
    return f"{x:+.{decimals}f}" if signed else f"{x:.{decimals}f}"


def digits_apart(a: float, b: float) -> int:
    """The fewest digits after the point at which ``a`` and ``b`` are
    written apart (:func:`fixed_text`), up to 17; 0 for equal values (a tie
    is shown equal) or a NaN. Display only: the scores a view shows keep
    their full precision.

    >>> digits_apart(0.9982, 0.9977), digits_apart(0.9977, 0.9958), digits_apart(0.5, 0.5)
    (4, 3, 0)
    """
    if a == b or math.isnan(a) or math.isnan(b):
        return 0
    for d in range(18):
        if fixed_text(a, d) != fixed_text(b, d):
            return d
    return 17


#: The most digits after the point :func:`apart_digits` writes two bounds
#: apart with: bounds apart only past them are one number summed in two
#: orders (an NDCG of 1 whatever the unknown grades, its bounds
#: 0.9999999999999999 and 1.0000000000000002), not an interval
#: (:func:`one_value`).
APART_MOST = 12


def apart_digits(low: float, high: float, decimals: int = DECIMALS) -> int:
    """The digits after the point an interval's two bounds are written at:
    ``decimals``, or more where its bounds would read alike at that many
    (an interval narrower than the display's rounding, 0.99996 to 1, read
    "between 1.0000 and 1.0000"), up to :data:`APART_MOST`
    (:func:`one_value`: ``decimals`` then); :func:`digits_apart`. Display
    only.

    >>> apart_digits(0.25, 0.5), apart_digits(0.99996, 1.0), apart_digits(0.5, 0.5)
    (4, 5, 4)
    >>> apart_digits(0.9999999999999999, 1.0000000000000002)
    4
    """
    d = digits_apart(low, high)
    return decimals if d > APART_MOST else max(decimals, d)


def one_value(low: float, high: float) -> bool:
    """Whether an interval's bounds are one value: equal, or apart only past
    :data:`APART_MOST` digits after the point (the float sums' rounding of
    one number). Display only: the bounds keep their full precision.

    >>> one_value(0.5, 0.5), one_value(0.9999999999999999, 1.0000000000000002)
    (True, True)
    >>> one_value(0.999999999, 1.0)
    False
    """
    return low == high or digits_apart(low, high) > APART_MOST


def shown_text(x: float, decimals: int | None = None) -> str:
    """A declared number (a grade, a level, a gain table's entry) as a display
    shows it: whole as it is typed, a fraction at ``decimals`` digits like
    every number shown (:func:`fixed_text`); at full precision for None
    (:func:`number_text`: what a file, ``--gain`` and a tooltip say).

    >>> shown_text(2.0, 2), shown_text(1 / 3, 2), shown_text(1 / 3)
    ('2', '0.33', '0.3333333333333333')
    """
    value = float(x)
    if decimals is None or value.is_integer():
        return number_text(value)
    return fixed_text(value, decimals)


def full_text(x: float) -> str:
    """A number at full precision as a tooltip shows it (:func:`repr`, which
    reads back as the same float; a whole number keeps its ``.0``), and
    ``"—"`` where it is not determined (NaN).

    >>> full_text(2.0), full_text(0.1), full_text(float("nan"))
    ('2.0', '0.1', '—')
    """
    value = float(x)
    return "—" if math.isnan(value) else repr(value)

def read_numbers(texts: Sequence[str]) -> list[float]:
    """:func:`read_number` of each text (no decimal comma), the usual case
    (every text in the grammar) at the speed of ``float``.

    Raises
    ------
    NumberError
        For the first text outside the grammar; its ``index`` says which.

    Examples
    --------
    >>> read_numbers(["1", "2.5", " 3 "])
    [1.0, 2.5, 3.0]
    >>> try:
    ...     read_numbers(["1", "1_0"])
    ... except NumberError as exc:
    ...     print(exc.index, exc.text)
    1 1_0
    """
    try:
        values = list(map(float, texts))
    except ValueError:
        pass
    else:
        # What float takes beyond the grammar: '_', nan and inf (an 'n'
        # either way), other digits than ASCII's, and numbers it rounds to
        # infinity. None of them here: every text is in the grammar.
        joined = "".join(texts)
        if (joined.isascii() and "_" not in joined and "n" not in joined
                and "N" not in joined and not any(map(math.isinf, values))):
            return values
    out = []
    for i, text in enumerate(texts):
        try:
            out.append(read_number(text))
        except NumberError as exc:
            exc.index = i
            raise
    return out


#: The verbs (and the pronoun) a count agrees with (:func:`agreed`): each
#: one's form for one thing and for any other number of them.
VERBS = {"is": "are", "was": "were", "has": "have", "follows": "follow", "differs": "differ",
         "it": "them"}


def counted(n: int, one: str = "query", many: str | None = None, *,
            grouped: bool = False) -> str:
    """``n`` things in words, the noun as many as they are.

    ``many``: the noun for any number but 1; by default ``one`` with an "s"
    (a last "y" after a consonant as "ies"). ``grouped``: the number's
    thousands apart (``1,234``).

    >>> counted(1), counted(0), counted(3, "run"), counted(2, "entry")
    ('1 query', '0 queries', '3 runs', '2 entries')
    >>> counted(1234, "blank row", grouped=True), counted(2, "query's", "queries'")
    ('1,234 blank rows', "2 queries'")
    """
    if many is None:
        many = one[:-1] + "ies" if one[-2:-1] not in "aeiou" and one.endswith("y") else one + "s"
    return (f"{n:,}" if grouped else f"{n}") + " " + (one if n == 1 else many)


def agreed(n: int, verb: str) -> str:
    """``verb`` (its form after one thing: a key of :data:`VERBS`) agreeing
    with ``n`` things, where it stands apart from :func:`counted`'s noun.

    >>> f"{counted(1)} held by one run only {agreed(1, 'was')} not compared"
    '1 query held by one run only was not compared'
    >>> agreed(2, "was"), agreed(0, "is"), agreed(2, "has")
    ('were', 'are', 'have')
    """
    return verb if n == 1 else VERBS[verb]
