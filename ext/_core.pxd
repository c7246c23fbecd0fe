# The contract of the compiled core ``solver._core``: its constants, its C
# structs and its Python classes.  ``_core.pyx`` (and every ``.pxi`` it
# includes) sees these declarations without a cimport: a ``.pxd`` named like
# the ``.pyx`` is read first.  No function is declared here: a function
# declared in a ``.pxd`` is exported, and the hot ones must stay static and
# inlinable inside the one compilation unit.
#
# The constants are enums, not ``DEF``s: they are C compile-time constants
# either way (no lookup at run time), and an enum also names its group.
# Every value fits an int.
from libc.stdint cimport uint64_t, uint32_t, uint8_t, int8_t, int16_t, int32_t, int64_t


# ------------------------------------------------------------------ sizes
cdef enum Sizes:
    MAXP = 6             # seats at the table at most (R1)
    MAXMOVES = 256       # legal moves of one state at most
    MAXPLY = 1000        # plies on the search path at most (deeper: a failure, not stored)
    MSTACK = 65536       # slots of the move stack shared by the path's nodes
    REFBITS = 64         # path indices a repetition reference mask can name (uint64_t)
    KEYWORDS = 5         # 64-bit words of a canonical key (make_key)
    KSLOT = 6            # words per key-stack slot: the child's key and its hash


# ------------------------------------------------------------------ plies
cdef enum Plies:
    UNLIM = 0xFFFE       # the depth of a search without a ply limit (the value search)
    INF = 0xFFFF         # a bound meaning "never" (lb) or "unknown" (ub)
    BIGPLY = 1 << 30     # a repetition reference naming no path index: none


# ------------------------------------------------------------------ move kinds (Mv.kind)
cdef enum MoveKind:
    K_LEAD = 0           # one to four cards of one rank (R8)
    K_COVER = 1          # beat an open attack card (R2)
    K_TAKE = 2           # the defender picks the table up (R16)
    K_TRANSFER = 3       # pass the attack on with a card of its rank (R14)
    K_SHOW = 4           # pass it on by showing the trump of its rank (R14 option)
    K_THROW = 5          # add a card of a rank on the table (R9)
    K_PASS = 6           # the asked thrower adds nothing (P3, P4)
    K_SWAP = 7           # swap the lowest trump for the face-up card (R7)
    NKINDS = 8           # number of move kinds (per-kind tables)


# ------------------------------------------------------------------ phases (phase())
cdef enum Phase:
    PH_LEAD = 1          # between bouts: the attacker leads (P1)
    PH_DEFEND = 2        # attack cards open: the defender answers (P2)
    PH_THROW = 3         # all covered: throwers asked in order (P3)
    PH_TAKEN = 4         # the defender takes: throwers add cards (P4)
    PH_OVER = 5          # game over (R20-R22)


# ------------------------------------------------------------------ rule flags (Ctx.flags)
cdef enum RuleFlag:
    F_TRANSFER = 1       # perevodnoy: transfers (R14)
    F_SHOW = 2           # transfers by showing a trump (R14 option)
    F_NEIGH = 4          # only the attacker and the defender's neighbours throw in (R12 option)
    F_SWAP = 8           # trump_swap (R7)
    F_FOW = 16           # first_out_wins (R21)
    F_TEAMS = 32         # teams=2v2 (R22)
    F_FBL = 64           # first_bout_limit=5


# ------------------------------------------------------------------ table
cdef enum TableConst:
    TT_WAYS = 4          # entries per bucket
    B10 = 1023           # a 10-bit bound field: its mask, and INF encoded
    SLOT_EMPTY = 1023 << 10   # a slot's bound pair with nothing known: lb 0, ub INF
    ISO_BITS = 14        # log2 of the iso_ranks cache's entries
    ISO_CACHE = 1 << ISO_BITS # 16384 entries, 384 KiB


# ------------------------------------------------------------------ search (dfs)
cdef enum SearchConst:
    ETC_MIN_CARDS = 10   # two players: enhanced transposition cut-offs only above this many cards
    BUDGET_EVERY = 0x3FF      # nodes & this == 0: look at the node and time budgets
    SIGNALS_EVERY = 0x3FFFF   # nodes & this == 0: look for Ctrl-C (takes the GIL)
    SCORE_FIRST = -128   # ordering score of the table's move: below every score_moves score


