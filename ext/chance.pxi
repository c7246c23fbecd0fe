# Exact expectimax over the last draws (the hint engine, issue 62).
#
# The hint engine solves a deal exactly once the pile is down to a card or two
# (the order is then forced: one hidden card over the face-up trump), and with
# a bigger pile it searches the deal with every card face up, the pile's order
# included: a player in that deal knows what he and the other will draw.  Here a
# deal with a few cards left in the pile is valued without that knowledge: the
# hands are the deal's, but the pile's hidden cards are a set, and each draw is
# a chance node over which of them each seat draws (every order equally likely,
# the face-up trump last).  Between the draws both seats choose by minimax
# (the asking seat maximises its result, the other minimises it), so a move
# before a draw is chosen for every draw it may meet, not for the one the deal
# happens to hold.  Once the pile is empty every card is known and the proof
# search (search.pxi) values the position exactly (+1 win, 0 draw, -1 loss,
# two proofs within a node budget, sharing the table: states without a pile
# have keys without the pile's order).  The value of a move is then the exact
# expected result over the draws, for the deal's hands.
#
# Chance nodes: a move that ends a bout with a draw is played once to see how
# many hidden cards each seat draws (R17: the attacker first, the defender
# last); then every choice of the attacker's cards among the hidden ones and
# of the defender's among the rest, each as likely, is written at the top of
# the loaded pile and the move played again.  Cards not drawn stay a set for
# the next draw.  Inside a bout: alpha-beta on the values, and a taker's run
# of throw-ins in increasing card order only (they give the same state in any
# order, as in dfs).  No Python object is touched inside the search; a budget
# that runs out marks the run failed, and the caller scores that deal
# otherwise.  The pure-Python reference is solver/hints/chance.py.


cdef int ch_prove(ChRun* r, St* s, int prover) noexcept nogil:
    """The proof search at a leaf within ``leaf_nodes`` nodes: 1 the prover's side
    forces its result, 0 it cannot, -1 not answered (the run is then failed)."""
    cdef Ctx* c = r.c
    cdef int dist = 0, res
    cdef uint64_t rep[2]
    cdef St root = s[0]
    cdef int64_t left = r.max_nodes - (c.nodes - r.start)
    if left <= 0:
        r.failed = 1
        return -1
    root.tfloor = -1
    c.hero = r.me
    c.prover = prover
    c.slot = prover_slot(c)
    c.pathlen = 0
    c.msp = 0
    c.abort = 0
    c.max_nodes = c.nodes + (r.leaf_nodes if r.leaf_nodes < left else left)
    c.deadline = r.deadline
    c.root_move = -1
    res = dfs(c, &root, UNLIM, 0, &dist, rep, NULL)
    if res < 0:
        r.failed = 2 if c.abort == 2 else 1
        c.abort = 0
        return -1
    return res


cdef double ch_final(ChRun* r, St* s) noexcept nogil:
    """``me``'s result of a state whose game is over or whose pile holds no hidden
    card (empty, or the face-up trump alone: its key names the loaded pile's
    epoch, and what is left of that pile, the trump, is the same in every
    arrangement): the game's result, or two proofs (the other side forces
    ``me``'s loss?  ``me``'s side its win?); a proof past its budget fails the
    run."""
    cdef Ctx* c = r.c
    cdef int v = 0, res
    c.hero = r.me
    if outcome_known(c, s, &v):
        return v
    if s.over:  # over without an outcome between bouts (cannot happen): a draw
        return 0.0
    r.leaves += 1
    res = ch_prove(r, s, 0)
    if res == 1:
        return -1.0
    if res < 0:
        return 0.0
    res = ch_prove(r, s, 1)
    if res == 1:
        return 1.0
    return 0.0


