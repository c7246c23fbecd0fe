"""What the asking of throwers proves about hidden hands (F2): :class:`HandFact`.

A thrower is asked only when he holds a card he may add, so a ``pass`` proves
he held one and being passed over proves he held none.  The oracle is the
real game: the tracker follows fully dealt games, so every fact can be held
against the true hands, and the sampler's deals against the facts.
"""
from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import replace

import pytest
from builders import cards, state
from solver_positions import NEIGHBOUR_RULES, deal_few_ranks, f15_position, neighbour_move

from solver.game.cards import count
from solver.game.deal import new_game
from solver.game.movegen import legal_moves, play
from solver.game.moves import PASS, Move
from solver.game.rules import parse_rules
from solver.hints import HintConfig, hint_knowledge
from solver.hints.knowledge import HandFact, PublicTracker, agrees_with, facts_likelihood
from solver.hints.sampler import Sampler, consistent
from solver.notation import parse_position
from solver.play.match import HintPolicy, make_policy, play_game
from solver.policy.bots import greedy_move


def followed_games(players: int, rules: str, seeds, greedy_share: float = 0.7):
    """Trackers along fully dealt games of mostly greedy, partly random play."""
    for seed in seeds:
        rng = random.Random(seed)
        t = PublicTracker(new_game(players, parse_rules(rules), rng=rng))
        while not t.state.is_over and len(t.history) < 400:
            s = t.state
            mv = greedy_move(s) if rng.random() < greedy_share else rng.choice(legal_moves(s))
            t.play(mv)
            yield t


# ------------------------------------------------------------ the settle hook
def test_F2_a_thrower_without_a_card_of_a_table_rank_is_passed_over_and_recorded():
    # Three players: seat 1 leads 7S at seat 2, who covers with 8S.  Seat 1
    # holds 8C, so he is asked (R12: the main attacker first); after his pass
    # seat 3, who holds no seven or eight, is passed over and the bout ends.
    s = state(["7S 8C", "8S KD QD", "6H TD JC"], trump="H", attacker=0)
    s = play(s, Move.parse("7S"))
    skipped: list[int] = []
    s = play(s, Move.parse("7S/8S"), skipped)
    assert s.to_move == 0 and skipped == []
    skipped = []
    s2 = play(s, PASS, skipped)
    assert skipped == [2] and s2.table == ()
    # Without 8C seat 1 is passed over too, before anyone is asked.
    s = state(["7S 9C", "8S KD QD", "6H TD JC"], trump="H", attacker=0)
    s = play(s, Move.parse("7S"))
    skipped = []
    s = play(s, Move.parse("7S/8S"), skipped)
    assert skipped == [0, 2] and s.table == ()


def test_a_full_table_proves_nothing_about_the_throwers():
    # The defender has one card left to cover with: the limit is reached, so
    # nobody may add whatever he holds, and nobody counts as passed over.
    s = state(["7S 7C", "8S", "7D 7H"], trump="H", attacker=0)
    s = play(s, Move.parse("7S"))
    skipped: list[int] = []
    s = play(s, Move.parse("7S/8S"), skipped)
    assert skipped == []


def test_F15_a_new_neighbour_is_asked_or_passed_over_and_recorded():
    # Seat 2 led his last card, seat 3 took, seat 1 throws his last card (KD): seat
    # 5 becomes seat 3's neighbour (F7, F15).  With KH he is asked (a pass proves
    # he held a king); with 9H he is passed over (F2: he held none).
    text = ("trump S; hands KD | - | 7C 8C 9C | 9D | {}; table KS; attacker 2; take; turn 1; "
            "rules throw_in=neighbours")
    t = PublicTracker(parse_position(text.format("KH")).state)
    t.play(Move.parse("+KD"))
    assert t.asked[-1][1] == () and t.state.to_move == 4
    t.play(PASS)
    assert [(f.seat, f.holds) for f in t.facts(2)] == [(4, True)]
    t = PublicTracker(parse_position(text.format("9H")).state)
    t.play(Move.parse("+KD"))
    assert t.asked[-1][1] == (4,) and not t.state.table
    assert [(f.seat, f.holds) for f in t.facts(2)] == [(4, False)]
    assert agrees_with(t.state, t.facts(2))


