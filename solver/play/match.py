"""Matches between policies: whole games from seeded deals, seats rotated.

Each deal is played once per seat with policy A in that seat and policy B in
every other seat (two players: the same deal from both sides).  Every policy
is shown only its seat's view (:class:`solver.hints.knowledge.PublicTracker`): its
own hand, the public cards, hand sizes, the face-up trump.  Results are from
A's side: win / draw / loss (R20; with 3+ players a loss means A is the durak).

A policy that sets ``wants_observations`` is also given the other seats'
past decisions (:meth:`PublicTracker.observations`, public knowledge) as the
keyword ``observations``: the hint bot weighs its deals by them
(:mod:`solver.hints.inference`) under the name ``hint-inf``; ``hint``, the
default, is the same bot without (docs/hint.md: the weighting measured no gain).

Everything is seeded: the deal of game ``i`` comes from ``(seed, i)``, each
policy's random generator from ``(seed, i, rotation, seat)``, so a match gives
the same games with any number of worker processes.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from solver.errors import OptionError
from solver.game.deal import new_game
from solver.game.movegen import legal_moves
from solver.game.moves import Move
from solver.game.rules import Rules
from solver.game.state import GameState
from solver.games import Game
from solver.hints import MAX_UCT_ITERS, HintConfig, default_samples, hint_knowledge
from solver.hints.knowledge import HandFact, Observation, PublicTracker, knowledge_of
from solver.hints.stats import wilson
from solver.play.sprt import Sprt, SprtState
from solver.policy.bots import GreedyPolicy, Policy, RandomPolicy
from solver.policy.model import load_model
from solver.run.executor import Executor, chunk_size, chunked

#: A game longer than this many moves is stopped and counted a draw (R23).
MAX_MOVES = 4000
#: The most games one match may be asked for (each keeps a small record).
MAX_GAMES = 1_000_000
#: The hint bot's default budget: deals per decision, the hint engine's default
#: by the number of players (None; docs/hint.md).
BOT_HINT_SAMPLES: int | None = None
#: ``hint-fast``'s deals per decision whatever the number of players: the
#: engine's default before the tree search and the larger defaults.
FAST_SAMPLES = 128
#: With inference, the hint bot draws up to this many times its deals until their
#: effective number (Kish) is its budget (docs/hint.md).
INFERENCE_OVERSAMPLE = 1
#: Decision times are kept as counts in log-spaced bins (a quarter octave each,
#: from 1 microsecond): a match of a million games reports its median and 99th
#: percentile within 19% without keeping every time.
TIME_BINS_PER_OCTAVE = 4
TIME_BINS = 112


def time_bin(seconds: float) -> int:
    """The bin of a decision that took ``seconds``."""
    if seconds <= 1e-6:
        return 0
    return min(TIME_BINS - 1, int(math.log2(seconds / 1e-6) * TIME_BINS_PER_OCTAVE))


def time_bin_top(b: int) -> float:
    """The upper edge of bin ``b`` in seconds (what a quantile in it reports)."""
    return 1e-6 * 2.0 ** ((b + 1) / TIME_BINS_PER_OCTAVE)


#: The policies a match knows by name.  ``hint-uct``: today's default engine under
#: a name of its own (the hint engine with greedy playouts, whatever the default
#: becomes); ``hint-learn``: the hint engine with the learned playout policy
#: (the shipped model; ``hint-learn=FILE`` another model file); ``hint-fast-learn``:
#: ``hint-fast`` (one playout per move and deal) with the learned playouts; ``learned``: the
#: learned model's best move with no search (``learned=FILE``; docs/learn.md).
POLICY_NAMES = ("random", "greedy", "hint", "hint-inf", "hint-fast", "strong", "hint-uct",
                "hint-learn", "hint-fast-learn", "learned", "hint-ismcts", "hint-ismcts-all",
                "hint-exact4", "hint-exact6", "hint-utility")
#: ``hint-ismcts``: the engine with the information-set search (``ext/ismcts.pxi``) in
#: place of the search of each deal while the pile holds :data:`ISMCTS_PILE` cards or
#: more (the opening, where strategy fusion is worst); ``hint-ismcts-all``: at any pile
#: (docs/lab/strength.md measures the first).  ``hint-exact4``: deals whose pile holds up to
#: four cards solved exactly with the sampled pile order (the last draws, where the
#: census finds the lost games' chance falling), two by default; ``hint-exact6``: up
#: to six (issue 71 measures it against the default, docs/lab/double-dummy.md).
ISMCTS_PILE = 12
ENGINE_CONFIGS: dict[str, dict[str, Any]] = {
    "hint": {}, "hint-ismcts": {"ismcts": True, "ismcts_pile": ISMCTS_PILE},
    "hint-ismcts-all": {"ismcts": True}, "hint-exact4": {"exact_pile": 4},
    "hint-exact6": {"exact_pile": 6},
    # the engine before 2026-12-07: the highest utility, the greedy player's move kept
    # within one standard error, the deals weighed by the facts (issue 68 measures
    # the chance's ranking against it)
    "hint-utility": {"ranking": "utility", "fact_draws": "weigh"}}
#: ``hint@DEALS`` or ``hint@DEALSxITERATIONS``: the default engine at a fixed amount of
#: work per decision -- DEALS deals, and with two players ITERATIONS tree-search
#: iterations per deal (default the engine's own) -- for budgets measured as work
#: rather than seconds, which a loaded machine distorts (docs/lab/strength.md);
#: the engines of :data:`ENGINE_CONFIGS` take the same ``@DEALS[xITERATIONS]``.
BUDGET_POLICY = "hint@"
#: ``strong``: the hint engine at four times its default deals and, with two
#: players, twice its tree-search iterations per deal (about eight times the
#: work of ``hint`` per decision): the strongest budget `durak play` offers.
STRONG_DEALS_FACTOR = 4
STRONG_ITERATIONS = 600


class HintPolicy:
    """The hint engine as a player: the recommended move at a fixed budget.

    With ``inference`` (``hint-inf``) it weighs its deals by the likelihood of
    the other seats' past moves, passed by :func:`play_game` as
    ``observations`` (:mod:`solver.hints.inference`; ``model`` overrides the
    opponent model; ``oversample`` as in :func:`~solver.hints.advise.hint_knowledge`);
    without, or without observations, every deal counts alike.  With ``facts``
    (not ``hint-fast``) :func:`play_game` also passes the seats caught leaving the
    greedy player's move (``not_greedy``,
    :meth:`~solver.hints.knowledge.PublicTracker.not_greedy`), against whom the
    engine weighs its greedy playout less.
    """

    def __init__(self, samples: int | None = BOT_HINT_SAMPLES, time: float | None = None,
                 config: Any = None, inference: bool = False, model: Any = None,
                 oversample: int = INFERENCE_OVERSAMPLE, name: str | None = None,
                 facts: bool = True, model_trust: float = 0.0, deals_factor: int = 1):
        self.samples = samples
        self.deals_factor = deals_factor
        self.facts = facts
        self.model_trust = model_trust if facts else 0.0
        self.time = time
        self.config = config
        self.inference = inference
        self.model = model
        self.oversample = oversample
        self.name = name or ("hint-inf" if inference else "hint")

    @property
    def wants_observations(self) -> bool:
        return self.inference

    @property
    def wants_facts(self) -> bool:
        return self.facts

    def choose(self, state: GameState, seat: int, rng: random.Random,
               observations: Sequence[Observation] | None = None,
               facts: Sequence[HandFact] = (), not_greedy: Sequence[int] = ()) -> Move:
        moves = legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        k = knowledge_of(state, seat)  # the view: opponents' unknown cards are hidden
        if facts and self.facts:
            k = replace(k, facts=tuple(facts))
        if not_greedy and self.facts:
            k = replace(k, not_greedy=tuple(not_greedy))
        samples = self.samples
        if samples is None and self.deals_factor != 1:
            samples = self.deals_factor * default_samples(state.players)
        res = hint_knowledge(k, samples=samples, seed=rng.getrandbits(32), max_time=self.time,
                             config=self.config,
                             observations=observations if self.inference else None,
                             model=self.model, oversample=self.oversample)
        return Move.parse(res.best, state.rules.deck)


class LearnedPolicy:
    """The learned move-scoring model's best move on the seat's view, no search
    (:meth:`solver.policy.model.LinearModel.choose`)."""

    def __init__(self, path: str = "shipped", name: str = "learned"):
        self.model = load_model(path)
        self.name = name

    def choose(self, state: GameState, seat: int, rng: random.Random) -> Move:
        return legal_moves(state)[self.model.choose(state)]


def make_policy(name: str, hint_samples: int | None = BOT_HINT_SAMPLES,
                hint_time: float | None = None) -> Policy:
    """``random``, ``greedy``, ``hint`` (at the given budget; default deals by the
    number of players), ``hint-inf`` (the same, weighing its deals by the
    opponents' past moves) or ``hint-fast`` (128 deals whatever the number of
    players, one greedy playout per move and deal: the engine before three
    players got more deals and two players a tree search, for matches against it)
    or ``strong`` (:data:`STRONG_DEALS_FACTOR` times the deals, :data:`STRONG_ITERATIONS`
    iterations per deal), ``hint-uct`` (the engine with greedy playouts), ``hint-learn``
    or ``hint-learn=FILE`` (the engine with the learned playouts of the shipped model or
    of FILE), ``hint-fast-learn[=FILE]`` (``hint-fast`` with the learned playouts),
    ``learned`` or ``learned=FILE`` (the model's best move, no search)."""
    if name == "random":
        return RandomPolicy()
    if name == "greedy":
        return GreedyPolicy()
    if name == "hint":
        return HintPolicy(hint_samples, hint_time)
    if name in ENGINE_CONFIGS:
        return HintPolicy(hint_samples, hint_time, config=HintConfig(**ENGINE_CONFIGS[name]),
                          name=name)
    if name == "hint-inf":
        return HintPolicy(hint_samples, hint_time, inference=True)
    if name == "hint-fast":
        return HintPolicy(hint_samples or FAST_SAMPLES, hint_time,
                          config=HintConfig(uct_iters=0, uct_iters_multi=0),
                          name="hint-fast", facts=False)
    if name == "strong":
        return HintPolicy(hint_samples, hint_time, config=HintConfig(uct_iters=STRONG_ITERATIONS),
                          name="strong", deals_factor=STRONG_DEALS_FACTOR)
    if name == "hint-uct":
        return HintPolicy(hint_samples, hint_time, config=HintConfig(playout_model=None),
                          name="hint-uct")
    base, _, path = name.partition("=")
    if base == "hint-learn":
        return HintPolicy(hint_samples, hint_time,
                          config=HintConfig(playout_model=path or "shipped"), name=name)
    if base == "hint-fast-learn":
        return HintPolicy(hint_samples or FAST_SAMPLES, hint_time,
                          config=HintConfig(uct_iters=0, uct_iters_multi=0,
                                            playout_model=path or "shipped"),
                          name=name, facts=False)
    if base == "learned":
        return LearnedPolicy(path or "shipped", name)
    engine, at, budget = name.partition("@")
    if at and engine in ENGINE_CONFIGS:
        deals, iters = parse_budget(budget)
        extra: dict[str, Any] = {} if iters is None else {"uct_iters": iters}
        return HintPolicy(deals, hint_time, config=HintConfig(**ENGINE_CONFIGS[engine], **extra),
                          name=name)
    raise OptionError(f"policy: unknown policy {name!r} (known: {', '.join(POLICY_NAMES)})")


def parse_budget(text: str) -> tuple[int, int | None]:
    """``DEALS`` or ``DEALSxITERATIONS`` of a ``hint@`` policy: the deals per decision
    (1 or more) and the tree-search iterations per deal (0 or more; None: the default)."""
    deals, x, iters = text.partition("x")
    ok = deals.isdigit() and (not x or iters.isdigit())
    d = int(deals) if ok else 0
    i = int(iters) if ok and x else None
    if d < 1 or (i is not None and i > MAX_UCT_ITERS):
        raise OptionError(f"policy: {BUDGET_POLICY}{text} is not {BUDGET_POLICY}DEALS or "
                          f"{BUDGET_POLICY}DEALSxITERATIONS (deals 1 or more, iterations 0 to "
                          f"{MAX_UCT_ITERS:,})")
    return d, i


@dataclass
class GameRecord:
    """One game: its deal, where A sat, the result for A, the moves and timings."""

    deal: int
    seat_a: int
    result: int            # +1 win, 0 draw, -1 loss for A
    moves: list[str]
    decisions: dict[str, int] = field(default_factory=dict)  # per policy name/side
    seconds: dict[str, float] = field(default_factory=dict)
    truncated: bool = False
    time_bins: dict[str, dict[int, int]] = field(default_factory=dict)  # side -> bin -> decisions
    cpu: dict[str, float] = field(default_factory=dict)  # processor seconds per side


def choose_move(policy: Policy, tracker: PublicTracker, seat: int, rng: random.Random) -> Move:
    """The move ``policy`` chooses for ``seat`` (0-based, the seat to move) in the game
    ``tracker`` follows: it sees only the seat's view and, as it asks, the other
    seats' past decisions (``wants_observations``) and what the asking of
    throwers proved (``wants_facts``; public because the engine runs the game, S3)."""
    view = tracker.knowledge(seat).view
    extra: dict[str, Any] = {}
    if getattr(policy, "wants_observations", False):
        extra["observations"] = tracker.observations(seat)
    if getattr(policy, "wants_facts", False):
        extra["facts"] = tracker.facts(seat)
        extra["not_greedy"] = tracker.not_greedy(seat)
        trust = getattr(policy, "model_trust", 0.0)
        if trust:  # and what the moves say if they are the greedy player's
            extra["facts"] = tuple(sorted(extra["facts"] + tracker.model_facts(seat, trust),
                                          key=lambda f: (f.index, f.seat)))
    return policy.choose(view, seat, rng, **extra)


def play_game(policies: list[Policy], start: GameState, rngs: list[random.Random],
              max_moves: int = MAX_MOVES, times: list[list[float]] | None = None,
              cpu: list[float] | None = None
              ) -> tuple[tuple[int, ...], list[Move], list[int], list[float], bool]:
    """Play one game; each seat's policy sees only its view (and, if it
    ``wants_observations``, the other seats' past decisions as ``observations``).

    Returns the outcome per seat, the moves, decisions and seconds per seat and
    whether the game was cut at ``max_moves`` (a draw); ``times``, when given,
    gets each seat's decision times appended, ``cpu`` (one number per seat) each
    seat's processor seconds added: the work of a decision, which other
    processes on a busy machine do not stretch as they stretch its wall time.
    """
    t = PublicTracker(start)
    n = start.players
    decisions = [0] * n
    secs = [0.0] * n
    for _ in range(max_moves):
        s = t.state
        if s.is_over:
            return s.final_outcome(), t.history, decisions, secs, False
        seat = s.to_move
        t0, c0 = time.perf_counter(), time.process_time()
        move = choose_move(policies[seat], t, seat, rngs[seat])
        dt = time.perf_counter() - t0
        if cpu is not None:
            cpu[seat] += time.process_time() - c0
        secs[seat] += dt
        if times is not None:
            times[seat].append(dt)
        decisions[seat] += 1
        if move not in legal_moves(s):
            raise AssertionError(f"policy {policies[seat].name} chose illegal move {move}")
        t.play(move)
    return (0,) * n, t.history, decisions, secs, True


@dataclass(frozen=True)
class MatchSpec:
    a: str
    b: str
    players: int = 2
    rules: Rules = Rules()
    seed: int = 0
    hint_samples: int | None = BOT_HINT_SAMPLES
    hint_time: float | None = None
    max_moves: int = MAX_MOVES


def deal_of(spec: MatchSpec, deal: int) -> GameState:
    """The seeded deal ``deal`` of a match (R5, R6)."""
    return new_game(spec.players, spec.rules, rng=random.Random(f"deal:{spec.seed}:{deal}"))


def game_record(spec: MatchSpec, rec: GameRecord) -> Game:
    """The full game record (docs/game-record.md) of one game; its asking seat is A's."""
    return Game.from_play(deal_of(spec, rec.deal), rec.moves, me=rec.seat_a + 1)


def play_match_game(spec: MatchSpec, deal: int, seat_a: int) -> GameRecord:
    """Game ``deal`` of the match with policy A in ``seat_a``."""
    start = deal_of(spec, deal)
    pa = make_policy(spec.a, spec.hint_samples, spec.hint_time)
    pb = make_policy(spec.b, spec.hint_samples, spec.hint_time)
    pols = [pa if s == seat_a else pb for s in range(spec.players)]
    rngs = [random.Random(f"policy:{spec.seed}:{deal}:{seat_a}:{s}") for s in range(spec.players)]
    times: list[list[float]] = [[] for _ in range(spec.players)]
    cpu = [0.0] * spec.players
    outcome, moves, dec, secs, cut = play_game(pols, start, rngs, spec.max_moves, times, cpu)
    d = {"a": dec[seat_a], "b": sum(dec) - dec[seat_a]}
    t = {"a": secs[seat_a], "b": sum(secs) - secs[seat_a]}
    bins: dict[str, dict[int, int]] = {"a": {}, "b": {}}
    for seat, ts in enumerate(times):
        side = bins["a" if seat == seat_a else "b"]
        for dt in ts:
            b = time_bin(dt)
            side[b] = side.get(b, 0) + 1
    c = {"a": cpu[seat_a], "b": sum(cpu) - cpu[seat_a]}
    return GameRecord(deal, seat_a, outcome[seat_a], [str(m) for m in moves], d, t, cut, bins, c)


def _run_chunk(jobs: list[tuple[MatchSpec, int, int]]) -> list[GameRecord]:
    return [play_match_game(*j) for j in jobs]


@dataclass
class MatchResult:
    spec: MatchSpec
    games: list[GameRecord]
    interrupted: bool = False  # Ctrl-C stopped the match: the games so far are reported
    sprt: SprtState | None = None  # the sequential test, if the match ran one

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.result > 0)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.result == 0)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.result < 0)

    def time_per_decision(self, side: str) -> float:
        n = sum(g.decisions[side] for g in self.games)
        return sum(g.seconds[side] for g in self.games) / n if n else 0.0

    def cpu_per_decision(self, side: str) -> float:
        """Mean processor seconds per decision of ``side`` (a decision's work)."""
        n = sum(g.decisions[side] for g in self.games)
        return sum(g.cpu.get(side, 0.0) for g in self.games) / n if n else 0.0

    def time_quantile(self, side: str, q: float) -> float | None:
        """The ``q`` quantile of the time per decision of ``side`` (``"a"`` or
        ``"b"``), to the upper edge of its bin (:data:`TIME_BINS_PER_OCTAVE`)."""
        counts = [0] * TIME_BINS
        for g in self.games:
            for b, c in g.time_bins.get(side, {}).items():
                counts[b] += c
        n = sum(counts)
        if not n:
            return None
        seen = 0
        for b, c in enumerate(counts):
            seen += c
            if seen >= q * n:
                return time_bin_top(b)
        return time_bin_top(TIME_BINS - 1)

    def to_json(self) -> dict[str, Any]:
        n = len(self.games)
        decided = self.wins + self.losses
        r = lambda x: round(x, 4)  # noqa: E731
        wl = wilson(self.wins, decided) if decided else (0.0, 1.0)
        lo = wilson(self.losses, n) if n else (0.0, 1.0)
        return {
            "a": self.spec.a, "b": self.spec.b, "players": self.spec.players,
            "rules": self.spec.rules.names(), "seed": self.spec.seed,
            "interrupted": self.interrupted,
            "games": n, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "win_rate": r(self.wins / n) if n else None,
            "win_rate_decided": r(self.wins / decided) if decided else None,
            "ci95_decided": [r(wl[0]), r(wl[1])],
            "loss_rate": r(self.losses / n) if n else None,
            "ci95_loss": [r(lo[0]), r(lo[1])],
            "truncated": sum(1 for g in self.games if g.truncated),
            "seconds_per_decision": {"a": r(self.time_per_decision("a")),
                                     "b": r(self.time_per_decision("b"))},
            # to the upper edge of a quarter-octave bin
            "cpu_seconds_per_decision": {"a": r(self.cpu_per_decision("a")),
                                         "b": r(self.cpu_per_decision("b"))},
            "seconds_per_decision_median": {s: _round(self.time_quantile(s, 0.5)) for s in "ab"},
            "seconds_per_decision_p99": {s: _round(self.time_quantile(s, 0.99)) for s in "ab"},
            "decisions": {"a": sum(g.decisions["a"] for g in self.games),
                          "b": sum(g.decisions["b"] for g in self.games)},
            "hint_samples": self.spec.hint_samples, "hint_time": self.spec.hint_time,
            "sprt": self.sprt.to_json() if self.sprt is not None else None,
            # every game, so two runs on the same seed can be compared deal by deal
            "per_game": [{"deal": g.deal, "seat_a": g.seat_a + 1, "result": g.result}
                         for g in sorted(self.games, key=lambda g: (g.deal, g.seat_a))],
        }


