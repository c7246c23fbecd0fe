# Included at the end of _core.pyx: the greedy player and greedy playouts in C.
"""The greedy player (docs/hint.md, "The greedy player") over the core's
move list, and playouts that finish a fully known game with it in every seat.

This is a port of :func:`solver.policy.bots.greedy_move` and
:func:`solver.hint.playout`; ``tests/test_playout_core.py`` holds the port to
the same move and the same playout result on thousands of states.  Two things
the bitmask state :c:type:`St` does not keep are supplied by the caller:

* the order in which the attack cards of the bout were played (the Python
  table order).  The greedy cover plan tries the open attacks dearest first,
  ties in table order, and keeps the first cheapest plan found, so with two
  attack cards of equal cost (same rank, two plain suits) the order decides
  which card a trump covers.  A playout keeps the order up to date itself
  (a lead puts its cards in card order, R8; a throw-in or a transfer appends
  one, P3, R14).
* the seat the result is wanted for (``me``).
"""

# The constants PO_* and the struct CoverPlan are declared in _core.pxd.


cdef inline int po_rank(int card) noexcept nogil:
    """Rank 2..14 (solver.cards.rank_of)."""
    return card % 13 + 2


cdef inline int po_cost(int card, int trump) noexcept nogil:
    """bots.card_cost: the rank, plus 13 for a trump."""
    return card % 13 + 2 + (13 if card // 13 == trump else 0)


cdef void po_cover_rec(CoverPlan* p, int i, uint64_t left, int cost) noexcept nogil:
    """bots._best_cover_plan's search: the first cheapest plan in DFS order."""
    cdef uint64_t b
    cdef int cc
    if p.best_cost >= 0 and cost >= p.best_cost:
        return
    if i == p.n:
        p.best_cost = cost
        memcpy(p.best, p.cur, p.n * sizeof(int))
        return
    b = c_beaters(p.att[i], left, p.trump)
    while b:
        cc = __builtin_ctzll(b)
        b &= b - 1
        p.cur[i] = cc
        po_cover_rec(p, i + 1, left & ~((<uint64_t>1) << cc), cost + po_cost(cc, p.trump))


cdef int po_find(Mv* ms, int n, int kind, int card, int target) noexcept nogil:
    """Index of the move of ``kind`` with this card (and covered card), -1 if none."""
    cdef int i
    for i in range(n):
        if ms[i].kind == kind and (card < 0 or ms[i].card == card) and \
                (target < 0 or ms[i].target == target):
            return i
    return -1


cdef int po_greedy_lead(Ctx* c, St* s, Mv* ms, int n) noexcept nogil:
    """bots._greedy_lead: the cheapest non-trump (all of its rank when cheap or
    the pile is empty, R8, F4); trumps only when nothing else is left."""
    cdef int trump = c.trump, low = -1, lc = 1 << 20, cc, card, i, r, best = -1, bs = 0, sz
    cdef uint64_t hand = s.hand[s.attacker]
    cdef uint64_t pool = hand & ~(SUIT13 << (13 * trump))
    cdef uint64_t x, same
    if pool == 0:
        pool = hand
    x = pool
    while x:
        card = __builtin_ctzll(x)
        x &= x - 1
        cc = po_cost(card, trump)
        if cc < lc:
            lc = cc
            low = card
    if low < 0:
        return 0
    r = low % 13
    same = pool & (SPREAD << r)
    if popcount64(same) > 1 and (r + 2 <= PO_CHEAP_RANK or s.pile == 0):
        # the largest legal lead made of these cards, the first of that size
        for i in range(n):
            if ms[i].kind == K_LEAD and (ms[i].cards & ~same) == 0:
                sz = popcount64(ms[i].cards)
                if best < 0 or sz > bs:
                    best = i
                    bs = sz
        if best >= 0:
            return best
    for i in range(n):
        if ms[i].kind == K_LEAD and ms[i].cards == ((<uint64_t>1) << low):
            return i
    return 0


cdef int po_greedy_defend(Ctx* c, St* s, Mv* ms, int n, int8_t* order, int norder) noexcept nogil:
    """bots._greedy_defend: show, transfer, take or the cheapest full cover."""
    cdef CoverPlan p
    cdef int trump = c.trump, i, j, a, key, t = -1, tc = 1 << 20, tcard, ntr = 0, high = 0
    cdef int has_plan, ba = -1, bc = -1, bk = 1 << 30
    cdef uint64_t hand = s.hand[s.defender]
    # open attacks in table order, then a stable sort dearest first
    p.n = 0
    p.trump = trump
    p.best_cost = -1
    for i in range(norder):
        a = order[i]
        if (s.opn >> a) & 1:
            j = p.n
            key = po_cost(a, trump)
            while j > 0 and po_cost(p.att[j - 1], trump) < key:
                p.att[j] = p.att[j - 1]
                j -= 1
            p.att[j] = a
            p.n += 1
    po_cover_rec(&p, 0, hand, 0)
    has_plan = p.best_cost >= 0
    if has_plan:
        for i in range(p.n):
            if p.best[i] // 13 == trump:
                ntr += 1
                if po_rank(p.best[i]) >= PO_HIGH_TRUMP_RANK:
                    high = 1
    # R14: a show costs nothing; a plain transfer sheds a card and passes the bout
    for i in range(n):
        if ms[i].kind == K_SHOW:
            return i
    for i in range(n):
        if ms[i].kind == K_TRANSFER and po_cost(ms[i].card, trump) < tc:
            tc = po_cost(ms[i].card, trump)
            t = i
    if t >= 0:
        tcard = ms[t].card
        if tcard // 13 != trump:
            return t
        if (not has_plan or ntr > 0) and (po_rank(tcard) < PO_HIGH_TRUMP_RANK or not has_plan):
            return t
    if not has_plan:
        return po_find(ms, n, K_TAKE, -1, -1)
    if s.pile > PO_BIG_PILE and (high or ntr >= 2):
        return po_find(ms, n, K_TAKE, -1, -1)
    # cover the attack whose planned beater is the cheapest first
    for i in range(p.n):
        key = po_cost(p.best[i], trump) * 64 + p.att[i]
        if key < bk:
            bk = key
            ba = p.att[i]
            bc = p.best[i]
    return po_find(ms, n, K_COVER, bc, ba)


cdef int po_greedy_throw(Ctx* c, St* s, Mv* ms, int n) noexcept nogil:
    """bots._greedy_throw (P3, P4): the cheapest card the pile size allows, else pass."""
    cdef int trump = c.trump, i, card, is_trump, ok, best = -1, bk = 1 << 30, key
    for i in range(n):
        if ms[i].kind != K_THROW:
            continue
        card = ms[i].card
        is_trump = card // 13 == trump
        if s.pile == 0:
            ok = (not is_trump) if s.take else 1
        elif is_trump:
            ok = 0
        elif s.take or s.pile > PO_BIG_PILE:
            ok = po_rank(card) <= PO_CHEAP_RANK
        else:
            ok = 1
        if ok:
            key = po_cost(card, trump) * 64 + card
            if key < bk:
                bk = key
                best = i
    if best >= 0:
        return best
    return po_find(ms, n, K_PASS, -1, -1)


cdef int po_greedy(Ctx* c, St* s, Mv* ms, int n, int8_t* order, int norder) noexcept nogil:
    """bots.greedy_move: the index of the greedy move in ``ms`` (-1 if none)."""
    cdef int i, ph
    if n <= 0:
        return -1
    if n == 1:
        return 0
    for i in range(n):
        if ms[i].kind == K_SWAP:  # R7 whenever it is offered
            return i
    ph = phase(s)
    if ph == PH_LEAD:
        return po_greedy_lead(c, s, ms, n)
    if ph == PH_DEFEND:
        return po_greedy_defend(c, s, ms, n, order, norder)
    return po_greedy_throw(c, s, ms, n)


cdef inline void po_play(Ctx* c, St* s, Mv* m, int8_t* order, int* norder) noexcept nogil:
    """play() and the table order kept alongside."""
    cdef uint64_t x
    cdef int k = m.kind
    if k == K_LEAD:
        norder[0] = 0
        x = m.cards
        while x:
            order[norder[0]] = __builtin_ctzll(x)
            norder[0] += 1
            x &= x - 1
    elif (k == K_TRANSFER or k == K_THROW) and norder[0] < PO_MAXTAB:
        order[norder[0]] = m.card
        norder[0] += 1
    play(c, s, m)
    if s.att == 0:
        norder[0] = 0


cdef int po_run(Ctx* c, St* s, int limit, int stop_at_endgame, int8_t* order, int* norder,
                int* steps, double eps, uint64_t* rng, LModel* lm) noexcept nogil:
    """hint.playout's loop: at most ``limit`` greedy moves; PO_OVER, PO_LIMIT or
    PO_ENDGAME (the first position between bouts with the pile empty).  With
    ``eps`` > 0 (the tree searches' playouts, uct.pxi and anytime.pxi) each
    move is a uniformly random legal one with probability ``eps``, drawn from
    ``rng``.  With a model ``lm`` (learn.pxi; NULL: the greedy player) the
    other moves are the model's choice instead of the greedy player's."""
    cdef Mv ms[MAXMOVES]
    cdef int k, nm, i
    # a draw below this is a random move (53 bits: exact in a double)
    cdef uint64_t below = <uint64_t>(eps * 9007199254740992.0)
    steps[0] = 0
    for k in range(limit):
        if s.over:
            return PO_OVER
        if stop_at_endgame and s.pile == 0 and s.att == 0:
            return PO_ENDGAME
        nm = gen_moves(c, s, ms, 0)
        if below and nm > 0 and (dl_next(rng) >> 11) < below:
            i = <int>dl_below(rng, <uint32_t>nm)
        elif lm != NULL:
            i = lm_choose(c, s, ms, nm, order, norder[0], lm, rng)
        else:
            i = po_greedy(c, s, ms, nm, order, norder[0])
        if i < 0:
            return PO_OVER
        po_play(c, s, &ms[i], order, norder)
        steps[0] += 1
    return PO_OVER if s.over else PO_LIMIT


cdef double po_result(Ctx* c, St* s, int me, int status, double* margin) noexcept nogil:
    """A tree search's leaf: ``me``'s result after a playout that ended with
    ``status`` (+1/0/-1, R20-R22; 0 when the move limit ended it, R23) and, in
    ``margin``, the others' mean hand size less ``me``'s."""
    cdef int v = 0, oh, i
    cdef double others = 0.0
    for i in range(c.n):
        if i != me:
            others += popcount64(s.hand[i])
    margin[0] = others / (c.n - 1) - popcount64(s.hand[me])
    if status == PO_LIMIT:
        return 0.0
    oh = c.hero
    c.hero = me
    outcome_known(c, s, &v)
    c.hero = oh
    return v


cdef int po_order(St* s, tuple table_order, int8_t* order) except -1:
    """Copy the caller's attack order; it must hold exactly the bout's attack cards."""
    cdef int n = len(table_order), i, card
    cdef uint64_t m = 0
    if n > PO_MAXTAB:
        raise ValueError("table_order: too many attack cards")
    for i in range(n):
        card = table_order[i]
        if not 0 <= card < 64:
            raise ValueError(f"table_order: bad card {card}")
        order[i] = card
        m |= (<uint64_t>1) << card
    if m != s.att or popcount64(m) != n:
        raise ValueError("table_order must list the attack cards of the bout, each once")
    return n


def greedy_index(CState st, tuple table_order=()):
    """Index in ``st.moves()`` of the greedy player's move (bots.greedy_move),
    or -1 when the game is over.  ``table_order``: the attack cards of the bout
    in the order they were played."""
    cdef int8_t order[PO_MAXTAB]
    cdef int norder = po_order(&st.s, table_order, order)
    cdef Mv ms[MAXMOVES]
    cdef int n = gen_moves(st.c, &st.s, ms, 0)
    return po_greedy(st.c, &st.s, ms, n, order, norder)


def greedy_playout(CState st, int me, int limit=1500, tuple table_order=(), int first=-1,
                   bint stop_at_endgame=False, PolicyModel model=None):
    """Finish the game with the greedy player in every seat (hint.playout).

    ``first``: the index in ``st.moves()`` of a move to play before the
    playout (not counted in ``limit``).  Returns ``(result, margin, steps,
    end)``: ``me``'s result +1/0/-1 (R20-R22; 0 when ``limit`` moves did not
    end the game, R23), the card margin (the others' mean hand minus ``me``'s),
    the greedy moves played and ``None``; or, with ``stop_at_endgame``, at the
    first position between bouts with the pile empty, ``(None, margin, steps,
    state)`` with that position as a :class:`CState`.  ``model``: every seat
    plays the learned model's best move (learn.pxi) instead of the greedy one.
    """
    cdef Ctx* c = st.c
    cdef St s = st.s
    cdef int8_t order[PO_MAXTAB]
    cdef int norder = po_order(&st.s, table_order, order)
    cdef Mv ms[MAXMOVES]
    cdef int n, steps = 0, status, v = 0, oh, i, mine
    cdef double others = 0.0
    cdef LModel* lm = &model.m if model is not None else NULL
    if not 0 <= me < c.n:
        raise ValueError(f"me: seat {me} is not at the table")
    if first >= 0:
        n = gen_moves(c, &s, ms, 0)
        if first >= n:
            raise IndexError("move index out of range")
        po_play(c, &s, &ms[first], order, &norder)
    with nogil:
        status = po_run(c, &s, limit, stop_at_endgame, order, &norder, &steps, 0.0, NULL, lm)
    mine = popcount64(s.hand[me])
    for i in range(c.n):
        if i != me:
            others += popcount64(s.hand[i])
    others /= (c.n - 1)
    if status == PO_ENDGAME:
        out = CState.__new__(CState)
        (<CState>out).s = s
        (<CState>out).c = c
        (<CState>out).owner = st.owner
        return None, others - mine, steps, out
    if status == PO_LIMIT:
        return 0, 0.0, steps, None
    oh = c.hero
    c.hero = me
    outcome_known(c, &s, &v)
    c.hero = oh
    return v, others - mine, steps, None
