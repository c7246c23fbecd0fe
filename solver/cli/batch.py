"""`durak batch TASK IN`: solve, analyse or hint every position of a file, or review every game record."""
from __future__ import annotations

import sys
import time
from concurrent.futures import BrokenExecutor
from typing import IO

import click
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task,
                           TextColumn, TimeElapsedColumn, TimeRemainingColumn)
from rich.text import Text

from solver.batch.lines import (TASKS, BatchOptions, BatchSummary, id_key, ids_in, read_items,
                                run_batch)
from solver.cli.common import (MAX_NODES, ExitCode, Seconds, TableSize, fail, handles_errors,
                               read_input, stderr_console)
from solver.cli.hint import MAX_SAMPLES
from solver.errors import OptionError
from solver.run.executor import Executor
from solver.run.outfile import LineFile
from solver.search import DEFAULT_TT_MB

#: The most characters IN may hold (read whole before the first answer).
MAX_IN_CHARS = 256 * 1024 * 1024


class _RateColumn(ProgressColumn):
    """Positions per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f} pos/s", style="progress.data.speed")


def _read_lines(path: str) -> list[str]:
    text = read_input(path, "IN", MAX_IN_CHARS + 1)
    if len(text) > MAX_IN_CHARS:
        raise OptionError(f"IN: more than {MAX_IN_CHARS:,} characters; split it into "
                          "several batches")
    return text.splitlines()


@click.command("batch")
@click.argument("task", type=click.Choice(list(TASKS)))
@click.argument("infile", metavar="IN")
@click.option("--out", "-o", "outfile", default="-", show_default=True,
              help="Output file of JSON lines ('-': standard output).")
@click.option("--resume", is_flag=True,
              help="Skip the items whose ids are already in OUT and append the rest.")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
              help="Local worker processes (default: all cores); with --scheduler local, "
                   "the cluster's workers.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="A Dask distributed scheduler (tcp://HOST:8786), or 'local' for a Dask "
                   "LocalCluster on this machine (needs durak-solver[cluster]).")
@click.option("--max-time", type=Seconds(), default=None,
              help="Seconds per item (solve/analyse: the search, default 60 as the "
                   "commands; hint: the sampling).")
@click.option("--max-nodes", type=click.IntRange(1, MAX_NODES), default=None,
              help="Nodes per item (solve/analyse).")
@click.option("--samples", "-n", type=click.IntRange(1, MAX_SAMPLES), default=None,
              help="Deals per item (hint; default as `durak hint`).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of every item's deals (hint, analyse on hidden cards).")
@click.option("--tt-mb", type=TableSize(), default=DEFAULT_TT_MB,
              show_default=True, help="Transposition table per worker, MiB.")
@click.option("--chunk", type=click.IntRange(min=1), default=None,
              help="Items per task sent to a worker (default: about 4 tasks per worker, "
                   "at most 32).")
@handles_errors
def batch_command(task: str, infile: str, outfile: str, resume: bool, workers: int | None,
                  scheduler: str | None, max_time: float | None, max_nodes: int | None,
                  samples: int | None, seed: int, tt_mb: int, chunk: int | None) -> None:
    """Answer every position of IN with TASK (solve, analyse or hint), or review every game record of IN (review).

    IN (a file, or '-' for standard input) holds JSON lines such as
    {"id": "a1", "position": "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"}
    (the position may be a JSON position; "hero" is optional), or one position
    string per line.  Each output line is the command's --json answer with
    the item's "id" (its line number when absent), in input order; an item
    that fails gives {"id": ..., "error": ..., "exit_code": 2 or 3} and the
    batch goes on.  Ctrl-C stops (exit 130) keeping every line written;
    --resume then answers the rest.
    """
    if resume and outfile == "-":
        raise OptionError("--resume: needs --out FILE (the answers already written)")
    items = read_items(_read_lines(infile), unique_ids=resume)
    opts = BatchOptions(max_time=max_time, max_nodes=max_nodes, samples=samples, seed=seed,
                        tt_mb=tt_mb)
    summary = BatchSummary()
    t0 = time.perf_counter()
    left = "" if outfile == "-" else f" to {outfile}; --resume answers the rest"
    # one writer (a lock), never IN itself, whole lines only (solver.run.outfile)
    out: IO[str] | LineFile = (sys.stdout if outfile == "-" else
                               LineFile(outfile, resume=resume, inputs=[infile]))
    try:
        skip = ids_in(out.existing) if isinstance(out, LineFile) else set()
        todo = sum(1 for it in items if id_key(it.id) not in skip)
        with Executor(workers, scheduler, tasks=todo) as ex:
            if sys.stderr.isatty():
                bar = Progress(TextColumn(f"{task}"), BarColumn(), MofNCompleteColumn(),
                               _RateColumn(), TimeElapsedColumn(), TextColumn("ETA"),
                               TimeRemainingColumn(), console=stderr_console(), transient=True)
                with bar:
                    tid = bar.add_task(task, total=todo)
                    run_batch(task, items, out, ex, opts, skip, chunk,
                              progress=lambda n: bar.advance(tid, n), summary=summary)
            else:
                run_batch(task, items, out, ex, opts, skip, chunk, summary=summary)
            where = ex.describe()
    except KeyboardInterrupt:
        click.echo(f"durak: interrupted: {summary.written} line(s) written{left}", err=True)
        sys.exit(int(ExitCode.INTERRUPTED))
    except BrokenExecutor as e:  # a local worker process died (killed, out of memory)
        fail(f"a worker was lost ({' '.join(str(e).split())}): {summary.written} line(s) "
             f"written{left}", ExitCode.INTERNAL)
    finally:
        if isinstance(out, LineFile):
            out.close()
    secs = time.perf_counter() - t0
    rate = summary.written / secs if secs > 0 else 0.0
    click.echo(f"durak: batch {task}: {summary.written} answered ({summary.errors} with an "
               f"error), {summary.skipped} skipped, {secs:.2f} s, {rate:,.1f} positions/s on "
               f"{where}", err=True)
