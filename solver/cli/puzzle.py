"""`durak puzzle`: list, show, solve, check, train and generate puzzles.

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

from solver.cli.common import (ExitCode, emit_json, handles_errors, outcome_text, stderr_console,
                               stdout_console)
from solver.cli.language import lang_option
from solver.errors import Interrupted, MoveError, OptionError
from solver.game.cards import SUIT_SYMBOLS, card_name, cards_of
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.outcome import outcome_info
from solver.game.rules import parse_rules
from solver.game.state import NO_COVER, GameState
from solver.game.value import value_text
from solver.games.narration import result_text
from solver.i18n import N_, _, current, ngettext
from solver.notation.people import move_word, role_words
from solver.run.outfile import check_target, write_whole
from solver.puzzles.collection import (TASK_VALUES, Collection, Puzzle, check_puzzle, find_puzzle,
                                       format_collection, load_all, select)
from solver.puzzles import train
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
    return load_all(ctx.obj.get("dir") if ctx.obj else None)


# --------------------------------------------------------------- rendering

def _cards(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask)) or "-"


def board_lines(state: GameState) -> list[str]:
    """A plain text picture of a position: trump, each hand, the table, who moves."""
    lines = [_("Trump: {suit}").format(suit=f"{SUIT_SYMBOLS[state.trump]} ({'SHDC'[state.trump]})")
             + ("   " + _("rules: {rules}").format(rules=state.rules) if state.rules.names()
                else "")]
    mover = state.to_move
    for s in range(state.players):
        role = []
        if s == state.attacker:
            role.append("attacker")
        if s == state.defender:
            role.append("defender")
        if s == mover:
            role.append("to move")
        tag = f" ({role_words(role)})" if role else ""
        lines.append("  " + _("Seat {seat}").format(seat=s + 1) + f"{tag}: {_cards(state.hands[s])}")
    if state.table:
        pairs = " ".join(card_name(a) + ("/" + card_name(c) if c != NO_COVER else "")
                         for a, c in state.table)
        extra = "   " + _("(take said)") if state.take else ""
        lines.append("  " + _("Table: {pairs}").format(pairs=pairs) + extra)
    return lines


def _told_end(state: GameState) -> str:
    """How a game ended, in the player's words (``seat 2 is the durak``)."""
    info = outcome_info(state)
    return result_text(info) if info is not None else outcome_text(state)


def describe(state: GameState, move: Move) -> str:
    """A move in words: ``Seat 2 covers 6S with 8S``."""
    seat = state.to_move + 1
    k = int(move.kind)
    cards = ",".join(card_name(c) for c in move.cards)
    if k == 0:
        return _("Seat {seat} leads {cards}").format(seat=seat, cards=cards)
    if k == 1:
        return _("Seat {seat} covers {target} with {cards}").format(
            seat=seat, target=card_name(move.target), cards=cards)
    if k == 2:
        return _("Seat {seat} takes").format(seat=seat)
    if k in (3, 4):
        return (_("Seat {seat} transfers with {cards}").format(seat=seat, cards=cards)
                + (_(" (shown)") if k == 4 else ""))
    if k == 5:
        return _("Seat {seat} throws in {cards}").format(seat=seat, cards=cards)
    if k == 6:
        return _("Seat {seat} passes").format(seat=seat)
    return _("Seat {seat} plays {move}").format(seat=seat, move=move)


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


