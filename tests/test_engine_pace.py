"""The engine's throw-in decisions at a terminal take the same time whether it had a
choice or not (docs/rules.md, "A pass at a game against the engine", F2): the spinner's
length must not tell the player that a seat held a card of the table's ranks."""
from __future__ import annotations

import io
import sys
from contextlib import nullcontext

import solver.cli.prompt as prompt_module
from solver.cli.prompt import THROW_IN_PACE, GamePrompt
from solver.play.seats import GameSession


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_every_throw_in_decision_of_the_engine_is_shown_for_the_same_least_time(monkeypatch):
    """F2: over whole games, each engine decision at a throw-in (a pass, forced or
    chosen, or a card thrown in) is held to THROW_IN_PACE on the (frozen) clock; no
    other decision is."""
    slept: list[tuple[str, str, float]] = []  # (phase, the move, seconds)
    decision: list[tuple[str, str]] = []
    monkeypatch.setattr(sys, "stderr", Terminal())
    monkeypatch.setattr(prompt_module.time, "monotonic", lambda: 100.0)
    monkeypatch.setattr(prompt_module.time, "sleep",
                        lambda s: slept.append((*decision[-1], s)))
    for seed in range(3):
        s = GameSession.new(2, seed=seed, engine="greedy", human=1)
        p = GamePrompt(s, "play", out=lambda x: None)
        monkeypatch.setattr(p, "_busy", lambda what: nullcontext())
        monkeypatch.setattr(p, "_tell", lambda acc: None)
        real = s.engine_move

        def engine_move(real=real, s=s):
            decision.append((s.turn().phase, ""))
            acc = real()
            decision[-1] = (decision[-1][0], s.entries[-1].split(":")[-1])
            return acc
        monkeypatch.setattr(s, "engine_move", engine_move)
        while not s.is_over:
            if s.engine_to_move:
                p._engine_moves()
            else:
                s.enter(s.turn().moves[0])
    throw_ins = [d for d in decision if d[0] in ("throw", "taken")]
    # passes and cards thrown in alike (a pass forced or chosen: the pace is the same)
    assert {m == "pass" for _ph, m in throw_ins} == {True, False}, throw_ins
    assert [(ph, n) for ph, n, _s in slept] == throw_ins
    assert {s for *_d, s in slept} == {THROW_IN_PACE}
