# Included by _core.pyx: exact values and distances of small games by
# retrograde analysis of the whole reachable state graph (S1, S2, R23).
#
# Why: the proof search (search.pxi) must not store a failure that rests on a
# repetition (R23), so where play can go round the table -- three or more
# players taking in turn -- proving a draw re-searches the same cycles again
# and again.  A small game's whole graph, though, fits in memory: a 9-card
# 3-player endgame has up to about three million states.  Retrograde analysis values
# every state at once and handles R23 by its definition: the states from which
# the hero's side can force a win are the hero's attractor of the won final
# states, those from which the others can force his loss are theirs, and
# everything else -- every state from which play can go on for ever included
# -- is a draw.  The attractor level is the distance: the fastest forced win,
# the longest resistance.  It is the same algorithm as the pure-Python oracle
# solver.search.reference.retrograde, over the core's states.
#
# A state's identity is where each of the root's cards is (retro_key): no
# card comes into play once the pile is empty, so a 9-card game's whole state
# fits one 64-bit word, which the hash slot holds itself -- a look-up is one
# cache miss.  The search's canonical key would fold isomorphic states (dead
# ranks, interchangeable suits), but on the largest graphs it merges few of
# them (3-20%) and costs two to three words kept apart from the slots, or --
# put back on the root's cards in one word -- twice the key's instructions:
# slower either way (docs/solver.md).  The discard pile is the root's cards
# that are nowhere else.


cdef enum RetroConst:
    RETRO_CARDS = 11     # live cards a graph may have: 11 nibbles and the bout's 19 bits fill a word
    PIPE = 3             # states in flight in the pipelined graph building (_build)
    PAR_FROM = 100000    # states linked before a helper thread takes over the expanding
    OWN_EVERY = 3        # ... but for every OWN_EVERY-th state, which the builder expands
    XSTATES = 4096       # states the helper may have expanded ahead (a power of two)
    XKIDS = 1 << 16      # their successors at most (a power of two, >= 2 * MAXMOVES)


ctypedef struct RNode:
    # What the attractor walk (RetroGraph._solve) reads of a state, in one place.
    int32_t dist        # plies to the end once decided, -1 before
    int16_t left        # successors the defender of this pass has not yet seen refuted
    int16_t hero_moves  # 1 if the state's mover is on the hero's side


# pext/pdep in one instruction where the CPU has them fast (bits.pxi); the
# tests switch it off to check the portable loops against it
cdef int FAST_BITS = dk_fast_bmi2()


def fast_bits(enabled=None):
    """Whether the retrograde graph's keys use the CPU's pext/pdep (BMI2);
    ``fast_bits(False)`` makes them use the portable loops (the tests compare
    the two), ``fast_bits(True)`` turns the instructions back on where the CPU
    has them."""
    global FAST_BITS
    if enabled is not None:
        FAST_BITS = dk_fast_bmi2() if enabled else 0
    return bool(FAST_BITS)


cdef inline uint64_t gather4(uint64_t* m, uint64_t mask, int8_t* cards, int ncards) noexcept nogil:
    """The bits of the planes ``m`` at the cards of ``mask`` (``cards`` its
    ``ncards`` bits in order), plane after plane, ``ncards`` bits each."""
    if FAST_BITS:
        return dk_gather4_bmi2(m, mask, ncards)
    cdef uint64_t g0 = 0, g1 = 0, g2 = 0, g3 = 0
    cdef int j, p
    for j in range(ncards):
        p = cards[j]
        g0 |= ((m[0] >> p) & 1) << j
        g1 |= ((m[1] >> p) & 1) << j
        g2 |= ((m[2] >> p) & 1) << j
        g3 |= ((m[3] >> p) & 1) << j
    return g0 | (g1 << ncards) | (g2 << (2 * ncards)) | (g3 << (3 * ncards))


cdef inline void scatter4(uint64_t k, uint64_t mask, int8_t* cards, int ncards,
                          uint64_t* m) noexcept nogil:
    """The inverse of :func:`gather4`: the four planes from their bits."""
    if FAST_BITS:
        dk_scatter4_bmi2(k, mask, ncards, m)
        return
    cdef uint64_t b
    cdef int j
    m[0] = m[1] = m[2] = m[3] = 0
    for j in range(ncards):
        b = (<uint64_t>1) << cards[j]
        m[0] |= b & (<uint64_t>0 - ((k >> j) & 1))
        m[1] |= b & (<uint64_t>0 - ((k >> (ncards + j)) & 1))
        m[2] |= b & (<uint64_t>0 - ((k >> (2 * ncards + j)) & 1))
        m[3] |= b & (<uint64_t>0 - ((k >> (3 * ncards + j)) & 1))


cdef inline uint64_t with_code(uint64_t* m, int code) noexcept nogil:
    """The cards whose location code (the planes ``m``) is ``code``."""
    return ((m[0] if code & 1 else ~m[0]) & (m[1] if code & 2 else ~m[1])
            & (m[2] if code & 4 else ~m[2]) & (m[3] if code & 8 else ~m[3]))


