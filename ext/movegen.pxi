# Included by _core.pyx: the rules twin, part two -- the legal moves of a state
# and the state after a move (gen_moves, play, settle, end_bout).
#
# Rules (R2, R8-R22, P1-P4, F1-F15) are a line-by-line port of
# ``solver/game/movegen.py`` onto the C struct :c:type:`St`; the tests
# (``tests/test_core_movegen.py``) hold the two to the same move lists, in the
# same order, and the same next states.


cdef inline void add_move(Mv* out, int* cnt, int kind, uint64_t cards, int card, int target) noexcept nogil:
    cdef Mv* m = &out[cnt[0]]
    m.kind = kind
    m.cards = cards
    m.card = card
    m.target = target
    m.score = 0
    m.idx = cnt[0]
    m.fails = 0
    cnt[0] += 1


cdef inline int lead_limit(Ctx* c, St* s) noexcept nogil:
    cdef int h = popcount64(s.hand[s.defender])
    return s.cap if s.cap < h else h


cdef int gen_moves(Ctx* c, St* s, Mv* out, int singles) noexcept nogil:
    """Every legal move, in solver.game.movegen.legal_moves order.

    ``singles``: leads of one card only (``single_leads_suffice``); the
    moves keep the index (``Mv.idx``) they have in the full list, so the
    table's cut-off move names the same move either way.
    """
    cdef int cnt = 0, ph = phase(s), seat, limit, r, k, m, i, j, l, q, nidx = 0
    cdef uint64_t hand, rm, open_, b, bb, rk, x
    cdef int cs[4]
    cdef int a, cc, rank, nd, natt, size, t, low
    if ph == PH_OVER:
        return 0
    seat = to_move(s)
    hand = s.hand[seat]
    if ph == PH_LEAD:
        limit = lead_limit(c, s)
        for r in range(13):
            rm = hand & (SPREAD << r)
            if rm == 0:
                continue
            m = 0
            x = rm
            while x:
                cs[m] = __builtin_ctzll(x)
                x &= x - 1
                m += 1
            if singles:
                for i in range(m):
                    add_move(out, &cnt, K_LEAD, (<uint64_t>1) << cs[i], cs[i], -1)
                    out[cnt - 1].idx = nidx + i
                # skip the pairs, triples and the four of a kind
                nidx += m
                if limit >= 2:
                    nidx += m * (m - 1) // 2
                if limit >= 3:
                    nidx += m * (m - 1) * (m - 2) // 6
                if limit >= 4 and m == 4:
                    nidx += 1
                continue
            # itertools.combinations order, sizes 1..min(m, limit)
            for i in range(m):
                add_move(out, &cnt, K_LEAD, (<uint64_t>1) << cs[i], cs[i], -1)
            if limit >= 2:
                for i in range(m):
                    for j in range(i + 1, m):
                        add_move(out, &cnt, K_LEAD, ((<uint64_t>1) << cs[i]) | ((<uint64_t>1) << cs[j]), cs[i], -1)
            if limit >= 3:
                for i in range(m):
                    for j in range(i + 1, m):
                        for l in range(j + 1, m):
                            add_move(out, &cnt, K_LEAD, ((<uint64_t>1) << cs[i]) | ((<uint64_t>1) << cs[j]) | ((<uint64_t>1) << cs[l]), cs[i], -1)
            if limit >= 4 and m == 4:
                add_move(out, &cnt, K_LEAD, rm, cs[0], -1)
    elif ph == PH_DEFEND:
        open_ = s.opn
        while open_:
            a = __builtin_ctzll(open_)
            open_ &= open_ - 1
            b = c_beaters(a, hand, c.trump)
            while b:
                cc = __builtin_ctzll(b)
                b &= b - 1
                add_move(out, &cnt, K_COVER, (<uint64_t>1) << cc, cc, a)
        add_move(out, &cnt, K_TAKE, 0, -1, -1)
        if (c.flags & (F_TRANSFER | F_SHOW)) and s.cov == 0 and not s.take:
            rank = __builtin_ctzll(s.att) % 13
            nd = defender_for(c, s, s.defender)
            if nd >= 0:
                natt = popcount64(s.att)
                size = popcount64(s.hand[nd])
                if natt + 1 <= s.cap and size >= natt + 1:
                    b = hand & (SPREAD << rank)
                    while b:
                        cc = __builtin_ctzll(b)
                        b &= b - 1
                        add_move(out, &cnt, K_TRANSFER, (<uint64_t>1) << cc, cc, -1)
                if (c.flags & F_SHOW) and size >= natt:
                    t = c.trump * 13 + rank
                    if (hand >> t) & 1 and not ((s.shown >> t) & 1):
                        add_move(out, &cnt, K_SHOW, (<uint64_t>1) << t, t, -1)
    else:
        if popcount64(s.att) < s.limit:
            b = hand & (rank_set(s.att | s.cov) * SPREAD)
            while b:
                cc = __builtin_ctzll(b)
                b &= b - 1
                add_move(out, &cnt, K_THROW, (<uint64_t>1) << cc, cc, -1)
        add_move(out, &cnt, K_PASS, 0, -1, -1)
    if (c.flags & F_SWAP) and s.pile > 0 and s.trump_card >= 0:
        low = c.trump * 13 + c.low_rank - 2
        if s.trump_card != low and (hand >> low) & 1:
            add_move(out, &cnt, K_SWAP, 0, -1, -1)
    return cnt


