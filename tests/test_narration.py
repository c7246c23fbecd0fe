"""The game as it is told at a table (solver/games/narration.py, issue 61): over random
games against the engine and followed games, every bout end and every draw is told
exactly once, the narration alone replays to the state the game is in, and it names
no card the player has not seen."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from solver.game.cards import bit, cards_of, count, make_card, DECK_LOW_RANK
from solver.game.moves import Kind
from solver.game.rules import parse_rules
from solver.game.state import GameState
from solver.games.narration import BOUT_ENDS, Told
from solver.play.seats import GameSession

from test_game_session import RULES, follow_from, full_game, type_in


@dataclass
class Tally:
    """The game as a listener keeps it from the narration alone: each hand's size,
    the pile, the discards, the player's own cards, who leads against whom."""

    sizes: list[int]
    pile: int
    mine: int
    me: int
    face_up: int
    trump: int
    low: int
    out: int = 0
    attacker: int = 0
    defender: int = 0
    bout_ends: int = 0
    draws: list[tuple[int, int]] = field(default_factory=list)

    def hear(self, t: Told) -> None:
        me = self.me
        if t.kind == "move":
            assert t.move is not None
            k = t.move.kind
            if k in (Kind.LEAD, Kind.COVER, Kind.THROW, Kind.TRANSFER):
                self.sizes[t.seat - 1] -= len(t.move.cards)
                if t.seat == me:
                    self.mine &= ~sum(bit(c) for c in t.move.cards)
            if k is Kind.SWAP:  # R7: the trump six for the face-up trump, which it replaces
                six = make_card(self.low, self.trump)
                if t.seat == me:
                    self.mine = self.mine & ~bit(six) | bit(self.face_up)
                self.face_up = six
        elif t.kind in BOUT_ENDS:
            self.bout_ends += 1
            if t.kind == "taken":
                self.sizes[t.seat - 1] += t.count
                if t.seat == me:
                    self.mine |= sum(bit(c) for c in t.cards)
            else:
                self.out += t.count
        elif t.kind == "draw":
            self.sizes[t.seat - 1] += t.count
            self.pile -= t.count
            self.draws.append((t.seat, t.count))
            if t.seat == me:
                assert len(t.cards) == t.count  # your own draw: every card by name
                self.mine |= sum(bit(c) for c in t.cards)
            else:  # another seat's: only the face-up trump, the pile's last card
                assert set(t.cards) <= {self.face_up}
        elif t.kind == "turn":
            self.attacker, self.defender = t.seat, t.to

    def agrees(self, s: GameState) -> None:
        assert self.sizes == [s.hand_size(x) for x in range(s.players)]
        assert self.pile == s.pile
        assert self.out == count(s.out)
        assert self.mine == s.hands[self.me - 1]
        if not s.table and not s.is_over:
            assert (self.attacker, self.defender) == (s.attacker + 1, s.defender + 1)


def tally_for(s: GameSession) -> Tally:
    start = s.game.start()
    return Tally(sizes=[start.hand_size(x) for x in range(start.players)], pile=start.pile,
                 mine=start.hands[s.me - 1], me=s.me, face_up=start.trump_card,
                 trump=start.trump, low=DECK_LOW_RANK[start.rules.deck],
                 attacker=start.attacker + 1, defender=start.defender + 1)


def bout_ends_and_draws(s: GameSession) -> tuple[int, list[tuple[int, int]]]:
    """The bouts ended and the draws (seat, cards) of the record, from its states:
    what the narration must tell, found without it."""
    states = s.game.positions()
    ends, draws = 0, []
    for i, (_, mv) in enumerate(s.game.moves):
        before, after = states[i], states[i + 1]
        if before.table and not after.table:
            ends += 1
            if before.pile:
                n = before.players
                order = [x for x in ((before.attacker + k) % n for k in range(n))
                         if x != before.defender] + [before.defender]
                for x in order:
                    held = before.hand_size(x)
                    if x == before.to_move and mv.kind in (Kind.COVER, Kind.THROW):
                        held -= 1
                    if x == before.defender and (before.take or mv.kind is Kind.TAKE):
                        held += len(before.table) + sum(1 for _, c in before.table if c >= 0) \
                            + (1 if mv.kind is Kind.THROW else 0)
                    if after.hand_size(x) > held:
                        draws.append((x + 1, after.hand_size(x) - held))
    return ends, draws


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), rules=st.sampled_from(RULES))
def test_a_game_against_the_engine_is_told_once_and_replays_from_the_telling(seed, players,
                                                                               rules):
    """Every entry's narration, heard alone, keeps a tally that equals the game after
    it (hand sizes, pile, discards, the player's own cards, who leads); every bout
    end and every draw of the record is told once; the narration asked again after
    a reload is the same."""
    if "teams" in rules:
        players = 4
    if "deck=24" in rules:
        players = min(players, 4)
    s = GameSession.new(players, parse_rules(rules), seed=seed, human=1, engine="greedy")
    rng = random.Random(seed)
    tally = tally_for(s)
    heard: list[Told] = []
    while not s.is_over:
        acc = s.engine_move() if s.engine_to_move else s.enter(rng.choice(s.turn().moves))
        for t in acc.told:
            tally.hear(t)
        heard.extend(acc.told)
        tally.agrees(s.state)
    ends, draws = bout_ends_and_draws(s)
    assert tally.bout_ends == ends and tally.draws == draws
    assert [t.kind for t in heard].count("over") == 1 and heard[-1].kind in ("over", "out")
    again = GameSession.load(s.record_text())
    assert again.told() == heard
    assert [x["text"] for x in again.log()] == [t.text() for t in heard]


