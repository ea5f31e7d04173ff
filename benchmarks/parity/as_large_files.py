"""``shellfree rg`` with every file searched the way only large files are.

A candidate for the content parity harness. No generated case is large enough to reach the
large-file paths, so this lowers their thresholds:

- rgcli/split_file.py searches files of 32 MiB or more in pieces (cut into ranges for forked
  workers too, under the default thread count): here files of one byte or more, in 97-byte
  pieces;
- file_read.read_whole reads a walked file of more than 1 MiB a head first and stops there
  when the head holds a NUL (rg quits at binary data): here the head is 4,096 bytes.

Then the harness compares with rg::

    python -m benchmarks.parity.content --cases 5000 --seed 1 --jobs 2 \\
        --candidate "python benchmarks/parity/as_large_files.py rg"

Run as a script, not with ``-m``: the cases run in their own directories.
"""

import shellfree.rgcli.split_file as split_file
import shellfree.search.file_read as file_read

split_file.SPLIT_MIN_BYTES = 1
split_file._PIECE_BYTES = 97  # a prime, so cuts fall everywhere relative to line lengths
file_read.HEAD_BYTES = 4096

from shellfree.cli import console  # noqa: E402  (after the thresholds are set)

console()