cdef inline uint64_t retro_key(St* s, int n, uint64_t mask, int8_t* cards, int ncards) noexcept nogil:
    """A state's identity in one word: the location code of each of the root's
    ``ncards`` cards (``mask``; 0 gone, 1-6 hand of seat, 7 open attack, 8
    covered attack, 9 cover, 10-15 hand of seat and shown for a transfer,
    R14), as four bit planes of ``ncards`` bits (:func:`gather4`), then the
    bout's fields.  The planes are made from the card sets without a branch
    per card."""
    cdef uint64_t m[4]
    cdef uint64_t h, sh = s.shown
    cdef int i, j, code
    m[0] = s.opn | s.cov                  # 7 = 0111, 9 = 1001
    m[1] = s.opn
    m[2] = s.opn
    m[3] = (s.att & ~s.opn) | s.cov       # 8 = 1000
    for i in range(n):
        for j in range(2 if sh else 1):
            h = s.hand[i] & (sh if j else ~sh)
            code = (10 if j else 1) + i
            if code & 1:
                m[0] |= h
            if code & 2:
                m[1] |= h
            if code & 4:
                m[2] |= h
            if code & 8:
                m[3] |= h
    return gather4(m, mask, cards, ncards) | (
        ((<uint64_t>(s.attacker & 7)) | ((<uint64_t>(s.defender & 7)) << 3)
         | ((<uint64_t>((s.turn + 1) & 15)) << 6) | ((<uint64_t>s.take) << 10)
         | ((<uint64_t>(s.limit & 7)) << 11) | ((<uint64_t>(s.cap & 7)) << 14)
         | ((<uint64_t>s.over) << 17) | ((<uint64_t>(s.fresh & 1)) << 18)) << (4 * ncards))


cdef inline void retro_state(uint64_t k, int n, uint64_t mask, int8_t* cards, int ncards,
                             St* s) noexcept nogil:
    """The state of key ``k`` (the inverse of :func:`retro_key`, with the pile
    empty): the key is the whole state, so the breadth-first frontier keeps
    8-byte keys, not 96-byte states."""
    cdef uint64_t x = k >> (4 * ncards)
    cdef uint64_t m[4]
    cdef int j
    memset(s, 0, sizeof(St))
    scatter4(k, mask, cards, ncards, m)
    for j in range(n):
        s.hand[j] = (with_code(m, 1 + j) | with_code(m, 10 + j)) & mask
        s.shown |= with_code(m, 10 + j) & mask
    s.opn = with_code(m, 7) & mask
    s.att = s.opn | (with_code(m, 8) & mask)
    s.cov = with_code(m, 9) & mask
    s.attacker = <int8_t>(x & 7) if (x & 7) != 7 else -1
    s.defender = <int8_t>((x >> 3) & 7) if ((x >> 3) & 7) != 7 else -1
    s.turn = <int8_t>(((x >> 6) & 15) - 1)
    s.take = <int8_t>((x >> 10) & 1)
    s.limit = <int8_t>((x >> 11) & 7)
    s.cap = <int8_t>((x >> 14) & 7)
    s.over = <int8_t>((x >> 17) & 1)
    s.fresh = <int8_t>((x >> 18) & 1)
    s.pile = 0
    s.trump_card = -1
    s.tfloor = -1
    s.tfseat = 0


cdef enum:
    BIG_SLOTS = 1 << 18  # from this many slots (4 MiB) on, the hash lives in one reserved mapping


cdef int retro_expand(Ctx* c, uint64_t key, uint64_t mask, int8_t* cards, int ncards,
                      uint64_t* kkeys, uint64_t* khash, uint8_t* kinfo) noexcept nogil:
    """The successors of the state of key ``key``: their keys, hashes and facts
    (mover + 1, over, the hero's outcome + 1: the graph's ``info`` byte);
    returns how many (none once the game is over).  Reads ``c`` (its hero is
    the graph's while the graph is built) and writes only the buffers, so the
    builder's helper thread can run it."""
    cdef Mv ms[MAXMOVES]
    cdef St cur, kid
    cdef int nm, m, v
    retro_state(key, c.n, mask, cards, ncards, &cur)
    if cur.over:
        return 0
    nm = gen_moves(c, &cur, ms, 0)
    for m in range(nm):
        kid = cur
        play(c, &kid, &ms[m])
        kid.tfloor = -1
        kid.tfseat = 0
        kkeys[m] = retro_key(&kid, c.n, mask, cards, ncards)
        khash[m] = mix64(kkeys[m])
        v = 0
        if kid.over:
            outcome_known(c, &kid, &v)
        kinfo[m] = <uint8_t>((to_move(&kid) + 1) | (kid.over << 3) | ((v + 1) << 4))
    return nm