def _round(x: float | None) -> float | None:
    return None if x is None else float(f"{x:.3g}")


def game_score(result: int) -> float:
    """A's score for one game's result: win 1, draw 1/2, loss 0."""
    return 1.0 if result > 0 else 0.5 if result == 0 else 0.0


def deal_score(games: Sequence[GameRecord]) -> float:
    """A's mean score over the games of one deal (win 1, draw 1/2, loss 0)."""
    return sum(game_score(g.result) for g in games) / len(games)


def paired(x: dict[str, Any], y: dict[str, Any]) -> dict[str, Any]:
    """Two matches' ``--json`` answers on the same seeded deals compared deal by deal.

    A deal's score is A's mean over its games (:func:`deal_score`); on the deals
    both played (in both, every seat), the mean of the differences x - y and its
    95% normal interval.  Paired so the luck of the deal cancels: the interval
    is far narrower than the two shares' own (docs/hint.md, "Matches").
    """
    for name, obj in (("first", x), ("second", y)):
        if "per_game" not in obj:
            raise OptionError(f"{name} match: no per_game results (a `durak match --json` answer "
                              "from before they were written?)")
        if not isinstance(obj.get("players"), int) or not 2 <= obj["players"] <= 6:
            raise OptionError(f"{name} match: players must be 2 to 6")
    if (x["players"], x.get("seed"), x.get("rules")) != (y["players"], y.get("seed"),
                                                          y.get("rules")):
        raise OptionError("the matches were not played on the same deals: players, seed or "
                          "rules differ")

    def by_deal(obj: dict[str, Any], name: str) -> dict[int, dict[int, int]]:
        out: dict[int, dict[int, int]] = {}
        rows = obj["per_game"]
        for i, g in enumerate(rows if isinstance(rows, list) else [None]):
            ok = (isinstance(g, dict) and all(isinstance(g.get(k), int) for k in
                                              ("deal", "seat_a", "result"))
                  and 1 <= g["seat_a"] <= obj["players"] and g["result"] in (-1, 0, 1))
            if not ok:
                raise OptionError(f"{name} match: per_game[{i}] is not a game "
                                  "({'deal': N, 'seat_a': 1..players, 'result': -1, 0 or 1})")
            out.setdefault(g["deal"], {})[g["seat_a"]] = g["result"]
        return out

    dx, dy = by_deal(x, "first"), by_deal(y, "second")
    seats = x["players"]
    both = sorted(d for d in dx.keys() & dy.keys()
                  if len(dx[d]) == seats and len(dy[d]) == seats)
    if not both:
        raise OptionError("the matches have no whole deal in common")

    def score(results: dict[int, int]) -> float:
        return sum(game_score(r) for r in results.values()) / seats

    diffs = [score(dx[d]) - score(dy[d]) for d in both]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((v - mean) ** 2 for v in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)

    def totals(by: dict[int, dict[int, int]]) -> dict[str, Any]:
        rs = [r for d in both for r in by[d].values()]
        w, lo = sum(1 for r in rs if r > 0), sum(1 for r in rs if r < 0)
        return {"wins": w, "draws": len(rs) - w - lo, "losses": lo,
                "win_rate_decided": round(w / (w + lo), 4) if w + lo else None}

    return {"deals": n, "games": n * seats, "first": totals(dx), "second": totals(dy),
            "score_difference": round(mean, 4),
            "ci95": [round(mean - half, 4), round(mean + half, 4)]}


