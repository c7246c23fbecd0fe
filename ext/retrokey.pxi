# Included by _core.pyx before the other retro*.pxi units: a state of a
# retrograde graph (retro.pxi) as one 64-bit word and back (retro_key,
# retro_state), with the pext/pdep helpers of bits.pxi.
#
# Why a unit of its own: the builder, its helper thread (retrobuild.pxi) and
# the graph's hash (retro.pxi) all speak in these keys, and the encoding --
# four bit planes gathered by pext where the CPU has it, a portable loop
# where not -- is its own piece of bit twiddling, which the tests check
# both ways (``fast_bits``).
#
# A state's identity is where each of the root's cards is (retro_key): no
# card comes into play once the pile is empty, so a 9-card game's whole state
# fits one 64-bit word, which the hash slot holds itself -- a look-up is one
# cache miss.  The search's canonical key would fold isomorphic states (dead
# ranks, interchangeable suits), but on the largest graphs it merges few of
# them (3-20%) and costs two to three words kept apart from the slots, or --
# put back on the root's cards in one word -- twice the key's instructions:
# slower either way (docs/solver.md).  The discard pile is the root's cards
# that are nowhere else.


cdef enum:
    RETRO_CARDS = 11     # live cards a graph may have: 11 nibbles and the bout's 19 bits fill a word


# pext/pdep in one instruction where the CPU has them fast (bits.pxi); the
# tests switch it off to check the portable loops against it
cdef int FAST_BITS = dk_fast_bmi2()


def fast_bits(enabled=None):
    """Whether the retrograde graph's keys use the CPU's pext/pdep (BMI2);
    ``fast_bits(False)`` makes them use the portable loops (the tests compare
    the two), ``fast_bits(True)`` turns the instructions back on where the CPU
    has them."""
    global FAST_BITS
    if enabled is not None:
        FAST_BITS = dk_fast_bmi2() if enabled else 0
    return bool(FAST_BITS)


cdef inline uint64_t gather4(uint64_t* m, uint64_t mask, int8_t* cards, int ncards) noexcept nogil:
    """The bits of the planes ``m`` at the cards of ``mask`` (``cards`` its
    ``ncards`` bits in order), plane after plane, ``ncards`` bits each."""
    if FAST_BITS:
        return dk_gather4_bmi2(m, mask, ncards)
    cdef uint64_t g0 = 0, g1 = 0, g2 = 0, g3 = 0
    cdef int j, p
    for j in range(ncards):
        p = cards[j]
        g0 |= ((m[0] >> p) & 1) << j
        g1 |= ((m[1] >> p) & 1) << j
        g2 |= ((m[2] >> p) & 1) << j
        g3 |= ((m[3] >> p) & 1) << j
    return g0 | (g1 << ncards) | (g2 << (2 * ncards)) | (g3 << (3 * ncards))


cdef inline void scatter4(uint64_t k, uint64_t mask, int8_t* cards, int ncards,
                          uint64_t* m) noexcept nogil:
    """The inverse of :func:`gather4`: the four planes from their bits."""
    if FAST_BITS:
        dk_scatter4_bmi2(k, mask, ncards, m)
        return
    cdef uint64_t b
    cdef int j
    m[0] = m[1] = m[2] = m[3] = 0
    for j in range(ncards):
        b = (<uint64_t>1) << cards[j]
        m[0] |= b & (<uint64_t>0 - ((k >> j) & 1))
        m[1] |= b & (<uint64_t>0 - ((k >> (ncards + j)) & 1))
        m[2] |= b & (<uint64_t>0 - ((k >> (2 * ncards + j)) & 1))
        m[3] |= b & (<uint64_t>0 - ((k >> (3 * ncards + j)) & 1))


cdef inline uint64_t with_code(uint64_t* m, int code) noexcept nogil:
    """The cards whose location code (the planes ``m``) is ``code``."""
    return ((m[0] if code & 1 else ~m[0]) & (m[1] if code & 2 else ~m[1])
            & (m[2] if code & 4 else ~m[2]) & (m[3] if code & 8 else ~m[3]))


cdef inline uint64_t retro_key(St* s, int n, uint64_t mask, int8_t* cards, int ncards) noexcept nogil:
    """A state's identity in one word: the location code of each of the root's
    ``ncards`` cards (``mask``; 0 gone, 1-6 hand of seat, 7 open attack, 8
    covered attack, 9 cover, 10-15 hand of seat and shown for a transfer,
    R14), as four bit planes of ``ncards`` bits (:func:`gather4`), then the
    bout's fields.  The planes are made from the card sets without a branch
    per card."""
    cdef uint64_t m[4]
    cdef uint64_t h, sh = s.shown
    cdef int i, j, code
    m[0] = s.opn | s.cov                  # 7 = 0111, 9 = 1001
    m[1] = s.opn
    m[2] = s.opn
    m[3] = (s.att & ~s.opn) | s.cov       # 8 = 1000
    for i in range(n):
        for j in range(2 if sh else 1):
            h = s.hand[i] & (sh if j else ~sh)
            code = (10 if j else 1) + i
            if code & 1:
                m[0] |= h
            if code & 2:
                m[1] |= h
            if code & 4:
                m[2] |= h
            if code & 8:
                m[3] |= h
    return gather4(m, mask, cards, ncards) | (
        ((<uint64_t>(s.attacker & 7)) | ((<uint64_t>(s.defender & 7)) << 3)
         | ((<uint64_t>((s.turn + 1) & 15)) << 6) | ((<uint64_t>s.take) << 10)
         | ((<uint64_t>(s.limit & 7)) << 11) | ((<uint64_t>(s.cap & 7)) << 14)
         | ((<uint64_t>s.over) << 17) | ((<uint64_t>(s.fresh & 1)) << 18)) << (4 * ncards))


cdef inline void retro_state(uint64_t k, int n, uint64_t mask, int8_t* cards, int ncards,
                             St* s) noexcept nogil:
    """The state of key ``k`` (the inverse of :func:`retro_key`, with the pile
    empty): the key is the whole state, so the breadth-first frontier keeps
    8-byte keys, not 96-byte states."""
    cdef uint64_t x = k >> (4 * ncards)
    cdef uint64_t m[4]
    cdef int j
    memset(s, 0, sizeof(St))
    scatter4(k, mask, cards, ncards, m)
    for j in range(n):
        s.hand[j] = (with_code(m, 1 + j) | with_code(m, 10 + j)) & mask
        s.shown |= with_code(m, 10 + j) & mask
    s.opn = with_code(m, 7) & mask
    s.att = s.opn | (with_code(m, 8) & mask)
    s.cov = with_code(m, 9) & mask
    s.attacker = <int8_t>(x & 7) if (x & 7) != 7 else -1
    s.defender = <int8_t>((x >> 3) & 7) if ((x >> 3) & 7) != 7 else -1
    s.turn = <int8_t>(((x >> 6) & 15) - 1)
    s.take = <int8_t>((x >> 10) & 1)
    s.limit = <int8_t>((x >> 11) & 7)
    s.cap = <int8_t>((x >> 14) & 7)
    s.over = <int8_t>((x >> 17) & 1)
    s.fresh = <int8_t>((x >> 18) & 1)
    s.pile = 0
    s.trump_card = -1
    s.tfloor = -1
    s.tfseat = 0
