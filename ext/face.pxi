# Included by _core.pyx: the Python face of the core -- the classes CState and
# Search and the module constants (their declarations are in _core.pxd, their
# typed stub in solver/_core.pyi).


cdef class CState:
    """A game state of the core (for tests, the backend and move generation)."""

    def moves(self):
        """Legal moves as (kind, cards mask, card, target), engine order."""
        cdef Mv ms[MAXMOVES]
        cdef int n = gen_moves(self.c, &self.s, ms, 0), i
        return [(ms[i].kind, ms[i].cards, ms[i].card, ms[i].target) for i in range(n)]

    def play(self, int index):
        """The state after the ``index``-th legal move."""
        cdef Mv ms[MAXMOVES]
        cdef int n = gen_moves(self.c, &self.s, ms, 0)
        if not 0 <= index < n:
            raise IndexError("move index out of range")
        cdef CState out = CState.__new__(CState)
        out.s = self.s
        out.c = self.c
        out.owner = self.owner
        play(self.c, &out.s, &ms[index])
        return out

    def fields(self):
        """A tuple of everything the state holds (for comparisons in tests)."""
        return dict(
            hands=tuple(self.s.hand[i] for i in range(self.c.n)),
            att=self.s.att, opn=self.s.opn, cov=self.s.cov, shown=self.s.shown,
            attacker=self.s.attacker, defender=self.s.defender, turn=self.s.turn,
            take=self.s.take, limit=self.s.limit, cap=self.s.cap, over=self.s.over,
            pile=self.s.pile, trump_card=self.s.trump_card, fresh=self.s.fresh,
        )

    def to_move(self):
        return to_move(&self.s)

    def key(self, int hero=0, int prover=1):
        cdef uint64_t k[KEYWORDS]
        cdef int oh = self.c.hero, op = self.c.prover
        self.c.hero = hero
        self.c.prover = prover
        make_key(self.c, &self.s, k)
        self.c.hero = oh
        self.c.prover = op
        return (k[0], k[1], k[2], k[3], k[4])

    cdef bint _test(self, int hero, Test test):
        """A decision rule of the core for this state, asked for ``hero``."""
        cdef int oh = self.c.hero, r
        self.c.hero = hero
        r = test(self.c, &self.s)
        self.c.hero = oh
        return r != 0

    def attacker_surely_wins(self, int hero=0):
        """The core's quick-win test (``quick_win``) for this lead state
        (``hero`` matters with 3+ players)."""
        if self.s.over or self.s.att != 0 or self.s.pile != 0:
            return False
        return self._test(hero, quick_win)

    def hero_surely_escapes(self, int hero):
        """The core's ``odd_duel`` test: ``hero`` out, two others left with
        an odd number of cards, between bouts."""
        return not self.s.over and self._test(hero, odd_duel)

    def hero_side_is_out(self, int hero):
        """The core's ``hero_side_out`` test for ``hero``'s side."""
        return not self.s.over and self._test(hero, hero_side_out)

    def single_leads_dominate(self, int hero):
        """Whether this is a lead state where a lead of several cards does no
        better for the attacker's side (``hero``'s or the others') than any
        one of its cards (``single_leads_suffice``): then a multi-card lead
        that keeps a value means each of its cards led alone keeps it too."""
        return phase(&self.s) == PH_LEAD and self._test(hero, single_leads_suffice)

    def hero_outcome(self, int hero):
        cdef int v = 0, oh = self.c.hero
        self.c.hero = hero
        r = outcome_known(self.c, &self.s, &v)
        self.c.hero = oh
        return v if r else None


assert sizeof(Bucket) == 48 * TT_WAYS, "TT bucket layout changed"
assert sizeof(CondEntry) == 56, "conditional entry layout changed"


