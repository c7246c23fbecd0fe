# A small tree search over one fully known deal (the hint engine, issue 14).
#
# UCT (UCB1 applied to trees, Kocsis & Szepesvari 2006) over the core's moves
# with greedy playouts (playout.pxi) at the leaves: instead of judging a
# candidate move by how the greedy player would finish the game, a few hundred
# iterations let both sides choose their next moves by search.  The asking
# seat maximises its result; every other seat minimises it (the coalition of
# S2, which for two players is simply the opponent).  A node is expanded on
# its second visit; the tree lives in one array grown by realloc and freed on
# return.  No Python object is touched inside the loop.
#
# The playouts below the tree may be epsilon-greedy (``eps``): at each move a
# uniformly random legal move with probability ``eps``, else the greedy one.
# Deterministic greedy playouts give a leaf one fixed line, so every
# iteration through it adds the same result and the search can only sharpen
# the choices inside the tree; random deviations let the mean of a leaf
# weigh the lines near the greedy one as well (docs/hint.md, "Random moves in
# the playouts").  The first playout through each root move stays the plain
# greedy playout (``uct_mix`` weighs it apart).
#
# The exact solver's UCT search, the anytime estimate, is anytime.pxi.

from libc.math cimport log, sqrt


ctypedef struct UNode:
    Mv mv               # the move that leads here
    double w            # summed result for the asking seat (+1/0/-1)
    double g            # summed card margin (the others' mean hand minus the asker's)
    double r0           # the first playout's result (from here on, greedy in every seat)
    double g0           # and its card margin
    int32_t first       # index of the first child, -1 before expansion
    int32_t visits
    int16_t nkids
    int8_t mover        # the seat to move here (set on expansion)
    int8_t expanded


cdef int uct_expand(Ctx* c, St* s, UNode** nodes, int* cap, int* used, int node) noexcept nogil:
    """Give ``node`` its children (one per legal move of ``s``); -1 when out of memory."""
    cdef Mv ms[MAXMOVES]
    cdef int n = gen_moves(c, s, ms, 0), i, ncap
    cdef UNode* grown
    cdef UNode* ch
    if used[0] + n > cap[0]:
        ncap = cap[0] * 2
        while ncap < used[0] + n:
            ncap *= 2
        grown = <UNode*>realloc(nodes[0], <size_t>ncap * sizeof(UNode))
        if grown == NULL:
            return -1
        nodes[0] = grown
        cap[0] = ncap
    nodes[0][node].first = used[0]
    nodes[0][node].nkids = n
    nodes[0][node].mover = to_move(s)
    nodes[0][node].expanded = 1
    for i in range(n):
        ch = &nodes[0][used[0] + i]
        memset(ch, 0, sizeof(UNode))  # no visits, sums 0, not expanded
        ch.mv = ms[i]
        ch.first = -1
        ch.mover = -1
    used[0] += n
    return n


cdef int uct_select(UNode* nodes, int node, int me, double explore) noexcept nogil:
    """UCB1 among ``node``'s children, for its mover: an unvisited child first."""
    cdef UNode* p = &nodes[node]
    cdef int k, ch, best = p.first
    cdef double sign = 1.0 if p.mover == me else -1.0
    cdef double ln = log(<double>(p.visits + 1)), u, bu = -1e300
    for k in range(p.nkids):
        ch = p.first + k
        if nodes[ch].visits == 0:
            return ch
        u = sign * nodes[ch].w / nodes[ch].visits + explore * sqrt(ln / nodes[ch].visits)
        if u > bu:
            bu = u
            best = ch
    return best


