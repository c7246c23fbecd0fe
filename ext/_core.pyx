# cython: language_level=3
"""The compiled core of durak-solver: rules over bitmasks and the exact search.

Rules (R2, R8-R22, P1-P4, F1-F8) are a line-by-line port of
``solver/engine.py`` onto the C struct :c:type:`St`; the tests
(``tests/test_core_movegen.py``) hold the two to the same move lists, in the
same order, and the same next states.

Search: why two boolean searches
--------------------------------
The game has three outcomes for the hero (win / draw / loss, S1, S2) and
endless play counts as a draw (R23).  We never search for a three-valued
minimax score.  Instead ``dfs`` answers one boolean question, in the style of
the double-dummy solvers (DDS): *can the prover force a decisive result?*  The
prover is either the hero's side ("can the hero win?") or the other side
("can the others make the hero lose?").  The value is then

    win  if the hero can force a win,
    loss if the others can force the hero's loss,
    draw otherwise.

Reasons:

* A boolean AND/OR search cuts off on the first success at an OR node and the
  first failure at an AND node -- the tightest null window there is, without
  re-searches.
* R23 fits it exactly: a repetition is a *failure* for whichever side is the
  prover (a draw is not decisive).  A *success* is a finite proof tree that
  never contains a repetition, so it never depends on the path and can always
  be stored.  A failure may rest on a repetition of a state above the node;
  each call reports which lead states on the path a repetition below it
  referred to (``rep``, a mask of path indices) and a failure is stored in
  the table only when none of them is above the node (the standard cure for
  the graph-history interaction); otherwise in the side table described
  below.
* The same question with a ply budget ("decisive within d plies?") gives the
  distance: the table keeps for every (state, prover) a lower and an upper
  bound on the number of plies the prover needs (``lb``, ``ub``; ``lb = INF``
  means "never"), every search tightens them, and the root distance is found by
  bisection between them.  The unlimited search (``depth = UNLIM``) stores
  ``lb = INF`` on failure.
* A search with a ply budget checks no repetitions at all: a proof within d
  plies is a finite strategy whether or not a state recurs in it, so every
  answer is path-independent and stored.  ``plies_needed`` (a lower bound on
  the plies to the prover's result) fails a node at once when the budget is
  below it.  With 3+ players the Python side proves values by such searches
  at growing budgets before it falls back on the unlimited one
  (``CoreBackend._decide``).

With 3+ players the non-hero seats form one coalition (S2); under ``teams=2v2``
the hero's partner plays on the hero's side (R22).

Repetitions (R23) are checked only at the start of a bout (P1): inside a bout
the state strictly progresses (cards only join the table, the asked thrower
only moves on), so every cycle passes through a lead state.  They are checked
only when a cycle is possible at all: 3+ players or a transfer option (R23).
A failure that rests on repetitions is not stored in the main table; it goes
to a small side table (``CondEntry``) tagged with the visit of the deepest
path state it referred to, and is reused while that visit is still on the
stack (the path up to it is then unchanged, and more path states only add
failures for the prover).

Prunings (each argued where it is defined; ``tests/test_solver_switches.py``
holds the answers equal with them switched off):

* ``drop_equivalent``: a cover made with a card whose next lower live card of
  the suit is in the same hand, both ranks held nowhere else, is searched once.
* ``single_leads_suffice``: in the value search (no ply limit) a lead of
  several cards is skipped where leading one of them and throwing the others
  in does at least as well for the attacker (no transfers, opposite sides).
* ``iso_ranks``: between bouts the live ranks are renumbered canonically.
* ``quick_win``: no transfers, two players (or only the hero and one other
  of 3+ still holding cards), a lead state the attacker surely wins (the
  defender beats none of his cards, or he sheds one rank and the defender
  keeps a card) is decided without search.
* After a take, one thrower's run of extra cards is searched in increasing
  card order only (the order of the run changes nothing, R9, R10, R16).
* ``hero_side_out`` and ``odd_duel`` (3+ players): once the hero's side is
  out it cannot lose, so the others' proof fails; once the hero is out and
  two others hold an odd number of cards, neither a draw nor endless play
  is left, so the hero's proof succeeds.
* ``plies_needed``: under a ply budget, a node whose budget is below the
  plies the prover still needs fails at once (``tests/test_ply_bound.py``
  holds every budget's answer equal without it).

Only lead states (between bouts) have table entries: inside a bout states
hardly ever recur, so their keys and probes cost without paying (``dfs``).

Transposition table
-------------------
Buckets of ``TT_WAYS`` entries in one malloc'ed block (the number of buckets
is the largest power of two that fits in ``tt_mb`` MiB; what is left of
``tt_mb`` holds the side table of repetition-dependent failures).  An entry
is 48 bytes, a bucket of four 192 bytes (asserted at import):

    uint64 key[5]   the whole canonical state: words 0-3 one per suit slot, 13
                    nibbles each (location of the card of the k-th live rank:
                    0 nowhere, 1-6 hand of seat, 7 open attack, 8 covered
                    attack, 9 cover, 10-15 hand of seat and shown for a
                    transfer); word 4 roles, bout state, hero (3+ players),
                    rules, pile
    uint64 data     for *both* provers a lower and an upper bound on the plies
                    they need (10 bits each, see ``enc_lb``/``enc_ub``), the
                    generation that last wrote it (aging), log2 of the work,
                    and 1 + gen_moves index of the last cut-off move

Both provers share the entry, so the cross-prover cut-off reads the other
side's bounds from the same probe.  A bucket stores its four data words and
first key words together in its first cache line (``Bucket``): a probe for
a state that is not there reads that line only.

The key is exact -- the probe compares all five words -- so a hash collision
can never give a wrong proof.  Replacement: a hit on the same key merges the
bounds; otherwise the first empty way, else the way with the lowest
``work - 4 * age`` where ``age`` is how many generations ago it was written
(``Search.new_generation`` is called once per root question).

Canonical form (pile empty only): the trump suit goes to slot 3; the three
other suits are interchangeable and are sorted by their 52-bit signature;
ranks that no card in a hand or on the table holds are dropped, so only the
relative order of live ranks counts (table ranks stay: R9 needs them); between
bouts the live ranks are renumbered by ``iso_ranks``.  With
cards in a known pile nothing is canonicalized and the pile is identified by
an epoch number (one per distinct pile order) plus its length.
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int64_t
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset, memcpy

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_clzll(unsigned long long) nogil
    void __builtin_prefetch(const void*) nogil

cdef extern from *:
    """
    #include <time.h>
    static double dk_now(void) {
        struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    """
    double dk_now() nogil

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #ifdef __linux__
    #include <sys/mman.h>
    #endif
    /* The table in 2 MiB aligned memory, zeroed, with transparent huge pages
       asked for where the OS has them: its probes are random accesses and
       4 KiB pages make most of them TLB misses as well as cache misses. */
    static void* dk_table_alloc(size_t bytes) {
        void* p = NULL;
        if (posix_memalign(&p, (size_t)1 << 21, bytes) != 0) return NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        memset(p, 0, bytes);
        return p;
    }
    """
    void* dk_table_alloc(size_t bytes) nogil

cdef extern from "Python.h":
    int PyErr_CheckSignals()
    void PyErr_Clear()


cdef inline int popcount64(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)


def popcount(uint64_t mask) -> int:
    """Number of cards in a card set."""
    return popcount64(mask)


def beaters(int attack, uint64_t hand, int trump) -> int:
    """R2: the cards of ``hand`` that beat ``attack`` (same layout as solver.cards)."""
    return c_beaters(attack, hand, trump)


cdef uint64_t SUIT13 = 0x1FFF
cdef uint8_t CARD_SUIT[64]   # card // 13 and card % 13, looked up (make_key's inner loop)
cdef uint8_t CARD_RANK[64]
for _c in range(64):
    CARD_SUIT[_c] = _c // 13 if _c < 52 else 0
    CARD_RANK[_c] = _c % 13
cdef uint64_t SPREAD = (<uint64_t>1) | ((<uint64_t>1) << 13) | ((<uint64_t>1) << 26) | ((<uint64_t>1) << 39)


cdef inline uint64_t c_beaters(int attack, uint64_t hand, int trump) noexcept nogil:
    cdef int s = attack // 13
    cdef uint64_t suit = SUIT13 << (13 * s)
    cdef uint64_t higher = suit & ~(((<uint64_t>1) << (attack + 1)) - 1)
    cdef uint64_t m = hand & higher
    if s != trump:
        m |= hand & (SUIT13 << (13 * trump))
    return m


cdef inline uint64_t rank_set(uint64_t m) noexcept nogil:
    return (m | (m >> 13) | (m >> 26) | (m >> 39)) & SUIT13


# ------------------------------------------------------------------ seats
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


# ------------------------------------------------------------------ moves
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
    """Every legal move, in solver.engine.legal_moves order.

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
    """Apply a legal move in place (solver.engine.play)."""
    cdef int seat = to_move(s), k = m.kind, low, nd, no, i, pos, ph
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
        s.hand[seat] &= ~bit
        s.att |= bit
        s.opn |= bit
        s.turn = seat if s.take else -1
        s.tfloor = m.card
        s.tfseat = seat
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


# ------------------------------------------------------------------ canonical key
cdef inline int side_of(Ctx* c, int seat) noexcept nogil:
    """1 if ``seat`` plays on the hero's side."""
    if c.flags & F_TEAMS:
        return (seat & 1) == (c.hero & 1)
    return seat == c.hero


cdef inline int prover_slot(Ctx* c) noexcept nogil:
    """Which of an entry's two bound pairs the prover uses, as seats see it.

    Two players: the prover's seat; teams: the prover's team (so the answers
    are shared by both heroes); three or more: the hero's side (1) or the
    coalition (0), the hero being part of the key.  The other side's pair is
    always ``1 - slot``.
    """
    if c.n == 2:
        return c.hero if c.prover else 1 - c.hero
    if c.flags & F_TEAMS:
        return (c.hero & 1) if c.prover else 1 - (c.hero & 1)
    return c.prover


cdef inline int key_hero(Ctx* c) noexcept nogil:
    """The part of the question that is in the key: the hero with 3+ players
    (paranoid values differ per hero), nothing otherwise."""
    if c.n == 2 or (c.flags & F_TEAMS):
        return 0
    return c.hero


cdef inline void iso_ranks(Ctx* c, uint64_t live, int8_t* crank) noexcept nogil:
    """Canonical ranks of the live cards, the pile being empty.

    The rules never compare ranks of different suits: a card beats a higher
    one of its suit or any non-trump with a trump (R2), and ranks elsewhere
    only need to be *equal* (throw-ins R9, transfers R14, multi-card leads).
    So any renumbering of the live ranks that keeps the order inside every
    suit and keeps equal ranks equal maps a state onto an equivalent one
    (same value, same plies).  This picks one canonically: the live ranks
    form a partial order (inside each suit lower before higher; a rank held
    in several suits is one element) and are numbered 0, 1, ... along a
    topological order whose ties are broken by suit (trump last, singles
    before ranks held in several suits), never by the original rank values.
    States that differ only in how the suits' cards interleave in rank then
    share a key (dead ranks vanish as before; the suits are sorted after).
    """
    cdef uint64_t sm[4]
    cdef int pr[13]
    cdef int su, r, k, t, best, bestp, nlive
    cdef uint64_t x, front, nonfront, avail, multi, a, b, cc, dd
    cdef int order[4]
    for su in range(4):
        sm[su] = (live >> (13 * su)) & SUIT13
    a = sm[0]
    b = sm[1]
    cc = sm[2]
    dd = sm[3]
    multi = (a & b) | (a & cc) | (a & dd) | (b & cc) | (b & dd) | (cc & dd)
    t = 0
    for su in range(4):
        if su != c.trump:
            order[t] = su
            t += 1
    order[3] = c.trump
    for r in range(13):
        pr[r] = 256 if (multi >> r) & 1 else 0
    for k in range(4):
        x = sm[order[k]]
        while x:
            r = __builtin_ctzll(x)
            x &= x - 1
            pr[r] |= 1 << k
    nlive = popcount64(a | b | cc | dd)
    for k in range(nlive):
        front = 0
        nonfront = 0
        for su in range(4):
            if sm[su]:
                x = sm[su] & (~sm[su] + 1)
                front |= x
                nonfront |= sm[su] & ~x
        avail = front & ~nonfront
        best = __builtin_ctzll(avail)
        bestp = pr[best]
        x = avail & (avail - 1)
        while x:
            r = __builtin_ctzll(x)
            x &= x - 1
            if pr[r] < bestp:
                bestp = pr[r]
                best = r
        crank[best] = k
        x = ~((<uint64_t>1) << best)
        sm[0] &= x
        sm[1] &= x
        sm[2] &= x
        sm[3] &= x


cdef inline void place_cards(uint64_t* words, uint64_t cards, uint64_t code, int8_t* pos) noexcept nogil:
    """Put the location ``code`` into the nibble of every card of ``cards``:
    word = the card's suit, nibble = ``pos[rank]``."""
    cdef int card
    while cards:
        card = __builtin_ctzll(cards)
        cards &= cards - 1
        words[CARD_SUIT[card]] |= code << (4 * pos[CARD_RANK[card]])


cdef void make_key(Ctx* c, St* s, uint64_t* key) noexcept nogil:
    cdef uint64_t sig[4]
    cdef uint64_t live, x, lr, tmp, tag, shown
    cdef IsoEntry* ie
    cdef int8_t own[13]
    cdef int8_t* crank = own
    cdef int i, r, su, canon, j
    cdef int order[3]
    sig[0] = 0
    sig[1] = 0
    sig[2] = 0
    sig[3] = 0
    live = s.att | s.cov
    for i in range(c.n):
        live |= s.hand[i]
    canon = s.pile == 0
    if canon:
        if c.iso and s.att == 0:
            # between bouts only: the positions that recur along different
            # histories; inside a bout the cheaper key does (measured).  The
            # numbering depends on the live cards alone (and the trump), which
            # many states share (a take moves cards, it does not kill them):
            # a small cache keeps it.
            tag = live | ((<uint64_t>(c.trump + 1)) << 56)
            ie = &c.iso_cache[(tag * <uint64_t>0x9e3779b97f4a7c15) >> (64 - ISO_BITS)]
            if ie.live != tag:
                iso_ranks(c, live, ie.crank)
                ie.live = tag
            crank = ie.crank  # read in place: nothing below touches the cache
        else:
            # dead ranks dropped: the live ranks numbered in order
            lr = rank_set(live)
            j = 0
            for r in range(13):
                crank[r] = j
                if (lr >> r) & 1:
                    j += 1
    else:
        for r in range(13):
            crank[r] = r
    # location nibbles (0 nowhere, 1-6 hand of seat, 7 open attack, 8
    # covered attack, 9 cover, 10-15 hand of seat and shown for a transfer)
    shown = s.shown
    for i in range(c.n):
        place_cards(sig, s.hand[i] & ~shown, <uint64_t>(1 + i), crank)
        if shown:
            place_cards(sig, s.hand[i] & shown, <uint64_t>(10 + i), crank)
    if s.att:
        place_cards(sig, s.opn, 7, crank)
        place_cards(sig, s.att & ~s.opn, 8, crank)
        place_cards(sig, s.cov, 9, crank)
    if canon:
        # trump to slot 3, the other suits sorted by content
        j = 0
        for su in range(4):
            if su != c.trump:
                order[j] = su
                j += 1
        tmp = sig[c.trump]
        key[3] = tmp
        # sort three signatures descending
        if sig[order[0]] < sig[order[1]]:
            i = order[0]; order[0] = order[1]; order[1] = i
        if sig[order[1]] < sig[order[2]]:
            i = order[1]; order[1] = order[2]; order[2] = i
        if sig[order[0]] < sig[order[1]]:
            i = order[0]; order[0] = order[1]; order[1] = i
        key[0] = sig[order[0]]
        key[1] = sig[order[1]]
        key[2] = sig[order[2]]
    else:
        key[0] = sig[0]
        key[1] = sig[1]
        key[2] = sig[2]
        key[3] = sig[3]
    x = (<uint64_t>(s.attacker & 7)) | ((<uint64_t>(s.defender & 7)) << 3)
    x |= (<uint64_t>((s.turn + 1) & 15)) << 6
    x |= (<uint64_t>s.take) << 10
    x |= (<uint64_t>(s.limit & 7)) << 11
    x |= (<uint64_t>(s.cap & 7)) << 14
    x |= (<uint64_t>key_hero(c)) << 17
    x |= (<uint64_t>c.n) << 21
    x |= (<uint64_t>(c.flags & 63)) << 24
    x |= (<uint64_t>((c.flags >> 6) & 1)) << 63
    if not canon:
        x |= (<uint64_t>(s.fresh & 1)) << 62
        x |= (<uint64_t>c.trump) << 30
        x |= (<uint64_t>(s.pile & 63)) << 32
        x |= (<uint64_t>(s.trump_card & 63)) << 38
        x |= (<uint64_t>(c.epoch & 0xFFFF)) << 44
        x |= (<uint64_t>(0 if c.low_rank == 2 else (1 if c.low_rank == 6 else 2))) << 60
    key[4] = x


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    x ^= x >> 30
    x *= <uint64_t>0xbf58476d1ce4e5b9
    x ^= x >> 27
    x *= <uint64_t>0x94d049bb133111eb
    x ^= x >> 31
    return x


cdef inline uint64_t key_hash(uint64_t* k) noexcept nogil:
    # one multiply per word, the words weighted apart, then one full mix: the
    # index takes the low bits, which the final mix makes depend on every bit
    return mix64(k[0] * <uint64_t>0x9e3779b97f4a7c15 + k[1] * <uint64_t>0xc2b2ae3d27d4eb4f
                 + k[2] * <uint64_t>0x165667b19e3779f9 + k[3] * <uint64_t>0xd6e8feb86659fd93
                 + k[4] * <uint64_t>0xff51afd7ed558ccd)


cdef inline int key_eq(uint64_t* a, uint64_t* b) noexcept nogil:
    return a[0] == b[0] and a[1] == b[1] and a[2] == b[2] and a[3] == b[3] and a[4] == b[4]


# An entry's data word: bits 0-9 lb and 10-19 ub of slot 0, 20-39 the same for slot 1,
# 40-47 generation, 48-53 log2 of the work, 54-62 the cut-off move (1 +
# gen_moves index, 0 none).  A bound in 10 bits: 1023 INF; lb at most 1020
# (a larger one is stored as 1020: weaker, still true); ub 1021 stands for
# UNLIM - 1 ("a finite number of plies, not known": every larger bound is
# stored so), 1022 never stored.  Real distances stay below MAXPLY.  An empty
# way has data 0 (a stored entry always has an ub of at least 1 or INF).

cdef inline int enc_lb(int v) noexcept nogil:
    if v >= INF:
        return B10
    return v if v <= 1020 else 1020


cdef inline int enc_ub(int v) noexcept nogil:
    if v >= INF:
        return B10
    return v if v <= 1020 else 1021


cdef inline int ent_lb(uint64_t* e, int slot) noexcept nogil:
    cdef int x = (e[0] >> (20 * slot)) & B10
    return INF if x == B10 else x


cdef inline int ent_ub(uint64_t* e, int slot) noexcept nogil:
    cdef int x = (e[0] >> (20 * slot + 10)) & B10
    if x == B10:
        return INF
    return UNLIM - 1 if x >= 1021 else x


cdef inline int ent_move(uint64_t* e) noexcept nogil:
    return (e[0] >> 54) & 511


cdef inline int ent_gen(uint64_t* e) noexcept nogil:
    return (e[0] >> 40) & 255


cdef inline int ent_work(uint64_t* e) noexcept nogil:
    return (e[0] >> 48) & 63


cdef inline int way_holds(Bucket* b, int i, uint64_t* key) noexcept nogil:
    return (b.key0[i] == key[0] and b.data[i] != 0 and b.rest[i][0] == key[1]
            and b.rest[i][1] == key[2] and b.rest[i][2] == key[3] and b.rest[i][3] == key[4])


cdef inline uint64_t* tt_probe(Ctx* c, uint64_t* key, uint64_t h) noexcept nogil:
    """The data word of ``key``'s entry, or NULL."""
    cdef Bucket* b = &c.tt[h & c.tt_mask]
    cdef int i
    for i in range(TT_WAYS):
        if way_holds(b, i, key):
            return &b.data[i]
    return NULL


cdef inline void tt_store(Ctx* c, uint64_t* key, uint64_t h, int lb, int ub, int64_t work, int move) noexcept nogil:
    cdef Bucket* b = &c.tt[h & c.tt_mask]
    cdef int i, e = -1, best = 1 << 30, sc, w = 0
    while work > 1 and w < 63:
        work >>= 1
        w += 1
    cdef int slot = c.slot, sh = 20 * c.slot, olb, oub
    cdef uint64_t d
    for i in range(TT_WAYS):
        if b.data[i] == 0:
            if best > -(1 << 29):  # the first empty way beats every occupied one
                e = i
                best = -(1 << 29)
            continue
        if way_holds(b, i, key):
            olb = ent_lb(&b.data[i], slot)
            oub = ent_ub(&b.data[i], slot)
            if olb > lb:
                lb = olb
            if oub < ub:
                ub = oub
            d = b.data[i] & ~((<uint64_t>0xFFFFF) << sh) & ~((<uint64_t>0xFF) << 40)
            d |= ((<uint64_t>enc_lb(lb)) | ((<uint64_t>enc_ub(ub)) << 10)) << sh
            d |= (<uint64_t>c.gen) << 40
            if w > ent_work(&b.data[i]):
                d = (d & ~((<uint64_t>63) << 48)) | ((<uint64_t>w) << 48)
            if move:
                d = (d & ~((<uint64_t>511) << 54)) | ((<uint64_t>(move & 511)) << 54)
            b.data[i] = d
            return
        sc = ent_work(&b.data[i]) - 4 * (<uint8_t>(c.gen - ent_gen(&b.data[i])))
        if sc < best:
            best = sc
            e = i
    c.tt_stores += 1
    b.key0[e] = key[0]
    memcpy(b.rest[e], &key[1], 4 * sizeof(uint64_t))
    d = ((<uint64_t>enc_lb(lb)) | ((<uint64_t>enc_ub(ub)) << 10)) << sh
    d |= (<uint64_t>SLOT_EMPTY) << (20 * (1 - slot))
    d |= (<uint64_t>c.gen) << 40
    d |= (<uint64_t>w) << 48
    d |= (<uint64_t>(move & 511)) << 54
    b.data[e] = d


# ------------------------------------------------------------------ ordering
cdef inline int card_cost(Ctx* c, int card) noexcept nogil:
    return (card % 13) + (16 if card // 13 == c.trump else 0)


# ordering weights per move kind (lead, cover, take, transfer, show, throw, pass, swap)
cdef int KIND_BASE[8]
cdef int KIND_COST[8]
cdef int KIND_SAME[8]
cdef int KIND_MULTI[8]
KIND_BASE[:] = [0, 0, 70, 80, -20, 0, 30, 0]
KIND_COST[:] = [2, 2, 0, 1, 0, 2, 0, 0]
KIND_SAME[:] = [10, 5, 0, 0, 0, 0, 0, 0]
KIND_MULTI[:] = [3, 0, 0, 0, 0, 0, 0, 0]


cdef void score_moves(Ctx* c, St* s, Mv* ms, int n, int mine) noexcept nogil:
    """Static ordering (cheap cards first, keep trumps, take last) nudged by
    the history of cut-offs: each move's ``score``, lowest first.  The search
    takes them in that order, stably (``sort_moves`` or ``next_move``).

    Measured on 30 random 8 v 8 endgames (value search, 5 s cap): taking
    only after every cover, trumps included, cut the nodes' geometric mean
    from 341k to 151k and solved all 30 (28 before); a history bonus of at
    most 20 instead of 80 cut it again to 78k (none at all: the same, so it
    is a tie-breaker).  6 v 12: 16 of 16 solved, median 26 ms, against 12 of
    16 and 0.34 s.  Passing (30) before throwing in a trump, as before.
    Then leading single cards before ranks held twice, and covering with
    ranks the attacker cannot throw in: 78k -> 60k on 8 v 8, and on 30
    6 v 12 endgames 111k -> 57k with 30 of 30 solved (29 before).  A
    transfer (R14) is tried last, after the take: 20 random 8 v 8 endgames
    with transfers, 20 of 20 solved instead of 17, 466k -> 87k.
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


# ------------------------------------------------------------------ search
cdef inline int decisive(Ctx* c, St* s) noexcept nogil:
    cdef int v = 0
    outcome_known(c, s, &v)
    if c.prover:
        return v > 0
    return v < 0


cdef int check_budget(Ctx* c) noexcept nogil:
    if c.max_nodes > 0 and c.nodes >= c.max_nodes:
        c.abort = 1
        return 1
    if c.deadline > 0 and dk_now() > c.deadline:
        c.abort = 1
        return 1
    if (c.nodes & 0x3FFFF) == 0:
        with gil:
            if PyErr_CheckSignals() != 0:
                PyErr_Clear()
                c.abort = 2
                return 1
    return 0


cdef inline void tt_prefetch(Ctx* c, uint64_t h) noexcept nogil:
    cdef const char* b = <const char*>&c.tt[h & c.tt_mask]
    __builtin_prefetch(b)        # the data and first key words
    __builtin_prefetch(b + 64)   # the rest of the keys, for a hit
    __builtin_prefetch(b + 128)


cdef inline int equivalent_lower(Ctx* c, St* s, uint64_t live, uint64_t hand, int x) noexcept nogil:
    """Whether card ``x`` of ``hand`` has an interchangeable lower neighbour.

    With the pile empty, let ``y`` be the next lower live card of ``x``'s suit
    (live: in a hand or on the table).  If ``y`` is in the same hand and no
    other live card shares the rank of ``x`` or of ``y``, the two cards differ
    towards every *other* live card in nothing the rules can see: nothing
    lies between them, so a card beats one exactly when it beats the other
    (R2), and their ranks appear nowhere else (R9, R14).  They differ only
    towards each other -- which matters once they sit in different hands (a
    take can do that to an attack card), so this is used for covers only
    (``drop_equivalent``).
    """
    cdef int su = x // 13, r = x % 13
    cdef uint64_t below = live & (SUIT13 << (13 * su)) & (((<uint64_t>1) << x) - 1)
    cdef int y
    if below == 0:
        return 0
    y = 63 - __builtin_clzll(below)
    if not (hand >> y) & 1:
        return 0
    return (popcount64(live & (SPREAD << r)) == 1
            and popcount64(live & (SPREAD << (y % 13))) == 1)


cdef int drop_equivalent(Ctx* c, St* s, Mv* ms, int nm) noexcept nogil:
    """Remove the covers made with a card that has an interchangeable lower
    neighbour in the defender's hand (``equivalent_lower``); returns the new
    count.

    A cover card never reaches another hand: the bout ends with it discarded
    (R15) or picked up again by the same defender (R16); a transfer is over
    once a card is covered (R14).  On the table it is compared with nothing
    but the attack it covers.  So covering with ``x`` or with its neighbour
    ``y`` gives states that map onto each other by exchanging the two ranks
    (after a discard the survivor of the two has the same relations to every
    live card either way): the same value and plies, and only the lower card
    needs searching (the double-dummy solvers' "equivalent cards").  Leads,
    throw-ins and transfers are not pruned: the defender may take those
    cards, and then ``x`` and ``y`` face each other from different hands.
    """
    cdef uint64_t live = s.att | s.cov, hand
    cdef int i, j = 0, k
    for i in range(c.n):
        live |= s.hand[i]
    hand = s.hand[to_move(s)]
    for i in range(nm):
        k = ms[i].kind
        if k == K_COVER and equivalent_lower(c, s, live, hand, ms[i].card):
            continue
        ms[j] = ms[i]
        j += 1
    return j


cdef inline int single_leads_suffice(Ctx* c, St* s) noexcept nogil:
    """Whether a lead of several cards is dominated by leading one of them.

    Lead one card ``a`` of the pair/triple and throw the next one after each
    answer of the defender (P3: the attacker is asked first, R9 allows the
    rank, R10's limit is the same): whatever the defender does -- cover, or
    take, at any point -- the play reaches a state the defender could have
    chosen against the whole lead, and the attacker keeps the option of doing
    something else.  So a multi-card lead never does better for the attacker
    than the single card, and the value search may skip it.  Not with
    transfers (a single card can be transferred where several cannot, R14),
    not with ``trump_swap`` while the pile has cards, and with 3+ players only
    when the defender plays against the attacker's side (otherwise the
    multi-card lead gives *their* side more choices).  Only the value
    (``depth == UNLIM``) may use it: the single card takes one more ply.
    """
    if c.flags & (F_TRANSFER | F_SHOW):
        return 0
    if (c.flags & F_SWAP) and s.pile > 0:
        return 0
    if c.n == 2:
        return 1
    return side_of(c, s.attacker) != side_of(c, s.defender)


cdef inline int quick_win(Ctx* c, St* s) noexcept nogil:
    """Whether the attacker to lead can force a win: make the defender the
    durak (two players, or only these two of 3+ still holding cards, the
    hero one of them; pile empty, no transfers).

    (a) The defender beats none of the attacker's cards (R2).  Then the
    attacker leads one card per bout -- non-trumps by ascending rank, then
    trumps by ascending rank -- the defender can only take (R16), and the
    attacker leads again (R18).  The defender's hand only grows by cards
    already led, each no higher in its suit than the attacker's remaining
    ones and no trump while a non-trump remains, so it never beats a card
    still to come.  The attacker runs out while the defender holds cards
    (R20).
    (b) The attacker's cards are all of one rank and no more than the lead
    limit (R10) while the defender holds more: the attacker leads them all
    and is out after the bout; the defender still holds a card whatever he
    does (R20).
    """
    cdef uint64_t a = s.hand[s.attacker], d = s.hand[s.defender], am, dm
    cdef uint64_t tmask = SUIT13 << (13 * c.trump)
    cdef int su, k = popcount64(a), lim, i
    if c.flags & (F_TRANSFER | F_SHOW):
        return 0
    if c.n != 2:
        # 3+ seats of which only these two still hold cards, the hero one
        # of them: the same two-player game (R18: after a take the attacker
        # leads again) between opposite sides.  (With the hero out both are
        # the others': the attacker could make the defender the durak, but
        # need not.)  Not for teams or first_out_wins.
        if (c.flags & (F_TEAMS | F_FOW)) or (s.attacker != c.hero and s.defender != c.hero):
            return 0
        for i in range(c.n):
            if s.hand[i] != 0 and i != s.attacker and i != s.defender:
                return 0
    if a == 0 or d == 0:
        return 0
    if rank_set(a) & (rank_set(a) - 1) == 0:
        lim = lead_limit(c, s)
        if k <= lim and popcount64(d) > k:
            return 1
    if (d & tmask) and (a & ~tmask):
        return 0
    for su in range(4):
        am = (a >> (13 * su)) & SUIT13
        dm = (d >> (13 * su)) & SUIT13
        if am and dm and (63 - __builtin_clzll(dm)) > __builtin_ctzll(am):
            return 0
    return 1


cdef inline void merge_refs(uint64_t* acc, uint64_t* got, int bound) noexcept nogil:
    """Add a failed child's repetition references to the node's (GHI, R23).

    ``acc``/``got``: [mask, bad]: bit i of the mask names path[i], a lead
    state on the path that a repetition below referred to; ``bad`` is the
    lowest index referred to that the mask cannot name (BIGPLY: none; -1 for
    a search cut by the ply limit).  ``bound`` is the node's own path length
    at entry: references at or beyond it are inside the node's subtree and do
    not make the node's failure path-dependent.
    """
    if bound < REFBITS:
        acc[0] |= got[0] & ((<uint64_t>1 << bound) - 1)
    else:
        acc[0] |= got[0]
    if <int64_t>got[1] < bound and <int64_t>got[1] < <int64_t>acc[1]:
        acc[1] = got[1]


cdef inline CondEntry* cond_slot(Ctx* c, uint64_t h) noexcept nogil:
    return &c.cond[(h >> 20) & c.cond_mask]


cdef inline int hero_side_out(Ctx* c, St* s) noexcept nogil:
    """Whether every player of the hero's side is out for good (pile empty).

    Then the hero's side cannot lose any more (R20, R22: the durak, or the
    losing team, still holds cards), so the others' proof fails at once,
    whatever the history and the ply limit.  Out is for good: only a take
    brings cards into an empty hand, and a defender who covers with his last
    card has covered as many cards as he held when the bout began, the R10
    limit, so nobody throws him more; an attacker who is out is skipped (F7).
    Not with ``first_out_wins`` (the first out decides, R21).
    """
    cdef int i
    if s.pile > 0 or (c.flags & F_FOW):
        return 0
    for i in range(c.n):
        if side_of(c, i) and s.hand[i] != 0:
            return 0
    return 1


cdef inline int odd_duel(Ctx* c, St* s) noexcept nogil:
    """Between bouts, the hero out and two others left holding an odd number
    of cards between them (pile empty, no transfers, no teams, no
    ``first_out_wins``): the hero has surely escaped.

    The two play a two-player game (R18: after a take the same attacker leads
    again), which always ends (R23).  A bout that is beaten off discards as
    many cards of the defender's as of the attacker's; a take moves cards
    between them: the parity of their total never changes.  Both going out
    in the same bout (a draw, R20) needs a beaten-off last bout in which each
    sheds what he holds, the same number: an even total.  So one of them is
    the durak and the hero wins.
    """
    cdef int i, k = 0
    cdef uint64_t total = 0
    if (s.pile > 0 or s.att != 0 or s.hand[c.hero] != 0
            or (c.flags & (F_TRANSFER | F_SHOW | F_FOW | F_TEAMS))):
        return 0
    for i in range(c.n):
        if s.hand[i] != 0:
            k += 1
            total += popcount64(s.hand[i])
    return k == 2 and (total & 1) == 1


cdef int plies_needed(Ctx* c, St* s) noexcept nogil:
    """A lower bound on the plies before the prover's decisive result.

    Every move sheds cards of at most one rank from the mover's own hand (a
    lead is one rank, R8; a throw, cover or transfer one card) and a take
    only adds cards, so a player needs at least as many more moves as his
    hand has ranks before he is out; different players' moves are different
    plies.  Who has to be out for the prover's result (R20-R22, pile empty):
    without ``first_out_wins`` the prover's whole side, and with the hero's
    side and no teams also all but one of the others (one durak); with
    ``first_out_wins`` at least one player of the prover's side.  Used only
    with a ply limit: a node whose limit is below the bound fails at once,
    which takes the bulk of the work off the last plies of a bounded search.
    """
    cdef int i, r, total = 0, low = 99, no = 0, j, t
    cdef int others[MAXP]
    if s.pile > 0:
        return 0
    for i in range(c.n):
        r = popcount64(rank_set(s.hand[i]))
        if side_of(c, i) == c.prover:
            if c.flags & F_FOW:
                if r < low:
                    low = r
            else:
                total += r
        elif c.prover and not (c.flags & (F_FOW | F_TEAMS)):
            others[no] = r
            no += 1
    if side_of(c, to_move(s)) != c.prover and not no:
        # the next ply is the other side's and sheds nothing the prover's
        # result needs (the game is not over, so somebody moves)
        total += 1
        if low != 99:
            low += 1
    if c.flags & F_FOW:
        return low if low != 99 else 0
    if no > 1:
        # the hero's side: all but one of the others must be out too
        for i in range(1, no):   # insertion sort, at most 5
            t = others[i]
            j = i - 1
            while j >= 0 and others[j] > t:
                others[j + 1] = others[j]
                j -= 1
            others[j + 1] = t
        for i in range(no - 1):
            total += others[i]
    return total


cdef int dfs(Ctx* c, St* s, int depth, int ply, int* dist, uint64_t* rep, uint64_t* pkey) noexcept nogil:
    """Can the prover force a decisive result within ``depth`` plies?

    1 yes (``dist`` an upper bound on the plies), 0 no, -1 budget.  ``rep``
    (two words) names the lead states on the path that a repetition met below
    referred to (see ``merge_refs``; [0, BIGPLY]: none).  ``pkey``: NULL, or the state's key (5 words) and hash
    already computed by the parent (the enhanced transposition cut-off
    computes every child's).
    """
    cdef uint64_t key[5]
    cdef uint64_t h
    cdef uint64_t* e
    cdef int ph, i, nm, r, d, mine, result, best, cdepth, pushed = 0, bm = 0, cut = 0, j
    cdef uint64_t rp[2]
    cdef uint64_t refs[2]
    cdef int top, pruned = 0, etc, usett, reps
    cdef int bound = c.pathlen
    cdef CondEntry* ce
    cdef uint64_t* ks
    cdef int64_t nodes0
    cdef Mv* ms
    cdef St child
    cdef St* cs
    rep[0] = 0
    rep[1] = BIGPLY
    dist[0] = 0
    c.nodes += 1
    if (c.nodes & 0x3FF) == 0 and check_budget(c):
        return -1
    if c.abort:
        return -1
    if s.over:
        return decisive(c, s)
    if depth == 0:
        return 0
    if depth != UNLIM and c.ply_bound and plies_needed(c, s) > depth:
        return 0  # path-independent: not within the limit from here
    if not c.prover and c.n > 2 and c.quick and hero_side_out(c, s):
        return 0  # path-independent: the hero's side can no longer lose
    if ply >= MAXPLY - 1 or c.msp + MAXMOVES > MSTACK:
        rep[0] = 0
        rep[1] = <uint64_t>(-1)  # too deep: a failure that must not be stored
        return 0
    ph = phase(s)
    # Table entries between bouts only (lead states): inside a bout the
    # states hardly ever recur -- measured on 8 v 8, 99% of the in-bout
    # nodes were searched although their entries were there to be found --
    # so their keys, probes and stores cost without paying.
    usett = ph == PH_LEAD or not c.lead_table
    if pkey != NULL:
        memcpy(key, pkey, 5 * sizeof(uint64_t))
        h = pkey[5]
    elif usett:
        make_key(c, s, key)
        h = key_hash(key)
    reps = c.rep_on and depth == UNLIM
    if ph == PH_LEAD and reps:
        for i in range(c.pathlen):
            if c.path[i].key[4] == key[4] and key_eq(c.path[i].key, key):
                if i < REFBITS:
                    rep[0] = (<uint64_t>1) << i
                else:
                    rep[1] = i
                return 0
    if depth == UNLIM and c.prover and c.n > 2 and c.quick and odd_duel(c, s):
        dist[0] = UNLIM - 1  # a success, its plies not known
        return 1
    if ph == PH_LEAD and c.quick and s.pile == 0 and quick_win(c, s):
        if side_of(c, s.attacker) != c.prover:
            return 0  # path-independent: the attacker wins whatever the history
        if depth == UNLIM:
            dist[0] = UNLIM - 1  # a success, its plies not known
            return 1
    e = tt_probe(c, key, h) if usett else NULL
    if e != NULL:
        d = ent_ub(e, c.slot)
        if d <= depth:
            dist[0] = d
            return 1
        if ent_lb(e, c.slot) > depth or ent_ub(e, 1 - c.slot) < UNLIM:
            return 0  # (the second test: the cross-prover argument below)
        bm = ent_move(e)
    if reps and usett:
        ce = cond_slot(c, h)
        if ce.tag != 0 and ((ce.tag >> 16) & 1) == <uint64_t>c.slot and <int>(ce.tag & 0xFFFF) >= depth:
            top = 63 - __builtin_clzll(ce.refs)  # a stored mask is never 0
            if (top < c.pathlen and c.path[top].visit == (ce.tag >> 17)
                    and key_eq(ce.key, key)):
                # the same repetitions are still on the path: the failure stands
                rep[0] = ce.refs
                return 0
    if ph == PH_LEAD and reps:
        memcpy(c.path[c.pathlen].key, key, 5 * sizeof(uint64_t))
        c.visits += 1
        c.path[c.pathlen].visit = c.visits
        c.pathlen += 1
        pushed = 1
    nodes0 = c.nodes
    ms = &c.mstack[c.msp]
    ks = &c.kstack[6 * c.msp]
    cs = &c.cstack[c.msp]
    mine = side_of(c, to_move(s)) == c.prover
    if ph == PH_LEAD and depth == UNLIM and single_leads_suffice(c, s):
        nm = gen_moves(c, s, ms, 1)
        if (not mine and lead_limit(c, s) >= 2
                and popcount64(s.hand[s.attacker]) > popcount64(rank_set(s.hand[s.attacker]))):
            # the other side's best may have been among the skipped leads of
            # several cards: the plies of a success here are no longer exact
            pruned = 1
    else:
        nm = gen_moves(c, s, ms, 0)
    if ph == PH_DEFEND and s.pile == 0 and not (c.flags & F_SHOW) and c.equiv:
        nm = drop_equivalent(c, s, ms, nm)
    if ph == PH_TAKEN and not usett and s.tfloor >= 0 and s.tfseat == s.turn:
        # R16/P4: the cards one thrower adds to a taker's pile in one run
        # give the same state in any order (nobody answers them, the ranks
        # allowed stay those of the table, R9, and only their number counts
        # towards R10): the run is searched in increasing card order only.
        # (Not with table entries inside a bout: the floor is not in the key.)
        j = 0
        for i in range(nm):
            if ms[i].kind != K_THROW or ms[i].card > s.tfloor:
                ms[j] = ms[i]
                j += 1
        nm = j
    # enhanced transposition cut-off: a child already decided in the table
    # (path-independent facts only) decides this node without a search
    # Two players: only while more than ETC_MIN_CARDS cards are in the
    # hands.  Below that the subtrees are small and the children's keys and
    # (mostly missing, uncached) probes cost more than searching them:
    # measured with three alternating runs each, the same or less time on
    # 8v8, 9v9, 8v8t, 6v12 and 10v10, with 40-60% more nodes at 5.4-6.8 M
    # nodes/s instead of 3-4 M.  With 3+ players the cut-offs keep paying
    # to the end (3p4: a median of 0.27 M nodes against 0.65 M without them
    # at 10 cards or fewer).
    etc = (nm > 1 and c.etc_on and not (c.lead_table and ph == PH_LEAD)
           and (c.n > 2 or popcount64(s.hand[0] | s.hand[1]) > ETC_MIN_CARDS))
    if etc:
        # first every child's key and a prefetch of its bucket, then the
        # ordering (time for the prefetches to arrive), then the probes
        for i in range(nm):
            ms[i].ki = i
            if c.lead_table and (ms[i].kind == K_LEAD or ms[i].kind == K_TRANSFER
                             or ms[i].kind == K_SHOW
                             or (ms[i].kind == K_THROW and not s.take)
                             or (ms[i].kind == K_COVER and (s.opn & (s.opn - 1)))):
                # the defender has to answer: the bout goes on, nothing to probe
                ks[6 * i + 4] = 1
                continue
            # the child is kept (cs[i]): the search below need not play it again
            cs[i] = s[0]
            play(c, &cs[i], &ms[i])
            if cs[i].over:
                # markers 0-3 in word 4 (a real key's word 4 holds n << 21)
                ks[6 * i + 4] = 0  # over: no key
            elif c.lead_table and cs[i].att != 0:
                ks[6 * i + 4] = 3  # not probed
            elif c.quick and cs[i].pile == 0 and quick_win(c, &cs[i]):
                ks[6 * i + 4] = 2  # the attacker to lead surely wins
                ks[6 * i + 5] = side_of(c, cs[i].attacker) == c.prover
            else:
                make_key(c, &cs[i], &ks[6 * i])
                ks[6 * i + 5] = key_hash(&ks[6 * i])
                tt_prefetch(c, ks[6 * i + 5])
    score_moves(c, s, ms, nm, mine)
    if bm:
        # the table's cut-off move first (ordering only: any order is sound;
        # under canonical relabelling the index may name another move)
        for i in range(nm):
            if ms[i].idx == bm - 1:
                ms[i].score = -128  # below every score (score_moves: -40 to 110)
                break
    if etc:
        sort_moves(ms, nm)
    c.msp += nm
    cdepth = depth if depth == UNLIM else depth - 1
    if etc:
        for i in range(nm):
            if ks[6 * ms[i].ki + 4] == 1 or ks[6 * ms[i].ki + 4] == 3:
                continue
            if ks[6 * ms[i].ki + 4] == 2:
                # slot 5: whether the attacker is on the prover's side
                r = 0
                d = 0
                if ks[6 * ms[i].ki + 5]:
                    if cdepth != UNLIM:
                        continue  # a success, but its plies are not known
                    r = 1
                    d = UNLIM - 2
            elif ks[6 * ms[i].ki + 4] == 0:
                r = decisive(c, &cs[ms[i].ki])
                d = 0
            else:
                e = tt_probe(c, &ks[6 * ms[i].ki], ks[6 * ms[i].ki + 5])
                r = -1
                if e != NULL:
                    d = ent_ub(e, c.slot)
                    if d <= cdepth:
                        r = 1
                    elif ent_lb(e, c.slot) > cdepth:
                        r = 0
                        d = 0
                    elif ent_ub(e, 1 - c.slot) < UNLIM:
                        # Cross-prover cut-off.  A stored success of the
                        # *other* side (ub < UNLIM) is a finite proof tree
                        # without repetitions: from this state that side
                        # forces its decisive result whatever the history, so
                        # our prover cannot force the opposite decisive result
                        # there (at any depth, path-independently, R23 draws
                        # included).  Hence the child fails for our prover: at
                        # a node where the other side moves that failure
                        # refutes the node, at the prover's own node the child
                        # is not searched.  Both sides' bounds share an entry,
                        # so this costs no second probe.
                        r = 0
                        d = 0
                if r < 0:
                    continue
            if mine and r == 0:
                # a path-independent failure: never worth searching here
                ms[i].fails = 1
            if mine and r == 1:
                c.msp -= nm
                if pushed:
                    c.pathlen -= 1
                if d >= UNLIM - 1:
                    d = UNLIM - 2  # plies unknown stays unknown
                if usett:
                    tt_store(c, key, h, 0, d + 1, 1, ms[i].idx + 1)
                dist[0] = d + 1
                return 1
            if not mine and r == 0 and ks[6 * ms[i].ki + 4] != 0:
                c.msp -= nm
                if pushed:
                    c.pathlen -= 1
                if usett:
                    tt_store(c, key, h, INF if depth == UNLIM else depth + 1, INF, 1, ms[i].idx + 1)
                return 0
    result = 0 if mine else 1
    best = INF if mine else 0
    refs[0] = 0
    refs[1] = BIGPLY
    cdepth = depth if depth == UNLIM else depth - 1
    for i in range(nm):
        if not etc:
            next_move(ms, i, nm)
        elif ms[i].fails:
            continue
        if etc and ks[6 * ms[i].ki + 4] != 1:
            child = cs[ms[i].ki]  # played by the enhanced transposition cut-off
        else:
            child = s[0]
            play(c, &child, &ms[i])
        r = dfs(c, &child, cdepth, ply + 1, &d, rp,
                &ks[6 * ms[i].ki] if etc and ks[6 * ms[i].ki + 4] > 3 else NULL)
        if r < 0:
            c.msp -= nm
            if pushed:
                c.pathlen -= 1
            return -1
        if mine:
            if r == 1:
                result = 1
                best = d + 1
                cut = ms[i].idx + 1
                if i > 0:
                    count_cutoff(c, 1, ms[i].kind, ms[i].card & 63)
                break
            merge_refs(refs, rp, bound)
        else:
            if r == 0:
                result = 0
                merge_refs(refs, rp, bound)
                cut = ms[i].idx + 1
                if i > 0:
                    count_cutoff(c, 0, ms[i].kind, ms[i].card & 63)
                break
            if d + 1 > best:
                best = d + 1
    if pruned and result:
        best = UNLIM - 1  # a success, its plies unknown (see single_leads_suffice)
    c.msp -= nm
    if pushed:
        c.pathlen -= 1
    if result:
        if best > UNLIM - 1:
            best = UNLIM - 1
        if usett:
            tt_store(c, key, h, 0, best, c.nodes - nodes0, cut)
        dist[0] = best
        return 1
    if refs[0] == 0 and <int64_t>refs[1] >= bound:
        # no repetition below refers above this node: path-independent
        if usett:
            tt_store(c, key, h, INF if depth == UNLIM else depth + 1, INF, c.nodes - nodes0, cut)
    else:
        if <int64_t>refs[1] >= bound and usett:
            top = 63 - __builtin_clzll(refs[0])
            ce = cond_slot(c, h)
            memcpy(ce.key, key, 5 * sizeof(uint64_t))
            ce.tag = (c.path[top].visit << 17) | ((<uint64_t>c.slot) << 16) | <uint64_t>depth
            ce.refs = refs[0]
        rep[0] = refs[0]
        rep[1] = refs[1]
    return 0


# ------------------------------------------------------------------ Python face
cdef class CState:
    """A game state of the core (for tests, the backend and move generation)."""

    def moves(self):
        """Legal moves as (kind, cards mask, card, target), engine order."""
        cdef Mv ms[MAXMOVES]
        cdef int n = gen_moves(self.c, &self.s, ms, 0), i
        return [(ms[i].kind, ms[i].cards, ms[i].card, ms[i].target) for i in range(n)]

    def play(self, int index):
        """The state after the ``index``-th legal move."""
        cdef Mv ms[MAXMOVES]
        cdef int n = gen_moves(self.c, &self.s, ms, 0)
        if not 0 <= index < n:
            raise IndexError("move index out of range")
        cdef CState out = CState.__new__(CState)
        out.s = self.s
        out.c = self.c
        out.owner = self.owner
        play(self.c, &out.s, &ms[index])
        return out

    def fields(self):
        """A tuple of everything the state holds (for comparisons in tests)."""
        return dict(
            hands=tuple(self.s.hand[i] for i in range(self.c.n)),
            att=self.s.att, opn=self.s.opn, cov=self.s.cov, shown=self.s.shown,
            attacker=self.s.attacker, defender=self.s.defender, turn=self.s.turn,
            take=self.s.take, limit=self.s.limit, cap=self.s.cap, over=self.s.over,
            pile=self.s.pile, trump_card=self.s.trump_card, fresh=self.s.fresh,
        )

    def to_move(self):
        return to_move(&self.s)

    def key(self, int hero=0, int prover=1):
        cdef uint64_t k[5]
        cdef int oh = self.c.hero, op = self.c.prover
        self.c.hero = hero
        self.c.prover = prover
        make_key(self.c, &self.s, k)
        self.c.hero = oh
        self.c.prover = op
        return (k[0], k[1], k[2], k[3], k[4])

    cdef bint _test(self, int hero, Test test):
        """A decision rule of the core for this state, asked for ``hero``."""
        cdef int oh = self.c.hero, r
        self.c.hero = hero
        r = test(self.c, &self.s)
        self.c.hero = oh
        return r != 0

    def attacker_surely_wins(self, int hero=0):
        """The core's quick-win test (``quick_win``) for this lead state
        (``hero`` matters with 3+ players)."""
        if self.s.over or self.s.att != 0 or self.s.pile != 0:
            return False
        return self._test(hero, quick_win)

    def hero_surely_escapes(self, int hero):
        """The core's ``odd_duel`` test: ``hero`` out, two others left with
        an odd number of cards, between bouts."""
        return not self.s.over and self._test(hero, odd_duel)

    def hero_side_is_out(self, int hero):
        """The core's ``hero_side_out`` test for ``hero``'s side."""
        return not self.s.over and self._test(hero, hero_side_out)

    def hero_outcome(self, int hero):
        cdef int v = 0, oh = self.c.hero
        self.c.hero = hero
        r = outcome_known(self.c, &self.s, &v)
        self.c.hero = oh
        return v if r else None


assert sizeof(Bucket) == 48 * TT_WAYS, "TT bucket layout changed"
assert sizeof(CondEntry) == 56, "conditional entry layout changed"


cdef class Search:
    """The search context: rules of one game, transposition table, budgets.

    ``Search(tt_mb)`` allocates the table once; ``setup(...)`` loads the game
    (rules, trump, pile order) and returns the root :class:`CState`;
    ``prove(state, hero, prover, depth)`` answers one boolean question.
    """

    def __cinit__(self, int tt_mb=64):
        cdef uint64_t nb = 1
        cdef uint64_t bytes_ = (<uint64_t>tt_mb) << 20
        while nb * 2 * sizeof(Bucket) <= bytes_:
            nb *= 2
        self.c = <Ctx*>calloc(1, sizeof(Ctx))
        if self.c == NULL:
            raise MemoryError()
        self.c.tt = <Bucket*>dk_table_alloc(nb * sizeof(Bucket))
        # the path-dependent failures get what the power-of-two main table
        # leaves of tt_mb (at least a quarter of it)
        cdef uint64_t nc = 1
        while (nc * 2 * sizeof(CondEntry)) <= bytes_ - nb * sizeof(Bucket):
            nc *= 2
        self.c.cond = <CondEntry*>dk_table_alloc(nc * sizeof(CondEntry))
        self.c.cond_mask = nc - 1
        self.cond_entries = nc
        self.c.mstack = <Mv*>malloc(MSTACK * sizeof(Mv))
        self.c.kstack = <uint64_t*>malloc(MSTACK * 6 * sizeof(uint64_t))
        self.c.cstack = <St*>malloc(MSTACK * sizeof(St))
        if (self.c.tt == NULL or self.c.cond == NULL or self.c.mstack == NULL
                or self.c.kstack == NULL or self.c.cstack == NULL):
            raise MemoryError("transposition table")
        self.c.tt_mask = nb - 1
        self.c.equiv = 1
        self.c.iso = 1
        self.c.lead_table = 1
        self.c.etc_on = 1
        self.c.quick = 1
        self.c.ply_bound = 1
        self.buckets = nb
        self.epochs = {}

    def __dealloc__(self):
        if self.c != NULL:
            free(self.c.tt)
            free(self.c.cond)
            free(self.c.mstack)
            free(self.c.kstack)
            free(self.c.cstack)
            free(self.c)
            self.c = NULL

    @property
    def tt_bytes(self):
        return self.buckets * sizeof(Bucket)

    @property
    def nodes(self):
        return self.c.nodes

    @property
    def game(self):
        """(players, rule flags) of the game last loaded by ``setup``."""
        return self.c.n, self.c.flags

    def tt_used(self):
        """Number of occupied entries (a scan; for benchmarks)."""
        cdef uint64_t i, n = 0
        cdef int w
        for i in range(self.buckets):
            for w in range(TT_WAYS):
                if self.c.tt[i].data[w] != 0:
                    n += 1
        return n

    def clear(self):
        memset(self.c.tt, 0, self.buckets * sizeof(Bucket))
        memset(self.c.cond, 0, self.cond_entries * sizeof(CondEntry))

    def setup(self, int n, int trump, int flags, int low_rank, tuple hands, uint64_t att,
              uint64_t opn, uint64_t cov, uint64_t shown, int attacker, int defender, int turn,
              int take, int limit, int cap, tuple pile_order, int trump_card, int fresh=1):
        """Load a game; returns the root state.  ``pile_order`` top first."""
        cdef Ctx* c = self.c
        cdef int i
        if not 2 <= n <= MAXP:
            raise ValueError("players: 2 to 6")
        c.n = n
        c.trump = trump
        for i in range(64):
            c.cost2[i] = 2 * card_cost(c, i) if i < 52 else 0
            c.same_rank[i] = SPREAD << (i % 13) if i < 52 else 0
        c.flags = flags
        c.low_rank = low_rank
        c.pile_len = len(pile_order)
        for i in range(c.pile_len):
            c.pile_cards[i] = pile_order[i]
        if c.pile_len:
            k = (pile_order, trump_card)
            if k not in self.epochs:
                self.epochs[k] = len(self.epochs) + 1
            c.epoch = self.epochs[k]
        else:
            c.epoch = 0
        c.rep_on = 1 if (n > 2 or (flags & (F_TRANSFER | F_SHOW))) else 0
        cdef CState st = CState.__new__(CState)
        st.c = c
        st.owner = self
        memset(&st.s, 0, sizeof(St))
        st.s.tfloor = -1
        for i in range(n):
            st.s.hand[i] = hands[i]
        st.s.att = att
        st.s.opn = opn
        st.s.cov = cov
        st.s.shown = shown
        st.s.attacker = attacker
        st.s.defender = defender
        st.s.turn = turn
        st.s.take = take
        st.s.limit = limit
        st.s.cap = cap
        st.s.pile = c.pile_len
        st.s.trump_card = trump_card if c.pile_len else -1
        st.s.fresh = fresh
        cdef int v
        if att == 0 and c.pile_len == 0:
            c.hero = 0
            if outcome_known(c, &st.s, &v):
                st.s.over = 1
        return st

    def tune(self, equiv=None, iso=None, lead_table=None, quick=None, etc=None,
             ply_bound=None):
        """Search switches, for benchmarks and tests (all on by default):
        ``equiv`` drop covers with interchangeable cards, ``iso`` canonical
        ranks between bouts, ``lead_table`` table entries between bouts only
        (and one order for a run of cards added to a taker), ``quick`` the
        decisions without search (:c:func:`quick_win`, :c:func:`odd_duel`,
        :c:func:`hero_side_out`), ``etc`` enhanced transposition
        cut-offs, ``ply_bound`` the :c:func:`plies_needed` cut-offs.  Returns
        the current settings."""
        if equiv is not None:
            self.c.equiv = 1 if equiv else 0
        if iso is not None:
            self.c.iso = 1 if iso else 0
        if lead_table is not None:
            self.c.lead_table = 1 if lead_table else 0
        if quick is not None:
            self.c.quick = 1 if quick else 0
        if etc is not None:
            self.c.etc_on = 1 if etc else 0
        if ply_bound is not None:
            self.c.ply_bound = 1 if ply_bound else 0
        return dict(equiv=self.c.equiv, iso=self.c.iso, lead_table=self.c.lead_table,
                    quick=self.c.quick, etc=self.c.etc_on, ply_bound=self.c.ply_bound)

    def new_generation(self):
        """Start a new root question: table entries of earlier ones age
        (replacement) and the history heuristic starts afresh (counts from
        another position order this one's moves worse than none: measured)."""
        self.c.gen = <uint8_t>(self.c.gen + 1)
        memset(self.c.hist, 0, sizeof(self.c.hist))
        memset(self.c.hbonus, 0, sizeof(self.c.hbonus))

    def prove(self, CState st, int hero, int prover, int depth=UNLIM,
              double max_time=0.0, int64_t max_nodes=0):
        """(result, distance bound): result 1 yes, 0 no, -1 budget, -2 interrupted."""
        cdef Ctx* c = self.c
        cdef int dist = 0, r
        cdef uint64_t rep[2]
        cdef St root = st.s
        # A taker's run is searched in increasing card order only below a
        # node that saw its start; a root question asks about this state
        # itself, where any card of the run may come next.
        root.tfloor = -1
        if depth > UNLIM:
            depth = UNLIM
        c.hero = hero
        c.prover = prover
        c.slot = prover_slot(c)
        c.pathlen = 0
        c.msp = 0
        c.abort = 0
        c.max_nodes = max_nodes
        c.deadline = max_time
        with nogil:
            r = dfs(c, &root, depth, 0, &dist, rep, NULL)
        if r < 0:
            return (-2 if c.abort == 2 else -1), 0
        return r, dist

    def bounds(self, CState st, int hero, int prover):
        """(lb, ub) the table holds for ``st`` (INF when unknown / never)."""
        cdef uint64_t key[5]
        cdef Ctx* c = self.c
        c.hero = hero
        c.prover = prover
        c.slot = prover_slot(c)
        if st.s.over:
            return None
        make_key(c, &st.s, key)
        cdef uint64_t* e = tt_probe(c, key, key_hash(key))
        if e == NULL:
            return (0, INF)
        return (ent_lb(e, c.slot), ent_ub(e, c.slot))

    def reset_nodes(self):
        self.c.nodes = 0


UNLIMITED = UNLIM
INFINITE = INF
KIND_NAMES = ("lead", "cover", "take", "transfer", "show", "throw", "pass", "swap")
FLAG_TRANSFER = F_TRANSFER
FLAG_SHOW = F_SHOW
FLAG_NEIGHBOURS = F_NEIGH
FLAG_SWAP = F_SWAP
FLAG_FIRST_OUT_WINS = F_FOW
FLAG_TEAMS = F_TEAMS
FLAG_FIRST_BOUT_LIMIT = F_FBL

include "playout.pxi"
