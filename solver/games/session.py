"""A game in progress, fed entry by entry: the one model behind `durak game`,
`durak play` and the web board's games.

A :class:`GameSession` holds a game record (docs/game-record.md) and the list of
entries accepted so far -- moves with their seats (``2:6D``) and the asking
seat's draws (``draw 7H KD``).  Everything else follows from the rules: whose
turn it is, the legal moves, what each seat draws when a bout ends (R17), what
is public (:meth:`Game.knowledge`).  The front ends hold no game logic: they
show :meth:`GameSession.snapshot` and :meth:`GameSession.turn`, pass what the
player typed or clicked to :meth:`GameSession.enter`, and ask for hints.

Two kinds of game:

* **followed** (:meth:`GameSession.follow`): a game at a real table seen from one
  seat: its own deal and draws are entered, the others' cards become known as
  they are played.  The session asks for the seat's drawn cards when a bout
  ends (:attr:`Turn.draw_due`).
* **against the engine** (:meth:`GameSession.new`): a new deal with every card
  known to the model (a full record); the engine plays the other seats
  (:meth:`GameSession.engine_move`) and deals the draws.  The player still sees
  only his seat's view (:meth:`GameSession.snapshot`).

Every accepted entry is checked by replaying the record (the record's replay is
the single judge of legality) and saved at once when the session has a file:
nothing typed is lost to Ctrl-C, and :meth:`GameSession.load` goes on from the
file.  :meth:`GameSession.undo` takes back exactly the last accepted entry.
"""
from __future__ import annotations

import os
import random
import re
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, TypeVar

from solver.errors import DurakError, MoveError, OptionError, RecordError
from solver.game.cards import SUITS, card_name, cards_of, parse_card
from solver.game.deal import new_game
from solver.game.movegen import legal_moves
from solver.game.moves import Move, parse_move_with_seat
from solver.game.outcome import outcome_info, phase_name, seat_roles
from solver.game.rules import Rules
from solver.game.state import NO_COVER, GameState, Phase
from solver.games.narration import Told, narrate
from solver.games.readings import all_cards, draw_problem, example_draw, resolve, split_entries
from solver.games.record import Game, known_deal
from solver.games.recordfile import RecordFile
from solver.games.replay import Replay
from solver.games.review import ADVISE_EXACT_TIME, advise
from solver.games.seal import seal
from solver.games.turn import Accepted, EngineSeat, EngineSeats, OnlyMove, Turn
from solver.hints import HintResult
from solver.hints.knowledge import Knowledge, PublicTracker
from solver.i18n import _, ngettext
from solver.notation import format_position
from solver.run.outfile import write_whole
from solver.search import SolveResult

#: The engine's strengths a game against it offers (the record's ``engine`` line; what
#: each one plays is :mod:`solver.play`'s, :func:`solver.play.seats.engine_seat`).
ENGINE_STRENGTHS = ("greedy", "hint", "strong", "random")
#: The default strength: the hint engine at its default budget.
DEFAULT_STRENGTH = "hint"
#: The most entries a session takes (a record far longer than any real game).
MAX_ENTRIES = 4000


#: The session's own class (its makers build one of a subclass too).
_S = TypeVar("_S", bound="GameSession")