def test_F15_the_real_hands_agree_with_every_fact_where_neighbours_go_out():
    """Soundness on walks where throwers go out mid-bout under throw_in=neighbours."""
    rng = random.Random(1515)
    seen_none = 0
    for g in range(60):
        start = f15_position(rng) if g % 2 else deal_few_ranks(rng, rng.randint(4, 6),
                                                               rng.choice(NEIGHBOUR_RULES))
        t = PublicTracker(start)
        while not t.state.is_over:
            ms = legal_moves(t.state)
            t.play(ms[neighbour_move(rng, t.state, ms)])
            for seat in range(t.state.players):
                facts = t.facts(seat)
                assert agrees_with(t.state, facts), (start, len(t.history), seat)
                seen_none += sum(not f.holds for f in facts)
    assert seen_none > 0


# ------------------------------------------------------------ soundness
@pytest.mark.parametrize("players,rules", [
    (2, ""), (2, "transfer"), (3, ""), (3, "transfer"), (4, ""),
    (3, "throw_in=neighbours"), (2, "trump_swap"), (4, "teams=2v2"),
])
def test_F2_the_real_hands_agree_with_every_fact_at_every_move(players, rules):
    """Soundness: a fact that the true deal breaks would throw out the real world."""
    seen_none = seen_one = 0
    for t in followed_games(players, rules, range(12)):
        for seat in range(players):
            facts = t.facts(seat)
            assert agrees_with(t.state, facts), (players, rules, len(t.history), seat)
            assert all(f.seat != seat for f in facts)
            seen_none += sum(not f.holds for f in facts)
            seen_one += sum(f.holds for f in facts)
    assert seen_one > 0
    if players > 2 or "transfer" in rules:
        assert seen_none > 0


def test_R17_a_fact_counts_the_hidden_cards_its_seat_drew_since():
    """``drawn`` is every hidden card the seat drew after the asking (its draw at
    the end of the same move included); only facts with none since are certain."""
    certain = uncertain = 0
    for t in followed_games(3, "", range(6)):
        for seat in range(3):
            for f in t.facts(seat):
                since = sum(t.changes[i][f.seat][2] for i in range(f.index, len(t.history)))
                assert f.drawn == since
                x = (t.state.hands[f.seat] & f.keep) | f.add
                assert count(x) - f.drawn >= 0  # X is his hand then plus the cards drawn
                certain += f.drawn == 0
                uncertain += f.drawn > 0
    assert certain and uncertain


def test_R17_the_real_hand_explains_uncertain_facts_better_than_uniform_deals():
    """A fact about a hand before a hidden draw is a probability (hypergeometric over
    which cards came from the pile); on average the real deal gives the facts a
    higher likelihood than the sampler's deals that ignore them."""
    real, uniform = [], []
    for t in followed_games(2, "", range(20)):
        if t.state.is_over or len(t.history) % 4:
            continue
        seat = t.state.to_move
        k = t.knowledge(seat)
        facts = [f for f in k.facts if f.drawn]
        if not facts or not k.slots:
            continue
        real.append(facts_likelihood(t.state.hands, facts))
        plain = Sampler(replace(k, facts=()))
        rng = random.Random(len(t.history))
        uniform.append(sum(facts_likelihood(plain.sample(rng).hands, facts)
                           for _ in range(20)) / 20)
    assert len(real) > 30
    assert min(real) > 0
    assert sum(real) / len(real) > 1.2 * sum(uniform) / len(uniform)


