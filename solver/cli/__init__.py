"""The ``durak`` command (placeholder until the CLI lands)."""
import click


@click.group()
def main() -> None:
    """Durak analysis from the terminal."""
