"""Typed stub of the compiled core ``solver._core`` (built from ``ext/``).

Card sets are ints used as bitmasks: bit ``13 * suit + rank - 2`` is a card
(the layout of :mod:`solver.cards`).  Seats are 0-based.
"""
from typing import Literal, TypedDict, overload

from typing_extensions import disjoint_base

#: The depth of a search without a ply limit (``Search.prove``'s default).
UNLIMITED: int
#: A bound meaning "never" (lower bound) or "unknown" (upper bound).
INFINITE: int
#: Move kind names by kind number (the first item of a ``CState.moves()`` tuple).
KIND_NAMES: tuple[str, str, str, str, str, str, str, str]
#: Rule flags for ``Search.setup(flags=...)``, combined with ``|``.
FLAG_TRANSFER: int
FLAG_SHOW: int
FLAG_NEIGHBOURS: int
FLAG_SWAP: int
FLAG_FIRST_OUT_WINS: int
FLAG_TEAMS: int
FLAG_FIRST_BOUT_LIMIT: int
RULE_FLAGS: dict[str, int]

class _StateFields(TypedDict):
    """What ``CState.fields()`` returns (not a runtime class of the module)."""

    hands: tuple[int, ...]
    att: int
    opn: int
    cov: int
    shown: int
    attacker: int
    defender: int
    turn: int
    take: int
    limit: int
    cap: int
    over: int
    pile: int
    trump_card: int
    fresh: int

@disjoint_base  # a C extension type: no class can derive from two of them
class CState:
    """A game state of the core (made by ``Search.setup`` and ``play``)."""

    def moves(self) -> list[tuple[int, int, int, int]]:
        """Legal moves as ``(kind, cards mask, card, target)``, engine order."""
    def play(self, index: int) -> CState:
        """The state after the ``index``-th legal move."""
    def fields(self) -> _StateFields:
        """Everything the state holds (for comparisons in tests)."""
    def to_move(self) -> int:
        """The seat to move, -1 once the game is over."""
    def key(self, hero: int = 0, prover: int = 1) -> tuple[int, int, int, int, int]:
        """The canonical table key of the state."""
    def attacker_surely_wins(self, hero: int = 0) -> bool: ...
    def hero_surely_escapes(self, hero: int) -> bool: ...
    def hero_side_is_out(self, hero: int) -> bool: ...
    def hero_outcome(self, hero: int) -> int | None:
        """+1 / 0 / -1 for ``hero`` if the game is over between bouts, else None."""
    def single_leads_dominate(self, hero: int) -> bool:
        """A lead state where a multi-card lead does no better for the attacker's
        side than any one of its cards led alone."""