ctypedef struct RWork:
    # What the builder (RetroGraph._build_parallel) and its helper thread share.
    Ctx* c
    uint64_t* keys      # the states' keys (the builder appends, the helper reads)
    uint64_t mask
    int8_t* cards
    int ncards
    int64_t known       # states whose keys may be read (builder -> helper)
    int64_t linked      # states the builder is done with (builder -> helper)
    int64_t kids_linked # ... and the kid ring up to there
    int64_t first       # the first state the helper may expand
    int stop            # the builder is done (or gave up): the helper leaves
    int64_t* xdone      # per state the helper expanded (at j % XSTATES): j + 1 once it is ready
    int64_t* xstart     # ... its first kid's place in the kid ring
    int32_t* xcount     # ... and its number of successors
    uint64_t* xkey      # the kid ring (place % XKIDS): keys, hashes, facts
    uint64_t* xhash
    uint8_t* xinfo


cdef void* retro_helper(void* arg) noexcept nogil:
    """The helper thread of a big graph's build: it expands the states in
    order into the kid ring (retro_expand) and marks each ready; the builder
    links them in order.  Expanding is the bigger half of the work, so the
    builder expands every OWN_EVERY-th state itself.  Handing work over costs
    a cache line or two per state, in order; the builder's counters are
    published every 32 states or when it has to wait: never a lock."""
    cdef RWork* w = <RWork*>arg
    cdef int64_t j, pos = 0, known = 0, linked = 0, kids_linked = 0
    cdef int spins = 0, nm, b, m
    cdef uint64_t kk[MAXMOVES]
    cdef uint64_t kh[MAXMOVES]
    cdef uint8_t ki[MAXMOVES]
    j = w.first
    while not dk_load_int(&w.stop):
        if j % OWN_EVERY == OWN_EVERY - 1:
            j += 1  # the builder's own
            continue
        if j >= known or j >= linked + XSTATES or pos + MAXMOVES > kids_linked + XKIDS:
            known = dk_load_acq(&w.known)
            linked = dk_load_acq(&w.linked)
            kids_linked = dk_load_acq(&w.kids_linked)
            if j >= known or j >= linked + XSTATES or pos + MAXMOVES > kids_linked + XKIDS:
                dk_wait(&spins)
                continue
        spins = 0
        nm = retro_expand(w.c, w.keys[j], w.mask, w.cards, w.ncards, kk, kh, ki)
        b = <int>(j & (XSTATES - 1))
        w.xstart[b] = pos
        w.xcount[b] = nm
        for m in range(nm):
            w.xkey[(pos + m) & (XKIDS - 1)] = kk[m]
            w.xhash[(pos + m) & (XKIDS - 1)] = kh[m]
            w.xinfo[(pos + m) & (XKIDS - 1)] = ki[m]
        pos += nm
        dk_store_rel(&w.xdone[b], j + 1)
        j += 1
    return NULL


ctypedef struct RPass:
    # One attractor pass of RetroGraph._solve: the graph's predecessor lists,
    # its records and queue, the target it proves.
    int64_t n
    int32_t* pstart
    int32_t* pred
    int32_t* start
    uint8_t* info
    int8_t* value
    RNode* node
    int32_t* queue      # the states decided, in order: queue[step * k] for k = 0, 1, ...
    int64_t step
    int target


cdef void retro_pass(RPass* p) noexcept nogil:
    """The states from which the side of ``p.target`` (+1: the hero's, -1: the
    others') forces that outcome, level by level from the game's ends: the
    level is the distance (the fastest forced win, the longest resistance).

    Each level walks the predecessors of the states just decided: a random
    access per edge.  What the walk reads of a state -- decided yet, moves
    left to refute, whose move -- sits together in one :c:type:`RNode`, so an
    edge costs one cache miss, and what the states queued next will read is
    prefetched while this one is handled."""
    cdef int64_t a, b, e, head = 0, tail = 0, level_end, n = p.n, step = p.step
    cdef int d = 0, v, prover_is_hero = p.target == 1
    cdef RNode* node = p.node
    cdef int32_t* queue = p.queue
    cdef int32_t* pstart = p.pstart
    cdef int32_t* pred = p.pred
    for a in range(n):
        node[a].left = <int16_t>(p.start[a + 1] - p.start[a])
        if (p.info[a] >> 3) & 1 and node[a].dist < 0:
            v = (p.info[a] >> 4) - 1
            if v == p.target:
                p.value[a] = <int8_t>p.target
                node[a].dist = 0
                queue[step * tail] = <int32_t>a
                tail += 1
    while head < tail:
        level_end = tail
        while head < level_end:
            b = queue[step * head]
            head += 1
            # a three-stage prefetch down the queue: the offsets of the state 8
            # ahead, the predecessor list of the one 4 ahead, the records of
            # the next one's predecessors -- each load below then finds its
            # line on the way or arrived
            if head + 8 < tail:
                __builtin_prefetch(&pstart[queue[step * (head + 8)]])
            if head + 4 < tail:
                __builtin_prefetch(&pred[pstart[queue[step * (head + 4)]]])
            if head < tail:
                for e in range(pstart[queue[step * head]], pstart[queue[step * head] + 1]):
                    __builtin_prefetch(&node[pred[e]])
            for e in range(pstart[b], pstart[b + 1]):
                a = pred[e]
                if node[a].dist >= 0:
                    continue
                if node[a].hero_moves != prover_is_hero:  # the defender refutes
                    node[a].left -= 1
                    if node[a].left > 0:
                        continue
                p.value[a] = <int8_t>p.target
                node[a].dist = d + 1
                queue[step * tail] = <int32_t>a
                tail += 1
        d += 1


