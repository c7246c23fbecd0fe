"""`python -m solver.cli`: the `durak` command."""
from solver.cli import main

main(prog_name="durak")
