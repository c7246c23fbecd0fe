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
    RKEY = 4             # words of a state's identity at most (retro_key; 13 live ranks: 227 bits)
    BOUT_FIELDS = 0x1FFFF  # the bits of make_key's last word that vary inside one game
    PIPE = 3             # states in flight in the pipelined graph building (_build)


ctypedef struct RNode:
    # What the attractor walk (RetroGraph._solve) reads of a state, in one place.
    int32_t dist        # plies to the end once decided, -1 before
    int16_t left        # successors the defender of this pass has not yet seen refuted
    int16_t hero_moves  # 1 if the state's mover is on the hero's side


cdef inline void put_bits(uint64_t* k, int* pos, uint64_t v, int w) noexcept nogil:
    """Append the low ``w`` (at most 63) bits of ``v`` to the bit string ``k`` at ``pos[0]``."""
    cdef int i = pos[0] >> 6, o = pos[0] & 63
    if w == 0:
        return
    v &= ((<uint64_t>1) << w) - 1
    k[i] |= v << o
    if o and o + w > 64:
        k[i + 1] |= v >> (64 - o)
    pos[0] += w


cdef inline void retro_key(Ctx* c, St* s, uint64_t* k, int live_ranks) noexcept nogil:
    """A state's identity: the search's canonical key without its between-bout
    rank renumbering (``c.iso`` off), and the two fields that key leaves out
    with the pile empty.  This key is invariant under what it folds -- ranks
    nobody holds any more, non-trump suits the rules cannot tell apart -- so
    equal keys are isomorphic states whose successors have equal keys too:
    one node stands for all of them, with the same values and distances.
    (The renumbering is finer between bouts than inside them; with it, two
    states of one key could have successors of different keys.)

    Packed: no rank comes back to life once the pile is empty, so each suit's
    word of the key uses only its first ``live_ranks`` nibbles (the ranks live
    at the root), and of the last word only the bout's fields vary within one
    graph -- a 9-card game's identity fits in two or three words, not five,
    and the graph's keys are most of the memory it touches."""
    cdef uint64_t full[KEYWORDS]
    cdef int iso = c.iso, pos = 0, w
    c.iso = 0
    make_key(c, s, full)
    c.iso = iso
    for w in range(RKEY):
        k[w] = 0
    for w in range(4):
        put_bits(k, &pos, full[w], 4 * live_ranks)
    put_bits(k, &pos, (full[KEYWORDS - 1] & BOUT_FIELDS) | ((<uint64_t>s.over) << 17)
             | ((<uint64_t>(s.fresh & 1)) << 18), 19)


cdef inline int retro_words(int live_ranks) noexcept nogil:
    """The words :func:`retro_key` fills for a game of ``live_ranks`` live ranks."""
    return (16 * live_ranks + 19 + 63) >> 6


