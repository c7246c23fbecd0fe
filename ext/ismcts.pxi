# A tree search over what each seat sees, not over one deal (the hint engine,
# issue 14, item 3: strategy fusion).  Not the default: measured no stronger
# than the per-deal search of ``uct.pxi`` (docs/hint.md, "Information-set
# search").
#
# ``uct.pxi`` searches each sampled deal on its own, with every card face up:
# below the root it lets the asking seat play one way on one deal and another
# way on the next, as if it would know the hidden cards after this move -- the
# strategy fusion of sampled-world search, and the reason a deeper search of
# one deal played *weaker* (docs/hint.md).  Here the deals of a batch share
# the trees: multiple-observer information-set MCTS (MO-ISMCTS, Cowling,
# Powley and Whitehouse 2012).  Iteration ``i`` plays deal ``i mod n``.  Every
# seat has a tree whose nodes stand for what that seat has seen: the moves
# (all public in Durak), its own starting hand and its own draws from the pile
# (R17).  A seat chooses its moves in its own tree, from statistics pooled over
# every deal that looks the same to it, and every tree follows the moves
# chosen.  So the asking seat's later choices are made once for all the deals
# it cannot tell apart, while an opponent plays by his real hand.  (A single
# tree for all seats, SO-ISMCTS, pools the opponent's choices over his
# possible hands too; it measured weaker, docs/hint.md, and was taken out.)
#
# Moves are matched by what they play (kind, cards, the covered card), since a
# move's index in ``gen_moves`` depends on the hand.  At a node only the moves
# legal in the iteration's deal take part: an untried one is added and played
# out (greedy, ``playout.pxi``); otherwise UCB1 chooses among the legal
# children, with the *availability* count (how often the child was legal when
# its parent was visited) in place of the parent's visits.  The asking seat
# maximises its result, every other seat minimises it (S2's coalition).  The
# trees live in one array grown by realloc; no Python object is touched in
# the loop.

ctypedef struct INode:
    Mv mv               # the move that leads here
    double w            # summed result for the asking seat (+1/0/-1)
    double g            # summed card margin (the others' mean hand minus the asker's)
    int32_t child       # first child, -1 none
    int32_t sibling     # next child of the same parent, -1 none
    int32_t visits
    int32_t avail       # times this move was legal when its parent was visited
    uint64_t seen       # an outcome node: its seat's hand (at the start, after a draw)


cdef inline int same_move(Mv* a, Mv* b) noexcept nogil:
    return a.kind == b.kind and a.cards == b.cards and a.target == b.target


cdef int is_add(INode** nodes, int* cap, int* used, int parent, Mv* mv) noexcept nogil:
    """A new child of ``parent`` for ``mv``; its index, or -1 when out of memory."""
    cdef int ncap, k
    cdef INode* grown
    if used[0] + 1 > cap[0]:
        ncap = cap[0] * 2
        grown = <INode*>realloc(nodes[0], <size_t>ncap * sizeof(INode))
        if grown == NULL:
            return -1
        nodes[0] = grown
        cap[0] = ncap
    k = used[0]
    used[0] += 1
    memset(&nodes[0][k], 0, sizeof(INode))
    nodes[0][k].mv = mv[0]
    nodes[0][k].child = -1
    nodes[0][k].sibling = nodes[0][parent].child
    nodes[0][parent].child = k
    return k


cdef inline int is_find(INode* nodes, int parent, Mv* mv) noexcept nogil:
    """``parent``'s child for ``mv``, or -1."""
    cdef int ch = nodes[parent].child
    while ch >= 0 and not same_move(&nodes[ch].mv, mv):
        ch = nodes[ch].sibling
    return ch


cdef inline int is_child(INode** nodes, int* cap, int* used, int parent, Mv* mv) noexcept nogil:
    """``parent``'s child for ``mv``, added if missing; -1 when out of memory."""
    cdef int ch = is_find(nodes[0], parent, mv)
    return ch if ch >= 0 else is_add(nodes, cap, used, parent, mv)


cdef inline int is_outcome(INode** nodes, int* cap, int* used, int parent, uint64_t hand) noexcept nogil:
    """``parent``'s outcome node for the hand ``hand``, added if missing; -1 when out of memory."""
    cdef Mv none
    cdef int ch = nodes[0][parent].child
    while ch >= 0:
        if nodes[0][ch].seen == hand:
            return ch
        ch = nodes[0][ch].sibling
    memset(&none, 0, sizeof(Mv))
    none.kind = -1
    ch = is_add(nodes, cap, used, parent, &none)
    if ch >= 0:
        nodes[0][ch].seen = hand
    return ch


