"""Two threads (``Solver(threads=2)``, what `durak solve` uses on two cores).

The two provers of a value run at once, each in its own thread, in one
transposition table (``CoreBackend._decide_parallel``); the moves' questions
are shared out between the threads (``_ask_moves``), and a distance is two
upward walks over neighbouring ply limits (``_distance_parallel``; in
``solve`` the helper joins the root's walk once it has asked the moves).  The
table's entries are
stored and read so that a half-written one is never taken for another, and
the thread that answers the question stops the other.  Node counts then vary
from run to run, the answers must not: every move's value and distance is
held here to the slow oracles (the minimax for two players, the retrograde
analysis for three and four) with every value on two threads, and larger
endgames to the one-thread answer.  A stop, a time budget and Ctrl-C must
end both threads.
"""
from __future__ import annotations

import _thread
import gc
import random
import signal
import threading
import time

import pytest
from solver_positions import deal_endgame
from test_solver_distance import NAMES, oracle_moves, position, replay

from solver.errors import BudgetExceeded, Interrupted
from solver.game.rules import Rules
from solver.game.value import Value
from solver.notation import parse_position
from solver.search import Solver
from solver.search.driver import Aborted, CoreBackend
from solver.search.native import load
from solver.search.result import on_hero_side


@pytest.fixture(autouse=True)
def sigint_reaches_python():
    """``_thread.interrupt_main`` (Ctrl-C, as these tests send it) does nothing
    where SIGINT is ignored -- as in a job a non-interactive shell started in
    the background: give Python its own handler for the test."""
    old = signal.getsignal(signal.SIGINT)
    if old in (signal.SIG_IGN, signal.SIG_DFL):
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)

# three players, eighteen cards, transfers: far more than a second of search
SLOW_3P = ("trump C; hands 6S JH AH 7D 9D TD | JS KS 7H TH 9C QC | 7S 9S AS JD 7C AC; "
           "attacker 3; rules transfer")


def two_threads(tt_mb: int = 16) -> CoreBackend:
    """A backend whose every value runs on two threads (none sequential first)."""
    b = CoreBackend(tt_mb, threads=2)
    b.parallel_from = 0
    return b


def helpers_alive() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "durak-prover" and t.is_alive()]


def answer(r):
    return (r.value, r.distance, sorted(r.best), [(m.move, m.value, m.distance) for m in r.moves])


def test_two_threads_agree_with_the_oracles_on_every_move():
    # the proof search itself (CoreBackend.run, not the retrograde graph that
    # Solver gives small games of three and more): 2-4 players, transfers,
    # bouts in progress, teams, first_out_wins
    b = two_threads()
    rng = random.Random(20261202)
    for _ in range(150):
        s, hero = position(rng)
        want = {m: (NAMES[v], d) for m, v, d in oracle_moves(s, hero)}
        b.search.clear()
        got = b.run(s, hero, True, None, None, True, True)
        assert got.exact, s
        assert {m.move: (m.value, m.distance) for m in got.moves} == want, s
        if got.value != Value.DRAW:
            end = replay(s, got.pv)
            assert len(got.pv) == got.distance, s
            assert end.is_over and Value(end.outcome()[hero]) == got.value, s
    assert not helpers_alive()


def test_two_threads_agree_with_the_oracles_on_solves_best_moves():
    # solve: the root's distance in this thread beside the moves in the
    # helper's, each move only asked whether it keeps the value
    b = two_threads()
    rng = random.Random(20261203)
    for _ in range(100):
        s, hero = position(rng)
        moves = oracle_moves(s, hero)
        mine = on_hero_side(s, hero, s.to_move)
        rank = {Value.WIN: 1, Value.DRAW: 0, Value.LOSS: -1}
        values = [NAMES[v] for _, v, _ in moves]
        best = (max if mine else min)(values, key=rank.__getitem__)
        b.search.clear()
        got = b.run(s, hero, False, None, None, True, True)
        assert got.exact and got.value == best, s
        assert sorted(got.best) == sorted(m for m, v, _ in moves if NAMES[v] == best), s
        if best != Value.DRAW:
            plies = [d for _, v, d in moves if NAMES[v] == best]
            assert got.distance == (min if (best == Value.WIN) == mine else max)(plies), s
            end = replay(s, got.pv)
            assert len(got.pv) == got.distance and end.is_over, s
            assert Value(end.outcome()[hero]) == got.value, s
    assert not helpers_alive()


