# Included by _core.pyx after retrobuild.pxi: the attractor pass that values a
# built retrograde graph, one side's forced results level by level from the
# game's ends (retro_pass), and its thread entry (retro_pass_thread).
#
# Why a unit of its own: solving is the other half of the analysis, after the
# build, and it reads only the graph's arrays (RPass), never the hash; the
# two passes -- the hero's side's and the others' -- may run on two threads at
# once (RetroGraph._solve), so the pass is a free function over its own
# records (RNode).


ctypedef struct RNode:
    # What the attractor walk (RetroGraph._solve) reads of a state, in one place.
    int32_t dist        # plies to the end once decided, -1 before
    int16_t left        # successors the defender of this pass has not yet seen refuted
    int16_t hero_moves  # 1 if the state's mover is on the hero's side

ctypedef struct RPass:
    # One attractor pass of RetroGraph._solve: the graph's predecessor lists,
    # its records and queue, the target it proves.
    int64_t n
    int32_t* pstart
    int32_t* pred
    int32_t* start
    uint8_t* info
    int8_t* value
    RNode* node
    int32_t* queue      # the states decided, in order: queue[step * k] for k = 0, 1, ...
    int64_t step
    int target


cdef void retro_pass(RPass* p) noexcept nogil:
    """The states from which the side of ``p.target`` (+1: the hero's, -1: the
    others') forces that outcome, level by level from the game's ends: the
    level is the distance (the fastest forced win, the longest resistance).

    Each level walks the predecessors of the states just decided: a random
    access per edge.  What the walk reads of a state -- decided yet, moves
    left to refute, whose move -- sits together in one :c:type:`RNode`, so an
    edge costs one cache miss, and what the states queued next will read is
    prefetched while this one is handled."""
    cdef int64_t a, b, e, head = 0, tail = 0, level_end, n = p.n, step = p.step
    cdef int d = 0, v, prover_is_hero = p.target == 1
    cdef RNode* node = p.node
    cdef int32_t* queue = p.queue
    cdef int32_t* pstart = p.pstart
    cdef int32_t* pred = p.pred
    for a in range(n):
        node[a].left = <int16_t>(p.start[a + 1] - p.start[a])
        if (p.info[a] >> 3) & 1 and node[a].dist < 0:
            v = (p.info[a] >> 4) - 1
            if v == p.target:
                p.value[a] = <int8_t>p.target
                node[a].dist = 0
                queue[step * tail] = <int32_t>a
                tail += 1
    while head < tail:
        level_end = tail
        while head < level_end:
            b = queue[step * head]
            head += 1
            # a three-stage prefetch down the queue: the offsets of the state 8
            # ahead, the predecessor list of the one 4 ahead, the records of
            # the next one's predecessors -- each load below then finds its
            # line on the way or arrived
            if head + 8 < tail:
                __builtin_prefetch(&pstart[queue[step * (head + 8)]])
            if head + 4 < tail:
                __builtin_prefetch(&pred[pstart[queue[step * (head + 4)]]])
            if head < tail:
                for e in range(pstart[queue[step * head]], pstart[queue[step * head] + 1]):
                    __builtin_prefetch(&node[pred[e]])
            for e in range(pstart[b], pstart[b + 1]):
                a = pred[e]
                if node[a].dist >= 0:
                    continue
                if node[a].hero_moves != prover_is_hero:  # the defender refutes
                    node[a].left -= 1
                    if node[a].left > 0:
                        continue
                p.value[a] = <int8_t>p.target
                node[a].dist = d + 1
                queue[step * tail] = <int32_t>a
                tail += 1
        d += 1


cdef void* retro_pass_thread(void* arg) noexcept nogil:
    retro_pass(<RPass*>arg)
    return NULL
