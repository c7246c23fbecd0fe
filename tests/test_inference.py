"""Inference from the opponents' moves (S3): the opponent model, a deal's likelihood,
the window since the last hidden draw (R17), weighted hints and the match bot.

The oracle throughout is the real game: the tracker follows a fully dealt game,
so the true hands at every earlier decision are known and the likelihood of the
true deal can be set against that of the sampler's uniform deals.
"""
from __future__ import annotations

import math
import random

import pytest
from builders import after, state

from solver.game.cards import bit, count
from solver.game.deal import new_game
from solver.game.movegen import legal_moves
from solver.game.moves import PASS, Move
from solver.game.rules import parse_rules
from solver.hints import hint_knowledge
from solver.hints.inference import (EPSILON, NoisyGreedy, deal_weights, fit_epsilon,
                                    game_decisions, kish, log_likelihood)
from solver.hints.knowledge import Observation, PublicTracker, public_state
from solver.hints.ranking import aggregate, choose, keep_default
from solver.hints.sampler import Sampler
from solver.play.match import HintPolicy, MatchSpec, make_policy, match, play_game
from solver.policy.bots import GreedyPolicy, RandomPolicy, greedy_move

#: Floor of a log-likelihood when averaging (a deal made impossible by F2 is -inf).
FLOOR = -30.0


class Flat:
    """Every move equally likely whatever the hand: weighs every deal alike."""

    def prob(self, state, move) -> float:
        return 1.0


def played_games(players: int, rules: str, seeds, hint_seat: int | None = 0):
    """Fully dealt games of a small hint bot (no inference, 8 deals) against greedy
    players, as (tracker, states before each move)."""
    out = []
    for seed in seeds:
        start = new_game(players, parse_rules(rules), seed=seed)
        pols = [GreedyPolicy() for _ in range(players)]
        if hint_seat is not None:
            pols[hint_seat % players] = HintPolicy(samples=8, inference=False)
        rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
        _, moves, _, _, _ = play_game(pols, start, rngs)
        t = PublicTracker(start)
        states = []
        for mv in moves:
            states.append(t.state)
            t.play(mv)
        out.append((start, moves, states))
    return out


def trackers_along(start, moves, every: int = 1):
    """The tracker before each ``every``-th move of a game, with the move index."""
    t = PublicTracker(start)
    for i, mv in enumerate(moves):
        if i % every == 0:
            yield i, t
        t.play(mv)


# ------------------------------------------------------------------ the model
def test_noisy_greedy_is_a_distribution_over_the_legal_moves():
    for players, rules in [(2, ""), (2, "transfer"), (3, "")]:
        for start, moves, states in played_games(players, rules, range(2), hint_seat=None):
            for s in states[::3]:
                legal = legal_moves(s)
                m = NoisyGreedy(0.2)
                ps = [m.prob(s, mv) for mv in legal]
                # F2: a thrower is asked only with a card to add, so pass never has probability 0
                assert abs(sum(ps) - 1) < 1e-9
                g = greedy_move(s)
                assert max(ps) == m.prob(s, g) > 0.8 / len(legal) + 0.2 / len(legal) - 1e-12


def test_F2_a_pass_without_a_card_to_add_is_impossible():
    # seat 1 led 7S, seat 2 covered; seat 1 is asked (P3) with or without a seven or eight
    s = after(state(["7S 7D 9C", "8S 6C AD"], trump="H", attacker=0), "7S", "7S/8S")
    assert s.to_move == 0 and s.phase.name == "THROW"
    m = NoisyGreedy(0.2)
    assert m.prob(s, PASS) > 0
    lone = s.replace(hands=(s.hands[0] & ~bit(Move.parse("7D").cards[0]) | bit(Move.parse("KC").cards[0]),
                            s.hands[1]))
    assert not any(mv.kind.name == "THROW" for mv in legal_moves(lone))
    assert m.prob(lone, PASS) == 0.0


