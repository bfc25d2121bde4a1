"""``python -m app.cli``: the command line without the launcher."""

import sys

from app.cli.main import main

sys.exit(main())