# A child's slot in the key stack, word 4: a marker below 4 instead of a key
# (a real key's word 4 holds n << 21, never below 4).
cdef enum ChildKey:
    CK_OVER = 0          # the game is over after the move: no key
    CK_UNPLAYED = 1      # the defender has to answer: not played, nothing to probe
    CK_QUICK = 2         # the attacker to lead surely wins (quick_win); word 5: on the prover's side
    CK_INBOUT = 3        # played, still inside a bout: not probed


# ------------------------------------------------------------------ greedy playouts (playout.pxi)
cdef enum PlayoutConst:
    PO_BIG_PILE = 6          # bots.BIG_PILE
    PO_CHEAP_RANK = 10       # bots.CHEAP_RANK
    PO_HIGH_TRUMP_RANK = 12  # bots.HIGH_TRUMP_RANK
    PO_MAXTAB = 16           # attack cards of one bout (at most 6, R10)


cdef enum PlayoutEnd:
    PO_OVER = 0          # the game ended
    PO_LIMIT = 1         # the move limit was reached (R23: a draw)
    PO_ENDGAME = 2       # stopped between bouts with the pile empty


# ------------------------------------------------------------------ learned playout policy (learn.pxi)
cdef enum LearnConst:
    LF_TEMPLATES = 13        # feature templates (solver.policy.features.TEMPLATES)
    LF_NFEATURES = 2272      # binary features in all (solver.policy.features.NFEATURES)


# ------------------------------------------------------------------ structs
ctypedef struct St:
    # A game state over bitmasks: bit 13 * suit + rank - 2 of a mask is a card.
    uint64_t hand[MAXP] # the cards of each seat
    uint64_t att        # attack cards of the bout
    uint64_t opn        # attack cards not yet covered
    uint64_t cov        # cover cards
    uint64_t shown      # trumps shown for a transfer this bout (R14 option)
    int8_t attacker     # the attacking seat (-1 once the game is over without one)
    int8_t defender     # the defending seat (-1 once the game is over)
    int8_t turn         # thrower asked in P3/P4, -1 otherwise; those before him in R12
                        # order have passed or cannot add, none after him has (F3, F15)
    int8_t take         # 1 once the defender has chosen to take (R16)
    int8_t limit        # R10 limit of the bout, 0 between bouts
    int8_t cap          # 6, or 5 in a first bout under first_bout_limit=5
    int8_t over         # game over (R20-R22)
    int8_t pile         # cards left in the pile, face-up trump included
    int8_t trump_card   # the face-up (bottom) card while pile > 0, else -1
    int8_t fresh        # nothing discarded yet (first_bout_limit=5 cap, engine._next_cap)
    int8_t tfloor       # search only: the last card thrown to a taker in this
    int8_t tfseat       # thrower's run (and that thrower), see dfs


ctypedef struct Mv:
    # A move, as gen_moves lists it.
    uint64_t cards      # card(s) played (lead: several)
    int8_t kind         # K_*
    int8_t card         # the single card of cover/transfer/show/throw (lead: its lowest), else -1
    int8_t target       # the attack card a cover covers, else -1
    int8_t score        # move ordering (score_moves), lowest first
    uint8_t idx         # position in gen_moves order (the TT's best move)
    uint8_t ki          # the child's key slot in the key stack (dfs)
    int8_t fails        # 1: the child is known (from the table) to fail for the prover


ctypedef struct Bucket:
    # TT_WAYS entries, 192 bytes, three cache lines.  The first line holds
    # every way's data word and first key word, so a probe for a state that
    # is not there -- most of them -- reads one line; a hit reads one more.
    uint64_t data[TT_WAYS]      # both provers' bounds, age, work, move (see ent_*); 0 empty
    uint64_t key0[TT_WAYS]      # word 0 of the canonical state (make_key)
    uint64_t rest[TT_WAYS][4]   # its words 1-4


ctypedef struct PathItem:
    # A lead state on the search path (repetitions, R23).
    uint64_t key[KEYWORDS]  # its canonical key
    uint64_t visit      # unique number of this visit of the lead state


ctypedef struct CondEntry:
    # A failure that rests on repetitions of lead states on the path (R23):
    # valid while the path still holds the states it referred to, i.e. while
    # the visit of path[maxref] is still on the stack (the path below it is
    # then unchanged), maxref being the highest index in ``refs``.  More
    # states on the path only add failures for the prover (a repetition is
    # one), so the failure stands however the path continued above.
    uint64_t key[KEYWORDS]  # the failed state's canonical key
    uint64_t tag        # path[maxref].visit << 17 | prover slot << 16 | depth (0: empty)
    uint64_t refs       # the path indices referred to (bit i: path[i])


