"""Public knowledge: what one seat knows of a game (S3 of RULES.md).

A seat sees its own hand, the table, the discard pile (``out``), every hand
size, the pile size and the face-up trump.  It also remembers cards it saw go
into an opponent's hand: the cards picked up in a take (R16) and the face-up
trump when it is drawn (R17) or swapped (R7).  Everything else -- cards drawn
from the pile, the order of the pile -- is hidden.

:class:`Knowledge` is that information in one value: ``view`` is a
:class:`GameState` in which every opponent's hand holds only the cards the seat
knows are there and ``hidden[s]`` counts the rest, with ``pile_order`` unknown.
``unseen`` is the pool of cards whose place the seat does not know; the
sampler (:mod:`solver.hints.sampler`) deals it among the hidden hand slots and the
pile.

Two ways in: :func:`knowledge_of` takes a position (a state that may already
hold ``?`` cards), :class:`PublicTracker` follows a game record move by move
from a dealt game (:func:`solver.game.deal.new_game`) and gives any seat's
knowledge at any moment.

The tracker also keeps, move by move, what the inference from the opponents'
moves needs (:mod:`solver.hints.inference`): the public state before each
move, its mover and the move, and every public change of each hand since.
:meth:`PublicTracker.observations` turns that into :class:`Observation` records:
each past decision of another seat with the recipe that gives his hand at
that moment from his hand now, exact back to his last draw of hidden cards.
:meth:`PublicTracker.facts` gives what the asking of throwers proved (F2: a
pass proves a card of a table rank, being passed over proves none), which
:meth:`PublicTracker.knowledge` hands to the sampler with the rest.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from math import comb
from typing import Iterable, Sequence

from solver.errors import PositionError
from solver.i18n import _, ngettext
from solver.game.cards import (SUIT_MASK, beaters, bit, cards_by_rank, cards_of, count, deck_mask,
                               format_cards, rank_of, ranks_in)
from solver.game.movegen import apply_move, play
from solver.game.moves import Kind, Move
from solver.game.state import GameState
from solver.policy.bots import BIG_PILE, HIGH_TRUMP_RANK, card_cost, throws_it


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows.

    ``view``: the seat's view of the game (opponents' unknown cards counted in
    ``hidden``, ``pile_order`` None).  ``unseen``: mask of the cards whose
    place is unknown.  ``pile_slots``: how many of them lie in the pile above
    its face-up bottom card (the pile minus one).  ``bottom_mask``: when
    the pile has cards but its face-up bottom card is not known, the cards it
    may be (the unseen trumps); 0 otherwise.  ``facts``: what the asking of
    throwers proved about the other hands (:class:`HandFact`; only from a
    followed game, :meth:`PublicTracker.knowledge`); the sampler deals only
    hands that agree with them.  ``not_greedy``: the other seats seen to leave
    the greedy player's move where everyone could tell
    (:meth:`PublicTracker.not_greedy`; only from a followed game): the hint
    engine then models them less by the greedy playout
    (:attr:`~solver.hints.evaluate.HintConfig.uct_mix_not_greedy`).
    """

    seat: int
    view: GameState
    unseen: int
    pile_slots: int
    bottom_mask: int = 0
    facts: tuple["HandFact", ...] = ()
    not_greedy: tuple[int, ...] = ()

    @property
    def hand_slots(self) -> tuple[int, ...]:
        return self.view.hidden

    @property
    def slots(self) -> int:
        return sum(self.view.hidden) + self.pile_slots + (1 if self.bottom_mask else 0)

    @property
    def fully_known(self) -> bool:
        return self.slots == 0


def knowledge_of(state: GameState, seat: int | None = None) -> Knowledge:
    """The knowledge of ``seat`` (default: the seat to move) in a position.

    Known cards of opponents stay known (a position that shows them says the
    seat saw them); ``?`` cards are hidden; a known ``pile_order`` is forgotten
    except its face-up bottom card.  Raises :class:`PositionError` when the
    seat's own hand is hidden or the counts do not add up.
    """
    if seat is None:
        seat = state.to_move
        if seat < 0:
            raise PositionError("me", _("the game is over: there is no seat to move"))
    if not 0 <= seat < state.players:
        raise PositionError("me", _("seat {seat} is not at this table").format(seat=seat + 1))
    if state.hidden[seat]:
        raise PositionError("me", ngettext(
            "seat {seat} must know its own hand; it holds {n} unknown card(s)",
            "seat {seat} must know its own hand; it holds {n} unknown card(s)",
            state.hidden[seat]).format(seat=seat + 1, n=state.hidden[seat]))
    view = state
    if view.pile_order is not None:
        tc = view.trump_card if view.trump_card >= 0 else view.pile_order[-1]
        view = view.replace(pile_order=None, trump_card=tc)
    return _finish(view, seat)