@disjoint_base  # a C extension type: no class can derive from two of them
class Search:
    """The search context: rules of one game, transposition table, budgets."""

    @property
    def buckets(self) -> int: ...
    @property
    def cond_entries(self) -> int: ...
    @property
    def tt_bytes(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def game(self) -> tuple[int, int]:
        """(players, rule flags) of the game last loaded by ``setup``."""
    def __new__(cls, tt_mb: int = 64) -> Search: ...  # Cython's __cinit__
    def tt_used(self) -> int: ...
    def clear(self) -> None: ...
    def setup(
        self,
        *,
        n: int,
        trump: int,
        flags: int,
        low_rank: int,
        hands: tuple[int, ...],
        att: int,
        opn: int,
        cov: int,
        shown: int,
        attacker: int,
        defender: int,
        turn: int,
        take: int,
        limit: int,
        cap: int,
        pile_order: tuple[int, ...],
        trump_card: int,
        fresh: int = 1,
    ) -> CState:
        """Load a game; returns the root state."""
    def tune(
        self,
        equiv: bool | None = None,
        iso: bool | None = None,
        lead_table: bool | None = None,
        quick: bool | None = None,
        etc: bool | None = None,
        ply_bound: bool | None = None,
        single_limited: bool | None = None,
    ) -> dict[str, int]:
        """Search switches (all on by default); returns the current settings."""
    def new_generation(self) -> None: ...
    def prove(
        self,
        st: CState,
        hero: int,
        prover: int,
        depth: int = ...,
        deadline: float = 0.0,
        max_nodes: int = 0,
    ) -> tuple[int, int]:
        """(result, distance bound): 1 yes, 0 no, -1 budget, -2 interrupted.

        ``depth`` defaults to ``UNLIMITED``; ``deadline`` is an absolute
        ``time.monotonic()`` time (0: none)."""
    @property
    def root_move(self) -> int:
        """The move that decided the last ``prove`` at its root (index into
        ``CState.moves()``), or -1; verify it (a table entry's move may name
        another move under canonical ranks)."""
    def bounds(self, st: CState, hero: int, prover: int) -> tuple[int, int] | None: ...
    def reset_nodes(self) -> None: ...
    def share_table(self, other: Search) -> None:
        """Search ``other``'s table from now on, as a second thread beside it."""
    def state_from(self, st: CState) -> CState:
        """``st`` (another search's, the same game, pile empty) as this search's state."""
    def sync_generation(self, other: Search) -> None:
        """Age entries as ``other`` does."""
    def stop(self, on: int = 1) -> None:
        """Ask a ``prove`` in another thread to end (-1, as a budget); ``stop(0)`` clears it."""
    @property
    def stopped(self) -> bool: ...

def fast_bits(enabled: bool | None = None) -> bool:
    """Whether the retrograde graph's keys use the CPU's pext/pdep (BMI2);
    ``False`` forces the portable loops, ``True`` restores the instructions
    where the CPU has them fast."""

@disjoint_base  # a C extension type: no class can derive from two of them
class RetroGraph:
    """A small game's whole state graph valued by retrograde analysis (ext/retro.pxi).

    Raises ``OverflowError`` past ``max_states`` states, ``TimeoutError`` past
    ``deadline`` (absolute ``time.monotonic()``; 0: none).  ``threads`` 2: past
    100,000 states a helper thread expands states ahead of the builder."""
    def __new__(cls, root: CState, hero: int, max_states: int = 2_000_000,
                deadline: float = 0.0, threads: int = 1) -> RetroGraph: ...  # Cython's __cinit__
    @property
    def hero(self) -> int:
        """The seat the values are for."""
    @property
    def max_states(self) -> int:
        """The most states the graph may have."""
    @property
    def states_count(self) -> int: ...
    def root(self) -> tuple[int, int | None]:
        """The root's value for the hero (+1/0/-1) and distance in plies (None: a draw)."""
    def moves(self) -> list[tuple[tuple[int, int, int, int], int, int | None]]:
        """Every root move (kind, cards, card, target) with its value and distance."""
    def variation(self, max_plies: int = 400) -> list[tuple[int, int, int, int]]:
        """The principal variation from the root (at most ``max_plies`` moves)."""

def popcount(mask: int) -> int: ...
def beaters(attack: int, hand: int, trump: int) -> int: ...
def greedy_index(st: CState, table_order: tuple[int, ...] = ()) -> int: ...
@overload
def greedy_playout(
    st: CState,
    me: int,
    limit: int = 1500,
    table_order: tuple[int, ...] = (),
    first: int = -1,
    stop_at_endgame: Literal[False] = False,
    model: PolicyModel | None = None,
) -> tuple[int, float, int, None]: ...
@overload
def greedy_playout(
    st: CState,
    me: int,
    limit: int,
    table_order: tuple[int, ...],
    first: int,
    stop_at_endgame: bool,
    model: PolicyModel | None = None,
) -> tuple[int | None, float, int, CState | None]:
    """``(result, margin, steps, None)``, or with ``stop_at_endgame`` at the
    first position between bouts with the pile empty ``(None, margin, steps,
    state)``."""
def uct_scores(
    st: CState,
    me: int,
    iterations: int,
    table_order: tuple[int, ...] = (),
    explore: float = 1.0,
    limit: int = 1500,
    eps: float = 0.0,
    seed: int = 0,
    model: PolicyModel | None = None,
    model_first: bool = True,
) -> list[tuple[float, float, int, float, float]]:
    """Per move: mean result, mean margin, visits, first (greedy) playout's result and margin."""
class _EstimateStats(TypedDict):
    """What ``anytime_scores`` counts (not a runtime class of the module)."""

    iterations: int
    tree: int
    leaf_solves: int
    leaf_proven: int
    table_hits: int
    proof_nodes: int
    interrupted: bool
    root: tuple[int, int]

def anytime_scores(
    st: CState,
    hero: int,
    model: int = 0,
    seconds: float = 0.0,
    iterations: int = 0,
    table_order: tuple[int, ...] = (),
    explore: float = 1.0,
    eps: float = 0.0,
    seed: int = 0,
    leaf_cards: int = 0,
    leaf_nodes: int = 2048,
    use_table: bool = False,
    known: tuple[tuple[int, int], ...] = (),
    root_lo: int = -1,
    root_hi: int = 1,
    max_tree: int = 2097152,
    limit: int = 1500,
) -> tuple[list[tuple[float, float, int, int, int, float]], _EstimateStats]:
    """The anytime estimate (``ext/anytime.pxi``): per move the hero's mean, the
    mover's mean, visits, the proven bounds (lo, hi) and the mean card margin;
    and the search's counters.  ``model`` 0: the others as a coalition, 1:
    independent players."""
def ismcts_scores(
    deals: list[CState],
    pile_orders: list[tuple[int, ...]],
    me: int,
    iterations: int,
    table_orders: list[tuple[int, ...]],
    explore: float = 1.0,
    limit: int = 1500,
    eps: float = 0.0,
    seed: int = 0,
) -> list[tuple[float, float, int]]:
    """Information-set search over ``deals`` (``ext/ismcts.pxi``): per root move
    the mean result, mean margin and visits."""
def chance_scores(
    st: CState,
    me: int,
    leaf_nodes: int = 30000,
    max_nodes: int = 2000000,
    max_time: float = 0.0,
) -> tuple[list[float] | None, dict[str, int]]:
    """The exact expectimax over the last draws (``ext/chance.pxi``, two players): per
    move the expected result for ``me`` over the orders of the pile's hidden cards
    (None past a budget), and the search's counters."""
def deal_hands(
    pool: tuple[int, ...],
    slots: tuple[int, ...],
    base: tuple[int, ...],
    facts: tuple[tuple[int, int, int, int, bool, int], ...],
    bottoms: tuple[int, ...],
    tries: int,
    seed: int,
) -> tuple[tuple[int, ...] | None, list[int], int, int]:
    """Deal the pool into the hands' hidden slots and the pile until the hands
    agree with every fact (``ext/deal.pxi``): ``(parts, pile, bottom, rejected)``;
    ``parts`` None when every one of ``tries`` attempts broke a fact."""

# ------------------------------------------------------------------ learn.pxi
#: The core's number of features (solver.policy.features.NFEATURES).
NFEATURES: int

@disjoint_base
class PolicyModel:
    """A linear move-scoring model loaded into the core (solver.policy.model)."""

    nfeat: int
    def __init__(self, weights: list[float], temp: float = 0.0) -> None: ...
    @property
    def temp(self) -> float: ...

class _DecisionFields(TypedDict):
    """What ``decision_fields()`` returns (solver.policy.features.Decision's fields)."""

    mover: int
    players: int
    phase: int
    role: int
    hand: int
    att: int
    cov: int
    opn: int
    discards: int
    unseen: int
    trump: int
    trump_card: int
    pile: int
    hand_sizes: tuple[int, ...]
    opponent: int
    take: int
    limit: int
    flags: int
    deck: int

def decision_fields(st: CState) -> _DecisionFields:
    """The decision at ``st`` from the mover's view."""
def move_features(st: CState, table_order: tuple[int, ...] = ()) -> list[list[int]]:
    """Every legal move's active feature indices, in ``st.moves()`` order."""
def model_scores(st: CState, model: PolicyModel,
                 table_order: tuple[int, ...] = ()) -> list[float]:
    """Every legal move's score under ``model`` (C inference)."""
def model_index(st: CState, model: PolicyModel, table_order: tuple[int, ...] = ()) -> int:
    """Index in ``st.moves()`` of the model's best move (-1 when the game is over)."""
