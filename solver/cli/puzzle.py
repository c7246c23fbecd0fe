"""`durak puzzle`: list, show, solve, check, train (rated), stats and generate puzzles.

The collections are the TOML files of ``puzzles/`` (format: ``puzzles/README.md``,
parser: :mod:`solver.puzzles`); ``--dir`` or ``$DURAK_PUZZLES`` points elsewhere.
"""
from __future__ import annotations

import functools
import sys
import time
from typing import Any

import click
from rich.progress import Progress
from rich.table import Table

from solver.cli.common import ExitCode, emit_json, handles_errors, stderr_console, stdout_console
from solver.cli.language import lang_option
from solver.cli import puzzlerated
from solver.cli.puzzlemine import check_all, mine_cmd, print_counts, rate_cmd
from solver.cli.puzzletrain import Trainer, board_lines
from solver.errors import Interrupted, OptionError
from solver.game.rules import parse_rules
from solver.game.value import value_text
from solver.i18n import _, current, ngettext, number
from solver.notation.people import move_text, symbols_wanted, value_word
from solver.run.outfile import check_target, write_whole
from solver.puzzles.collection import (TASK_VALUES, Collection, check_puzzle, find_puzzle,
                                       format_collection, select, tag_word)
from solver.puzzles import train
from solver.puzzles.mine import load_library
from solver.puzzles.generate import TRIES_PER_PUZZLE, GenOptions, as_collection, generate
from solver.search import Solver

TT_MB = 16


def _solver() -> Solver:
    ctx = click.get_current_context(silent=True)
    backend = (ctx.obj or {}).get("backend") if ctx else None
    if backend:
        return Solver(tt_mb=TT_MB, backend=backend)
    return Solver(tt_mb=TT_MB)


def _collections(ctx: click.Context) -> list[Collection]:
    return load_library(ctx.obj.get("dir") if ctx.obj else None)


# --------------------------------------------------------------- the group

@click.group("puzzle")
@click.option("--dir", "directory", type=click.Path(file_okay=False), default=None,
              help="Directory of collections (default: the shipped puzzles/, or $DURAK_PUZZLES).")
@click.option("--backend", type=click.Choice(["core", "reference"]), default=None,
              help="Solver backend: the compiled core (default), or the slow pure-Python reference.")
@click.pass_context
def puzzle(ctx: click.Context, directory: str | None, backend: str) -> None:
    """Endgame puzzles: list, show, solve, check, train, generate."""
    ctx.ensure_object(dict)
    ctx.obj["dir"] = directory
    ctx.obj["backend"] = backend


puzzle.add_command(mine_cmd)
puzzle.add_command(rate_cmd)