def match(spec: MatchSpec, games: int, workers: int = 1,
          progress: Callable[[int, int], None] | None = None,
          scheduler: str | None = None, sprt: Sprt | None = None) -> MatchResult:
    """Play ``games`` games (rounded up to whole deals, each played from every seat).

    ``workers`` local processes, or a Dask ``scheduler`` (:mod:`solver.run.executor`);
    the games are the same for any of them.  ``sprt``: stop at the first deal
    (in deal order) at which the sequential test decides (:mod:`solver.play.sprt`);
    ``games`` is then the most it may play, and the result holds exactly the
    games of the deals up to that one, whatever the workers finished besides.
    """
    if not 1 <= games <= MAX_GAMES:
        raise OptionError(f"games: {games} is not between 1 and {MAX_GAMES:,}")
    if workers < 1:
        raise OptionError(f"workers: need at least 1, got {workers}")
    if not 2 <= spec.players <= 6:
        raise OptionError(f"players: {spec.players} is not between 2 and 6")
    make_policy(spec.a)
    make_policy(spec.b)
    new_game(spec.players, spec.rules, seed=0)  # validates players against the rules
    deals = math.ceil(games / spec.players)
    jobs = [(spec, d, s) for d in range(deals) for s in range(spec.players)]
    records: list[GameRecord | None] = [None] * len(jobs)
    test = SprtState(sprt) if sprt is not None else None
    tested = 0  # deals fed to the test, in deal order
    done = 0
    interrupted = False
    try:
        with Executor(workers, scheduler, tasks=len(jobs)) as ex:
            size = chunk_size(len(jobs), ex.workers, most=8)
            parts = chunked(jobs, size)
            for ci, recs in ex.map_unordered(_run_chunk, ((p,) for p in parts)):
                records[ci * size:ci * size + len(recs)] = recs  # chunk ci starts at ci * size
                done += len(recs)
                if progress:
                    progress(done, len(jobs))
                if test is None:
                    continue
                while tested < deals and test.decision is None:
                    mine = records[tested * spec.players:(tested + 1) * spec.players]
                    if any(r is None for r in mine):
                        break
                    test.add(deal_score(mine))  # type: ignore[arg-type]
                    tested += 1
                if test.decision is not None:
                    ex.close(cancel=True)  # the work still running is not wanted
                    del records[tested * spec.players:]
                    break
    except KeyboardInterrupt:  # Ctrl-C: the games played so far are the answer
        interrupted = True
    return MatchResult(spec, [r for r in records if r is not None], interrupted, test)