cdef double ch_value(ChRun* r, St* s, int8_t* rest, int nrest, double alpha,
                     double beta) noexcept nogil:
    """The expectimax value for ``me`` of ``s``, whose pile holds the hidden cards
    ``rest`` (in any order) above the face-up trump; alpha-beta bounds."""
    cdef Ctx* c = r.c
    cdef Mv ms[MAXMOVES]
    cdef int nm, i, j, maxing
    cdef double best, v
    if r.failed:
        return 0.0
    if s.over or nrest == 0:
        # no hidden card left to draw (the pile empty, or only the face-up trump
        # in it): the rest is known, the proof search values it
        return ch_final(r, s)
    r.bout_nodes += 1
    c.nodes += 1
    if c.nodes - r.start > r.max_nodes or (r.deadline > 0 and dk_now() > r.deadline):
        r.failed = 1
        return 0.0
    nm = gen_moves(c, s, ms, 0)
    if phase(s) == PH_TAKEN and s.tfloor >= 0 and s.tfseat == s.turn:
        j = 0
        for i in range(nm):
            if ms[i].kind != K_THROW or ms[i].card > s.tfloor:
                ms[j] = ms[i]
                j += 1
        nm = j
    maxing = to_move(s) == r.me
    best = -2.0 if maxing else 2.0
    for i in range(nm):
        v = ch_move(r, s, &ms[i], rest, nrest, alpha, beta)
        if r.failed:
            return 0.0
        if maxing:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


cdef double ch_move(ChRun* r, St* s, Mv* m, int8_t* rest, int nrest, double alpha,
                    double beta) noexcept nogil:
    """The value of playing ``m`` in ``s``: the value of the state it leads to, or,
    if it ends the bout with a draw of hidden cards, the mean over the draws."""
    cdef Ctx* c = r.c
    cdef St child = s[0]
    cdef int base, first, second, n1, n2, k, i, cnt
    cdef uint64_t table, b1, b2, hidden
    cdef double total
    play(c, &child, m)
    if child.pile == s.pile:
        return ch_value(r, &child, rest, nrest, alpha, beta)
    # how many hidden cards each seat drew (the attacker first, R17), the
    # face-up trump not counted
    hidden = 0
    for i in range(nrest):
        hidden |= (<uint64_t>1) << rest[i]
    first = s.attacker
    second = s.defender
    table = s.att | s.cov | m.cards
    b1 = child.hand[first] & ~(s.hand[first] | table) & hidden
    b2 = child.hand[second] & ~(s.hand[second] | table) & hidden
    n1 = popcount64(b1)
    n2 = popcount64(b2)
    if n1 + n2 == 0:  # nothing hidden was drawn (cannot happen while hidden cards lie above the trump)
        return ch_value(r, &child, rest, nrest, alpha, beta)
    base = c.pile_len - s.pile
    total = 0.0
    cnt = 0
    ch_split(r, s, m, rest, nrest, n1, n2, base, 0, 0, 0, &total, &cnt)
    if r.failed or cnt == 0:
        return 0.0
    return total / cnt


cdef void ch_split(ChRun* r, St* s, Mv* m, int8_t* rest, int nrest, int n1, int n2, int base,
                   uint32_t chosen1, int from1, int got1, double* total, int* cnt) noexcept nogil:
    """Every choice of ``n1`` of the hidden cards for the first drawer (indices from
    ``from1`` on, ``chosen1`` so far), then of ``n2`` of the others for the second."""
    cdef int i
    if r.failed:
        return
    if got1 == n1:
        ch_split2(r, s, m, rest, nrest, n1, n2, base, chosen1, 0, 0, 0, total, cnt)
        return
    for i in range(from1, nrest - (n1 - got1) + 1):
        ch_split(r, s, m, rest, nrest, n1, n2, base, chosen1 | (1u << i), i + 1, got1 + 1,
                 total, cnt)