@puzzle.command("list")
@click.argument("collection", required=False)
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@click.pass_context
@handles_errors
def list_cmd(ctx: click.Context, collection: str | None, as_json: bool) -> None:
    """List the puzzles of every collection, or of COLLECTION (an id or a .toml file)."""
    colls = select(_collections(ctx), collection)
    if as_json:
        emit_json({"collections": [
            {**{k: v for k, v in c.to_dict().items() if k != "puzzles"},
             "puzzles": [{"id": p.id, "title": p.title, "task": p.task_text,
                          "plies": p.plies, "nodes": p.nodes, "tags": list(p.tags)}
                         for p in c.puzzles]} for c in colls]})
        return
    con = stdout_console()
    for c in colls:
        t = Table(title=f"{c.title} ({c.id}, {len(c.puzzles)} puzzles)", title_justify="left")
        for col in ("id", "title", "task", "plies", "tags"):
            t.add_column(col)
        for p in c.puzzles:
            t.add_row(p.id, p.title, p.task_text, "" if p.plies is None else str(p.plies),
                      ", ".join(p.tags))
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
    out = [f"{p.id}: {p.title}   [{p.collection}]", f"{p.task_text}.", ""]
    out += board_lines(state)
    out += ["", f"Position: {p.position}"]
    diff = []
    if p.plies is not None:
        diff.append(f"forced line {p.plies} plies")
    if p.nodes is not None:
        diff.append(f"{p.nodes} search nodes")
    if diff:
        out.append("Difficulty: " + ", ".join(diff))
    if p.tags:
        out.append("Tags: " + ", ".join(p.tags))
    if solution:
        out.append("Solution: " + " or ".join(p.solution))
        if p.pv:
            out.append("Line: " + " ".join(train.seat_line(state, list(p.pv))))
        if p.comment:
            out.append("Comment: " + p.comment)
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
    t = Table(title=f"{p.id}: {p.title} -- {p.task_text}", title_justify="left")
    t.add_column("")
    t.add_column("stored")
    t.add_column("solver")
    t.add_row("value", "/".join(v.text for v in TASK_VALUES[p.task]), value_text(an.value))
    t.add_row("solution", " ".join(p.solution), " ".join(res.solution))
    t.add_row("line", " ".join(p.pv), " ".join(an.pv))
    t.add_row("plies", "" if p.plies is None else str(p.plies),
              "" if an.distance is None else str(an.distance))
    t.add_row("nodes", "" if p.nodes is None else str(p.nodes), str(an.nodes))
    con = stdout_console()
    con.print(t)
    mt = Table(title="every move", title_justify="left")
    mt.add_column("move")
    mt.add_column("value")
    mt.add_column("plies")
    for m in an.moves:
        note = " (greedy)" if m.move == res.greedy else ""
        mt.add_row(m.move + note, value_text(m.value), "" if m.distance is None else str(m.distance))
    con.print(mt)
    if res.ok:
        con.print("The solver agrees with the stored solution; the greedy move "
                  f"{res.greedy} fails.")
    else:
        for prob in res.problems:
            con.print(f"MISMATCH: {prob}")
        ctx.exit(1)


