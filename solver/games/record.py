"""Game records: a whole game in text or JSON, parsed, formatted, replayed.

The format is specified in docs/game-record.md.  In short::

    players 2
    rules transfer
    trump 9H
    me 1
    deal 1 6S 7S KH 8C 9C AH
    moves
    1:6S 2:6S/8S 1:+8C 2:take 1:pass
    2:7D 1:7D/9D 2:pass draw 7S KD

The header gives the rules and seats, the asking seat's own deal (``deal``;
every seat's in a full record) and the face-up trump (R5); a full record may
give the pile order (``pile``).  The moves follow in the move notation with
a seat prefix; draws are implied by the rules (R17), the asking seat's own
drawn cards are given by ``draw``.  The game ends where the rules end it (R20).

:class:`Game` is the Python face: ``Game.parse(text)``, ``game.format()``,
``game.to_json()``, ``game.positions()``, ``game.knowledge(seat)``.  Seats are
1-based in the API and 0-based in the fields.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from solver.errors import DurakError, PositionError, RecordError
from solver.game.cards import (SUITS, bit, card_name, cards_of, deck_mask, parse_card, parse_suit,
                               suit_of, to_mask)
from solver.game.defaults import has_hidden_cards
from solver.game.movegen import play
from solver.game.moves import PASS, Move
from solver.game.rules import HAND_SIZE, Rules, bout_cap, parse_rules
from solver.game.state import GameState
from solver.games.fields import (card_list, card_names, engine_text, int_field, join_words,
                                 lowest_trump_holder, parse_engine, parse_events, seat_field)
from solver.games.replay import Event, Replay, replay_events
from solver.games.seal import unseal
from solver.hints.knowledge import Knowledge, PublicTracker, knowledge_of, not_greedy_in_views
from solver.hints.sampler import Sampler
from solver.inputs.jsonin import NumberTooLong, loads

#: The header keys of a record, in the order they are written.
HEADER_KEYS = ("players", "rules", "trump", "me", "attacker", "engine", "deal", "pile", "moves")


@dataclass
class Game:
    """One game record (docs/game-record.md).

    ``deals[s]``: the six dealt cards of seat ``s`` (0-based) where the record
    gives them; ``me``: the asking seat (0-based); ``trump_card``: the face-up
    trump (-1 when the deal leaves no pile, R5); ``pile``: the pile order,
    top first, ending with the face-up trump, where known; ``attacker``: the
    first attacker (R6) where given; ``events``: the moves and draws.
    """

    players: int
    rules: Rules
    trump: int
    trump_card: int = -1
    me: int = 0
    deals: dict[int, int] = field(default_factory=dict)
    pile: tuple[int, ...] | None = None
    attacker: int | None = None
    events: list[Event] = field(default_factory=list)
    engine: tuple[tuple[int, ...], str] | None = None
    _replay: Replay | None = field(default=None, repr=False, compare=False)

    # ------------------------------------------------------------ reading
    @classmethod
    def parse(cls, text: str) -> "Game":
        """A record from its text or JSON form; raises :class:`RecordError`."""
        t = text.strip()
        if t.startswith("{"):
            try:
                data = loads(t)
            except json.JSONDecodeError as e:
                raise RecordError("json", f"not valid JSON: {e.msg} at line {e.lineno} "
                                          f"column {e.colno}") from None
            except NumberTooLong as e:  # named by its field, as a wrong value would be
                raise RecordError(e.field, e.problem) from None
            return cls.from_json(data)
        header: list[tuple[str, str]] = []
        tokens: list[str] = []
        in_moves = False
        for line in unseal(text).splitlines():
            line = line.split("#", 1)[0]
            for item in line.split(";"):
                item = item.strip()
                if not item:
                    continue
                if in_moves:
                    tokens.extend(item.split())
                    continue
                key, _, value = item.partition(" ")
                key = key.rstrip(":").lower()
                if key == "moves":
                    in_moves = True
                    tokens.extend(value.split())
                    continue
                header.append((key, value.strip()))
        return cls._build(header, tokens)

    @classmethod
    def from_json(cls, data: Any) -> "Game":
        if not isinstance(data, dict):
            raise RecordError("json", "a record is a JSON object")
        header: list[tuple[str, str]] = []
        for key, value in data.items():
            if key in ("format", "outcome", "final"):
                continue
            if key == "moves":
                continue
            if key == "rules":
                value = ",".join(value) if isinstance(value, list) else str(value or "")
            elif key == "deals":
                if not isinstance(value, dict):
                    raise RecordError("deals", "an object of seat: [cards]")
                for seat, cards in value.items():
                    header.append(("deal", f"{seat} {join_words(cards)}"))
                continue
            elif key == "pile":
                value = join_words(value)
            elif value is None:
                continue
            header.append((key, str(value)))
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise RecordError("moves", "a list of move strings")
        tokens: list[str] = []
        for m in moves:
            tokens.extend(str(m).split())
        return cls._build(header, tokens)

    @classmethod
    def _build(cls, header: list[tuple[str, str]], tokens: list[str]) -> "Game":
        fields: dict[str, str] = {}
        deal_items: list[str] = []
        for key, value in header:
            if key not in HEADER_KEYS:
                raise RecordError(key, f"unknown key {key!r} (known: {', '.join(HEADER_KEYS)})")
            if key == "deal":
                deal_items.append(value)
            elif key in fields:
                raise RecordError(key, "given twice")
            else:
                fields[key] = value
        try:
            rules = parse_rules(fields.get("rules", ""))
        except DurakError as e:
            raise RecordError("rules", str(e)) from None
        players = int_field(fields, "players", None)
        if players is None or not 2 <= players <= 6:
            raise RecordError("players", f"need 2 to 6 players, got {fields.get('players')!r}")
        deck = rules.deck
        if players * HAND_SIZE > deck:
            raise RecordError("players", f"{players} players need {players * HAND_SIZE} cards, "
                                         f"the deck has {deck}")
        if rules.teams and players != 4:
            raise RecordError("rules", "teams=2v2 needs exactly 4 players")
        deals: dict[int, int] = {}
        for item in deal_items:
            parts = item.split()
            seat = seat_field(parts[0] if parts else "", players, "deal")
            if seat in deals:
                raise RecordError(f"deal {seat + 1}", "given twice")
            cards = card_list(parts[1:], deck, f"deal {seat + 1}")
            if len(cards) != HAND_SIZE:
                raise RecordError(f"deal {seat + 1}", f"a deal has {HAND_SIZE} cards, "
                                                      f"got {len(cards)} (R5)")
            deals[seat] = to_mask(cards)
        me = seat_field(fields["me"], players, "me") if "me" in fields else None
        if me is None:
            if len(deals) == 1:
                me = next(iter(deals))
            elif deals:
                me = min(deals)
            else:
                raise RecordError("deal", "the asking seat's own deal is missing")
        if me not in deals:
            raise RecordError("deal", f"the deal of the asking seat {me + 1} is missing")
        pile_left = deck - players * HAND_SIZE
        tr = fields.get("trump", "").strip()
        if not tr:
            raise RecordError("trump", "missing: the face-up trump card (or the suit when "
                                       "the deal leaves no pile)")
        trump_card = -1
        try:
            if pile_left > 0:
                trump_card = parse_card(tr, deck)
                trump = suit_of(trump_card)
            else:
                trump = parse_suit(tr) if len(tr) == 1 else suit_of(parse_card(tr, deck))
        except DurakError as e:
            raise RecordError("trump", f"{tr!r}: {e}") from None
        pile = None
        if "pile" in fields:
            if pile_left == 0:
                raise RecordError("pile", "this deal leaves no pile (R5)")
            pile = tuple(card_list(fields["pile"].split(), deck, "pile"))
            if len(pile) != pile_left:
                raise RecordError("pile", f"the pile holds {pile_left} cards after the deal, "
                                          f"got {len(pile)}")
            if pile[-1] != trump_card:
                raise RecordError("pile", f"the last card of the pile is the face-up trump "
                                          f"{card_name(trump_card)} (R5), got {card_name(pile[-1])}")
        seen = 0
        for seat in sorted(deals):
            for c in cards_of(deals[seat]):
                if seen & bit(c):
                    raise RecordError(f"deal {seat + 1}", f"{card_name(c)} is dealt twice")
                seen |= bit(c)
        if trump_card >= 0 and seen & bit(trump_card):
            raise RecordError("trump", f"{card_name(trump_card)} is face up and also dealt")
        if pile is not None:
            for c in pile:
                if seen & bit(c):
                    raise RecordError("pile", f"{card_name(c)} is in the pile and dealt")
            if len(deals) != players:
                raise RecordError("pile", "a pile order needs every deal (a full record)")
        attacker = seat_field(fields["attacker"], players, "attacker") if "attacker" in fields else None
        engine = parse_engine(fields["engine"], players) if "engine" in fields else None
        events = parse_events(tokens, deck, players)
        game = cls(players=players, rules=rules, trump=trump, trump_card=trump_card, me=me,
                   deals=deals, pile=pile, attacker=attacker, events=events, engine=engine)
        game.replay()  # every error of the moves is found now
        return game

    # ------------------------------------------------------------ building
    @classmethod
    def from_play(cls, start: GameState, moves: Iterable[Move | str], me: int = 1) -> "Game":
        """A full record of a game dealt by :func:`solver.game.deal.new_game`, then ``moves``."""
        if has_hidden_cards(start):
            raise RecordError("deal", "a full record needs every card of the start known")
        if start.table or start.out:
            raise RecordError("deal", "a record starts at the deal (solver.game.deal.new_game)")
        state = start
        events = []
        for i, m in enumerate(moves, 1):
            mv = Move.parse(m, start.rules.deck) if isinstance(m, str) else m
            seat = state.to_move
            events.append(Event("move", seat, mv, token=f"{seat + 1}:{mv}", number=i))
            state = play(state, mv)
        game = cls(players=start.players, rules=start.rules, trump=start.trump,
                   trump_card=start.trump_card, me=me - 1,
                   deals={s: h for s, h in enumerate(start.hands)},
                   pile=start.pile_order, attacker=start.attacker, events=events)
        game.replay()
        return game

    def for_seat(self, seat: int) -> "Game":
        """The record as ``seat`` (1-based) knows it: its own deal and draws only."""
        s0 = seat - 1
        if s0 not in self.deals:
            raise RecordError("me", f"the record does not hold the deal of seat {seat}")
        r = self.replay()
        events: list[Event] = []
        states = r.before + [r.state]
        for i, ev in enumerate(e for e in self.events if e.kind == "move"):
            events.append(ev)
            before, after = states[i], states[i + 1]
            if before.table and not after.table and before.pile > 0:
                assert ev.move is not None
                played = sum(bit(c) for c in ev.move.cards)
                got = after.hands[s0] & ~before.hands[s0] & ~before.table_mask & ~played
                if got:
                    names = " ".join(card_name(c) for c in cards_of(got))
                    events.append(Event("draw", cards=tuple(cards_of(got)), token=names,
                                        number=ev.number))
        return Game(players=self.players, rules=self.rules, trump=self.trump,
                    trump_card=self.trump_card, me=s0, deals={s0: self.deals[s0]}, pile=None,
                    attacker=self.start().attacker, events=events, engine=self.engine)

    # ------------------------------------------------------------ replaying
    @property
    def full(self) -> bool:
        """Every card of the game is known (every deal, and the pile order if there is a pile)."""
        return len(self.deals) == self.players and (self.pile is not None
                                                    or self.trump_card < 0)

    def start(self) -> GameState:
        """The state after the deal, as the record knows it."""
        n = self.players
        hands = tuple(self.deals.get(s, 0) for s in range(n))
        hidden = tuple(0 if s in self.deals else HAND_SIZE for s in range(n))
        pile_left = deck_mask(self.rules.deck).bit_count() - n * HAND_SIZE
        attacker = self.attacker
        if len(self.deals) == n:
            leader = lowest_trump_holder(hands, self.trump)
            if attacker is not None and attacker != leader:
                raise RecordError("attacker", f"seat {leader + 1} holds the lowest trump and "
                                              f"leads the first bout (R6), not seat {attacker + 1}")
            attacker = leader
        if attacker is None:
            first = next((e for e in self.events if e.kind == "move"), None)
            if first is None:
                raise RecordError("attacker", "missing: who leads the first bout (R6)")
            attacker = first.seat
        state = GameState(rules=self.rules, trump=self.trump, hands=hands, hidden=hidden,
                          attacker=attacker, defender=-1, pile=pile_left,
                          trump_card=self.trump_card if pile_left > 0 else -1,
                          pile_order=self.pile, cap=bout_cap(self.rules, 0))
        return state.replace(defender=state.defender_for(attacker))

    def replay(self) -> Replay:
        if self._replay is None:
            self._replay = replay_events(self.start(), self.me, self.events)
        return self._replay

    @property
    def moves(self) -> list[tuple[int, Move]]:
        """The record's moves: (1-based seat, move)."""
        return [(s + 1, m) for s, m in self.replay().moves]

    def positions(self) -> list[GameState]:
        """The state before each move of the record, then the final state."""
        r = self.replay()
        return list(r.before) + [r.state]

    @property
    def final(self) -> GameState:
        return self.replay().state

    def outcome(self) -> tuple[int, ...] | None:
        """Per seat +1/0/-1 once the game is over (R20-R22), else None."""
        f = self.final
        return f.outcome() if f.is_over else None

    def knowledge(self, seat: int | None = None, at: int | None = None,
                  passes: bool = True) -> Knowledge:
        """What ``seat`` (1-based, default the asking seat) knows before move ``at``
        (1-based; default: at the end of the record).

        A full record is followed by :class:`PublicTracker`; a record of one seat
        is replayed from that seat's view.  At the end of a record, throwers with
        hidden hands asked before ``seat`` are taken to have passed -- unless
        ``passes`` is false (a game still being entered: they may yet throw in).
        """
        s0 = self.me if seat is None else seat - 1
        if not 0 <= s0 < self.players:
            raise RecordError("me", f"seat {seat} is not at this {self.players}-player table")
        r = self.replay()
        n = len(r.moves)
        at_ = n + 1 if at is None else at
        if not 1 <= at_ <= n + 1:
            raise RecordError("move", f"the record has {n} moves; no move {at_}")
        if self.full:
            # who was asked to throw in is public in a match, not in a game a person
            # played against the engine (its record names the engine; docs/rules.md, F2)
            t = PublicTracker(self.start(), asked=self.engine is None)
            for _, m in r.moves[:at_ - 1]:
                t.play(m)
            return t.knowledge(s0)
        if at_ <= n:
            state = r.before[at_ - 1]
        else:
            state = r.state
            if passes:
                tmp = Replay(r.state, self.me)
                tmp.implicit_passes(s0, PASS)
                state = tmp.state
        try:
            k = knowledge_of(state, s0)
        except PositionError as e:
            raise RecordError("me", f"seat {s0 + 1}: {e.problem} (the record must give its "
                                    "deal and every card it drew: `draw ...`)") from None
        views = list(r.before[:at_ - 1]) + [state]
        caught = not_greedy_in_views(s0, views, [m for _, m in r.moves[:at_ - 1]])
        return replace(k, not_greedy=caught) if caught else k

    def known_state(self, seat: int | None = None, at: int | None = None,
                    passes: bool = True) -> GameState | None:
        """The whole state, every card placed, before move ``at`` (1-based; default
        the end) when ``seat``'s knowledge (1-based, default the asking seat) leaves
        exactly one deal -- the pile empty (two players: S1, the opponent's hand
        follows from what the seat saw) or holding only the face-up trump -- so the
        position may be solved exactly from its view (:func:`known_deal`).
        ``None`` otherwise.  ``passes`` as for :meth:`knowledge`."""
        return known_deal(self.knowledge(seat, at, passes))

    # ------------------------------------------------------------ writing
    def format(self) -> str:
        """The canonical text form: header lines, then one bout per line."""
        lines = ["# durak game record (docs/game-record.md)", f"players {self.players}"]
        if self.rules.names():
            lines.append(f"rules {self.rules}")
        lines.append(f"trump {card_name(self.trump_card) if self.trump_card >= 0 else SUITS[self.trump]}")
        lines.append(f"me {self.me + 1}")
        lines.append(f"attacker {self.start().attacker + 1}")
        if self.engine is not None:
            lines.append(f"engine {engine_text(self.engine)}")
        for s in sorted(self.deals):
            lines.append(f"deal {s + 1} {card_names(self.deals[s])}")
        if self.pile is not None:
            lines.append("pile " + " ".join(card_name(c) for c in self.pile))
        lines.append("moves")
        lines.extend(self._bout_lines())
        return "\n".join(lines) + "\n"

    def _bout_lines(self) -> list[str]:
        """One bout per line; the asking seat's draw ends the line of the bout it follows."""
        states = self.positions()
        lines: list[list[str]] = [[]]
        i = 0
        for ev in self.events:
            if ev.kind == "draw":
                lines[-1].append("draw " + " ".join(card_name(c) for c in ev.cards))
                continue
            if i > 0 and not states[i].table and lines[-1]:
                lines.append([])
            lines[-1].append(f"{ev.seat + 1}:{ev.move}")
            i += 1
        return [" ".join(ln) for ln in lines if ln]

    def tokens(self) -> list[str]:
        return [("draw " + " ".join(card_name(c) for c in ev.cards)) if ev.kind == "draw"
                else f"{ev.seat + 1}:{ev.move}" for ev in self.events]

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": "durak-record/1", "players": self.players,
                             "rules": self.rules.names(),
                             "trump": (card_name(self.trump_card) if self.trump_card >= 0
                                       else SUITS[self.trump]),
                             "me": self.me + 1, "attacker": self.start().attacker + 1,
                             **({"engine": engine_text(self.engine)} if self.engine else {}),
                             "deals": {str(s + 1): [card_name(c) for c in cards_of(self.deals[s])]
                                       for s in sorted(self.deals)}}
        if self.pile is not None:
            d["pile"] = [card_name(c) for c in self.pile]
        d["moves"] = self.tokens()
        out = self.outcome()
        if out is not None:
            d["outcome"] = list(out)
        return d

    def with_tokens(self, tokens: list[str]) -> "Game":
        """The same header with the moves section ``tokens`` (``2:6D``, ``draw 7H``, ...),
        replayed; raises :class:`RecordError` at the first bad one."""
        words = [w for t in tokens for w in t.split()]
        game = replace(self, events=parse_events(words, self.rules.deck, self.players), _replay=None)
        game.replay()
        return game

    def extended(self, tokens: list[str]) -> "Game":
        """This record with ``tokens`` (``2:6D``, ``draw 7H``, ...) added after its
        moves, replaying only them; raises :class:`RecordError` at the first bad one
        (this record is left as it was)."""
        words = [w for t in tokens for w in t.split()]
        moves = sum(1 for e in self.events if e.kind == "move")
        new = parse_events(words, self.rules.deck, self.players, moves)
        r2 = self.replay().copy()
        for ev in new:
            r2.apply(ev)
        return replace(self, events=self.events + new, _replay=r2)

    def with_moves(self, n: int) -> "Game":
        """The record cut after its first ``n`` moves (and the draws that follow them)."""
        events: list[Event] = []
        k = 0
        for ev in self.events:
            if ev.kind == "move":
                if k == n:
                    break
                k += 1
            events.append(ev)
        return replace(self, events=events, _replay=None)


def known_deal(k: Knowledge) -> GameState | None:
    """The one deal ``k`` leaves, every card then placed by what the seat saw (the
    pile empty, or holding only cards the seat can place: its face-up trump), else
    None (:meth:`Game.known_state`)."""
    if k.view.pile == 0 and k.fully_known:
        return k.view
    sampler = Sampler(replace(k, facts=()))
    if sampler.count() != 1:
        return None
    deal = next(iter(sampler.enumerate()))
    return deal if deal.pile == 0 or deal.pile_order is not None else None


def load_game(text: str) -> Game:
    """:meth:`Game.parse` as a function."""
    return Game.parse(text)


__all__ = ["Game", "known_deal", "load_game"]