cdef class Search:
    """The search context: rules of one game, transposition table, budgets.

    ``Search(tt_mb)`` allocates the table once; ``setup(...)`` loads the game
    (rules, trump, pile order) and returns the root :class:`CState`;
    ``prove(state, hero, prover, depth)`` answers one boolean question.
    """

    def __cinit__(self, int tt_mb=64):
        cdef uint64_t nb = 1
        cdef uint64_t bytes_ = (<uint64_t>tt_mb) << 20
        while nb * 2 * sizeof(Bucket) <= bytes_:
            nb *= 2
        self.c = <Ctx*>calloc(1, sizeof(Ctx))
        if self.c == NULL:
            raise MemoryError()
        self.c.tt = <Bucket*>dk_table_alloc(nb * sizeof(Bucket))
        # the path-dependent failures get what the power-of-two main table
        # leaves of tt_mb (at least a quarter of it)
        cdef uint64_t nc = 1
        while (nc * 2 * sizeof(CondEntry)) <= bytes_ - nb * sizeof(Bucket):
            nc *= 2
        self.c.cond = <CondEntry*>dk_table_alloc(nc * sizeof(CondEntry))
        self.c.cond_mask = nc - 1
        self.cond_entries = nc
        self.c.mstack = <Mv*>malloc(MSTACK * sizeof(Mv))
        self.c.kstack = <uint64_t*>malloc(MSTACK * KSLOT * sizeof(uint64_t))
        self.c.cstack = <St*>malloc(MSTACK * sizeof(St))
        if (self.c.tt == NULL or self.c.cond == NULL or self.c.mstack == NULL
                or self.c.kstack == NULL or self.c.cstack == NULL):
            raise MemoryError("transposition table")
        self.c.tt_mask = nb - 1
        self.c.equiv = 1
        self.c.iso = 1
        self.c.lead_table = 1
        self.c.etc_on = 1
        self.c.quick = 1
        self.c.ply_bound = 1
        self.c.single_limited = 1
        self.buckets = nb
        self.epochs = {}

    def __dealloc__(self):
        if self.c != NULL:
            if not self.shares:  # a shared table is its owner's to free
                dk_table_free(self.c.tt)
            dk_table_free(self.c.cond)
            free(self.c.mstack)
            free(self.c.kstack)
            free(self.c.cstack)
            free(self.c)
            self.c = NULL

    @property
    def tt_bytes(self):
        return self.buckets * sizeof(Bucket)

    @property
    def nodes(self):
        return self.c.nodes

    @property
    def game(self):
        """(players, rule flags) of the game last loaded by ``setup``."""
        return self.c.n, self.c.flags

    def tt_used(self):
        """Number of occupied entries (a scan; for benchmarks)."""
        cdef uint64_t i, n = 0
        cdef int w
        for i in range(self.c.tt_mask + 1):
            for w in range(TT_WAYS):
                if self.c.tt[i].data[w] != 0:
                    n += 1
        return n

    def clear(self):
        """Empty the table (a shared one: the owner's, for both) and the side table."""
        memset(self.c.tt, 0, self.c.tt_mask * sizeof(Bucket) + sizeof(Bucket))
        memset(self.c.cond, 0, self.cond_entries * sizeof(CondEntry))

    def share_table(self, Search other):
        """Search ``other``'s transposition table from now on, as a second
        thread beside it (``CoreBackend``'s two provers).  Entries are stored
        and read so that a half-written one is never taken for another
        (``way_holds``); the side table of repetition-dependent failures
        stays this search's own (its entries name this search's path).
        ``other`` must be set up with the same game and has to outlive
        nothing: it is kept alive here."""
        if other is self or other.shares or self.shares:
            raise ValueError("share_table: once, with another search that owns its table")
        dk_table_free(self.c.tt)  # its own is never used again
        self.c.tt = other.c.tt
        self.c.tt_mask = other.c.tt_mask
        self.table_owner = other
        self.shares = True

    def state_from(self, CState st):
        """``st`` (made by another search set up with the same game, pile
        empty) as a state of this search."""
        if st.s.pile != 0:
            raise ValueError("state_from: a state with a pile names its epoch in its own search")
        cdef CState out = CState.__new__(CState)
        out.s = st.s
        out.c = self.c
        out.owner = self
        return out

    def sync_generation(self, Search other):
        """Age entries as ``other`` does (the same generation number)."""
        self.c.gen = other.c.gen

    def stop(self, int on=1):
        """Ask a ``prove`` running in another thread to end: it returns -1, as
        for a budget, within BUDGET_EVERY nodes.  ``stop(0)`` lets proofs run
        again; the flag stays until then, so a stop asked just before a proof
        starts still ends it."""
        dk_store_int(&self.c.stop, 1 if on else 0)

    @property
    def stopped(self):
        """Whether :meth:`stop` is in force."""
        return dk_load_int(&self.c.stop) != 0

    def setup(self, *, int n, int trump, int flags, int low_rank, tuple hands, uint64_t att,
              uint64_t opn, uint64_t cov, uint64_t shown, int attacker, int defender, int turn,
              int take, int limit, int cap, tuple pile_order, int trump_card, int fresh=1):
        """Load a game; returns the root state.  Keyword arguments only.

        ``n`` players, ``trump`` suit, rule ``flags`` (FLAG_*), ``low_rank``
        of the deck (2, 6 or 9); the state: ``hands`` (one card mask per
        seat), the table masks ``att``, ``opn`` (open), ``cov``, ``shown``
        trumps, the seats ``attacker``, ``defender``, ``turn`` (-1: none),
        ``take`` (0/1), the bout's ``limit`` and ``cap``, ``pile_order`` (top
        first; ``()``: no known pile), the face-up ``trump_card``
        (-1: none) and ``fresh`` (1: nothing discarded yet).
        """
        cdef Ctx* c = self.c
        cdef int i
        if not 2 <= n <= MAXP:
            raise ValueError("players: 2 to 6")
        c.n = n
        c.trump = trump
        for i in range(64):
            c.cost2[i] = 2 * card_cost(c, i) if i < 52 else 0
            c.same_rank[i] = SPREAD << (i % 13) if i < 52 else 0
        c.flags = flags
        c.low_rank = low_rank
        c.pile_len = len(pile_order)
        for i in range(c.pile_len):
            c.pile_cards[i] = pile_order[i]
        if c.pile_len:
            k = (pile_order, trump_card)
            if k not in self.epochs:
                self.epochs[k] = len(self.epochs) + 1
            c.epoch = self.epochs[k]
        else:
            c.epoch = 0
        c.rep_on = 1 if (n > 2 or (flags & (F_TRANSFER | F_SHOW))) else 0
        cdef CState st = CState.__new__(CState)
        st.c = c
        st.owner = self
        memset(&st.s, 0, sizeof(St))
        st.s.tfloor = -1
        for i in range(n):
            st.s.hand[i] = hands[i]
        st.s.att = att
        st.s.opn = opn
        st.s.cov = cov
        st.s.shown = shown
        st.s.attacker = attacker
        st.s.defender = defender
        st.s.turn = turn
        st.s.take = take
        st.s.limit = limit
        st.s.cap = cap
        st.s.pile = c.pile_len
        st.s.trump_card = trump_card if c.pile_len else -1
        st.s.fresh = fresh
        cdef int v
        if att == 0 and c.pile_len == 0:
            c.hero = 0
            if outcome_known(c, &st.s, &v):
                st.s.over = 1
        return st

    def tune(self, equiv=None, iso=None, lead_table=None, quick=None, etc=None,
             ply_bound=None, single_limited=None):
        """Search switches, for benchmarks and tests (all on by default):
        ``equiv`` drop covers with interchangeable cards, ``iso`` canonical
        ranks between bouts, ``lead_table`` table entries between bouts only
        (and one order for a run of cards added to a taker), ``quick`` the
        decisions without search (:c:func:`quick_win`, :c:func:`odd_duel`,
        :c:func:`hero_side_out`), ``etc`` enhanced transposition
        cut-offs, ``ply_bound`` the :c:func:`plies_needed` cut-offs,
        ``single_limited`` single-card leads at the other side's lead states
        under a ply limit (:c:func:`single_leads_suffice`).  Returns the
        current settings."""
        if equiv is not None:
            self.c.equiv = 1 if equiv else 0
        if iso is not None:
            self.c.iso = 1 if iso else 0
        if lead_table is not None:
            self.c.lead_table = 1 if lead_table else 0
        if quick is not None:
            self.c.quick = 1 if quick else 0
        if etc is not None:
            self.c.etc_on = 1 if etc else 0
        if ply_bound is not None:
            self.c.ply_bound = 1 if ply_bound else 0
        if single_limited is not None:
            self.c.single_limited = 1 if single_limited else 0
        return dict(equiv=self.c.equiv, iso=self.c.iso, lead_table=self.c.lead_table,
                    quick=self.c.quick, etc=self.c.etc_on, ply_bound=self.c.ply_bound,
                    single_limited=self.c.single_limited)

    def new_generation(self):
        """Start a new root question: table entries of earlier ones age
        (replacement) and the history heuristic starts afresh (counts from
        another position order this one's moves worse than none)."""
        self.c.gen = <uint8_t>(self.c.gen + 1)
        memset(self.c.hist, 0, sizeof(self.c.hist))
        memset(self.c.hbonus, 0, sizeof(self.c.hbonus))

    def prove(self, CState st, int hero, int prover, int depth=UNLIM,
              double deadline=0.0, int64_t max_nodes=0):
        """(result, distance bound): result 1 yes, 0 no, -1 budget, -2 interrupted.

        Can ``prover`` (1: ``hero``'s side, 0: the others) force a decisive
        result within ``depth`` plies?  ``deadline``: an absolute
        ``time.monotonic()`` time to stop at (0: none); ``max_nodes``: stop
        once ``nodes`` reaches it (0: no limit).
        """
        cdef Ctx* c = self.c
        cdef int dist = 0, r
        cdef uint64_t rep[2]
        cdef St root = st.s
        # A taker's run is searched in increasing card order only below a
        # node that saw its start; a root question asks about this state
        # itself, where any card of the run may come next.
        root.tfloor = -1
        if depth > UNLIM:
            depth = UNLIM
        c.hero = hero
        c.prover = prover
        c.slot = prover_slot(c)
        c.pathlen = 0
        c.msp = 0
        c.abort = 0
        c.max_nodes = max_nodes
        c.deadline = deadline
        c.root_move = -1
        with nogil:
            r = dfs(c, &root, depth, 0, &dist, rep, NULL)
        if r < 0:
            return (-2 if c.abort == 2 else -1), 0
        return r, dist

    @property
    def root_move(self):
        """The move that decided the last ``prove`` at its root (index into
        ``moves()``), or -1: the prover's first success, the other side's
        refutation, or the move a table entry that decided it named (under
        canonical ranks that may be another move: verify it)."""
        return self.c.root_move

    def bounds(self, CState st, int hero, int prover):
        """(lb, ub) the table holds for ``st`` (INF when unknown / never)."""
        cdef uint64_t key[KEYWORDS]
        cdef Ctx* c = self.c
        c.hero = hero
        c.prover = prover
        c.slot = prover_slot(c)
        if st.s.over:
            return None
        make_key(c, &st.s, key)
        cdef uint64_t ed
        cdef uint64_t* e = tt_probe(c, key, key_hash(key), &ed)
        if e == NULL:
            return (0, INF)
        return (ent_lb(e, c.slot), ent_ub(e, c.slot))

    def reset_nodes(self):
        self.c.nodes = 0


UNLIMITED = UNLIM
INFINITE = INF
KIND_NAMES = ("lead", "cover", "take", "transfer", "show", "throw", "pass", "swap")
FLAG_TRANSFER = F_TRANSFER
FLAG_SHOW = F_SHOW
FLAG_NEIGHBOURS = F_NEIGH
FLAG_SWAP = F_SWAP
FLAG_FIRST_OUT_WINS = F_FOW
FLAG_TEAMS = F_TEAMS
FLAG_FIRST_BOUT_LIMIT = F_FBL
#: The core's flag bit of each boolean rule option, by ``solver.game.rules.Rules``
#: attribute (the converter reads this; tests hold it to ``Rules``).
RULE_FLAGS = {
    "transfer": F_TRANSFER,
    "transfer_by_trump_show": F_SHOW,
    "throw_in_neighbours": F_NEIGH,
    "trump_swap": F_SWAP,
    "first_out_wins": F_FOW,
    "teams": F_TEAMS,
    "first_bout_limit": F_FBL,
}
