"""The game prompt fed any lines (hypothesis): moves good and bad, junk, undos and
Ctrl-C at any point, then a restart from the saved record -- the record always
replays to the state the prompt had (#51 item 8)."""
from __future__ import annotations

import io
import sys

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from solver.cli.prompt import GamePrompt
from solver.games import Game
from solver.play.seats import GameSession

#: What a player may type: a move of the turn (by its place in the legal list),
#: a card or word that may be wrong, a command, or a Ctrl-C.
LINES = st.one_of(
    st.tuples(st.just("move"), st.integers(0, 30)),
    st.tuples(st.just("text"), st.sampled_from(["6S", "AH", "take", "pass", "2:+7D", "draw 9C",
                                                "", "zz", "7s 7h", "1:6S/8S", ">6H", "swap"])),
    st.tuples(st.just("undo"), st.none()),
    st.tuples(st.just("show"), st.none()),
    st.tuples(st.just("ctrl-c"), st.none()),
)


class Feed(io.StringIO):
    """Standard input for the prompt: lines chosen from the session's state as it
    is asked, and a Ctrl-C (KeyboardInterrupt) where the script says."""

    def __init__(self, script: list, prompt: list[GamePrompt]):
        super().__init__()
        self.script = script
        self.prompt = prompt

    def isatty(self) -> bool:
        return False

    def readline(self, *args: object) -> str:
        if not self.script:
            return ""  # end of input: the prompt leaves as on Ctrl-D
        kind, arg = self.script.pop(0)
        s = self.prompt[0].session
        if kind == "ctrl-c":
            raise KeyboardInterrupt
        if kind == "move":
            moves = s.turn().moves or ["pass"]
            return f"{moves[arg % len(moves)]}\n"
        if kind == "undo":
            return "undo\n"
        if kind == "show":
            return "show\n"
        return f"{arg}\n"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 500), players=st.integers(2, 4), script=st.lists(LINES, max_size=80))
def test_any_lines_and_interrupts_leave_a_record_that_replays(tmp_path_factory, seed, players,
                                                             script):
    path = tmp_path_factory.mktemp("rec") / "g.txt"
    out = io.StringIO()
    holder: list[GamePrompt] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdout", out)
        mp.setattr(sys, "stdin", Feed(list(script), holder))
        run_prompt(path, players, seed, holder, out)


def run_prompt(path, players: int, seed: int, holder: list[GamePrompt], out: io.StringIO) -> None:
    session = GameSession.new(players, seed=seed, engine="greedy", path=path)
    while True:
        prompt = GamePrompt(session, "play", samples=8, out=lambda x: out.write(str(x) + "\n"))
        holder[:] = [prompt]
        code = prompt.run()
        state, entries = session.state, list(session.entries)
        saved = Game.parse(path.read_text())
        assert saved.tokens() == entries and saved.final == state
        if code == 0:
            break
        assert code == 130  # Ctrl-C at the prompt: nothing lost; go on from the file
        session = GameSession.load(path.read_text(), path)
        assert session.state == state and session.entries == entries
    session.close()
