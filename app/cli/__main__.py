"""``python -m app.cli``: the command line without the launcher."""

import sys

from app.cli.ending import end
from app.cli.main import main

sys.exit(end(main()))
