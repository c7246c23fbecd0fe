# Included by _core.pyx: the rules twin, part one -- seats (who is active, who
# defends, who throws in, which side a seat is on), the phase of a state, who
# is to move, and whether the game is over (R4, R12, R20-R22, F2).


cdef inline int active(Ctx* c, St* s, int seat) noexcept nogil:
    return s.pile > 0 or s.hand[seat] != 0


cdef inline int team(Ctx* c, int seat) noexcept nogil:
    if c.flags & F_TEAMS:
        return seat & 1
    return seat


cdef inline int next_active(Ctx* c, St* s, int seat) noexcept nogil:
    cdef int k, t
    for k in range(1, c.n):
        t = (seat + k) % c.n
        if active(c, s, t):
            return t
    return -1


cdef inline int prev_active(Ctx* c, St* s, int seat) noexcept nogil:
    cdef int k, t
    for k in range(1, c.n):
        t = (seat - k + c.n) % c.n
        if active(c, s, t):
            return t
    return -1


cdef inline int defender_for(Ctx* c, St* s, int attacker) noexcept nogil:
    """R4, R22: the next active seat after the attacker that is not his partner."""
    cdef int k, t
    for k in range(1, c.n):
        t = (attacker + k) % c.n
        if active(c, s, t) and team(c, t) != team(c, attacker):
            return t
    return -1


cdef inline int throw_order(Ctx* c, St* s, int* order) noexcept nogil:
    """R12: the throwers in the order they are asked (see GameState.throw_order)."""
    cdef int n = c.n, d = s.defender, k, t, cnt = 0
    cdef int left = -1, right = -1
    if n == 2:
        order[0] = s.attacker  # the only other seat, whatever the options
        return 1
    if c.flags & F_NEIGH:
        left = next_active(c, s, d)
        right = prev_active(c, s, d)
    for k in range(n):
        t = (s.attacker + k) % n
        if t == d:
            continue
        if (c.flags & F_TEAMS) and team(c, t) == team(c, d):
            continue
        if (c.flags & F_NEIGH) and k != 0 and t != left and t != right:
            continue
        order[cnt] = t
        cnt += 1
    return cnt


cdef inline int can_throw(Ctx* c, St* s, int seat) noexcept nogil:
    """F2: could ``seat`` add an attack card now (R9, R10)?"""
    if popcount64(s.att) >= s.limit:
        return 0
    return (s.hand[seat] & (rank_set(s.att | s.cov) * SPREAD)) != 0


cdef inline int phase(St* s) noexcept nogil:
    if s.over:
        return PH_OVER
    if s.att == 0:
        return PH_LEAD
    if s.take:
        return PH_TAKEN
    if s.opn:
        return PH_DEFEND
    return PH_THROW


cdef inline int to_move(St* s) noexcept nogil:
    cdef int ph = phase(s)
    if ph == PH_LEAD:
        return s.attacker
    if ph == PH_DEFEND:
        return s.defender
    if ph == PH_OVER:
        return -1
    return s.turn


# ------------------------------------------------------------------ outcome
cdef inline int outcome_known(Ctx* c, St* s, int* val) noexcept nogil:
    """R20-R22 between bouts: 1 and the hero's value in ``val`` if the game is over."""
    cdef int n = c.n, i, holders = 0, nh = 0, gone = 0, ng = 0, hero = c.hero
    cdef int t0, t1
    if s.att != 0 or s.pile > 0:
        return 0
    for i in range(n):
        if s.hand[i] != 0:
            holders |= 1 << i
            nh += 1
        else:
            gone |= 1 << i
            ng += 1
    if c.flags & F_FOW:
        if ng == 0:
            return 0
        if c.flags & F_TEAMS:
            t0 = (gone & 0x5) != 0
            t1 = (gone & 0xA) != 0
            if t0 and t1:
                val[0] = 0
            elif t0:
                val[0] = 1 if (hero & 1) == 0 else -1
            else:
                val[0] = 1 if (hero & 1) == 1 else -1
            return 1
        if ng == 1:
            val[0] = 1 if (gone >> hero) & 1 else -1
        else:
            val[0] = 0 if (gone >> hero) & 1 else -1
        return 1
    if c.flags & F_TEAMS:
        t0 = (holders & 0x5) != 0
        t1 = (holders & 0xA) != 0
        if not t0 and not t1:
            val[0] = 0
            return 1
        if t0 and t1:
            return 0
        # one team still holds cards: it has lost
        if t0:
            val[0] = -1 if (hero & 1) == 0 else 1
        else:
            val[0] = -1 if (hero & 1) == 1 else 1
        return 1
    if nh == 0:
        val[0] = 0
        return 1
    if nh == 1:
        val[0] = -1 if (holders >> hero) & 1 else 1
        return 1
    return 0


# ------------------------------------------------------------------ canonical key
cdef inline int side_of(Ctx* c, int seat) noexcept nogil:
    """1 if ``seat`` plays on the hero's side."""
    if c.flags & F_TEAMS:
        return (seat & 1) == (c.hero & 1)
    return seat == c.hero
