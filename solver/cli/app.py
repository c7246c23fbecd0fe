"""The ``durak`` command group and the context every subcommand shares."""
from __future__ import annotations

import click

from solver import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="durak")
def main() -> None:
    """Durak (Durnius, Дурак) analysis: exact endgame solving, hints, puzzles.

    POSITION arguments are a position string (docs/notation.md), a file holding one,
    a JSON position, or '-' to read standard input.
    """
