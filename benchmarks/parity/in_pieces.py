"""``shellfree rg`` with every file searched the way only large files are: in pieces.

A candidate for the content parity harness. rgcli/split_file.py takes files of 32 MiB or more,
which no generated case has; here the threshold is one byte and a piece is 97 bytes, so every
case whose search can go in pieces does (cut into ranges for forked workers too, under the
default thread count), and the harness compares that with rg::

    python -m benchmarks.parity.content --cases 5000 --seed 1 --jobs 2 \\
        --candidate "python benchmarks/parity/in_pieces.py rg"

Run as a script, not with ``-m``: the cases run in their own directories.
"""

import shellfree.rgcli.split_file as split_file

split_file.SPLIT_MIN_BYTES = 1
split_file._PIECE_BYTES = 97  # a prime, so cuts fall everywhere relative to line lengths

from shellfree.cli import console  # noqa: E402  (after the thresholds are set)

console()
