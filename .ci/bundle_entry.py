"""The one-folder bundle's executable (``.ci/ndcg-worksheet.spec``): the same
entry point as the installed ``ndcg-worksheet`` script: a command runs the
command line, anything else opens the editor."""

import multiprocessing
import sys

from app.launcher import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a no-op unless a library starts a process
    sys.exit(main())
