"""Speed benchmark of shellfree against the real ripgrep binary, side by side in one run.

``python -m benchmarks.speed.corpora`` builds the corpora; ``python -m benchmarks.speed`` runs the
interleaved harness (see ``run.py``) and writes a Markdown table and a JSON file. README.md beside
this file explains the method and every column.
"""
