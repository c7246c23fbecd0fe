"""The prompt of a game at the terminal: `durak game` (a real game followed from one
seat) and `durak play` (a game against the engine).

A thin front end over :class:`~solver.games.session.GameSession`: it draws the
board the session describes (:meth:`~GameSession.snapshot`, :meth:`~GameSession.turn`),
passes every line typed to :meth:`~GameSession.enter_line` and runs the
commands (``hint``, ``auto``, ``solve``, ``review``, ``undo``, ...).  No rule of
the game is decided here.

The session saves its record after every accepted entry, so leaving by
``quit``, Ctrl-D or Ctrl-C (or SIGTERM) loses nothing: the record's path is
printed on the way out, with the commands that go on from it.  When the record
can no longer be saved (its folder deleted or made read-only), the prompt says
so once, the game goes on (the engine too), ``save FILE`` sends the record to
another file, and leaving never claims a save that did not happen: the record
is printed instead, and the exit code is 4.
"""
from __future__ import annotations

import os
import sys
import time
from contextlib import nullcontext
from typing import Any, Callable

from rich.text import Text

from solver.answers.commands import solve_answer
from solver.cli.common import ExitCode, ProgressBar, shown, stdout_console
from solver.cli.hinttable import print_hint_table
from solver.cli.review import print_review
from solver.cli.show import card_text, render
from solver.cli.solve import print_solve
from solver.cli.suggest import answer
from solver.errors import DurakError, Interrupted
from solver.game.cards import SUIT_SYMBOLS, SUITS, parse_card
from solver.games.narration import Told, game_over
from solver.games.recordfile import reason
from solver.games.review import review
from solver.games.readings import (could_play, example_draw, examples, rank_words,
                                   split_entries)
from solver.games.session import Accepted, GameSession, OnlyMove
from solver.i18n import N_, _, as_given, ngettext, number
from solver.notation.people import (drop_rule_ids, move_text, move_word, people_text, role_words,
                                    rules_text, symbols_wanted)
from solver.notation.position import Position
from solver.hints import HintResult
from solver.search import Solver, SolveResult

#: Seconds `solve` at the prompt may take (the exact answer of a known endgame).
SOLVE_MAX_TIME = 20.0
#: The longest line the prompt takes (a whole game's moves fit in a tenth of it).
MAX_LINE = 20_000
#: the least time an engine's throw-in decision is shown thinking at a terminal (seconds):
#: a pass it had no choice about would otherwise be instant, and the spinner's absence would
#: say what its hand lacks (docs/rules.md, "A pass at a game against the engine")
THROW_IN_PACE = 0.4

HELP_FOLLOW = N_(
    "Type what happens at the table: a move of the seat to move (6S, 6S/8S or just 8S to "
    "cover, take, pass, +8C or just 8C to throw in, >6H to transfer), or another seat's "
    "with its seat (3:+8C); the cards you draw when asked (7H KD); Enter passes for a "
    "seat whose hand you cannot see.\n"
    "Commands: hint (the hint table), auto (play the hint's move), solve (the exact answer "
    "once every card is known), show (the whole position), undo (the last entry), "
    "review, record, save FILE, help, quit.")
HELP_PLAY = N_(
    "Type your move: 6S (a lead; 6S,6D or 6S 6D for two cards), 8S or 6S/8S to cover, take, "
    "8C or +8C to throw in, pass, >6H to transfer.\n"
    "Commands: hint (the hint table), auto (play the hint's move), solve (the exact answer "
    "once every card is known), show (the whole position), undo (your last move and the "
    "engine's answers), review (your moves, judged), record, save FILE, help, quit.")

#: A seat's turn in words, by the phase (the player's own, another seat's).
_YOUR = {"lead": N_("Your move (you lead): "), "defend": N_("Your move (you defend): "),
         "throw": N_("Your move (you may throw in): "),
         "taken": N_("Your move (you may add cards to the take): ")}
