# Included by _core.pyx: move ordering -- static scores per move kind and card,
# the history heuristic, and taking the moves in score order.


cdef inline int card_cost(Ctx* c, int card) noexcept nogil:
    return (card % 13) + (16 if card // 13 == c.trump else 0)


# ordering weights per move kind (lead, cover, take, transfer, show, throw, pass, swap)
cdef int KIND_BASE[NKINDS]
cdef int KIND_COST[NKINDS]
cdef int KIND_SAME[NKINDS]
cdef int KIND_MULTI[NKINDS]
KIND_BASE[:] = [0, 0, 70, 80, -20, 0, 30, 0]
KIND_COST[:] = [2, 2, 0, 1, 0, 2, 0, 0]
KIND_SAME[:] = [10, 5, 0, 0, 0, 0, 0, 0]
KIND_MULTI[:] = [3, 0, 0, 0, 0, 0, 0, 0]


cdef void score_moves(Ctx* c, St* s, Mv* ms, int n, int mine) noexcept nogil:
    """Static ordering (cheap cards first, keep trumps, take last) nudged by
    the history of cut-offs: each move's ``score``, lowest first.  The search
    takes them in that order, stably (``sort_moves`` or ``next_move``).

    The order: a take only after every cover, trumps included; the history
    of cut-offs only as a tie-breaker (a bonus of at most 20); passing
    before throwing in a trump; single cards led before ranks held twice (a
    pair is worth keeping for throw-ins); covers with a rank the attacker
    cannot throw in before ones he can (R9); a transfer (R14) last, after
    the take.  Each was kept because it cut the nodes of the benchmark
    endgames (docs/solver.md, "Move ordering", has the figures).
    """
    cdef int i, k, card
    cdef uint64_t att_hand = s.hand[s.attacker] if s.attacker >= 0 else 0
    cdef int8_t* hb = &c.hbonus[mine][0][0]
    for i in range(n):
        k = ms[i].kind
        card = ms[i].card & 63
        # Branch-free, from the per-kind weights (KIND_*): a lead or a cover
        # by twice the card's cost, a transfer by its cost after the take;
        # take 70, pass 30, a trump shown -20; singles first (a rank held
        # twice is worth keeping for throw-ins); a lead (10 per card) or a
        # cover (5) of a rank the attacker holds later -- it opens throw-ins
        # (R9).  Scores stay within -40..110: an int8.
        ms[i].score = (KIND_BASE[k] + ((KIND_COST[k] * c.cost2[card]) >> 1)
                       + KIND_SAME[k] * popcount64(att_hand & c.same_rank[card])
                       - KIND_MULTI[k] * (popcount64(ms[i].cards) - 1)
                       - hb[k * 64 + card])


cdef inline void count_cutoff(Ctx* c, int mine, int kind, int card) noexcept nogil:
    """History heuristic: one more cut-off by a move that was not tried first;
    the ordering bonus is 2 * floor(log2(count)), at most 20."""
    cdef uint32_t hv = c.hist[mine][kind][card] + 1
    cdef int hb = 0
    c.hist[mine][kind][card] = hv
    if hv > 1:
        hb = 2 * (31 - __builtin_clz(hv))
        if hb > 20:
            hb = 20
    c.hbonus[mine][kind][card] = hb


cdef inline void sort_moves(Mv* ms, int n) noexcept nogil:
    """Stable insertion sort by score: the whole order, for a node that looks
    at every child first (the enhanced transposition cut-off)."""
    cdef int i, j
    cdef Mv tmp
    for i in range(1, n):
        tmp = ms[i]
        j = i - 1
        while j >= 0 and ms[j].score > tmp.score:
            ms[j + 1] = ms[j]
            j -= 1
        ms[j + 1] = tmp


cdef inline void next_move(Mv* ms, int i, int n) noexcept nogil:
    """Bring the first lowest-scored move of ``ms[i:n]`` to ``i``, the rest
    keeping their order: step ``i`` of ``sort_moves``' order, paid only for
    the moves a node gets to (most nodes are cut off by their first)."""
    cdef int k = i, j
    cdef Mv tmp
    for j in range(i + 1, n):
        if ms[j].score < ms[k].score:
            k = j
    if k != i:
        tmp = ms[k]
        while k > i:
            ms[k] = ms[k - 1]
            k -= 1
        ms[i] = tmp