@puzzle.command("list")
@click.argument("collection", required=False)
@click.option("--count", "counts", is_flag=True,
              help="Only the number of puzzles of each collection, and the total.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@click.pass_context
@handles_errors
def list_cmd(ctx: click.Context, collection: str | None, counts: bool, as_json: bool) -> None:
    """List the puzzles of every collection, or of COLLECTION (an id or a .toml file)."""
    colls = select(_collections(ctx), collection)
    if counts:
        print_counts(colls, as_json)
        return
    if as_json:
        emit_json({"collections": [
            {**{k: v for k, v in c.to_dict().items() if k != "puzzles"},
             "puzzles": [{"id": p.id, "title": p.title, "task": p.task_text,
                          "plies": p.plies, "nodes": p.nodes, "tags": list(p.tags)}
                         for p in c.puzzles]} for c in colls]})
        return
    con = stdout_console()
    lang = current()
    for c in colls:
        t = Table(title=ngettext("{title} ({id}, {n} puzzle)", "{title} ({id}, {n} puzzles)",
                                 len(c.puzzles)).format(title=c.text("title", lang), id=c.id,
                                                        n=len(c.puzzles)),
                  title_justify="left")
        for col in (_("id"), _("title"), _("task"), _("plies"), _("tags")):
            t.add_column(col)
        for p in c.puzzles:
            t.add_row(p.id, p.text("title", lang), p.task_text,
                      "" if p.plies is None else number(p.plies),
                      ", ".join(tag_word(x) for x in p.tags))
        con.print(t)


@puzzle.command("show")
@click.argument("puzzle_id", metavar="ID")
@click.option("--solution", is_flag=True, help="Also print the solution and its line.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@click.pass_context
@handles_errors
def show_cmd(ctx: click.Context, puzzle_id: str, solution: bool, as_json: bool) -> None:
    """Show puzzle ID: the position and the task (the solution with --solution)."""
    p = find_puzzle(_collections(ctx), puzzle_id)
    if as_json:
        d = p.to_dict()
        if not solution:
            d.pop("solution")
            d.pop("pv")
        emit_json(d)
        return
    state = p.state()
    lang = current()
    sym = symbols_wanted(sys.stdout)
    out = [f"{p.id}: {p.text('title', lang)}   [{p.collection}]", f"{p.task_text}.", ""]
    out += board_lines(state, sym)
    out += ["", _("Position: {position}").format(position=p.position)]
    diff = []
    if p.plies is not None:
        diff.append(ngettext("forced line {n} ply", "forced line {n} plies", p.plies).format(
            n=number(p.plies)))
    if p.nodes is not None:
        diff.append(ngettext("{n} search node", "{n} search nodes", p.nodes).format(
            n=number(p.nodes)))
    if diff:
        out.append(_("Difficulty: {what}").format(what=", ".join(diff)))
    if p.tags:
        out.append(_("Tags: {tags}").format(tags=", ".join(tag_word(x) for x in p.tags)))
    if solution:
        out.append(_("Solution: {moves}").format(
            moves=_(" or ").join(move_text(m, sym) for m in p.solution)))
        if p.pv:
            out.append(_("Line: {moves}").format(moves=" ".join(
                move_text(m, sym) for m in train.seat_line(state, list(p.pv)))))
        if p.comment:
            out.append(_("Comment: {text}").format(text=move_text(p.text("comment", lang), sym)))
    click.echo("\n".join(out))


@puzzle.command("solve")
@click.argument("puzzle_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@click.pass_context
@handles_errors
def solve_cmd(ctx: click.Context, puzzle_id: str, as_json: bool) -> None:
    """Solve puzzle ID and print the solver's answer next to the stored one.

    Exits 1 when the solver disagrees with the stored solution, like `check`.
    """
    p = find_puzzle(_collections(ctx), puzzle_id)
    state = p.state()
    an = _solver().analyse(state, hero=p.hero)  # a fresh table: honest node counts
    res = check_puzzle(p, _solver())
    if as_json:
        emit_json({"id": p.id, "task": p.task, "hero": p.hero, "agrees": res.ok,
                   "problems": res.problems,
                   "stored": {"solution": list(p.solution), "pv": list(p.pv), "plies": p.plies,
                              "nodes": p.nodes},
                   "solver": {"value": value_text(an.value), "solution": list(res.solution), "pv": an.pv,
                              "distance": an.distance, "nodes": an.nodes,
                              "seconds": round(an.seconds, 6),
                              "moves": [m.to_json() for m in an.moves]},
                   "greedy": res.greedy})
        if not res.ok:
            ctx.exit(1)
        return
    sym = symbols_wanted(sys.stdout)

    def moves(ms: Any) -> str:
        return " ".join(move_text(m, sym) for m in ms)

    def counted(n: int | None) -> str:
        return "" if n is None else number(n)

    t = Table(title=f"{p.id}: {p.text('title', current())} -- {p.task_text}",
              title_justify="left")
    t.add_column("")
    t.add_column(_("stored"))
    t.add_column(_("solver"))
    t.add_row(_("value"), "/".join(value_word(v.text) for v in TASK_VALUES[p.task]),
              value_word(value_text(an.value)))
    t.add_row(_("solution"), moves(p.solution), moves(res.solution))
    t.add_row(_("line"), moves(p.pv), moves(an.pv))
    t.add_row(_("plies"), counted(p.plies), counted(an.distance))
    t.add_row(_("nodes"), counted(p.nodes), counted(an.nodes))
    con = stdout_console()
    con.print(t)
    mt = Table(title=_("every move"), title_justify="left")
    mt.add_column(_("move"))
    mt.add_column(_("value"))
    mt.add_column(_("plies"))
    for m in an.moves:
        note = " " + _("(the greedy player's)") if m.move == res.greedy else ""
        mt.add_row(move_text(m.move, sym) + note, value_word(value_text(m.value)),
                   counted(m.distance))
    con.print(mt)
    if res.ok:
        con.print(_("The solver agrees with the stored solution; the greedy player's move {move} "
                    "fails.").format(move=move_text(res.greedy, sym)))
    else:
        for prob in res.problems:
            con.print(_("MISMATCH: {problem}").format(problem=prob))
        ctx.exit(1)


@puzzle.command("check")
@click.argument("collection", required=False)
@click.option("--id", "ids", multiple=True, help="Check only this puzzle (repeatable).")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to check in (the same results for any number).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@click.pass_context
@handles_errors
def check_cmd(ctx: click.Context, collection: str | None, ids: tuple[str, ...], workers: int,
              as_json: bool) -> None:
    """Verify every stored solution with the solver; exit 1 on any mismatch.

    Checks the value, the set of first moves that solve the task, that the
    greedy player's move fails, the stated line and its length.
    """
    colls = select(_collections(ctx), collection)
    puzzles = [p for c in colls for p in c.puzzles if not ids or p.id in ids]
    if ids:
        missing = set(ids) - {p.id for p in puzzles}
        if missing:
            raise OptionError(f"--id: no puzzle {', '.join(sorted(missing))!r}")
    solver = _solver()
    t0 = time.perf_counter()
    results = []
    err = stderr_console()
    show_bar = not as_json and sys.stderr.isatty()
    if workers > 1:
        results = check_all(puzzles, workers, (ctx.obj or {}).get("backend") or "core")
    elif show_bar:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task("checking", total=len(puzzles))
            for p in puzzles:
                results.append(check_puzzle(p, solver))
                bar.advance(task)
    else:
        results = [check_puzzle(p, solver) for p in puzzles]
    seconds = time.perf_counter() - t0
    bad = [r for r in results if not r.ok]
    if as_json:
        emit_json({"checked": len(results), "failed": len(bad), "seconds": round(seconds, 3),
                   "collections": [c.id for c in colls],
                   "results": [r.to_dict() for r in results]})
    else:
        for r in bad:
            for prob in r.problems:
                click.echo(_("MISMATCH {id}: {problem}").format(id=r.puzzle.id, problem=prob))
        per: dict[str, list[int]] = {}
        for r in results:
            per.setdefault(r.puzzle.collection, [0, 0])
            per[r.puzzle.collection][0] += 1
            per[r.puzzle.collection][1] += 0 if r.ok else 1
        for cid, (n, nb) in per.items():
            click.echo(ngettext("{collection}: {n} puzzle, {ok} ok, {failed} failed",
                                "{collection}: {n} puzzles, {ok} ok, {failed} failed", n).format(
                collection=cid, n=number(n), ok=number(n - nb), failed=number(nb)))
        nodes = sum(r.nodes for r in results)
        n = len(results)
        click.echo(ngettext("checked {n} puzzle in {seconds} s ({nodes} nodes): {ok} ok, {failed} "
                            "failed",
                            "checked {n} puzzles in {seconds} s ({nodes} nodes): {ok} ok, {failed} "
                            "failed", n).format(
            n=number(n), seconds=number(seconds, 1), nodes=number(nodes), ok=number(n - len(bad)),
            failed=number(len(bad))))
    if bad:
        sys.exit(1)


# ------------------------------------------------------------------ train

@puzzle.command("train")
@click.argument("collection", required=False)
@click.option("--id", "puzzle_id", default=None, help="Start with this puzzle (and play only it).")
@click.option("--theme", default=None, metavar="NAME",
              help="Serve puzzles of this theme (a tag: durak puzzle stats lists yours).")
@click.option("--streak", is_flag=True, help="A streak: harder each time, until the first miss "
              "(no rating change; the best streak is kept).")
@click.option("--daily", is_flag=True, help="The day's puzzle, the same for everyone.")
@click.pass_context
@lang_option
@handles_errors
def train_cmd(ctx: click.Context, collection: str | None, puzzle_id: str | None,
              theme: str | None, streak: bool, daily: bool) -> None:
    """Solve puzzles at a prompt: type your moves, the solver answers for the others.

    With no collection, puzzles are served by your rating: a missed one due for
    review first, else one near your rating; the rating's change is printed after
    each.  A collection is played in its order.  At the prompt: a move (6S, 6S/8S,
    take, >6H, +8C, pass), 'hint', 'moves', 'show' or 'quit'.  A wrong move gets
    the refuting line; you may try again, but the puzzle counts as missed.
    """
    if streak and daily:
        raise OptionError(_("--streak and --daily: choose one"))
    colls = select(_collections(ctx), collection)
    puzzles = [p for c in colls for p in c.puzzles]
    if not puzzles:
        raise OptionError(_("COLLECTION: no puzzles to train on"))
    trainer = Trainer(_solver())
    if puzzle_id is not None or (collection is not None and not (theme or streak or daily)):
        player = puzzlerated.store()
        chosen = [find_puzzle(colls, puzzle_id)] if puzzle_id is not None else puzzles
        trainer.run(chosen, after=lambda p, clean: puzzlerated.record(player, p, clean))
        return
    mode = "streak" if streak else "daily" if daily else "rated"
    session = puzzlerated.Session(puzzles, mode, theme)
    trainer.run(session.puzzles(), after=session.after)


@puzzle.command("stats")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@click.pass_context
@lang_option
@handles_errors
def stats_cmd(ctx: click.Context, as_json: bool) -> None:
    """Your puzzle rating, its history, accuracy by theme (weakest first), the streak."""
    d = puzzlerated.store().stats()
    if as_json:
        emit_json(puzzlerated.stats_json(d))
        return
    puzzlerated.stats_table(d, stdout_console())


# --------------------------------------------------------------- generate

def _mine_puzzles(opts: GenOptions, make_solver: Any, progress: Any, workers: int,
                  scheduler: str | None) -> tuple[list, bool]:
    """The puzzles found, and whether Ctrl-C cut the mining short."""
    try:
        return generate(opts, make_solver=make_solver, progress=progress, workers=workers,
                        scheduler=scheduler), False
    except Interrupted as e:
        return list(e.partial or []), True


@puzzle.command("generate")
@click.option("--count", type=click.IntRange(1, 10_000), default=10, show_default=True,
              help="Puzzles to find.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--players", type=click.IntRange(2, 6), default=2, show_default=True)
@click.option("--rules", "rules_text", default="", help="Rule options, e.g. transfer.")
@click.option("--min-depth", type=click.IntRange(1), default=5, show_default=True,
              help="Shortest forced line, in plies.")
@click.option("--max-cards", type=click.IntRange(2), default=10, show_default=True,
              help="Most cards in play (hands and table).")
@click.option("--method", type=click.Choice(["mixed", "play", "sample"]), default="mixed",
              show_default=True, help="Play dealt games forward, sample small hands, or both.")
@click.option("--max-solutions", type=click.IntRange(1), default=1, show_default=True,
              help="Most first moves that may solve the task.")
@click.option("--tries", type=click.IntRange(0), default=0,
              help=f"Candidate positions to solve at most (default {TRIES_PER_PUZZLE} per puzzle).")
@click.option("--max-nodes", type=click.IntRange(0), default=300_000, show_default=True,
              help="Skip positions whose search needs more nodes (0: no cap).")
@click.option("--max-depth", type=click.IntRange(0), default=0,
              help="Longest forced line, in plies (0: no cap).")
@click.option("--tag", "tags", multiple=True,
              help="Keep only puzzles with this tag (repeatable): transfer, take, throw-in, draw, ...")
@click.option("--prefix", default="gen", show_default=True, help="Puzzle id prefix.")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to try the candidates in (same puzzles for any number).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Try them on a Dask cluster: tcp://HOST:8786, or 'local' (needs "
                   "durak-solver[cluster]).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Write the collection here (default: stdout).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@handles_errors
def generate_cmd(count: int, seed: int, players: int, rules_text: str, min_depth: int,
                 max_cards: int, method: str, max_solutions: int, tries: int, max_nodes: int,
                 max_depth: int, tags: tuple[str, ...], prefix: str, workers: int,
                 scheduler: str | None, out_path: str | None, as_json: bool) -> None:
    """Mine random endgames for puzzles: a unique solving move that greedy play misses.

    Writes a collection in the puzzle format, best-scored first.
    """
    rules = parse_rules(rules_text)
    if rules.teams and players != 4:
        raise OptionError("--players: teams=2v2 needs 4 players")
    if out_path:  # refuse an unwritable place before the mining, not after it
        check_target(out_path, option="--out")
    opts = GenOptions(count=count, seed=seed, players=players, rules=rules, min_depth=min_depth,
                      max_cards=max_cards, method=method, max_solutions=max_solutions,
                      tries=tries, prefix=prefix, max_nodes=max_nodes, max_depth=max_depth,
                      tags=tags)
    err = stderr_console()
    # picklable, for worker processes: a fresh solver per candidate (the node counts score)
    ctx = click.get_current_context(silent=True)
    backend = ((ctx.obj or {}).get("backend") if ctx else None) or "core"
    make_solver = functools.partial(Solver, tt_mb=TT_MB, backend=backend)
    t0 = time.perf_counter()
    if sys.stderr.isatty() and not as_json:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task("mining", total=opts.budget)

            def progress(i: int, n: int) -> None:
                bar.update(task, completed=i, description=f"mining ({n} found)")

            found, interrupted = _mine_puzzles(opts, make_solver, progress, workers, scheduler)
    else:
        found, interrupted = _mine_puzzles(opts, make_solver, None, workers, scheduler)
    seconds = time.perf_counter() - t0
    rules_part = f", rules {rules}" if rules.names() else ""
    intro = (f"Generated by `durak puzzle generate --count {count} --seed {seed} "
             f"--players {players} --min-depth {min_depth}"
             + (f" --rules {rules}" if rules.names() else "") + "`: "
             f"{players}-player endgames{rules_part} where exactly "
             f"{'one first move' if max_solutions == 1 else f'at most {max_solutions} first moves'}"
             " solves the task and the greedy player's move does not.")
    coll = as_collection(found, prefix, f"Generated puzzles (seed {seed})", intro)
    text = format_collection(coll)
    if out_path:  # whole or not at all: a temporary file beside it, then renamed
        write_whole(out_path, text, option="--out")
    if as_json:
        emit_json({"count": len(found), "seconds": round(seconds, 3), "out": out_path,
                   "puzzles": [{**f.puzzle.to_dict(), "score": f.score} for f in found]})
    elif not out_path:
        click.echo(text, nl=False)
    err.print(ngettext("found {n} of {count} puzzle in {seconds} s",
                       "found {n} of {count} puzzles in {seconds} s", count).format(
        n=len(found), count=count, seconds=number(seconds, 1))
        + (_(", written to {path}").format(path=out_path) if out_path else ""))
    if interrupted:
        click.echo("durak: interrupted", err=True)
        sys.exit(int(ExitCode.INTERRUPTED))
    if len(found) < count:
        click.echo(f"durak: budget: found {len(found)} of the {count} puzzles asked for "
                   f"within {opts.budget} candidate positions", err=True)
        sys.exit(int(ExitCode.BUDGET))