cdef int uct_run(Ctx* c, St* root, int me, int iterations, double explore, int limit,
                 int8_t* order0, int norder0, UNode** nodes, int* cap, int* used,
                 int32_t* path, double eps, uint64_t seed, LModel* lm,
                 int lm_first) noexcept nogil:
    """``iterations`` rounds of select, expand, playout, back-up; -1 when out of memory."""
    cdef St s
    cdef int8_t order[PO_MAXTAB]
    cdef int norder, it, depth, node, steps, status, i
    cdef double r, others
    cdef uint64_t rng = seed
    if uct_expand(c, root, nodes, cap, used, 0) < 0:
        return -1
    for it in range(iterations):
        s = root[0]
        memcpy(order, order0, PO_MAXTAB)
        norder = norder0
        node = 0
        depth = 0
        path[depth] = 0
        depth += 1
        while not s.over:
            if not nodes[0][node].expanded:
                if nodes[0][node].visits == 0:
                    break  # a new leaf: played out before it grows children
                if uct_expand(c, &s, nodes, cap, used, node) < 0:
                    return -1
            if nodes[0][node].nkids == 0:
                break
            node = uct_select(nodes[0], node, me, explore)
            po_play(c, &s, &nodes[0][node].mv, order, &norder)
            path[depth] = node
            depth += 1
        # a root move's first playout (depth 2: it is expanded on its second
        # visit) stays the plain greedy playout
        status = po_run(c, &s, limit, 0, order, &norder, &steps, eps if depth > 2 else 0.0,
                        &rng, lm if (depth > 2 or lm_first) else NULL)
        r = po_result(c, &s, me, status, &others)
        if nodes[0][node].visits == 0:
            nodes[0][node].r0 = r
            nodes[0][node].g0 = others
        for i in range(depth):
            nodes[0][path[i]].visits += 1
            nodes[0][path[i]].w += r
            nodes[0][path[i]].g += others
    return 0


def uct_scores(CState st, int me, int iterations, tuple table_order=(), double explore=1.0,
               int limit=1500, double eps=0.0, uint64_t seed=0, PolicyModel model=None,
               bint model_first=True):
    """Every legal move's mean result and card margin for ``me`` after a UCT search
    of ``iterations`` playouts over this fully known state.

    Returns one ``(mean result, mean margin, visits, first result, first
    margin)`` per move of ``st.moves()``; the first playout through a move is
    the plain greedy playout after it (``greedy_playout(st, me, limit, order,
    i)``).  A move never visited has zeros.  ``explore``: the UCB1
    constant (results are in [-1, 1]).  ``eps``: the playouts below the
    tree make a uniformly random move with this probability (0: greedy
    only); their random numbers come from ``seed`` and the deal's hands, so
    the same call gives the same scores.  ``model``: the playouts play the
    learned model's move (learn.pxi) where they would play the greedy one;
    the first playout through a move too unless ``model_first`` is false (it
    then stays the plain greedy playout).
    """
    cdef Ctx* c = st.c
    cdef int8_t order0[PO_MAXTAB]
    cdef int norder0 = po_order(&st.s, table_order, order0)
    cdef int cap = 1024, used = 1, rc, k, ch
    cdef UNode* nodes
    cdef int32_t* path
    cdef LModel* lm = &model.m if model is not None else NULL
    if not 0 <= me < c.n:
        raise ValueError(f"me: seat {me} is not at the table")
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"eps: {eps} is not between 0 and 1")
    if st.s.over:
        return []
    for k in range(c.n):  # the deal's hands pick the random stream (deal.pxi's splitmix64)
        seed ^= st.s.hand[k]
        seed = dl_next(&seed)
    nodes = <UNode*>malloc(cap * sizeof(UNode))
    path = <int32_t*>malloc((<size_t>iterations + 2) * sizeof(int32_t))
    if nodes == NULL or path == NULL:
        free(nodes)
        free(path)
        raise MemoryError()
    memset(nodes, 0, sizeof(UNode))
    nodes[0].first = -1
    try:
        with nogil:
            rc = uct_run(c, &st.s, me, iterations, explore, limit, order0, norder0,
                         &nodes, &cap, &used, path, eps, seed, lm, model_first)
        if rc < 0:
            raise MemoryError()
        out = []
        for k in range(nodes[0].nkids):
            ch = nodes[0].first + k
            if nodes[ch].visits:
                out.append((nodes[ch].w / nodes[ch].visits, nodes[ch].g / nodes[ch].visits,
                            nodes[ch].visits, nodes[ch].r0, nodes[ch].g0))
            else:
                out.append((0.0, 0.0, 0, 0.0, 0.0))
        return out
    finally:
        free(nodes)
        free(path)