def test_facts_rule_out_a_share_of_the_uniform_deals_never_the_real_one():
    """The facts bite: a good share of the uniform deals break one, none of the
    deals drawn with the facts does, and the real deal is never thrown out."""
    rejected = drawn = 0
    for t in followed_games(3, "", range(8)):
        if t.state.is_over or len(t.history) % 5:
            continue
        seat = t.state.to_move
        k = t.knowledge(seat)
        if not k.facts or not k.slots:
            continue
        assert consistent(t.state, k)
        sp = Sampler(k)
        rng = random.Random(len(t.history))
        for _ in range(10):
            d = sp.sample(rng)
            assert consistent(d, k)
            assert agrees_with(d, k.facts)
        rejected += sp.rejected
        drawn += 10 + sp.rejected
        assert sp.misses == 0
    assert drawn > 100 and rejected / drawn > 0.1


def small_case():
    """A three-player endgame of at most 40 deals in which the facts rule some out."""
    for t in followed_games(3, "", range(60), greedy_share=1.0):
        s = t.state
        if s.is_over or s.pile or s.to_move != 0:
            continue
        k = t.knowledge(0)
        sp = Sampler(k)
        if 4 <= sp.count() <= 40 and sum(1 for _ in sp.enumerate()) < sp.count():
            return t, k
    raise AssertionError("no small case found")


def test_sampler_is_uniform_over_the_deals_that_meet_the_facts():
    t, k = small_case()
    sp = Sampler(k)
    every = list(sp.enumerate())
    assert 1 <= len(every) < sp.count()  # the facts remove deals
    assert any(d.hands == t.state.hands for d in every)  # never the real one
    assert all(agrees_with(d, k.facts) for d in every)
    unconstrained = list(Sampler(type(k)(k.seat, k.view, k.unseen, k.pile_slots,
                                         k.bottom_mask)).enumerate())
    assert len(unconstrained) == sp.count()
    assert len(every) == sum(agrees_with(d, k.facts) for d in unconstrained)
    # Sampling: each possible deal about equally often (chi-square, p = 0.001 bound);
    # how much likelier uncertain facts make one is the hint's weighting, not the sampler's.
    rng = random.Random(5)
    n = 200 * len(every)
    hits = Counter(sp.sample(rng).hands for _ in range(n))
    assert set(hits) <= {d.hands for d in every}
    assert chi_square(hits, every, n) < bound(len(every) - 1)


def chi_square(hits, every, n) -> float:
    """Pearson's statistic of the draws against the uniform law over ``every``."""
    e = n / len(every)
    return sum((hits[d.hands] - e) ** 2 / e for d in every)


def bound(df: int) -> float:
    """Well past the 0.999 quantile of chi-square with ``df`` degrees of freedom."""
    return df + 3.1 * (2 * df) ** 0.5 + 10


def test_an_exhaustive_hint_scores_exactly_the_deals_that_meet_the_facts():
    t, k = small_case()
    cfg = HintConfig(fact_weights_multi=True)  # every fact, as with two players
    with_facts = hint_knowledge(k, samples=512, seed=1, config=cfg)
    plain = hint_knowledge(replace(k, facts=()), samples=512, seed=1, config=cfg)
    agreeing = sum(1 for _ in Sampler(k).enumerate())
    assert with_facts.exhaustive and with_facts.samples == agreeing == with_facts.deals_total
    assert plain.samples == Sampler(k).count() > agreeing
    assert with_facts.facts == len(k.facts) and with_facts.rejected == plain.samples - agreeing
    assert with_facts.to_json()["facts"] == len(k.facts)