cdef int is_run(Ctx* c, St* deals, int8_t* piles, int8_t* orders, int* norders, int ndeals, int me,
               int iterations, double explore, int limit, INode** nodes, int* cap,
               int* used, int32_t* paths, int pathcap, double eps,
               uint64_t seed) noexcept nogil:
    """``iterations`` rounds over the deals in turn, one tree per seat (see the
    top of this file); -1 when out of memory.  Node 0 is the asking seat's
    root (its hand is the same on every deal), node ``1 + p``
    seat ``p``'s super-root (its children: one outcome node per starting
    hand).  ``paths``: ``MAXP`` rows of ``pathcap``."""
    cdef St s
    cdef Mv ms[MAXMOVES]
    cdef int found[MAXMOVES]
    cdef int cur[MAXP]
    cdef int plen[MAXP]
    cdef int8_t order[PO_MAXTAB]
    cdef int norder, it, k, nm, i, ch, pick, steps, status, untried, p, m, pile0
    cdef double r, others, sign, ln, u, bu
    cdef uint64_t rng = seed
    for it in range(iterations):
        k = it % ndeals
        s = deals[k]
        # the deal's own pile order: the core keeps it in the context (R17 draws)
        memcpy(c.pile_cards, &piles[k * 64], 64)
        memcpy(order, &orders[k * PO_MAXTAB], PO_MAXTAB)
        norder = norders[k]
        for p in range(c.n):
            if p == me:
                cur[p] = 0
            else:
                cur[p] = is_outcome(nodes, cap, used, 1 + p, s.hand[p])
                if cur[p] < 0:
                    return -1
            paths[p * pathcap] = cur[p]
            plen[p] = 1
        untried = -1
        while not s.over:
            nm = gen_moves(c, &s, ms, 0)
            if nm == 0:
                break
            m = to_move(&s)
            untried = -1
            for i in range(nm):
                found[i] = is_find(nodes[0], cur[m], &ms[i])
                if found[i] < 0 and untried < 0:
                    untried = i
            if untried >= 0:
                pick = untried
            else:
                sign = 1.0 if m == me else -1.0
                pick = 0
                bu = -1e300
                for i in range(nm):
                    ch = found[i]
                    ln = log(<double>(nodes[0][ch].avail + 1))
                    u = (sign * nodes[0][ch].w / nodes[0][ch].visits
                         + explore * sqrt(ln / nodes[0][ch].visits))
                    if u > bu:
                        bu = u
                        pick = i
            for i in range(nm):
                if found[i] >= 0:
                    nodes[0][found[i]].avail += 1
            # every tree follows the move
            for p in range(c.n):
                ch = is_child(nodes, cap, used, cur[p], &ms[pick])
                if ch < 0:
                    return -1
                if p == m and untried >= 0:
                    nodes[0][ch].avail += 1
                cur[p] = ch
                paths[p * pathcap + plen[p]] = ch
                plen[p] += 1
            pile0 = s.pile
            po_play(c, &s, &ms[pick], order, &norder)
            if untried >= 0:
                break  # a new leaf in the mover's tree: played out from here
            if s.pile != pile0:
                # hands filled from the pile (R17): each seat sees its own draw
                for p in range(c.n):
                    ch = is_outcome(nodes, cap, used, cur[p], s.hand[p])
                    if ch < 0:
                        return -1
                    cur[p] = ch
                    paths[p * pathcap + plen[p]] = ch
                    plen[p] += 1
            if plen[0] + 3 >= pathcap:
                break
        status = po_run(c, &s, limit, 0, order, &norder, &steps, eps, &rng, NULL)
        r = po_result(c, &s, me, status, &others)
        for p in range(c.n):
            for i in range(plen[p]):
                ch = paths[p * pathcap + i]
                nodes[0][ch].visits += 1
                nodes[0][ch].w += r
                nodes[0][ch].g += others
    return 0


