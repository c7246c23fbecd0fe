# Included by _core.pyx after retrokey.pxi: expanding a retrograde graph's
# states -- a key's successors (retro_expand) -- and the helper thread that
# expands them ahead of the builder on a big graph (retro_helper).
#
# Why a unit of its own: expanding is the bigger half of a build and the
# part that runs on a second thread, so it is written as free functions over
# the keys, apart from the graph (retro.pxi): the thread's entry point must be
# a C function, and the builder (RetroGraph._build, _build_parallel) only
# links what comes out of here into the graph.


cdef enum RetroConst:
    PIPE = 3             # states in flight in the pipelined graph building (_build)
    PAR_FROM = 100000    # states linked before a helper thread takes over the expanding
    OWN_EVERY = 3        # ... but for every OWN_EVERY-th state, which the builder expands
    XSTATES = 4096       # states the helper may have expanded ahead (a power of two)
    XKIDS = 1 << 16      # their successors at most (a power of two, >= 2 * MAXMOVES)


cdef int retro_expand(Ctx* c, uint64_t key, uint64_t mask, int8_t* cards, int ncards,
                      uint64_t* kkeys, uint64_t* khash, uint8_t* kinfo) noexcept nogil:
    """The successors of the state of key ``key``: their keys, hashes and facts
    (mover + 1, over, the hero's outcome + 1: the graph's ``info`` byte);
    returns how many (none once the game is over).  Reads ``c`` (its hero is
    the graph's while the graph is built) and writes only the buffers, so the
    builder's helper thread can run it."""
    cdef Mv ms[MAXMOVES]
    cdef St cur, kid
    cdef int nm, m, v
    retro_state(key, c.n, mask, cards, ncards, &cur)
    if cur.over:
        return 0
    nm = gen_moves(c, &cur, ms, 0)
    for m in range(nm):
        kid = cur
        play(c, &kid, &ms[m])
        kid.tfloor = -1
        kid.tfseat = 0
        kkeys[m] = retro_key(&kid, c.n, mask, cards, ncards)
        khash[m] = mix64(kkeys[m])
        v = 0
        if kid.over:
            outcome_known(c, &kid, &v)
        kinfo[m] = <uint8_t>((to_move(&kid) + 1) | (kid.over << 3) | ((v + 1) << 4))
    return nm


ctypedef struct RWork:
    # What the builder (RetroGraph._build_parallel) and its helper thread share.
    Ctx* c
    uint64_t* keys      # the states' keys (the builder appends, the helper reads)
    uint64_t mask
    int8_t* cards
    int ncards
    int64_t known       # states whose keys may be read (builder -> helper)
    int64_t linked      # states the builder is done with (builder -> helper)
    int64_t kids_linked # ... and the kid ring up to there
    int64_t first       # the first state the helper may expand
    int stop            # the builder is done (or gave up): the helper leaves
    int64_t* xdone      # per state the helper expanded (at j % XSTATES): j + 1 once it is ready
    int64_t* xstart     # ... its first kid's place in the kid ring
    int32_t* xcount     # ... and its number of successors
    uint64_t* xkey      # the kid ring (place % XKIDS): keys, hashes, facts
    uint64_t* xhash
    uint8_t* xinfo


cdef void* retro_helper(void* arg) noexcept nogil:
    """The helper thread of a big graph's build: it expands the states in
    order into the kid ring (retro_expand) and marks each ready; the builder
    links them in order.  Expanding is the bigger half of the work, so the
    builder expands every OWN_EVERY-th state itself.  Handing work over costs
    a cache line or two per state, in order; the builder's counters are
    published every 32 states or when it has to wait: never a lock."""
    cdef RWork* w = <RWork*>arg
    cdef int64_t j, pos = 0, known = 0, linked = 0, kids_linked = 0
    cdef int spins = 0, nm, b, m
    cdef uint64_t kk[MAXMOVES]
    cdef uint64_t kh[MAXMOVES]
    cdef uint8_t ki[MAXMOVES]
    j = w.first
    while not dk_load_int(&w.stop):
        if j % OWN_EVERY == OWN_EVERY - 1:
            j += 1  # the builder's own
            continue
        if j >= known or j >= linked + XSTATES or pos + MAXMOVES > kids_linked + XKIDS:
            known = dk_load_acq(&w.known)
            linked = dk_load_acq(&w.linked)
            kids_linked = dk_load_acq(&w.kids_linked)
            if j >= known or j >= linked + XSTATES or pos + MAXMOVES > kids_linked + XKIDS:
                dk_wait(&spins)
                continue
        spins = 0
        nm = retro_expand(w.c, w.keys[j], w.mask, w.cards, w.ncards, kk, kh, ki)
        b = <int>(j & (XSTATES - 1))
        w.xstart[b] = pos
        w.xcount[b] = nm
        for m in range(nm):
            w.xkey[(pos + m) & (XKIDS - 1)] = kk[m]
            w.xhash[(pos + m) & (XKIDS - 1)] = kh[m]
            w.xinfo[(pos + m) & (XKIDS - 1)] = ki[m]
        pos += nm
        dk_store_rel(&w.xdone[b], j + 1)
        j += 1
    return NULL
