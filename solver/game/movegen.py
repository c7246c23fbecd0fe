"""The rules engine: legal moves and their effect (P1-P4, R8-R20).

This is the readable reference of RULES.md.  It favours clarity over speed;
the Cython core (:mod:`solver._core`) implements the same rules over bitmasks
and is cross-checked against this module state by state.

Moves are generated in a canonical order: leads by rank then by card set, covers
by attack card then by covering card, then take, transfers, shows; throw-ins by
card, then pass.
"""
from __future__ import annotations

from itertools import combinations

from solver.errors import HiddenCardsError, IllegalMoveError
from solver.i18n import _
from solver.game.cards import (DECK_LOW_RANK, beaters, bit, cards_of, count, make_card, rank_mask,
                               rank_of)
from solver.game.moves import PASS, SWAP, TAKE, Kind, Move
from solver.game.rules import HAND_SIZE, bout_cap
from solver.game.state import NO_COVER, GameState, Phase


def lead_limit(state: GameState) -> int:
    """F6: the R10 limit of a bout about to start: min(cap, defender's hand)."""
    return min(state.cap, state.hand_size(state.defender))


def _mover_hand(state: GameState, seat: int) -> int:
    if state.hidden[seat]:
        raise HiddenCardsError(
            _("the hand of seat {seat} holds hidden cards; its moves are not known").format(
                seat=seat + 1))
    return state.hands[seat]


def legal_moves(state: GameState) -> list[Move]:
    """Every legal move of the seat to move, in canonical order (empty when over)."""
    ph = state.phase
    if ph is Phase.OVER:
        return []
    seat = state.to_move
    hand = _mover_hand(state, seat)
    moves: list[Move] = []
    if ph is Phase.LEAD:
        # P1, R8, F4: one card, or several of one rank up to the limit.
        limit = lead_limit(state)
        by_rank: dict[int, list[int]] = {}
        for c in cards_of(hand):
            by_rank.setdefault(rank_of(c), []).append(c)
        for r in sorted(by_rank):
            cs = by_rank[r]
            for k in range(1, min(len(cs), limit) + 1):
                for combo in combinations(cs, k):
                    moves.append(Move.lead(*combo))
    elif ph is Phase.DEFEND:
        # P2: cover one open card, take (R11), or transfer (R14, F5).
        for a in sorted(state.open_attacks):
            for c in cards_of(beaters(a, hand, state.trump)):
                moves.append(Move.cover(a, c))
        moves.append(TAKE)
        moves.extend(_transfers(state, hand))
    else:
        # P3 / P4: the thrower asked adds a card of a table rank, or passes (F2).
        ranks = state.table_ranks()
        if len(state.table) < state.limit:
            for c in cards_of(hand):
                if rank_of(c) in ranks:
                    moves.append(Move.throw(c))
        moves.append(PASS)
    if _can_swap(state, seat):
        moves.append(SWAP)
    return moves


def _transfers(state: GameState, hand: int) -> list[Move]:
    """R14, F5: transfers open to the defender (card transfers, then shows)."""
    rules = state.rules
    if not rules.any_transfer or state.covered_any or state.take:
        return []
    rank = rank_of(state.table[0][0])
    new_def = state.defender_for(state.defender)
    if new_def < 0:
        return []
    out: list[Move] = []
    n_att = len(state.table)
    size = state.hand_size(new_def)
    if n_att + 1 <= state.cap and size >= n_att + 1:
        for c in cards_of(hand & rank_mask(rank)):
            out.append(Move.transfer(c))
    if rules.transfer_by_trump_show and size >= n_att:
        t = make_card(rank, state.trump)
        if hand & bit(t) and not state.shown & bit(t):
            out.append(Move.show(t))
    return out


def _swap_card(state: GameState) -> int:
    return make_card(DECK_LOW_RANK[state.rules.deck], state.trump)


def _can_swap(state: GameState, seat: int) -> bool:
    """R7: the holder of the lowest trump may swap it for the face-up trump."""
    if not state.rules.trump_swap or state.pile <= 0 or state.trump_card < 0:
        return False
    low = _swap_card(state)
    return state.trump_card != low and bool(state.hands[seat] & bit(low))


def apply_move(state: GameState, move: Move) -> GameState:
    """The state after ``move``; raises :class:`IllegalMoveError` if it is not legal."""
    if move not in legal_moves(state):
        raise IllegalMoveError(_("illegal move {move} in this position").format(
            move=repr(str(move))))
    return play(state, move)