def test_fit_epsilon_finds_the_maximum_likelihood():
    rng = random.Random(3)
    for true_eps in (0.05, 0.3, 0.7):
        data = []
        for _ in range(4000):
            n = rng.randint(2, 9)
            greedy = rng.random() < 1 - true_eps + true_eps / n
            data.append((n, greedy))
        e = fit_epsilon(data)
        assert abs(e - true_eps) < 0.05

        def ll(x):
            return sum(math.log((1 - x) * g + x / n) for n, g in data)
        for other in (e - 0.01, e + 0.01):
            assert ll(e) >= ll(other)
    assert fit_epsilon([(3, True), (5, True)]) == 0.0
    assert fit_epsilon([(3, False)]) == 1.0
    assert 0 < EPSILON < 1


def test_hint_players_depart_from_greedy_so_epsilon_is_not_zero():
    data = []
    for start, moves, _ in played_games(2, "", range(3)):
        data += game_decisions(start, moves)
    assert len(data) > 50
    assert 0.02 < fit_epsilon(data) < 0.6


# ------------------------------------------------------------------ the window
@pytest.mark.parametrize("players,rules", [(2, ""), (2, "transfer"), (3, ""),
                                           (4, "transfer,trump_swap")])
def test_R17_hand_reconstructed_within_the_window_is_the_true_one(players, rules):
    seen = 0
    for seed in range(4):
        start = new_game(players, parse_rules(rules), seed=seed)
        t = PublicTracker(start)
        rng = random.Random(seed)
        states = []
        while not t.state.is_over and len(states) < 300:
            states.append(t.state)
            for seat in range(players):
                obs = t.observations(seat)
                for ob in obs:
                    seen += 1
                    assert ob.mover != seat
                    assert ob.hand_then(t.state.hands[ob.mover]) == states[ob.index].hands[ob.mover]
                    assert ob.state_then(t.state.hands[ob.mover]).hands[ob.mover] == \
                        states[ob.index].hands[ob.mover]
                    assert ob.move == t.history[ob.index]
                    assert ob.before == public_state(states[ob.index])
                # the window: every decision of a seat after its last hidden draw, none before
                for o in range(players):
                    if o == seat or not t.state.hands[o] & ~t.known[o]:
                        continue
                    last = max((i for i in range(len(t.history)) if t.changes[i][o][2]),
                               default=-1)
                    want = [i for i in range(last + 1, len(t.history)) if t.movers[i] == o]
                    assert [ob.index for ob in obs if ob.mover == o] == want
            s = t.state
            mv = greedy_move(s) if seed % 2 else RandomPolicy().choose(s, s.to_move, rng)
            t.play(mv)
    assert seen > 200


def test_R17_a_hidden_draw_closes_the_window_and_a_pick_up_does_not():
    s = new_game(2, seed=4)
    t = PublicTracker(s)
    leader = s.to_move
    t.play(greedy_move(s))              # the lead
    t.play(Move.parse("take"))          # R11
    while t.state.table:                # P4, then R16 and R17: the leader draws, the taker not
        t.play(greedy_move(t.state))
    taker = 1 - leader
    assert count(t.state.hands[taker]) > 6  # he drew nothing: his window goes back to the take
    obs = t.observations(leader)
    assert [ob.index for ob in obs] == [1]
    assert obs[0].hand_then(t.state.hands[taker]) == s.hands[taker]
    # the leader drew hidden cards: his lead is outside his window
    assert t.observations(taker) == ()


