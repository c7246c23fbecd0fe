# Included by _core.pyx: the prunings and the decisions without search, each
# argued where it is defined.
#
# holds the answers equal with them switched off):
#
# * ``drop_equivalent``: a cover made with a card whose next lower live card of
#   the suit is in the same hand, both ranks held nowhere else, is searched once.
# * ``single_leads_suffice``: in the value search (no ply limit) a lead of
#   several cards is skipped where leading one of them and throwing the others
#   in does at least as well for the attacker (no transfers, opposite sides).
# * ``iso_ranks``: between bouts the live ranks are renumbered canonically.
# * ``quick_win``: two players (or only the hero and one other of 3+ still
#   holding cards), a lead state the attacker surely wins (the defender beats
#   none of his cards -- with transfers, and can pass none on -- or he sheds
#   one rank and the defender keeps a card) is decided without search.
# * After a take, one thrower's run of extra cards is searched in increasing
#   card order only (the order of the run changes nothing, R9, R10, R16).
# * ``hero_side_out`` and ``odd_duel`` (3+ players): once the hero's side is
#   out it cannot lose, so the others' proof fails; once the hero is out and
#   two others hold an odd number of cards, neither a draw nor endless play
#   is left, so the hero's proof succeeds.
# * ``plies_needed``: under a ply budget, a node whose budget is below the
#   plies the prover still needs fails at once (``tests/test_ply_bound.py``
#   holds every budget's answer equal without it).


cdef inline int equivalent_lower(Ctx* c, St* s, uint64_t live, uint64_t hand, int x) noexcept nogil:
    """Whether card ``x`` of ``hand`` has an interchangeable lower neighbour.

    With the pile empty, let ``y`` be the next lower live card of ``x``'s suit
    (live: in a hand or on the table).  If ``y`` is in the same hand and no
    other live card shares the rank of ``x`` or of ``y``, the two cards differ
    towards every *other* live card in nothing the rules can see: nothing
    lies between them, so a card beats one exactly when it beats the other
    (R2), and their ranks appear nowhere else (R9, R14).  They differ only
    towards each other -- which matters once they sit in different hands (a
    take can do that to an attack card), so this is used for covers only
    (``drop_equivalent``).
    """
    cdef int su = x // 13, r = x % 13
    cdef uint64_t below = live & (SUIT13 << (13 * su)) & (((<uint64_t>1) << x) - 1)
    cdef int y
    if below == 0:
        return 0
    y = 63 - __builtin_clzll(below)
    if not (hand >> y) & 1:
        return 0
    return (popcount64(live & (SPREAD << r)) == 1
            and popcount64(live & (SPREAD << (y % 13))) == 1)


cdef int drop_equivalent(Ctx* c, St* s, Mv* ms, int nm) noexcept nogil:
    """Remove the covers made with a card that has an interchangeable lower
    neighbour in the defender's hand (``equivalent_lower``); returns the new
    count.

    A cover card never reaches another hand: the bout ends with it discarded
    (R15) or picked up again by the same defender (R16); a transfer is over
    once a card is covered (R14).  On the table it is compared with nothing
    but the attack it covers.  So covering with ``x`` or with its neighbour
    ``y`` gives states that map onto each other by exchanging the two ranks
    (after a discard the survivor of the two has the same relations to every
    live card either way): the same value and plies, and only the lower card
    needs searching (the double-dummy solvers' "equivalent cards").  Leads,
    throw-ins and transfers are not pruned: the defender may take those
    cards, and then ``x`` and ``y`` face each other from different hands.
    """
    cdef uint64_t live = s.att | s.cov, hand
    cdef int i, j = 0, k
    for i in range(c.n):
        live |= s.hand[i]
    hand = s.hand[to_move(s)]
    for i in range(nm):
        k = ms[i].kind
        if k == K_COVER and equivalent_lower(c, s, live, hand, ms[i].card):
            continue
        ms[j] = ms[i]
        j += 1
    return j


cdef inline int single_leads_suffice(Ctx* c, St* s) noexcept nogil:
    """Whether a lead of several cards is dominated by leading one of them.

    Lead one card ``a`` of the pair/triple and throw the next one after each
    answer of the defender (P3: the attacker is asked first, R9 allows the
    rank, R10's limit is the same): whatever the defender does -- cover, or
    take, at any point -- the play reaches a state the defender could have
    chosen against the whole lead, and the attacker keeps the option of doing
    something else.  So a multi-card lead never does better for the attacker
    than the single card, and the value search may skip it.  Not with
    transfers (a single card can be transferred where several cannot, R14),
    not with ``trump_swap`` while the pile has cards, and with 3+ players only
    when the defender plays against the attacker's side (otherwise the
    multi-card lead gives *their* side more choices).  Only the value
    (``depth == UNLIM``) may use it: the single card takes one more ply.
    """
    if c.flags & (F_TRANSFER | F_SHOW):
        return 0
    if (c.flags & F_SWAP) and s.pile > 0:
        return 0
    if c.n == 2:
        return 1
    return side_of(c, s.attacker) != side_of(c, s.defender)


