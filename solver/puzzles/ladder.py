"""A ladder of bots tries every puzzle: the answers the puzzle ratings are fitted to.

No person has tried the mined puzzles, so their ratings come from bots of known,
different strength (docs/lab/puzzle-ratings.md): ``random`` (any legal move),
``greedy`` (a sampled first move -- the greedy one fails every puzzle by construction --,
then :func:`solver.policy.bots.greedy_move`) and the engine's anytime
estimate (UCT with greedy playouts, :meth:`Solver.estimate`) at a few playout
budgets, without the proof search at its leaves (``leaf_cards=0``) and without a
table, so that a small budget is a weak player.  Each bot samples among the moves
it rates best where it has a choice, from a seed per (bot, puzzle, attempt).

An attempt follows the puzzle's line; at each of the hero's turns the bot moves.
It solved the puzzle when every hero move it made keeps the task: the first
must be the solution move, a later one may differ from the line if the exact
solver says it still fulfils the task (the line then goes on from there).
"""
from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Any

from solver.errors import BudgetExceeded
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.state import GameState
from solver.policy.bots import greedy_move
from solver.puzzles.collection import TASK_VALUES, Puzzle
from solver.run.executor import Executor, chunk_size, chunked
from solver.search import Solver

#: The ladder, weakest first: (name, engine playouts per move, 0 for no engine).
BOTS: tuple[tuple[str, int], ...] = (
    ("random", 0), ("greedy", 0), ("uct-4", 4), ("uct-16", 16), ("uct-64", 64),
    ("uct-256", 256), ("uct-1024", 1024), ("uct-4096", 4096),
)
#: The most plies an attempt follows (a line the solver extends could cycle, R23).
MAX_PLIES = 200


@dataclass(frozen=True)
class Attempt:
    """One bot's try at one puzzle."""

    puzzle: str
    bot: str
    attempt: int
    solved: bool
    hero_moves: int


def _seed(*parts: Any) -> int:
    return zlib.crc32("|".join(map(str, parts)).encode())


def bot_move(name: str, playouts: int, state: GameState, hero: int, rng: random.Random,
             solver: Solver, first: bool = False) -> str:
    """The move ``name`` plays for the seat to move (a move text)."""
    moves = legal_moves(state)
    if name == "random":
        return str(moves[rng.randrange(len(moves))])
    if name == "greedy":  # the greedy move fails every puzzle (the checker sees to it):
        if first:         # this bot samples its first move, then plays greedily
            return str(moves[rng.randrange(len(moves))])
        return str(greedy_move(state))
    est = solver.estimate(state, hero=hero + 1, iterations=playouts, seed=rng.randrange(1 << 30),
                          leaf_cards=0, use_table=False)
    best = max(m.score for m in est.moves)
    top = sorted(m.move for m in est.moves if m.score >= best - 1e-9)
    return top[rng.randrange(len(top))]


def _by_text(state: GameState, text: str) -> Move:
    return next(m for m in legal_moves(state) if str(m) == text)


def attempt(p: Puzzle, name: str, playouts: int, k: int, solver: Solver) -> Attempt:
    """Bot ``name`` tries puzzle ``p`` once (attempt number ``k``)."""
    rng = random.Random(_seed(name, p.id, k))
    state = p.state()
    hero = p.hero - 1
    line = list(p.pv)
    i = 0
    made = 0
    good = TASK_VALUES[p.task]
    while not state.is_over and i < MAX_PLIES:
        if state.to_move != hero:
            if i >= len(line):  # the line ran out: the solver answers for the others
                line += [str(m) for m in solver.solve(state, hero=p.hero).pv][:1]
                if i >= len(line):
                    break
            state = play(state, _by_text(state, line[i]))
            i += 1
            continue
        m = bot_move(name, playouts, state, hero, rng, solver, first=made == 0)
        made += 1
        if made == 1 and m not in p.solution:
            return Attempt(p.id, name, k, False, made)
        if i >= len(line) or m != line[i]:
            after = play(state, _by_text(state, m))
            if after.is_over:
                result = after.outcome()
                out = result[hero] if result is not None else 0
                ok = out >= 0 if p.task == "avoid-durak" else out == (1 if p.task == "win" else 0)
                return Attempt(p.id, name, k, ok, made)
            try:
                res = solver.solve(after, hero=p.hero, distance=False, pv=True)
            except BudgetExceeded:
                return Attempt(p.id, name, k, False, made)
            if res.value not in good:
                return Attempt(p.id, name, k, False, made)
            line = line[:i] + [m] + [str(x) for x in res.pv]
        state = play(state, _by_text(state, m))
        i += 1
    return Attempt(p.id, name, k, True, made)


def run_chunk(puzzles: list[Puzzle], attempts: int = 1) -> list[Attempt]:
    """Every bot of :data:`BOTS` on every puzzle, ``attempts`` tries each (what a worker runs)."""
    solver = Solver(tt_mb=16)
    out = []
    for p in puzzles:
        for name, playouts in BOTS:
            for k in range(attempts):
                out.append(attempt(p, name, playouts, k, solver))
    return out




#: Tries per bot and puzzle in the shipped ratings.
ATTEMPTS = 6


def run_ladder(puzzles: list[Any], workers: int = 1, scheduler: str | None = None,
               attempts: int = ATTEMPTS) -> dict[str, list[int]]:
    """Every bot at every puzzle: ``{puzzle id: [solved per bot of BOTS]}``."""
    out: dict[str, list[int]] = {p.id: [0] * len(BOTS) for p in puzzles}
    index = {name: i for i, (name, _n) in enumerate(BOTS)}
    parts = chunked(puzzles, chunk_size(len(puzzles), workers, most=16))
    with Executor(workers, scheduler, tasks=len(parts)) as ex:
        for _ci, res in ex.map_unordered(run_chunk, ((part, attempts) for part in parts)):
            for a in res:
                out[a.puzzle][index[a.bot]] += int(a.solved)
    return out


def results_of(ladder: dict[str, list[int]], attempts: int = ATTEMPTS
               ) -> dict[tuple[str, str], tuple[int, int]]:
    """The ladder's counts as :func:`solver.puzzles.difficulty.fit` takes them."""
    return {(name, pid): (ks[i], attempts) for pid, ks in ladder.items()
            for i, (name, _n) in enumerate(BOTS)}


__all__ = ["ATTEMPTS", "BOTS", "Attempt", "attempt", "bot_move", "results_of", "run_chunk",
           "run_ladder"]
