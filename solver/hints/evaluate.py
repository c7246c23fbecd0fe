"""How one fully known deal scores every candidate move (S3, step 3 of the hint engine).

* **exact**: with the pile empty (or, two players, no bigger than
  :attr:`HintConfig.exact_pile`), the exact solver
  (:class:`solver.search.Solver`, through its public API with a node budget)
  gives the value of every move for the asking seat (S1, S2; with 3+ players
  against the coalition of the others).
* **tree search** (:attr:`HintConfig.uct_iters` with two players; with more
  :attr:`HintConfig.uct_iters_multi`, off by default): otherwise a small UCT search
  over the deal (``ext/uct.pxi``) with greedy playouts at its leaves, so every
  seat chooses its next moves by search instead of greedily; a move's score is
  the average of its mean result there and the plain greedy playout after it
  (:attr:`HintConfig.uct_mix`, docs/hint.md).
  Under :attr:`HintConfig.ismcts` the deals of a batch share one
  information-set search instead (``ext/ismcts.pxi``, off by default).
* **playout**: otherwise (no iterations for the table) the move
  is played and the game finished by the greedy player (:mod:`solver.policy.bots`) in
  every seat; the result for the asking seat is the move's score on that deal.
  The compiled core plays them (``ext/playout.pxi``, about 30 us a game); :func:`solver.hints.playout.playout`
  is the pure-Python reference.  When the pile runs out during a two-player
  playout, the rest is solved exactly within ``endgame_nodes``.

There is no silent fallback: a configuration that cannot be honoured is an
error, not a slower path.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from solver.errors import BudgetExceeded, OptionError
from solver.game.cards import count
from solver.game.movegen import play
from solver.game.moves import Move
from solver.game.state import GameState
from solver.hints.playout import PLAYOUT_LIMIT, playout
from solver.hints.ranking import AS_GOOD_POINTS, AS_GOOD_Z
from solver.notation import format_position
from solver.policy.model import core_model
from solver.run.executor import worker_cache
from solver.search import Solver
from solver.search.native import core, pile_order


@dataclass(frozen=True)
class HintConfig:
    """How a deal is scored (see the module docstring and ``docs/hint.md``).

    ``ranking``: ``"chance"`` recommends the move with the highest chance or one
    *as good* (``as_good_z`` standard errors of the paired test, at most
    ``as_good_points`` lower; :func:`solver.hints.ranking.choose`); ``"utility"``
    is the engine before 2026-12-07 (the highest utility, the greedy player's
    move kept within ``switch_z`` standard errors), kept for the matches that
    measure against it.  ``fact_draws``: ``"draw"`` deals the sampled deals in
    proportion to the likelihood of the facts about hands before a hidden draw
    (:func:`solver.hints.advise._fact_drawn`), ``"weigh"`` weighs them by it
    (the engine before: a few dozen effective deals of 256).
    ``solver``: ``"auto"`` uses the exact solver where the pile is empty only when
    the compiled backend is present (the pure-Python reference is far too slow
    for a hint), ``"always"`` uses whatever backend there is, ``"never"`` plays
    every deal out.  ``exact_pile``: with the compiled solver and two players,
    deals whose pile holds at most this many cards are solved exactly with the
    sampled pile order (2: 87.5% of decided games against greedy instead of
    86.0%, the same 2,000 games; at 4 far slower, docs/hint.md).  ``exact_nodes`` (two players) / ``exact_nodes_multi`` (three or
    more): node budget of one exact solve; beyond it the deal falls back to
    playouts.  ``exact_cards_multi``: with three or more players a deal is
    solved only when at most this many cards are in the hands and on the table
    (measured: up to 11 every solve took under 20 ms; from 12 most ran out of
    50,000 nodes).  ``switch_z``: when the deals were sampled, the best-scoring
    move is recommended over the greedy player's move only if its paired mean
    advantage on the same deals exceeds ``switch_z`` standard errors; else the
    greedy move is recommended (noise must not talk the engine out of a sound
    default; ``ranking="utility"`` only).  ``uct_iters`` (two players): iterations of the tree search over
    a deal that is not solved exactly, at least one per move (0: one greedy
    playout per move, the engine before).  ``uct_iters_multi``: the same with
    three or more players, off by default: with 512 deals, 50 iterations a deal
    took four times the time for the same share of durak games (150 against 152
    of 3,000, docs/hint.md).  ``uct_explore``: its UCB1 constant.  ``uct_eps``: the
    playouts below the tree make a uniformly random move with this probability (0:
    greedy only, the engine before 2026-12-04).  0.2 with 300 iterations is the
    default: 63.3% of decided games against ``hint-fast`` where 0.1 won 58.3% and
    0.0 with 100 iterations 55.6% on the same 2,000 games (60.3% over 4,500 games
    of four seeds; 0.1 about 3 points less on the 3,500 of seeds 1-3), as strong against
    greedy (docs/hint.md, "Random moves in the playouts" and "A fifth of the
    playout moves random").  ``uct_eps_multi``: the same with three or more players
    (0: the search there, itself off by default, was measured with greedy
    playouts only).  ``uct_mix``: a move's score on the deal is ``uct_mix``
    times the greedy playout after it (the search's first visit) plus the rest
    times the search's mean (0.5: the search wins head to head, the greedy
    playout models a greedy opponent better; both measured in docs/hint.md).
    ``uct_mix_not_greedy``: ``uct_mix`` once the other seat has been seen to
    leave the greedy player's move where everyone could tell
    (:meth:`~solver.hints.knowledge.PublicTracker.not_greedy`, a followed game
    only): the greedy playout then models him less well.  A greedy opponent is
    never caught, so nothing changes against him; head to head against
    ``hint-fast`` it measured +0.8 points over 3,000 games, inside the noise
    (docs/hint.md, "An opponent seen leaving the greedy move").
    None: ``uct_mix`` whoever is caught.
    ``uct_mix_early``: ``uct_mix`` while the pile holds ``early_pile`` cards
    or more (and no seat is caught: then ``uct_mix_not_greedy``).  Early in
    the game the greedy playout looks furthest ahead through hidden cards, and
    there a lower weight won head to head what weighing it 0.3 throughout
    won, while late in the game, where it lost against greedy, the weight
    stays (docs/hint.md, "The greedy playout's weight early in the game").
    None: ``uct_mix`` at any pile.
    ``playout_model``: a model file of the learned playout policy
    (:mod:`solver.policy.model`; ``"shipped"``: the package's own), whose best
    move every seat plays in the playouts -- the tree search's and the plain
    ones -- where the greedy player's would be played; None (the default):
    the greedy player (docs/learn.md measures both).  ``playout_model_first``:
    the first playout through each root move (the one ``uct_mix`` weighs
    apart, the model of a greedy opponent) plays the model too; false: it
    stays the greedy playout.  ``playout_temp``: None plays the model's best
    move; a temperature samples the softmax of its scores instead.
    ``ismcts``: the deals of each batch of
    ``ismcts_batch`` share one information-set tree search
    (``ext/ismcts.pxi``: every seat chooses its moves from what it can see, not
    from the deal) in place of a search of each deal; its mean takes the
    search's place in ``uct_mix``, and its playouts make random moves as
    ``uct_eps`` says.  Off: at the same time it measured as strong
    as the search of each deal, and no stronger with more iterations
    (docs/hint.md, "Information-set search").  ``playouts``: ``"auto"`` runs the greedy
    playouts in the compiled core (``ext/playout.pxi``, the same moves and results as :func:`playout`,
    about a hundred times faster), ``"python"`` runs the pure-Python reference
    :func:`playout`.  ``fact_weights`` (two players), ``fact_weights_multi``
    (three or more): the deals are weighed by the likelihood of the facts about
    hands before a hidden draw (:class:`~solver.hints.knowledge.HandFact`);
    off, only certain facts rule deals out (and a *held one* fact rules out a
    deal where the seat's cards then, drawn ones included, hold no card of the
    table's ranks).  Off with three or more players: there the weighing cost
    more durak games than it saved (docs/hint.md, "What the facts buy").
    """

    solver: str = "auto"
    ranking: str = "chance"
    as_good_z: float = AS_GOOD_Z
    as_good_points: float = AS_GOOD_POINTS
    fact_draws: str = "draw"
    exact_pile: int = 2
    exact_nodes: int = 500_000
    exact_nodes_multi: int = 50_000
    exact_cards_multi: int = 11
    switch_z: float = 1.0
    endgame_pile: int = 2
    endgame_nodes: int = 30_000
    tt_mb: int = 16
    playout_limit: int = PLAYOUT_LIMIT
    playouts: str = "auto"
    uct_iters: int = 300
    uct_explore: float = 1.0
    uct_mix: float = 0.5
    uct_mix_not_greedy: float | None = 0.3
    uct_mix_early: float | None = 0.3
    early_pile: int = 12
    uct_eps: float = 0.2
    uct_iters_multi: int = 0
    uct_eps_multi: float = 0.0
    ismcts: bool = False
    ismcts_batch: int = 64
    ismcts_pile: int = 0
    chance_pile: int = 0
    chance_nodes: int = 2_000_000
    chance_leaf_nodes: int = 500_000
    fact_weights: bool = True
    fact_weights_multi: bool = False
    playout_model: str | None = None
    playout_model_first: bool = True
    playout_temp: float | None = None

    def weigh_facts(self, players: int) -> bool:
        """Whether the uncertain facts weigh the deals at a table of ``players``."""
        return self.fact_weights if players == 2 else self.fact_weights_multi

    def eps(self, players: int) -> float:
        """The playouts' share of random moves below the tree at a table of ``players``."""
        return self.uct_eps if players == 2 else self.uct_eps_multi

    def iterations(self, players: int) -> int:
        """Tree-search iterations per deal at a table of ``players`` (0: greedy playouts)."""
        return self.uct_iters if players == 2 else self.uct_iters_multi


class _Evaluator:
    """Scores the candidate moves on one deal; keeps one exact solver per process."""

    def __init__(self, cfg: HintConfig, solver: Any = None):
        if cfg.playouts not in ("auto", "python"):
            raise OptionError(f"playouts: 'auto' or 'python', got {cfg.playouts!r}")
        if cfg.solver not in ("auto", "always", "never"):
            raise OptionError(f"solver: 'auto', 'always' or 'never', got {cfg.solver!r}")
        for name in ("uct_iters", "uct_iters_multi"):
            if getattr(cfg, name) < 0:
                raise OptionError(f"{name}: need 0 or more, got {getattr(cfg, name)}")
        for name in ("uct_mix", "uct_eps", "uct_eps_multi"):
            if not 0.0 <= getattr(cfg, name) <= 1.0:
                raise OptionError(f"{name}: a share from 0 to 1, "
                                  f"got {getattr(cfg, name)}")
        if cfg.uct_mix_not_greedy is not None and not 0.0 <= cfg.uct_mix_not_greedy <= 1.0:
            raise OptionError(f"uct_mix_not_greedy: a share from 0 to 1 (or None), "
                              f"got {cfg.uct_mix_not_greedy}")
        if cfg.ismcts_batch < 1:
            raise OptionError(f"ismcts_batch: need 1 or more deals, got {cfg.ismcts_batch}")
        if (cfg.uct_iters or cfg.uct_iters_multi) and cfg.playouts == "python":
            raise OptionError("uct_iters: the tree search runs in the compiled core only; "
                              "give uct_iters=0 (and uct_iters_multi=0) with playouts='python'")
        if cfg.playout_model is not None and (cfg.ismcts or cfg.playouts == "python"):
            raise OptionError("playout_model: the learned playouts run in the compiled core's "
                              "search of each deal only (not with ismcts or playouts='python')")
        self.cfg = cfg
        self._model = (core_model(cfg.playout_model, cfg.playout_temp)
                       if cfg.playout_model is not None else None)
        self._solver = solver
        self._po_solver: Solver | None = None  # a small solver whose table the playouts load deals into

    def solver(self) -> Any:
        """The exact solver for this process, made on first use; None under ``solver="never"``."""
        if self._solver is None and self.cfg.solver != "never":
            self._solver = Solver(tt_mb=self.cfg.tt_mb)
        return self._solver

    def endgame_value(self, state: GameState, me: int) -> int | None:
        """The exact value of an empty-pile position for ``me`` (0-based) within
        ``2 * endgame_nodes`` nodes, or None (:meth:`Solver.value` with a node budget)."""
        return self._budgeted_value(state, me)

    def _budgeted_value(self, state: Any, me: int) -> int | None:
        try:
            return int(self.solver().value(state, me + 1, max_nodes=2 * self.cfg.endgame_nodes))
        except BudgetExceeded:
            return None

    def exact_wanted(self, deal: GameState) -> bool:
        if deal.pile == 0:
            if deal.players == 2:
                return True
            in_play = sum(count(h) for h in deal.hands) + count(deal.table_mask)
            return in_play <= self.cfg.exact_cards_multi
        return deal.players == 2 and deal.pile <= self.cfg.exact_pile

    def evaluate(self, deal: GameState, moves: Sequence[Move],
                 me: int) -> tuple[list[float], list[float], bool]:
        """Score of every move for ``me`` on ``deal`` (+1/0/-1), the tie-break
        margins and whether the scores are exact.  For playouts the margin is the
        card margin; for exact scores it is six times the greedy playout's result
        plus its card margin (it only orders moves of equal exact value)."""
        if self.exact_wanted(deal):
            solver = self.solver()
            if solver is not None:
                try:
                    budget = (self.cfg.exact_nodes if deal.players == 2
                              else self.cfg.exact_nodes_multi)
                    res = solver.analyse(deal, me + 1, distance=False, pv=False,
                                         max_nodes=budget)
                    vals = {mv.move: mv.value for mv in res.moves}
                    if all(vals.get(str(m)) is not None for m in moves):
                        # ties between equal exact values go to the practical chances:
                        # the greedy playout's result and card margin
                        tb = self.playouts(deal, moves, me, False)
                        return ([int(vals[str(m)]) for m in moves],
                                [6 * r + g for r, g in tb], True)
                except BudgetExceeded:
                    pass  # too big to solve within the budget: scored by playouts below,
                    # and reported as a playout estimate (exact=False)
        if self._chance_wanted(deal):
            expected = self._chance(deal, moves, me)
            if expected is not None:
                tb = self.playouts(deal, moves, me, False)
                return expected, [6 * r + g for r, g in tb], False
        if self._searched(deal):
            res = self._uct(deal, moves, me)
        else:
            res = self.playouts(deal, moves, me, self._endgame_playouts(deal))
        return [r for r, _ in res], [g for _, g in res], False

    def _chance_wanted(self, deal: GameState) -> bool:
        """Whether a deal is valued by the expectimax over the last draws."""
        return (deal.players == 2 and self.cfg.exact_pile < deal.pile <= self.cfg.chance_pile
                and self.solver() is not None)

    def _chance(self, deal: GameState, moves: Sequence[Move], me: int) -> list[float] | None:
        """Every move's expected result over the draws (``ext/chance.pxi``), or None past
        the budgets."""
        st, _ = self._core_deal(deal, moves, self.solver())
        vals, _ = core.chance_scores(st, me, self.cfg.chance_leaf_nodes, self.cfg.chance_nodes)
        return None if vals is None else [float(v) for v in vals]

    def _endgame_playouts(self, deal: GameState) -> bool:
        """Whether a deal not solved is played out with the exact endgame
        hand-over (two players, a pile of at most ``endgame_pile``)."""
        return (deal.players == 2 and self.cfg.endgame_pile >= deal.pile
                and self.solver() is not None)

    def _searched(self, deal: GameState) -> bool:
        """Whether a deal not solved is scored by a tree search."""
        return self.cfg.iterations(deal.players) > 0 and not self._endgame_playouts(deal)

    def evaluate_many(self, deals: Sequence[GameState], moves: Sequence[Move],
                      me: int) -> list[tuple[list[float], list[float], bool]]:
        """:meth:`evaluate` of every deal; under ``ismcts`` the deals that would get
        a tree search of their own share one (``ext/ismcts.pxi``) instead."""
        out: list[Any] = [None] * len(deals)
        batch = []
        for i, deal in enumerate(deals):
            if (self.cfg.ismcts and deal.to_move == me and deal.pile >= self.cfg.ismcts_pile
                    and not self.exact_wanted(deal) and self._searched(deal)):
                batch.append(i)
            else:
                out[i] = self.evaluate(deal, moves, me)
        if batch:
            for i, row in zip(batch, self._ismcts([deals[i] for i in batch], moves, me)):
                out[i] = ([r for r, _ in row], [g for _, g in row], False)
        return out

    def _ismcts(self, deals: Sequence[GameState], moves: Sequence[Move],
                me: int) -> list[list[tuple[float, float]]]:
        """Per deal, every move's score and card margin: the greedy playout after
        the move on that deal, and the information-set search's mean over all the
        deals (the same for each), weighed by ``uct_mix``."""
        solver = self._playout_solver()
        limit = self.cfg.playout_limit
        states, orders, firsts = [], [], []
        for d in deals:
            # each deal's greedy playouts right after loading it: the core keeps
            # the pile order of the deal loaded last (ismcts_scores gets each's)
            st, order = self._core_deal(d, moves, solver)
            firsts.append([core.greedy_playout(st, me, limit, order, i)[:2]
                           for i in range(len(moves))])
            states.append(st)
            orders.append(order)
        iters = max(self.cfg.iterations(deals[0].players), len(moves)) * len(deals)
        tree = core.ismcts_scores(states, [pile_order(d) for d in deals], me, iters, orders,
                                  self.cfg.uct_explore, limit, self.cfg.eps(deals[0].players))
        a = self.cfg.uct_mix
        rows = []
        for first in firsts:
            rows.append([(a * r0 + (1 - a) * r, a * g0 + (1 - a) * g)
                         for (r0, g0), (r, g, _) in zip(first, tree)])
        return rows

    def _uct(self, deal: GameState, moves: Sequence[Move], me: int) -> list[tuple[float, float]]:
        """Every move's score and card margin: the tree search's mean and the greedy
        playout after the move, weighed by ``uct_mix`` (``ext/uct.pxi``)."""
        st, order = self._core_deal(deal, moves, self._playout_solver())
        out = core.uct_scores(st, me, max(self.cfg.iterations(deal.players), len(moves)), order,
                              self.cfg.uct_explore, self.cfg.playout_limit,
                              self.cfg.eps(deal.players), 0, self._model,
                              self.cfg.playout_model_first)
        a = self.cfg.uct_mix
        return [(a * r0 + (1 - a) * r, a * g0 + (1 - a) * g) for r, g, _, r0, g0 in out]

    def _playout_solver(self) -> Solver:
        """A small solver whose table the playouts and searches load deals into."""
        if self._po_solver is None:
            self._po_solver = Solver(tt_mb=1)
        return self._po_solver

    @staticmethod
    def _core_deal(deal: GameState, moves: Sequence[Move], solver: Solver) -> tuple[Any, tuple]:
        """The deal as a core state in ``solver`` and the bout's attack order; the
        core must list the same moves as the rules engine (moves go by index)."""
        st = solver.core_state(deal)
        if len(st.moves()) != len(moves):
            raise RuntimeError(f"the core lists {len(st.moves())} moves where the rules engine "
                               f"lists {len(moves)}: {format_position(deal)}")
        return st, tuple(a for a, _ in deal.table)

    def playouts(self, deal: GameState, moves: Sequence[Move], me: int,
                 endgame: bool) -> list[tuple[int, float]]:
        """:func:`playout` after each move (with the exact endgame hand-over when
        ``endgame``): in the compiled core, or in Python under ``playouts="python"``."""
        if self.cfg.playouts == "auto":
            return self._core_playouts(deal, moves, me, endgame)
        eg = self.endgame_value if endgame else None
        return [playout(play(deal, m), me, self.cfg.playout_limit, eg) for m in moves]

    def _core_playouts(self, deal: GameState, moves: Sequence[Move], me: int,
                       endgame: bool) -> list[tuple[int, float]]:
        """The C playouts (``ext/playout.pxi``).

        The deal is loaded once; each candidate move is played in C, by its
        index in the core's move list (the same canonical order as
        ``engine.legal_moves``).  With ``endgame`` the deal goes into the exact
        solver's own table, so the position where the pile has run out can be
        proven there without converting it back.
        """
        solver = self.solver() if endgame else self._playout_solver()
        st, order = self._core_deal(deal, moves, solver)
        limit = self.cfg.playout_limit
        out = []
        for i in range(len(moves)):
            r, g, steps, end = core.greedy_playout(st, me, limit, order, i, endgame, self._model)
            if end is not None:  # the pile ran out between bouts: solve or play on
                v = self._budgeted_value(end, me)
                if v is None:
                    r, g, _, _ = core.greedy_playout(end, me, limit - steps, (), -1, False,
                                                     self._model)
                else:
                    r = v
            assert r is not None  # a playout that did not stop at the endgame has its result
            out.append((r, g))
        return out


def evaluate_deal(deal: GameState, moves: Sequence[Move], me: int, cfg: HintConfig | None = None,
                  solver: Any = None) -> tuple[list[float], list[float], bool]:
    """Score every move for ``me`` (0-based) on one fully known deal: results
    (+1/0/-1 each), card margins, exact or not."""
    return _Evaluator(cfg or HintConfig(), solver).evaluate(deal, moves, me)


def evaluate_chunk(cfg: HintConfig, moves: list[Move], me: int,
                   deals: list[GameState]) -> list[tuple[list[float], list[float], bool]]:
    """Score the moves on each deal of a chunk (what a worker runs); the worker keeps
    its evaluator, and with it its exact solver's table, between chunks."""
    ev = worker_cache(("hint-evaluator", cfg), lambda: _Evaluator(cfg))
    return ev.evaluate_many(deals, moves, me)