def test_a_held_one_fact_checks_the_hand_then_with_played_cards_put_back():
    sevens_eights = cards("7S 7H 7D 7C 8S 8H 8D 8C")
    f = HandFact(0, 1, sevens_eights, True, keep=-1, add=0)
    assert f.agrees(cards("7C 9D"))            # still holds the seven
    assert not f.agrees(cards("9D TD"))        # he held a 7 or an 8 when he passed
    since = HandFact(0, 1, sevens_eights, True, keep=-1, add=cards("7C"))
    assert since.agrees(cards("9D TD"))        # he has played 7C since
    none = HandFact(0, 1, sevens_eights, False, keep=~cards("8H"), add=0)
    assert none.agrees(cards("8H 9D"))         # 8H was picked up since: not his then
    assert not none.agrees(cards("7D 9D"))
    # R17: he drew one hidden card since, so of X = 7D 9D TD one came from the pile.
    drew = HandFact(0, 1, sevens_eights, False, keep=-1, add=0, drawn=1)
    assert drew.likelihood(cards("7D 9D TD")) == pytest.approx(1 / 3)  # 7D was the one drawn
    assert drew.likelihood(cards("7D 8D TD")) == 0.0                  # two can't both be
    assert drew.likelihood(cards("9D TD JD")) == 1.0
    held = HandFact(0, 1, sevens_eights, True, keep=-1, add=0, drawn=1)
    assert held.likelihood(cards("7D 9D TD")) == pytest.approx(2 / 3)


def test_the_hint_bot_uses_the_facts_and_hint_fast_does_not():
    assert HintPolicy().wants_facts
    assert not make_policy("hint-fast").wants_facts
    seen: list[int] = []

    class Spy(HintPolicy):
        def choose(self, state, seat, rng, observations=None, facts=(), **kw):
            seen.append(len(facts))
            return super().choose(state, seat, rng, observations=observations, facts=facts, **kw)

    start = new_game(3, parse_rules(""), seed=4)
    pols = [Spy(samples=8), make_policy("greedy"), make_policy("greedy")]
    play_game(pols, start, [random.Random(s) for s in range(3)])
    assert any(seen)


def test_where_rejection_gives_up_the_chain_stays_on_the_agreeing_deals(monkeypatch):
    """Past FACT_TRIES misses the sampler walks between possible deals by swaps: it
    still never gives a deal that breaks a fact and still reaches all of them,
    about equally often (a looser chi-square bound: the chain's draws are not
    independent)."""
    import solver.hints.sampler as sampler_mod
    monkeypatch.setattr(sampler_mod, "FACT_TRIES", 1)
    t, k = small_case()
    sp = Sampler(k)
    every = list(sp.enumerate())
    rng = random.Random(11)
    n = 200 * len(every)
    hits = Counter(sp.sample(rng).hands for _ in range(n))
    assert set(hits) == {d.hands for d in every} and sp.misses == 0
    assert chi_square(hits, every, n) < 3 * len(every) + 30


def test_a_first_agreeing_deal_is_found_by_repair_when_rejection_finds_none(monkeypatch):
    import solver.hints.sampler as sampler_mod
    monkeypatch.setattr(sampler_mod, "FACT_TRIES", 1)
    found = 0
    for t in followed_games(4, "transfer", range(6)):
        if t.state.is_over or len(t.history) % 9:
            continue
        k = t.knowledge(t.state.to_move)
        if len(k.facts) < 3 or not k.slots:
            continue
        sp = Sampler(k)
        d = sp.sample(random.Random(3))
        assert sp.misses == 0 and consistent(d, k)
        found += 1
    assert found > 5


def test_R17_the_hint_weighs_its_deals_by_the_uncertain_facts():
    """Facts about a hand before a hidden draw do not rule deals out, they weigh them:
    the hint's effective number of deals is Kish's over the facts' likelihoods."""
    for t in followed_games(3, "", range(40), greedy_share=1.0):
        s = t.state
        if s.is_over or s.pile or len(legal_moves(s)) < 2:
            continue
        k = t.knowledge(s.to_move)
        sp = Sampler(k)
        if not 2 <= sp.count() <= 60:
            continue
        ws = [sp.weight(d) for d in sp.enumerate()]
        if max(ws) == min(ws):
            continue
        res = hint_knowledge(k, samples=64, seed=1, config=HintConfig(fact_weights_multi=True))
        assert res.exhaustive and res.inference == "weighted"
        kish = sum(ws) ** 2 / sum(w * w for w in ws)
        assert res.effective_deals == pytest.approx(kish)
        assert res.effective_deals < res.samples == len(ws)
        # Three players by default: no weights, and only the deals certain facts allow.
        plain = hint_knowledge(k, samples=64, seed=1)
        certain = [f for f in k.facts if f.holds or not f.drawn]
        assert plain.inference == "none" and plain.facts == len(certain) < len(k.facts)
        assert plain.samples == sum(1 for d in Sampler(replace(k, facts=())).enumerate()
                                    if agrees_with(d, certain)) >= res.samples
        return
    raise AssertionError("no position with uncertain facts found")