@puzzle.command("check")
@click.argument("collection", required=False)
@click.option("--id", "ids", multiple=True, help="Check only this puzzle (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@click.pass_context
@handles_errors
def check_cmd(ctx: click.Context, collection: str | None, ids: tuple[str, ...],
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
    if show_bar:
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
                click.echo(f"MISMATCH {r.puzzle.id}: {prob}")
        per: dict[str, list[int]] = {}
        for r in results:
            per.setdefault(r.puzzle.collection, [0, 0])
            per[r.puzzle.collection][0] += 1
            per[r.puzzle.collection][1] += 0 if r.ok else 1
        for cid, (n, nb) in per.items():
            click.echo(f"{cid}: {n} puzzles, {n - nb} ok, {nb} failed")
        nodes = sum(r.nodes for r in results)
        click.echo(f"checked {len(results)} puzzles in {seconds:.1f} s ({nodes} nodes): "
                   f"{len(results) - len(bad)} ok, {len(bad)} failed")
    if bad:
        sys.exit(1)


# ------------------------------------------------------------------ train

class _Quit(Exception):
    pass


def _read(prompt: str) -> str:
    """One line from the user; a terminal gets line editing, a pipe is echoed."""
    if sys.stdin.isatty():
        try:
            return input(prompt).strip()
        except EOFError:
            click.echo("")
            raise _Quit() from None
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        click.echo("")
        raise _Quit()
    click.echo(line.rstrip("\n"))  # echo piped input so a transcript reads well
    return line.strip()


SUIT_NAMES = (N_("a spade"), N_("a heart"), N_("a diamond"), N_("a club"))


def _hint_text(p: Puzzle, state: GameState, good: list[str], level: int) -> str:
    """First a nudge (what kind of move, which suit), then the move itself."""
    if level > 0:
        return _("Hint: {moves} works here.").format(moves=_(" or ").join(good))
    nudges = []
    for m in good:
        mv = Move.parse(m, state.rules.deck)
        k = int(mv.kind)
        c = mv.cards[0] if mv.cards else -1
        kind_of = (_("a trump") if c >= 0 and c // 13 == state.trump
                   else _(SUIT_NAMES[c // 13]) if c >= 0 else "")
        if k == 0:
            nudges.append(_("lead several cards at once") if len(mv.cards) > 1
                          else _("lead {kind}").format(kind=kind_of))
        elif k == 1:
            nudges.append(_("cover {card} with {kind}").format(card=card_name(mv.target),
                                                               kind=kind_of))
        elif k == 2:
            nudges.append(_("ask yourself whether you must cover at all"))
        elif k in (3, 4):
            nudges.append(_("think about a transfer"))
        elif k == 5:
            nudges.append(_("throw in {kind}").format(kind=kind_of))
        else:
            nudges.append(_("think about passing"))
    text = _("Hint: {nudges}.").format(nudges=_(" or ").join(dict.fromkeys(nudges)))
    return text + " " + _("Type hint again for the move.")


def _train_one(p: Puzzle, solver: Any) -> bool:
    """Play one puzzle at the prompt; True when solved without a mistake."""
    state = p.state()
    click.echo("")
    click.echo(f"== {p.id}   [{p.collection}]")  # the title, which may give the idea away,
    click.echo(f"{p.task_text}.")                  # comes after the answer
    clean = True
    hints = 0
    shown = None
    while not state.is_over:
        if not train.mine(p, state):
            reply = train.best_reply(p, state, solver)
            click.echo(f"{describe(state, reply)}.")
            state = play(state, reply)
            continue
        if state is not shown:
            for line in board_lines(state):
                click.echo(line)
            shown = state
        legal = {str(m): m for m in legal_moves(state)}
        text = _read(_("Seat {seat} to move> ").format(seat=state.to_move + 1))
        low = text.lower()
        if low in ("quit", "q", "exit"):
            raise _Quit()
        if low in ("hint", "h", "?"):
            good, _an = train.good_moves(p, state, solver)
            click.echo(_hint_text(p, state, good, hints))
            hints += 1
            clean = False
            continue
        if low in ("moves", "m"):
            click.echo(_("Legal moves: {moves}").format(moves=" ".join(legal)))
            continue
        if low in ("show", "board", "s"):
            shown = None
            continue
        if not text:
            continue
        try:
            mv = Move.parse(move_word(text), state.rules.deck)
        except MoveError as e:
            click.echo(_("Not a move: {error}. Type moves, hint, show or quit.").format(error=e))
            continue
        name = str(mv)
        if name not in legal:
            click.echo(_("{move} is not legal here. Legal moves: {moves}").format(
                move=name, moves=" ".join(legal)))
            continue
        j = train.judge(p, state, name, solver)
        if not j.ok:
            clean = False
            words = j.words(p.task)
            click.echo(ngettext("Wrong: after {move} {words} against best play ({n} ply).",
                                "Wrong: after {move} {words} against best play ({n} plies).",
                                j.distance).format(move=name, words=words, n=j.distance)
                       if j.distance is not None else
                       _("Wrong: after {move} {words} against best play.").format(move=name,
                                                                                   words=words))
            if j.refutation:
                tail = (" -- " + _told_end(j.end) if j.end is not None and j.end.is_over else "")
                click.echo(_("Refutation: {line}").format(line=" ".join(j.refutation)) + tail)
            click.echo(_("Try again (hint shows a move that works, quit stops)."))
            continue
        click.echo(_("{move}: correct.").format(move=name) if len(j.good) == 1
                   else _("{move}: good.").format(move=name))
        hints = 0
        state = play(state, legal[name])
    click.echo(_("Game over: {how}").format(how=_told_end(state)) + ".")
    if clean:
        click.echo(_("Solved!"))
    else:
        click.echo(_("Finished, with help or a mistake on the way."))
    click.echo(f"({p.id}: {p.text('title', current())})")
    if p.comment:
        click.echo(p.text("comment", current()))
    return clean


@puzzle.command("train")
@click.argument("collection", required=False)
@click.option("--id", "puzzle_id", default=None, help="Start with this puzzle (and play only it).")
@click.pass_context
@lang_option
@handles_errors
def train_cmd(ctx: click.Context, collection: str | None, puzzle_id: str | None) -> None:
    """Solve puzzles at a prompt: type your moves, the solver answers for the others.

    At the prompt: a move (6S, 6S/8S, take, >6H, +8C, pass), 'hint', 'moves',
    'show' or 'quit'.  A wrong move gets the refuting line; you may try again.
    """
    colls = select(_collections(ctx), collection)
    if puzzle_id is not None:
        puzzles = [find_puzzle(colls, puzzle_id)]
    else:
        puzzles = [p for c in colls for p in c.puzzles]
    if not puzzles:
        raise OptionError("COLLECTION: no puzzles to train on")
    solver = _solver()
    solved = tried = 0
    try:
        for p in puzzles:
            tried += 1
            solved += _train_one(p, solver)
    except _Quit:
        pass
    click.echo(ngettext("Solved {solved} of {n} puzzle cleanly.",
                        "Solved {solved} of {n} puzzles cleanly.", tried).format(solved=solved,
                                                                                 n=tried))


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
    err.print(f"found {len(found)} of {count} puzzles in {seconds:.1f} s"
              + (f", written to {out_path}" if out_path else ""))
    if interrupted:
        click.echo("durak: interrupted", err=True)
        sys.exit(int(ExitCode.INTERRUPTED))
    if len(found) < count:
        click.echo(f"durak: budget: found {len(found)} of the {count} puzzles asked for "
                   f"within {opts.budget} candidate positions", err=True)
        sys.exit(int(ExitCode.BUDGET))
