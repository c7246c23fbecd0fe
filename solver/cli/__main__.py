"""`python -m solver.cli`: the `durak` command."""
from solver.cli.entry import run

run()
