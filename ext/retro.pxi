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
# A state's identity is the whole state (retro_key), not the search's
# canonical key: that key folds isomorphic states between bouts more than
# inside them, so the successors of two states with one key need not share
# keys, and a variation followed through the graph could step off it.  The
# discard pile is not part of a state (it changes nothing but the R10
# first-bout flag, which is).  Identity is compared whole, never a hash alone.


cdef enum RetroConst:
    RKEY = KEYWORDS + 1  # words of a state's identity: the canonical key, then over and fresh


cdef inline void retro_key(Ctx* c, St* s, uint64_t* k) noexcept nogil:
    """A state's identity: the search's canonical key without its between-bout
    rank renumbering (``c.iso`` off), and the two fields that key leaves out
    with the pile empty.  This key is invariant under what it folds -- ranks
    nobody holds any more, non-trump suits the rules cannot tell apart -- so
    equal keys are isomorphic states whose successors have equal keys too:
    one node stands for all of them, with the same values and distances.
    (The renumbering is finer between bouts than inside them; with it, two
    states of one key could have successors of different keys.)"""
    cdef int iso = c.iso
    c.iso = 0
    make_key(c, s, k)
    c.iso = iso
    k[<int>KEYWORDS] = (<uint64_t>s.over) | ((<uint64_t>(s.fresh & 1)) << 1)


cdef inline uint64_t retro_hash(uint64_t* k) noexcept nogil:
    return mix64(k[0] * <uint64_t>0x9e3779b97f4a7c15 + k[1] * <uint64_t>0xc2b2ae3d27d4eb4f
                 + k[2] * <uint64_t>0x165667b19e3779f9 + k[3] * <uint64_t>0x27d4eb2f165667c5
                 + k[4] * <uint64_t>0x94d049bb133111eb + k[5])


