"""`durak puzzle mine`, `list --count` and `check -j`: the large mined collection (issue 70).

The families, their seeds and targets are :data:`solver.puzzles.mine.FAMILIES`;
the command continues the file it is given, so an interrupted run is resumed by
running it again.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from solver.cli.common import emit_json, handles_errors, stderr_console
from solver.errors import OptionError
from solver.i18n import _, number
from solver.puzzles.collection import (CheckResult, Collection, Puzzle, check_puzzle,
                                       default_dir)
from solver.puzzles.mine import FAMILIES, MINED_FILE, RoundReport, mine
from solver.run.executor import Executor, chunk_size, chunked
from solver.search import Solver


@click.command("mine")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help=f"The mined file to continue (default: {MINED_FILE} of the puzzles directory).")
@click.option("--family", "families", multiple=True,
              help="Mine only this family (repeatable; default: all of them).")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to mine and check in (the same puzzles for any number).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Mine on a Dask cluster: tcp://HOST:8786, or 'local'.")
@handles_errors
def mine_cmd(out_path: str | None, families: tuple[str, ...], workers: int,
             scheduler: str | None) -> None:
    """Mine verified, pairwise inequivalent puzzles into a gzip'd JSON Lines file.

    Round k of a family uses the family's seed + k; running the command again
    continues each family after its last written round.
    """
    known = {f.name: f for f in FAMILIES}
    for name in families:
        if name not in known:
            raise OptionError(f"--family: no family {name!r} (known: {', '.join(known)})")
    chosen = [f for f in FAMILIES if not families or f.name in families]
    path = Path(out_path) if out_path else default_dir() / MINED_FILE
    err = stderr_console()
    t0 = time.perf_counter()

    def progress(rep: RoundReport) -> None:
        err.print(f"{rep.family} round {rep.round}: {rep.found} found, {rep.kept} kept, "
                  f"{rep.total} in all ({time.perf_counter() - t0:.0f} s)")

    records = mine(path, chosen, workers=workers, scheduler=scheduler, progress=progress)
    err.print(f"{len(records)} puzzles in {path} ({time.perf_counter() - t0:.1f} s)")
    sys.exit(0)


def print_counts(colls: list[Collection], as_json: bool) -> None:
    """`durak puzzle list --count`: puzzles per collection and in all."""
    total = sum(len(c.puzzles) for c in colls)
    if as_json:
        emit_json({"collections": {c.id: len(c.puzzles) for c in colls}, "total": total})
        return
    width = max((len(c.id) for c in colls), default=5)
    for c in colls:
        click.echo(f"{c.id:<{width}}  {number(len(c.puzzles)):>6}")
    click.echo(f"{_('total'):<{width}}  {number(total):>6}")


def _check_chunk(puzzles: list[Puzzle], backend: str) -> list[CheckResult]:
    """The checker on a chunk of puzzles, with one solver (what a worker runs)."""
    solver = Solver(tt_mb=16, backend=backend)
    return [check_puzzle(p, solver) for p in puzzles]


def check_all(puzzles: list[Puzzle], workers: int, backend: str = "core") -> list[CheckResult]:
    """`durak puzzle check -j N`: the checker over worker processes, in puzzle order."""
    size = chunk_size(len(puzzles), workers)
    parts = chunked(list(range(len(puzzles))), size)
    out: list[CheckResult | None] = [None] * len(puzzles)
    with Executor(workers, None, tasks=len(parts)) as ex:
        jobs = (([puzzles[k] for k in part], backend) for part in parts)
        for ci, res in ex.map_unordered(_check_chunk, jobs):
            for k, r in zip(parts[ci], res):
                out[k] = r
    return [r for r in out if r is not None]
