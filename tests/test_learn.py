"""The learned playout policy (docs/learn.md): features, the C twin, the model file,
self-play data, training, the engine with the model.

* Feature extraction against hand-built positions: every field of
  :class:`~solver.policy.features.Decision`, every rules option's flag, the
  templates' indices of chosen moves.
* The compiled core's fields and feature indices (``ext/learn.pxi``) equal the
  Python reference on every state of random and greedy games under every rules
  option (teams too); its scores equal the Python forward pass on random
  weights to 1e-9, its best move the reference's; a model that weighs only
  the greedy flag plays exactly the greedy playouts.
* The model file: round trip, shape and version checked, a bad file is one
  clear error; the shipped model loads.
* Generation is deterministic for a seed (the same bytes, any number of
  workers, ``--resume``); a tiny end-to-end run through the CLI (generate 20
  games, train one epoch, load the model, play a game with it).
"""
from __future__ import annotations

import dataclasses
import gzip
import json
import random

import pytest
from builders import state
from click.testing import CliRunner
from solver_positions import OPTION_SETS

from solver.cli import main
from solver.errors import OptionError
from solver.game import movegen as engine
from solver.game.cards import parse_card
from solver.game.deal import new_game
from solver.game.moves import Move
from solver.game.rules import Rules, parse_rules
from solver.hints import HintConfig, hint
from solver.hints.evaluate import _Evaluator
from solver.hints.knowledge import knowledge_of
from solver.learn.generate import (GenSpec, generate, play_game, play_shard, read_shards,
                                   shard_path, write_shard)
from solver.play.match import MatchSpec, make_policy, play_match_game
from solver.policy.bots import greedy_move
from solver.policy.features import (NFEATURES, OFFSETS, ROLE_DEFEND, ROLE_LEAD, ROLE_THROW,
                                    Decision, decision_features, deck_mask, move_features)
from solver.policy.model import SHIPPED, LinearModel, load_model, parse_model
from solver.search.native import core, load

RULE_SETS = OPTION_SETS + [Rules(teams=True), Rules(teams=True, transfer=True,
                                                    first_out_wins=True)]


def c(text: str) -> int:
    return parse_card(text)


def mask(*texts: str) -> int:
    return sum(1 << c(t) for t in texts)


# ---------------------------------------------------------------- hand-built positions
def test_decision_fields_of_a_defence():
    s = state(["6S 7S KH", "8C 9C AH 7D"], trump="H", attacker=0, table_text="6D",
              pile=["TS", "JS", "QH"], out="6C 7C", limit=4)
    d = Decision.of(s)
    assert d.mover == 1 and d.players == 2 and d.role == ROLE_DEFEND and d.phase == 2
    assert d.hand == mask("8C", "9C", "AH", "7D")
    assert (d.att, d.cov, d.opn) == (mask("6D"), 0, mask("6D"))
    assert d.discards == mask("6C", "7C")
    assert d.trump == 1 and d.trump_card == c("QH") and d.pile == 3
    assert d.hand_sizes == (4, 3) and d.opponent == 0 and d.take == 0 and d.limit == 4
    assert d.flags == 0 and d.deck == 36
    seen = d.hand | d.att | d.discards | (1 << c("QH"))
    assert d.unseen == deck_mask(36) & ~seen


def test_the_features_read_only_the_movers_view():
    rng = random.Random(3)
    for rules in (Rules(), Rules(transfer=True), Rules(trump_swap=True)):
        s = new_game(3, rules, rng=rng)
        for _ in range(120):
            if s.is_over:
                break
            view = knowledge_of(s, s.to_move).view
            assert Decision.of(view) == Decision.of(s)
            assert decision_features(view)[2] == decision_features(s)[2]
            moves = engine.legal_moves(s)
            s = engine.play(s, moves[rng.randrange(len(moves))])


def test_decision_fields_of_a_lead_and_a_throw():
    s = state(["6S 7S KH", "8C 9C AH"], trump="S", attacker=0)
    d = Decision.of(s)
    assert (d.mover, d.role, d.phase, d.trump_card, d.pile) == (0, ROLE_LEAD, 1, -1, 0)
    assert d.opponent == 1 and d.hand_sizes == (3, 3)
    s3 = state(["6S 7S 8C", "9C AH"], trump="H", attacker=0, table_text="8S/9S", limit=6, turn=0)
    d3 = Decision.of(s3)
    assert d3.role == ROLE_THROW and d3.phase == 3 and d3.cov == mask("9S")
    assert d3.opponent == 1


@pytest.mark.parametrize("rules", ["transfer", "transfer_by_trump_show", "throw_in=neighbours",
                                   "trump_swap", "first_out_wins", "teams=2v2",
                                   "first_bout_limit=5", "deck=24", "deck=52"])