ctypedef struct IsoEntry:
    # A cached iso_ranks numbering (it depends on the live cards and the trump only).
    uint64_t live       # the live cards | (trump + 1) << 56; 0: empty
    int8_t crank[13]    # the canonical number of each live rank


ctypedef struct Ctx:
    # The search context: one game's rules, the question asked, the tables,
    # the stacks and the budgets.  Allocated once per Search.
    int n               # players (2-6)
    int trump           # trump suit (0-3)
    int flags           # rule options (F_*)
    int low_rank        # lowest rank of the deck (2, 6 or 9) for R7
    int hero            # the seat the question is asked for
    int prover          # 1: the hero's side proves, 0: the others prove
    int slot            # prover_slot(): the prover's bounds in a table entry
    int pile_len        # length of the root's pile order
    int8_t pile_cards[64]   # the root's pile, top first (a known pile, R17)
    int epoch           # number of the (pile order, trump card) in the key, 0: no pile
    int rep_on          # repetitions possible in this game (R23): 3+ players or transfers
    # table
    Bucket* tt          # the transposition table's buckets
    uint64_t tt_mask    # number of buckets - 1
    uint8_t gen         # the generation (root question) entries are written in
    # path of lead states (R23)
    PathItem path[MAXPLY]   # the lead states on the path, root first
    int pathlen         # how many
    uint64_t visits     # lead-state visits so far (never reset: ids stay unique)
    CondEntry* cond     # the table of path-dependent failures
    uint64_t cond_mask  # number of its entries - 1
    # move stack
    Mv* mstack          # the moves of every node on the path (MSTACK slots)
    uint64_t* kstack    # per mstack slot: the child's key (KEYWORDS words) and hash
    St* cstack          # per mstack slot: the child state, if already played
    int msp             # first free mstack slot
    # budget
    int64_t nodes       # nodes searched (reset by Search.reset_nodes)
    int64_t max_nodes   # stop at this many nodes (0: no limit)
    double deadline     # stop after this time.monotonic() (0: no limit)
    int abort           # 1 budget, 2 interrupted
    int stop            # set from another thread (Search.stop): end the search as a budget would
    int64_t tt_stores   # new entries written (statistics)
    uint32_t hist[2][NKINDS][64]   # history heuristic: cut-off counts per (mover is prover, kind, card)
    int8_t hbonus[2][NKINDS][64]   # the same as an ordering bonus (see score_moves)
    int8_t cost2[64]          # per card: twice its ordering cost (card_cost); 0 from 52 on
    uint64_t same_rank[64]    # per card: the cards of its rank; 0 from 52 on
    int equiv           # drop moves of interchangeable cards (drop_equivalent)
    int iso             # canonical ranks by iso_ranks (else dead ranks dropped)
    int lead_table      # table entries for lead states only (see dfs)
    IsoEntry iso_cache[ISO_CACHE]   # iso_ranks by live card set (depends on nothing else)
    int etc_on          # enhanced transposition cut-offs
    int quick           # quick_win at lead states (two players)
    int ply_bound       # plies_needed cut-offs in searches with a ply limit
    int single_limited  # single leads at the other side's lead states under a ply limit too
    int root_move       # the last prove's deciding root move (gen_moves index), -1 none


ctypedef struct CoverPlan:
    # The greedy player's search for the cheapest way to cover (playout.pxi).
    int n               # open attacks to cover
    int trump           # trump suit
    int att[PO_MAXTAB]  # open attacks, dearest first, ties in table order
    int cur[PO_MAXTAB]  # cover card per attack on the current branch
    int best[PO_MAXTAB] # cover card per attack of the cheapest plan found
    int best_cost       # -1 while no plan is known


ctypedef struct LfCtx:
    # One decision from the mover's view, what every move's features share
    # (learn.pxi, the twin of solver.policy.features.Decision).
    int mover           # the seat to move
    int players         # seats at the table (out ones included)
    int ps              # pile stage 0-4 (features.pile_stage)
    int pile            # cards left in the pile
    int trump           # trump suit
    int take            # 1 once the defender has chosen to take
    int opp_size        # the opponent's hand size (the attacker's when defending, else the defender's)
    int transfers       # 1 when transfers (or shows) are allowed
    uint64_t hand       # the mover's cards
    uint64_t table      # attack and cover cards
    uint64_t opn        # open attack cards
    uint64_t unseen     # cards of the deck the mover has not seen where they are


