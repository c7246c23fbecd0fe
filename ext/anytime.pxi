# Included by _core.pyx after uct.pxi: the anytime estimate (issue 54) -- its
# tree's nodes (est_expand, est_select), what is proven at a new leaf
# (est_leaf, est_prove) and carried up the tree (est_bounds_up), the
# iterations (est_run) and its Python face (anytime_scores).
#
# Why a unit apart from uct.pxi: the same UCT, another question and another
# tree -- uct.pxi ranks the hint engine's moves on one sampled deal, this
# answers for the exact solver; its nodes (ANode, EstRun in _core.pxd) carry
# proven bounds and per-seat results.  ``log`` and ``sqrt`` are cimported by
# uct.pxi.
#
# The exact solver's companion when its budget runs out (issue 54): a UCT
# search over the fully known position, the question asked for one seat
# (the hero), the others modelled either as S2's coalition -- every seat not
# on the hero's side minimises the hero's result, the paranoid value the
# proof search proves -- or as independent players, each seat (each team,
# R22) maximising its own result.  Greedy playouts (playout.pxi) at the
# leaves, a node expanded on its second visit, as ``uct_run`` (uct.pxi).
#
# Under the coalition model the tree also carries proven bounds on the
# hero's value (score-bounded MCTS, Cazenave & Saffidine 2010): a finished
# game is solved, and -- where asked -- a new leaf that is a lead state
# takes what the transposition table has proven of it (``use_table``: the
# exact search's work before the estimate) and, with few cards in play
# (``leaf_cards``), the proof search's own answer within a small node budget
# (the exact solver at the tree's small leaves).  Bounds go up the tree as
# minimax over the children (the hero's side takes the largest, the others
# the smallest) intersected with what the node itself was proven to be; a
# child that cannot change its parent's bounds is not selected any more
# (its upper bound at or below a hero node's lower bound, or the reverse),
# and a solved node is not played out again: its value is the iteration's
# result.  Every bound rests on a finite proof (terminal states, a proof
# search's success, a failure stored as path-independent), so each holds for
# the value of the game however play repeats (R23).  A solved root ends the
# search.


cdef inline int est_outcome(Ctx* c, St* s, int seat) noexcept nogil:
    """``seat``'s result (+1/0/-1, R20-R22) of a game that is over."""
    cdef int v = 0, oh = c.hero
    c.hero = seat
    outcome_known(c, s, &v)
    c.hero = oh
    return v


cdef int est_expand(EstRun* r, St* s, int node) noexcept nogil:
    """Give ``node`` its children; 0 when the tree is full (not expanded), -1 out of memory."""
    cdef Mv ms[MAXMOVES]
    cdef int n = gen_moves(r.c, s, ms, 0), i, mover
    cdef int32_t ncap
    cdef ANode* grown
    cdef ANode* ch
    cdef ANode* p
    if r.used + n > r.max_tree:
        return 0
    if r.used + n > r.cap:
        ncap = r.cap * 2
        while ncap < r.used + n:
            ncap *= 2
        if ncap > r.max_tree:
            ncap = r.max_tree
        grown = <ANode*>realloc(r.nodes, <size_t>ncap * sizeof(ANode))
        if grown == NULL:
            return -1
        r.nodes = grown
        r.cap = ncap
    p = &r.nodes[node]
    mover = to_move(s)
    r.c.hero = r.hero
    p.first = r.used
    p.nkids = n
    p.mover = mover
    p.mine = side_of(r.c, mover)
    p.expanded = 1
    for i in range(n):
        ch = &r.nodes[r.used + i]
        memset(ch, 0, sizeof(ANode))
        ch.mv = ms[i]
        ch.first = -1
        ch.mover = -1
        ch.lo = -1
        ch.hi = 1
    r.used += n
    return 1