def test_every_rules_option_reaches_the_flags_and_the_deck(rules):
    r = parse_rules(rules)
    s = new_game(4 if r.teams else 2, r, rng=random.Random(1))
    d = Decision.of(s)
    assert d.flags == core.RULE_FLAGS.get(
        {"transfer": "transfer", "transfer_by_trump_show": "transfer_by_trump_show",
         "throw_in=neighbours": "throw_in_neighbours", "trump_swap": "trump_swap",
         "first_out_wins": "first_out_wins", "teams=2v2": "teams",
         "first_bout_limit=5": "first_bout_limit"}.get(rules, ""), 0)
    assert d.deck == r.deck
    assert d.unseen & deck_mask(r.deck) == d.unseen


def test_move_feature_indices_of_chosen_moves():
    s = state(["6S 7S KH", "8C 9C AH 7D"], trump="H", attacker=0, table_text="6D",
              pile=["TS", "JS", "QH"], limit=4)
    d = Decision.of(s)
    ps = 2  # a pile of 3
    take = move_features(d, Move.parse("take"), False)
    assert take[0] == OFFSETS[0] + (2 * 5 + ps) * 2
    assert take[1] == OFFSETS[1] + 2 * 5 + ps
    assert OFFSETS[6] + 0 * 5 + ps in take  # one card on the table
    assert OFFSETS[7] + (1 * 3 + 0) * 5 + ps in take  # one trump (AH), one open attack
    # the hand after a take: 5 cards, against the attacker's 3
    assert OFFSETS[9] + (2 * 7 + 4) * 2 + 0 in take
    assert OFFSETS[11] + (2 * 3 + 2) * 5 + ps in take
    cover = move_features(d, Move.cover(c("6D"), c("7D")), True)
    assert cover[1] == OFFSETS[1] + (8 + 1) * 5 + ps  # the greedy flag
    assert cover[2] == OFFSETS[2] + ((1 * 2 + 0) * 13 + 5) * 5 + ps  # 7 (rank index 5), plain
    assert OFFSETS[4] + (0 * 2 + 0) * 5 + ps in cover  # gap 1, plain target
    trump_cover = move_features(d, Move.cover(c("6D"), c("AH")), False)
    assert OFFSETS[4] + (4 * 2 + 0) * 5 + ps in trump_cover  # a trump over a plain card
    assert OFFSETS[3] + ((1 * 2 + 1) * 4 + 0) * 5 + ps in trump_cover  # nothing above AH
    assert len(take) == 8 and len(cover) == 9


def test_transfer_flag_in_the_features():
    s = state(["6S 7S KH", "8C 6H AH 7D"], trump="H", attacker=0, table_text="6D",
              rules="transfer", pile=["TS", "JS", "QH"], limit=4)
    d, moves, feats = decision_features(s)
    assert any(m.kind.name == "TRANSFER" for m in moves)
    for f in feats:
        assert f[-1] % 10 >= 5  # "transfers allowed" set (k * 2 + 1) * 5 + ps


# ---------------------------------------------------------------- the C twin
def _walk(rules: Rules, rng: random.Random, search, check) -> int:
    seen = 0
    players = rng.randint(2, 4 if rules.deck == 24 else 6) if not rules.teams else 4
    s = new_game(players, rules, rng=rng)
    greedy = rng.random() < 0.5
    for _ in range(300):
        if s.is_over:
            break
        check(s, load(search, s))
        seen += 1
        moves = engine.legal_moves(s)
        s = engine.play(s, greedy_move(s) if greedy else moves[rng.randrange(len(moves))])
    return seen


@pytest.mark.parametrize("rules_index", range(len(RULE_SETS)))
def test_core_fields_and_features_equal_the_reference(rules_index):
    rules = RULE_SETS[rules_index]
    rng = random.Random(900 + rules_index)
    search = core.Search(1)

    def check(s, cs):
        d, _, feats = decision_features(s)
        assert core.decision_fields(cs) == dataclasses.asdict(d), s
        assert core.move_features(cs, tuple(a for a, _ in s.table)) == feats, s

    assert sum(_walk(rules, rng, search, check) for _ in range(3)) > 60


def test_core_scores_equal_the_python_forward_pass():
    rng = random.Random(5)
    search = core.Search(1)
    model = LinearModel(tuple(rng.gauss(0, 1) for _ in range(NFEATURES)))
    cm = model.core()
    checked = 0

    def check(s, cs):
        nonlocal checked
        order = tuple(a for a, _ in s.table)
        _, _, feats = decision_features(s)
        want = model.scores(feats)
        got = core.model_scores(cs, cm, order)
        assert got == pytest.approx(want, abs=1e-9)
        assert core.model_index(cs, cm, order) == model.choose(s)
        checked += 1

    for rules in (Rules(), Rules(transfer=True), Rules(deck=52)):
        for _ in range(2):
            _walk(rules, rng, search, check)
    assert checked > 100


