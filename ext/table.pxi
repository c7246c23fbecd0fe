# Included by _core.pyx: the transposition table (entries, probe, store,
# prefetch) and the side table of repetition-dependent failures.
#
# Transposition table
# -------------------
# Buckets of ``TT_WAYS`` entries in one malloc'ed block (the number of buckets
# is the largest power of two that fits in ``tt_mb`` MiB; what is left of
# ``tt_mb`` holds the side table of repetition-dependent failures).  An entry
# is 48 bytes, a bucket of four 192 bytes (asserted at import):
#
#     uint64 key[5]   the whole canonical state: words 0-3 one per suit slot, 13
#                     nibbles each (location of the card of the k-th live rank:
#                     0 nowhere, 1-6 hand of seat, 7 open attack, 8 covered
#                     attack, 9 cover, 10-15 hand of seat and shown for a
#                     transfer); word 4 roles, bout state, hero (3+ players),
#                     rules, pile
#     uint64 data     for *both* provers a lower and an upper bound on the plies
#                     they need (10 bits each, see ``enc_lb``/``enc_ub``), the
#                     generation that last wrote it (aging), log2 of the work,
#                     and 1 + gen_moves index of the last cut-off move
#
# Both provers share the entry, so the cross-prover cut-off reads the other
# side's bounds from the same probe.  A bucket stores its four data words and
# first key words together in its first cache line (``Bucket``): a probe for
# a state that is not there reads that line only.
#
# The key is exact -- the probe compares all five words -- so a hash collision
# can never give a wrong proof.  The last key word is stored XORed with a mix
# of the data word and the key's hash (``ent_check``): a second search that
# shares the table (``Search.share_table``, two threads) may read a way while
# it is rewritten, and words of two different stores then fail the
# comparison (but for a 64-bit coincidence); alone, a search never sees one.
# Replacement: a hit on the same key merges the
# bounds; otherwise the first empty way, else the way with the lowest
# ``work - 4 * age`` where ``age`` is how many generations ago it was written
# (``Search.new_generation`` is called once per root question).


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


cdef inline uint64_t ent_check(uint64_t d, uint64_t h) noexcept nogil:
    """What an entry's last key word is stored XORed with: a mix of its data
    word and its key's hash (see ``way_holds``)."""
    return mix64(d ^ h)


cdef inline int way_holds(Bucket* b, int i, uint64_t* key, uint64_t h, uint64_t d) noexcept nogil:
    """Whether way ``i`` holds ``key`` (hash ``h``) with the data word ``d``.

    Two searches may share one table (``Search.share_table``), so a way can
    be read while another thread rewrites it: its words may then come from
    two different stores.  The data word is read first (acquire: every key
    word read after it is as new as the store that wrote it, or newer), and
    the last key word is stored XORed with ``ent_check(data, hash)``.  A data
    word and key words of different stores then match ``key`` only by a
    64-bit coincidence; with one search nothing changes (the words always
    agree).  The key words themselves are still compared in full."""
    return (d != 0 and b.key0[i] == key[0] and b.rest[i][0] == key[1]
            and b.rest[i][1] == key[2] and b.rest[i][2] == key[3]
            and (b.rest[i][3] ^ ent_check(d, h)) == key[4])


cdef inline uint64_t* tt_probe(Ctx* c, uint64_t* key, uint64_t h, uint64_t* out) noexcept nogil:
    """``out`` holding a copy of the data word of ``key``'s entry, or NULL.
    (A copy: a table shared with another thread may change under a pointer.)"""
    cdef Bucket* b = &c.tt[h & c.tt_mask]
    cdef int i
    cdef uint64_t d
    for i in range(TT_WAYS):
        d = dk_load_u64_acq(&b.data[i])
        if way_holds(b, i, key, h, d):
            out[0] = d
            return out
    return NULL


cdef inline void tt_store(Ctx* c, uint64_t* key, uint64_t h, int lb, int ub, int64_t work, int move) noexcept nogil:
    cdef Bucket* b = &c.tt[h & c.tt_mask]
    cdef int i, e = -1, best = 1 << 30, sc, w = 0
    while work > 1 and w < 63:
        work >>= 1
        w += 1
    cdef int slot = c.slot, sh = 20 * c.slot, olb, oub
    cdef uint64_t d, od
    for i in range(TT_WAYS):
        od = dk_load_u64_acq(&b.data[i])
        if od == 0:
            if best > -(1 << 29):  # the first empty way beats every occupied one
                e = i
                best = -(1 << 29)
            continue
        if way_holds(b, i, key, h, od):
            olb = ent_lb(&od, slot)
            oub = ent_ub(&od, slot)
            if olb > lb:
                lb = olb
            if oub < ub:
                ub = oub
            d = od & ~((<uint64_t>0xFFFFF) << sh) & ~((<uint64_t>0xFF) << 40)
            d |= ((<uint64_t>enc_lb(lb)) | ((<uint64_t>enc_ub(ub)) << 10)) << sh
            d |= (<uint64_t>c.gen) << 40
            if w > ent_work(&od):
                d = (d & ~((<uint64_t>63) << 48)) | ((<uint64_t>w) << 48)
            if move:
                d = (d & ~((<uint64_t>511) << 54)) | ((<uint64_t>(move & 511)) << 54)
            # the check word first: a reader between the two stores sees a
            # mismatch (a miss), never the new bounds under another check
            dk_store_u64(&b.rest[i][3], key[4] ^ ent_check(d, h))
            dk_store_u64_rel(&b.data[i], d)
            return
        sc = ent_work(&od) - 4 * (<uint8_t>(c.gen - ent_gen(&od)))
        if sc < best:
            best = sc
            e = i
    c.tt_stores += 1
    d = ((<uint64_t>enc_lb(lb)) | ((<uint64_t>enc_ub(ub)) << 10)) << sh
    d |= (<uint64_t>SLOT_EMPTY) << (20 * (1 - slot))
    d |= (<uint64_t>c.gen) << 40
    d |= (<uint64_t>w) << 48
    d |= (<uint64_t>(move & 511)) << 54
    # the way emptied first, the key words, then the data word (release)
    dk_store_u64(&b.data[e], 0)
    dk_store_u64(&b.key0[e], key[0])
    dk_store_u64(&b.rest[e][0], key[1])
    dk_store_u64(&b.rest[e][1], key[2])
    dk_store_u64(&b.rest[e][2], key[3])
    dk_store_u64(&b.rest[e][3], key[4] ^ ent_check(d, h))
    dk_store_u64_rel(&b.data[e], d)


cdef inline void tt_prefetch(Ctx* c, uint64_t h) noexcept nogil:
    cdef const char* b = <const char*>&c.tt[h & c.tt_mask]
    __builtin_prefetch(b)        # the data and first key words
    __builtin_prefetch(b + 64)   # the rest of the keys, for a hit
    __builtin_prefetch(b + 128)


cdef inline CondEntry* cond_slot(Ctx* c, uint64_t h) noexcept nogil:
    return &c.cond[(h >> 20) & c.cond_mask]