ctypedef struct LModel:
    # A linear move-scoring model (solver.policy.model): a move's score is the
    # sum of the weights of its active features.
    int nfeat           # number of weights (LF_NFEATURES)
    double* w           # the weights, owned by the PolicyModel
    double temp         # 0: the best-scoring move; > 0: sample softmax(score / temp)


# ------------------------------------------------------------------ the anytime estimate (anytime.pxi)
cdef enum EstimateConst:
    EST_COALITION = 0    # the others minimise the hero's result (S2's paranoid value)
    EST_INDEPENDENT = 1  # every seat (team, R22) maximises its own result
    EST_MAXDEPTH = 4096  # tree nodes on one iteration's path at most (deeper: played out)
    EST_CLOCK_EVERY = 63     # iterations & this == 0: look at the clock
    EST_SIGNALS_EVERY = 1023 # iterations & this == 0: look for Ctrl-C (takes the GIL)


ctypedef struct ANode:
    # A node of the anytime estimate's tree (64 bytes).
    Mv mv               # the move that leads here
    float w[MAXP]       # summed results: per seat (independent model), or the hero's in w[0] (coalition)
    float g             # summed card margin for the hero (the others' mean hand less his)
    int32_t first       # index of the first child, -1 before expansion
    int32_t visits      # iterations that passed through here
    int16_t nkids       # children, one per legal move
    int8_t mover        # the seat to move here (set on expansion)
    int8_t mine         # 1: the mover plays for the hero's side (set on expansion)
    int8_t lo           # proven lower bound on the hero's value (-1, 0, +1): a finite proof
    int8_t hi           # proven upper bound (lo == hi: the node is solved)
    int8_t expanded     # children made
    int8_t pad


ctypedef struct EstRun:
    # One anytime estimate (est_run): the question, the budgets, the tree, the counters.
    Ctx* c              # the rules and the table (the Search the root came from)
    int hero            # the seat asking
    int model           # EST_COALITION or EST_INDEPENDENT
    double explore      # UCB1 constant (results in [-1, 1])
    double eps          # playouts: a uniformly random move with this probability
    int limit           # playouts: moves at most (then a draw, R23)
    uint64_t rng        # splitmix64 state (deal.pxi)
    int64_t max_iters   # iterations at most (0: no limit)
    double deadline     # dk_now() past which it stops (0: none)
    int32_t max_tree    # tree nodes at most; past it leaves are played out, not grown
    int leaf_cards      # lead states with at most this many cards in play are proven (0: none)
    int64_t leaf_nodes  # node budget of each prover's proof there
    int use_table       # new lead-state leaves read what the table has proven of them
    ANode* nodes        # the tree (node 0 the root), grown by realloc
    int32_t cap         # nodes allocated
    int32_t used        # nodes made
    int32_t* path       # one iteration's node indices (EST_MAXDEPTH)
    int64_t iters       # iterations done
    int64_t leaf_solves # leaves asked of the proof search
    int64_t leaf_proven # of those, solved
    int64_t table_hits  # leaves whose bounds the table narrowed
    int64_t proof_nodes # nodes the leaves' proofs searched
    int interrupted     # Ctrl-C seen


# ------------------------------------------------------------------ the last draws (chance.pxi)
cdef enum ChanceConst:
    CH_MAXREST = 12      # hidden pile cards an expectimax over the draws may spread


ctypedef struct ChRun:
    # One expectimax over the last draws (chance.pxi): the question, the budgets, the counters.
    Ctx* c              # the rules and the table (the Search the deal was loaded in)
    int me              # the seat the values are for
    int64_t leaf_nodes  # node budget of each leaf's proof (the pile empty)
    int64_t max_nodes   # nodes in all (bout nodes and the leaves' proofs) at most
    int64_t start       # c.nodes when it began
    int64_t bout_nodes  # states inside the bouts searched
    int64_t leaves      # leaves proven
    int64_t draws       # chance outcomes taken
    double deadline     # dk_now() past which it stops (0: none)
    int failed          # 1: a budget ran out, 2: interrupted (the values are not exact)


