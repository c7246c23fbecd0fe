"""Dealing a new game from a seed (R5, R6, R10 option, R7).

The random generator is passed in or made from the seed; nothing here keeps
module-level state, so a seed always gives the same game.
"""
from __future__ import annotations

import random

from solver.errors import OptionError
from solver.game.cards import bit, cards_of, deck_mask, rank_of, suit_of, to_mask
from solver.game.rules import HAND_SIZE, Rules, bout_cap
from solver.game.state import GameState


def hands_of_sizes(cards: list[int], sizes: list[int]) -> list[int]:
    """Cut a card sequence into hands (card masks) of the given sizes, in order."""
    hands, i = [], 0
    for k in sizes:
        hands.append(to_mask(cards[i:i + k]))
        i += k
    return hands


def new_game(players: int = 2, rules: Rules | None = None,
             seed: int | None = None, rng: random.Random | None = None) -> GameState:
    """Shuffle, deal six cards each, turn up the trump, find the first attacker.

    The dealer is the last seat; dealing starts at seat 1.  R5: the next card is
    turned up and lies at the bottom of the pile; when nothing is left (six
    players, 36 cards) the dealer's last card shows the trump and he keeps it.
    R6: the holder of the lowest trump leads; if nobody holds one, the seat
    after the dealer (seat 1) leads.
    """
    rules = rules or Rules()
    if not 2 <= players <= 6:
        raise OptionError(f"players: {players} is not between 2 and 6")
    if rules.teams and players != 4:
        raise OptionError("players: teams=2v2 needs exactly 4 players")
    deck = list(cards_of(deck_mask(rules.deck)))
    if players * HAND_SIZE > len(deck):
        raise OptionError(f"players: {players} players need {players * HAND_SIZE} cards, "
                         f"the deck has {len(deck)}")
    rng = rng or random.Random(seed)
    rng.shuffle(deck)
    hands = [0] * players
    for i in range(HAND_SIZE):
        for s in range(players):
            hands[s] |= bit(deck[i * players + s])
    rest = deck[players * HAND_SIZE:]
    if rest:
        trump_card = rest[0]
        pile_order = tuple(rest[1:]) + (trump_card,)
        trump = suit_of(trump_card)
    else:
        trump_card = -1
        pile_order = None
        trump = suit_of(deck[players * HAND_SIZE - 1])  # the dealer's last card
    leader = 0
    best = 99
    for s in range(players):
        for c in cards_of(hands[s]):
            if suit_of(c) == trump and rank_of(c) < best:
                best, leader = rank_of(c), s
    state = GameState(
        rules=rules, trump=trump, hands=tuple(hands), attacker=leader, defender=-1,
        pile=len(rest), trump_card=trump_card if rest else -1, pile_order=pile_order,
        cap=bout_cap(rules, 0),
    )
    return state.replace(defender=state.defender_for(leader))


def deal_endgame(rng: random.Random, sizes: list[int], rules: Rules = Rules(),
                 attacker: int | None = None, trump: int | None = None) -> GameState:
    """A random endgame: hands of the given sizes from a shuffled deck, the rest
    discarded, the pile empty (the solver's benchmark and test families)."""
    deck = list(cards_of(deck_mask(rules.deck)))
    rng.shuffle(deck)
    hands = hands_of_sizes(deck, sizes)
    out = to_mask(deck[sum(sizes):])
    if trump is None:
        trump = rng.randrange(4)
    holders = [s for s, h in enumerate(hands) if h]
    if attacker is None:
        attacker = rng.choice(holders)
    s = GameState(rules=rules, trump=trump, hands=tuple(hands), attacker=attacker,
                  defender=-1, out=out)
    return s.replace(defender=s.defender_for(attacker))


def deal_known_pile(rng: random.Random, hands: tuple[int, int], pile: int,
                    rules: Rules = Rules(), attacker: int | None = None,
                    fresh: bool = False) -> GameState:
    """A two-player position with the pile's order known (double dummy): hands
    of the given sizes, a pile of ``pile`` cards with the face-up trump last
    (R5), the rest of the deck discarded; ``fresh``: a first bout is still
    ahead (the R10 option's cap), as if the rest had never been dealt.

    Every draw is then known (R17), so the game is one of perfect information:
    the positions of the double-dummy benchmark and of its tests."""
    deck = list(cards_of(deck_mask(rules.deck)))
    rng.shuffle(deck)
    a, b = hands
    if pile < 1 or a + b + pile > len(deck):
        raise OptionError(f"pile: {a} + {b} cards in hand and a pile of {pile} "
                          f"do not fit a deck of {len(deck)}")
    h = (to_mask(deck[:a]), to_mask(deck[a:a + b]))
    order = tuple(deck[a + b:a + b + pile])
    trump_card = order[-1]
    att = rng.randrange(2) if attacker is None else attacker
    return GameState(rules=rules, trump=suit_of(trump_card), hands=h, attacker=att,
                     defender=1 - att, pile=pile, trump_card=trump_card, pile_order=order,
                     out=to_mask(deck[a + b + pile:]), cap=bout_cap(rules, 0) if fresh else 6)