cdef void* retro_pass_thread(void* arg) noexcept nogil:
    retro_pass(<RPass*>arg)
    return NULL


cdef class RetroGraph:
    """The reachable state graph of a small game, valued for one hero by retrograde analysis.

    ``RetroGraph(root, hero, max_states, deadline, threads)`` builds and values
    it, or raises ``OverflowError`` when the game has more than ``max_states``
    states (the caller then searches instead), ``TimeoutError`` past
    ``deadline`` (an absolute ``time.monotonic()`` time; 0: none) and
    ``ValueError`` for a root with a pile or more than RETRO_CARDS cards in
    play.  ``threads`` 2: past PAR_FROM states a helper thread expands states
    ahead of the builder, and the two attractor passes run at once (the same
    graph and values).  Values are +1/0/-1 for the hero's side, distances in
    plies (``None`` for a draw).
    """

    def __cinit__(self, CState root, int hero, int64_t max_states=2_000_000,
                  double deadline=0.0, int threads=1):
        self.c = root.c
        self.deadline = deadline
        self.owner = root.owner
        self.hero = hero
        self.max_states = max_states
        self.threads = threads
        cdef uint64_t ns = 1 << 12  # grown by _grow as the graph does
        # Everything starts small and doubles as the graph grows: the hint
        # engine solves many graphs of a few thousand states, and a fresh page
        # costs more than the work on it (the kernel zeroes it: on a 2 MiB huge
        # page that is a millisecond).  Big blocks are grown by realloc, which
        # remaps their pages rather than copying them.  The states' keys (the
        # states themselves: retro_state) get room for max_states at once, an
        # address that never moves, as the helper thread reads it: the pages
        # are backed as the graph reaches them.
        self.slots = <RSlot*>calloc(ns, sizeof(RSlot))
        self.slot_mask = ns - 1
        self.keys = <uint64_t*>malloc(max(1, max_states) * sizeof(uint64_t))
        self.cap = min(max_states, 1 << 12)
        self.info = <uint8_t*>malloc(self.cap)
        cdef St s0 = root.s
        cdef uint64_t live = s0.att | s0.cov
        cdef int i
        for i in range(self.c.n):
            live |= s0.hand[i]
        if s0.pile != 0:
            raise ValueError("retrograde graph: the pile must be empty")
        if popcount64(live) > RETRO_CARDS:
            raise ValueError(f"retrograde graph: more than {RETRO_CARDS} cards in play")
        self.ncards = 0
        self.card_mask = live
        for i in range(52):
            if (live >> i) & 1:
                self.cards[self.ncards] = <int8_t>i
                self.ncards += 1
        self.start = <int32_t*>malloc((self.cap + 1) * sizeof(int32_t))
        self.succ_cap = 4 * self.cap
        self.succ = <int32_t*>malloc(self.succ_cap * sizeof(int32_t))
        if (self.slots == NULL or self.keys == NULL or self.info == NULL or self.start == NULL
                or self.succ == NULL):
            raise MemoryError("retrograde graph")
        s0.tfloor = -1
        s0.tfseat = 0
        self.start_state = s0
        cdef int r, oh = self.c.hero
        self.c.hero = hero  # the key names the hero with 3+ players (key_hero)
        with nogil:
            r = self._build(&s0)
        self.c.hero = oh
        if r == -1:
            raise OverflowError(f"more than {max_states} states")
        if r == -2:
            raise MemoryError("retrograde graph")
        if r == -3:
            raise KeyboardInterrupt()
        if r == -4:
            raise TimeoutError("retrograde graph: out of time")
        with nogil:
            r = self._solve()
        if r != 0:
            raise MemoryError("retrograde graph")

    def __dealloc__(self):
        free(self.keys)
        free(self.info)
        if self.slots != self.big:
            free(self.slots)
        dk_table_free(self.big)
        free(self.spare)
        free(self.start)
        free(self.succ)
        free(self.value)
        free(self.dist)

    cdef inline uint64_t _key(self, St* s) noexcept nogil:
        """The identity of ``s`` in this graph (:func:`retro_key`)."""
        return retro_key(s, self.c.n, self.card_mask, self.cards, self.ncards)

    cdef int64_t _find(self, uint64_t k, uint64_t h) noexcept nogil:
        """The index of the state of identity ``k`` (hash ``h``), or -1 - its free slot."""
        cdef uint64_t i = h & self.slot_mask
        cdef RSlot* o
        while True:
            o = &self.slots[i]
            if o.index == 0:
                return -1 - <int64_t>i
            if o.key == k:
                return <int64_t>o.index - 1
            i = (i + 1) & self.slot_mask

    cdef int64_t _add(self, St* s) noexcept nogil:
        """The index of ``s``, added if new; -1: more than ``max_states`` states,
        -2: out of memory."""
        cdef uint64_t k = self._key(s)
        cdef int v = 0
        if s.over:
            outcome_known(self.c, s, &v)  # c.hero is the graph's hero while it is built
        return self._add_keyed(k, mix64(k), <uint8_t>((to_move(s) + 1) | (s.over << 3)
                                                      | ((v + 1) << 4)))

    cdef int64_t _add_keyed(self, uint64_t k, uint64_t h, uint8_t info) noexcept nogil:
        """:meth:`_add` with the key ``k``, its hash ``h`` and the state's facts
        (the ``info`` byte) already worked out."""
        cdef int64_t f = self._find(k, h)
        if f >= 0:
            return f
        if self.n >= self.max_states:
            return -1
        if self.n == self.cap and self._grow_states() != 0:
            return -2
        self.keys[self.n] = k
        self.info[self.n] = info
        self.slots[-1 - f].key = k
        self.slots[-1 - f].index = <uint32_t>(self.n + 1)
        self.n += 1
        if <uint64_t>(4 * self.n) > 3 * self.slot_mask and self._grow() != 0:
            return -2
        return self.n - 1

    cdef int _grow_states(self) noexcept nogil:
        """Twice the room for the states' facts and successor offsets."""
        cdef int64_t cap = min(2 * self.cap, self.max_states)
        cdef void* p = realloc(self.info, cap)
        if p == NULL:
            return -2
        self.info = <uint8_t*>p
        p = realloc(self.start, (cap + 1) * sizeof(int32_t))
        if p == NULL:
            return -2
        self.start = <int32_t*>p
        self.cap = cap
        return 0

    cdef int _grow(self) noexcept nogil:
        """Double the hash (at most three quarters full), re-placing every state
        by its key's hash.

        A big hash is probed at random, so with 4 KiB pages nearly every probe
        would miss the TLB as well as the cache: from BIG_SLOTS on it lives in
        one mapping with huge pages, reserved at once for the most slots the
        graph may need (untouched pages cost nothing) and grown in place --
        the old slots copied aside, cleared and re-placed -- so the pages
        already backed are used again.  A fresh huge page is expensive (the
        kernel zeroes 2 MiB; on this project's virtual machines 20% of a large
        graph's time went into zeroing the tables a doubling hash leaves
        behind); a tiny graph never touches one."""
        cdef uint64_t ns = 2 * (self.slot_mask + 1), old = self.slot_mask + 1, i, o, cap
        cdef RSlot* src
        cdef RSlot* dst
        cdef void* p
        if ns < BIG_SLOTS:
            dst = <RSlot*>calloc(ns, sizeof(RSlot))
            if dst == NULL:
                return -2
            src = self.slots
        else:
            if self.big == NULL:  # room for max_states states at most 3/4 full
                cap = BIG_SLOTS
                while 3 * cap < 4 * <uint64_t>self.max_states + 4:
                    cap *= 2
                self.big = <RSlot*>dk_table_alloc(cap * sizeof(RSlot))
                if self.big == NULL:
                    return -2
            if self.slots == self.big:  # grown in place: the old slots set aside
                p = realloc(self.spare, old * sizeof(RSlot))
                if p == NULL:
                    return -2
                self.spare = <RSlot*>p
                memcpy(self.spare, self.big, old * sizeof(RSlot))
                memset(self.big, 0, old * sizeof(RSlot))
                src = self.spare
            else:
                src = self.slots
            dst = self.big
        for o in range(old):
            if src[o].index == 0:
                continue
            i = mix64(src[o].key) & (ns - 1)
            while dst[i].index != 0:
                i = (i + 1) & (ns - 1)
            dst[i] = src[o]
        if src != self.spare:
            free(src)
        self.slots = dst
        self.slot_mask = ns - 1
        return 0

    cdef int _expand(self, int64_t i, uint64_t* kkeys, uint64_t* khash,
                     uint8_t* kinfo) noexcept nogil:
        """State ``i``'s successors (:func:`retro_expand`), their hash slots
        prefetched; returns how many."""
        cdef int nm = retro_expand(self.c, self.keys[i], self.card_mask, self.cards,
                                   self.ncards, kkeys, khash, kinfo), m
        for m in range(nm):
            __builtin_prefetch(&self.slots[khash[m] & self.slot_mask])
        return nm

    cdef int _link(self, int64_t i, uint64_t* kkeys, uint64_t* khash, uint8_t* kinfo,
                   int nm) noexcept nogil:
        """Look up (or add) state ``i``'s ``nm`` successors (keys, hashes and
        facts) and record each once as its successor; then the budgets.  0, or
        -1 .. -4 as :meth:`_build`."""
        cdef int64_t first = self.nsucc, j, k
        cdef int m, dup
        cdef int32_t* grown
        self.start[i] = <int32_t>self.nsucc
        for m in range(nm):
            j = self._add_keyed(kkeys[m], khash[m], kinfo[m])
            if j < 0:
                return <int>j
            dup = 0
            for k in range(first, self.nsucc):
                if self.succ[k] == j:
                    dup = 1
                    break
            if dup:
                continue
            if self.nsucc == self.succ_cap:
                grown = <int32_t*>realloc(self.succ, 2 * self.succ_cap * sizeof(int32_t))
                if grown == NULL:
                    return -2
                self.succ = grown
                self.succ_cap *= 2
            self.succ[self.nsucc] = <int32_t>j
            self.nsucc += 1
        i += 1
        if (i & 0xFFF) == 0 and self.deadline > 0 and dk_now() > self.deadline:
            return -4
        if (i & 0xFFFF) == 0:
            with gil:
                if PyErr_CheckSignals() != 0:
                    PyErr_Clear()
                    return -3
        return 0

    cdef int _build(self, St* root) noexcept nogil:
        """Every state reachable from ``root``, in BFS order, with its successors.

        Most of the time goes into memory: every successor is looked up in a
        hash of millions of states (a cache miss).  So the work is pipelined
        over the BFS order: state ``i + 2`` is expanded and its successors'
        slots prefetched while states ``i + 1`` and ``i`` wait their turn, and
        only then are state ``i``'s successors looked up -- by then their slots
        have (mostly) arrived.  A big graph goes on with a helper thread
        (:meth:`_build_parallel`) when one was asked for.
        """
        # PIPE buffers of successors' keys, hashes and facts, used round-robin by state index
        cdef uint64_t* kkeys = <uint64_t*>malloc(PIPE * MAXMOVES * sizeof(uint64_t))
        cdef uint64_t* khash = <uint64_t*>malloc(PIPE * MAXMOVES * sizeof(uint64_t))
        cdef uint8_t* kinfo = <uint8_t*>malloc(PIPE * MAXMOVES)
        cdef int nms[PIPE]
        cdef int64_t i = 0, ready = -1  # states 0 .. ready are expanded
        cdef int rc = 0, b
        if kkeys == NULL or khash == NULL or kinfo == NULL or self._add(root) < 0:
            rc = -2
        while rc == 0 and i < self.n:
            if i == PAR_FROM and self.threads > 1:
                rc = self._build_parallel(i)
                if rc != 1:
                    break
                rc = 0  # no thread to be had: on alone
                self.threads = 1
                ready = i - 1
            while ready < i + PIPE - 1 and ready + 1 < self.n:  # expand ahead
                ready += 1
                b = <int>(ready % PIPE)
                nms[b] = self._expand(ready, &kkeys[b * MAXMOVES], &khash[b * MAXMOVES],
                                      &kinfo[b * MAXMOVES])
            b = <int>(i % PIPE)
            rc = self._link(i, &kkeys[b * MAXMOVES], &khash[b * MAXMOVES], &kinfo[b * MAXMOVES],
                            nms[b])
            i += 1
        free(kkeys)
        free(khash)
        free(kinfo)
        if rc == 0:
            self.start[self.n] = <int32_t>self.nsucc
        return rc

    cdef int _build_parallel(self, int64_t i) noexcept nogil:
        """The rest of :meth:`_build` from state ``i`` on, with a helper thread
        expanding states ahead (:func:`retro_helper`) while this one looks
        their successors up and links them in order -- the same graph, the
        same numbering.  Returns 1 at once if no thread can be had."""
        cdef RWork w
        cdef dk_thread t
        cdef int rc = 0, spins = 0, nm, m
        cdef int64_t b, p, bn, j, kl = 0, own_j = -1
        cdef int own_nm = 0
        cdef uint64_t ok[MAXMOVES]
        cdef uint64_t oh[MAXMOVES]
        cdef uint8_t oi[MAXMOVES]
        cdef uint64_t kk[MAXMOVES]
        cdef uint64_t kh[MAXMOVES]
        cdef uint8_t ki[MAXMOVES]
        memset(&w, 0, sizeof(RWork))
        w.xdone = <int64_t*>calloc(XSTATES, sizeof(int64_t))
        w.xstart = <int64_t*>malloc(XSTATES * sizeof(int64_t))
        w.xcount = <int32_t*>malloc(XSTATES * sizeof(int32_t))
        w.xkey = <uint64_t*>malloc(XKIDS * sizeof(uint64_t))
        w.xhash = <uint64_t*>malloc(XKIDS * sizeof(uint64_t))
        w.xinfo = <uint8_t*>malloc(XKIDS)
        if (w.xdone == NULL or w.xstart == NULL or w.xcount == NULL or w.xkey == NULL
                or w.xhash == NULL or w.xinfo == NULL):
            rc = -2
        else:
            w.c = self.c
            w.keys = self.keys
            w.mask = self.card_mask
            w.cards = self.cards
            w.ncards = self.ncards
            w.known = self.n
            w.linked = i
            w.first = i
            if dk_thread_start(&t, retro_helper, &w) != 0:
                rc = 1
            else:
                while i < self.n:
                    j = i + 2  # two states ahead: expand if it is ours, else prefetch its slots
                    if j < self.n and j > own_j and j % OWN_EVERY == OWN_EVERY - 1:
                        own_nm = self._expand(j, ok, oh, oi)
                        own_j = j
                    elif j % OWN_EVERY != OWN_EVERY - 1:
                        bn = j & (XSTATES - 1)
                        if dk_load_acq(&w.xdone[bn]) == j + 1:
                            for m in range(w.xcount[bn]):
                                __builtin_prefetch(&self.slots[w.xhash[(w.xstart[bn] + m) & (XKIDS - 1)]
                                                               & self.slot_mask])
                    if i % OWN_EVERY == OWN_EVERY - 1:
                        if own_j != i:
                            own_nm = self._expand(i, ok, oh, oi)
                            own_j = i
                        rc = self._link(i, ok, oh, oi, own_nm)
                    else:
                        b = i & (XSTATES - 1)
                        if dk_load_acq(&w.xdone[b]) != i + 1:  # not ready: wait
                            dk_store_rel(&w.known, self.n)
                            dk_store_rel(&w.linked, i)
                            dk_store_rel(&w.kids_linked, kl)
                            while dk_load_acq(&w.xdone[b]) != i + 1:
                                dk_wait(&spins)
                            spins = 0
                        p = w.xstart[b] & (XKIDS - 1)
                        nm = w.xcount[b]
                        kl = w.xstart[b] + nm
                        if p + nm > XKIDS:  # the kids wrap round the ring: gathered first
                            for m in range(nm):
                                kk[m] = w.xkey[(p + m) & (XKIDS - 1)]
                                kh[m] = w.xhash[(p + m) & (XKIDS - 1)]
                                ki[m] = w.xinfo[(p + m) & (XKIDS - 1)]
                            rc = self._link(i, kk, kh, ki, nm)
                        else:
                            rc = self._link(i, &w.xkey[p], &w.xhash[p], &w.xinfo[p], nm)
                    if rc != 0:
                        break
                    i += 1
                    if (i & 31) == 0:
                        dk_store_rel(&w.known, self.n)
                        dk_store_rel(&w.linked, i)
                        dk_store_rel(&w.kids_linked, kl)
                dk_store_int(&w.stop, 1)
                dk_thread_join(&t)
        free(w.xdone)
        free(w.xstart)
        free(w.xcount)
        free(w.xkey)
        free(w.xhash)
        free(w.xinfo)
        return rc

    cdef int _solve(self) noexcept nogil:
        """The hero's and the others' attractors, level by level (the distances):
        the predecessor lists, then the two passes (:func:`retro_pass`) -- with
        two threads on a big graph, one each (the attractors are disjoint: a
        pass never adds a state the other decides, so neither needs the
        other's results)."""
        cdef int64_t n = self.n, m = self.nsucc, a, b, e, ahead
        # edge offsets fit 32 bits: at most MAX_STATES x MAXMOVES edges
        cdef int32_t* pstart = <int32_t*>calloc(n + 2, sizeof(int32_t))
        cdef int32_t* pred = <int32_t*>malloc((self.nsucc + 1) * sizeof(int32_t))
        cdef RNode* node = <RNode*>malloc((n + 1) * sizeof(RNode))
        cdef int32_t* queue = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        cdef RNode* node2 = NULL
        cdef int hero_team = team(self.c, self.hero), rc = 0
        cdef RPass win, loss
        cdef dk_thread t
        self.value = <int8_t*>calloc(n + 1, sizeof(int8_t))
        self.dist = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        if (pstart == NULL or pred == NULL or node == NULL or queue == NULL
                or self.value == NULL or self.dist == NULL):
            free(pstart); free(pred); free(node); free(queue)
            return -2
        for a in range(n):
            node[a].dist = -1
            node[a].hero_moves = team(self.c, (self.info[a] & 7) - 1) == hero_team
        # the edges in order, each counter they bump fetched 16 edges ahead
        for e in range(m):
            ahead = e + 16 if e + 16 < m else m - 1
            __builtin_prefetch(&pstart[self.succ[ahead] + 2])
            pstart[self.succ[e] + 2] += 1
        for a in range(n):  # pstart[b + 1]: where b's predecessors start
            pstart[a + 2] += pstart[a + 1]
        for a in range(n):  # ... filled in, each pstart[b + 1] moves on to b's end
            for e in range(self.start[a], self.start[a + 1]):
                ahead = e + 16 if e + 16 < m else m - 1
                __builtin_prefetch(&pstart[self.succ[ahead] + 1])
                b = self.succ[e]
                pred[pstart[b + 1]] = <int32_t>a
                pstart[b + 1] += 1
        win.n = loss.n = n
        win.pstart = loss.pstart = pstart
        win.pred = loss.pred = pred
        win.start = loss.start = self.start
        win.info = loss.info = self.info
        win.value = loss.value = self.value
        win.node = loss.node = node
        # the won states fill the queue from its start, the lost ones from its
        # end: the two sets are disjoint, so together at most n
        win.queue = queue
        win.step = 1
        loss.queue = &queue[n]
        loss.step = -1
        win.target = 1
        loss.target = -1
        if self.threads > 1 and n >= PAR_FROM and sizeof(RNode) <= sizeof(uint64_t):
            # the loss pass on records of its own, in the keys' memory (8 bytes
            # a state, backed already and not needed once the graph is built):
            # fresh pages would cost what the second thread saves
            node2 = <RNode*>self.keys
            memcpy(node2, node, n * sizeof(RNode))
            loss.node = node2
            if dk_thread_start(&t, retro_pass_thread, &loss) == 0:
                retro_pass(&win)
                dk_thread_join(&t)
                rc = 1
            else:
                loss.node = node
        if rc == 0:  # one after the other, on one set of records
            retro_pass(&win)
            retro_pass(&loss)
        for a in range(n):
            self.dist[a] = node[a].dist if node[a].dist >= 0 or rc == 0 else node2[a].dist
        free(pstart); free(pred); free(node); free(queue)
        return 0

    @property
    def states_count(self):
        """The number of reachable states."""
        return self.n

    def root(self):
        """(value, distance) of the root for the hero; distance None for a draw."""
        return self.value[0], (None if self.dist[0] < 0 else self.dist[0])

    cdef int64_t _child(self, St* src, Mv* m, St* out) noexcept nogil:
        """``out`` = the state after move ``m`` from ``src``; returns its index
        in the graph (-1: not in the graph)."""
        out[0] = src[0]
        play(self.c, out, m)
        out.tfloor = -1
        out.tfseat = 0
        cdef uint64_t k = self._key(out)
        cdef int64_t j = self._find(k, mix64(k))
        return j if j >= 0 else -1

    def moves(self):
        """[(move, value, distance)] of the root's legal moves in engine order;
        the distance counts the move itself (None for a draw)."""
        cdef Mv ms[MAXMOVES]
        cdef int nm = gen_moves(self.c, &self.start_state, ms, 0), m
        out = []
        cdef int64_t j
        cdef St t
        for m in range(nm):
            j = self._child(&self.start_state, &ms[m], &t)
            if j < 0:
                raise RuntimeError("retrograde graph: a successor is missing")
            out.append(((ms[m].kind, ms[m].cards, ms[m].card, ms[m].target), self.value[j],
                        None if self.dist[j] < 0 else self.dist[j] + 1))
        return out

    def variation(self, int max_plies=400):
        """The principal variation from the root: each side's best move in turn
        (S2a: the hero's side wins fastest and loses slowest, the others the
        reverse); it ends with the game, at a repetition (a draw), or after
        ``max_plies``.  Moves as (kind, cards, card, target)."""
        cdef Mv ms[MAXMOVES]
        cdef int64_t a = 0, j, best_j
        cdef int nm, m, best_m, mine, v, dd
        cdef long best_k, k
        # the states of the line are played out; the graph gives their values
        cdef St cur = self.start_state, t, best_t
        seen = {0}
        out = []
        while not cur.over and len(out) < max_plies:
            nm = gen_moves(self.c, &cur, ms, 0)
            mine = team(self.c, to_move(&cur)) == team(self.c, self.hero)
            best_m = -1
            best_j = -1
            best_k = 0
            for m in range(nm):
                j = self._child(&cur, &ms[m], &t)
                if j < 0:
                    raise RuntimeError("retrograde graph: a successor is missing")
                v = self.value[j]
                dd = self.dist[j]
                # the order of solver.search.result.rank_moves
                if mine:
                    k = -v * 100000 + (dd if v > 0 else (-dd if v < 0 else 0))
                else:
                    k = v * 100000 + (-dd if v > 0 else (dd if v < 0 else 0))
                if best_m < 0 or k < best_k:
                    best_m, best_j, best_k = m, j, k
                    best_t = t
            out.append((ms[best_m].kind, ms[best_m].cards, ms[best_m].card, ms[best_m].target))
            cur = best_t
            a = best_j
            if a in seen:
                break  # R23: the variation repeats
            seen.add(a)
        return out
