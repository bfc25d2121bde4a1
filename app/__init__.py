"""The adapters over ``core``: the desktop editor (Qt) and the command line.

numpy's OpenBLAS starts a worker thread per core that spins, waiting for
work, once numpy loads. Nothing here multiplies matrices large enough to
use it, and on a small machine the spinning thread takes a core from the
file readers' threads (2 cores: ~0.15 s of CPU at every start, ~0.1 s of
wall time when reading a 2,000,000-row run). One BLAS thread, unless the
user's environment says otherwise.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
