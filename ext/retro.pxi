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
# This unit holds the graph itself: the class RetroGraph -- its hash and
# per-state storage, the pipelined build that links the states, the solve
# that runs the attractor passes, and its Python face (root, moves,
# variation).  A cdef class is written in one piece (Cython takes no
# ``include`` inside a class body), so what could be split off is the free
# functions it calls: the state's key (retrokey.pxi), expanding states and
# the build's helper thread (retrobuild.pxi), the attractor pass
# (retrosolve.pxi).


cdef enum:
    BIG_SLOTS = 1 << 18  # from this many slots (4 MiB) on, the hash lives in one reserved mapping


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