def _finish(view: GameState, seat: int) -> Knowledge:
    deck = deck_mask(view.rules.deck)
    known = view.all_cards()
    if known & ~deck:
        raise PositionError("hands", _("a card is not in this deck"))
    unseen = deck & ~known
    pile_slots = 0
    bottom = 0
    if view.pile > 0:
        pile_slots = view.pile - 1
        if view.trump_card < 0:
            bottom = unseen & SUIT_MASK[view.trump]
            if not bottom:
                raise PositionError(
                    "pile", _("no unseen trump is left to lie face up at the bottom of the pile"))
    need = sum(view.hidden) + pile_slots + (1 if bottom else 0)
    if need != count(unseen):
        # two counts: each its own plural form (Lithuanian and Russian agree with each)
        hidden = ngettext("{n} hidden card(s) (hands and pile)",
                          "{n} hidden card(s) (hands and pile)", need).format(n=need)
        raise PositionError("hands", ngettext(
            "{hidden} but {n} card(s) are unaccounted for",
            "{hidden} but {n} card(s) are unaccounted for", count(unseen)).format(
            hidden=hidden, n=count(unseen)))
    return Knowledge(seat=seat, view=view, unseen=unseen, pile_slots=pile_slots,
                     bottom_mask=bottom)


def seat_view(state: GameState, seat: int, known: Iterable[int] | None = None) -> Knowledge:
    """Knowledge of ``seat`` in a fully dealt ``state``, given the public ``known``
    cards of each hand (default: none known)."""
    known = tuple(known) if known is not None else (0,) * state.players
    hands = []
    hidden = []
    for s in range(state.players):
        h = state.hands[s]
        if s == seat:
            hands.append(h)
            hidden.append(state.hidden[s])
        else:
            k = h & known[s]
            hands.append(k)
            hidden.append(count(h) - count(k) + state.hidden[s])
    view = state.replace(hands=tuple(hands), hidden=tuple(hidden))
    return knowledge_of(view, seat)


@dataclass(frozen=True)
class Observation:
    """One past decision of a seat whose hand the asking seat does not see.

    ``before``: the public state before the move -- every hand hidden (its
    size in ``hidden``), the pile's order unknown, its face-up card kept.
    ``mover`` played ``move``.  ``keep`` and ``add`` give the mover's hand at
    that moment from his hand now: ``(now & keep) | add`` (the cards he has
    played since put back, the cards he picked up or drew face up since taken
    out).  That is exact only while he has drawn no hidden card since, so the
    tracker gives no observation from before such a draw (the *window*,
    :meth:`PublicTracker.observations`).
    """

    index: int  # the move's number in the game, 0-based
    mover: int
    move: Move
    before: GameState
    keep: int
    add: int

    def hand_then(self, hand_now: int) -> int:
        """The mover's hand at this decision, given his hand now."""
        return (hand_now & self.keep) | self.add

    def state_then(self, hand_now: int) -> GameState:
        """The public state of this decision with the mover's hand in it."""
        hands = [0] * self.before.players
        hidden = list(self.before.hidden)
        hands[self.mover] = self.hand_then(hand_now)
        hidden[self.mover] = 0
        return self.before.replace(hands=tuple(hands), hidden=tuple(hidden))


