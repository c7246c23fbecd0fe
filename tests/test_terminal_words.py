"""Every word a player reads at the terminal in his language (issue 69): each command --
show, moves, solve, analyse, hint, review, play, game, match, compare, puzzle
list/show/train -- under
``--lang lt`` and ``--lang ru`` given on the command itself, and under
``LANG=ru_RU.UTF-8``, shows no English word of the catalogues (but names and notation)
and no number in English separators; the cards in the player's letters at the board;
labels that never run into the next field; the analyse and review columns in distinct
words."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from english_words import left_in_english

from solver.cli.suggest import COMMANDS
from solver.i18n import _, pgettext, use_language

from terminal import as_at_a_terminal

ROOT = Path(__file__).resolve().parent.parent
SMALL = "trump H; hands 8S KH QS 7D | 8C 9C AH JD 6D; attacker 1"
#: Three players, cut by a node budget: the estimate's lines and the budget's message.
BUDGET = ("trump H; hands JS QS TH JH JC | QH KH KD 9C QC | 7S 8H 9H JD 8C; attacker 1",
          "--max-nodes", "3000", "--threads", "1", "--hero", "1")
MIDGAME = str(ROOT / "docs" / "examples" / "seat1-midgame.txt")
#: `durak game`'s table asked and answered, a typo, a refused throw-in, a draw, a hint.
FOLLOW = "2\n\n1\n9H\n6S 7S KH 8C 9C AC\n2\n6x\n6D\nKH\n+8C\n\n7h\nhint\nshow\nquit\n"

#: Each command as run, its standard input, and the exit codes it may end with.
RUNS = {
    "show": (["show", SMALL], None, (0,)),
    "moves": (["moves", SMALL], None, (0,)),
    "solve": (["solve", SMALL], None, (0,)),
    "analyse": (["analyse", SMALL], None, (0,)),
    "analyse-budget": (["analyse", *BUDGET], None, (3,)),
    "hint": (["hint", "--game", MIDGAME, "--seed", "1", "-n", "64", "--verbose"], None, (0,)),
    "review": (["review", str(ROOT / "docs" / "examples" / "full-game.txt"), "--exact-only"],
               None, (0,)),
    "play": (["play", "--vs", "greedy", "--seed", "5"], "xx\nhint\nshow\nhelp\nundo\nquit\n",
             (0,)),
    "game": (["game"], FOLLOW, (0,)),
    "match": (["match", "--a", "greedy", "--b", "random", "--games", "4", "--seed", "7",
               "--sprt", "0.5,0.6"], None, (0,)),
    "compare": (["compare", str(ROOT / "docs" / "examples" / "match-greedy.json"),
                 str(ROOT / "docs" / "examples" / "match-random.json")], None, (0,)),
    "puzzle list": (["puzzle", "list", "podkidnoy"], None, (0,)),
    "puzzle show": (["puzzle", "show", "mo-001", "--solution"], None, (0,)),
    "puzzle train": (["puzzle", "train", "--id", "mo-001"],
                     "hint\nhint\nmoves\nzz\nTH\nTC\nTH\n+KD\nquit\n", (0,)),
    "puzzle solve": (["puzzle", "solve", "pod-001"], None, (0,)),
    "puzzle check": (["puzzle", "check", "podkidnoy"], None, (0,)),
    # (a collection is a file, in the notation's English: written to one, only the
    # summary is for the person)
    "puzzle generate": (["puzzle", "generate", "--count", "1", "--seed", "1", "--out",
                         "generated.toml"], None, (0,)),
}

#: What a player types at the prompts in every language (the prompt's commands, the
#: moves said in a word, the Enter key, the FILE of `save FILE`) and the puzzle
#: collections' ids: names, not words to translate.
TYPED = {*COMMANDS, "moves", "take", "pass", "auto", "FILE", "Enter", "podkidnoy"}


def readable(text: str) -> str:
    """``text`` without what is notation or a name: the commands quoted in backquotes,
    file paths, the positions a puzzle shows, the words typed at the prompts."""
    text = re.sub(r"`[^`\n]*`", " ", text)
    text = re.sub(r"\S*/\S*/\S*", " ", text)  # a path (a move has one slash at most)
    text = re.sub(r"trump [^\n]*attacker \d", " ", text)
    text = re.sub(r"\S+ \([AB]\)", " ", text)  # a match's policies, by their names
    return " ".join(w for w in re.split(r"(\W+)", text) if w not in TYPED)


def durak(args: list[str], lang: str | None, stdin: str | None, tmp_path: Path,
          env_lang: str | None = None) -> subprocess.CompletedProcess:
    """``durak`` with ``--lang`` on the command itself (the subcommand of `puzzle`)."""
    at = 2 if args[0] == "puzzle" else 1
    argv = args[:at] + (["--lang", lang] if lang else []) + args[at:]
    env = {"PATH": "/usr/bin:/bin", "DURAK_CARDS": "symbols", "COLUMNS": "120",
           "DURAK_DATA_DIR": str(tmp_path)}
    if env_lang:
        env["LANG"] = env_lang
    return subprocess.run([sys.executable, "-m", "solver.cli", *argv], input=stdin,
                          capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)


@pytest.mark.parametrize("lang", ["lt", "ru"])
@pytest.mark.parametrize("name", list(RUNS))
def test_no_english_word_and_no_english_number_at_the_terminal(name, lang, tmp_path):
    """``--lang`` on the command (``durak solve --lang lt``: a usage error before), and
    every line it prints -- results, prompts, narration, refusals, the budget's message
    -- in the player's language, the numbers in his separators (``2 048``, ``0,41``)."""
    args, stdin, codes = RUNS[name]
    args = [str(tmp_path / a) if a == "generated.toml" else a for a in args]
    p = durak(args, lang, stdin, tmp_path)
    assert p.returncode in codes, (p.returncode, p.stderr)
    said = p.stdout + p.stderr
    left = left_in_english(readable(said))
    assert not left, (left, said)
    english_numbers = re.findall(r"\d,\d{3}\b|(?<![\w.:/-])\d+\.\d+\b", readable(said))
    assert not english_numbers, (english_numbers, said)