cdef int est_prove(EstRun* r, St* s, int prover) noexcept nogil:
    """The proof search (search.pxi) asked at a leaf within ``leaf_nodes``
    nodes: 1 the prover's side forces its result, 0 it cannot, -1 not
    answered.  A root question: its answer holds whatever the path above."""
    cdef Ctx* c = r.c
    cdef int dist = 0, res
    cdef uint64_t rep[2]
    cdef St root = s[0]
    root.tfloor = -1
    c.hero = r.hero
    c.prover = prover
    c.slot = prover_slot(c)
    c.pathlen = 0
    c.msp = 0
    c.abort = 0
    c.max_nodes = c.nodes + r.leaf_nodes
    c.deadline = r.deadline
    c.root_move = -1
    res = dfs(c, &root, UNLIM, 0, &dist, rep, NULL)
    if res < 0:
        if c.abort == 2:
            r.interrupted = 1
        c.abort = 0
        return -1
    return res


cdef void est_leaf(EstRun* r, St* s, ANode* nd) noexcept nogil:
    """What is proven of a new leaf: the table's entry and, with few cards in
    play, the proof search's answer (coalition model, lead states only)."""
    cdef Ctx* c = r.c
    cdef uint64_t key[KEYWORDS]
    cdef uint64_t ed
    cdef uint64_t* e
    cdef int mine_slot, cards, i, res
    cdef int64_t n0
    if phase(s) != PH_LEAD or s.pile > 0:
        return
    c.hero = r.hero
    if r.use_table:
        c.prover = 1
        mine_slot = prover_slot(c)
        make_key(c, s, key)
        e = tt_probe(c, key, key_hash(key), &ed)
        if e != NULL:
            if ent_ub(e, mine_slot) < UNLIM:
                nd.lo = 1
                nd.hi = 1
            elif ent_ub(e, 1 - mine_slot) < UNLIM:
                nd.lo = -1
                nd.hi = -1
            else:
                if ent_lb(e, mine_slot) >= INF and nd.hi > 0:
                    nd.hi = 0
                if ent_lb(e, 1 - mine_slot) >= INF and nd.lo < 0:
                    nd.lo = 0
            if nd.lo > -1 or nd.hi < 1:
                r.table_hits += 1
    if r.leaf_cards <= 0 or nd.lo == nd.hi:
        return
    cards = 0
    for i in range(c.n):
        cards += popcount64(s.hand[i])
    if cards > r.leaf_cards:
        return
    r.leaf_solves += 1
    n0 = c.nodes
    res = est_prove(r, s, 0)  # the others first: a lone hero mostly loses
    if res == 1:
        nd.lo = -1
        nd.hi = -1
    elif res == 0 and nd.lo < 0:
        nd.lo = 0
    if nd.lo < nd.hi and not r.interrupted:
        res = est_prove(r, s, 1)
        if res == 1:
            nd.lo = 1
            nd.hi = 1
        elif res == 0 and nd.hi > 0:
            nd.hi = 0
    r.proof_nodes += c.nodes - n0
    if nd.lo == nd.hi:
        r.leaf_proven += 1


cdef inline double est_mean(ANode* q, int slot) noexcept nogil:
    """A child's mean result in ``w[slot]``, kept inside its proven bounds."""
    cdef double m = q.w[slot] / q.visits
    if m < q.lo:
        return q.lo
    if m > q.hi:
        return q.hi
    return m


cdef int est_select(EstRun* r, int node) noexcept nogil:
    """UCB1 among ``node``'s children for its mover; an unvisited child
    first; under the coalition model no child that cannot change the
    node's bounds.  -1 when every child is ruled out."""
    cdef ANode* p = &r.nodes[node]
    cdef ANode* q
    cdef int k, ch, best = -1, coal = r.model == EST_COALITION
    cdef int slot = 0 if coal else p.mover
    cdef double sign = 1.0 if (p.mine or not coal) else -1.0
    cdef double ln = log(<double>(p.visits + 1)), u, bu = -1e300
    for k in range(p.nkids):
        ch = p.first + k
        q = &r.nodes[ch]
        if coal and ((p.mine and q.hi <= p.lo) or (not p.mine and q.lo >= p.hi)):
            continue
        if q.visits == 0:
            return ch
        u = sign * est_mean(q, slot) + r.explore * sqrt(ln / q.visits)
        if u > bu:
            bu = u
            best = ch
    return best