@dataclass(frozen=True)
class HandFact:
    """A fact about a hidden hand, proved by who was asked to throw in (F2).

    A thrower is asked only when he holds a card he may add (a card of a table
    rank, with room on the table), so a ``pass`` proves he held one (``holds``
    True) and being passed over proves he held none (``holds`` False).  Both are
    public: everyone sees who is asked.  ``cards``: the cards of the table's
    ranks then.

    His hand then, given his hand now, is within ``X = (now & keep) | add``
    (the cards he played since put back, those he picked up since taken out):
    ``X`` is his hand then plus the ``drawn`` hidden cards he has drawn since
    (R17; whether still held or played since).  With ``drawn == 0`` the fact
    is certain: a deal either meets it or cannot be the real one.  Otherwise
    which ``drawn`` of the cards of ``X`` came from the pile is unknown, and
    as the pile was shuffled every choice is equally likely, so a deal meets
    the fact with the probability that the cards of ``X`` of the table's
    ranks are (all, for *held none*; not all, for *held one*) among the
    cards drawn: hypergeometric, :meth:`likelihood`.  No model of how anyone
    plays is involved.

    ``trust`` below 1 marks a fact of a *model* of play instead (the greedy
    player's moves, :meth:`PublicTracker.model_facts`): true with probability
    ``trust``, so a deal that breaks it keeps ``1 - trust`` of its weight and
    is never ruled out.
    """

    index: int  # the move after which the fact was seen, 0-based
    seat: int
    cards: int
    holds: bool
    keep: int
    add: int
    drawn: int = 0
    trust: float = 1.0

    def likelihood(self, hand_now: int) -> float:
        """The probability of the fact if the seat's hand now is ``hand_now``."""
        x = (hand_now & self.keep) | self.add
        r = count(x & self.cards)
        k = self.drawn
        if k == 0:
            p = 1.0 if (r > 0) == self.holds else 0.0
        else:
            n = count(x)
            # P(every card of the ranks in X is one of the k drawn since): none held then
            none = comb(n - r, k - r) / comb(n, k) if r <= k <= n else 0.0
            p = 1.0 - none if self.holds else none
        return p if self.trust >= 1.0 else (1.0 - self.trust) + self.trust * p

    def agrees(self, hand_now: int) -> bool:
        """Can a deal that gives the seat ``hand_now`` be the real one?  (The
        likelihood above 0, without its binomials: the sampler asks this of
        every fact for every deal it draws.)  A fact of a model of play
        (``trust`` below 1) rules no deal out."""
        if self.trust < 1.0:
            return True
        r = (((hand_now & self.keep) | self.add) & self.cards).bit_count()
        if self.holds:
            return r > 0
        return r <= self.drawn


def agrees_with(deal: GameState, facts: Iterable[HandFact]) -> bool:
    """Can a fully known ``deal`` be the real one, given the facts?"""
    hands = deal.hands
    return all(f.agrees(hands[f.seat]) for f in facts)


def facts_likelihood(hands: Sequence[int], facts: Iterable[HandFact]) -> float:
    """The product of the facts' likelihoods under ``hands`` (each fact taken alone:
    facts about the same draws are not independent, an approximation)."""
    w = 1.0
    for f in facts:
        w *= f.likelihood(hands[f.seat])
        if w == 0.0:
            return 0.0
    return w


def public_state(state: GameState) -> GameState:
    """``state`` with every hand hidden and the pile's order forgotten (its face-up
    card kept): what every seat sees of it."""
    sizes = tuple(state.hand_size(s) for s in range(state.players))
    tc = state.trump_card
    if state.pile > 0 and tc < 0 and state.pile_order is not None:
        tc = state.pile_order[-1]
    return state.replace(hands=(0,) * state.players, hidden=sizes, pile_order=None,
                         trump_card=tc)