cdef inline uint64_t retro_hash(uint64_t* k, int kw) noexcept nogil:
    cdef uint64_t h = k[0] * <uint64_t>0x9e3779b97f4a7c15
    if kw > 1:
        h += k[1] * <uint64_t>0xc2b2ae3d27d4eb4f
    if kw > 2:
        h += k[2] * <uint64_t>0x165667b19e3779f9
    if kw > 3:
        h += k[3] * <uint64_t>0x27d4eb2f165667c5
    return mix64(h)


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
        # are needed only until they are expanded: a ring holds the
        # breadth-first frontier (_add grows it when it is full).
        self.slots = <uint64_t*>calloc(ns, sizeof(uint64_t))
        self.slot_mask = ns - 1
        self.ring_mask = (1 << 10) - 1
        self.ring = <St*>malloc((self.ring_mask + 1) * sizeof(St))
        self.cap = min(max_states, 1 << 12)
        self.info = <uint8_t*>malloc(self.cap)
        cdef St s0 = root.s
        cdef uint64_t live = s0.att | s0.cov
        cdef int i
        for i in range(self.c.n):
            live |= s0.hand[i]
        self.live_ranks = popcount64(rank_set(live))
        self.kw = retro_words(self.live_ranks)
        self.keys = <uint64_t*>malloc(self.cap * self.kw * sizeof(uint64_t))
        self.start = <int32_t*>malloc((self.cap + 1) * sizeof(int32_t))
        self.succ_cap = 4 * self.cap
        self.succ = <int32_t*>malloc(self.succ_cap * sizeof(int32_t))
        if (self.slots == NULL or self.ring == NULL or self.info == NULL or self.keys == NULL
                or self.start == NULL
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
        free(self.keys)
        free(self.slots)
        free(self.start)
        free(self.succ)
        free(self.value)
        free(self.dist)

    cdef int64_t _find(self, uint64_t* k, uint64_t h) noexcept nogil:
        """The index of the state of identity ``k`` (hash ``h``), or -1 - its free slot.

        A slot holds the state's index + 1 in its low half and the top half of
        its hash as a tag, whose low bits are also its home slot: a probe whose
        tag differs is passed over without reading the key, which lives
        elsewhere in memory (a cache miss)."""
        cdef uint64_t i = (h >> 32) & self.slot_mask
        cdef uint64_t v, tag = h >> 32
        cdef uint64_t* o
        cdef int w, same
        while True:
            v = self.slots[i]
            if v == 0:
                return -1 - <int64_t>i
            if (v >> 32) == tag:
                o = &self.keys[((<uint64_t><uint32_t>v) - 1) * self.kw]
                same = 1
                for w in range(self.kw):
                    if o[w] != k[w]:
                        same = 0
                        break
                if same:
                    return <int64_t>(<uint64_t><uint32_t>v) - 1
            i = (i + 1) & self.slot_mask

    cdef void _prefetch_key(self, uint64_t h) noexcept nogil:
        """Start loading the key of the first state in ``h``'s probe run whose tag
        matches (the state ``h`` most likely names), so that its comparison in
        :meth:`_find` does not wait for memory."""
        cdef uint64_t i = (h >> 32) & self.slot_mask
        cdef uint64_t v, tag = h >> 32
        while True:
            v = self.slots[i]
            if v == 0:
                return
            if (v >> 32) == tag:
                __builtin_prefetch(&self.keys[((<uint64_t><uint32_t>v) - 1) * self.kw])
                return
            i = (i + 1) & self.slot_mask

    cdef int64_t _add(self, St* s) noexcept nogil:
        """The index of ``s``, added if new; -1: more than ``max_states`` states,
        -2: out of memory."""
        cdef uint64_t k[RKEY]
        retro_key(self.c, s, k, self.live_ranks)
        return self._add_keyed(s, k, retro_hash(k, self.kw))

    cdef int64_t _add_keyed(self, St* s, uint64_t* k, uint64_t h) noexcept nogil:
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
        self.ring[self.n & self.ring_mask] = s[0]
        cdef int v = 0, mover = to_move(s)
        if s.over:
            outcome_known(self.c, s, &v)  # c.hero is the graph's hero while it is built
        self.info[self.n] = <uint8_t>((mover + 1) | (s.over << 3) | ((v + 1) << 4))
        memcpy(&self.keys[self.n * self.kw], k, self.kw * sizeof(uint64_t))
        self.slots[-1 - f] = (<uint64_t>(self.n + 1)) | ((h >> 32) << 32)
        self.n += 1
        if <uint64_t>(4 * self.n) > 3 * self.slot_mask and self._grow() != 0:
            return -2
        return self.n - 1

    cdef int _grow_states(self) noexcept nogil:
        """Twice the room for the states' facts, keys and successor offsets."""
        cdef int64_t cap = min(2 * self.cap, self.max_states)
        cdef void* p = realloc(self.info, cap)
        if p == NULL:
            return -2
        self.info = <uint8_t*>p
        p = realloc(self.keys, cap * self.kw * sizeof(uint64_t))
        if p == NULL:
            return -2
        self.keys = <uint64_t*>p
        p = realloc(self.start, (cap + 1) * sizeof(int32_t))
        if p == NULL:
            return -2
        self.start = <int32_t*>p
        self.cap = cap
        return 0

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
        """Double the hash (at most three quarters full: the tags keep long probe
        runs cheap).  A state's home slot is its tag's low bits, so every state
        is re-placed from its old slot alone, without reading its key."""
        cdef uint64_t ns = 2 * (self.slot_mask + 1), i, o, v
        cdef uint64_t* slots = <uint64_t*>calloc(ns, sizeof(uint64_t))
        if slots == NULL:
            return -2
        for o in range(self.slot_mask + 1):
            v = self.slots[o]
            if v == 0:
                continue
            i = (v >> 32) & (ns - 1)
            while slots[i] != 0:
                i = (i + 1) & (ns - 1)
            slots[i] = v
        free(self.slots)
        self.slots = slots
        self.slot_mask = ns - 1
        return 0

    cdef int _expand(self, int64_t i, St* kids, uint64_t* kkeys, uint64_t* khash) noexcept nogil:
        """State ``i``'s successors with their keys and hashes, their hash slots
        prefetched; returns how many (none once the game is over)."""
        cdef Mv ms[MAXMOVES]
        cdef St cur = self.ring[i & self.ring_mask]
        cdef int nm, m
        if cur.over:
            return 0
        nm = gen_moves(self.c, &cur, ms, 0)
        for m in range(nm):
            kids[m] = cur
            play(self.c, &kids[m], &ms[m])
            kids[m].tfloor = -1
            kids[m].tfseat = 0
            retro_key(self.c, &kids[m], &kkeys[m * RKEY], self.live_ranks)
            khash[m] = retro_hash(&kkeys[m * RKEY], self.kw)
            __builtin_prefetch(&self.slots[(khash[m] >> 32) & self.slot_mask])
        return nm

    cdef int _build(self, St* root) noexcept nogil:
        """Every state reachable from ``root``, in BFS order, with its successors.

        Most of the time goes into memory: every successor is looked up in a
        hash of millions of states (a cache miss for its slot, another for its
        key).  So the work is pipelined over the BFS order: state ``i + 2`` is
        expanded and its slots prefetched, the keys its slots point to are
        prefetched for state ``i + 1``, and only then are state ``i``'s
        successors looked up -- by then their memory has (mostly) arrived.
        """
        # PIPE buffers of successors, keys and hashes, used round-robin by state index
        cdef St* kids = <St*>malloc(PIPE * MAXMOVES * sizeof(St))
        cdef uint64_t* kkeys = <uint64_t*>malloc(PIPE * MAXMOVES * RKEY * sizeof(uint64_t))
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
                nms[b] = self._expand(ready, &kids[b * MAXMOVES], &kkeys[b * MAXMOVES * RKEY],
                                      &khash[b * MAXMOVES])
            self.head = i + 1  # the ring may reuse state i's place from here on
            if ready > i:  # the next state's slots are (mostly) in cache: fetch its keys
                bn = <int>((i + 1) % PIPE)
                for m in range(nms[bn]):
                    self._prefetch_key(khash[bn * MAXMOVES + m])
            b = <int>(i % PIPE)
            nm = nms[b]
            for m in range(nm):
                j = self._add_keyed(&kids[b * MAXMOVES + m], &kkeys[(b * MAXMOVES + m) * RKEY],
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
        cdef uint64_t k[RKEY]
        cdef int oh = self.c.hero
        self.c.hero = self.hero
        retro_key(self.c, out, k, self.live_ranks)
        self.c.hero = oh
        cdef int64_t j = self._find(k, retro_hash(k, self.kw))
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