class GameSession:
    """A game in progress (see the module docstring).

    ``game``: the record so far; ``path``: the file it is saved to after every
    accepted entry (None: not saved); ``seed``: the seed of the hints' deals (the
    same seed `durak review` uses by default, so the review judges the moves
    on the deals the hints saw); ``engine_seats``: the engine's seat at a strength,
    for a game against the engine (:class:`EngineSeat`; None: :meth:`engine_move`
    is refused, as in a followed game; :class:`solver.play.seats.GameSession`, the
    package's ``solver.GameSession``, comes with the engine's).
    """

    def __init__(self, game: Game, path: str | os.PathLike[str] | None = None, seed: int = 0,
                 engine_seats: EngineSeats | None = None):
        if game.engine is not None and game.engine[1] not in ENGINE_STRENGTHS:
            raise RecordError("engine", f"unknown strength {game.engine[1]!r} "
                                        f"(known: {', '.join(ENGINE_STRENGTHS)})")
        if game.engine is not None and not game.full:
            raise RecordError("engine", "a game against the engine is a full record "
                                        "(every deal and the pile order)")
        if game.engine is not None and game.me in game.engine[0]:
            raise RecordError("engine", f"the engine cannot play the asking seat {game.me + 1}")
        self.base = replace(game, events=[], _replay=None)
        self.game = game
        self.entries: list[str] = game.tokens()
        # the record after each entry, so an undo is exact and costs nothing
        self._games: list[Game] = [self.base]
        for tok in self.entries:
            self._games.append(self._games[-1].extended([tok]))
        self.seed = seed
        self.held: str | None = None   # a move typed before the draw it made due
        self._told: list[list[Told]] = []  # the narration of each entry, as far as told
        self._engine_seats = engine_seats
        self._engine: EngineSeat | None = None
        self._known: tuple[Game, GameState | None] | None = None
        self._kcache: tuple[tuple[int, int], Game, Knowledge] | None = None
        self._file: RecordFile | None = None
        if path is not None:
            self._file = RecordFile(Path(path))
            try:
                self._file.write(self.record_text(), len(self.entries), strict=True)
            except BaseException:  # the first save refused (a full disk): no lock left behind
                self.close()
                raise

    # ------------------------------------------------------------ building
    @classmethod
    def new(cls: type[_S], players: int = 2, rules: Rules | None = None, seed: int | None = None,
            human: int = 1, engine: str = DEFAULT_STRENGTH,
            path: str | os.PathLike[str] | None = None,
            engine_seats: EngineSeats | None = None) -> _S:
        """A new deal (seeded; default a fresh seed) against the engine at ``engine``
        strength in every seat but ``human`` (1-based)."""
        if engine not in ENGINE_STRENGTHS:
            raise OptionError(f"engine: unknown strength {engine!r} "
                              f"(known: {', '.join(ENGINE_STRENGTHS)})")
        if not 1 <= human <= players:
            raise OptionError(f"seat: seat {human} is not at this {players}-player table")
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        start = new_game(players, rules or Rules(), seed=seed)
        g = Game.from_play(start, [], me=human)
        g = replace(g, engine=(tuple(s for s in range(players) if s != human - 1), engine))
        return cls(g, path, seed=0, engine_seats=engine_seats)

    @classmethod
    def follow(cls: type[_S], players: int, trump: str, deal: str, me: int = 1,
               attacker: int | None = None, rules: Rules | str | None = None,
               path: str | os.PathLike[str] | None = None, seed: int = 0) -> _S:
        """A game at a real table followed from seat ``me`` (1-based): its dealt
        cards, the face-up trump card (the suit when the deal leaves no pile),
        the seat that leads the first bout (R6)."""
        rules_text = str(rules) if isinstance(rules, Rules) else (rules or "")
        lines = [f"players {players}", f"trump {trump}", f"me {me}", f"deal {me} {deal}"]
        if rules_text:
            lines.append(f"rules {rules_text}")
        if attacker is not None:
            lines.append(f"attacker {attacker}")
        return cls(Game.parse("\n".join(lines)), path, seed)

    @classmethod
    def load(cls: type[_S], text: str, path: str | os.PathLike[str] | None = None,
             seed: int = 0, engine_seats: EngineSeats | None = None) -> _S:
        """A session that goes on from a record's text (and saves to ``path``)."""
        return cls(Game.parse(text), path, seed, engine_seats=engine_seats)

    # ------------------------------------------------------------ state
    @property
    def me(self) -> int:
        """The asking seat (1-based): the player's."""
        return self.game.me + 1

    @property
    def engine_seats(self) -> tuple[int, ...]:
        """The seats the engine plays (1-based)."""
        return tuple(s + 1 for s in self.game.engine[0]) if self.game.engine else ()

    @property
    def strength(self) -> str | None:
        return self.game.engine[1] if self.game.engine else None

    @property
    def state(self) -> GameState:
        """The game now as the record knows it: every card in a game against the
        engine, the asking seat's replay view in a followed game."""
        return self.game.final

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def outcome(self) -> dict[str, Any] | None:
        """How the game ended (:func:`~solver.game.outcome.outcome_info`), or None."""
        return outcome_info(self.state) if self.is_over else None

    @property
    def path(self) -> Path | None:
        return self._file.path if self._file is not None else None

    def knowledge(self, seat: int | None = None) -> Knowledge:
        """What ``seat`` (1-based, default the player's) knows now: every public fact
        of the game (:meth:`Game.knowledge`)."""
        s0 = self.game.me + 1 if seat is None else seat
        key = (id(self.game), s0)
        if self._kcache is None or self._kcache[0] != key:
            self._kcache = (key, self.game, self.game.knowledge(s0, passes=False))
        return self._kcache[2]

    def view(self) -> GameState:
        """The player's view now: the whole state once the opponents' hands follow
        from what he saw (pile empty, one deal left), else his knowledge's view
        (in a followed game, until he names the cards he drew, the record's view
        with them hidden)."""
        if self._replay().draw_due:
            return self.state
        return self.known_state() or self.knowledge().view

    def known_state(self) -> GameState | None:
        """Every card placed, from what the player saw (:meth:`Game.known_state`):
        the position `durak solve` may answer exactly."""
        if self.is_over or self._replay().draw_due:
            return None
        if self._known is None or self._known[0] is not self.game:
            self._known = (self.game, known_deal(self.knowledge()))
        return self._known[1]

    def _replay(self) -> Replay:
        return self.game.replay()

    def turn(self) -> Turn:
        """Whose turn it is and what they may do (:class:`Turn`)."""
        s = self.state
        due = self._replay().draw_due
        if s.is_over:
            return Turn(None, "over", None, due)
        seat = s.to_move
        moves = None
        view = self.view()  # the player's: the engine's hand is not shown
        if not view.hidden[seat]:
            moves = tuple(str(m) for m in legal_moves(view))
        open_ = tuple(card_name(a) for a in s.open_attacks)
        ranks = tuple(sorted({card_name(c)[:-1] for c in cards_of(s.table_mask)},
                             key="23456789TJQKA".index))
        return Turn(seat + 1, phase_name(s), moves, due,
                    engine=seat in (self.game.engine[0] if self.game.engine else ()),
                    open=open_, ranks=ranks if s.phase in (Phase.THROW, Phase.TAKEN) else ())

    @property
    def engine_to_move(self) -> bool:
        t = self.turn()
        return t.engine and t.draw_due == 0

    # ------------------------------------------------------------ entries
    def enter(self, text: str) -> Accepted:
        """Take one line of play (:meth:`_enter`), with what is told after it."""
        n = len(self.entries)
        acc = self._enter(text)
        return replace(acc, told=tuple(self.told(n)))

    def _enter(self, text: str) -> Accepted:
        """Take one line of play: a move (with or without its seat, with or without
        its ``+``, ``>`` or attack card where only one reading fits), ``draw 7H KD``
        or, when a draw is due, the drawn cards alone.  Raises a
        :class:`~solver.errors.DurakError` with one line saying what was wrong
        (and what was meant, where it can tell); nothing is changed then."""
        words = " ".join(text.split())
        if not words:
            raise MoveError(_("empty entry: type a move, e.g. 6S, or `take`"))
        if self.is_over:
            raise MoveError(_("the game is over: no move may follow (R20); `undo` takes the "
                              "last move back"))
        if len(self.entries) >= MAX_ENTRIES:
            raise OptionError(_("the record holds {n} entries, the most a game takes").format(
                n=MAX_ENTRIES))
        due = self._replay().draw_due
        head = words.split(" ", 1)[0].lower()
        if head == "draw":
            return self.draw(words[4:])
        if due:
            deck = self.game.rules.deck
            # cards of his hand before the draw are a move typed too soon, not a draw
            own = self.state.hands[self.game.me] & ~self._replay().draw_known
            if all_cards(words, deck) and not any(
                    own >> parse_card(c, deck) & 1 for c in re.split(r"[\s,]+", words) if c):
                return self.draw(words)
            raise MoveError(ngettext("first name the {n} card you drew (R17), e.g. `{example}`",
                                     "first name the {n} cards you drew (R17), e.g. `{example}`",
                                     due).format(n=due, example=example_draw(self.state, due)))
        token = resolve(words, self.state, self.game.rules.deck, self.game.me,
                        self.game.engine is not None, self._try)
        return self._play_token(token)

    def enter_line(self, line: str) -> list[Accepted]:
        """Several entries typed on one line, as a record writes them: a new entry
        starts at each move with its seat (``2:6S``) and at each ``draw``; the
        words between belong to it (``7S 7H`` is a lead of two cards).  Entered
        in order; at the first bad one the error is raised, the ones before it
        stay accepted."""
        out = []
        for item in split_entries(line):
            out.append(self.enter(item))
        return out

    def play(self, move: Move | str, seat: int | None = None) -> Accepted:
        """Play a move object (or its text) for ``seat`` (1-based, default the seat to move)."""
        text = str(move)
        if seat is not None:
            text = f"{seat}:{text}"
        return self.enter(text)

    def draw(self, cards: str) -> Accepted:
        """The asking seat's drawn cards (``7H KD``), due when a bout has just ended."""
        names = [c for c in re.split(r"[\s,]+", cards.strip()) if c]
        r = self._replay()
        if not names:
            raise MoveError(_("draw: name the cards you drew, e.g. `draw {example}`").format(
                example=example_draw(self.state, r.draw_due or 1)))
        deck = self.game.rules.deck
        try:
            parsed = [card_name(parse_card(c, deck)) for c in names]
        except DurakError as e:
            raise MoveError(_("draw: {error}").format(error=e)) from None
        wrong = draw_problem(self.state, self.game.me, [parse_card(c, deck) for c in parsed],
                             r.draw_due, r.draw_known) if r.draw_due else None
        if wrong is not None:
            raise MoveError(wrong)
        token = "draw " + " ".join(parsed)
        self._commit(self.entries + [token])
        note = ""
        done = [token]
        if self.held is not None:
            held, self.held = self.held, None
            try:
                acc = self._play_token(held)
            except DurakError as e:
                note = _("the move typed before the draw was not played: {error}").format(error=e)
            else:
                done.extend(acc.entries)
                note = acc.note
        return Accepted(tuple(done), note)

    def undo(self) -> str:
        """Take back exactly the last accepted entry; returns it.  A move held until
        a draw is named is forgotten first."""
        if self.held is not None:
            held, self.held = self.held, None
            return _("{move} (held until the draw; not played)").format(move=held)
        if not self.entries:
            raise MoveError(_("nothing to undo"))
        gone = self.entries[-1]
        self._commit(self.entries[:-1])
        return gone

    def undo_turn(self) -> list[str]:
        """In a game against the engine: take back the player's last move and the
        engine's answers after it, so it is the player's turn again."""
        gone: list[str] = []
        mine = f"{self.me}:"
        while self.entries:
            last = self.entries[-1]
            gone.append(self.undo())
            if last.startswith(mine):
                break
        if not gone:
            raise MoveError(_("nothing to undo"))
        return gone

    def engine_move(self, engine: EngineSeat | None = None) -> Accepted:
        """Play the engine's move for the seat to move (an engine seat), chosen from
        that seat's view only (:class:`EngineSeat`: the session's, or ``engine``); its
        random generator is seeded by the deal and the move number, so a game replays."""
        t = self.turn()
        if t.seat is None:
            raise MoveError(_("the game is over"))
        seat = t.seat - 1
        if engine is None:
            if not t.engine:
                raise MoveError(_("seat {seat} is not played by the engine").format(seat=t.seat))
            if self._engine is None:
                assert self.strength is not None
                if self._engine_seats is None:
                    raise OptionError("engine_seats: this session was given no engine to play "
                                      "its seats (solver.GameSession comes with the engine's)")
                self._engine = self._engine_seats(self.strength)
            engine = self._engine
        # against a person nobody's hint learns from who was asked to throw in (F2)
        tracker = PublicTracker(self.game.start(), asked=self.game.engine is None)
        for _seat, m in self._replay().moves:
            tracker.play(m)
        rng = random.Random(f"engine:{self._fingerprint()}:{len(self.entries)}")
        move = engine.move(tracker, seat, rng)
        n = len(self.entries)
        acc = self._play_token(f"{t.seat}:{move}")
        return replace(acc, told=tuple(self.told(n)))

    def _fingerprint(self) -> int:
        return zlib.crc32(self.base.format().encode())

    def told(self, start: int = 0) -> list[Told]:
        """What was told at the table after the entries from ``start`` (0-based) on,
        in order (:func:`solver.games.narration.narrate`; each entry's narration is
        kept, so a game is told once however often it is asked)."""
        done = len(self._told)
        if done < len(self.entries):
            self._told.extend(narrate(self._games[done], self.game.events[done:]))
        return [t for told in self._told[start:] for t in told]

    def log(self) -> list[dict[str, Any]]:
        """The whole narration for the page's game log: each :class:`Told` as JSON with
        the number of the entry (1-based) after which it was told."""
        self.told(len(self.entries))
        return [{**t.to_json(), "entry": i + 1} for i, told in enumerate(self._told)
                for t in told]

    # ------------------------------------------------------------ answers
    def check_hint(self) -> None:
        """Raise :class:`~solver.errors.MoveError` (one line) unless a hint may be asked
        now: the game goes on, it is the player's turn, and no draw is due."""
        t = self.turn()
        if t.seat is None:
            raise MoveError(_("the game is over: there is no move to hint"))
        if t.draw_due:
            raise MoveError(ngettext("first name the {n} card you drew (R17)",
                                     "first name the {n} cards you drew (R17)",
                                     t.draw_due).format(n=t.draw_due))
        if t.seat != self.me:
            raise MoveError(_("it is seat {seat}'s turn; a hint is for seat {me}, the player, "
                              "on his turn").format(seat=t.seat, me=self.me))

    def hint(self, samples: int | None = None, seed: int | None = None,
             max_time: float | None = None, exact_time: float | None = ADVISE_EXACT_TIME,
             progress: Callable[[int, int], None] | None = None
             ) -> SolveResult | HintResult | OnlyMove:
        """The advice for the player now, exactly what `durak review` judges this
        decision by (:func:`solver.games.review.advise`): the exact analysis of every
        move once his knowledge places every card (pile empty), else the hint
        engine on his knowledge -- every public fact of the game -- at its default
        deals and the session's seed.  With one legal move there is nothing to
        weigh (and the review judges no such move): :class:`OnlyMove`, at once."""
        self.check_hint()
        moves = self.turn().moves
        if moves is not None and len(moves) == 1:
            return OnlyMove(self.me, moves[0])
        return advise(self.knowledge(), self.known_state(), samples=samples,
                      seed=self.seed if seed is None else seed, max_time=max_time,
                      exact_time=exact_time, progress=progress)

    # ------------------------------------------------------------ output
    def record_text(self) -> str:
        """The record as it is written out: against the engine, while the game is on,
        with the engine's deals and the pile order face down (:mod:`solver.games.seal`)."""
        text = self.game.format()
        return seal(text) if self.game.engine is not None and not self.is_over else text

    def save(self) -> None:
        """Write the record to the session's file, whole (a temporary file renamed
        over it: a stop at any moment leaves the old record or the new one).  A
        save that fails does not stop the game: :attr:`record_file` says so."""
        if self._file is not None:
            self._file.write(self.record_text(), len(self.entries))

    @property
    def record_file(self) -> RecordFile | None:
        """The session's record file and how saving it goes (None: not saved)."""
        return self._file

    def save_copy(self, path: str | os.PathLike[str]) -> Path:
        """Write the record to another file as well (whole, by a rename); while the
        session's own file cannot be saved, the record moves there for good."""
        p = Path(path)
        if self._file is not None and self._file.failure is not None:
            self._file.move_to(p, self.record_text(), len(self.entries))
        else:
            write_whole(str(p), self.record_text(), option="save")
        return p

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def snapshot(self, seat: int | None = None) -> dict[str, Any]:
        """The board as ``seat`` (1-based, default the player) sees it, JSON-ready:
        what the terminal draws and the web board shows."""
        s1 = self.me if seat is None else seat
        if s1 == self.me:
            view = self.view()
        else:
            view = self.knowledge(s1).view
        over = self.is_over
        if over:
            view = self.state if self.game.full else view
        t = self.turn()
        seats = []
        for s in range(view.players):
            roles = seat_roles(view, s)
            seats.append({"seat": s + 1, "cards": [card_name(c) for c in cards_of(view.hands[s])],
                          "hidden": view.hidden[s], "size": view.hand_size(s), "roles": roles,
                          "engine": s + 1 in self.engine_seats, "me": s + 1 == s1})
        moves = list(t.moves) if t.moves is not None and t.seat == s1 else None
        return {
            "players": view.players, "rules": view.rules.names(), "trump": SUITS[view.trump],
            "trump_card": card_name(view.trump_card) if view.trump_card >= 0 and view.pile else None,
            "pile": view.pile, "out": [card_name(c) for c in cards_of(view.out)],
            "table": [[card_name(a), card_name(c) if c != NO_COVER else None]
                      for a, c in view.table],
            "take": view.take, "limit": view.limit if view.table else None,
            "seats": seats, "me": s1, "turn": t.to_json(), "moves": moves,
            "over": over, "outcome": self.outcome,
            "exact": not over and self.known_state() is not None,
            "position": format_position(view, s1 - 1) if not over else None,
            "history": list(self.entries), "held": self.held,
            "engine": ({"seats": list(self.engine_seats), "strength": self.strength}
                       if self.game.engine else None),
            "record": str(self.path) if self.path else None,
        }

    # ------------------------------------------------------------ inside
    def _commit(self, entries: list[str]) -> None:
        """Make ``entries`` the record (raising at a bad one, nothing changed), then
        save it.  Entries added to the present ones are replayed alone; a shorter
        list (an undo) is a record this session had before."""
        n = len(self.entries)
        if len(entries) > n and entries[:n] == self.entries:
            games = []
            g = self.game
            for tok in entries[n:]:
                g = g.extended([tok])
                games.append(g)
            self._games.extend(games)
        elif len(entries) < n and entries == self.entries[:len(entries)]:
            del self._games[len(entries) + 1:]
        else:
            self._games = [self.base]
            self._told = []
            for tok in entries:
                self._games.append(self._games[-1].extended([tok]))
        self.game = self._games[-1]
        self.entries = list(entries)
        del self._told[len(entries):]
        self.save()

    def _try(self, token: str) -> Game | DurakError:
        try:
            return self.game.extended([token])
        except DurakError as e:
            return e

    def _play_token(self, token: str) -> Accepted:
        """Accept one move token (``2:6D``); in a followed game, the passes of hidden
        throwers it implies that end a bout with a draw due come first, as
        entries of their own, and the move waits for the draw."""
        passed = self._implied_passes(token)
        if passed:
            entries = [f"{s + 1}:pass" for s in passed]
            self._commit(self.entries + entries)
            due = self._replay().draw_due
            self.held = token
            who = ", ".join(str(s + 1) for s in passed)
            return Accepted(tuple(entries), ngettext(
                "seat(s) {who} passed and the bout ended; name the {n} card seat {seat} drew "
                "(R17), then {move} is played",
                "seat(s) {who} passed and the bout ended; name the {n} cards seat {seat} drew "
                "(R17), then {move} is played", due).format(who=who, n=due, seat=self.me,
                                                             move=token))
        self._commit(self.entries + [token])
        return Accepted((token,))

    def _implied_passes(self, token: str) -> list[int]:
        """The hidden throwers' passes ``token`` implies when they end a bout after
        which the asking seat must name drawn cards (else none: the record
        implies them by itself)."""
        if self.game.full:
            return []
        seat, mv = parse_move_with_seat(token.split(" ", 1)[0], self.game.rules.deck)
        if seat is None:
            return []
        r = self._replay().copy()
        passed: list[int] = []
        r.implicit_passes(seat - 1, mv, passed)
        return passed if r.draw_due else []


__all__ = ["DEFAULT_STRENGTH", "ENGINE_STRENGTHS", "Accepted", "EngineSeat", "EngineSeats", "GameSession",
           "OnlyMove", "Turn"]