class PublicTracker:
    """Follows a game from its deal and keeps the public cards of every hand.

    ``known[s]``: cards everyone knows seat ``s`` holds -- picked up in a take,
    or the face-up trump drawn or swapped.  Cards leave ``known`` when they are
    played.  ``tracker.knowledge(seat)`` is the seat's knowledge now.

    For the inference from the opponents' moves it also records, per move,
    the state before it (``before[i]``; its public part is taken only when an
    observation is asked for) and each seat's hand change
    (``changes[i][s]``: the cards it lost, the cards it gained in public and
    how many hidden cards it drew); :meth:`observations` reads them.
    """

    def __init__(self, state: GameState, asked: bool = True):
        self.state = state
        #: whether who was asked to throw in is public (F2, S3): in a match, where the
        #: engine runs the game for its bots; not in a game a person plays against the
        #: engine (`durak play`, the web board), where a pass is told the same way
        #: whether or not the seat could add (docs/rules.md, under F2): no
        #: :meth:`facts` then, for the engine's seats or the player's hints
        self.asked_public = asked
        self.known: list[int] = [0] * state.players
        self.history: list[Move] = []
        self.movers: list[int] = []
        self.before: list[GameState] = []
        self.changes: list[tuple[tuple[int, int, int], ...]] = []
        #: per move: the cards of the table's ranks when throwers were asked
        #: and the throwers passed over (F2), for :meth:`facts`
        self.asked: list[tuple[int, tuple[int, ...]]] = []
        #: per move: ``known`` before it, for :meth:`not_greedy`
        self.known_before: list[tuple[int, ...]] = []

    def play(self, move: Move) -> GameState:
        prev = self.state
        skipped: list[int] = []
        nxt = play(prev, move, skipped if move.kind is not Kind.SWAP else None)
        table = prev.table_mask | sum(bit(c) for c in move.cards)
        self.asked.append((cards_by_rank(deck_mask(prev.rules.deck), ranks_in(table)),
                           tuple(skipped)))
        self.known_before.append(tuple(self.known))
        public = table
        if prev.trump_card >= 0:
            public |= bit(prev.trump_card)
        change = []
        for s in range(prev.players):
            gained = nxt.hands[s] & ~prev.hands[s]
            self.known[s] = (self.known[s] & nxt.hands[s]) | (gained & public)
            lost = prev.hands[s] & ~nxt.hands[s]
            drawn = count(gained & ~public) + max(0, nxt.hidden[s] - prev.hidden[s])
            change.append((lost, gained & public, drawn))
        self.movers.append(prev.to_move)
        self.before.append(prev)
        self.changes.append(tuple(change))
        self.state = nxt
        self.history.append(move)
        return nxt

    def knowledge(self, seat: int) -> Knowledge:
        """The seat's knowledge now, with the :meth:`facts` it has seen."""
        k = seat_view(self.state, seat, self.known)
        facts = self.facts(seat)
        if facts:
            k = replace(k, facts=facts)
        not_greedy = self.not_greedy(seat)
        return replace(k, not_greedy=not_greedy) if not_greedy else k

    def facts(self, seat: int) -> tuple[HandFact, ...]:
        """What the asking of throwers proved about the hands ``seat`` does not wholly
        know (:class:`HandFact`), oldest first.

        A ``pass`` gives a *held one* fact, being passed over a *held none*
        fact, from any time of the game; ``drawn`` counts the hidden cards the
        seat has drawn since (R17), which make the fact a probability.  None
        where who was asked is not public (:attr:`asked_public`).
        """
        if not self.asked_public:
            return ()
        out: list[HandFact] = []
        for o, i, keep, add, since in self._hands_back(seat):
            mv = self.history[i]
            cards, skipped = self.asked[i]
            if self.movers[i] == o and mv.kind is Kind.PASS:
                out.append(HandFact(i, o, cards, True, keep, add, since))
            if o in skipped:
                played = sum(bit(c) for c in mv.cards) if self.movers[i] == o else 0
                out.append(HandFact(i, o, cards, False, keep & ~played, add & ~played, since))
        out.sort(key=lambda f: (f.index, f.seat))
        return tuple(out)

    def _hands_back(self, seat: int) -> Iterable[tuple[int, int, int, int, int]]:
        """``(o, i, keep, add, since)`` for every other seat ``o`` whose hand ``seat``
        does not wholly know and every move ``i``, newest first: his hand before
        move ``i`` plus the ``since`` hidden cards he drew from move ``i`` on (at
        its end included: after its asking) is ``(hand now & keep) | add``."""
        for o in range(self.state.players):
            if o == seat or not self.state.hands[o] & ~self.known[o]:
                continue
            keep, add, since = -1, 0, 0
            for i in range(len(self.history) - 1, -1, -1):
                lost, gained, drawn = self.changes[i][o]
                since += drawn
                keep &= ~gained
                add = (add & ~gained) | lost
                yield o, i, keep, add, since

    def model_facts(self, seat: int, trust: float) -> tuple[HandFact, ...]:
        """What the other seats' moves say of their hands if they play as the greedy
        player does (:func:`solver.policy.bots.greedy_move`), each a *held none* fact with
        ``trust`` (:class:`HandFact`: no rule makes anyone play so); ``drawn``
        counts the hidden cards drawn since, as for the facts of the asking of
        throwers.  Oldest first.

        * A lead: the greedy player leads his cheapest card (a non-trump while he
          has one; a pair of its rank counts as it), so he held no cheaper card.
        * Without transfers, the answer to a single open attack: a cover is his
          cheapest card that beats it, so he held no cheaper one; a take means he
          held none that beats it -- while the pile is big (more than
          ``BIG_PILE`` cards), none but high trumps (he takes rather than spend a
          queen of trumps or higher).  With transfers he may transfer instead,
          and several open attacks are covered by a joint plan: no fact then.
        """
        out: list[HandFact] = []
        for o, i, keep, add, since in self._hands_back(seat):
            if self.movers[i] != o or self.history[i].kind not in (Kind.LEAD, Kind.COVER,
                                                                      Kind.TAKE):
                continue
            none = greedy_none(self.before[i], self.history[i])
            if none:
                out.append(HandFact(i, o, none, False, keep, add, since, trust))
        out.sort(key=lambda f: (f.index, f.seat))
        return tuple(out)

    def not_greedy(self, seat: int) -> tuple[int, ...]:
        """The other seats that, as ``seat`` can tell, have not always played the
        greedy player's move (:func:`not_greedy`)."""
        gained = [[c[1] for c in ch] for ch in self.changes]
        drew = [[c[2] > 0 for c in ch] for ch in self.changes]
        return not_greedy(seat, self.history, self.movers, self.before, self.known_before,
                          gained, drew)

    def observations(self, seat: int) -> tuple[Observation, ...]:
        """The past decisions of every other seat whose hand ``seat`` does not wholly
        know, each within its *window*: back to that seat's last draw of a hidden
        card (R17), in game order.

        Within the window his hand at each decision is exact given his hand now
        (:attr:`Observation.keep`, :attr:`Observation.add`); before it, it would
        also depend on which of his cards were the ones drawn, which no deal says
        (see :mod:`solver.hints.inference` for why those decisions are left out).
        """
        out: list[Observation] = []
        for o in range(self.state.players):
            if o == seat or not self.state.hands[o] & ~self.known[o]:
                continue
            keep, add = -1, 0
            for i in range(len(self.history) - 1, -1, -1):
                lost, gained, drawn = self.changes[i][o]
                if drawn:
                    break  # his hand before this move depends on the hidden cards drawn
                keep &= ~gained
                add = (add & ~gained) | lost
                if self.movers[i] == o:
                    out.append(Observation(i, o, self.history[i], public_state(self.before[i]),
                                           keep, add))
        out.sort(key=lambda ob: ob.index)
        return tuple(out)