def play(state: GameState, move: Move, skipped: list[int] | None = None) -> GameState:
    """Apply a move known to be legal (no check), then settle the bout (F2).

    ``skipped``, when given, gets the throwers passed over because they held no
    card they could add (F2: public, everyone sees they were not asked; the
    hint engine's inference uses it, :class:`solver.hints.knowledge.HandFact`).
    Not after a swap, which changes the swapper's hand before the asking.
    """
    seat = state.to_move
    hands = list(state.hands)
    k = move.kind
    if k is Kind.SWAP:
        low = _swap_card(state)
        hands[seat] = hands[seat] & ~bit(low) | bit(state.trump_card)
        order = state.pile_order
        if order is not None:
            order = order[:-1] + (low,)
        s = state.replace(hands=tuple(hands), trump_card=low, pile_order=order)
        if s.phase in (Phase.THROW, Phase.TAKEN) and seat in s.throw_order():
            # F2: the swap may have given away the thrower's only card of a table rank.
            order_ = s.throw_order()
            return settle(s, candidates=order_[order_.index(seat):])
        return s
    if k is Kind.LEAD:
        for c in move.cards:
            hands[seat] &= ~bit(c)
        s = state.replace(
            hands=tuple(hands),
            table=tuple((c, NO_COVER) for c in move.cards),
            limit=lead_limit(state),
            shown=0,
        )
        return settle(s, skipped=skipped)
    if k is Kind.COVER:
        c = move.cards[0]
        hands[seat] &= ~bit(c)
        table = tuple((a, c if a == move.target else cv) for a, cv in state.table)
        return settle(state.replace(hands=tuple(hands), table=table, turn=-1), skipped=skipped)
    if k is Kind.TAKE:
        return settle(state.replace(take=True, turn=-1), skipped=skipped)
    if k in (Kind.TRANSFER, Kind.SHOW):
        c = move.cards[0]
        table = state.table
        shown = state.shown
        if k is Kind.TRANSFER:
            hands[seat] &= ~bit(c)
            table = table + ((c, NO_COVER),)
        else:
            shown |= bit(c)
        s = state.replace(hands=tuple(hands), table=table, shown=shown)
        new_def = s.defender_for(seat)  # F7: passes over seats that went out
        s = s.replace(
            attacker=seat,
            defender=new_def,
            limit=min(s.cap, s.hand_size(new_def)),
        )
        return settle(s, skipped=skipped)
    if k is Kind.THROW:
        c = move.cards[0]
        hands[seat] &= ~bit(c)
        table = state.table + ((c, NO_COVER),)
        # P3: back to the defender, next round asks from the main attacker.
        # P4 (F3): the same seat is asked again.
        turn = seat if state.take else -1
        s = state.replace(hands=tuple(hands), table=table, turn=turn)
        if state.take and not s.active(seat):
            # F15 (F3, F7, F11): he has played his last card and gone out.  Ask every
            # thrower who has not passed, in R12 order: the seats after him, and a seat
            # that has just become the defender's neighbour -- even one before him in
            # R12 order, who was never asked.  Only the seats before him in the order
            # he was asked in have passed.
            asked = state.throw_order()
            passed = asked[:asked.index(seat)]
            return settle(s, candidates=[t for t in s.throw_order() if t not in passed],
                          skipped=skipped)
        return settle(s, skipped=skipped)
    if k is Kind.PASS:
        throwers = state.throw_order()
        after = throwers[throwers.index(seat) + 1:] if seat in throwers else []
        return settle(state, candidates=after, skipped=skipped)
    raise AssertionError(f"unknown move kind {k}")


def settle(state: GameState, candidates: list[int] | None = None,
           skipped: list[int] | None = None) -> GameState:
    """After a move: find the thrower to ask (F2) or end the bout.

    ``candidates`` are the throwers still to be asked, in R12 order (default:
    all of them, or from ``state.turn`` on in P4).  Public because the notation
    settles P3/P4 positions the same way (solver.notation.build).
    """
    if not state.table:
        return state
    if not state.take and state.open_attacks:
        return state  # P2: the defender is to move
    if candidates is None:
        order = state.throw_order()
        if state.take and state.turn >= 0:
            # P4, F3: the seat asked has added a card and is asked again; the seats
            # before him in R12 order have passed.  (A thrower who has just gone
            # out is no longer in the order: play() asks the others, F15.)
            candidates = order[order.index(state.turn):]
        else:
            candidates = order
    for s in candidates:
        if state.can_throw(s):
            return state.replace(turn=s)
        if skipped is not None and len(state.table) < state.limit:
            skipped.append(s)  # room on the table, so he held no card of a table rank
    return end_bout(state)


def end_bout(state: GameState) -> GameState:
    """R15-R18: discard or pick up, draw, and set up the next bout."""
    hands = list(state.hands)
    hidden = list(state.hidden)
    out = state.out
    d = state.defender
    taken = state.take
    if taken:
        hands[d] |= state.table_mask  # R16
    else:
        out |= state.table_mask  # R15
    # R17: main attacker first, the others in seat order after him, defender last.
    pile = state.pile
    order = state.pile_order
    n = state.players
    trump_card = state.trump_card
    if pile > 0:
        drawers = [(state.attacker + k) % n for k in range(n)]
        drawers = [s for s in drawers if s != d] + [d]
        for s in drawers:
            need = HAND_SIZE - (count(hands[s]) + hidden[s])
            while need > 0 and pile > 0:
                if order is not None:
                    hands[s] |= bit(order[0])
                    order = order[1:]
                elif pile == 1:
                    hands[s] |= bit(trump_card)  # the face-up trump is drawn last
                else:
                    hidden[s] += 1
                pile -= 1
                need -= 1
        if pile == 0:
            trump_card = -1
            order = None
    after = state.replace(
        hands=tuple(hands), hidden=tuple(hidden), out=out, table=(), take=False,
        turn=-1, pile=pile, pile_order=order, trump_card=trump_card, limit=0,
        shown=0, cap=bout_cap(state.rules, out),
    )
    # R18: after success the defender leads, after a take the seat after him.
    if taken:
        leader = after.next_active(d)
    else:
        leader = d if after.active(d) else after.next_active(d)
    if after.outcome() is not None or leader < 0:
        return after.replace(attacker=-1 if leader < 0 else leader, defender=-1)
    return after.replace(attacker=leader, defender=after.defender_for(leader))
