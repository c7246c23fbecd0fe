# cython: language_level=3
"""The compiled core of durak-solver: card sets as 64-bit masks (R1, R2)."""
from libc.stdint cimport uint64_t


cdef inline int popcount64(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil


def popcount(uint64_t mask) -> int:
    """Number of cards in a card set."""
    return popcount64(mask)


def beaters(int attack, uint64_t hand, int trump) -> int:
    """R2: the cards of ``hand`` that beat ``attack`` (same layout as solver.cards)."""
    cdef int s = attack // 13
    cdef uint64_t suit = (<uint64_t>0x1FFF) << (13 * s)
    cdef uint64_t higher = suit & ~(((<uint64_t>1) << (attack + 1)) - 1)
    cdef uint64_t m = hand & higher
    if s != trump:
        m |= hand & ((<uint64_t>0x1FFF) << (13 * trump))
    return m