def test_a_model_of_the_greedy_flag_plays_the_greedy_playouts():
    w = [0.0] * NFEATURES
    for i in range(OFFSETS[1] + 40, OFFSETS[2]):
        w[i] = 1.0
    gm = core.PolicyModel(w)
    rng = random.Random(8)
    search = core.Search(1)
    for g in range(6):
        s = new_game(2, Rules(transfer=g % 2 == 1), rng=rng)
        cs = load(search, s)
        for i in range(len(cs.moves())):
            assert core.greedy_playout(cs, 0, 1500, (), i, False, gm) == \
                core.greedy_playout(cs, 0, 1500, (), i)
        assert core.uct_scores(cs, 0, 200, (), 1.0, 1500, 0.2, 0, gm) == \
            core.uct_scores(cs, 0, 200, (), 1.0, 1500, 0.2, 0)


def test_the_core_refuses_a_model_of_the_wrong_size():
    with pytest.raises(ValueError, match="2272"):
        core.PolicyModel([0.0] * 10)
    assert core.NFEATURES == NFEATURES


# ---------------------------------------------------------------- the model file
def test_model_file_round_trip(tmp_path):
    m = LinearModel(tuple(random.Random(1).uniform(-1, 1) for _ in range(NFEATURES)),
                    trained={"seed": 1})
    p = tmp_path / "m.json"
    m.save(p)
    back = load_model(p)
    assert back.weights == pytest.approx(m.weights, abs=1e-6)
    assert back.trained == {"seed": 1}


def test_the_shipped_model_loads():
    m = load_model("shipped")
    assert len(m.weights) == NFEATURES
    assert SHIPPED.stat().st_size < 4 << 20
    assert json.loads(SHIPPED.read_text())["version"] == 1


@pytest.mark.parametrize("change,message", [
    ({"format": "other"}, "not a durak model file"),
    ({"version": 2}, "version 2"),
    ({"kind": "mlp"}, "kind 'mlp'"),
    ({"features": 7}, "7 features"),
    ({"templates": ["x"]}, "templates"),
    ({"weights": [0.0] * 3}, "weights: 2272 numbers expected, got 3"),
    ({"weights": [0.0] * (NFEATURES - 1) + ["x"]}, r"weights\[2271\]"),
    ({"temp": -1}, "temp"),
])
def test_a_bad_model_file_is_a_clear_error(tmp_path, change, message):
    obj = LinearModel((0.0,) * NFEATURES).to_json()
    obj.update(change)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(obj))
    with pytest.raises(OptionError, match=message):
        load_model(p)
    r = CliRunner().invoke(main, ["learn", "evaluate", str(p), "--games", "2"])
    assert r.exit_code == 2 and "error" in r.output


def test_a_model_file_that_is_not_one(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(OptionError, match="not JSON"):
        load_model(p)
    with pytest.raises(OptionError, match="No such file"):
        load_model(tmp_path / "missing.json")
    with pytest.raises(OptionError, match="JSON object"):
        parse_model([1, 2])
    nan = LinearModel((0.0,) * NFEATURES).to_json()
    nan["weights"][5] = float("nan")
    p.write_text(json.dumps(nan))
    with pytest.raises(OptionError, match="finite"):
        load_model(p)


# ---------------------------------------------------------------- the engine with the model
def test_the_hint_engine_with_the_learned_playouts():
    pos = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; out 7S 8S 9S TS JS "
           "6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")
    a = hint(pos, samples=16, seed=1, config=HintConfig(playout_model="shipped"))
    b = hint(pos, samples=16, seed=1, config=HintConfig(playout_model="shipped"))
    assert a.best == b.best and [m.score for m in a.moves] == [m.score for m in b.moves]
    with pytest.raises(OptionError, match="playout_model"):
        _Evaluator(HintConfig(playout_model="shipped", ismcts=True))


def test_match_policies_of_the_model():
    for name in ("hint-uct", "hint-learn", "learned", f"learned={SHIPPED}"):
        assert make_policy(name).name == name
    rec = play_match_game(MatchSpec("learned", "greedy", seed=3), 0, 0)
    assert rec.result in (-1, 0, 1) and rec.decisions["a"] > 0


# ---------------------------------------------------------------- data and training
def _shard_bytes(folder) -> list[bytes]:
    return [p.read_bytes() for p in sorted(folder.glob("shard-*.jsonl.gz"))]


