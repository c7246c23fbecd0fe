"""Glue between :mod:`solver.search` and the Cython core (``solver._core``).

Converts a :class:`GameState` into the core's bitmask state, turns core
moves back into :class:`Move` values, and composes the two boolean searches
of the core (see ``ext/_core.pyx``) into values, distances, best moves and a
principal variation.
"""
from __future__ import annotations

import time

from .cards import DECK_LOW_RANK, cards_of
from .core import core as _core
from .moves import PASS, SWAP, TAKE, Move
from .state import GameState

UNLIM = _core.UNLIMITED
INF = _core.INFINITE
VALUE_NAMES = {1: "win", 0: "draw", -1: "loss"}
#: Ply-limited proofs (3+ players, ``CoreBackend._decide``): the first limit
#: and its step, and the limit from which only the unlimited search goes on.
DEEPEN_STEP = 4
DEEPEN_MAX = 400


class Aborted(Exception):
    """A budget ran out (or Ctrl-C) inside the core."""

    def __init__(self, interrupted: bool):
        super().__init__("interrupted" if interrupted else "budget")
        self.interrupted = interrupted


#: Rule options and the core's flag bit for each.
_RULE_FLAGS = (
    ("transfer", "FLAG_TRANSFER"),
    ("transfer_by_trump_show", "FLAG_SHOW"),
    ("throw_in_neighbours", "FLAG_NEIGHBOURS"),
    ("trump_swap", "FLAG_SWAP"),
    ("first_out_wins", "FLAG_FIRST_OUT_WINS"),
    ("teams", "FLAG_TEAMS"),
    ("first_bout_limit", "FLAG_FIRST_BOUT_LIMIT"),
)


def rule_flags(state: GameState) -> int:
    """The core's bit set of the options ``state`` is played with."""
    f = 0
    for attr, flag in _RULE_FLAGS:
        if getattr(state.rules, attr):
            f |= getattr(_core, flag)
    return f


def load(search, state: GameState):
    """The core state of ``state`` (every card must be known)."""
    att, opn, cov = state.table_masks()
    order = tuple(state.pile_order) if state.pile > 0 and state.pile_order else ()
    return search.setup(
        n=state.players, trump=state.trump, flags=rule_flags(state),
        low_rank=DECK_LOW_RANK[state.rules.deck], hands=tuple(state.hands),
        att=att, opn=opn, cov=cov, shown=state.shown, attacker=state.attacker,
        defender=state.defender, turn=state.turn, take=int(state.take), limit=state.limit,
        cap=state.cap, pile_order=order, trump_card=state.trump_card if state.pile > 0 else -1,
        fresh=int(state.out == 0),
    )


def to_move_obj(mv) -> Move:
    kind, cards, card, target = mv
    if kind == 0:
        return Move.lead(*cards_of(cards))
    if kind == 1:
        return Move.cover(target, card)
    if kind == 2:
        return TAKE
    if kind == 3:
        return Move.transfer(card)
    if kind == 4:
        return Move.show(card)
    if kind == 5:
        return Move.throw(card)
    if kind == 6:
        return PASS
    return SWAP


def move_text(mv) -> str:
    return str(to_move_obj(mv))


