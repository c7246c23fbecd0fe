# Included from _core.pyx after playout.pxi: the learned playout policy.
"""The features of a decision and a linear move-scoring model over them, in C.

The twin of :mod:`solver.policy.features` (the readable reference, which
documents every template) over the bitmask state :c:type:`St`:
``lf_context`` gathers what the moves of one decision share (the mover's
hand, the cards it has not seen, the pile stage, ...), ``lf_move`` lists one
move's active feature indices, and ``lm_choose`` scores every legal move
with a :c:type:`LModel` (the sum of its features' weights) and picks the
best one (or samples the softmax at the model's temperature).  No Python
object is touched: a playout with the model (``po_run``) stays in C.

Two things the state does not keep, the caller supplies, as for the greedy
player: the bout's attack order (the greedy move is a feature) and, for the
discards, nothing -- they are the deck less the hands, the table and the
rest of the pile (``Ctx.pile_cards``), so a state must have a known pile.
``tests/test_learn.py`` holds the fields and the indices equal to the
reference's on thousands of states, and the scores equal to
:func:`solver.policy.model.LinearModel.scores` to 1e-9.
"""
from libc.math cimport exp


cdef inline int lf_pile_stage(int p) noexcept nogil:
    """features.pile_stage."""
    if p == 0:
        return 0
    if p <= 2:
        return 1
    if p <= 6:
        return 2
    if p <= 12:
        return 3
    return 4


cdef inline int lf_hand_bucket(int n) noexcept nogil:
    """features.hand_bucket."""
    if n <= 3:
        return n
    if n <= 5:
        return 4
    if n <= 8:
        return 5
    return 6


cdef inline int lf_table_bucket(int n) noexcept nogil:
    """features.table_bucket."""
    if n <= 1:
        return 0
    if n <= 4:
        return n - 1
    if n <= 6:
        return 4
    return 5


cdef inline uint64_t lf_deck(int low_rank) noexcept nogil:
    """features.deck_mask: every card of the deck whose lowest rank is ``low_rank``."""
    cdef uint64_t suit = SUIT13 & ~(((<uint64_t>1) << (low_rank - 2)) - 1)
    return suit | suit << 13 | suit << 26 | suit << 39


cdef inline uint64_t lf_pile_mask(Ctx* c, St* s) noexcept nogil:
    """The cards still in the pile (the face-up trump, its last, included)."""
    cdef uint64_t m = 0
    cdef int i
    for i in range(c.pile_len - s.pile, c.pile_len):
        if i >= 0:
            m |= (<uint64_t>1) << c.pile_cards[i]
    return m


cdef inline uint64_t lf_discards(Ctx* c, St* s) noexcept nogil:
    cdef uint64_t held = s.att | s.cov | lf_pile_mask(c, s)
    cdef int i
    for i in range(c.n):
        held |= s.hand[i]
    return lf_deck(c.low_rank) & ~held


cdef void lf_context(Ctx* c, St* s, LfCtx* x) noexcept nogil:
    """What the moves of the decision at ``s`` share (features.Decision)."""
    cdef int m = to_move(s), opp
    cdef uint64_t seen
    x.mover = m
    x.players = c.n
    x.pile = s.pile
    x.ps = lf_pile_stage(s.pile)
    x.trump = c.trump
    x.take = s.take
    x.hand = s.hand[m]
    x.table = s.att | s.cov
    x.opn = s.opn
    seen = s.hand[m] | s.att | s.cov | lf_discards(c, s)
    if s.pile > 0 and s.trump_card >= 0:
        seen |= (<uint64_t>1) << s.trump_card
    x.unseen = lf_deck(c.low_rank) & ~seen
    opp = s.attacker if m == s.defender else s.defender
    x.opp_size = popcount64(s.hand[opp]) if opp >= 0 else 0
    x.transfers = 1 if (c.flags & (F_TRANSFER | F_SHOW)) else 0