cdef void est_bounds_up(EstRun* r, int depth) noexcept nogil:
    """The minimax of the children's bounds up the path, each node's own
    bounds kept (intersected); stops where nothing changes."""
    cdef int i, k, lo, hi
    cdef ANode* p
    cdef ANode* q
    for i in range(depth - 2, -1, -1):
        p = &r.nodes[r.path[i]]
        q = &r.nodes[p.first]
        lo = q.lo
        hi = q.hi
        for k in range(1, p.nkids):
            q = &r.nodes[p.first + k]
            if p.mine:
                lo = q.lo if q.lo > lo else lo
                hi = q.hi if q.hi > hi else hi
            else:
                lo = q.lo if q.lo < lo else lo
                hi = q.hi if q.hi < hi else hi
        if lo < p.lo:
            lo = p.lo
        if hi > p.hi:
            hi = p.hi
        if lo == p.lo and hi == p.hi:
            return
        p.lo = <int8_t>lo
        p.hi = <int8_t>hi


cdef int est_run(EstRun* r, St* root, int8_t* order0, int norder0) noexcept nogil:
    """Iterations until a budget ends them (or the root is solved); -1 out of memory."""
    cdef Ctx* c = r.c
    cdef St s
    cdef int8_t order[PO_MAXTAB]
    cdef int norder, depth, node, ch, steps, status, j, rc, coal = r.model == EST_COALITION
    cdef double res[MAXP]
    cdef double margin, x
    cdef ANode* nd
    if not r.nodes[0].expanded:
        rc = est_expand(r, root, 0)
        if rc <= 0:
            return -1
    while True:
        if r.max_iters and r.iters >= r.max_iters:
            return 0
        if (r.iters & EST_CLOCK_EVERY) == 0 and r.deadline > 0 and dk_now() > r.deadline:
            return 0
        if (r.iters & EST_SIGNALS_EVERY) == 0 and r.iters:
            with gil:
                if PyErr_CheckSignals() != 0:
                    PyErr_Clear()
                    r.interrupted = 1
        if r.interrupted:
            return 0
        if coal and r.nodes[0].lo == r.nodes[0].hi:
            return 0  # the root is solved
        s = root[0]
        memcpy(order, order0, PO_MAXTAB)
        norder = norder0
        node = 0
        depth = 1
        r.path[0] = 0
        margin = 0.0
        for j in range(c.n):
            res[j] = 0.0
        # selection: down the tree to a new leaf, a solved node or the end of the game
        while True:
            nd = &r.nodes[node]
            if coal and nd.lo == nd.hi:
                res[0] = nd.lo
                break
            if s.over:
                break
            if not nd.expanded:
                if nd.visits == 0:
                    if coal:
                        est_leaf(r, &s, nd)
                    if coal and nd.lo == nd.hi:
                        res[0] = nd.lo
                        break
                    node = -1  # play out from here
                    break
                if depth >= EST_MAXDEPTH - 1:
                    node = -1
                    break
                rc = est_expand(r, &s, node)
                if rc < 0:
                    return -1
                if rc == 0:
                    node = -1  # the tree is full
                    break
            ch = est_select(r, node)
            if ch < 0:
                node = -1
                break
            po_play(c, &s, &r.nodes[ch].mv, order, &norder)
            node = ch
            r.path[depth] = ch
            depth += 1
            if s.over:
                nd = &r.nodes[ch]
                c.hero = r.hero
                x = est_outcome(c, &s, r.hero)
                if coal:
                    nd.lo = <int8_t>x
                    nd.hi = <int8_t>x
                    res[0] = x
                break
        if s.over and not coal:
            for j in range(c.n):
                res[j] = est_outcome(c, &s, j)
        if node == -1 and not s.over:
            # a playout from the leaf (path[depth - 1])
            status = po_run(c, &s, r.limit, 0, order, &norder, &steps, r.eps, &r.rng, NULL)
            x = po_result(c, &s, r.hero, status, &margin)
            if coal:
                nd = &r.nodes[r.path[depth - 1]]
                if x < nd.lo:
                    x = nd.lo
                elif x > nd.hi:
                    x = nd.hi
                res[0] = x
            else:
                for j in range(c.n):
                    res[j] = 0.0 if status == PO_LIMIT else est_outcome(c, &s, j)
        elif s.over:
            po_result(c, &s, r.hero, PO_OVER, &margin)
        # back-up
        for j in range(depth):
            nd = &r.nodes[r.path[j]]
            nd.visits += 1
            nd.g += <float>margin
            if coal:
                nd.w[0] += <float>res[0]
            else:
                for ch in range(c.n):
                    nd.w[ch] += <float>res[ch]
        if coal:
            est_bounds_up(r, depth)
        r.iters += 1