_ROLE = {"lead": N_("Seat {seat} leads: "), "defend": N_("Seat {seat} defends: "),
         "throw": N_("Seat {seat} may throw in: "), "taken": N_("Seat {seat} may add cards: ")}


#: How each kind of narration line is drawn (solver/games/narration.py).
_TOLD_STYLE = {"done": "dim", "beaten": "green", "taken": "yellow", "transferred": "yellow", "draw": "cyan",
               "pile": "cyan", "out": "bold", "over": "bold", "turn": "dim"}


class GamePrompt:
    """One game at the prompt.  ``kind``: ``game`` (followed) or ``play`` (against
    the engine); ``samples``: deals per hint (None: the hint's default);
    ``verbose``: rule ids in the messages (R17, R20), as the docs cite them.

    Cards are written for people (``10♠``, ``7♥/A♥``) at a terminal that shows the
    suit symbols, in ASCII (``TS``) on a pipe or another terminal
    (:func:`~solver.notation.people.symbols_wanted`); either is typed back."""

    def __init__(self, session: GameSession, kind: str, samples: int | None = None,
                 out: Callable[[Any], None] | None = None, verbose: bool = False):
        self.session = session
        self.kind = kind
        self.samples = samples
        self.verbose = verbose
        self.con = stdout_console()
        self.tty = sys.stdin.isatty()
        self.board = sys.stdout.isatty()
        self.symbols = symbols_wanted(sys.stdout)
        self.print: Callable[[Any], None] = out or self.con.print

    def _say(self, text: str) -> str:
        """A message for the player: cards for people, rule ids only under --verbose."""
        text = people_text(text, self.symbols)
        return text if self.verbose else drop_rule_ids(text)

    # ------------------------------------------------------------ the loop
    def run(self) -> int:
        """Read lines until the game is left; returns the exit code."""
        try:
            self._engine_moves()
            self._show_turn()
            while True:
                self._saving_news()
                line = self._read()
                if line is None:
                    return self._leave(N_("end of input"))
                if not self._do(line):
                    return self._leave(N_("quit"))
        except KeyboardInterrupt:
            self._leave(N_("interrupted"))
            return int(ExitCode.INTERRUPTED)

    def _read(self) -> str | None:
        if self.tty:
            try:
                return input(self._prompt())
            except EOFError:
                self.print("")
                return None
        line = sys.stdin.readline()
        return None if not line else line.rstrip("\n")

    def _prompt(self) -> str:
        t = self.session.turn()
        if t.draw_due:
            return ngettext("your {n} drawn card> ", "your {n} drawn cards> ",
                            t.draw_due).format(n=t.draw_due)
        if t.seat is None:
            return _("game over> ")
        if t.seat == self.session.me:
            return _("your move> ")
        return _("seat {seat}> ").format(seat=t.seat)

    def _do(self, line: str) -> bool:
        """One line; False to leave."""
        if len(line) > MAX_LINE:
            self.print(Text(_("error: a line of {n} characters; the prompt takes at most "
                              "{most}").format(n=number(len(line)), most=number(MAX_LINE)),
                            style="red"))
            return True
        text = line.split("#", 1)[0].strip()
        word, _sep, rest = text.partition(" ")
        cmd = word.lower()
        try:
            self._engine_moves()  # where a Ctrl-C stopped the engine's thinking
            if not text:
                return self._enter_empty()
            if cmd in ("quit", "exit", "q"):
                return False
            if cmd in ("help", "?"):
                self.print(self._say(_(HELP_PLAY) if self.kind == "play" else _(HELP_FOLLOW)))
            elif cmd == "undo":
                self._undo()
            elif cmd == "show":
                for ln in render(Position(self.session.view(), self.session.me - 1),
                                 self.symbols, people=not self.verbose):
                    self.print(ln)
            elif cmd == "hint":
                self._hint()
            elif cmd == "auto":
                self._auto()
            elif cmd == "solve":
                self._solve()
            elif cmd == "review":
                self._review()
            elif cmd == "record":
                self.print(Text(self.session.record_text().rstrip("\n")))
            elif cmd == "save":
                self._save(rest.strip())
            else:
                self._entries(text)
        except DurakError as e:
            self.print(Text(_("error: ") + self._say(" ".join(str(e).split())), style="red"))
        except OSError as e:  # `save FILE`: the file and the system's reason
            where = f"{shown(os.fsdecode(e.filename))}: " if e.filename is not None else ""
            self.print(Text(_("error: ") + f"{where}{reason(e)}", style="red"))
        except KeyboardInterrupt:  # Ctrl-C while working: stop the work, keep the game
            self.print(Text(_("interrupted; the game goes on (Ctrl-C at the prompt, Ctrl-D or "
                              "`quit` leaves)"), style="yellow"))
        return True

    # ------------------------------------------------------------ entries
    def _entries(self, text: str) -> None:
        """The entries of one line, each told as it is accepted; at a refused one,
        the answer a person would give (:func:`solver.cli.suggest.answer`)."""
        accepted = False
        for item in split_entries(text):
            item = _in_notation(item)
            try:
                acc = self.session.enter(item)
            except DurakError as e:
                self._refused(item, e)
                if not accepted:
                    return
                break
            accepted = True
            self._tell(acc)
        self._engine_moves()
        self._show_turn()

    def _refused(self, typed: str, e: DurakError) -> None:
        t = self.session.turn()
        mine = t.seat == self.session.me and not t.draw_due
        msg = " ".join(str(e).split())
        # another seat's: the moves it could make with the cards you have not seen
        near = None if mine or t.draw_due or t.seat is None else could_play(self.session.view())
        said = answer(typed, msg, list(t.moves or ()) if mine else None, self.symbols, near=near)
        if said is None:
            self.print(Text(_("error: ") + self._say(msg), style="red"))
        else:
            self.print(Text(self._say(said), style="yellow"))

    def _tell(self, acc: Accepted, skip_mine: bool = False) -> None:
        """What is told at the table after an entry (solver/games/narration.py)."""
        if acc.note:
            self.print(Text(self._say(acc.note), style="yellow"))
        for told in acc.told:
            if skip_mine and told.kind == "move" and told.seat == self.session.me:
                continue
            self.print(self._told_line(told))

    def _told_line(self, told: Told) -> Text:
        line = told.text(self.symbols)
        if told.kind == "move":
            return Text(line)
        return Text("  " + line, style=_TOLD_STYLE.get(told.kind, ""))

    def _enter_empty(self) -> bool:
        """Enter on its own: a pass for a seat whose hand the player cannot see."""
        t = self.session.turn()
        if (t.seat is not None and t.seat != self.session.me and t.moves is None
                and t.phase in ("throw", "taken") and not t.draw_due):
            self._entries(f"{t.seat}:pass")
        return True

    def _engine_moves(self) -> None:
        """The engine's moves, each under the spinner; a throw-in decision (throw or
        pass, F2) is shown for at least :data:`THROW_IN_PACE` seconds, so the spinner's
        length does not tell a seat that could throw in from one that could not."""
        s = self.session
        while s.engine_to_move:
            t = s.turn()
            began = time.monotonic()
            with self._busy(_("seat {seat} (engine) is thinking").format(seat=t.seat)):
                acc = s.engine_move()
                if sys.stderr.isatty() and t.phase in ("throw", "taken"):
                    time.sleep(max(0.0, THROW_IN_PACE - (time.monotonic() - began)))
            self._tell(acc)

    def _undo(self) -> None:
        s = self.session
        gone = s.undo_turn() if s.game.engine is not None else [s.undo()]
        self.print(self._say(_("undone: {moves}").format(moves=" ".join(reversed(gone)))))
        self._show_turn()

    # ------------------------------------------------------------ answers
    def _hint(self) -> SolveResult | HintResult | OnlyMove:
        """The advice the review will judge this decision by: exact once every card is
        placed, else the hint table; at once when there is one legal move."""
        s = self.session
        try:
            with ProgressBar(_("hint: scoring deals")) as bar:
                res = s.hint(samples=self.samples, progress=bar.callback)
        except Interrupted as e:  # Ctrl-C: the hint from the deals scored so far
            if not isinstance(e.partial, HintResult):
                raise
            res = e.partial
        if isinstance(res, OnlyMove):
            self.print(_("one legal move: {move}").format(move=move_text(res.best, self.symbols)))
        elif isinstance(res, SolveResult):
            self.print(_("every card is known: the exact value of every move"))
            print_solve(res, True, self.symbols)
        else:
            print_hint_table(res, self.symbols)
            if res.interrupted:
                self.print(Text(ngettext("hint interrupted after {n} deal",
                                         "hint interrupted after {n} deals",
                                         res.samples).format(n=res.samples), style="yellow"))
        return res

    def _auto(self) -> None:
        res = self._hint()
        if isinstance(res, HintResult) and res.interrupted:
            return
        best = res.best if isinstance(res, (HintResult, OnlyMove)) else res.best[0]
        self.print(Text(_("auto: you play {move}").format(move=move_text(best, self.symbols)),
                        style="bold"))
        self._tell(self.session.enter(f"{self.session.me}:{best}"), skip_mine=True)
        self._engine_moves()
        self._show_turn()

    def _solve(self) -> None:
        s = self.session
        state = s.known_state()
        if state is None:
            v = s.view()
            why = (ngettext("the pile still holds {n} card", "the pile still holds {n} cards",
                            v.pile).format(n=v.pile) if v.pile
                   else _("the other hands do not follow from what you saw yet"))
            self.print(_("not yet: {why}; `hint` estimates the moves").format(why=why))
            return
        with self._busy(_("solving")):
            ans = solve_answer(state, s.me, max_time=SOLVE_MAX_TIME, solver=Solver())
        print_solve(ans.result, False, self.symbols)  # type: ignore[arg-type]
        if not ans.exact:
            self.print(Text(_("(cut off after {seconds} s: what is proven so far)").format(
                seconds=as_given(SOLVE_MAX_TIME)), style="yellow"))

    def _review(self) -> None:
        s = self.session
        with ProgressBar(_("reviewing")) as bar:
            res = review(s.game, seat=s.me, seed=s.seed, progress=bar.callback)
        print_review(res, self.symbols)
        if res.interrupted:
            self.print(Text(_("review interrupted"), style="yellow"))

    def _save(self, name: str) -> None:
        if not name:
            self.print(_("save: give a file name"))
            return
        rf = self.session.record_file
        moving = rf is not None and rf.failure is not None
        path = self.session.save_copy(name)
        n = len(self.session.entries)
        self.print(Text(ngettext("saved {n} entry to {path}", "saved {n} entries to {path}",
                                 n).format(n=n, path=shown(str(path)))
                        + (_("; the record is saved there after every entry from now on")
                           if moving else "")))

    def _saving_news(self) -> None:
        """Say once that saving the record failed (and where the moves can go), or
        that it works again."""
        rf = self.session.record_file
        if rf is None:
            return
        for news in rf.news():
            if news.kind == "failed" and news.error is not None:
                self.print(Text(
                    _("saving the record failed: {path}: {reason} ({held}). The game goes on; "
                      "`save FILE` saves it to another file, where it is saved after every "
                      "entry from then on.").format(path=shown(str(news.path)),
                                                    reason=reason(news.error),
                                                    held=rf.held()), style="bold red"))
            elif news.kind == "recovered":
                self.print(Text(ngettext("the record is saved again in {path} ({n} entry)",
                                         "the record is saved again in {path} ({n} entries)",
                                         news.saved or 0).format(path=shown(str(news.path)),
                                                                 n=news.saved),
                                style="yellow"))

    # ------------------------------------------------------------ drawing
    def _busy(self, what: str) -> Any:
        if sys.stderr.isatty():
            return self.con.status(what, spinner="dots")
        return nullcontext()

    def _show_turn(self) -> None:
        s = self.session
        if self.board:
            for ln in board_lines(s, self.symbols):
                self.print(ln)
        self.print(self._next_line())

    def _next_line(self) -> Text:
        s = self.session
        t = s.turn()
        if t.seat is None:
            info = s.outcome
            text = (game_over(info, info["scores"][s.me - 1], ids=self.verbose) if info
                    else _("Game over: the game is over"))
            tail = _(" -- `review` judges your moves, `undo` takes back, `quit` leaves")
            return Text(self._say(text), style="bold").append(tail, style="dim")
        if t.draw_due:
            return Text(self._say(ngettext(
                "The bout is over: name the {n} card you drew (R17), e.g. {example}",
                "The bout is over: name the {n} cards you drew (R17), e.g. {example}",
                t.draw_due).format(n=t.draw_due, example=example_draw(s.state, t.draw_due))),
                style="bold")
        moves = " ".join(move_text(m, self.symbols) for m in t.moves or ())
        if t.seat == s.me:
            head = Text(_(_YOUR[t.phase]) if t.phase in _YOUR else f"{t.phase}: ", style="bold")
            return head.append(moves).append(_("   hint · auto · help"), style="dim")
        role = (_(_ROLE[t.phase]) if t.phase in _ROLE else "{seat}: ").format(seat=t.seat)
        if t.moves is not None:  # a hand that follows from what was seen
            return Text(role, style="bold").append(moves)
        return Text(role, style="bold").append(self._say(_expect(t, s)))

    def _leave(self, why: str) -> int:
        """Say where the record is (never a save that did not happen); the exit code:
        4 when the record as it stands could not be saved."""
        s = self.session
        rf = s.record_file
        if rf is None:
            return int(ExitCode.OK)
        n = len(s.entries)
        path = shown(str(rf.path))
        if rf.failure is not None and not rf.write(s.record_text(), n):  # one last try
            self.print(Text(s.record_text().rstrip("\n")))
            print(ngettext("{why}: the record ({n} entry) could not be saved: {path}: {reason} "
                           "({held}). The whole record is printed above: copy it to a file to "
                           "go on with it.",
                           "{why}: the record ({n} entries) could not be saved: {path}: {reason} "
                           "({held}). The whole record is printed above: copy it to a file to "
                           "go on with it.", n).format(
                               why=_(why), n=n, path=path, reason=reason(rf.failure),
                               held=rf.held()), file=sys.stderr)
            s.close()
            return int(ExitCode.OS_ERROR)
        again = "durak play --resume" if self.kind == "play" else "durak game --resume"
        msg = ngettext("{why}: the record ({n} entry) is saved in {path}\n"
                       "go on with `{again} {path}`, review it with `durak review {path}`",
                       "{why}: the record ({n} entries) is saved in {path}\n"
                       "go on with `{again} {path}`, review it with `durak review {path}`",
                       n).format(why=_(why), n=n, path=path, again=again)
        print(msg, file=sys.stderr)
        s.close()
        return int(ExitCode.OK)


