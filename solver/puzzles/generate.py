"""Mining endgame puzzles: ``durak puzzle generate``.

Candidates come from two sources, both driven by one injected
``random.Random`` so a seed always gives the same puzzles:

* ``play``: deal a game (:func:`solver.game.deal.new_game`) and play it forward with a
  mix of greedy and random moves until the pile is empty and few cards are left;
  every position after that, with the hero to move, is a candidate.
* ``sample``: deal small hands directly from a few ranks (so ranks repeat and
  throw-ins and transfers happen), with a random trump and attacker, then play
  zero to a few random moves into the bout.

A candidate becomes a puzzle when the exact solver finds that the seat to move
can fulfil the task (win; draw where it cannot win; avoid being the durak with
3+ players), exactly ``max_solutions`` or fewer first moves do it, the greedy
player's move (:func:`solver.policy.bots.greedy_move`) is not one of them, and the
forced line is at least ``min_depth`` plies long.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from solver.errors import BudgetExceeded, Interrupted, OptionError
from solver.game.cards import DECK_LOW_RANK, cards_of, count, deck_mask, make_card
from solver.game.deal import hands_of_sizes, new_game
from solver.game.movegen import legal_moves, play
from solver.game.moves import Kind, Move
from solver.game.rules import Rules
from solver.game.state import GameState
from solver.game.value import Value
from solver.notation import format_position
from solver.policy.bots import greedy_move
from solver.puzzles.collection import TASK_VALUES, Collection, Puzzle, winning_set
from solver.run.executor import Executor, chunked
from solver.search import Solver

#: Candidate positions tried per puzzle asked for when ``GenOptions.tries`` is 0.  About
#: one candidate in 35 makes a two-player puzzle and one in 90 a three-player one
#: (seeds 0-5, five puzzles each: up to 68 and 168 candidates a puzzle), so a budget of
#: 60 left small requests short; a candidate takes milliseconds.
TRIES_PER_PUZZLE = 300


@dataclass
class GenOptions:
    count: int = 10
    seed: int = 0
    players: int = 2
    rules: Rules = Rules()
    min_depth: int = 5
    max_cards: int = 10          # cards in all hands (and on the table) together
    method: str = "mixed"        # play | sample | mixed
    max_solutions: int = 1
    tries: int = 0               # candidate positions to solve; 0: TRIES_PER_PUZZLE per puzzle
    prefix: str = "gen"
    max_nodes: int = 300_000     # skip candidates whose search needs more nodes (0 = no cap)
    max_depth: int = 0           # longest forced line in plies (0 = no cap)
    tags: tuple[str, ...] = ()   # keep only puzzles with all these tags (see auto_tags)

    @property
    def budget(self) -> int:
        """The most candidate positions to try: ``tries``, or its default."""
        return self.tries or TRIES_PER_PUZZLE * self.count


def _table_cards(state: GameState) -> int:
    return count(state.table_mask)


def _cards_in_play(state: GameState) -> int:
    return sum(state.hand_size(s) for s in range(state.players)) + _table_cards(state)


def _random_or_greedy(state: GameState, rng: random.Random, p_random: float) -> Move:
    moves = legal_moves(state)
    if rng.random() < p_random:
        return moves[rng.randrange(len(moves))]
    return greedy_move(state)


def played_candidates(opts: GenOptions, rng: random.Random) -> Iterator[tuple[int, GameState]]:
    """Positions from games dealt and played forward to a small empty-pile endgame.

    Yields (game number, position): a game gives at most one puzzle.
    """
    game = 0
    while True:
        game += 1
        state = new_game(opts.players, opts.rules, rng=rng)
        p_random = rng.choice((0.1, 0.3, 0.5))
        plies = 0
        while not state.is_over and plies < 600:
            if state.pile == 0 and _cards_in_play(state) <= opts.max_cards:
                break
            state = play(state, _random_or_greedy(state, rng, p_random))
            plies += 1
        if state.is_over or state.pile > 0:
            continue
        # a few positions of this endgame, a random stride apart
        for _ in range(rng.randint(1, 3)):
            if state.is_over:
                break
            yield game, state
            for _ in range(rng.randint(1, 3)):
                if state.is_over:
                    break
                state = play(state, _random_or_greedy(state, rng, 0.5))


def sampled_candidates(opts: GenOptions, rng: random.Random) -> Iterator[tuple[int, GameState]]:
    """Small hands dealt directly from a few ranks, with a random trump and attacker."""
    game = 0
    deck = opts.rules.deck
    low = DECK_LOW_RANK[deck]
    n = opts.players
    while True:
        game -= 1
        total = rng.randint(max(2 * n, opts.max_cards - 4), opts.max_cards)
        n_ranks = rng.randint(2, max(2, min(6, total // 2)))
        ranks = rng.sample(range(low, 15), n_ranks)
        pool = [make_card(r, s) for r in ranks for s in range(4)]
        rng.shuffle(pool)
        if total > len(pool):
            total = len(pool)
        cards = pool[:total]
        sizes = [1] * n
        for _ in range(total - n):
            sizes[rng.randrange(n)] += 1
        hands = hands_of_sizes(cards, sizes)
        trump = rng.randrange(4)
        attacker = rng.randrange(n)
        used = 0
        for h in hands:
            used |= h
        state = GameState(rules=opts.rules, trump=trump, hands=tuple(hands), attacker=attacker,
                          defender=-1, out=deck_mask(deck) & ~used)
        state = state.replace(defender=state.defender_for(attacker))
        if state.defender < 0:
            continue
        for _ in range(rng.choice((0, 0, 1, 2, 3))):
            if state.is_over:
                break
            moves = legal_moves(state)
            state = play(state, moves[rng.randrange(len(moves))])
        if not state.is_over:
            yield game, state


def candidates(opts: GenOptions, rng: random.Random) -> Iterator[tuple[int, GameState]]:
    """(source game, position) pairs; played games count up from 1, sampled deals down."""
    if opts.method == "play":
        yield from played_candidates(opts, rng)
    elif opts.method == "sample":
        yield from sampled_candidates(opts, rng)
    elif opts.method == "mixed":
        a, b = played_candidates(opts, rng), sampled_candidates(opts, rng)
        while True:
            yield next(a) if rng.random() < 0.5 else next(b)
    else:
        raise OptionError(f"--method: unknown method {opts.method!r} (known: play, sample, mixed)")


def auto_tags(state: GameState, solution: tuple[str, ...], pv: list[str], task: str) -> list[str]:
    """Tags read off the position and the forced line."""
    tags: list[str] = []
    if state.players >= 3:
        tags.append(f"{state.players} players")
    if task == "draw":
        tags.append("draw")
    if any(m.startswith(">") for m in pv) or any(
            m.kind in (Kind.TRANSFER, Kind.SHOW) for m in legal_moves(state)):
        tags.append("transfer")
    if any(m.startswith("+") for m in pv):
        tags.append("throw-in")
    if "take" in pv:
        tags.append("take")
    if any("," in m for m in solution):
        tags.append("multi-card lead")
    if state.to_move == state.defender and state.table:
        tags.append("defence")
    trumps = [c for s in range(state.players) for c in cards_of(state.hands[s])
              if c // 13 == state.trump]
    if len(trumps) == 1:
        tags.append("last trump")
    tags.append("generated")
    return tags


def score(plies: int, nodes: int, n_legal: int, cards: int) -> float:
    """Higher is more worth solving: long forced lines, many tempting moves, few cards."""
    return round(plies + 1.5 * (n_legal - 1) + math.log2(nodes + 1) - 0.5 * cards, 2)


@dataclass
class Found:
    puzzle: Puzzle
    score: float


def try_position(state: GameState, opts: GenOptions, make_solver: Callable[[], Any],
                 format_position: Callable[[GameState], str]) -> Found | None:
    """The puzzle this position makes, or None if it is not one."""
    moves = legal_moves(state)
    if len(moves) < 2:
        return None
    holding = sum(1 for s in range(state.players) if state.hand_size(s) > 0)
    if state.players >= 3 and holding < 3:
        return None  # a multi-player puzzle keeps at least three seats in play
    hero = state.to_move
    greedy = str(greedy_move(state))
    budget = {"max_nodes": opts.max_nodes} if opts.max_nodes else {}
    solver = make_solver()
    try:
        an = solver.analyse(state, hero=hero + 1, **budget)
    except BudgetExceeded:
        return None
    if not getattr(an, "exact", True):
        return None
    if state.players >= 3:
        task = "avoid-durak"
        if an.value == Value.LOSS:
            return None
    elif an.value == Value.WIN:
        task = "win"
    elif an.value == Value.DRAW:
        task = "draw"
    else:
        return None
    assert an.value in TASK_VALUES[task]
    sol = winning_set(an.moves, task, an.value)
    if not sol or len(sol) > opts.max_solutions or greedy in sol:
        return None
    solver = make_solver()
    try:
        res = solver.solve(state, hero=hero + 1, distance=True, pv=True, **budget)
    except BudgetExceeded:
        return None
    plies = res.distance if res.distance is not None else len(res.pv)
    if plies < opts.min_depth:
        return None
    if opts.max_depth and plies > opts.max_depth:
        return None
    pv = [str(m) for m in res.pv]
    if pv and pv[0] not in sol:
        return None
    end = state
    for m in res.pv:
        end = play(end, next(x for x in legal_moves(end) if str(x) == str(m)))
    if not end.is_over:
        return None  # a line that ends in a repetition (R23) makes a poor puzzle
    tags = auto_tags(state, sol, pv, task)
    if any(t not in tags for t in opts.tags):
        return None
    text = format_position(state)
    cards = _cards_in_play(state)
    p = Puzzle(id="", title="", position=text, task=task, hero=hero + 1, solution=sol,
               pv=tuple(pv), nodes=int(res.nodes), plies=int(plies),
               tags=tuple(tags))
    return Found(p, score(plies, int(res.nodes), len(moves), cards))


def _try_chunk(states: list[GameState], opts: GenOptions,
               make_solver: Callable[[], Any]) -> list[Found | None]:
    """:func:`try_position` on each state (what a worker runs)."""
    return [try_position(st, opts, make_solver, format_position) for st in states]


def _fresh_solver() -> Any:
    return Solver(tt_mb=16)


def generate(opts: GenOptions, make_solver: Callable[[], Any] | None = None,
             progress: Callable[[int, int], None] | None = None, workers: int = 1,
             scheduler: str | None = None) -> list[Found]:
    """Mine up to ``opts.count`` puzzles; the best by :func:`score`, in score order.

    ``workers`` local processes or a Dask ``scheduler`` (:mod:`solver.run.executor`)
    try the candidates in blocks; the candidates are taken in order, so the
    puzzles are the same for any of them (``make_solver`` must then be
    picklable, e.g. a class or a ``functools.partial``).  Every candidate is
    solved with a fresh solver, so its node count (part of the score) does
    not depend on what ran before.  Ctrl-C stops the mining:
    :class:`~solver.errors.Interrupted` is raised with the puzzles found so
    far (finished as they would have been) as its ``partial``.
    """
    make_solver = make_solver or _fresh_solver
    rng = random.Random(opts.seed)
    tries = opts.budget
    found: list[Found] = []
    seen: set[str] = set()
    used_games: set[int] = set()
    want = opts.count
    gen = candidates(opts, rng)
    try:
        i = 0
        with Executor(workers, scheduler, tasks=tries) as ex:
            chunk = 1 if ex.kind == "inline" else 4
            block = chunk * (1 if ex.kind == "inline" else 4 * ex.workers)
            while i < tries and len(found) < want:
                batch = [next(gen) for _ in range(min(block, tries - i))]
                todo = [k for k, (game, _) in enumerate(batch) if game not in used_games]
                parts = chunked(todo, chunk)
                tried: dict[int, Found | None] = {}
                jobs = (([batch[k][1] for k in part], opts, make_solver) for part in parts)
                for ci, res in ex.map_unordered(_try_chunk, jobs):
                    tried.update(zip(parts[ci], res))
                for k, (game, _) in enumerate(batch):
                    i += 1
                    if progress:
                        progress(i, len(found))
                    if game in used_games:
                        continue
                    f = tried.get(k)
                    if f is None or f.puzzle.position in seen:
                        continue
                    seen.add(f.puzzle.position)
                    used_games.add(game)
                    found.append(f)
                    if len(found) >= want:
                        break
    except KeyboardInterrupt:  # Ctrl-C: what was found goes with the interruption
        raise Interrupted(_finish(found, opts)) from None
    return _finish(found, opts)


def _finish(found: list[Found], opts: GenOptions) -> list[Found]:
    """The puzzles found, best first, with their ids and titles."""
    found.sort(key=lambda f: (-f.score, f.puzzle.position))
    out = []
    for k, f in enumerate(found, 1):
        p = f.puzzle
        kind = {"win": "wins", "draw": "draws", "avoid-durak": "escapes"}[p.task]
        title = f"Seat {p.hero} {kind} in {p.plies} plies"
        out.append(Found(Puzzle(**{**p.__dict__, "id": f"{opts.prefix}-{k:03d}", "title": title}),
                         f.score))
    return out


def as_collection(found: list[Found], cid: str, title: str, introduction: str) -> Collection:
    return Collection(id=cid, title=title, introduction=introduction,
                      puzzles=[f.puzzle for f in found])


__all__ = ["TRIES_PER_PUZZLE", "GenOptions", "Found", "generate", "as_collection", "score", "auto_tags"]
