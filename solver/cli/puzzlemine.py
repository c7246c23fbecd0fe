"""`durak puzzle mine`, `rate`, `list --count` and `check -j`: the mined collection (issue 70).

The families, their seeds and targets are :data:`solver.puzzles.mine.FAMILIES`;
the command continues the file it is given, so an interrupted run is resumed by
running it again.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from solver.cli.common import emit_json, handles_errors, stderr_console
from solver.errors import OptionError
from solver.i18n import _, number
from solver.puzzles.collection import (CheckResult, Collection, Puzzle, check_puzzle,
                                       default_dir)
from solver.puzzles.ladder import ATTEMPTS, BOTS, results_of, run_ladder
from solver.puzzles.mine import (FAMILIES, MINED_FILE, RATINGS_FILE, RoundReport, load_library,
                                 mine, read_records, write_records)
from solver.puzzles.difficulty import fit
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


@click.command("rate")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to run the ladder in (the same results for any number).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run it on a Dask cluster: tcp://HOST:8786, or 'local'.")
@click.option("--attempts", type=click.IntRange(1), default=ATTEMPTS, show_default=True,
              help="Tries per bot and puzzle.")
@click.pass_context
@handles_errors
def rate_cmd(ctx: click.Context, workers: int, scheduler: str | None, attempts: int) -> None:
    """Rate every puzzle before any person tried it: a ladder of bots tries them all,
    and one Rasch fit rates the bots and the puzzles together (docs/lab/puzzle-ratings.md).

    Writes each mined puzzle's rating and ladder results into the mined file and the
    hand-made puzzles' into ratings.json; prints the bots' ratings and the success
    table by rating band (Markdown).
    """
    d = Path((ctx.obj or {}).get("dir") or default_dir())
    colls = load_library(d)
    puzzles = [p for c in colls for p in c.puzzles]
    err = stderr_console()
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    ladder = run_ladder(puzzles, workers, scheduler, attempts)
    seconds = time.perf_counter() - t0
    result = fit(results_of(ladder, attempts))
    err.print(f"ladder: {len(puzzles)} puzzles x {len(BOTS)} bots x {attempts} tries in "
              f"{seconds:.0f} s ({time.process_time() - cpu0:.0f} s CPU here); "
              f"fit in {result.iterations} iterations")
    records = read_records(d / MINED_FILE)
    for r in records:
        r["rating"] = round(result.puzzles[r["id"]], 1)
        r["ladder"] = ladder[r["id"]]
    if records:
        write_records(d / MINED_FILE, records)
    mined = {r["id"] for r in records}
    hand = {p.id: {"rating": round(result.puzzles[p.id], 1), "ladder": ladder[p.id]}
            for p in puzzles if p.id not in mined}
    head = {"attempts": attempts, "bots": [name for name, _n in BOTS],
            "bot_ratings": {name: round(result.bots[name], 1) for name, _n in BOTS}}
    lines = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    body = [f"  {json.dumps(pid)}: {json.dumps(e)}" for pid, e in hand.items()]
    (d / RATINGS_FILE).write_text("{\n" + "\n".join(lines) + '\n "puzzles": {\n'
                                  + ",\n".join(body) + "\n }\n}\n", encoding="utf-8")
    click.echo(band_table(result.bots, [(result.puzzles[pid], ks) for pid, ks in ladder.items()],
                          attempts))


def band_table(bots: dict[str, float], rated: list[tuple[float, list[int]]],
               attempts: int) -> str:
    """The bots' success rates by band of puzzle rating, as a Markdown table."""
    edges = [-1e9, 1100, 1300, 1500, 1700, 1900, 2100, 1e9]
    names = [name for name, _n in BOTS]
    head = ("| puzzle rating | puzzles | " + " | ".join(
        f"{n} ({bots[n]:.0f})" for n in names) + " |")
    lines = [head, "|" + "---|" * (len(names) + 2)]
    for lo, hi in zip(edges, edges[1:]):
        band = [ks for r, ks in rated if lo <= r < hi]
        if not band:
            continue
        label = (f"< {hi:.0f}" if lo < 0 else f">= {lo:.0f}" if hi > 1e8
                 else f"{lo:.0f}-{hi:.0f}")
        rates = [100.0 * sum(ks[i] for ks in band) / (attempts * len(band))
                 for i in range(len(names))]
        lines.append(f"| {label} | {len(band)} | " + " | ".join(f"{x:.0f}%" for x in rates) + " |")
    return "\n".join(lines)
