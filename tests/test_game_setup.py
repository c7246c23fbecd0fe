"""`durak game`'s questions about the table (issue 69): each answer checked when it is
given, against the answers before it, and a wrong one asked again -- at a terminal and on
a pipe -- never the whole table refused after the last question."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from solver.games import Game

from terminal import as_at_a_terminal

pexpect = pytest.importorskip("pexpect", reason="the prompt tests need pexpect (the test extra)")

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def test_each_wrong_answer_at_the_terminal_is_asked_again(tmp_path):
    """At a terminal, in Russian: the face-up trump named in your own hand, a card named
    twice, five cards, a card that does not exist and a seat not at the table are each
    said under the question and the question asked again; the answers before stand."""
    record = tmp_path / "setup.txt"
    env = dict(os.environ, DURAK_DATA_DIR=str(tmp_path), COLUMNS="100", TERM="xterm")
    child = pexpect.spawn(sys.executable, ["-m", "solver.cli", "game", "--lang", "ru",
                                           "--record", str(record)],
                          env=env, encoding="utf-8", timeout=60, dimensions=(40, 100),
                          preexec_fn=as_at_a_terminal)
    answers = [("Игроков за столом", "2", None),
               ("Правила", "", None),
               ("Ваше место", "1", None),
               ("Открытый козырь", "9X", "неверная масть"),
               ("Открытый козырь", "9H", None),
               ("Ваши шесть карт", "6S 7S KH 8C 9C 9H", "открытый козырь: он лежит под колодой"),
               ("Ваши шесть карт", "6S 6S 7S KH 8C 9C", "названа дважды"),
               ("Ваши шесть карт", "6S 7S KH 8C 9C", "названо 5 карт"),
               ("Ваши шесть карт", "1S 7S KH 8C 9C AC", "неизвестная карта '1S'"),
               ("Ваши шесть карт", "6S 7S KH 8C 9C AC", None),
               ("Кто ходит первым", "3", "3 не от 1 до 2"),
               ("Кто ходит первым", "2", None)]
    said = None
    for question, answer, error in answers:
        child.expect(re.escape(question) + r"[^\n]*: ")
        if said is not None:  # the last answer's error stood between it and this question
            assert said in ANSI.sub("", child.before)
        child.sendline(answer)
        said = error
    child.expect(r"игрок 2> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    game = Game.parse(record.read_text())
    assert game.players == 2 and game.start().attacker == 1
    assert "deal 1 6S 7S KH 8C 9C AC" in record.read_text()


def test_wrong_answers_on_a_pipe_are_said_and_the_next_line_read(tmp_path):
    """From a pipe the wrong answers are said on stderr with their question and the next
    line is the next try; the table is set and the game starts (exit 0)."""
    lines = ["7", "2", "", "3", "1", "H", "9H", "6S 7S KH 8C 9C 9H", "6S 7S KH 8C 9C AC", "1",
             "quit"]
    p = subprocess.run([sys.executable, "-m", "solver.cli", "game", "--record",
                        str(tmp_path / "pipe.txt")], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, DURAK_DATA_DIR=str(tmp_path)))
    assert p.returncode == 0, p.stderr
    for said in ("Players at the table (2-6): 7 is not between 2 and 6",
                 "3 is not between 1 and 2",
                 "the pile holds 24 cards: name the face-up trump card itself",
                 "9H is the face-up trump card: it lies under the pile, not in your hand"):
        assert said in p.stderr, p.stderr
    assert "deal 1 6S 7S KH 8C 9C AC" in (tmp_path / "pipe.txt").read_text()


def test_the_answers_end_before_the_table_is_set(tmp_path):
    """Input that ends before every question is answered: one line naming the question
    left (exit 2), as before."""
    p = subprocess.run([sys.executable, "-m", "solver.cli", "game", "--record",
                        str(tmp_path / "x.txt")], input="2\n\n1\n9H\n6S 6S\n",
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, DURAK_DATA_DIR=str(tmp_path)))
    assert p.returncode == 2
    assert p.stderr.splitlines()[-1].startswith("durak: error: no answer to: Your six cards")
