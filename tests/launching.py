"""The launch watched by app tests: the windows ``app.main`` builds, and its
run's read held until the test lets it go (the launcher's way with a large
run: the window is shown, greyed, while the run is read)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

__all__ = ["held_read", "windows_built"]


def windows_built(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The list the windows ``app.main.build_window`` builds are appended to,
    as they are built."""
    import app.main as main_module

    built: list[Any] = []
    build = main_module.build_window
    monkeypatch.setattr(main_module, "build_window",
                        lambda *a, **k: built.append(build(*a, **k)) or built[-1])
    return built


def held_read(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """A gate the launch's read (``app.opening.load``) waits at until it is
    set (20 s at most, then the read fails the test)."""
    import app.opening as opening

    gate = threading.Event()
    load = opening.load

    def held(path: Any, qrels: Any, preset: Any = None) -> Any:
        assert gate.wait(20)
        return load(path, qrels, preset)

    monkeypatch.setattr(opening, "load", held)
    return gate