cdef void ch_split2(ChRun* r, St* s, Mv* m, int8_t* rest, int nrest, int n1, int n2, int base,
                    uint32_t chosen1, uint32_t chosen2, int from2, int got2, double* total,
                    int* cnt) noexcept nogil:
    cdef Ctx* c = r.c
    cdef int i, pos, nleft
    cdef int8_t left[CH_MAXREST]
    cdef int8_t saved[CH_MAXREST]
    cdef St child
    if r.failed:
        return
    if got2 < n2:
        for i in range(from2, nrest):
            if (chosen1 >> i) & 1:
                continue
            ch_split2(r, s, m, rest, nrest, n1, n2, base, chosen1, chosen2 | (1u << i), i + 1,
                      got2 + 1, total, cnt)
        return
    # lay the pile: the first drawer's cards, the second's, then the rest
    memcpy(saved, &c.pile_cards[base], nrest)
    pos = base
    for i in range(nrest):
        if (chosen1 >> i) & 1:
            c.pile_cards[pos] = rest[i]
            pos += 1
    for i in range(nrest):
        if (chosen2 >> i) & 1:
            c.pile_cards[pos] = rest[i]
            pos += 1
    nleft = 0
    for i in range(nrest):
        if not ((chosen1 | chosen2) >> i) & 1:
            c.pile_cards[pos] = rest[i]
            left[nleft] = rest[i]
            pos += 1
            nleft += 1
    child = s[0]
    play(c, &child, m)
    r.draws += 1
    total[0] += ch_value(r, &child, left, nleft, -2.0, 2.0)
    cnt[0] += 1
    memcpy(&c.pile_cards[base], saved, nrest)


def chance_scores(CState st, int me, int64_t leaf_nodes=30000, int64_t max_nodes=2000000,
                  double max_time=0.0):
    """Every legal move's expected result for ``me`` (-1 .. 1) over the orders of the
    pile's hidden cards, the hands being this deal's; None past a budget.

    Two players.  The deal's pile order (as loaded) names the hidden cards, not
    their order.  ``leaf_nodes``: each leaf proof's node budget (the pile
    empty); ``max_nodes``: the whole search's (the bouts' states and the
    proofs); ``max_time``: seconds (0: none).  Returns ``(values, stats)``:
    ``values`` one float per move of ``st.moves()`` (or None), ``stats`` a dict
    of the bout states, leaves and draws searched.
    """
    cdef Ctx* c = st.c
    cdef ChRun r
    cdef Mv ms[MAXMOVES]
    cdef int8_t rest[CH_MAXREST]
    cdef int8_t saved[64]
    cdef int nm, i, nrest
    cdef St s = st.s
    cdef double vals[MAXMOVES]
    if c.n != 2:
        raise ValueError("chance_scores: two players")
    if not 0 <= me < c.n:
        raise ValueError(f"me: seat {me} is not at the table")
    if s.over:
        return [], {}
    nrest = s.pile - 1 if s.pile > 0 else 0
    if nrest > CH_MAXREST:
        raise ValueError(f"chance_scores: at most {CH_MAXREST} hidden pile cards")
    if nrest and c.pile_len < s.pile:
        raise ValueError("chance_scores: the deal's pile is not loaded")
    for i in range(nrest):
        rest[i] = c.pile_cards[c.pile_len - s.pile + i]
    memset(&r, 0, sizeof(ChRun))
    r.c = c
    r.me = me
    r.leaf_nodes = leaf_nodes
    r.max_nodes = max_nodes
    r.start = c.nodes
    r.deadline = dk_now() + max_time if max_time > 0 else 0.0
    nm = gen_moves(c, &s, ms, 0)
    memcpy(saved, c.pile_cards, 64)
    with nogil:
        for i in range(nm):
            vals[i] = ch_move(&r, &s, &ms[i], rest, nrest, -2.0, 2.0)
            if r.failed:
                break
    memcpy(c.pile_cards, saved, 64)
    if r.failed == 2:
        raise KeyboardInterrupt
    stats = {"bout_nodes": r.bout_nodes, "leaves": r.leaves, "draws": r.draws,
             "nodes": c.nodes - r.start}
    if r.failed:
        return None, stats
    return [vals[i] for i in range(nm)], stats
