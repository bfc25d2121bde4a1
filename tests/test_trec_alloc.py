"""The C allocator's settings (core.io.trec.alloc): set where glibc is, a
no-op that never raises where it is not."""

from __future__ import annotations

import ctypes
import sys

import pytest

from core.io.trec import alloc


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt is Linux's")
def test_tune_sets_the_allocator_where_glibc_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(alloc, "_tuned", None)
    assert alloc.tune() is True
    assert alloc.tune() is True  # once per process, the answer kept


@pytest.mark.parametrize("missing", ["no libc", "no mallopt", "not linux"])
def test_tune_without_glibc_is_a_no_op(monkeypatch: pytest.MonkeyPatch, missing: str) -> None:
    monkeypatch.setattr(alloc, "_tuned", None)
    if missing == "no libc":
        def refuse(name: object) -> ctypes.CDLL:
            raise OSError("no C library")
        monkeypatch.setattr(ctypes, "CDLL", refuse)
    elif missing == "no mallopt":  # musl: a C library without mallopt
        class Musl:
            def __getattr__(self, name: str) -> object:
                raise AttributeError(name)
        monkeypatch.setattr(ctypes, "CDLL", lambda name: Musl())
    else:
        monkeypatch.setattr(sys, "platform", "darwin")
    assert alloc.tune() is False