@pytest.mark.parametrize("seed,players,rules,seat", [(7, 2, "", 1), (8, 2, "transfer", 2),
                                                     (9, 3, "", 1), (10, 4, "throw_in=neighbours", 3),
                                                     (11, 3, "trump_swap", 2)])
def test_a_followed_game_tells_your_draw_once_when_you_name_it(seed, players, rules, seat):
    """A followed game: the player's draw is told when he names the cards (with the
    face-up trump if it was among them), the others' as counts; the narration
    replays to the state wherever no draw is waiting to be named."""
    game = full_game(seed, players, rules)
    s = follow_from(game, seat)
    type_in(s, game.for_seat(seat).tokens())
    tally = tally_for(s)
    told = s.told()
    # walk the entries again, each with its own narration
    replay = follow_from(game, seat)
    for entry in s.entries:
        acc = replay.enter(entry)
        for t in acc.told:
            tally.hear(t)
        if not replay.turn().draw_due:
            tally.agrees(replay.state)
    ends, draws = bout_ends_and_draws(s)
    assert tally.bout_ends == ends and sorted(tally.draws) == sorted(draws)
    assert [t.text() for t in told] == [t.text() for t in replay.told()]


def test_the_telling_in_words():
    """The lines a player reads: cards for people, "you" for the player, no rule ids."""
    s = GameSession.follow(2, "9H", "6S 7S KH 8C 9C AC", me=1, attacker=2)
    lines = [t.text() for line in ("6D", "KH", "pass", "7h") for t in s.enter(line).told]
    assert lines == ["Seat 2 leads 6♦", "You cover 6♦ with K♥", "Seat 2: done",
                     "Beaten off by you: 6♦ K♥ to the discards", "Seat 2 draws 1 card",
                     "You draw 7♥", "You lead against seat 2"]
    assert [t.text(symbols=False) for t in s.told()][:2] == ["Seat 2 leads 6D",
                                                             "You cover 6D with KH"]
    log = s.log()
    assert log[0] == {"kind": "move", "seat": 2, "cards": ["6D"], "count": 0, "to": None,
                      "move": "6D", "text": "Seat 2 leads 6♦", "entry": 1}
    assert log[-2]["entry"] == 4 and log[-2]["cards"] == ["7H"] and log[-1]["kind"] == "turn"


@pytest.mark.parametrize("seed,players,rules", [(21, 2, ""), (22, 3, ""), (23, 2, "transfer"),
                                                (24, 4, "throw_in=neighbours")])
def test_f2_another_seats_pass_is_told_as_done_at_the_bouts_end_whether_asked_or_not(
        seed, players, rules):
    """docs/rules.md, under F2 (issue 68): the engine asks a thrower only when he holds a
    card he may add, and no real table tells that, so another seat's pass is never told
    when it is made, and every bout's end tells "done" for each other seat that could
    have added cards -- the same lines whether it passed or was never asked."""
    s = GameSession.new(players, parse_rules(rules), seed=seed, human=1, engine="greedy")
    rng = random.Random(seed)
    passes = ends = 0
    while not s.is_over:
        before = s.state
        acc = s.engine_move() if s.engine_to_move else s.enter(rng.choice(s.turn().moves))
        told = list(acc.told)
        passes += sum(1 for t in told if t.kind == "move" and t.move.kind is Kind.PASS
                      and t.seat != s.me)
        for i, t in enumerate(told):
            if t.kind not in BOUT_ENDS:
                continue
            ends += 1
            done = [u.seat for u in told[:i] if u.kind == "done"]
            want = [x + 1 for x in ((before.attacker + k) % players for k in range(players))
                    if x + 1 != s.me and x != before.defender and before.hand_size(x) > 0]
            assert done == want, (done, want)
    assert passes == 0 and ends > 3
    assert "Seat 2: done" in [t.text() for t in s.told()]
