"""``python -m benchmarks.speed`` runs the interleaved speed harness."""

import sys

from benchmarks.speed.run import main

sys.exit(main())