# ------------------------------------------------------------------ likelihoods
@pytest.mark.parametrize("players", [2, 3])
def test_true_hands_are_more_likely_than_uniform_deals(players):
    """Over recorded hint-vs-greedy games the real deal explains the opponents' moves
    better than the sampler's uniform deals do."""
    model = NoisyGreedy()
    rng = random.Random(5)
    true_ll, uniform_ll, positions = [], [], 0
    for start, moves, _ in played_games(players, "", range(6 if players == 2 else 4)):
        for i, t in trackers_along(start, moves, every=2):
            seat = t.state.to_move
            obs = t.observations(seat)
            if not obs:
                continue
            positions += 1
            real = log_likelihood(t.state, obs, model)
            assert real > -math.inf  # the real deal never contradicts the F2 fact
            sampler = Sampler(t.knowledge(seat))
            true_ll.append(real)
            for _ in range(8):
                uniform_ll.append(max(FLOOR, log_likelihood(sampler.sample(rng), obs, model)))
    assert positions > 50
    mean_true = sum(true_ll) / len(true_ll)
    mean_uniform = sum(uniform_ll) / len(uniform_ll)
    assert mean_true > mean_uniform + 0.3, (mean_true, mean_uniform)


def test_weights_are_normalised_and_kish_is_between_1_and_n():
    rng = random.Random(2)
    for n in (1, 2, 10, 128):
        lls = [rng.uniform(-20, 0) if rng.random() < 0.9 else -math.inf for _ in range(n)]
        w = deal_weights(lls)
        assert abs(sum(w.weights) - 1) < 1e-12 and len(w.weights) == n
        if any(x > -math.inf for x in lls):
            assert not w.fallback
            assert 1 - 1e-9 <= w.effective <= n + 1e-9
        assert all((x == -math.inf) == (wt == 0) for x, wt in zip(lls, w.weights)) or w.fallback
    assert kish([0.25] * 4) == pytest.approx(4)
    assert kish([1.0, 0.0, 0.0]) == pytest.approx(1)
    none = deal_weights([-math.inf] * 5)
    assert none.fallback and none.weights == (0.2,) * 5


def positions_with_observations(count_: int, players: int = 2):
    """Trackers at decisions of a greedy game where the seat to move has observations."""
    out = []
    for start, moves, _ in played_games(players, "", range(6), hint_seat=None):
        for i, t in trackers_along(start, moves):
            seat = t.state.to_move
            obs = t.observations(seat)
            if obs and len(legal_moves(t.state)) > 1 and t.state.pile > 2:
                k = t.knowledge(seat)
                out.append((k, obs))
                break
        if len(out) >= count_:
            break
    return out


def without_inference_fields(obj):
    return {k: v for k, v in obj.items() if k not in ("effective_deals", "inference")}


def test_no_observations_or_a_flat_model_give_the_unweighted_answer():
    pos = positions_with_observations(4)
    assert len(pos) >= 3
    for k, obs in pos:
        base = hint_knowledge(k, samples=24, seed=9)
        assert base.inference == "none" and base.effective_deals == base.samples
        assert hint_knowledge(k, samples=24, seed=9, observations=()).to_json() == base.to_json()
        flat = hint_knowledge(k, samples=24, seed=9, observations=obs, model=Flat())
        assert flat.inference == "weighted" and flat.effective_deals == pytest.approx(24)
        assert without_inference_fields(flat.to_json()) == without_inference_fields(base.to_json())


def test_weighted_hint_reports_the_effective_deals_and_falls_back_when_all_vanish():
    class Never:
        def prob(self, state, move):
            return 0.0

    for k, obs in positions_with_observations(3):
        res = hint_knowledge(k, samples=32, seed=4, observations=obs)
        assert res.inference == "weighted"
        assert 1 - 1e-9 <= res.effective_deals <= res.samples + 1e-9
        assert res.to_json()["effective_deals"] == round(res.effective_deals, 2)
        for m in res.moves:
            assert abs(m.win + m.draw + m.loss - 1) < 1e-9
            assert m.ci95[0] <= m.win <= m.ci95[1]
        gone = hint_knowledge(k, samples=32, seed=4, observations=obs, model=Never())
        assert gone.inference == "fallback" and gone.effective_deals == pytest.approx(32)
        plain = hint_knowledge(k, samples=32, seed=4)
        assert without_inference_fields(gone.to_json()) == without_inference_fields(plain.to_json())