cdef inline int quick_win(Ctx* c, St* s) noexcept nogil:
    """Whether the attacker to lead can force a win: make the defender the
    durak (two players, or only these two of 3+ still holding cards, the
    hero one of them; pile empty).

    (a) The defender beats none of the attacker's cards (R2).  Then the
    attacker leads one card per bout -- non-trumps by ascending rank, then
    trumps by ascending rank -- the defender can only take (R16), and the
    attacker leads again (R18).  The defender's hand only grows by cards
    already led, each no higher in its suit than the attacker's remaining
    ones and no trump while a non-trump remains, so it never beats a card
    still to come.  The attacker runs out while the defender holds cards
    (R20).
    (b) The attacker's cards are all of one rank and no more than the lead
    limit (R10) while the defender holds more: the attacker leads them all
    and is out after the bout; the defender still holds a card whatever he
    does (R20).

    With transfers (R14, F13) (b) stands as it is: a transfer needs a new
    defender holding at least as many cards as the attack, and the attacker
    holds none once he has led them all.  (a) needs more: the defender must
    never be able to pass a lead on, so he holds no card of a rank the
    attacker holds, and the attacker holds every rank once -- a card the
    defender takes is then of a rank the attacker no longer holds.
    """
    cdef uint64_t a = s.hand[s.attacker], d = s.hand[s.defender], am, dm
    cdef uint64_t tmask = SUIT13 << (13 * c.trump)
    cdef int su, k = popcount64(a), lim, i
    if c.n != 2:
        # 3+ seats of which only these two still hold cards, the hero one
        # of them: the same two-player game (R18: after a take the attacker
        # leads again) between opposite sides.  (With the hero out both are
        # the others': the attacker could make the defender the durak, but
        # need not.)  Not for teams or first_out_wins.
        if (c.flags & (F_TEAMS | F_FOW)) or (s.attacker != c.hero and s.defender != c.hero):
            return 0
        for i in range(c.n):
            if s.hand[i] != 0 and i != s.attacker and i != s.defender:
                return 0
    if a == 0 or d == 0:
        return 0
    if rank_set(a) & (rank_set(a) - 1) == 0:
        lim = lead_limit(c, s)
        if k <= lim and popcount64(d) > k:
            return 1
    if (c.flags & (F_TRANSFER | F_SHOW)) and (pair_ranks(a) or (rank_set(a) & rank_set(d))):
        # (a) with transfers: the defender could pass a lead on with a card
        # of its rank (R14) -- one he holds, or one he took earlier of a rank
        # the attacker holds twice
        return 0
    if (d & tmask) and (a & ~tmask):
        return 0
    for su in range(4):
        am = (a >> (13 * su)) & SUIT13
        dm = (d >> (13 * su)) & SUIT13
        if am and dm and (63 - __builtin_clzll(dm)) > __builtin_ctzll(am):
            return 0
    return 1


cdef inline int hero_side_out(Ctx* c, St* s) noexcept nogil:
    """Whether every player of the hero's side is out for good (pile empty).

    Then the hero's side cannot lose any more (R20, R22: the durak, or the
    losing team, still holds cards), so the others' proof fails at once,
    whatever the history and the ply limit.  Out is for good: only a take
    brings cards into an empty hand, and a defender who covers with his last
    card has covered as many cards as he held when the bout began, the R10
    limit, so nobody throws him more; an attacker who is out is skipped (F7).
    Not with ``first_out_wins`` (the first out decides, R21).
    """
    cdef int i
    if s.pile > 0 or (c.flags & F_FOW):
        return 0
    for i in range(c.n):
        if side_of(c, i) and s.hand[i] != 0:
            return 0
    return 1


cdef inline int odd_duel(Ctx* c, St* s) noexcept nogil:
    """Between bouts, the hero out and two others left holding an odd number
    of cards between them (pile empty, no transfers, no teams, no
    ``first_out_wins``): the hero has surely escaped.

    The two play a two-player game (R18: after a take the same attacker leads
    again), which always ends (R23).  A bout that is beaten off discards as
    many cards of the defender's as of the attacker's; a take moves cards
    between them: the parity of their total never changes.  Both going out
    in the same bout (a draw, R20) needs a beaten-off last bout in which each
    sheds what he holds, the same number: an even total.  So one of them is
    the durak and the hero wins.
    """
    cdef int i, k = 0
    cdef uint64_t total = 0
    if (s.pile > 0 or s.att != 0 or s.hand[c.hero] != 0
            or (c.flags & (F_TRANSFER | F_SHOW | F_FOW | F_TEAMS))):
        return 0
    for i in range(c.n):
        if s.hand[i] != 0:
            k += 1
            total += popcount64(s.hand[i])
    return k == 2 and (total & 1) == 1


