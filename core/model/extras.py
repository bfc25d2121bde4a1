"""What to run to add an optional feature (the ``[parquet]``, ``[spark]`` and
``[dask]`` extras) to this installation: the extra's requirements as the
installed distribution's metadata lists them (``pyproject.toml``'s
``[project.optional-dependencies]``, declared there once).

``pip install -e '.[parquet]'`` works only in a clone; a wheel installed with
pip or pipx takes the requirements themselves (a new user's trial: the hint
named the clone's line to a user of the wheel).
"""

from __future__ import annotations

import re
import shlex

__all__ = ["DISTRIBUTION", "install_line"]

#: The distribution's name (``[project] name`` in ``pyproject.toml``), whose
#: metadata lists the extras and the version (``--version``).
DISTRIBUTION = "ndcg-worksheet"


def install_line(extra: str) -> str:
    """The command that installs ``extra``'s requirements, and its name
    (``pip install 'pyarrow>=14' (the [parquet] extra)``); without installed
    metadata (the source tree alone, or an extra it does not list), the
    clone's editable install."""
    from importlib import metadata  # (only when a message needs it: the commands' start)

    marker = re.compile(r"""\bextra\s*==\s*["']""" + re.escape(extra) + """["']""")
    try:
        listed = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        listed = []
    wanted = [r.partition(";")[0].strip() for r in listed if marker.search(r.partition(";")[2])]
    if not wanted:
        return f"pip install -e '.[{extra}]' in a clone of {DISTRIBUTION}"
    return f"pip install {' '.join(shlex.quote(r) for r in wanted)} (the [{extra}] extra)"