cdef class RetroGraph:
    """The reachable state graph of a small game, valued for one hero by retrograde analysis.

    ``RetroGraph(root, hero, max_states)`` builds and values it, or raises
    ``OverflowError`` when the game has more than ``max_states`` states (the
    caller then searches instead).  Values are +1/0/-1 for the hero's side,
    distances in plies (``None`` for a draw).
    """

    def __cinit__(self, CState root, int hero, int64_t max_states=2_000_000):
        self.c = root.c
        self.owner = root.owner
        self.hero = hero
        self.max_states = max_states
        cdef uint64_t ns = 1 << 16  # grown by _grow as the graph does
        # Keys and per-state facts: room for max_states at once, held as the
        # transposition table is (an anonymous mapping with huge pages asked
        # for, dk_table_alloc), of which only the pages the graph reaches are
        # ever backed.  The hash starts small and doubles (_grow): its probes
        # touch it everywhere, so an oversized one would be zeroed whole.  The
        # states themselves are needed only until they are expanded: a ring
        # holds the breadth-first frontier (_add grows it when it is full).
        self.slots = <int32_t*>dk_table_alloc(ns * sizeof(int32_t))
        self.slot_mask = ns - 1
        self.ring_mask = (1 << 14) - 1
        self.ring = <St*>malloc((self.ring_mask + 1) * sizeof(St))
        self.info = <uint8_t*>dk_table_alloc(max_states)
        self.keys = <uint64_t*>dk_table_alloc(max_states * RKEY * sizeof(uint64_t))
        self.start = <int64_t*>dk_table_alloc((max_states + 1) * sizeof(int64_t))
        self.succ_cap = 8192
        self.succ = <int32_t*>malloc(self.succ_cap * sizeof(int32_t))
        if (self.slots == NULL or self.ring == NULL or self.info == NULL or self.keys == NULL
                or self.start == NULL
                or self.succ == NULL):
            raise MemoryError("retrograde graph")
        cdef St s0 = root.s
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
        with nogil:
            r = self._solve()
        if r != 0:
            raise MemoryError("retrograde graph")

    def __dealloc__(self):
        free(self.ring)
        dk_table_free(self.info)
        dk_table_free(self.keys)
        dk_table_free(self.slots)
        dk_table_free(self.start)
        free(self.succ)
        free(self.value)
        free(self.dist)

    cdef int64_t _find(self, uint64_t* k, uint64_t h) noexcept nogil:
        """The index of the state of identity ``k`` (hash ``h``), or -1 - its free slot."""
        cdef uint64_t i = h & self.slot_mask
        cdef int32_t v
        cdef uint64_t* o
        cdef int w, same
        while True:
            v = self.slots[i]
            if v == 0:
                return -1 - <int64_t>i
            o = &self.keys[(v - 1) * RKEY]
            same = 1
            for w in range(RKEY):
                if o[w] != k[w]:
                    same = 0
                    break
            if same:
                return v - 1
            i = (i + 1) & self.slot_mask

    cdef int64_t _add(self, St* s) noexcept nogil:
        """The index of ``s``, added if new; -1: more than ``max_states`` states,
        -2: out of memory."""
        cdef uint64_t k[RKEY]
        retro_key(self.c, s, k)
        return self._add_keyed(s, k, retro_hash(k))

    cdef int64_t _add_keyed(self, St* s, uint64_t* k, uint64_t h) noexcept nogil:
        """:meth:`_add` with the key ``k`` and its hash ``h`` already worked out."""
        cdef int64_t f = self._find(k, h)
        if f >= 0:
            return f
        if self.n >= self.max_states:
            return -1
        if self.n - self.head > self.ring_mask and self._grow_ring() != 0:
            return -2
        self.ring[self.n & self.ring_mask] = s[0]
        cdef int v = 0, mover = to_move(s)
        if s.over:
            outcome_known(self.c, s, &v)  # c.hero is the graph's hero while it is built
        self.info[self.n] = <uint8_t>((mover + 1) | (s.over << 3) | ((v + 1) << 4))
        memcpy(&self.keys[self.n * RKEY], k, RKEY * sizeof(uint64_t))
        self.slots[-1 - f] = <int32_t>(self.n + 1)
        self.n += 1
        if <uint64_t>(2 * self.n) > self.slot_mask and self._grow() != 0:
            return -2
        return self.n - 1

    cdef int _grow_ring(self) noexcept nogil:
        """Double the ring of states waiting to be expanded (head .. n - 1)."""
        cdef int64_t size = 2 * (self.ring_mask + 1), a
        cdef St* ring = <St*>malloc(size * sizeof(St))
        if ring == NULL:
            return -2
        for a in range(self.head, self.n):
            ring[a & (size - 1)] = self.ring[a & self.ring_mask]
        free(self.ring)
        self.ring = ring
        self.ring_mask = size - 1
        return 0

    cdef int _grow(self) noexcept nogil:
        """Double the hash (at most half full): every state re-placed by its key."""
        cdef uint64_t ns = 2 * (self.slot_mask + 1), i
        cdef int32_t* slots = <int32_t*>dk_table_alloc(ns * sizeof(int32_t))
        cdef int64_t a
        if slots == NULL:
            return -2
        for a in range(self.n):
            i = retro_hash(&self.keys[a * RKEY]) & (ns - 1)
            while slots[i] != 0:
                i = (i + 1) & (ns - 1)
            slots[i] = <int32_t>(a + 1)
        dk_table_free(self.slots)
        self.slots = slots
        self.slot_mask = ns - 1
        return 0

    cdef int _build(self, St* root) noexcept nogil:
        """Every state reachable from ``root``, in BFS order, with its successors."""
        cdef Mv ms[MAXMOVES]
        # the successors of one state, their keys and hashes: all worked out and
        # their hash slots prefetched before the first lookup, so the lookups'
        # cache misses overlap instead of following one another
        cdef St kids[MAXMOVES]
        cdef uint64_t kkeys[MAXMOVES * RKEY]
        cdef uint64_t khash[MAXMOVES]
        cdef int64_t i = 0, j, k, first
        cdef int nm, m, dup
        cdef int32_t* grown
        if self._add(root) < 0:
            return -2
        cdef St cur
        while i < self.n:
            self.start[i] = self.nsucc
            first = self.nsucc
            cur = self.ring[i & self.ring_mask]
            self.head = i + 1  # the ring may reuse state i's place from here on
            if not cur.over:
                nm = gen_moves(self.c, &cur, ms, 0)
                for m in range(nm):
                    kids[m] = cur
                    play(self.c, &kids[m], &ms[m])
                    kids[m].tfloor = -1
                    kids[m].tfseat = 0
                    retro_key(self.c, &kids[m], &kkeys[m * RKEY])
                    khash[m] = retro_hash(&kkeys[m * RKEY])
                    __builtin_prefetch(&self.slots[khash[m] & self.slot_mask])
                for m in range(nm):
                    j = self._add_keyed(&kids[m], &kkeys[m * RKEY], khash[m])
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
            if (i & 0xFFFF) == 0:
                with gil:
                    if PyErr_CheckSignals() != 0:
                        PyErr_Clear()
                        return -3
        self.start[self.n] = self.nsucc
        return 0

    cdef int _solve(self) noexcept nogil:
        """The hero's and the others' attractors, level by level (the distances)."""
        cdef int64_t n = self.n, a, b, e, head, tail, level_end
        cdef int64_t* pstart = <int64_t*>calloc(n + 1, sizeof(int64_t))
        cdef int32_t* pred = <int32_t*>malloc((self.nsucc + 1) * sizeof(int32_t))
        cdef int32_t* left = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        cdef int32_t* queue = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        cdef int64_t* fill
        cdef int target, prover_is_hero, mover_is_prover, v, d, ti, oh = self.c.hero
        self.value = <int8_t*>calloc(n, sizeof(int8_t))
        self.dist = <int32_t*>malloc(n * sizeof(int32_t))
        if (pstart == NULL or pred == NULL or left == NULL or queue == NULL
                or self.value == NULL or self.dist == NULL):
            free(pstart); free(pred); free(left); free(queue)
            return -2
        for a in range(n):
            self.dist[a] = -1
            for e in range(self.start[a], self.start[a + 1]):
                pstart[self.succ[e] + 1] += 1
        for a in range(n):
            pstart[a + 1] += pstart[a]
        fill = <int64_t*>malloc((n + 1) * sizeof(int64_t))
        if fill == NULL:
            free(pstart); free(pred); free(left); free(queue)
            return -2
        memcpy(fill, pstart, (n + 1) * sizeof(int64_t))
        for a in range(n):
            for e in range(self.start[a], self.start[a + 1]):
                b = self.succ[e]
                pred[fill[b]] = <int32_t>a
                fill[b] += 1
        free(fill)
        self.c.hero = self.hero
        for ti in range(2):
            target = 1 if ti == 0 else -1
            prover_is_hero = target == 1
            head = tail = 0
            for a in range(n):
                left[a] = <int32_t>(self.start[a + 1] - self.start[a])
                if (self.info[a] >> 3) & 1 and self.dist[a] < 0:
                    v = (self.info[a] >> 4) - 1
                    if v == target:
                        self.value[a] = <int8_t>target
                        self.dist[a] = 0
                        queue[tail] = <int32_t>a
                        tail += 1
            d = 0
            while head < tail:
                level_end = tail
                while head < level_end:
                    b = queue[head]
                    head += 1
                    for e in range(pstart[b], pstart[b + 1]):
                        a = pred[e]
                        if self.dist[a] >= 0:
                            continue
                        mover_is_prover = ((team(self.c, (self.info[a] & 7) - 1)
                                            == team(self.c, self.hero)) == prover_is_hero)
                        if not mover_is_prover:
                            left[a] -= 1
                            if left[a] > 0:
                                continue
                        self.value[a] = <int8_t>target
                        self.dist[a] = d + 1
                        queue[tail] = <int32_t>a
                        tail += 1
                d += 1
        self.c.hero = oh
        free(pstart); free(pred); free(left); free(queue)
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
        cdef uint64_t k[RKEY]
        cdef int oh = self.c.hero
        self.c.hero = self.hero
        retro_key(self.c, out, k)
        self.c.hero = oh
        cdef int64_t j = self._find(k, retro_hash(k))
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