def test_generation_is_deterministic_for_a_seed(tmp_path):
    spec = GenSpec(games=3, seed=4, samples=2, shard_games=2, iterations=20)
    generate(spec, tmp_path / "a", workers=1)
    generate(spec, tmp_path / "b", workers=2)
    assert _shard_bytes(tmp_path / "a") == _shard_bytes(tmp_path / "b")
    assert len(_shard_bytes(tmp_path / "a")) == 2
    # --resume plays only the missing shard, to the same bytes
    shard_path(tmp_path / "b", 1).unlink()
    assert generate(spec, tmp_path / "b", workers=1, resume=True) == 1
    assert _shard_bytes(tmp_path / "a") == _shard_bytes(tmp_path / "b")
    rows = list(read_shards(tmp_path / "a"))
    assert rows and all(len(r["moves"]) == len(r["features"]) == len(r["scores"]) > 1
                        for r in rows)
    assert all(r["outcome"] in (-1, 0, 1) and 0 <= r["chosen"] < len(r["moves"]) for r in rows)
    assert rows == play_game(spec, 0) + play_game(spec, 1) + play_game(spec, 2)
    with pytest.raises(OptionError, match="another spec"):
        generate(dataclasses.replace(spec, seed=5), tmp_path / "b", resume=True)


def test_a_tiny_end_to_end_run(tmp_path):
    run = CliRunner()
    data, model = tmp_path / "data", tmp_path / "m.json"
    r = run.invoke(main, ["learn", "generate", "--games", "20", "--seed", "1", "--samples", "2",
                          "--iterations", "0", "--out", str(data), "-j", "1", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["shards"] == 2
    with gzip.open(shard_path(data, 0), "rt") as fh:
        assert json.loads(fh.readline())["game"] == 0
    r = run.invoke(main, ["learn", "train", str(data), "--out", str(model), "--epochs", "1",
                          "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["examples"] > 100
    m = load_model(model)
    assert m.trained["epochs"] == 1
    rec = play_match_game(MatchSpec(f"hint-learn={model}", "greedy", hint_samples=4, seed=2),
                          0, 1)
    assert rec.result in (-1, 0, 1)


def test_ctrl_c_keeps_whole_shards_and_resume_plays_the_rest(tmp_path):
    """`durak learn generate` stopped by Ctrl-C: exit 130, one JSON object saying
    what was kept, every shard on disk the bytes an uninterrupted run writes; --resume
    keeps those shards and plays on from the first missing one (stopped by Ctrl-C too).

    The runs are asked for far more games than they play before the Ctrl-C, so the
    Ctrl-C always lands mid-run: a run that ignored it would still be playing when the
    test stops waiting, and the test fails."""
    import signal
    import subprocess
    import sys
    import time

    from terminal import as_at_a_terminal

    games = 1000  # minutes of play: far longer than the test waits
    args = ["learn", "generate", "--games", str(games), "--shard-games", "1", "--samples",
            "4", "--iterations", "0", "--seed", "3", "-j", "1"]
    spec = GenSpec(games=games, seed=3, samples=4, shard_games=1, iterations=0)
    out = tmp_path / "cut"

    def ctrl_c(*extra: str, once: int) -> tuple[dict, str]:
        """Run generate; Ctrl-C once shard ``once`` is on disk; what it printed."""
        p = subprocess.Popen([sys.executable, "-m", "solver.cli", *args, "--out", str(out),
                              "--json", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, preexec_fn=as_at_a_terminal)
        try:
            deadline = time.monotonic() + 120
            while not shard_path(out, once).exists():
                assert p.poll() is None, p.communicate()
                assert time.monotonic() < deadline, f"no shard {once} after 120 s"
                time.sleep(0.05)
            p.send_signal(signal.SIGINT)
            try:
                stdout, stderr = p.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                pytest.fail("durak learn generate still playing 60 s after Ctrl-C")
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
        assert p.returncode == 130, stderr
        said = json.loads(stdout)
        assert said["interrupted"] is True and said["shards"] == games
        assert f"{said['kept']} of {games} shard(s)" in stderr and "--resume" in stderr
        return said, stderr

    said, _ = ctrl_c(once=0)
    kept = said["kept"]
    assert 1 <= kept < games
    assert sorted(out.glob("shard-*.jsonl.gz")) == [shard_path(out, i) for i in range(kept)]
    before = {i: shard_path(out, i).stat().st_ino for i in range(kept)}

    said, stderr = ctrl_c("--resume", once=kept)  # plays on from the first missing shard
    assert said["kept"] > kept and "played again" not in stderr
    assert {i: shard_path(out, i).stat().st_ino for i in range(kept)} == before  # kept whole
    shards = sorted(out.glob("shard-*.jsonl.gz"))
    assert shards == [shard_path(out, i) for i in range(said["kept"])]
    for i, path in enumerate(shards):  # the bytes of an uninterrupted run's shard i
        write_shard(tmp_path / "whole.jsonl.gz", play_shard(spec, i))
        assert path.read_bytes() == (tmp_path / "whole.jsonl.gz").read_bytes(), path
