# Included by _core.pyx: the canonical key of a state (make_key), its hash,
# and the canonical renumbering of live ranks between bouts (iso_ranks).
#
# Canonical form (pile empty only): the trump suit goes to slot 3; the three
# other suits are interchangeable and are sorted by their 52-bit signature;
# ranks that no card in a hand or on the table holds are dropped, so only the
# relative order of live ranks counts (table ranks stay: R9 needs them); between
# bouts the live ranks are renumbered by ``iso_ranks``.  With
# cards in a known pile nothing is canonicalized and the pile is identified by
# an epoch number (one per distinct pile order) plus its length.


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
            # histories; inside a bout the cheaper key pays better.  The
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
            crank = &LIVE_RANK[rank_set(live)][0]
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