def anytime_scores(CState st, int hero, int model=EST_COALITION, double seconds=0.0,
                   int64_t iterations=0, tuple table_order=(), double explore=1.0,
                   double eps=0.0, uint64_t seed=0, int leaf_cards=0, int64_t leaf_nodes=2048,
                   bint use_table=False, tuple known=(), int root_lo=-1, int root_hi=1,
                   int32_t max_tree=1 << 21, int limit=1500):
    """The anytime estimate: a UCT search over this fully known state for ``hero``.

    ``model`` 0 (coalition): every seat not on the hero's side minimises
    the hero's result (S2); 1 (independent): every seat -- every team under
    ``teams`` -- maximises its own.  Stops after ``seconds`` (0: no clock)
    or ``iterations`` (0: no count; one of the two must be given), on
    Ctrl-C, or once the root is solved (coalition).  ``leaf_cards``,
    ``leaf_nodes``, ``use_table``: what is proven at new lead-state leaves
    (coalition model; the proofs use and fill this state's table).
    ``known``: per root move ``(lo, hi)``, bounds on its value for the hero
    proven before (empty: none); ``root_lo``/``root_hi`` the root's.

    Returns ``(moves, stats)``: per move of ``st.moves()`` ``(hero's mean,
    mover's mean, visits, lo, hi, mean margin)`` -- the means in [-1, 1], the
    mover's from his side's point of view (coalition) or his own
    (independent), kept inside the move's proven bounds [lo, hi] -- and a
    dict of counters (``iterations``, ``tree``, ``leaf_solves``,
    ``leaf_proven``, ``table_hits``, ``proof_nodes``, ``interrupted``,
    ``root``: the root's proven bounds).  The random numbers come from
    ``seed`` and the hands, so with ``iterations`` and no clock the same
    call gives the same answer."""
    cdef Ctx* c = st.c
    cdef int8_t order0[PO_MAXTAB]
    cdef int norder0 = po_order(&st.s, table_order, order0)
    cdef EstRun r
    cdef int rc, k, ch, n, slot, oh = c.hero, op = c.prover
    cdef int64_t nodes0 = c.nodes, max0 = c.max_nodes
    cdef double dl0 = c.deadline
    cdef ANode* q
    cdef double hm, mm
    if not 0 <= hero < c.n:
        raise ValueError(f"hero: seat {hero} is not at the table")
    if model not in (EST_COALITION, EST_INDEPENDENT):
        raise ValueError(f"model: {model} is neither 0 (coalition) nor 1 (independent)")
    if seconds <= 0 and iterations <= 0:
        raise ValueError("give seconds or iterations")
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"eps: {eps} is not between 0 and 1")
    if max_tree < 1024:
        raise ValueError("max_tree: at least 1024 nodes")
    if st.s.over:
        return [], dict(iterations=0, tree=0, leaf_solves=0, leaf_proven=0, table_hits=0,
                        proof_nodes=0, interrupted=False, root=(0, 0))
    memset(&r, 0, sizeof(EstRun))
    r.c = c
    r.hero = hero
    r.model = model
    r.explore = explore
    r.eps = eps
    r.limit = limit
    r.rng = seed
    for k in range(c.n):  # the hands pick the random stream, as uct_scores
        r.rng ^= st.s.hand[k]
        r.rng = dl_next(&r.rng)
    r.max_iters = iterations
    r.deadline = (dk_now() + seconds) if seconds > 0 else 0.0
    r.max_tree = max_tree
    r.leaf_cards = leaf_cards if model == EST_COALITION else 0
    r.leaf_nodes = leaf_nodes
    r.use_table = 1 if (use_table and model == EST_COALITION) else 0
    r.cap = 4096
    r.nodes = <ANode*>malloc(<size_t>r.cap * sizeof(ANode))
    r.path = <int32_t*>malloc(EST_MAXDEPTH * sizeof(int32_t))
    if r.nodes == NULL or r.path == NULL:
        free(r.nodes)
        free(r.path)
        raise MemoryError()
    memset(r.nodes, 0, sizeof(ANode))
    r.nodes[0].first = -1
    r.nodes[0].mover = -1
    if not -1 <= root_lo <= root_hi <= 1:
        raise ValueError(f"root bounds: bad bounds {(root_lo, root_hi)!r}")
    r.nodes[0].lo = <int8_t>(root_lo if model == EST_COALITION else -1)
    r.nodes[0].hi = <int8_t>(root_hi if model == EST_COALITION else 1)
    r.used = 1
    try:
        with nogil:
            rc = est_expand(&r, &st.s, 0)
        if rc <= 0:
            raise MemoryError()
        n = r.nodes[0].nkids
        if known:
            if len(known) != n:
                raise ValueError(f"known: {len(known)} bounds for {n} moves")
            for k in range(n):
                lo, hi = known[k]
                if not -1 <= lo <= hi <= 1:
                    raise ValueError(f"known: bad bounds {known[k]!r}")
                if model == EST_COALITION:
                    r.nodes[1 + k].lo = <int8_t>lo
                    r.nodes[1 + k].hi = <int8_t>hi
        with nogil:
            rc = est_run(&r, &st.s, order0, norder0)
        if rc < 0:
            raise MemoryError()
        out = []
        slot = 0 if model == EST_COALITION else r.nodes[0].mover
        for k in range(r.nodes[0].nkids):
            ch = r.nodes[0].first + k
            q = &r.nodes[ch]
            if q.visits:
                hm = est_mean(q, 0 if model == EST_COALITION else hero)
                if model == EST_COALITION:
                    mm = hm if r.nodes[0].mine else -hm
                else:
                    mm = est_mean(q, slot)
                out.append((hm, mm, q.visits, q.lo, q.hi, q.g / q.visits))
            else:
                hm = (q.lo + q.hi) / 2.0
                out.append((hm, (hm if (r.nodes[0].mine or model) else -hm), 0, q.lo, q.hi, 0.0))
        stats = dict(iterations=r.iters, tree=r.used, leaf_solves=r.leaf_solves,
                     leaf_proven=r.leaf_proven, table_hits=r.table_hits,
                     proof_nodes=r.proof_nodes, interrupted=bool(r.interrupted),
                     root=(r.nodes[0].lo, r.nodes[0].hi))
        return out, stats
    finally:
        free(r.nodes)
        free(r.path)
        c.hero = oh
        c.prover = op
        c.max_nodes = max0
        c.deadline = dl0
