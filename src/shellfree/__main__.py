"""``python -m shellfree`` runs the command-line interface."""

import sys

from shellfree.cli import main

sys.exit(main())