cdef void end_bout(Ctx* c, St* s) noexcept nogil:
    """R15-R18: discard or pick up, draw (R17, known pile), next bout, R20."""
    cdef int d = s.defender, n = c.n, k, t, need, idx, card, leader, v
    cdef int taken = s.take
    if taken:
        s.hand[d] |= s.att | s.cov
    else:
        s.fresh = 0
    if s.pile > 0:
        for k in range(n + 1):
            if k < n:
                t = (s.attacker + k) % n
                if t == d:
                    continue
            else:
                t = d
            need = 6 - popcount64(s.hand[t])
            while need > 0 and s.pile > 0:
                if s.pile == 1:
                    card = s.trump_card
                else:
                    idx = c.pile_len - s.pile
                    card = c.pile_cards[idx]
                s.hand[t] |= (<uint64_t>1) << card
                s.pile -= 1
                need -= 1
        if s.pile == 0:
            s.trump_card = -1
    s.att = 0
    s.opn = 0
    s.cov = 0
    s.take = 0
    s.turn = -1
    s.limit = 0
    s.shown = 0
    s.cap = 5 if ((c.flags & F_FBL) and s.fresh) else 6
    if taken:
        leader = next_active(c, s, d)
    else:
        leader = d if active(c, s, d) else next_active(c, s, d)
    if outcome_known(c, s, &v) or leader < 0:
        s.attacker = leader if leader >= 0 else -1
        s.defender = -1
        s.over = 1
        return
    s.attacker = leader
    s.defender = defender_for(c, s, leader)


cdef void settle(Ctx* c, St* s, int* cand, int ncand) noexcept nogil:
    """After a move: find the thrower to ask (F2) or end the bout."""
    cdef int order[MAXP]
    cdef int no, i, start
    if s.att == 0:
        return
    if not s.take and s.opn:
        return
    if cand == NULL:
        no = throw_order(c, s, order)
        start = 0
        if s.take and s.turn >= 0:
            # P4, F3: the seat asked has added a card and is asked again; the seats
            # before him in R12 order have passed.  (A thrower who has just gone
            # out is no longer in the order: play asks the others, F15.)
            start = no
            for i in range(no):
                if order[i] == s.turn:
                    start = i
                    break
        for i in range(start, no):
            if can_throw(c, s, order[i]):
                s.turn = order[i]
                return
    else:
        for i in range(ncand):
            if can_throw(c, s, cand[i]):
                s.turn = cand[i]
                return
    end_bout(c, s)


cdef void play(Ctx* c, St* s, Mv* m) noexcept nogil:
    """Apply a legal move in place (solver.game.movegen.play)."""
    cdef int seat = to_move(s), k = m.kind, low, nd, no, i, pos, ph, passed = 0
    cdef int order[MAXP]
    cdef uint64_t bit
    if k == K_SWAP:
        s.tfloor = -1
        low = c.trump * 13 + c.low_rank - 2
        s.hand[seat] = (s.hand[seat] & ~((<uint64_t>1) << low)) | ((<uint64_t>1) << s.trump_card)
        s.trump_card = low
        ph = phase(s)
        if ph == PH_THROW or ph == PH_TAKEN:
            # F2: the swap may have given away the thrower's only card of a table rank
            no = throw_order(c, s, order)
            for i in range(no):
                if order[i] == seat:
                    settle(c, s, &order[i], no - i)
                    break
        return
    if k == K_LEAD:
        s.limit = lead_limit(c, s)
        s.hand[seat] &= ~m.cards
        s.att = m.cards
        s.opn = m.cards
        s.cov = 0
        s.shown = 0
        settle(c, s, NULL, 0)
        return
    bit = (<uint64_t>1) << m.card if m.card >= 0 else 0
    if k == K_COVER:
        s.hand[seat] &= ~bit
        s.opn &= ~((<uint64_t>1) << m.target)
        s.cov |= bit
        s.turn = -1
        settle(c, s, NULL, 0)
        return
    if k == K_TAKE:
        s.take = 1
        s.turn = -1
        s.tfloor = -1
        settle(c, s, NULL, 0)
        return
    if k == K_TRANSFER or k == K_SHOW:
        if k == K_TRANSFER:
            s.hand[seat] &= ~bit
            s.att |= bit
            s.opn |= bit
        else:
            s.shown |= bit
        nd = defender_for(c, s, seat)
        s.attacker = seat
        s.defender = nd
        i = popcount64(s.hand[nd])
        s.limit = s.cap if s.cap < i else i
        settle(c, s, NULL, 0)
        return
    if k == K_THROW:
        if s.take and s.pile == 0 and s.hand[seat] == bit:
            # F15 (F3, F7, F11): his last card, he goes out.  The seats before him in
            # the order he was asked in have passed; every other thrower of the order
            # after the card -- a seat that has just become the defender's neighbour
            # too, even one before him in R12 order -- is asked, in R12 order.
            no = throw_order(c, s, order)
            passed = 0
            for i in range(no):
                if order[i] == seat:
                    break
                passed |= 1 << order[i]
        s.hand[seat] &= ~bit
        s.att |= bit
        s.opn |= bit
        s.turn = seat if s.take else -1
        s.tfloor = m.card
        s.tfseat = seat
        if s.take and s.pile == 0 and s.hand[seat] == 0:
            no = throw_order(c, s, order)
            pos = 0
            for i in range(no):
                if not ((passed >> order[i]) & 1):
                    order[pos] = order[i]
                    pos += 1
            settle(c, s, order, pos)
            return
        settle(c, s, NULL, 0)
        return
    # K_PASS
    s.tfloor = -1
    no = throw_order(c, s, order)
    pos = no
    for i in range(no):
        if order[i] == seat:
            pos = i + 1
            break
    if pos > no:
        pos = no
    settle(c, s, &order[pos], no - pos)