# A decision rule over a state, for CState._test (quick_win, odd_duel, ...).
ctypedef int (*Test)(Ctx* c, St* s) noexcept nogil


# ------------------------------------------------------------------ Python classes
cdef class CState:
    # A game state of the core, as Python sees it (face.pxi).
    cdef St s           # the state
    cdef Ctx* c         # the context of the Search that made it (its rules)
    cdef object owner   # that Search, kept alive while the state is
    cdef bint _test(self, int hero, Test test)


cdef class Search:
    # The search context and its tables, as Python sees it (face.pxi).
    cdef Ctx* c                     # owned: freed with the Search
    cdef readonly uint64_t buckets  # table buckets (a power of two)
    cdef readonly uint64_t cond_entries  # entries of the side table of path-dependent failures
    cdef dict epochs                # (pile order, trump card) -> epoch number (Ctx.epoch)
    cdef object table_owner         # the Search whose table it searches (share_table), or None
    cdef bint shares                # whether it does (a C flag: the GC may clear table_owner first)


ctypedef struct RSlot:
    # A slot of a RetroGraph's open-addressing hash.
    uint64_t key        # the state's identity (retro_key)
    uint32_t index      # its index + 1; 0: the slot is empty
    uint32_t unused


cdef class RetroGraph:
    # A small game's whole reachable state graph, valued by retrograde analysis (retro.pxi).
    cdef Ctx* c                     # the rules: the Ctx of the Search the root came from
    cdef object owner               # that Search, kept alive while the graph is
    cdef St start_state             # the state the graph was built from (its root)
    cdef uint64_t* keys             # per state: its key (retro_key), room for max_states
    cdef uint8_t* info              # per state: to move + 1 (bits 0-2), over (3), hero's outcome + 1 (4-5)
    cdef int8_t cards[16]           # the root's live cards (bits), one key nibble each (retro_key)
    cdef int ncards                 # how many
    cdef uint64_t card_mask         # the same as a card set
    cdef int64_t cap                # states the per-state arrays have room for (doubled as needed)
    cdef double deadline            # dk_now() past which the build stops (0: none)
    cdef int64_t n                  # how many
    cdef RSlot* slots               # open-addressing hash of the states' keys and indices;
                                    # at most 3/4 full (doubled as the graph grows)
    cdef uint64_t slot_mask         # number of slots - 1
    cdef RSlot* big                 # the mapping a big hash lives in (dk_table_alloc), or NULL
    cdef RSlot* spare               # where the big hash's slots are set aside while it grows
    cdef int32_t* start             # state i's successors: succ[start[i]:start[i + 1]] (fewer than 2^31 edges)
    cdef int32_t* succ              # successor indices, each once per state
    cdef int64_t nsucc              # how many
    cdef int64_t succ_cap           # room for this many
    cdef int8_t* value              # per state, for the hero's side: +1, 0, -1
    cdef int32_t* dist              # per state: plies to the end of the game, -1 for a draw
    cdef readonly int hero          # the seat the values are for
    cdef readonly int64_t max_states    # the most states the graph may have
    cdef int threads                # 2: a big graph's build gets a helper thread
    cdef uint64_t _key(self, St* s) noexcept nogil
    cdef int64_t _find(self, uint64_t k, uint64_t h) noexcept nogil
    cdef int64_t _add(self, St* s) noexcept nogil
    cdef int64_t _add_keyed(self, uint64_t k, uint64_t h, uint8_t info) noexcept nogil
    cdef int _grow(self) noexcept nogil
    cdef int _grow_states(self) noexcept nogil
    cdef int _expand(self, int64_t i, uint64_t* kkeys, uint64_t* khash, uint8_t* kinfo) noexcept nogil
    cdef int _link(self, int64_t i, uint64_t* kkeys, uint64_t* khash, uint8_t* kinfo, int nm) noexcept nogil
    cdef int _build_parallel(self, int64_t i) noexcept nogil
    cdef int _build(self, St* root) noexcept nogil
    cdef int _solve(self) noexcept nogil
    cdef int64_t _child(self, St* src, Mv* m, St* out) noexcept nogil



cdef class PolicyModel:
    # A loaded linear move-scoring model as the core's playouts use it (learn.pxi).
    cdef LModel m                   # the weights (owned) and the choice rule
    cdef readonly int nfeat         # number of weights