@pytest.mark.parametrize("sizes,transfer", [([7, 7], False), ([6, 6], True), ([4, 4, 3], False)])
def test_two_threads_answer_larger_endgames_as_one_thread_does(sizes, transfer):
    rng = random.Random(f"threads-{sizes}-{transfer}")
    one, two = CoreBackend(16), two_threads()
    for _ in range(4):
        s = deal_endgame(rng, sizes, Rules(transfer=transfer))
        for all_moves in (False, True):
            one.search.clear()
            two.search.clear()
            a = one.run(s, s.to_move, all_moves, None, None, True, True)
            b = two.run(s, s.to_move, all_moves, None, None, True, True)
            assert a.exact and b.exact
            assert answer(a) == answer(b), s
            assert b.nodes > 0 and two.helper.search.nodes > 0  # both threads searched


def test_both_threads_prove_the_others_limits_against_a_lone_hero():
    # 3-4 players, no teams: the thread asked the hero's side also proves the
    # coalition's ply limits (_Deepening); every answer stays one thread's
    one, two = CoreBackend(16), two_threads()
    rng = random.Random("lone-hero")
    for _ in range(12):
        s = deal_endgame(rng, rng.choice([[4, 4, 4], [3, 3, 3, 3]]), Rules())
        for all_moves in (False, True):
            one.search.clear()
            two.search.clear()
            a = one.run(s, s.to_move, all_moves, None, None, True, True)
            b = two.run(s, s.to_move, all_moves, None, None, True, True)
            assert a.exact and b.exact and answer(a) == answer(b), s
    assert two.shared_limits > 0 and two.helper.shared_limits > 0
    assert not helpers_alive()


def test_the_helper_joins_the_roots_distance_walk_once_it_has_asked_the_moves():
    # solve: the helper asks the moves beside this thread's distance walk and
    # then walks with it (Walk); the answers stay those of one thread
    one, two = CoreBackend(16), CoreBackend(16, threads=2)
    joined = 0
    for k in range(40):
        s = deal_endgame(random.Random(k), [7, 7], Rules())
        before = two.walks_joined
        one.search.clear()
        two.search.clear()
        a = one.run(s, s.to_move, False, None, None, True, True)
        b = two.run(s, s.to_move, False, None, None, True, True)
        assert a.exact and b.exact and answer(a) == answer(b), s
        joined += two.walks_joined > before
    assert joined >= 2  # (6 of the 40 here; how many join depends on the threads' pace)
    assert not helpers_alive()


def test_a_budget_during_a_joined_walk_ends_both_threads():
    # a 3-player hero win in 79 plies: its moves are asked within a second
    # here (8 s leave room for a machine a few times slower), its distance walk
    # takes half a minute
    s = parse_position("trump H; hands JS QS TH JH JC | QH KH KD 9C QC | 7S 8H 9H JD 8C; "
                       "attacker 1").state
    b = CoreBackend(16, threads=2)
    t0 = time.monotonic()
    r = b.run(s, 0, False, 8.0, None, True, True)
    assert time.monotonic() - t0 < 9.5
    assert b.walks_joined == 1 and not helpers_alive()
    assert not r.exact and r.value == Value.WIN and r.best == ["QS"] and r.best_complete
    assert r.distance_lower is not None and r.distance_lower <= 79
    assert not b.search.stopped and not b.helper.search.stopped


def test_a_stopped_search_ends_within_a_thousand_nodes_and_runs_again_after():
    s = deal_endgame(random.Random(5), [9, 9], Rules())
    b = CoreBackend(16)
    st = load(b.search, s)
    b.search.stop()
    assert b.search.stopped
    assert b.search.prove(st, s.to_move, 1) == (-1, 0)
    assert b.search.nodes <= 1025
    b.search.stop(0)
    assert b.search.prove(st, s.to_move, 1)[0] in (0, 1)


