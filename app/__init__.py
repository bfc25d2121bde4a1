"""The adapters over ``core``: the desktop editor (Qt) and the command line.

Two settings of numpy's, made before it loads (a user's own environment
wins), for a program that makes and drops many arrays of tens of MB:

- numpy's OpenBLAS starts a worker thread per core that spins, waiting for
  work, once numpy loads. Nothing here multiplies matrices large enough to
  use it, and on a small machine the spinning thread takes a core from the
  file readers' threads (2 cores: ~0.15 s of CPU at every start). One BLAS
  thread.
- numpy asks the kernel for huge pages for every large array. Each fresh
  array is then faulted in 2 MB at a time, which on a virtual machine can
  cost the host far more than the same memory in small pages: evaluating a
  2,000,000-row run took 4.4-5.5 s with them (2.6-3.0 s of it system time)
  and 1.7-2.8 s without (0.3-0.6 s), in alternating runs on the build
  machine. Without the advice the kernel's own setting decides.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
