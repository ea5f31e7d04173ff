"""``python -m shellfree`` runs the command-line interface."""

from shellfree.cli import console

console()
