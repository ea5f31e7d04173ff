"""``python -m benchmarks.report …`` is ``shellfree bench …``."""

import sys

from shellfree.cli import main

sys.exit(main(["bench", *sys.argv[1:]]))
