"""`python -m solver.cli`: the `durak` command."""
from solver.cli.launch import run

run()