cdef inline uint64_t pair_ranks(uint64_t m) noexcept nogil:
    """The ranks (one bit each, 13 bits) of which ``m`` holds two or more cards."""
    cdef uint64_t a = m & SUIT13, b = (m >> 13) & SUIT13, x = (m >> 26) & SUIT13, d = (m >> 39) & SUIT13
    return (a & b) | (a & x) | (a & d) | (b & x) | (b & d) | (x & d)


cdef int other_leads_plies(Ctx* c, uint64_t mine, uint64_t his) noexcept nogil:
    """Two players: a lower bound on the plies before the prover (holding
    ``mine``) is out, from a lead state of the other (holding ``his``), against
    "take at once" (``duel_plies_needed``).

    Besides 2 plies per rank of the prover's (his covers shed one card each,
    his own bouts one rank each): the other may first lead, one per bout,
    the cards of his that no card of the prover's beats (R2) -- non-trumps
    by ascending rank, then trumps by ascending rank, as in ``quick_win``, so
    a card the prover picked up never beats one still to come.  Without
    transfers the prover can only take each (R11, R16): a lead and a take,
    two plies, and the card joins his hand (R18: the other leads again).  At
    most all but one of them (leading his last card would put the other out:
    no win for the prover at all, which ``quick_win`` decides).  Then he
    leads a card the prover can beat: if every card that beats it is of a
    rank the prover holds twice or more, neither the cover nor a take sheds
    a rank, two plies more (``tests/test_ply_bound.py``: a bound of four
    more there, or of two more for every card, changes distances).
    """
    cdef uint64_t tmask = SUIT13 << (13 * c.trump), unbeaten = 0, ps, hs, held, singles, rest, beaters
    cdef int su, k, r, x
    if c.flags & (F_TRANSFER | F_SHOW):
        return 2 * popcount64(rank_set(mine))
    for su in range(4):
        if su != c.trump and (mine & tmask):
            continue   # his trumps beat every non-trump
        ps = (mine >> (13 * su)) & SUIT13
        hs = (his >> (13 * su)) & SUIT13
        if ps:
            hs &= ~((((<uint64_t>1) << (63 - __builtin_clzll(ps))) << 1) - 1)
        unbeaten |= hs << (13 * su)
    k = popcount64(unbeaten)
    if k >= popcount64(his):
        return 2 * (popcount64(his) - 1) + 2 * popcount64(rank_set(mine))
    held = mine | unbeaten
    r = 2 * k + 2 * popcount64(rank_set(held))
    # Then a card the prover can beat: he covers it (the lead and the cover,
    # and his own bouts after it) or takes it (and the other leads again,
    # R18).  A cover sheds a whole rank only with a card whose rank he holds
    # once; if every card that beats it (R2) is of a rank he holds twice or
    # more, that bout sheds no rank, and taking sheds none either: two
    # plies more.
    singles = held & ~(pair_ranks(held) * SPREAD)
    rest = his & ~unbeaten
    while rest:
        x = __builtin_ctzll(rest)
        rest &= rest - 1
        su = x // 13
        beaters = held & (SUIT13 << (13 * su)) & ~((((<uint64_t>1) << x) << 1) - 1)
        if su != c.trump:
            beaters |= held & tmask
        if beaters & singles == 0:
            return r + 2
    return r


cdef int duel_plies_needed(Ctx* c, St* s, int p) noexcept nogil:
    """Two players: a lower bound on the plies before seat ``p`` (the prover)
    is out with the other still holding cards, from the other's answer
    "take every attack at once" (and lead one card, throw nothing).

    The other side may play that way, so the prover's fastest forced win is
    at least his fastest win against it.  Against it every card the prover
    sheds as attacker is taken at once, so a bout of his sheds one rank
    only (R9: the only rank on the table is his lead's, R16) for two plies
    (the lead and the take); a bout the other leads sheds one cover for two
    plies (the lead and the cover); a transfer sheds one card and is taken
    (R14); a take only adds cards.  From a lead state, with R ranks in the
    prover's hand, that is 2R plies.  Inside a bout the ranks already on
    the table can be thrown in one card (one ply) each, at most
    min(cards, 2) plies per rank (throw them, or lead them later); the
    other's open attack cards can be covered one ply each
    (``tests/test_ply_bound.py`` holds every limited answer equal without
    the bound).  Pile empty only.
    """
    cdef uint64_t hand = s.hand[p], ranks = rank_set(hand), table
    cdef int r = popcount64(ranks), ph = phase(s), u, best, cover
    if ph == PH_LEAD:
        if s.attacker == p:
            return 2 * r
        return other_leads_plies(c, hand, s.hand[s.attacker])
    if s.attacker == p:
        table = rank_set(s.att | s.cov)
        u = (popcount64(ranks & table) + popcount64(pair_ranks(hand) & table)
             + 2 * popcount64(ranks & ~table))
        # his throw-ins after the take (P4), or the take first (P2) or his
        # throw-in and then the take (P3): at least one ply more
        return u if ph == PH_TAKEN else 1 + u
    if ph == PH_THROW:
        return 1 + 2 * r          # the other passes, then the prover leads
    if ph == PH_TAKEN:            # the other passes; the prover picks the table up
        return 1 + other_leads_plies(c, hand | s.att | s.cov, s.hand[s.attacker])
    # the prover defends against ``u`` open cards: take (he keeps every card
    # he holds), cover them all (one ply each), or pass the attack on
    u = popcount64(s.opn)
    best = 1 + other_leads_plies(c, hand | s.att | s.cov, s.hand[s.attacker])
    if u <= popcount64(hand):
        cover = u if 2 * r - u < u else 2 * r - u   # then 2 a rank for the rest
        if cover < best:
            best = cover
    if c.flags & (F_TRANSFER | F_SHOW):
        if 2 * r < best:
            best = 2 * r
    return best


