"""A line at the game prompt costs work in proportion to its length, and little (issue 73).

A line just under the prompt's 20,000-character cap cost about 2 s of CPU on a busy
machine (ten such lines: 21 s): the answer to a line the prompt cannot take looks
for the nearest legal reading of a typo, and the edit distance from the whole line
to every command and legal move filled a table of 20,000 x the reading's letters
each time.  A reading whose length differs from the line's by more than the edits
allowed is now never compared letter by letter (:func:`solver.cli.suggest.distance`).

The work is counted, not timed: the Python lines run while the prompt takes one
line (``sys.settrace``), the same on a fast or a loaded machine.
"""
from __future__ import annotations

import sys

import pytest

from solver.cli.prompt import MAX_LINE, GamePrompt
from solver.cli.suggest import distance, nearest
from solver.play.seats import GameSession

N = MAX_LINE - 1
#: Long lines of every shape a reading takes a different path for.
LINES = {
    "one word": "x" * N,
    "a typo and a tail": "tkae" + "x" * (N - 4),
    "digits": "1" * N,
    "tens": ("10" * N)[:N],
    "suit symbols": "\u2660" * N,
    "semicolons": ("6S;" * N)[:N],
    "a word again and again": ("take" * N)[:N],
    "cards and spaces": ("6S " * N)[:N],
    "cards and commas": ("6S, " * N)[:N],
    "draw": ("draw " + "9C " * N)[:N],
}
#: The most Python lines the prompt may run per character of a line (the largest
#: today: 26, for a line of 6,666 cards; before the fix 400 for one long word).
LINES_PER_CHARACTER = 50


def lines_run(func, *args) -> int:
    """The Python lines run by ``func(*args)`` (every frame's, counted by a tracer)."""
    n = 0

    def tracer(frame, event, arg):
        nonlocal n
        n += 1
        return tracer

    sys.settrace(tracer)
    try:
        func(*args)
    finally:
        sys.settrace(None)
    return n


@pytest.mark.parametrize("line", LINES.values(), ids=LINES.keys())
def test_a_long_line_at_the_prompt_costs_work_in_proportion_and_little(line):
    assert len(line) == N
    said: list = []
    prompt = GamePrompt(GameSession.new(2, seed=1, engine="greedy"), "play", out=said.append)
    assert lines_run(prompt._do, line) < LINES_PER_CHARACTER * len(line)
    assert said  # it answered the line


def test_the_distance_of_words_far_apart_in_length_is_not_worked_out():
    long = "x" * N
    assert distance(long, "take", 2) == 3
    assert lines_run(distance, long, "take", 2) < 10
    # as far as it says, it is exact
    assert distance("tkae", "take", 2) == 1 and distance("tkae", "take") == 1
    assert distance("hint", "hin", 0) == 1 and distance("hint", "hi", 1) == 2
    assert distance("abc", "xyz", 2) == 3 and distance("abc", "xyz") == 3


def test_a_typo_still_gets_its_nearest_reading():
    assert nearest("tkae", ["6S/7S", "take"]) == ["take"]
    assert nearest("hnit", []) == ["hint"]
    assert nearest("tkae" + "x" * 100, ["take"]) == []