def test_a_table_is_shared_once_and_by_a_search_that_owns_its_own():
    one, two = CoreBackend(4), two_threads(4)
    once = "share_table: once, with another search that owns its table"
    with pytest.raises(ValueError, match=once):
        two.helper.search.share_table(one.search)  # already shares
    with pytest.raises(ValueError, match=once):
        one.search.share_table(two.helper.search)  # that one owns no table
    with pytest.raises(ValueError, match=once):
        one.search.share_table(one.search)


def test_a_time_budget_ends_both_threads():
    solver = Solver(tt_mb=16, threads=2)
    t0 = time.monotonic()
    with pytest.raises(BudgetExceeded) as e:
        solver.analyse(SLOW_3P, 1, max_time=0.5)
    assert time.monotonic() - t0 < 2.0
    assert e.value.partial is not None and not e.value.partial.exact
    assert not helpers_alive()


def test_a_budget_while_the_moves_are_shared_out_ends_both_threads():
    # analyse's moves go to both threads, one at a time (_ask_moves)
    s = deal_endgame(random.Random(1), [10, 10], Rules())
    b = CoreBackend(16, threads=2)
    st = b.load(s)
    b.deadline = time.monotonic() + 0.2
    t0 = time.monotonic()
    with pytest.raises(Aborted):
        b._children(st, s.to_move, True, None, None, True)  # value not known
    assert time.monotonic() - t0 < 1.0
    assert not helpers_alive()
    assert not b.search.stopped and not b.helper.search.stopped


def test_ctrl_c_ends_both_threads():
    solver = Solver(tt_mb=16, threads=2)
    timer = threading.Timer(0.5, _thread.interrupt_main)  # Ctrl-C, as the terminal sends it
    timer.start()
    try:
        with pytest.raises(Interrupted) as e:
            solver.analyse(SLOW_3P, 1, max_time=60)
    finally:
        timer.cancel()
    assert not e.value.partial.exact
    assert not helpers_alive()
    # and the solver answers the next question
    assert solver.solve("trump H; hands 6S 7S KH | 8C 9C AH; attacker 1").value == Value.WIN


@pytest.fixture()
def no_gc_callbacks():
    """The garbage collector's callbacks set aside: a Ctrl-C that lands while one runs
    (Hypothesis installs one to time its tests) is swallowed by the interpreter
    ("Exception ignored in ... gc_callback"), and the search then runs to its budget --
    an interrupt lost in the test tool, not in durak."""
    saved = list(gc.callbacks)
    gc.callbacks.clear()
    yield
    gc.callbacks.extend(saved)


def test_ctrl_c_at_any_moment_leaves_no_thread_behind(no_gc_callbacks):
    # Ctrl-C may land anywhere: inside the core, between two proofs, right
    # after a helper thread starts, while it waits for a move's answer
    rng = random.Random(6)
    solver = Solver(tt_mb=16, threads=2)
    games = [deal_endgame(random.Random(k), [8, 8], Rules()) for k in range(4)]
    games += [deal_endgame(random.Random(k), [5, 5, 5], Rules()) for k in range(2)]
    stopped = 0
    for _ in range(30):
        s = rng.choice(games)
        timer = threading.Timer(rng.choice([0.001, 0.003, 0.01, 0.03]), _thread.interrupt_main)
        try:
            try:
                timer.start()  # (a 1 ms timer may fire before start returns)
                (solver.analyse if rng.random() < 0.5 else solver.solve)(s, max_time=5)
            finally:
                timer.cancel()
            time.sleep(0.1)  # an interrupt later than the answer lands here
        except Interrupted as e:  # in the solver: what is proven so far, not exact
            assert e.partial is not None and not e.partial.exact
            stopped += 1
        except KeyboardInterrupt:  # in the sleep
            pass
        assert not helpers_alive()
    assert stopped >= 10  # most interrupts did land inside the solver
    # and the solver still answers exactly, as one thread does
    one = Solver(tt_mb=16)
    for s in games[:4]:  # (the 8 v 8 ones: some 5-5-5 take minutes)
        assert answer(solver.analyse(s)) == answer(one.analyse(s))