@pytest.mark.parametrize("name", ["show", "moves", "puzzle list", "puzzle show"])
def test_the_environment_chooses_russian(name, tmp_path):
    """Without --lang, ``LANG=ru_RU.UTF-8`` talks Russian (no --lang anywhere)."""
    args, stdin, codes = RUNS[name]
    p = durak(args, None, stdin, tmp_path, env_lang="ru_RU.UTF-8")
    assert p.returncode in codes, p.stderr
    assert re.search("[а-я]", p.stdout) and not left_in_english(readable(p.stdout)), p.stdout


def test_the_russian_cards_in_one_alphabet_wherever_a_person_reads_them(tmp_path):
    """`durak show`, `durak puzzle show` and `train` in Russian: the court cards in the
    letters of Russian decks (Д♠, К♥, Т♥), never Q/J/K/A beside a suit symbol; the moves
    line of `show` in the same letters (it was the notation, 8S QS KH)."""
    for name in ("show", "puzzle show", "puzzle train"):
        args, stdin, _codes = RUNS[name]
        out = durak(args, "ru", stdin, tmp_path).stdout
        assert not re.search(r"[JQKA][♠♥♦♣]", out), (name, out)
        assert re.search(r"[ВДКТ][♠♥♦♣]", out), (name, out)
    show = durak(RUNS["show"][0], "ru", None, tmp_path).stdout
    assert "Игрок 1 заходит (P1): 7♦ 8♠ Д♠ К♥" in show
    train = durak(RUNS["puzzle train"][0], "en", RUNS["puzzle train"][1], tmp_path).stdout
    assert "Seat 1 (attacker, to move): 10♥ K♦ 10♣" in train  # not TH KD TC
    assert "TH" not in train.replace("> TH", "")


def spawn(args: list[str], tmp_path: Path, columns: int = 120) -> "pexpect.spawn":
    pexpect = pytest.importorskip("pexpect", reason="the terminal tests need pexpect")
    env = dict(os.environ, DURAK_DATA_DIR=str(tmp_path), COLUMNS=str(columns), TERM="xterm")
    env.pop("DURAK_CARDS", None)
    return pexpect.spawn(sys.executable, ["-m", "solver.cli", *args], env=env, encoding="utf-8",
                         timeout=120, dimensions=(60, columns), preexec_fn=as_at_a_terminal)


ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


@pytest.mark.parametrize("lang, seat, you", [("lt", "Žaidėjas", "Jūs, žaidėjas 1"),
                                             ("ru", "Игрок", "Вы, игрок 1")])