def test_agrees_is_a_likelihood_above_zero():
    rng = random.Random(1)
    for _ in range(20000):
        hand, add = rng.getrandbits(36), rng.getrandbits(36) & rng.getrandbits(36)
        f = HandFact(0, 0, rng.getrandbits(36), rng.random() < 0.5, ~rng.getrandbits(36), add,
                     rng.randrange(4))
        assert f.agrees(hand) == (f.likelihood(hand) > 0)


def test_cli_hint_on_a_full_record_reports_its_facts(tmp_path):
    """`durak hint --game` on a full record: the facts of the followed game are used
    and shown (JSON keys and the line under the table)."""
    from click.testing import CliRunner

    from solver.cli import main as cli
    lines = open("docs/examples/full-game.txt").read().splitlines()
    cut = tmp_path / "cut.txt"
    cut.write_text("\n".join(lines[:lines.index("moves") + 6]) + "\n")
    r = CliRunner().invoke(cli, ["hint", "--game", str(cut), "--seed", "1", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["facts"] >= 1 and d["rejected"] >= 0
    r = CliRunner().invoke(cli, ["hint", "--game", str(cut), "--seed", "1", "--verbose"])
    assert r.exit_code == 0 and "who was asked to throw in (F2)" in r.output
    r = CliRunner().invoke(cli, ["hint", "--game", str(cut), "--seed", "1"])
    assert r.exit_code == 0 and "(F2)" not in r.output  # the engine's details: --verbose


# ----------------------------------------------- leads of the greedy player
@pytest.mark.parametrize("players,rules", [(2, ""), (2, "transfer"), (3, ""), (4, "transfer")])
def test_greedy_moves_are_explained_by_every_deal_that_could_be_real(players, rules):
    """Against greedy players the facts of the greedy model are true: taken as
    certain (trust 1), the real hands still agree with every one at every move,
    and a fair share of them say something (leads, and without transfers
    covers and takes)."""
    said = 0
    kinds = Counter()
    for t in followed_games(players, rules, range(8), greedy_share=1.0):
        for seat in range(players):
            facts = t.model_facts(seat, 1.0)
            assert agrees_with(t.state, facts), (players, rules, len(t.history), seat)
            assert all(f.seat != seat and not f.holds for f in facts)
            said += len(facts)
            kinds.update(t.history[f.index].kind.name for f in facts)
    assert said > 50
    assert kinds["LEAD"] and ("transfer" in rules or (kinds["COVER"] and kinds["TAKE"]))


def test_a_lead_fact_is_held_no_cheaper_card():
    # seat 2 leads 9S with trump H: he held no non-trump below nine (6-8 of S, D, C).
    s = state(["6D KC", "9S QS AH"], trump="H", attacker=1, defender=0)
    t = PublicTracker(s)
    t.play(Move.parse("9S"))
    (f,) = t.model_facts(0, 0.8)
    assert f.cards == cards("6S 7S 8S 6D 7D 8D 6C 7C 8C") and f.drawn == 0
    assert f.seat == 1 and f.trust == 0.8
    # a trump lead: no non-trump at all, and no lower trump
    s = state(["6D KC", "7H 9H"], trump="H", attacker=1, defender=0)
    t = PublicTracker(s)
    t.play(Move.parse("7H"))
    (f,) = t.model_facts(0, 0.8)
    assert f.cards & cards("6H AS 6C") == cards("6H AS 6C") and not f.cards & cards("7H 8H")


BIG = ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "AC", "8D", "9H"]  # a pile of 10, 9H face up


def test_a_cover_or_take_of_one_attack_is_held_no_cheaper_beater():
    # seat 1 leads 7S; seat 2 covers with JS: no 8S, 9S or TS then
    s = state(["7S 6D", "JS QD KC"], trump="H", attacker=0, pile=BIG)
    t = PublicTracker(s)
    t.play(Move.parse("7S"))
    t.play(Move.parse("7S/JS"))
    (f,) = t.model_facts(0, 0.8)
    assert f.seat == 1 and f.cards == cards("8S 9S TS")
    # a take with a big pile: no spade above seven and no trump below the queen
    t = PublicTracker(state(["7S 6D", "JD QD KC"], trump="H", attacker=0, pile=BIG))
    t.play(Move.parse("7S"))
    t.play(Move.parse("take"))
    (f,) = t.model_facts(0, 0.8)
    assert f.cards == cards("8S 9S TS JS QS KS AS 6H 7H 8H 9H TH JH")
    # the pile small: no card that beats it at all
    t = PublicTracker(state(["7S 6D", "JD QD KC"], trump="H", attacker=0, pile=["6C", "9H"]))
    t.play(Move.parse("7S"))
    t.play(Move.parse("take"))
    (f,) = t.model_facts(0, 0.8)
    assert f.cards == cards("8S 9S TS JS QS KS AS 6H 7H 8H 9H TH JH QH KH AH")


def test_a_fact_of_a_model_of_play_weighs_deals_and_rules_none_out():
    f = HandFact(0, 1, cards("6S 7S"), False, keep=-1, add=0, trust=0.75)
    assert f.likelihood(cards("8S 9S")) == 1.0
    assert f.likelihood(cards("6S 9S")) == pytest.approx(0.25)  # broken: 1 - trust
    assert f.agrees(cards("6S 9S"))
    drew = HandFact(0, 1, cards("6S"), False, keep=-1, add=0, drawn=1, trust=0.75)
    assert drew.likelihood(cards("6S 9S")) == pytest.approx(0.25 + 0.75 * 0.5)
    # the sampler does not reject by it; the hint weighs by it (two players)
    t = next(t for t in followed_games(2, "", [3], greedy_share=1.0)
             if t.model_facts(t.state.to_move, 1.0) and t.state.pile > 0)
    seat = t.state.to_move
    lf = t.model_facts(seat, 0.75)
    k = replace(t.knowledge(seat), facts=lf)
    sp = Sampler(k)
    rng = random.Random(1)
    ws = [sp.weight(sp.sample(rng)) for _ in range(200)]
    assert sp.rejected == 0 and min(ws) < 1.0 and max(ws) == 1.0
    res = hint_knowledge(k, samples=64, seed=2, config=HintConfig(fact_draws="weigh"))
    assert res.effective_deals < 64
    # dealt in proportion to the likelihood instead (issue 68): every deal kept counts
    drawn = hint_knowledge(k, samples=64, seed=2)
    assert drawn.samples == 64 and drawn.set_aside > 0
    assert drawn.effective_deals > 63 and drawn.inference in ("weighted", "none")


def test_the_hint_bot_adds_model_facts_when_asked():
    seen: list[float] = []

    class Spy(HintPolicy):
        def choose(self, state, seat, rng, observations=None, facts=(), **kw):
            seen.extend(f.trust for f in facts)
            return super().choose(state, seat, rng, observations=observations, facts=facts, **kw)

    start = new_game(2, parse_rules(""), seed=4)
    play_game([Spy(samples=8, model_trust=0.7), make_policy("greedy")], start,
              [random.Random(s) for s in range(2)])
    assert 0.7 in seen
    seen.clear()
    play_game([Spy(samples=8), make_policy("greedy")], start, [random.Random(s) for s in range(2)])
    assert 0.7 not in seen


def test_against_greedy_the_model_facts_favour_the_real_deal():
    """In greedy games the real deal explains the greedy model's facts far better
    than the uniform deals do (measured: about half of those break one)."""
    real, uniform = [], []
    for t in followed_games(2, "", range(10), greedy_share=1.0):
        if t.state.is_over or t.state.pile == 0 or len(t.history) % 5:
            continue
        seat = t.state.to_move
        facts = t.model_facts(seat, 0.8)
        if not facts:
            continue
        real.append(facts_likelihood(t.state.hands, facts))
        plain = Sampler(t.knowledge(seat))
        rng = random.Random(len(t.history))
        uniform.append(sum(facts_likelihood(plain.sample(rng).hands, facts)
                           for _ in range(20)) / 20)
    assert len(real) > 20
    assert sum(real) / len(real) > 1.5 * sum(uniform) / len(uniform)


def test_f2_a_game_against_the_engine_gives_nobody_facts():
    """docs/rules.md, under F2 (issue 68): in a game a person plays against the engine a
    pass is told as at a real table, so neither the person's hint nor the engine's seats
    learn from who was asked to throw in; a match's record keeps them public."""
    from solver.play.seats import GameSession

    seen: list[int] = []

    class Spy:
        def move(self, tracker, seat, rng):
            seen.append(len(tracker.facts(seat)))
            assert not tracker.asked_public
            return greedy_move(tracker.state)

    for seed in range(6):
        s = GameSession.new(3, parse_rules(""), seed=seed, human=1, engine="greedy",
                            engine_seats=lambda strength: Spy())
        rng = random.Random(seed)
        while not s.is_over:
            assert s.knowledge().facts == ()
            if s.engine_to_move:
                s.engine_move()
            else:
                s.enter(rng.choice(s.turn().moves))
        # the same game as a match's record (no engine line): who was asked is public
        match = replace(s.game, engine=None)
        facts = [len(match.knowledge(1, at=i).facts) for i in range(1, len(s.entries) + 1)]
        assert any(facts)
    assert seen and not any(seen)


def test_R17_deals_drawn_in_proportion_to_the_facts_likelihood():
    """Issue 68: instead of weighing the deals by the likelihood of the facts about hands
    before a hidden draw (a few dozen effective deals of 256), the hint draws them in
    proportion to it (:func:`solver.hints.advise._fact_drawn`): each deal the sampler
    deals is kept with probability w / c and carries the weight max(c, w), so the kept
    deals, weighed, follow the likelihood -- checked against the exact law of a small
    position whose every deal is enumerated (chi-square), with nearly equal weights."""
    from solver.hints.advise import _fact_drawn
    for t in followed_games(2, "", range(60), greedy_share=1.0):
        s = t.state
        if s.is_over or not s.pile or len(legal_moves(s)) < 2:
            continue
        k = t.knowledge(s.to_move)
        if not any(f.drawn for f in k.facts):
            continue
        sp = Sampler(k)
        if not 3 <= sp.count() <= 40:
            continue
        law = {}
        for d in sp.enumerate():
            law[d.hands] = law.get(d.hands, 0.0) + sp.weight(d)
        if len({round(w, 9) for w in law.values()}) < 2:
            continue
        total = sum(law.values())
        lls: list[float] = []
        aside = [0]
        n = 6000
        kept = [d.hands for d in _fact_drawn(sp, random.Random(5), n, lls, aside)]
        ws = [math.exp(x) for x in lls]
        assert len(kept) == n and aside[0] > 0
        assert sum(ws) ** 2 / sum(w * w for w in ws) > 0.95 * n  # nearly equal weights
        share: Counter = Counter()
        for hands, w in zip(kept, ws):
            share[hands] += n * w / sum(ws)
        chi2, cells = 0.0, 0
        for hands, w in law.items():
            expect = n * w / total
            if expect >= 5:
                chi2 += (share[hands] - expect) ** 2 / expect
                cells += 1
        assert cells >= 2 and chi2 < 2 * cells + 15, (chi2, cells)
        return
    raise AssertionError("no small position with uncertain facts found")

