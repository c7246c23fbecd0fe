# Included at the end of _core.pyx: dealing the unseen cards for the hint engine.
"""Rejection dealing of the unseen cards under the facts of the asking of
throwers (F2), the hot loop of :meth:`solver.hints.sampler.Sampler.sample`.

A deal puts the pool's cards into the hidden slots of the hands (seat by
seat) and the rest into the pile.  Every deal of the counts is equally
likely (the cards were shuffled); the facts rule some out, so deals are
drawn until one agrees with every fact.  Each attempt is a Fisher-Yates
shuffle carried only as far as the hands: the facts are about hands, so a
seat's facts are checked as soon as its cards are placed and a broken one
ends the attempt there.  An attempt is still a uniform deal of the hands,
and whether it is kept depends only on those hands, so the kept deal is
uniform among the agreeing ones (plain rejection; ending early only saves
the draws that could not change the verdict).  The pile is shuffled once,
for the deal kept.

With several cards that may be the face-up bottom of the pile (a position
that names only the trump suit), each attempt draws the bottom first.

The random numbers are splitmix64's with Lemire's unbiased bounded draw:
seeded from the caller's ``random.Random``, so a seeded hint deals the same
cards every time.  ``tests/test_sampler.py`` and ``tests/test_hand_facts.py``
hold the deals uniform (chi-square) and agreeing.
"""

cdef enum:
    DEAL_MAX_CARDS = 64
    DEAL_MAX_SEATS = 8


ctypedef struct DealFact:
    uint64_t keep
    uint64_t add
    uint64_t cards
    int holds
    int drawn


cdef inline uint64_t dl_next(uint64_t* x) noexcept nogil:
    """splitmix64."""
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint32_t dl_below(uint64_t* x, uint32_t n) noexcept nogil:
    """Uniform in [0, n) (Lemire: a 32x32 multiply, rejection of the biased low part)."""
    cdef uint64_t m = (dl_next(x) >> 32) * n
    cdef uint32_t low = <uint32_t>m, t
    if low < n:
        t = (<uint32_t>(-n)) % n
        while low < t:
            m = (dl_next(x) >> 32) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef int dl_attempts(int* arr, int n, int* bcards, int nb, int* slot, uint64_t* known,
                     uint64_t* part, int nseats, DealFact* fs, int* first, int tries,
                     uint64_t* x, int* rejected, int* bottom_out, int* end_out) noexcept nogil:
    """The attempts of :func:`deal_hands`; 1 when one agreed (its pile then shuffled)."""
    cdef int attempt, i, j, k, s, f, r, tmp, dealt, ok = 0, bottom = -1, end = n, in_hands = 0
    cdef uint64_t hand
    for s in range(nseats):
        in_hands += slot[s]
    for attempt in range(tries):
        if nb:
            # the face-up bottom first, set aside at the end of the cards
            bottom = bcards[dl_below(x, <uint32_t>nb)]
            for i in range(n):
                if arr[i] == bottom:
                    arr[i] = arr[n - 1]
                    arr[n - 1] = bottom
                    break
            end = n - 1
        ok = 1
        dealt = 0
        for s in range(nseats):
            part[s] = 0
            for k in range(slot[s]):
                j = dealt + <int>dl_below(x, <uint32_t>(end - dealt))
                tmp = arr[dealt]
                arr[dealt] = arr[j]
                arr[j] = tmp
                part[s] |= (<uint64_t>1) << arr[dealt]
                dealt += 1
            hand = known[s] | part[s]
            for f in range(first[s], first[s + 1]):
                r = popcount64(((hand & fs[f].keep) | fs[f].add) & fs[f].cards)
                if (r == 0) if fs[f].holds else (r > fs[f].drawn):
                    ok = 0
                    break
            if not ok:
                break
        if ok:
            break
        rejected[0] += 1
    if ok:
        # the pile: the rest of the shuffle, for the deal kept only
        for i in range(in_hands, end - 1):
            j = i + <int>dl_below(x, <uint32_t>(end - i))
            tmp = arr[i]
            arr[i] = arr[j]
            arr[j] = tmp
    bottom_out[0] = bottom
    end_out[0] = end
    return ok


