"""Random small positions for the solver tests and benchmarks (fixed seeds)."""
from __future__ import annotations

import random

from solver.game import movegen as engine
from solver.game.cards import card_name, cards_of, deck_mask, rank_of, to_mask
from solver.game.deal import deal_endgame, new_game
from solver.game.moves import Kind, Move
from solver.game.rules import Rules
from solver.game.state import GameState, Phase
from solver.notation import parse_position

#: Rule sets that between them switch on every option the core implements.
OPTION_SETS = [
    Rules(),
    Rules(transfer=True),
    Rules(transfer=True, transfer_by_trump_show=True),
    Rules(transfer_by_trump_show=True),
    Rules(throw_in_neighbours=True),
    Rules(trump_swap=True, first_bout_limit=True),
    Rules(trump_swap=True, transfer=True),
    Rules(first_out_wins=True),
    Rules(transfer=True, throw_in_neighbours=True, trump_swap=True, deck=52),
    Rules(deck=24),
    Rules(transfer=True, first_out_wins=True, deck=52),
]


def random_prefix(rng: random.Random, s: GameState, plies: int) -> GameState:
    """Play up to ``plies`` random legal moves (bouts in progress, takes, ...)."""
    for _ in range(plies):
        if s.is_over:
            break
        ms = engine.legal_moves(s)
        s = engine.play(s, rng.choice(ms))
    return s


def oracle_positions(seed: int, count: int, most: int = 2) -> list[tuple[GameState, int]]:
    """Small games for the retrograde oracle, each with a hero: 2-4 players,
    hands of 1..``most`` cards, bouts in progress, every option the oracle
    follows and teams.  Not first_bout_limit: the oracle drops the discard
    pile from its states, and so cannot tell when the first bout ends."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        players = rng.choice([2, 3, 3, 4])
        rules = rng.choice([r for r in OPTION_SETS if r.deck == 36 and not r.first_bout_limit]
                           + [Rules(teams=True)])
        if rules.teams and players != 4:
            continue
        sizes = [rng.randint(1, most) for _ in range(players)]
        s = random_prefix(rng, deal_endgame(rng, sizes, rules), rng.randint(0, 3))
        if not s.is_over:
            out.append((s, rng.randrange(players)))
    return out


def game_states(seed: int, count: int, pile: bool = False):
    """States of random games (2-4 players, every option set, piles and bouts in
    progress) that are not over; with ``pile`` only those with cards in the pile."""
    rng = random.Random(seed)
    for _ in range(count):
        rules = rng.choice(OPTION_SETS)
        s = random_prefix(rng, new_game(rng.choice([2, 3, 4]), rules, rng=rng), rng.randint(0, 60))
        if not s.is_over and (not pile or s.pile > 0):
            yield s


def attack_order(s: GameState) -> tuple[int, ...]:
    """The bout's attack cards in the order they were played (the playouts' table order)."""
    return tuple(a for a, _ in s.table)


def greedy_after_each_move(cs, s: GameState) -> list[tuple[int, int]]:
    """For the seat to move in ``s`` (loaded as core state ``cs``): the compiled
    greedy playout's (result, card margin) after each of its moves, in move order."""
    from solver.search.native import core
    return [tuple(core.greedy_playout(cs, s.to_move, 1500, attack_order(s), i)[:2])
            for i in range(len(cs.moves()))]


# ------------------------------------------------------------------ F15 walks
#: throw_in=neighbours with the options that change a bout's asking (F15's walks).
NEIGHBOUR_RULES = [
    Rules(throw_in_neighbours=True),
    Rules(throw_in_neighbours=True, transfer=True),
    Rules(throw_in_neighbours=True, first_out_wins=True),
    Rules(throw_in_neighbours=True, transfer=True, transfer_by_trump_show=True,
          first_out_wins=True),
]


def deal_few_ranks(rng: random.Random, players: int, rules: Rules, most: int = 3) -> GameState:
    """A pile-empty endgame of 1..``most`` cards a seat, all of two or three ranks:
    throw-ins match often, so throwers play their last cards mid-bout (F7, F15)."""
    ranks = rng.sample(sorted({rank_of(c) for c in cards_of(deck_mask(rules.deck))}),
                       rng.randint(2, 3))
    deck = [c for c in cards_of(deck_mask(rules.deck)) if rank_of(c) in ranks]
    rng.shuffle(deck)
    sizes = [rng.randint(1, most) for _ in range(players)]
    while sum(sizes) > len(deck):
        sizes[sizes.index(max(sizes))] -= 1
    hands, i = [], 0
    for k in sizes:
        hands.append(to_mask(deck[i:i + k]))
        i += k
    s = GameState(rules=rules, trump=rng.randrange(4), hands=tuple(hands), attacker=0,
                  defender=-1, out=deck_mask(rules.deck) & ~to_mask(deck[:i]))
    a = rng.choice([x for x in range(players) if hands[x]])
    return s.replace(attacker=a, defender=s.defender_for(a))