cdef int lf_move(LfCtx* x, Mv* mv, int greedy, int32_t* out) noexcept nogil:
    """The active feature indices of one move (features.move_features); their count."""
    cdef int k = mv.kind, ps = x.ps, t = x.trump, n = 0, card = -1, tr, h, a, gap
    cdef int trumps, opn, n_after, ta, cmp
    cdef int off = 0
    cdef uint64_t tsuit = SUIT13 << (13 * t), above, after, tc
    out[n] = off + (k * 5 + ps) * 2 + (1 if x.players > 2 else 0)
    n += 1
    off += 80
    out[n] = off + ((1 if greedy else 0) * 8 + k) * 5 + ps
    n += 1
    off += 80
    # the card the card templates look at (features._main_card)
    if k == K_LEAD:
        tc = mv.cards & tsuit
        card = __builtin_ctzll(tc) if tc else __builtin_ctzll(mv.cards)
    elif k == K_COVER or k == K_TRANSFER or k == K_SHOW or k == K_THROW:
        card = mv.card
    if card >= 0:
        tr = 1 if card // 13 == t else 0
        out[n] = off + ((k * 2 + tr) * 13 + card % 13) * 5 + ps
        n += 1
        above = (SUIT13 << (13 * (card // 13))) & ~(((<uint64_t>2) << card) - 1)
        h = popcount64(x.unseen & above)
        if h > 3:
            h = 3
        out[n] = off + 1040 + ((k * 2 + tr) * 4 + h) * 5 + ps
        n += 1
    off += 1040 + 320
    if k == K_COVER:
        a = mv.target
        if a // 13 == card // 13:
            gap = card % 13 - a % 13
            if gap > 4:
                gap = 4
            gap -= 1
        else:
            gap = 4
        out[n] = off + (gap * 2 + (1 if a // 13 == t else 0)) * 5 + ps
        n += 1
    elif k == K_LEAD:
        tr = 1 if card // 13 == t else 0
        a = popcount64(mv.cards)
        if a > 4:
            a = 4
        out[n] = off + 50 + ((a - 1) * 2 + tr) * 5 + ps
        n += 1
    elif k == K_TAKE:
        out[n] = off + 90 + lf_table_bucket(popcount64(x.table)) * 5 + ps
        n += 1
        trumps = popcount64(x.hand & tsuit)
        if trumps > 3:
            trumps = 3
        opn = popcount64(x.opn)
        if opn > 3:
            opn = 3
        opn -= 1
        if opn < 0:
            opn = 0
        out[n] = off + 120 + (trumps * 3 + opn) * 5 + ps
        n += 1
    elif k == K_PASS:
        out[n] = off + 180 + (x.take * 6 + lf_table_bucket(popcount64(x.table))) * 5 + ps
        n += 1
    off += 240
    # the hand after the move
    if k == K_TAKE:
        after = x.hand | x.table
    elif k == K_LEAD:
        after = x.hand & ~mv.cards
    elif k == K_COVER or k == K_TRANSFER or k == K_THROW:
        after = x.hand & ~((<uint64_t>1) << mv.card)
    else:
        after = x.hand
    n_after = popcount64(after)
    out[n] = off + (k * 7 + lf_hand_bucket(n_after)) * 2 + (1 if x.pile == 0 else 0)
    n += 1
    off += 112
    ta = popcount64(after & tsuit)
    if ta > 4:
        ta = 4
    out[n] = off + (k * 5 + ta) * 5 + ps
    n += 1
    off += 200
    cmp = 0 if n_after < x.opp_size else (1 if n_after == x.opp_size else 2)
    out[n] = off + (k * 3 + cmp) * 5 + ps
    n += 1
    off += 120
    out[n] = off + (k * 2 + x.transfers) * 5 + ps
    n += 1
    return n


cdef inline double lm_score(LModel* lm, LfCtx* x, Mv* mv, int greedy) noexcept nogil:
    cdef int32_t idx[LF_TEMPLATES]
    cdef int n = lf_move(x, mv, greedy, idx), i
    cdef double v = 0.0
    for i in range(n):
        v += lm.w[idx[i]]
    return v


cdef int lm_choose(Ctx* c, St* s, Mv* ms, int n, int8_t* order, int norder, LModel* lm,
                   uint64_t* rng) noexcept nogil:
    """The model's move among ``ms`` (-1 if none): the best score (ties: the first),
    or a draw from softmax(score / temp) when the model has a temperature."""
    cdef LfCtx x
    cdef double sc[MAXMOVES]
    cdef double best = -1e300, z = 0.0, u
    cdef int g, i, bi = 0
    if n <= 0:
        return -1
    if n == 1:
        return 0
    g = po_greedy(c, s, ms, n, order, norder)
    lf_context(c, s, &x)
    for i in range(n):
        sc[i] = lm_score(lm, &x, &ms[i], i == g)
        if sc[i] > best:
            best = sc[i]
            bi = i
    if lm.temp <= 0.0 or rng == NULL:
        return bi
    for i in range(n):
        sc[i] = exp((sc[i] - best) / lm.temp)
        z += sc[i]
    u = (dl_next(rng) >> 11) * (1.0 / 9007199254740992.0) * z
    for i in range(n):
        u -= sc[i]
        if u < 0.0:
            return i
    return n - 1


cdef class PolicyModel:
    """A linear move-scoring model loaded into the core (``solver.policy.model``
    builds it from a model file): ``PolicyModel(weights, temp=0.0)``."""

    def __cinit__(self):
        self.m.w = NULL
        self.m.nfeat = 0

    def __init__(self, weights, double temp=0.0):
        cdef int i, n = len(weights)
        if n != LF_NFEATURES:
            raise ValueError(f"weights: {n} given, the core's features number {LF_NFEATURES}")
        if temp < 0.0:
            raise ValueError("temp: 0 or more")
        free(self.m.w)
        self.m.w = <double*>malloc(n * sizeof(double))
        if self.m.w == NULL:
            raise MemoryError()
        for i in range(n):
            self.m.w[i] = weights[i]
        self.m.nfeat = n
        self.m.temp = temp
        self.nfeat = n

    def __dealloc__(self):
        free(self.m.w)
        self.m.w = NULL

    @property
    def temp(self):
        return self.m.temp


#: The core's number of features (the twin of solver.policy.features.NFEATURES).
NFEATURES = LF_NFEATURES


def decision_fields(CState st):
    """The decision at ``st`` from the mover's view (features.Decision's fields)."""
    cdef LfCtx x
    cdef St* s = &st.s
    cdef Ctx* c = st.c
    cdef int i, m, ph
    if s.over or to_move(s) < 0:
        raise ValueError("the game is over: no decision")
    lf_context(c, s, &x)
    m = x.mover
    ph = phase(s)
    return {
        "mover": m, "players": c.n, "phase": ph,
        "role": 0 if ph == PH_LEAD else (1 if ph == PH_DEFEND else 2),
        "hand": s.hand[m], "att": s.att, "cov": s.cov, "opn": s.opn,
        "discards": lf_discards(c, s), "unseen": x.unseen, "trump": c.trump,
        "trump_card": s.trump_card if s.pile > 0 else -1, "pile": s.pile,
        "hand_sizes": tuple(popcount64(s.hand[(m + i) % c.n]) for i in range(c.n)),
        "opponent": s.attacker if m == s.defender else s.defender, "take": s.take,
        "limit": s.limit, "flags": c.flags,
        "deck": 52 if c.low_rank == 2 else (36 if c.low_rank == 6 else 24),
    }


def move_features(CState st, tuple table_order=()):
    """Every legal move's active feature indices, in ``st.moves()`` order."""
    cdef int8_t order[PO_MAXTAB]
    cdef int norder = po_order(&st.s, table_order, order)
    cdef Mv ms[MAXMOVES]
    cdef LfCtx x
    cdef int32_t idx[LF_TEMPLATES]
    cdef int n, g, i, k
    if st.s.over:
        return []
    n = gen_moves(st.c, &st.s, ms, 0)
    g = po_greedy(st.c, &st.s, ms, n, order, norder)
    lf_context(st.c, &st.s, &x)
    out = []
    for i in range(n):
        k = lf_move(&x, &ms[i], i == g, idx)
        out.append([idx[j] for j in range(k)])
    return out


def model_scores(CState st, PolicyModel model, tuple table_order=()):
    """Every legal move's score under ``model`` (C inference), in ``st.moves()`` order."""
    cdef int8_t order[PO_MAXTAB]
    cdef int norder = po_order(&st.s, table_order, order)
    cdef Mv ms[MAXMOVES]
    cdef LfCtx x
    cdef int n, g, i
    if st.s.over:
        return []
    n = gen_moves(st.c, &st.s, ms, 0)
    g = po_greedy(st.c, &st.s, ms, n, order, norder)
    lf_context(st.c, &st.s, &x)
    return [lm_score(&model.m, &x, &ms[i], i == g) for i in range(n)]


def model_index(CState st, PolicyModel model, tuple table_order=()):
    """Index in ``st.moves()`` of the model's best move (-1 when the game is over)."""
    cdef int8_t order[PO_MAXTAB]
    cdef int norder = po_order(&st.s, table_order, order)
    cdef Mv ms[MAXMOVES]
    cdef int n = gen_moves(st.c, &st.s, ms, 0)
    return lm_choose(st.c, &st.s, ms, n, order, norder, &model.m, NULL)
