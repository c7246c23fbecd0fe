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
#   a search upwards from the stored lower bound.  The unlimited search
#   (``depth = UNLIM``) stores ``lb = INF`` on failure; a search with a limit
#   is fail-soft: a failure returns (in ``dist``) and stores the lower bound
#   its children proved -- at the prover's node the least of theirs plus one,
#   at the other side's the refuting child's plus one, ``plies_needed`` at a
#   node cut by it -- which can lie beyond the limit, so the next limit tried
#   skips the ones already known to fail.
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
    if dk_load_int(&c.stop):  # another thread has answered the question (Search.stop)
        c.abort = 1
        return 1
    if c.max_nodes > 0 and c.nodes >= c.max_nodes:
        c.abort = 1
        return 1
    if c.deadline > 0 and dk_now() > c.deadline:
        c.abort = 1
        return 1
    if (c.nodes & SIGNALS_EVERY) == 0:
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
    referred to (see ``merge_refs``; [0, BIGPLY]: none).  ``pkey``: NULL, or
    the state's key (KEYWORDS words) and hash already computed by the parent
    (the enhanced transposition cut-off computes every child's).

    The steps, in order: (1) count the node and look at the budget; (2)
    failures and successes known without a key; (3) the key; (4) a repetition;
    (5) decisions without search; (6) the transposition table; (7) the side
    table of repetition-dependent failures; (8) the state joins the path; (9)
    the moves; (10) the children's keys for the enhanced transposition
    cut-off; (11) ordering; (12) the cut-off's probes; (13) the children
    searched; (14) the result stored.
    """
    cdef uint64_t key[KEYWORDS]
    cdef uint64_t h, ed
    cdef uint64_t* e
    cdef int ph, i, nm, r, d, mine, result, best, cdepth, pushed = 0, bm = 0, cut = 0, j
    cdef uint64_t rp[2]
    cdef uint64_t refs[2]
    cdef int top, pruned = 0, etc, usett, reps, lbf
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

    # Step 1. Count the node; every BUDGET_EVERY + 1 nodes look at the budget
    c.nodes += 1
    if (c.nodes & BUDGET_EVERY) == 0 and check_budget(c):
        return -1
    if c.abort:
        return -1

    # Step 2. Decided before any key: game over, no plies left, fewer plies
    # left than the prover needs, the hero's side out; or too deep to go on
    if s.over:
        if decisive(c, s):
            return 1
        dist[0] = INF  # over without the prover's result: never
        return 0
    if depth == 0:
        dist[0] = 1
        return 0
    if depth != UNLIM and c.ply_bound:
        d = plies_needed(c, s)
        if d > depth:
            dist[0] = d
            return 0  # path-independent: not within the limit from here
    if not c.prover and c.n > 2 and c.quick and hero_side_out(c, s):
        dist[0] = INF
        return 0  # path-independent: the hero's side can no longer lose
    if ply >= MAXPLY - 1 or c.msp + MAXMOVES > MSTACK:
        rep[0] = 0
        rep[1] = <uint64_t>(-1)  # too deep: a failure that must not be stored
        dist[0] = depth + 1 if depth != UNLIM else 0
        return 0

    # Step 3. The key (lead states only, unless lead_table is off)
    ph = phase(s)
    # Table entries between bouts only (lead states): inside a bout the
    # states hardly ever recur -- nearly every in-bout node is searched even
    # when its entry is there to be found -- so their keys, probes and stores
    # cost without paying (docs/solver.md).
    usett = ph == PH_LEAD or not c.lead_table
    if pkey != NULL:
        memcpy(key, pkey, KEYWORDS * sizeof(uint64_t))
        h = pkey[5]  # word KEYWORDS: the hash
    elif usett:
        make_key(c, s, key)
        h = key_hash(key)

    # Step 4. A repetition of a lead state on the path (R23): a failure, and
    # which path state it refers to
    reps = c.rep_on and depth == UNLIM
    if ph == PH_LEAD and reps:
        for i in range(c.pathlen):
            if c.path[i].key[4] == key[4] and key_eq(c.path[i].key, key):
                if i < REFBITS:
                    rep[0] = (<uint64_t>1) << i
                else:
                    rep[1] = i
                return 0

    # Step 5. Decisions without search (quick: odd_duel, quick_win)
    if depth == UNLIM and c.prover and c.n > 2 and c.quick and odd_duel(c, s):
        dist[0] = UNLIM - 1  # a success, its plies not known
        return 1
    if ph == PH_LEAD and c.quick and s.pile == 0 and quick_win(c, s):
        if side_of(c, s.attacker) != c.prover:
            dist[0] = INF
            return 0  # path-independent: the attacker wins whatever the history
        if depth == UNLIM:
            dist[0] = UNLIM - 1  # a success, its plies not known
            return 1

    # Step 6. Transposition table lookup: a stored bound decides, or names
    # the move that cut off last time
    e = tt_probe(c, key, h, &ed) if usett else NULL
    if e != NULL:
        d = ent_ub(e, c.slot)
        if d <= depth:
            dist[0] = d
            return 1
        if ply == 0:
            c.root_move = ent_move(e) - 1  # what decided it last time (verify it)
        if ent_ub(e, 1 - c.slot) < UNLIM:
            dist[0] = INF
            return 0  # (the cross-prover argument below)
        if ent_lb(e, c.slot) > depth:
            dist[0] = ent_lb(e, c.slot)
            return 0
        bm = ent_move(e)

    # Step 7. Side table lookup: a repetition-dependent failure whose
    # repetitions are still on the path
    if reps and usett:
        ce = cond_slot(c, h)
        if ce.tag != 0 and ((ce.tag >> 16) & 1) == <uint64_t>c.slot and <int>(ce.tag & 0xFFFF) >= depth:
            top = 63 - __builtin_clzll(ce.refs)  # a stored mask is never 0
            if (top < c.pathlen and c.path[top].visit == (ce.tag >> 17)
                    and key_eq(ce.key, key)):
                # the same repetitions are still on the path: the failure stands
                rep[0] = ce.refs
                return 0

    # Step 8. The lead state joins the path (repetitions below refer to it)
    if ph == PH_LEAD and reps:
        memcpy(c.path[c.pathlen].key, key, KEYWORDS * sizeof(uint64_t))
        c.visits += 1
        c.path[c.pathlen].visit = c.visits
        c.pathlen += 1
        pushed = 1

    # Step 9. Generate the moves, less the prunable ones (single leads, covers
    # with an equivalent card, a taker's run in one order)
    nodes0 = c.nodes
    ms = &c.mstack[c.msp]
    ks = &c.kstack[KSLOT * c.msp]
    cs = &c.cstack[c.msp]
    mine = side_of(c, to_move(s)) == c.prover
    if ph == PH_LEAD and (depth == UNLIM or (not mine and c.single_limited)) and single_leads_suffice(c, s):
        # Under a ply limit only at the other side's leads: there the single
        # card dominates in plies as well (each of the prover's answers
        # reaches the pair lead's state with one ply more), at the prover's
        # own it could be slower.
        nm = gen_moves(c, s, ms, 1)
        if (depth == UNLIM and not mine and lead_limit(c, s) >= 2
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

    # Step 10. Enhanced transposition cut-off, part one: a child already
    # decided in the table (path-independent facts only) decides this node
    # without a search.  Two players: only while more than ETC_MIN_CARDS
    # cards are in the hands -- below that the subtrees are small and the
    # children's keys and (mostly missing, uncached) probes cost more than
    # searching them.  With 3+ players the cut-offs pay to the end
    # (docs/solver.md has the measurements).
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
                ks[KSLOT * i + 4] = CK_UNPLAYED
                continue
            # the child is kept (cs[i]): the search below need not play it again
            cs[i] = s[0]
            play(c, &cs[i], &ms[i])
            if cs[i].over:
                # markers CK_* in word 4 (a real key's word 4 holds n << 21)
                ks[KSLOT * i + 4] = CK_OVER  # no key
            elif c.lead_table and cs[i].att != 0:
                ks[KSLOT * i + 4] = CK_INBOUT  # not probed
            elif (c.quick and cs[i].pile == 0 and phase(&cs[i]) == PH_LEAD
                  and quick_win(c, &cs[i])):
                # (a lead state only, as in step 5: quick_win judges the attacker
                # about to lead; without lead_table in-bout children get here too)
                ks[KSLOT * i + 4] = CK_QUICK  # the attacker to lead surely wins
                ks[KSLOT * i + 5] = side_of(c, cs[i].attacker) == c.prover
            else:
                make_key(c, &cs[i], &ks[KSLOT * i])
                ks[KSLOT * i + 5] = key_hash(&ks[KSLOT * i])
                tt_prefetch(c, ks[KSLOT * i + 5])

    # Step 11. Move ordering: scores, the table's move first
    score_moves(c, s, ms, nm, mine)
    if bm:
        # the table's cut-off move first (ordering only: any order is sound;
        # under canonical relabelling the index may name another move)
        for i in range(nm):
            if ms[i].idx == bm - 1:
                ms[i].score = SCORE_FIRST  # below every score (score_moves: -40 to 110)
                break
    if etc:
        sort_moves(ms, nm)
    c.msp += nm
    cdepth = depth if depth == UNLIM else depth - 1

    # Step 12. Enhanced transposition cut-off, part two: the children's
    # probes, in move order
    if etc:
        for i in range(nm):
            if ks[KSLOT * ms[i].ki + 4] == CK_UNPLAYED or ks[KSLOT * ms[i].ki + 4] == CK_INBOUT:
                continue
            if ks[KSLOT * ms[i].ki + 4] == CK_QUICK:
                # slot 5: whether the attacker is on the prover's side
                r = 0
                d = INF
                if ks[KSLOT * ms[i].ki + 5]:
                    if cdepth != UNLIM:
                        continue  # a success, but its plies are not known
                    r = 1
                    d = UNLIM - 2
            elif ks[KSLOT * ms[i].ki + 4] == CK_OVER:
                r = decisive(c, &cs[ms[i].ki])
                d = 0 if r else INF
            else:
                e = tt_probe(c, &ks[KSLOT * ms[i].ki], ks[KSLOT * ms[i].ki + 5], &ed)
                r = -1
                if e != NULL:
                    d = ent_ub(e, c.slot)
                    if d <= cdepth:
                        r = 1
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
                        d = INF
                    elif ent_lb(e, c.slot) > cdepth:
                        r = 0
                        d = ent_lb(e, c.slot)
                if r < 0:
                    continue
            if mine and r == 0:
                # a path-independent failure: never worth searching here
                # (its lower bound kept in the hash slot, unused from now)
                ms[i].fails = 1
                ks[KSLOT * ms[i].ki + 5] = <uint64_t>d
            if mine and r == 1:
                c.msp -= nm
                if pushed:
                    c.pathlen -= 1
                if d >= UNLIM - 1:
                    d = UNLIM - 2  # plies unknown stays unknown
                if usett:
                    tt_store(c, key, h, 0, d + 1, 1, ms[i].idx + 1)
                if ply == 0:
                    c.root_move = ms[i].idx
                dist[0] = d + 1
                return 1
            if not mine and r == 0 and ks[KSLOT * ms[i].ki + 4] != CK_OVER:
                c.msp -= nm
                if pushed:
                    c.pathlen -= 1
                d = INF if (depth == UNLIM or d >= INF - 1) else d + 1
                if usett:
                    tt_store(c, key, h, d, INF, 1, ms[i].idx + 1)
                if ply == 0:
                    c.root_move = ms[i].idx
                dist[0] = d
                return 0

    # Step 13. Search the children in order: at the prover's node the first
    # success, at the other side's the first failure cuts off
    result = 0 if mine else 1
    best = INF if mine else 0
    # fail-soft: a failure's lower bound on the plies the prover needs (at
    # the prover's node the least over the children, else the refuting
    # child's), so the distance search can step past limits known to fail
    lbf = INF if mine else depth + 1
    refs[0] = 0
    refs[1] = BIGPLY
    cdepth = depth if depth == UNLIM else depth - 1
    for i in range(nm):
        if not etc:
            next_move(ms, i, nm)
        elif ms[i].fails:
            if <int>ks[KSLOT * ms[i].ki + 5] + 1 < lbf:
                lbf = <int>ks[KSLOT * ms[i].ki + 5] + 1
            continue
        if etc and ks[KSLOT * ms[i].ki + 4] != CK_UNPLAYED:
            child = cs[ms[i].ki]  # played by the enhanced transposition cut-off
        else:
            child = s[0]
            play(c, &child, &ms[i])
        r = dfs(c, &child, cdepth, ply + 1, &d, rp,
                &ks[KSLOT * ms[i].ki] if etc and ks[KSLOT * ms[i].ki + 4] > CK_INBOUT else NULL)
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
            if d + 1 < lbf:
                lbf = d + 1
            merge_refs(refs, rp, bound)
        else:
            if r == 0:
                result = 0
                lbf = d + 1
                merge_refs(refs, rp, bound)
                cut = ms[i].idx + 1
                if i > 0:
                    count_cutoff(c, 0, ms[i].kind, ms[i].card & 63)
                break
            if d + 1 > best:
                best = d + 1
    if pruned and result:
        best = UNLIM - 1  # a success, its plies unknown (see single_leads_suffice)

    # Step 14. Store the result: a success always, a failure in the main
    # table when it is path-independent, else in the side table
    c.msp -= nm
    if pushed:
        c.pathlen -= 1
    if ply == 0:
        # the root's deciding move: the prover's first success, or the other
        # side's refutation (a failure at the prover's own node has none)
        c.root_move = cut - 1
    if result:
        if best > UNLIM - 1:
            best = UNLIM - 1
        if usett:
            tt_store(c, key, h, 0, best, c.nodes - nodes0, cut)
        dist[0] = best
        return 1
    if depth == UNLIM or lbf >= INF or nm == 0:
        lbf = INF if depth == UNLIM or nm > 0 else depth + 1
    elif lbf <= depth:
        lbf = depth + 1  # (cannot happen: each child failed below its limit)
    dist[0] = lbf
    if refs[0] == 0 and <int64_t>refs[1] >= bound:
        # no repetition below refers above this node: path-independent
        if usett:
            tt_store(c, key, h, lbf, INF, c.nodes - nodes0, cut)
    else:
        if <int64_t>refs[1] >= bound and usett:
            top = 63 - __builtin_clzll(refs[0])
            ce = cond_slot(c, h)
            memcpy(ce.key, key, KEYWORDS * sizeof(uint64_t))
            ce.tag = (c.path[top].visit << 17) | ((<uint64_t>c.slot) << 16) | <uint64_t>depth
            ce.refs = refs[0]
        rep[0] = refs[0]
        rep[1] = refs[1]
    return 0