def neighbour_move(rng: random.Random, s: GameState, moves: list[Move]) -> int:
    """The index of a random move, biased towards seats going out mid-bout: the
    biggest lead, a take, a throw-in rather than a pass."""
    ph = s.phase
    idx = range(len(moves))
    if ph is Phase.LEAD and rng.random() < 0.6:
        big = max(len(m.cards) for m in moves)
        return rng.choice([i for i in idx if len(moves[i].cards) == big])
    if ph is Phase.DEFEND and rng.random() < 0.7:
        return next(i for i in idx if moves[i].kind is Kind.TAKE)
    if ph in (Phase.THROW, Phase.TAKEN) and rng.random() < 0.85:
        throws = [i for i in idx if moves[i].kind is Kind.THROW]
        if throws:
            return rng.choice(throws)
    return rng.randrange(len(moves))


def joins_before(s: GameState, move: Move, asked: bool = False) -> bool:
    """F15's case: ``move`` is a throw-in after a take (P4) of the thrower's last
    card with the pile empty, after which a seat that was not a thrower becomes
    the defender's neighbour (F7) ahead of him in R12 order -- a seat nobody asked.
    With ``asked``: and that seat can add a card then, so he is asked (F2)."""
    seat = s.to_move
    if move.kind is not Kind.THROW or not s.take or s.pile or s.hand_size(seat) != 1:
        return False
    hands = list(s.hands)
    hands[seat] = 0
    after = s.replace(hands=tuple(hands), table=s.table + ((move.cards[0], -1),))
    n, a = s.players, s.attacker
    return any((x - a) % n < (seat - a) % n and (not asked or after.can_throw(x))
               for x in set(after.throw_order()) - set(s.throw_order()))


def f15_position(rng: random.Random, small: bool = False) -> GameState:
    """F15's case built directly, 5 or 6 players under throw_in=neighbours: the
    main attacker has gone out with his lead (F7), the defender has taken, the
    seat before the attacker -- now the defender's neighbour on that side -- is
    asked (``turn``: the main attacker and the other neighbour have passed) and
    holds one card, of the lead's rank; the seat before him holds one too, so
    he is asked once the thrower has gone out.  ``small``: few cards elsewhere
    (for the pure-Python oracles)."""
    n = rng.choice([5, 6])
    rules = rng.choice(NEIGHBOUR_RULES)
    a = rng.randrange(n)
    d, left, thrower, joiner = (a + 1) % n, (a + 2) % n, (a - 1) % n, (a - 2) % n
    ranks = rng.sample(range(6, 15), 3 if small else 4)
    deck = [c for c in cards_of(deck_mask(36)) if rank_of(c) in ranks[1:]]
    lead_rank = [c for c in cards_of(deck_mask(36)) if rank_of(c) == ranks[0]]
    rng.shuffle(deck)
    rng.shuffle(lead_rank)
    lead = lead_rank[:rng.choice([1, 1, 2])]
    hands = [[] for _ in range(n)]
    hands[thrower].append(lead_rank[2])
    hands[joiner].append(lead_rank[3])
    # the defender has room for both throw-ins, or (F2) only for the thrower's
    sizes = {d: len(lead) + rng.randint(1, 2 if small else 3),
             left: rng.randint(1, 1 if small else 3), joiner: rng.randint(0, 1 if small else 2)}
    for seat in range(n):
        if seat not in (a, thrower) and seat not in sizes:
            sizes[seat] = rng.randint(0 if small else 1, 1 if small else 2)
    for seat, k in sizes.items():
        hands[seat] += [deck.pop() for _ in range(k)]
    text = (f"trump {'SHDC'[rng.randrange(4)]}; hands "
            + " | ".join(" ".join(card_name(c) for c in h) or "-" for h in hands)
            + f"; table {' '.join(card_name(c) for c in lead)}; attacker {a + 1}; take; "
            f"turn {thrower + 1}; rules {rules}")
    return parse_position(text).state


def cards_in_play(s: GameState) -> int:
    """Cards in hands and on the table."""
    return sum(s.hand_size(x) for x in range(s.players)) + bin(s.table_mask).count("1")


# deal_endgame: the tests import it from here
__all__ = ["NEIGHBOUR_RULES", "OPTION_SETS", "attack_order", "cards_in_play", "deal_endgame",
           "deal_few_ranks", "f15_position", "game_states", "greedy_after_each_move",
           "joins_before", "neighbour_move", "random_prefix"]