def deal_hands(tuple pool, tuple slots, tuple base, tuple facts, tuple bottoms,
               int tries, uint64_t seed):
    """Deal ``pool`` (card numbers) into ``slots[s]`` hidden cards of each seat's
    hand and the pile, until the hands agree with every fact.

    ``base[s]``: the cards seat ``s`` is known to hold.  ``facts``: tuples
    ``(seat, keep, add, cards, holds, drawn)`` of
    :class:`~solver.hints.knowledge.HandFact`: a deal agrees when
    ``r = |((hand & keep) | add) & cards|`` is above 0 (``holds``) or at most
    ``drawn`` (not ``holds``).  ``bottoms``: the pool's cards that may lie face
    up at the bottom of the pile (empty: it is known and not in the pool).  At
    most ``tries`` attempts.

    Returns ``(parts, pile, bottom, rejected)``: ``parts[s]`` the mask of the
    cards dealt to seat ``s``, the pile top first (without the bottom), the
    bottom card (-1: none dealt), and how many attempts broke a fact.  When
    every attempt broke one, ``parts`` is None and ``pile`` holds the last
    attempt's cards in slot order (hands, then pile), for the caller's
    Markov chain to start from.
    """
    cdef int n = len(pool), nseats = len(slots), nfacts = len(facts), nb = len(bottoms)
    cdef int i, s, f, k, rejected = 0, ok = 0, bottom = -1, end = n
    cdef int arr[DEAL_MAX_CARDS]
    cdef int bcards[DEAL_MAX_CARDS]
    cdef int slot[DEAL_MAX_SEATS]
    cdef uint64_t known[DEAL_MAX_SEATS]
    cdef uint64_t part[DEAL_MAX_SEATS]
    cdef DealFact* fs
    cdef int first[DEAL_MAX_SEATS + 1]  # the facts of seat s: first[s] .. first[s+1]-1
    cdef int fill[DEAL_MAX_SEATS]
    cdef int in_hands = 0
    cdef uint64_t x = seed
    cdef tuple t
    if n > DEAL_MAX_CARDS or nb > n or nseats > DEAL_MAX_SEATS:
        raise ValueError("deal_hands: too many cards or seats")
    if tries < 1:
        raise ValueError("deal_hands: tries must be at least 1")
    if len(base) != nseats:
        raise ValueError("deal_hands: a known hand for every seat")
    for i in range(n):
        arr[i] = pool[i]
    for i in range(nb):
        bcards[i] = bottoms[i]
    for s in range(nseats):
        slot[s] = slots[s]
        known[s] = base[s]
        in_hands += slot[s]
    if in_hands + (1 if nb else 0) > n:
        raise ValueError("deal_hands: more places than cards")
    # the facts sorted by seat (a counting sort keeps their order within a seat)
    for s in range(nseats + 1):
        first[s] = 0
    for f in range(nfacts):
        s = facts[f][0]
        if not 0 <= s < nseats:
            raise ValueError("deal_hands: a fact about a seat not at the table")
        first[s + 1] += 1
    for s in range(nseats):
        first[s + 1] += first[s]
        fill[s] = first[s]
    fs = <DealFact*>malloc(max(nfacts, 1) * sizeof(DealFact))
    if fs == NULL:
        raise MemoryError()
    try:
        for f in range(nfacts):
            t = facts[f]
            s = t[0]
            k = fill[s]
            fill[s] += 1
            fs[k].keep = t[1]
            fs[k].add = t[2]
            fs[k].cards = t[3]
            fs[k].holds = 1 if t[4] else 0
            fs[k].drawn = t[5]
        ok = dl_attempts(arr, n, bcards, nb, slot, known, part, nseats, fs, first, tries, &x,
                         &rejected, &bottom, &end)
    finally:
        free(fs)
    if not ok:
        # the last attempt: its hands may be partly dealt; finish them unshuffled
        return None, [arr[i] for i in range(end)], bottom, rejected
    return (tuple(part[s] for s in range(nseats)), [arr[i] for i in range(in_hands, end)],
            bottom, rejected)