def ismcts_scores(list deals, list pile_orders, int me, int iterations, list table_orders,
                  double explore=1.0, int limit=1500, double eps=0.0, uint64_t seed=0):
    """Every root move's mean result and card margin for ``me`` after
    ``iterations`` rounds of information-set MCTS over ``deals`` (states of one
    core search that the asking seat ``me`` cannot tell apart), taken in turn;
    ``pile_orders[k]``: deal ``k``'s pile, top first, as loaded (the core keeps a
    loaded pile in the search, not in the state, so each deal brings its own).

    Returns one ``(mean result, mean margin, visits)`` per move of
    ``deals[0].moves()`` (zeros if never tried).  ``table_orders[k]``: deal
    ``k``'s attack cards in the order they were played.  ``explore``: the
    UCB1 constant (results are in [-1, 1]).  ``eps``: the playouts below the
    trees make a uniformly random move with this probability (``uct_scores``'
    rule), from a random stream started at ``seed``.
    """
    cdef int nd = len(deals), nroot, i, j, k, cap = 1024, used = 1, rc, pathcap
    cdef CState st0, st
    cdef Ctx* c
    cdef Mv ms[MAXMOVES]
    cdef Mv mk[MAXMOVES]
    cdef St* sts = NULL
    cdef int8_t* orders = NULL
    cdef int8_t* piles = NULL
    cdef int8_t saved[64]
    cdef int* norders = NULL
    cdef INode* nodes = NULL
    cdef int32_t* path = NULL
    if nd == 0:
        raise ValueError("deals: at least one")
    if len(table_orders) != nd or len(pile_orders) != nd:
        raise ValueError("table_orders, pile_orders: one per deal")
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"eps: {eps} is not between 0 and 1")
    st0 = deals[0]
    c = st0.c
    if not 0 <= me < c.n:
        raise ValueError(f"me: seat {me} is not at the table")
    if st0.s.over:
        return []
    if to_move(&st0.s) != me:
        raise ValueError("the asking seat must be the one to move")
    nroot = gen_moves(c, &st0.s, ms, 0)
    for k in range(1, nd):
        st = deals[k]
        if st.c != c:
            raise ValueError("deals: states of one core search")
        if gen_moves(c, &st.s, mk, 0) != nroot:
            raise ValueError("deals: the asking seat's moves differ between deals")
        for j in range(nroot):
            if not same_move(&ms[j], &mk[j]):
                raise ValueError("deals: the asking seat's moves differ between deals")
    try:
        sts = <St*>malloc(nd * sizeof(St))
        orders = <int8_t*>malloc(nd * PO_MAXTAB)
        piles = <int8_t*>calloc(nd * 64, 1)
        norders = <int*>malloc(nd * sizeof(int))
        nodes = <INode*>malloc(cap * sizeof(INode))
        pathcap = MAXPLY * 2 + 8
        path = <int32_t*>malloc(<size_t>MAXP * pathcap * sizeof(int32_t))
        if (sts == NULL or orders == NULL or piles == NULL or norders == NULL or nodes == NULL
                or path == NULL):
            raise MemoryError()
        for k in range(nd):
            st = deals[k]
            if len(pile_orders[k]) != c.pile_len or st.s.pile != st0.s.pile:
                raise ValueError("pile_orders: each deal's pile as loaded, of the same size")
            for j in range(c.pile_len):
                piles[k * 64 + j] = pile_orders[k][j]
            sts[k] = st.s
            norders[k] = po_order(&st.s, table_orders[k], &orders[k * PO_MAXTAB])
        memset(nodes, 0, (1 + MAXP) * sizeof(INode))
        for i in range(1 + MAXP):
            nodes[i].child = -1
            nodes[i].sibling = -1
        used = 1 + MAXP
        memcpy(saved, c.pile_cards, 64)
        for k in range(c.n):   # the first deal's hands pick the random stream
            seed ^= st0.s.hand[k]
            seed = dl_next(&seed)
        with nogil:
            rc = is_run(c, sts, piles, orders, norders, nd, me, iterations, explore, limit,
                        &nodes, &cap, &used, path, pathcap, eps, seed)
        memcpy(c.pile_cards, saved, 64)
        if rc < 0:
            raise MemoryError()
        moves = []
        for j in range(nroot):
            i = is_find(nodes, 0, &ms[j])
            if i < 0 or nodes[i].visits == 0:
                moves.append((0.0, 0.0, 0))
            else:
                moves.append((nodes[i].w / nodes[i].visits, nodes[i].g / nodes[i].visits,
                              nodes[i].visits))
        return moves
    finally:
        free(sts)
        free(orders)
        free(piles)
        free(norders)
        free(nodes)
        free(path)