class CoreBackend:
    """Values, distances and variations from the core's boolean searches."""

    def __init__(self, tt_mb: int):
        self.search = _core.Search(tt_mb)
        self.deadline = 0.0
        self.max_nodes = 0

    # -------------------------------------------------------- primitives
    def _prove(self, st, hero: int, prover: int, depth: int = UNLIM) -> tuple[int, int]:
        r, d = self.search.prove(st, hero, prover, depth, self.deadline, self.max_nodes)
        if r < 0:
            raise Aborted(r == -2)
        return r, d

    def _prove_round(self, st, hero: int, prover: int, budget: int,
                     depth: int = UNLIM) -> tuple[int, int] | None:
        """One proof (ply limit ``depth``) with at most ``budget`` more nodes
        (0: no round limit); None if that round ran out.  The caller's own
        budgets (``deadline``, ``max_nodes``, Ctrl-C) raise :class:`Aborted`."""
        limit = self.search.nodes + budget if budget else 0
        if self.max_nodes and (not limit or limit > self.max_nodes):
            limit = self.max_nodes
        r, d = self.search.prove(st, hero, prover, depth, self.deadline, limit)
        if r == -2:
            raise Aborted(True)
        if r == -1:
            if ((self.max_nodes and self.search.nodes >= self.max_nodes)
                    or (self.deadline and time.monotonic() >= self.deadline)):
                raise Aborted(False)
            return None
        return r, d

    def _deepen_round(self, st, hero: int, prover: int, limits: dict[int, int],
                      budget: int) -> int | None:
        """Ply-limited proofs for ``prover`` at growing limits, within
        ``budget`` nodes: the plies of a success, or None.

        ``limits[prover]`` is the next limit to try; it is kept across rounds
        (a round that ran out resumes at the same limit, the table holding its
        work) and dropped once it reaches ``DEEPEN_MAX``.
        """
        stop = self.search.nodes + budget
        while limits.get(prover, DEEPEN_MAX) < DEEPEN_MAX:
            left = stop - self.search.nodes
            if left <= 0:
                return None
            r = self._prove_round(st, hero, prover, left, limits[prover])
            if r is None:
                return None
            if r[0]:
                return r[1]
            limits[prover] += DEEPEN_STEP
        limits.pop(prover, None)
        return None

    def _decide(self, st, hero: int, bounds: list[int] | None = None) -> tuple[int, int]:
        """The value for ``hero`` and the successful prover's distance bound.

        Only one of the two questions has to succeed for a decisive value, and
        a success is usually cheaper to prove than the other side's failure.
        So the two provers take turns with node budgets that double each
        round, the hero's side first; the table is shared, so the work of a
        round that ran out is not lost, and each side's stored successes prune
        the other's search (the cross-prover cut-off).  Once one side has
        failed the other runs to the end.  A draw needs both failures.

        With 3+ players each prover's turn first runs ply-limited proofs at
        growing limits (``_deepen_round``).  Without a ply limit, play can
        wander hundreds of bouts deep through takes that pass cards round the
        table, and failures that rest on repetitions cannot be stored (R23);
        under a limit no repetition needs checking at all (a finite proof is
        a proof, however often a state recurs in it), every failure is
        stored, and the core's ``plies_needed`` bound cuts the last plies.
        Only the unlimited search can prove a draw, so it keeps a share of
        each round: an eighth.  A lone hero against a coalition of two or
        more (no teams) rarely escapes, and needs long proofs when he does:
        his side's deepening gets a quarter of the round, the coalition's a
        whole one.  Measured on the 3p5 family (60 M nodes each), before the
        core's decisions without search for 3+ players: 7 of 10 solved with
        these shares against 3 of 10 with unlimited searches only; see
        docs/solver.md for the shares tried and the figures since.
        ``bounds``, if given, keeps the value bounds proven so far as
        [lower, upper] (for a partial answer).
        """
        done: dict[int, tuple[int, int]] = {}
        players, flags = self.search.game
        limits = {1: DEEPEN_STEP, 0: DEEPEN_STEP} if players > 2 else {}
        lone = players > 2 and not flags & _core.FLAG_TEAMS
        budget = 2048
        while True:
            for prover in (1, 0):
                if prover in done:
                    continue
                if prover in limits:
                    share = budget // 4 if prover == 1 and lone else budget
                    d = self._deepen_round(st, hero, prover, limits, share)
                    if d is not None:
                        return (1 if prover else -1), d
                share = budget // 8 if limits else 0 if done else budget
                r = self._prove_round(st, hero, prover, share)
                if r is None:
                    continue
                done[prover] = r
                limits.pop(prover, None)
                if r[0]:
                    return (1 if prover else -1), r[1]
                if bounds is not None:
                    bounds[prover] = 0
            if len(done) == 2:
                return 0, 0
            budget *= 2

    def _value(self, st, hero: int) -> int:
        if st.fields()["over"]:
            return st.hero_outcome(hero)
        return self._decide(st, hero)[0]

    def _distance(self, st, hero: int, prover: int, ub: int) -> int:
        """Exact plies the prover needs (known to be finite, at most ``ub``)."""
        if st.fields()["over"]:
            return 0
        b = self.search.bounds(st, hero, prover)
        lb = 1
        if b is not None:
            lb = max(lb, b[0])
            ub = min(ub, b[1])
        # The value search may know only that the plies are finite (its
        # prunings keep values exact, not plies): then search upwards by
        # doubling first -- deep ply limits are expensive where cycles are
        # possible (R23), and distances are short.
        d = max(lb, 16)
        while d < ub:
            r, dd = self._prove(st, hero, prover, d)
            if r:
                ub = min(dd, d)
                break
            lb = d + 1
            d *= 2
        while lb < ub:
            mid = (lb + ub) // 2
            r, d = self._prove(st, hero, prover, mid)
            if r:
                ub = min(d, mid)
            else:
                lb = mid + 1
        return ub

    def _value_distance(self, st, hero: int, want_distance: bool) -> tuple[int, int | None]:
        f = st.fields()
        if f["over"]:
            v = st.hero_outcome(hero)
            return v, (0 if v else None)
        v, d = self._decide(st, hero)
        if v == 0:
            return 0, None
        return v, (self._distance(st, hero, 1 if v > 0 else 0, d) if want_distance else None)

    def _children(self, st, hero: int, want_distance: bool):
        out = []
        for i, mv in enumerate(st.moves()):
            v, d = self._value_distance(st.play(i), hero, want_distance)
            out.append((mv, v, None if d is None else d + 1))
        return out

    # ------------------------------------------------------------- API
    def value(self, state: GameState, hero: int) -> int:
        self.deadline = 0.0
        self.max_nodes = 0
        st = load(self.search, state)
        self.search.new_generation()
        return self._value(st, hero)

    def budgeted_value(self, st, hero: int, max_nodes: int) -> int | None:
        """The exact value of core state ``st`` for ``hero`` within
        ``max_nodes`` nodes, or None (the hint engine's endgame question; the
        same provers, deepening and table as :meth:`run`)."""
        if st.fields()["over"]:
            return st.hero_outcome(hero)
        self.deadline = 0.0
        self.search.reset_nodes()
        self.search.new_generation()
        self.max_nodes = max_nodes
        try:
            return self._decide(st, hero)[0]
        except Aborted:
            return None
        finally:
            self.max_nodes = 0

    def run(self, state: GameState, hero: int, all_moves: bool, max_time, max_nodes,
            want_distance: bool, want_pv: bool):
        from .search import MoveValue, SolveResult, on_hero_side, rank_moves

        self.deadline = (time.monotonic() + max_time) if max_time else 0.0
        self.max_nodes = int(max_nodes) if max_nodes else 0
        self.search.reset_nodes()
        self.search.new_generation()
        st = load(self.search, state)
        lower, upper = "loss", "win"
        result = SolveResult(hero + 1, "unknown", [], [], None, 0, 0.0, False, [], lower, upper)
        try:
            # the value first (fastest), then each move, then the variation
            bounds = [-1, 1]  # [lower, upper]
            try:
                value = self._decide(st, hero, bounds)[0]
            finally:
                result.lower, result.upper = VALUE_NAMES[bounds[0]], VALUE_NAMES[bounds[1]]
            result.value = VALUE_NAMES[value]
            result.lower = result.upper = result.value
            kids = self._children(st, hero, want_distance)
            mine = on_hero_side(state, hero, st.to_move())
            moves = [MoveValue(move_text(mv), VALUE_NAMES[v], d) for mv, v, d in kids]
            ordered, best = rank_moves(moves, mine)
            result.best = best
            if all_moves:
                result.moves = ordered
            if want_distance and value != 0:
                result.distance = ordered[0].distance
            if want_pv:
                result.pv = self._pv(st, hero, ordered, state, want_distance)
            result.exact = True
        except Aborted as e:
            result.exact = False
            result.interrupted = e.interrupted
        result.nodes = self.search.nodes
        return result

    def _pv(self, st, hero: int, ordered, state: GameState, want_distance: bool) -> list[str]:
        pv: list[str] = []
        seen = set()
        texts = [move_text(m) for m in st.moves()]
        # A drawn line may wander a long way before it repeats (R23), and every
        # step is a new root search whose repetition-dependent failures the
        # table could not keep: a drawn variation stops where extending it
        # would cost more than four times what the answer did (a won or lost
        # one ends by its distance).
        draw = bool(ordered) and ordered[0].value == "draw"
        budget = self.search.nodes + max(250_000, 4 * self.search.nodes)
        own = self.max_nodes
        if draw and (not own or own > budget):
            self.max_nodes = budget
        try:
            self._pv_steps(st, hero, ordered, state, want_distance, pv, seen, texts)
        except Aborted as e:
            if (e.interrupted or self.max_nodes == own
                    or (self.deadline and time.monotonic() >= self.deadline)):
                raise
        finally:
            self.max_nodes = own
        return pv

    def _pv_steps(self, st, hero, ordered, state, want_distance, pv, seen, texts) -> None:
        from .search import MoveValue, on_hero_side, rank_moves

        while ordered:
            mv = ordered[0].move
            pv.append(mv)
            st = st.play(texts.index(mv))
            if st.fields()["over"] or len(pv) >= 400:
                break
            k = st.key(hero, 1)
            if k in seen:
                break  # R23: the variation repeats (a draw)
            seen.add(k)
            kids = self._children(st, hero, want_distance)
            mine = on_hero_side(state, hero, st.to_move())
            texts = [move_text(m) for m, _, _ in kids]
            ordered, _ = rank_moves(
                [MoveValue(t, VALUE_NAMES[v], d) for t, (_, v, d) in zip(texts, kids)], mine)
