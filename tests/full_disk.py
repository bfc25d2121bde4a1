"""Run ``export SRC -o OUT`` on a fake disk that fills up: every binary file
opened for writing in OUT's folder takes 20,000 bytes, then each write fails
with ENOSPC, and keeps failing (a later close that writes fails too, as on a
full disk). Run as ``python tests/full_disk.py SRC OUT`` by
tests/test_hostile_writes.py, in a process of its own."""

from __future__ import annotations

import builtins
import errno
import io
import os
import sys
from pathlib import Path
from typing import Any

real_open = io.open


class FullDisk(io.RawIOBase):
    def __init__(self, fh: Any) -> None:
        super().__init__()
        self.fh, self.n = fh, 0

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.n += len(data)
        if self.n > 20_000:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return int(self.fh.write(data))

    def seek(self, *args: Any) -> int:
        return int(self.fh.seek(*args))

    def tell(self) -> int:
        return int(self.fh.tell())

    def close(self) -> None:
        if not self.closed:
            self.fh.close()
            super().close()


def main() -> int:
    src, out = sys.argv[1], sys.argv[2]
    folder = str(Path(out).resolve().parent)

    def fake_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        fh = real_open(file, mode, *args, **kwargs)
        if (isinstance(file, str | os.PathLike) and str(Path(file).resolve().parent) == folder
                and "b" in mode and ("w" in mode or "+" in mode)):
            return FullDisk(fh)
        return fh

    builtins.open = io.open = fake_open  # type: ignore[assignment]
    from app.cli.main import main as cli

    return cli(["export", src, "-o", out], out=io.StringIO())


if __name__ == "__main__":
    sys.exit(main())