def _expect(t: Any, s: GameSession) -> str:
    """What to type for a seat whose hand the player cannot see."""
    if t.phase == "lead":
        one, two = examples(s.view(), 1), examples(s.view(), 2, pair=True)
        if one and two:
            return _("type the card(s) seat {seat} led, e.g. {card} (two: {two})").format(
                seat=t.seat, card=one[0], two=" ".join(two))
        return _("type the card(s) seat {seat} led").format(seat=t.seat)
    if t.phase == "defend":
        first = t.open[0] if t.open else "6S"
        text = (_("type the card that covered {cards} ({first}/card, or just the card), take, "
                  "or >card to transfer") if s.game.rules.any_transfer
                else _("type the card that covered {cards} ({first}/card, or just the card), "
                       "or take"))
        return text.format(cards=" ".join(t.open), first=first)
    return _("type the card seat {seat} threw in (of rank {ranks}), or pass (Enter)").format(
        seat=t.seat, ranks=rank_words(t.ranks))


def _in_notation(entry: str) -> str:
    """An entry typed in the player's words (``беру``, ``2:imu``) in the notation."""
    head, sep, move = entry.rpartition(":")
    return head + sep + move_word(move)


def board_lines(s: GameSession, symbols: bool = True) -> list[Text]:
    """The board in a few lines: trump, pile and discards; each other seat with its
    hand size (and the cards known in it); the table; the player's hand (the cards
    as ``10♠``, or ``TS`` where ``symbols`` is false)."""
    snap = s.snapshot()
    view = s.view()
    trump = view.trump
    lines: list[Text] = []
    suit = SUIT_SYMBOLS[trump] if symbols else SUITS[trump]
    head = Text(_("Trump") + " ").append(suit, style="bold red" if trump in (1, 2) and symbols
                                 else "bold")
    if snap["trump_card"]:
        head.append("   " + _("pile {n}, face up").format(n=snap["pile"]) + " ")
        head.append_text(card_text(parse_card(snap["trump_card"]), symbols, trump))
    else:
        head.append("   " + _("pile {n}").format(n=snap["pile"]))
    head.append("   " + _("out {n}").format(n=len(snap["out"])))
    if snap["rules"]:
        head.append("   " + _("rules: {rules}").format(rules=rules_text(snap["rules"])),
                    style="dim")
    lines.append(head)
    me = next(x for x in snap["seats"] if x["me"])
    names = {seat["seat"]: (_("Seat {seat} (engine)") if seat["engine"] else _("Seat {seat}"))
             .format(seat=seat["seat"]) for seat in snap["seats"] if not seat["me"]}
    you = _("You, seat {seat}").format(seat=me["seat"])
    # the labels' column as wide as the longest label and two spaces: none runs into its cards
    width = max(17, max(len(x) for x in [*names.values(), you, _("Table")]) + 2)
    for seat in snap["seats"]:
        if seat["me"]:
            continue
        ln = Text(names[seat["seat"]].ljust(width))
        known = [parse_card(c) for c in seat["cards"]]
        for c in known:
            ln.append_text(card_text(c, symbols, trump)).append(" ")
        if seat["hidden"]:
            unseen = ngettext("{n} unseen", "{n} unseen", seat["hidden"]).format(n=seat["hidden"])
            ln.append(("+ " if known else "") + unseen, style="dim")
        if not seat["size"]:
            ln.append(_("no cards"), style="dim")
        if seat["roles"]:
            ln.append("   " + role_words(seat["roles"]), style="cyan")
        lines.append(ln)
    if snap["table"]:
        t = Text(_("Table").ljust(width))
        for i, (a, c) in enumerate(snap["table"]):
            if i:
                t.append("   ")
            t.append_text(card_text(parse_card(a), symbols, trump))
            if c:
                t.append("/").append_text(card_text(parse_card(c), symbols, trump))
        if snap["take"]:
            t.append("   " + _("(taken)"), style="yellow")
        lines.append(t)
    mine = Text(you.ljust(width), style="bold")
    for c in me["cards"]:
        mine.append_text(card_text(parse_card(c), symbols, trump)).append(" ")
    if me["hidden"]:
        mine.append(ngettext("+ {n} not named yet", "+ {n} not named yet", me["hidden"]).format(
            n=me["hidden"]), style="dim")
    if me["roles"]:
        mine.append("   " + role_words(me["roles"]), style="cyan")
    lines.append(mine)
    return lines


__all__ = ["GamePrompt", "board_lines"]
