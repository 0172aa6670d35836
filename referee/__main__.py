"""`python -m referee`: the `referee` command, where no script is on the PATH."""

import sys

from referee.cli import main

sys.exit(main())
