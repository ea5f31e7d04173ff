"""The writer that gets killed: rewrites one file through ``FileTools.write_file`` forever.

``python -m benchmarks.fault_injection.child DIR START SEED SIZE`` writes versions START,
START+1, … of ``DIR/target.txt`` and prints ``done K`` (flushed) after each write returns, so
the parent knows the last version that certainly landed. It prints ``ready`` first.
"""

from __future__ import annotations

import json
import os
import sys


def main(argv: list[str]) -> int:
    directory, start, seed, size = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    # Each child is a new task that never read the file, so the stale-overwrite blocker would
    # refuse the rewrite; the blocker is not what this benchmark measures.
    os.environ["HERMES_DISABLE_FILE_STATE_GUARD"] = "1"
    from benchmarks.fault_injection.contents import content
    from shellfree import FileTools

    tools = FileTools(directory)
    content(start, seed, size)  # builds the shared body before "ready"
    print("ready", flush=True)
    version = start
    while True:
        result = json.loads(tools.write_file("target.txt", content(version, seed, size)))
        if "error" in result:
            print("error " + result["error"], flush=True)
            return 1
        print(f"done {version}", flush=True)
        version += 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