def test_weighted_hint_is_the_same_for_any_number_of_workers():
    k, obs = positions_with_observations(1)[0]
    one = hint_knowledge(k, samples=20, seed=6, observations=obs)
    two = hint_knowledge(k, samples=20, seed=6, observations=obs, workers=2)
    assert one.to_json() == two.to_json()


def test_weighted_aggregation_is_the_weighted_average():
    moves = [Move.parse("6S"), Move.parse("7S")]
    scores = [[1, -1], [-1, 1], [0, 1]]
    margins = [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]
    ranked = aggregate(moves, scores, False, moves[0], margins, True, (0.5, 0.5, 0.0))
    by = {h.move: h for h in ranked}
    assert by["6S"].score == pytest.approx(0) and by["6S"].win == pytest.approx(0.5)
    assert by["7S"].loss == pytest.approx(0.5) and by["7S"].best == pytest.approx(0.5)
    heavy = aggregate(moves, scores, False, moves[0], margins, True, (0.8, 0.1, 0.1))
    assert heavy[0].move == "6S" and heavy[0].score == pytest.approx(0.7)
    # a zero-weight deal cannot make the greedy move look dominated
    ranked = aggregate(moves, scores, False, moves[0], margins, True, (0.0, 0.5, 0.5))
    assert ranked[0].move == "7S"
    # 7S is at least as good on every deal that counts: the greedy 6S is not as good
    c = choose(ranked, moves, scores, margins, moves[0], True, (0.0, 0.5, 0.5))
    assert c.best == c.top == "7S" and c.as_good == ("7S",)
    assert keep_default(ranked, moves, scores, margins, moves[0], 1.0, True,
                        (0.0, 0.5, 0.5)) == "7S"  # the engine before, alike


# ------------------------------------------------------------------ the match bot
def test_the_hint_bot_gets_the_trackers_observations():
    class Spy:
        name = "spy"
        wants_observations = True

        def __init__(self):
            self.calls = []

        def choose(self, state, seat, rng, observations=None):
            self.calls.append(observations)
            return greedy_move(state)

    spy = Spy()
    start = new_game(2, seed=3)
    _, moves, _, _, _ = play_game([spy, GreedyPolicy()], start, [random.Random(0)] * 2)
    assert spy.calls and all(isinstance(c, tuple) for c in spy.calls)
    assert any(c for c in spy.calls)
    assert all(isinstance(o, Observation) and o.mover == 1 for c in spy.calls for o in c)
    # the same game as a greedy player's: observations change nothing for a policy ignoring them
    _, again, _, _, _ = play_game([GreedyPolicy(), GreedyPolicy()], start, [random.Random(0)] * 2)
    assert again == moves


def test_hint_inf_uses_inference_and_the_default_hint_does_not():
    inf = make_policy("hint-inf")
    assert inf.wants_observations and inf.name == "hint-inf"
    plain = make_policy("hint")
    assert not plain.wants_observations and plain.name == "hint"
    res = match(MatchSpec("hint-inf", "hint", seed=2, hint_samples=8), 2)
    assert len(res.games) == 2 and all(g.decisions["a"] > 0 for g in res.games)


def test_oversampling_draws_deals_until_the_effective_number_is_the_budget():
    for k, obs in positions_with_observations(3):
        one = hint_knowledge(k, samples=16, seed=8, observations=obs)
        assert one.samples == 16
        more = hint_knowledge(k, samples=16, seed=8, observations=obs, oversample=4)
        assert 16 <= more.samples <= 64 and more.complete
        assert more.effective_deals >= 16 - 1e-9 or more.samples == 64
        # without observations oversampling changes nothing
        assert hint_knowledge(k, samples=16, seed=8, oversample=4).to_json() == \
            hint_knowledge(k, samples=16, seed=8).to_json()