def greedy_none(before: GameState, move: Move) -> int:
    """The cards the mover cannot have held if he plays ``move`` in ``before`` as the
    greedy player does (:func:`solver.policy.bots.greedy_move`; only public fields of
    ``before`` are read); 0 when the move tells nothing.

    Leads, covers and takes as :meth:`PublicTracker.model_facts` says.  An added
    card (P3, P4): no card he would rather add (:func:`~solver.policy.bots.throws_it`,
    cheaper) of a table rank -- or, for a card he would never add, that card
    itself, which he certainly held.  A pass while there was room: no card he
    would add of a table rank.
    """
    trump = before.trump
    deck = deck_mask(before.rules.deck)
    if move.kind is Kind.LEAD:
        low = min(card_cost(c, trump) for c in move.cards)
        return sum(bit(c) for c in cards_of(deck) if card_cost(c, trump) < low)
    if move.kind in (Kind.THROW, Kind.PASS):
        if len(before.table) >= before.limit:
            return 0  # no room: nobody may add a card
        ranks = before.table_ranks()
        good = [c for c in cards_of(deck) if rank_of(c) in ranks and throws_it(before, c)]
        if move.kind is Kind.PASS:
            return sum(bit(c) for c in good)  # he would have added the cheapest of them
        c = move.cards[0]
        if not throws_it(before, c):
            return bit(c)  # never added by the greedy player: he held it, so he is caught
        key = (card_cost(c, trump), c)
        return sum(bit(x) for x in good if (card_cost(x, trump), x) < key)
    if before.rules.transfer or move.kind not in (Kind.COVER, Kind.TAKE):
        return 0
    opened = before.open_attacks
    if len(opened) != 1:
        return 0
    beat = beaters(opened[0], deck, trump)
    if move.kind is Kind.COVER:
        used = card_cost(move.cards[0], trump)
        return sum(bit(c) for c in cards_of(beat) if card_cost(c, trump) < used)
    if before.pile > BIG_PILE:
        return beat & ~sum(bit(c) for c in cards_of(beat & SUIT_MASK[trump])
                           if rank_of(c) >= HIGH_TRUMP_RANK)
    return beat


