# Included by _core.pyx: the search itself (dfs) and its budget.
#
# Search: why two boolean searches
# --------------------------------
# The game has three outcomes for the hero (win / draw / loss, S1, S2) and
# endless play counts as a draw (R23).  We never search for a three-valued
# minimax score.  Instead ``dfs`` answers one boolean question, in the style of
# the double-dummy solvers (DDS): *can the prover force a decisive result?*  The
# prover is either the hero's side ("can the hero win?") or the other side
# ("can the others make the hero lose?").  The value is then
#
#     win  if the hero can force a win,
#     loss if the others can force the hero's loss,
#     draw otherwise.
#
# Reasons:
#
# * A boolean AND/OR search cuts off on the first success at an OR node and the
#   first failure at an AND node -- the tightest null window there is, without
#   re-searches.
# * R23 fits it exactly: a repetition is a *failure* for whichever side is the
#   prover (a draw is not decisive).  A *success* is a finite proof tree that
#   never contains a repetition, so it never depends on the path and can always
#   be stored.  A failure may rest on a repetition of a state above the node;
#   each call reports which lead states on the path a repetition below it
#   referred to (``rep``, a mask of path indices) and a failure is stored in
#   the table only when none of them is above the node (the standard cure for
#   the graph-history interaction); otherwise in the side table described
#   below.
# * The same question with a ply budget ("decisive within d plies?") gives the
#   distance: the table keeps for every (state, prover) a lower and an upper
#   bound on the number of plies the prover needs (``lb``, ``ub``; ``lb = INF``
#   means "never"), every search tightens them, and the root distance is found by
#   bisection between them.  The unlimited search (``depth = UNLIM``) stores
#   ``lb = INF`` on failure.
# * A search with a ply budget checks no repetitions at all: a proof within d
#   plies is a finite strategy whether or not a state recurs in it, so every
#   answer is path-independent and stored.  ``plies_needed`` (a lower bound on
#   the plies to the prover's result) fails a node at once when the budget is
#   below it.  With 3+ players the Python side proves values by such searches
#   at growing budgets before it falls back on the unlimited one
#   (``CoreBackend._decide``).
#
# With 3+ players the non-hero seats form one coalition (S2); under ``teams=2v2``
# the hero's partner plays on the hero's side (R22).
#
# Repetitions (R23) are checked only at the start of a bout (P1): inside a bout
# the state strictly progresses (cards only join the table, the asked thrower
# only moves on), so every cycle passes through a lead state.  They are checked
# only when a cycle is possible at all: 3+ players or a transfer option (R23).
# A failure that rests on repetitions is not stored in the main table; it goes
# to a small side table (``CondEntry``) tagged with the visit of the deepest
# path state it referred to, and is reused while that visit is still on the
# stack (the path up to it is then unchanged, and more path states only add
# failures for the prover).
#
#
# Only lead states (between bouts) have table entries: inside a bout states
# hardly ever recur, so their keys and probes cost without paying (``dfs``).


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