cdef int plies_needed(Ctx* c, St* s) noexcept nogil:
    """A lower bound on the plies before the prover's decisive result.

    Every move sheds cards of at most one rank from the mover's own hand (a
    lead is one rank, R8; a throw, cover or transfer one card) and a take
    only adds cards, so a player needs at least as many more moves as his
    hand has ranks before he is out; different players' moves are different
    plies.  Who has to be out for the prover's result (R20-R22, pile empty):
    without ``first_out_wins`` the prover's whole side, and with the hero's
    side and no teams also all but one of the others (one durak); with
    ``first_out_wins`` at least one player of the prover's side.  Used only
    with a ply limit: a node whose limit is below the bound fails at once,
    which takes the bulk of the work off the last plies of a bounded search.

    Two players: a rank of two or more cards counts two.  The prover sheds
    it either card by card (a ply each) or by leading it, and every lead
    of his is answered by the other player (a cover, take or transfer, R2,
    R14, R16) before its bout can end and the game be judged (R20): a ply
    that is not his.  Leading L ranks of multiplicities m_1..m_L and
    shedding the other cards singly costs at least sum(m_i >= 1: 1) plus
    sum over the led ranks of (2 - m_i) more than the single cards would:
    at best sum over the ranks of min(m, 2).
    """
    cdef int i, r, total = 0, low = 99, no = 0, j, t, d, ph, extra = 0
    cdef int others[MAXP]
    if s.pile > 0:
        return 0
    for i in range(c.n):
        r = popcount64(rank_set(s.hand[i]))
        if c.n == 2 and side_of(c, i) == c.prover:
            r += popcount64(pair_ranks(s.hand[i]))
        if side_of(c, i) == c.prover:
            if c.flags & F_FOW:
                if r < low:
                    low = r
            else:
                total += r
        elif c.prover and not (c.flags & (F_FOW | F_TEAMS)):
            others[no] = r
            no += 1
    ph = phase(s)
    if side_of(c, to_move(s)) != c.prover:
        # the next ply is the other side's and sheds nothing the prover's
        # result needs (the game is not over, so somebody moves)
        extra = 0 if no else 1
    elif (c.n > 2 and side_of(c, s.defender) != c.prover and s.hand[s.defender] != 0
            and (ph == PH_LEAD or (ph == PH_THROW and not no
                                   and (low if c.flags & F_FOW else total) > 0))):
        # A ply of the other side's that none of the counts above holds.
        # A lead of the prover's side to a defender of the other's: he may
        # take at once, a ply before the bout can end (R20) that sheds
        # nothing.  The throwers' turn (P3) against such a defender: the
        # prover's side still holds cards, so it needs a shed before its
        # result; a throw-in of its own is answered by the defender (P2)
        # before the bout can end, and without one the bout ends with the
        # same hands and the defender, who beat it off, leads the next (R18)
        # -- a ply not counted when only the prover's side's sheds are.
        # (Two players: ``duel_plies_needed``.)
        extra = 1
    total += extra
    if low != 99:
        low += extra
    if c.flags & F_FOW:
        total = low if low != 99 else 0
    elif no > 1:
        # the hero's side: all but one of the others must be out too
        for i in range(1, no):   # insertion sort, at most 5
            t = others[i]
            j = i - 1
            while j >= 0 and others[j] > t:
                others[j + 1] = others[j]
                j -= 1
            others[j + 1] = t
        for i in range(no - 1):
            total += others[i]
    if c.n == 2:
        d = duel_plies_needed(c, s, c.hero if c.prover else 1 - c.hero)
        if d > total:
            return d
    return total