def test_the_board_at_the_terminal_keeps_its_columns_and_letters(lang, seat, you, tmp_path):
    """`durak play --players 3` at a terminal: each label ends before its cards (no
    "Žaidėjas 2 (kompiuteris)5 nematomos"), the cards of every row start in one column,
    and in Russian the hand shows В Д К Т as the moves line does."""
    child = spawn(["play", "--lang", lang, "--players", "3", "--vs", "greedy", "--seed", "7"],
                  tmp_path)
    child.expect(r"> ")
    board = ANSI.sub("", child.before)
    child.sendline("quit")
    child.expect(__import__("pexpect").EOF)
    rows = [ln for ln in board.splitlines() if ln.startswith((seat, you))]
    assert len(rows) == 3, board
    for row in rows:
        assert re.search(r"\)\S|[a-zа-яė]\d", row) is None, row  # a label run into a field
    column = {len(re.match(r"^.*?\S\s{2,}", row).group(0)) for row in rows}
    assert len(column) == 1, rows  # one column for every row's cards
    if lang == "ru":
        assert not re.search(r"[JQKA][♠♥♦♣]", board), board


@pytest.mark.parametrize("lang", ["lt", "ru"])
def test_the_hint_table_keeps_its_intervals_at_80_columns_and_on_a_pipe(lang, tmp_path):
    """The hint table in Lithuanian and Russian at an 80-column terminal and on a pipe:
    no cell cut short (…), each interval whole (``56 %–67 %``)."""
    args = ["hint", "--lang", lang, "--game", MIDGAME, "--seed", "1", "-n", "64"]
    child = spawn(args, tmp_path, columns=80)
    child.expect(__import__("pexpect").EOF)
    at_80 = ANSI.sub("", child.before)
    piped = durak(args[:1] + args[3:], lang, None, tmp_path).stdout
    for out in (at_80, piped):
        assert "…" not in out, out
        assert len(re.findall(r"\d+\u00a0%–\d+\u00a0%", out)) >= 8, out


@pytest.mark.parametrize("lang", ["lt", "ru"])
def test_the_review_table_keeps_its_cells_at_80_columns(lang, tmp_path):
    """The review in Lithuanian and Russian at an 80-column terminal: the headers and the
    verdicts wrap at their spaces; no move number, move, chance or "how" is cut (…)."""
    child = spawn(["review", "--lang", lang, RUNS["review"][0][1], "--exact-only"], tmp_path,
                  columns=80)
    child.expect(__import__("pexpect").EOF)
    out = ANSI.sub("", child.before)
    rows = [ln for ln in out.splitlines() if ln.startswith("│") and re.match(r"│ +\d", ln)]
    assert [int(r.split("│")[1]) for r in rows] == [28, 31, 34, 38, 39], out
    assert "…" not in out, out


def test_the_columns_have_distinct_words():
    """The analyse table's outcome column is not headed as the estimate, the review's
    verdict column not as an estimate, and its drop in chance is a loss, not a defeat."""
    with use_language("ru"):
        assert pgettext("analyse column", "value") == "исход" != _("estimate")
        assert pgettext("review column", "label") == "вердикт" != _("est.")
        assert pgettext("review column", "loss") == "потеря"
    with use_language("lt"):
        assert pgettext("analyse column", "value") == "rezultatas" != _("estimate")
        assert pgettext("review column", "loss") == "nuostolis"


def test_the_analyse_and_review_tables_in_russian(tmp_path):
    """The analyse table's head reads ход, исход, расстояние; the review's head has
    потеря and вердикт (not поражение, not two «оценка»)."""
    p = durak(["analyse", SMALL], "ru", None, tmp_path)
    head = next(ln for ln in p.stdout.splitlines() if "ход" in ln and "┃" in ln)
    assert re.findall(r"[а-я]+", head) == ["ход", "исход", "расстояние"]
    review = durak(RUNS["review"][0], "ru", None, tmp_path).stdout
    head = next(ln for ln in review.splitlines() if "сыграно" in ln)
    assert "потеря" in head and "вердикт" in head and "поражение" not in head
    assert head.count("оценка") <= 1


def test_train_counts_only_the_puzzles_played_to_their_end(tmp_path):
    """One puzzle solved, a quit in the middle of the next: one solved of one, the rest
    left -- not "Solved 1 of 2"."""
    p = durak(["puzzle", "train", "motifs"], "en", "TC\nTH\n+KD\nquit\n", tmp_path)
    assert p.returncode == 0, p.stderr
    assert "Solved!" in p.stdout
    assert "Solved 1 of 1 puzzle cleanly. 27 puzzles left unfinished." in p.stdout
    assert "of 2" not in p.stdout