#: Moves that put the mover's cards on the table for all to see.
_PLAYS = (Kind.LEAD, Kind.COVER, Kind.THROW, Kind.TRANSFER)


def not_greedy(seat: int, moves: Sequence[Move], movers: Sequence[int],
               before: Sequence[GameState], known: Sequence[Sequence[int]],
               gained: Sequence[Sequence[int]], drew: Sequence[Sequence[bool]]
               ) -> tuple[int, ...]:
    """The seats other than ``seat`` that, as everyone at the table can tell, have
    not always played the greedy player's move (:func:`solver.policy.bots.greedy_move`).

    Move ``i`` was played by ``movers[i]`` in ``before[i]`` (only its public
    fields are read); ``known[i][o]``: the cards everyone knew seat ``o`` held
    before it (picked up in a take, R16; the face-up trump drawn, R17);
    ``gained[i][o]``: the cards ``o`` picked up in public in it; ``drew[i][o]``:
    whether ``o`` drew a hidden card at its end.

    A greedy move says the mover held none of some cards then
    (:func:`greedy_none`: a cheaper card to lead, a cheaper beater, any beater
    when he takes, a card he would rather add or any he would add when he
    passes).  A seat is caught when one of those cards was certainly in
    his hand: known to all, or played by him later before he next drew a hidden
    card (a card played after such a draw may be the one drawn).  No model of
    play is involved, so a greedy player is never caught (tested), and a seat
    caught once stays caught.
    """
    out = []
    for o in range(before[0].players if before else 0):
        if o == seat:
            continue
        certain = 0  # cards certainly in o's hand before move i, from what he played later
        for i in range(len(moves) - 1, -1, -1):
            mv = moves[i]
            mine = movers[i] == o
            played = sum(bit(c) for c in mv.cards) if mine and mv.kind in _PLAYS else 0
            certain = played | (0 if drew[i][o] else certain & ~gained[i][o])
            if mine and greedy_none(before[i], mv) & (certain | known[i][o]):
                out.append(o)
                break
    return tuple(out)


def not_greedy_in_views(seat: int, views: Sequence[GameState], moves: Sequence[Move]
                        ) -> tuple[int, ...]:
    """:func:`not_greedy` along one seat's views of a game (a seat's own record,
    :mod:`solver.games`): ``views[i]`` is the view before move ``i`` and one more
    after the last; the other hands hold only the cards the seat knows there."""
    n = len(moves)
    known, gained, drew = [], [], []
    for i in range(n):
        prev, nxt, mv = views[i], views[i + 1], moves[i]
        known.append(prev.hands)
        table = prev.table_mask | sum(bit(c) for c in mv.cards)
        public = table | (bit(prev.trump_card) if prev.trump_card >= 0 else 0)
        g_row, d_row = [], []
        for o in range(prev.players):
            # a view shows a hidden card once it is played, so cards appear in a
            # hand unseen: only table cards and the face-up trump are gained in public
            got = nxt.hands[o] & ~prev.hands[o] & public
            played = len(mv.cards) if prev.to_move == o and mv.kind in _PLAYS else 0
            grew = (count(nxt.hands[o]) + nxt.hidden[o]) - (count(prev.hands[o]) + prev.hidden[o])
            g_row.append(got)
            d_row.append(grew + played - count(got) > 0)
        gained.append(g_row)
        drew.append(d_row)
    return not_greedy(seat, moves, [v.to_move for v in views[:n]], views[:n], known, gained, drew)


def replay(state: GameState, moves: Iterable[Move | str]) -> PublicTracker:
    """A tracker after playing ``moves`` (move objects or text) from ``state``."""
    t = PublicTracker(state)
    for m in moves:
        mv = Move.parse(m, state.rules.deck) if isinstance(m, str) else m
        apply_move(t.state, mv)  # checks legality; raises IllegalMoveError
        t.play(mv)
    return t


def describe(k: Knowledge) -> str:
    """One line: the unseen pool and the slots it fills (for diagnostics)."""
    parts = [f"seat {s + 1}: {n}" for s, n in enumerate(k.hand_slots) if n]
    if k.pile_slots:
        parts.append(f"pile: {k.pile_slots}")
    return f"unseen {format_cards(k.unseen)} -> " + (", ".join(parts) or "nothing hidden")

