# Included by _core.pyx: exact values and distances of small games by
# retrograde analysis of the whole reachable state graph (S1, S2, R23).
#
# Why: the proof search (search.pxi) must not store a failure that rests on a
# repetition (R23), so where play can go round the table -- three or more
# players taking in turn -- proving a draw re-searches the same cycles again
# and again.  A small game's whole graph, though, fits in memory: a 9-card
# 3-player endgame has under a million states.  Retrograde analysis values
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
# ranks, interchangeable suits), but in one small game it merges few of them
# (6% on the largest 9-card games) and costs two to three words kept apart
# from the slots; and it folds states between bouts more than inside them, so
# the successors of two states with one key need not share keys.  The discard
# pile is the root's cards that are nowhere else.


cdef enum RetroConst:
    RETRO_CARDS = 11     # live cards a graph may have: 11 nibbles and the bout's 19 bits fill a word
    PIPE = 3             # states in flight in the pipelined graph building (_build)


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


cdef class RetroGraph:
    """The reachable state graph of a small game, valued for one hero by retrograde analysis.

    ``RetroGraph(root, hero, max_states, deadline)`` builds and values it, or
    raises ``OverflowError`` when the game has more than ``max_states`` states
    (the caller then searches instead) and ``TimeoutError`` past ``deadline``
    (an absolute ``time.monotonic()`` time; 0: none).  Values are +1/0/-1 for
    the hero's side, distances in plies (``None`` for a draw).
    """

    def __cinit__(self, CState root, int hero, int64_t max_states=2_000_000,
                  double deadline=0.0):
        self.c = root.c
        self.deadline = deadline
        self.owner = root.owner
        self.hero = hero
        self.max_states = max_states
        cdef uint64_t ns = 1 << 12  # grown by _grow as the graph does
        # Everything starts small and doubles as the graph grows: the hint
        # engine solves many graphs of a few thousand states, and a fresh page
        # costs more than the work on it (the kernel zeroes it: on a 2 MiB huge
        # page that is a millisecond).  Big blocks are grown by realloc, which
        # remaps their pages rather than copying them.  The states themselves
        # are needed only until they are expanded: a ring holds the keys of
        # the breadth-first frontier (_add grows it when it is full).
        self.slots = <RSlot*>calloc(ns, sizeof(RSlot))
        self.slot_mask = ns - 1
        self.ring_mask = (1 << 10) - 1
        self.ring = <uint64_t*>malloc((self.ring_mask + 1) * sizeof(uint64_t))
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
        if (self.slots == NULL or self.ring == NULL or self.info == NULL or self.start == NULL
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
        free(self.ring)
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
        return self._add_keyed(s, k, mix64(k))

    cdef int64_t _add_keyed(self, St* s, uint64_t k, uint64_t h) noexcept nogil:
        """:meth:`_add` with the key ``k`` and its hash ``h`` already worked out."""
        cdef int64_t f = self._find(k, h)
        if f >= 0:
            return f
        if self.n >= self.max_states:
            return -1
        if self.n == self.cap and self._grow_states() != 0:
            return -2
        if self.n - self.head > self.ring_mask and self._grow_ring() != 0:
            return -2
        self.ring[self.n & self.ring_mask] = k
        cdef int v = 0, mover = to_move(s)
        if s.over:
            outcome_known(self.c, s, &v)  # c.hero is the graph's hero while it is built
        self.info[self.n] = <uint8_t>((mover + 1) | (s.over << 3) | ((v + 1) << 4))
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

    cdef int _grow_ring(self) noexcept nogil:
        """Double the ring of states waiting to be expanded (head .. n - 1)."""
        cdef int64_t size = 2 * (self.ring_mask + 1), a
        cdef uint64_t* ring = <uint64_t*>malloc(size * sizeof(uint64_t))
        if ring == NULL:
            return -2
        for a in range(self.head, self.n):
            ring[a & (size - 1)] = self.ring[a & self.ring_mask]
        free(self.ring)
        self.ring = ring
        self.ring_mask = size - 1
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

    cdef int _expand(self, int64_t i, St* kids, uint64_t* kkeys, uint64_t* khash) noexcept nogil:
        """State ``i``'s successors with their keys and hashes, their hash slots
        prefetched; returns how many (none once the game is over)."""
        cdef Mv ms[MAXMOVES]
        cdef St cur
        cdef int nm, m
        retro_state(self.ring[i & self.ring_mask], self.c.n, self.card_mask, self.cards,
                    self.ncards, &cur)
        if cur.over:
            return 0
        nm = gen_moves(self.c, &cur, ms, 0)
        for m in range(nm):
            kids[m] = cur
            play(self.c, &kids[m], &ms[m])
            kids[m].tfloor = -1
            kids[m].tfseat = 0
            kkeys[m] = self._key(&kids[m])
            khash[m] = mix64(kkeys[m])
            __builtin_prefetch(&self.slots[khash[m] & self.slot_mask])
        return nm

    cdef int _build(self, St* root) noexcept nogil:
        """Every state reachable from ``root``, in BFS order, with its successors.

        Most of the time goes into memory: every successor is looked up in a
        hash of millions of states (a cache miss for its slot, another for its
        key).  So the work is pipelined over the BFS order: state ``i + 2`` is
        expanded and its successors' slots prefetched while states ``i + 1``
        and ``i`` wait their turn, and only then are state ``i``'s successors
        looked up -- by then their slots have (mostly) arrived.
        """
        # PIPE buffers of successors, keys and hashes, used round-robin by state index
        cdef St* kids = <St*>malloc(PIPE * MAXMOVES * sizeof(St))
        cdef uint64_t* kkeys = <uint64_t*>malloc(PIPE * MAXMOVES * sizeof(uint64_t))
        cdef uint64_t* khash = <uint64_t*>malloc(PIPE * MAXMOVES * sizeof(uint64_t))
        cdef int nms[PIPE]
        cdef int rc = 0
        if kids == NULL or kkeys == NULL or khash == NULL:
            rc = -2
        elif self._add(root) < 0:
            rc = -2
        else:
            rc = self._build_loop(kids, kkeys, khash, nms)
        free(kids)
        free(kkeys)
        free(khash)
        return rc

    cdef int _build_loop(self, St* kids, uint64_t* kkeys, uint64_t* khash, int* nms) noexcept nogil:
        """The pipelined loop of :meth:`_build` over its buffers."""
        cdef int64_t i = 0, j, k, first, ready = -1  # states 0 .. ready are expanded
        cdef int nm, m, dup, b, bn
        cdef int32_t* grown
        while i < self.n:
            self.start[i] = <int32_t>self.nsucc
            first = self.nsucc
            while ready < i + PIPE - 1 and ready + 1 < self.n:  # expand ahead
                ready += 1
                b = <int>(ready % PIPE)
                nms[b] = self._expand(ready, &kids[b * MAXMOVES], &kkeys[b * MAXMOVES],
                                      &khash[b * MAXMOVES])
            self.head = i + 1  # the ring may reuse state i's place from here on
            b = <int>(i % PIPE)
            nm = nms[b]
            for m in range(nm):
                j = self._add_keyed(&kids[b * MAXMOVES + m], kkeys[b * MAXMOVES + m],
                                    khash[b * MAXMOVES + m])
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
        self.start[self.n] = <int32_t>self.nsucc
        return 0

    cdef int _solve(self) noexcept nogil:
        """The hero's and the others' attractors, level by level (the distances).

        Each pass walks the predecessors of the states just decided: a random
        access per edge.  What the walk reads of a state -- decided yet, moves
        left to refute, whose move -- sits together in one :c:type:`RNode`, so an
        edge costs one cache miss, and what the states queued next will read is
        prefetched while this one is handled."""
        cdef int64_t n = self.n, m = self.nsucc, a, b, e, head, tail, level_end, ahead
        # edge offsets fit 32 bits: at most MAX_STATES x MAXMOVES edges (768 M)
        cdef int32_t* pstart = <int32_t*>calloc(n + 2, sizeof(int32_t))
        cdef int32_t* pred = <int32_t*>malloc((self.nsucc + 1) * sizeof(int32_t))
        cdef RNode* node = <RNode*>malloc((n + 1) * sizeof(RNode))
        cdef int32_t* queue = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        cdef int target, prover_is_hero, v, d, ti, hero_team = team(self.c, self.hero)
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
        for ti in range(2):
            target = 1 if ti == 0 else -1
            prover_is_hero = target == 1
            head = tail = 0
            for a in range(n):
                node[a].left = <int16_t>(self.start[a + 1] - self.start[a])
                if (self.info[a] >> 3) & 1 and node[a].dist < 0:
                    v = (self.info[a] >> 4) - 1
                    if v == target:
                        self.value[a] = <int8_t>target
                        node[a].dist = 0
                        queue[tail] = <int32_t>a
                        tail += 1
            d = 0
            while head < tail:
                level_end = tail
                while head < level_end:
                    b = queue[head]
                    head += 1
                    # a three-stage prefetch down the queue: the offsets of the
                    # state 8 ahead, the predecessor list of the one 4 ahead, the
                    # records of the next one's predecessors -- each load below
                    # then finds its line on the way or arrived
                    if head + 8 < tail:
                        __builtin_prefetch(&pstart[queue[head + 8]])
                    if head + 4 < tail:
                        __builtin_prefetch(&pred[pstart[queue[head + 4]]])
                    if head < tail:
                        for e in range(pstart[queue[head]], pstart[queue[head] + 1]):
                            __builtin_prefetch(&node[pred[e]])
                    for e in range(pstart[b], pstart[b + 1]):
                        a = pred[e]
                        if node[a].dist >= 0:
                            continue
                        if node[a].hero_moves != prover_is_hero:  # the defender refutes
                            node[a].left -= 1
                            if node[a].left > 0:
                                continue
                        self.value[a] = <int8_t>target
                        node[a].dist = d + 1
                        queue[tail] = <int32_t>a
                        tail += 1
                d += 1
        for a in range(n):
            self.dist[a] = node[a].dist
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
