"""``python -m benchmarks.fault_injection --kills 500`` runs the kill loop and prints the figures."""

import sys

from benchmarks.fault_injection.runner import main

sys.exit(main())
